//! Accessible mode (#33 §2): the terminal's cursor on what has focus
//! after each move, no box drawing, the current row and the active tab
//! marked in the text.

use super::screens::popups;
use super::*;
use crate::app::tests::type_str;
use crate::tui::clamped::Clamped;
use ratatui::layout::Position;

pub(super) fn accessible() -> Theme {
    let mut t = Theme::dark();
    t.accessible = true;
    t
}

/// One frame through the backend the TUI draws with: the screen, where
/// the terminal's cursor is, and whether it is shown.
fn frame(s: &mut State, w: u16, h: u16, theme: &Theme) -> (Buffer, Option<Position>, bool) {
    let mut term = Terminal::new(Clamped::new(TestBackend::new(w, h))).unwrap();
    term.draw(|f| draw(f, s, theme)).unwrap();
    let (shown, at) = term.backend().cursor();
    (
        term.backend().inner().buffer().clone(),
        at,
        shown == Some(true),
    )
}

/// The screen's row `y`.
fn row(b: &Buffer, y: u16) -> String {
    (0..b.area.width).map(|x| b[(x, y)].symbol()).collect()
}

/// The cursor is shown, on a row marked `>` that says `what`.
fn on_marked_row(s: &mut State, w: u16, h: u16, what: &str) -> Position {
    let (b, at, shown) = frame(s, w, h, &accessible());
    let at = at.unwrap_or_else(|| panic!("no cursor at {w}x{h}:\n{}", text(&b)));
    assert!(shown, "the cursor is shown in accessible mode");
    let line = row(&b, at.y);
    assert_eq!(b[at].symbol(), ">", "{at:?} in {line:?}\n{}", text(&b));
    assert!(
        line.contains(what),
        "{what:?} not in {line:?}\n{}",
        text(&b)
    );
    at
}

/// Box drawing, the arrow of a focused pane, or a run of one punctuation
/// mark (4 or more): what a screen reader reads aloud as noise.
fn decoration(t: &str) -> Option<String> {
    for (n, line) in t.lines().enumerate() {
        if let Some(c) = line
            .chars()
            .find(|c| ('\u{2500}'..='\u{259F}').contains(c) || *c == '▶')
        {
            return Some(format!("{c:?} on line {n}: {line}"));
        }
        let cs: Vec<char> = line.chars().collect();
        if let Some(w) = cs
            .windows(4)
            .find(|w| w[0].is_ascii_punctuation() && w.iter().all(|c| *c == w[0]))
        {
            return Some(format!("a run of {:?} on line {n}: {line}", w[0]));
        }
    }
    None
}

/// The scene with the detail open beside the list (the Links tab chosen,
/// as the popups' screens have it).
pub(super) fn opened() -> State {
    let mut s = scene();
    s.on_key(code(KeyCode::Enter));
    for _ in 0..3 {
        s.on_key(key(']'));
    }
    s.on_key(code(KeyCode::Esc));
    s
}

#[test]
fn no_box_drawing_in_accessible_mode_on_any_screen_at_80x24_and_160x45() {
    for (w, h) in [(80, 24), (160, 45)] {
        let mut s = opened();
        let b = render(&mut s, w, h, &accessible());
        if let Some(d) = decoration(&text(&b)) {
            panic!("{w}x{h}: {d}\n{}", text(&b));
        }
        snap(&format!("accessible_{w}x{h}"), &b);
        // The same screen drawn as usual has its lines (the test can fail).
        assert!(decoration(&text(&render(&mut s, w, h, &Theme::dark()))).is_some());
        for (name, setup) in popups() {
            let mut s = opened();
            setup(&mut s);
            let t = text(&render(&mut s, w, h, &accessible()));
            if let Some(d) = decoration(&t) {
                panic!("{name} at {w}x{h}: {d}\n{t}");
            }
        }
        let mut s = super::inbox::inbox_scene();
        s.on_key(key('i'));
        let t = text(&render(&mut s, w, h, &accessible()));
        assert_eq!(decoration(&t), None, "inbox at {w}x{h}:\n{t}");
        let mut s = opened();
        s.on_key(key('b'));
        assert!(s.board.is_some());
        let t = text(&render(&mut s, w, h, &accessible()));
        assert_eq!(decoration(&t), None, "board at {w}x{h}:\n{t}");
    }
}

#[test]
fn the_cursor_is_on_the_current_list_row_after_each_move() {
    for (w, h) in [(80, 24), (160, 45)] {
        let mut s = scene();
        let mut last = on_marked_row(&mut s, w, h, "#101");
        for (k, label) in [('j', "#102"), ('j', "#103"), ('k', "#102")] {
            s.on_key(key(k));
            let at = on_marked_row(&mut s, w, h, label);
            assert_eq!(at.x, last.x, "the row's first column");
            assert_eq!(at.y as i32 - last.y as i32, if k == 'j' { 1 } else { -1 });
            last = at;
        }
    }
}

