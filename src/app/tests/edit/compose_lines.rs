//! The composer's lines: a line feed is a new line, never a deletion.

use super::*;

/// ctrl-j (a line feed: a newline pasted without bracketed paste, Enter on
/// some terminals) starts a new line; the text area's own ctrl-j deleted
/// the line typed so far.
#[test]
fn a_line_feed_starts_a_new_line_and_keeps_what_was_typed() {
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::new(None);
    s.on_key(key('c'));
    type_str(&mut s, "pasted line one");
    s.on_key(ctrl('j'));
    type_str(&mut s, "line two");
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.text(), "pasted line one\nline two"),
        _ => panic!("the composer must stay open"),
    }
}

/// A 1 MB paste is kept whole, typed onto and sent whole; above
/// `composer::WRAP_LIMIT` the text is no longer wrapped on screen (the
/// whole text was laid out again at each key: 0.25–0.7 s a key) and the
/// composer says so; back under it, it wraps again. The time a key takes
/// is measured by benches/composer.rs, not here.
#[test]
fn a_huge_paste_is_kept_and_sent_whole_and_said_not_wrapped() {
    use crate::app::state::composer::WRAP_LIMIT;
    use ratatui_textarea::WrapMode;
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::new(None);
    s.on_key(key('c'));
    // Lines of a log, then one line of 200 kB without a break.
    let mut big: String = (0..8000)
        .map(|i| format!("line {i:05} {}\n", "word ".repeat(20)))
        .collect();
    big.push_str(&"x".repeat(200_000));
    assert!(big.len() > 1_000_000);
    s.on_paste(&big);
    type_str(&mut s, "!");
    assert_eq!(composer(&s).text(), format!("{big}!"));
    assert_eq!(composer(&s).editor.wrap_mode(), WrapMode::None);
    assert!(
        screen(&mut s).contains("long text: lines not wrapped"),
        "the composer says it does not wrap"
    );
    // Sent whole.
    let fx = s.on_key(ctrl('s'));
    let sent: Vec<_> = reqs(&fx)
        .into_iter()
        .filter_map(|r| match r {
            ApiRequest::AddComment { content, .. } => Some(content),
            _ => None,
        })
        .collect();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].len(), big.len() + 1);
    assert_eq!(sent[0], format!("{big}!"));

    // A small text wraps, and wraps again once cut back under the limit.
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::new(None);
    s.on_key(key('c'));
    type_str(&mut s, "short");
    assert_eq!(composer(&s).editor.wrap_mode(), WrapMode::WordOrGlyph);
    assert!(!screen(&mut s).contains("long text"));
    s.on_paste(&"y".repeat(WRAP_LIMIT));
    assert_eq!(composer(&s).editor.wrap_mode(), WrapMode::None);
    for _ in 0..20 {
        s.on_key(code(KeyCode::Backspace));
        if composer(&s).editor.wrap_mode() == WrapMode::WordOrGlyph {
            break;
        }
    }
    assert_eq!(composer(&s).editor.wrap_mode(), WrapMode::WordOrGlyph);
    assert!(
        composer(&s).text().len() >= WRAP_LIMIT - 20,
        "a few keys back"
    );
}

fn composer(s: &State) -> &Compose {
    match &s.overlay {
        Overlay::Compose(c) => c,
        _ => panic!("the composer must stay open"),
    }
}

fn screen(s: &mut State) -> String {
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    term.draw(|f| crate::ui::draw(f, s, &crate::ui::Theme::dark()))
        .unwrap();
    let buf = term.backend().buffer();
    buf.content().iter().map(|c| c.symbol()).collect()
}
