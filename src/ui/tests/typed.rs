//! One-line inputs at 80 columns (the review): a long text typed or
//! pasted into the palette's `:` line, the search line, a picker's
//! `find:` line or a filter form's field hid the cursor beyond the right
//! edge, and a paste into a form field wrapped and pushed a row out of
//! view. Now each shows the part around the cursor, cut by width
//! (`cut::around`), on one row.

use super::*;
use ratatui::layout::Position;

/// A long text ending in `END`: 200 columns.
fn long() -> String {
    format!("{}END", "0123456789".repeat(20))
}

/// One frame at 80×24: the screen and where the focus (or caret) is.
fn frame(s: &mut State) -> (Buffer, Position) {
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut at = None;
    term.draw(|f| {
        let m = crate::ui::render(f, s, &Theme::dark());
        at = m.cursor;
    })
    .unwrap();
    let b = term.backend().buffer().clone();
    let at = at.unwrap_or_else(|| panic!("no cursor:\n{}", text(&b)));
    (b, at)
}

fn row(b: &Buffer, y: u16) -> String {
    (0..b.area.width).map(|x| b[(x, y)].symbol()).collect()
}

/// The row holding `what`.
fn row_with(b: &Buffer, what: &str) -> String {
    (0..b.area.height)
        .map(|y| row(b, y))
        .find(|r| r.contains(what))
        .unwrap_or_else(|| panic!("{what:?} not on screen:\n{}", text(b)))
}

#[test]
fn the_palette_line_shows_the_end_of_a_long_paste_with_the_caret_after_it() {
    let mut s = scene();
    s.on_key(key(':'));
    s.on_paste(&long());
    let (b, at) = frame(&mut s);
    let line = row(&b, at.y);
    assert!(line.contains(":…") && line.contains("789END_"), "{line}");
    // The caret is right after `END`, on screen.
    assert!(at.x < 80, "{at:?}");
    let before: String = (at.x - 3..at.x).map(|x| b[(x, at.y)].symbol()).collect();
    assert_eq!(before, "END", "{line}");
    // Home: the start, cut on the right, the caret on its first character.
    s.on_key(code(KeyCode::Home));
    let (b, at) = frame(&mut s);
    let line = row(&b, at.y);
    assert!(line.contains(":0123456789") && line.contains('…'), "{line}");
    assert!(!line.contains("END"), "{line}");
    assert_eq!(b[(at.x, at.y)].symbol(), "0", "{line}");
}

#[test]
fn the_search_line_keeps_the_cursor_in_sight() {
    let mut s = scene();
    s.on_key(key('/'));
    s.on_paste(&long());
    let (b, at) = frame(&mut s);
    let line = row(&b, at.y);
    assert!(line.contains("/…") && line.contains("789END_"), "{line}");
    let before: String = (at.x - 3..at.x).map(|x| b[(x, at.y)].symbol()).collect();
    assert_eq!(before, "END", "{line}");
}

#[test]
fn a_choosers_find_line_shows_the_end_of_a_long_paste() {
    let mut s = scene();
    crate::app::tests::palette(&mut s, "recent");
    assert!(matches!(s.overlay, Overlay::Chooser(_)));
    s.on_paste(&long());
    let b = render(&mut s, 80, 24, &Theme::dark());
    let line = row_with(&b, "find: ");
    assert!(
        line.contains("find: …") && line.contains("789END▏"),
        "{line}"
    );
    // Inside the popup's frame, right against it.
    assert!(line.contains("END▏│"), "{line}");
}

#[test]
fn a_pickers_find_line_shows_the_end_of_a_long_text() {
    let mut s = super::pickers::two_litigation_teams();
    crate::app::tests::type_str(&mut s, &long());
    let b = render(&mut s, 80, 24, &Theme::dark());
    let line = row_with(&b, "find: ");
    assert!(
        line.contains("find: …") && line.contains("789END▏│"),
        "{line}"
    );
}

#[test]
fn a_long_paste_into_a_filter_field_stays_one_row_and_in_sight() {
    let mut s = scene();
    s.open_filter_form();
    let before = text(&render(&mut s, 80, 24, &Theme::dark()));
    // Down to the first text field ("assigned to").
    for _ in 0..5 {
        s.on_key(code(KeyCode::Down));
    }
    s.on_paste(&long());
    let (b, at) = frame(&mut s);
    let line = row(&b, at.y);
    assert!(
        line.contains("assigned to") && line.contains("789END_"),
        "{line}"
    );
    let shown: String = (at.x - 3..at.x).map(|x| b[(x, at.y)].symbol()).collect();
    assert_eq!(shown, "END", "{line}");
    // Each field one row: the next one is on the row below, every row of
    // the form is where it was, and the key line is still there.
    assert!(row(&b, at.y + 1).contains("involving"), "{}", text(&b));
    let after = text(&b);
    for label in ["involving", "team (name or id)", "ctrl-r clears all"] {
        let y = |t: &str| t.lines().position(|l| l.contains(label));
        assert_eq!(y(&before), y(&after), "{label}:\n{after}");
    }
}