#[test]
fn outside_accessible_mode_the_cursor_is_hidden_but_placed_on_the_focus() {
    let mut s = scene();
    s.on_key(key('j'));
    let (_, at, _) = frame(&mut s, 80, 24, &accessible());
    let mut term = Terminal::new(Clamped::new(TestBackend::new(80, 24))).unwrap();
    let mut m = Metrics::default();
    term.draw(|f| m = crate::ui::render(f, &s, &Theme::dark()))
        .unwrap();
    assert_eq!(m.cursor, at, "the same place as in accessible mode");
    assert!(!m.caret);
    assert_eq!(term.backend().cursor().0, Some(false), "hidden");
    // The loop places it there (hidden), as the TUI does after a frame.
    let drawn = term.backend().cursor().1;
    assert_ne!(drawn, at, "not placed by the frame itself");
}

#[test]
fn the_cursor_is_on_the_inbox_item_and_moves_with_it() {
    for (w, h) in [(80, 24), (160, 45)] {
        let mut s = super::inbox::inbox_scene();
        s.on_key(key('i'));
        on_marked_row(&mut s, w, h, "#101");
        s.on_key(key('j'));
        on_marked_row(&mut s, w, h, "#102");
    }
}

#[test]
fn the_cursor_is_on_a_pickers_highlighted_candidate() {
    let picker = popups()
        .into_iter()
        .find(|(n, _)| *n == "picker")
        .unwrap()
        .1;
    let drafts = popups()
        .into_iter()
        .find(|(n, _)| *n == "attach")
        .unwrap()
        .1;
    for (w, h) in [(80, 24), (160, 45)] {
        let mut s = opened();
        picker(&mut s);
        on_marked_row(&mut s, w, h, "sam.t@acme.test");
        // The arrows move (letters narrow: the one picker, #40 §5).
        s.on_key(code(KeyCode::Down));
        on_marked_row(&mut s, w, h, "sam.taylor@acme.test");
        let mut s = opened();
        drafts(&mut s);
        on_marked_row(&mut s, w, h, "minutes-2026-11.docx");
    }
}

/// A text input's caret just after what was typed: shown in accessible
/// mode (and in the palette always), placed but hidden otherwise.
fn caret_after(s: &mut State, typed: &str, theme: &Theme, shown_always: bool) {
    let mut m = Metrics::default();
    let mut term = Terminal::new(Clamped::new(TestBackend::new(80, 24))).unwrap();
    term.draw(|f| m = crate::ui::render(f, s, theme)).unwrap();
    let b = term.backend().inner().buffer().clone();
    let at = m
        .cursor
        .unwrap_or_else(|| panic!("no caret:\n{}", text(&b)));
    let (shown, drawn) = term.backend().cursor();
    if theme.accessible || shown_always {
        assert_eq!((shown, drawn), (Some(true), Some(at)), "shown there");
    } else {
        assert_eq!(shown, Some(false), "hidden outside accessible mode");
    }
    let before: String = (at.x - typed.chars().count() as u16..at.x)
        .map(|x| b[(x, at.y)].symbol().to_string())
        .collect();
    assert_eq!(before, typed, "{:?}\n{}", row(&b, at.y), text(&b));
}

#[test]
fn the_caret_is_in_the_palette_the_composer_and_the_filter_form() {
    for theme in [accessible(), Theme::dark()] {
        let mut s = opened();
        s.on_key(key(':'));
        type_str(&mut s, "stat");
        caret_after(&mut s, "stat", &theme, true);
        s.on_key(code(KeyCode::Left));
        caret_after(&mut s, "sta", &theme, true);

        let mut s = opened();
        s.on_key(key('c'));
        type_str(&mut s, "Looks good");
        caret_after(&mut s, "Looks good", &theme, false);
        s.on_key(code(KeyCode::Enter));
        type_str(&mut s, "ok");
        caret_after(&mut s, "ok", &theme, false);

        let mut s = opened();
        s.on_key(key('f'));
        for _ in 0..5 {
            s.on_key(code(KeyCode::Down));
        }
        type_str(&mut s, "nda");
        caret_after(&mut s, "nda", &theme, false);
    }
}

#[test]
fn the_cursor_is_on_the_filter_forms_field_and_the_sharing_editors_row() {
    let sharing = popups()
        .into_iter()
        .find(|(n, _)| *n == "sharing")
        .unwrap()
        .1;
    for (w, h) in [(80, 24), (160, 45)] {
        let mut s = opened();
        s.on_key(key('f'));
        on_marked_row(&mut s, w, h, "status");
        s.on_key(code(KeyCode::Down));
        let a = on_marked_row(&mut s, w, h, "status");
        s.on_key(code(KeyCode::Down));
        let b = on_marked_row(&mut s, w, h, "status");
        assert_eq!(b.y, a.y + 1);

        let mut s = opened();
        sharing(&mut s);
        on_marked_row(&mut s, w, h, "visibility");
        s.on_key(key('j'));
        on_marked_row(&mut s, w, h, "Me Myself");
        s.on_key(key('j'));
        on_marked_row(&mut s, w, h, "Ops");
    }
}

#[test]
fn the_active_tab_is_in_brackets_and_the_current_comment_marked() {
    let mut s = super::text::markdown_scene();
    s.on_key(key(']'));
    let task_id = s.detail.as_ref().unwrap().task_id.clone();
    let comment = |id: &str, parent: Option<&str>, content: &str| {
        serde_json::from_value::<crate::api::Comment>(serde_json::json!({
            "id": id, "task_id": task_id, "content": content,
            "author": {"id": "u-bob", "name": "Bob Okafor", "email": "bob@acme.test"},
            "parent_comment_id": parent,
            "created_at": "2026-11-01T05:30:00Z", "updated_at": "2026-11-01T05:30:00Z"
        }))
        .unwrap()
    };
    s.detail.as_mut().unwrap().comments = crate::app::state::Load::Loaded(vec![
        comment("c1", None, "first ---- and ====="),
        comment("c2", Some("c1"), "> quoted\n\n***\n\nDone."),
    ]);
    s.rebuild_comment_tree();
    s.focus = Focus::Detail;
    for (w, h) in [(80, 24), (160, 45)] {
        let at = on_marked_row(&mut s, w, h, "from Bob Okafor");
        let b = render(&mut s, w, h, &accessible());
        let t = text(&b);
        assert!(t.contains("[Comments]") || t.contains("[Cmts]"), "{t}");
        s.on_key(key('j'));
        let next = on_marked_row(&mut s, w, h, "reply from Bob Okafor");
        assert!(next.y > at.y);
        s.on_key(key('k'));
        let t = text(&render(&mut s, w, h, &accessible()));
        // What the service wrote is the service's: only what taskdeck
        // draws is checked for decoration.
        let ours = t.replace("----", "").replace("=====", "");
        assert_eq!(decoration(&ours), None, "{t}");
        assert!(t.contains("(rule)") && t.contains("| quoted"), "{t}");
    }
}

#[test]
fn in_accessible_mode_a_message_stays_until_the_next_and_nothing_turns() {
    for accessible_mode in [true, false] {
        let mut s = opened();
        s.accessible = accessible_mode;
        assert!(!s.inflight.is_empty(), "the scene waits for answers");
        s.say(Level::Info, "first");
        let later = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let spinner = s.spinner;
        s.on_tick(later);
        assert_eq!(
            s.status.as_ref().map(|m| m.1.as_str()),
            accessible_mode.then_some("first"),
            "accessible: {accessible_mode}"
        );
        // No spinner turns in accessible mode.
        assert_eq!(s.spinner == spinner, accessible_mode);
        if accessible_mode {
            s.say(Level::Info, "second");
            assert_eq!(s.status.as_ref().map(|m| m.1.as_str()), Some("second"));
            let b = render(&mut s, 80, 24, &accessible());
            assert!(row(&b, 22).contains("second"), "{}", text(&b));
            assert!(row(&b, 0).contains("loading 3 requests"), "{}", text(&b));
        }
    }
}

/// In accessible mode a popup's rows are its own: a screen reader reads
/// row by row, and the list's text beside the popup (`#102   high …`)
/// read on with the popup's line as one. Blank beside it, as the
/// composer's.
#[test]
fn in_accessible_mode_a_popups_rows_hold_only_the_popup() {
    for (name, said) in [
        ("confirm", "Remove the review link"),
        ("compose", "Looks good: sending the redlines today."),
    ] {
        let setup = popups().into_iter().find(|(n, _)| *n == name).unwrap().1;
        // Drawn as usual, some row of the popup has the pane's text beside
        // it (the test can fail).
        let mut beside = false;
        for (w, h) in [(120, 12), (120, 14), (80, 12)] {
            let mut s = opened();
            setup(&mut s);
            let t = text(&render(&mut s, w, h, &accessible()));
            let line = t
                .lines()
                .find(|l| l.contains(said))
                .unwrap_or_else(|| panic!("{name} at {w}x{h}:\n{t}"));
            assert!(
                line.trim_start().starts_with(said),
                "{name} at {w}x{h}: the pane's text beside the popup: {line:?}\n{t}"
            );
            let normal = text(&render(&mut s, w, h, &Theme::dark()));
            let drawn = normal
                .lines()
                .find(|l| l.contains(said))
                .unwrap_or_else(|| panic!("{name} at {w}x{h}:\n{normal}"));
            let (left, _) = drawn.split_once(said).unwrap();
            beside |= left.chars().any(char::is_alphanumeric);
        }
        assert!(beside, "{name}: no pane text beside the popup at any size");
    }
}
