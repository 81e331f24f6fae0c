//! Whole-screen snapshots and the cells where colour carries meaning.

use super::*;
use crate::api::{Task, TaskItem};
#[allow(unused_imports)]
use crate::app::state::*;
use crate::app::tests::{code, key, loaded, task_json};
use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Style};
use ratatui::Terminal;

/// The due date's wire name, from the field table.
const DUE: &str = crate::domain::task_field::TaskField::Due.wire();

pub(super) fn render(s: &mut State, w: u16, h: u16, theme: &Theme) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| draw(f, s, theme)).unwrap();
    term.backend().buffer().clone()
}

/// A whole-screen snapshot with clock times filtered (the scene's due
/// dates are relative to now).
pub(super) fn snap(name: &str, b: &Buffer) {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"\d{4}-\d\d-\d\d \d\d:\d\d", "[date time]");
    settings.bind(|| insta::assert_snapshot!(name, text(b)));
}

pub(super) fn text(b: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..b.area.height {
        for x in 0..b.area.width {
            out.push_str(b[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// Three tasks: one overdue, one draft, one with hostile text.
pub(super) fn scene() -> State {
    let mut s = loaded(0);
    let now = jiff::Timestamp::now();
    let mut a = task_json(101);
    a["title"] = "Renew the Contoso NDA".into();
    a[DUE] = (now - jiff::SignedDuration::from_hours(3 * 24))
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
        .into();
    a["priority"] = "urgent".into();
    let mut b = task_json(102);
    b["title"] = "Draft engagement letter".into();
    b["draft"] = true.into();
    b["status"] = "not_started".into();
    b[DUE] = (now + jiff::SignedDuration::from_hours(5 * 24))
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
        .into();
    let mut c = task_json(103);
    c["title"] = "Evil \u{1b}[2J\u{1b}]0;pwned\u{7}title \u{202e}gnp.exe \u{9b}31m".into();
    c["status"] = "blocked".into();
    c["priority"] = "critical".into();
    c["x_sla"] = serde_json::json!({"tier": 2});
    for v in [a, b, c] {
        let t: Task = serde_json::from_value(v).unwrap();
        // Listed by the walk's (only) page, as the service's answer would.
        s.list.page_of.insert(t.id.clone(), 0);
        s.list.items.push(TaskItem::Task(Box::new(t)));
    }
    s.list.end_reached = true;
    // The row under the cursor is the current task.
    s.follow_cursor();
    s
}

#[test]
fn main_screen_120x40() {
    let mut s = scene();
    let b = render(&mut s, 120, 40, &Theme::dark());
    snap("list_120x40", &b);
}

#[test]
fn main_screen_80x24() {
    let mut s = scene();
    let b = render(&mut s, 80, 24, &Theme::dark());
    snap("list_80x24", &b);
}

#[test]
fn detail_overview_120x40() {
    let mut s = scene();
    s.on_key(key('j'));
    s.on_key(key('j'));
    s.on_key(code(KeyCode::Enter));
    let b = render(&mut s, 120, 40, &Theme::dark());
    snap("detail_120x40", &b);
}

#[test]
fn detail_links_tab_80x24() {
    let mut s = scene();
    s.on_key(code(KeyCode::Enter));
    for _ in 0..3 {
        s.on_key(key(']'));
    }
    let b = render(&mut s, 80, 24, &Theme::dark());
    snap("links_80x24", &b);
}

#[test]
fn help_overlay_80x24() {
    let mut s = scene();
    s.on_key(key('?'));
    for c in "due".chars() {
        s.on_key(key(c));
    }
    let b = render(&mut s, 80, 24, &Theme::dark());
    snap("help_due_80x24", &b);
}

/// A picker with nothing to choose says why in full at 80 columns: the
/// reason wraps inside the popup instead of being cut at its edge.
#[test]
fn an_empty_picker_says_why_in_full_at_80_columns() {
    use crate::app::popups::chooser::{Chooser, ChooserKind};
    let mut s = scene();
    s.overlay = Overlay::Chooser(Chooser::new(ChooserKind::Drafts, vec![]));
    let b = render(&mut s, 80, 24, &Theme::dark());
    let t = text(&b);
    assert!(t.contains("no draft task seen"), "{t}");
    assert!(t.contains("stored)"), "the reason cut at the edge:\n{t}");
}

pub(super) fn find(b: &Buffer, needle: &str) -> (u16, u16) {
    let t = text(b);
    for (y, line) in t.lines().enumerate() {
        if let Some(byte) = line.find(needle) {
            let x = line[..byte].chars().count();
            return (x as u16, y as u16);
        }
    }
    panic!("{needle:?} not on screen:\n{t}");
}

#[test]
fn overdue_and_draft_stand_out_with_and_without_colour() {
    let mut s = scene();
    let b = render(&mut s, 120, 40, &Theme::dark());
    let (x, y) = find(&b, "!3d overdue");
    assert_eq!(
        b[(x + 1, y)].fg,
        ratatui::style::Color::LightRed,
        "dark: light red, 5.25:1 on black"
    );
    let (x, y) = find(&b, "[DRAFT]");
    assert_eq!(b[(x, y)].fg, ratatui::style::Color::Yellow);
    // NO_COLOR: no colour anywhere, but the marks and modifiers remain.
    let b = render(&mut s, 120, 40, &Theme::mono());
    for cell in b.content() {
        assert_eq!(cell.fg, ratatui::style::Color::Reset);
        assert_eq!(cell.bg, ratatui::style::Color::Reset);
    }
    let (x, y) = find(&b, "!3d overdue");
    assert!(b[(x + 1, y)]
        .modifier
        .contains(ratatui::style::Modifier::UNDERLINED));
    let (x, y) = find(&b, "> #101");
    assert!(
        b[(x + 3, y)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED),
        "selection visible"
    );
}

#[test]
fn hostile_text_never_reaches_a_cell() {
    let mut s = scene();
    s.on_key(key('j'));
    s.on_key(key('j'));
    s.on_key(code(KeyCode::Enter));
    for (w, h) in [(120, 40), (80, 24), (200, 60)] {
        let b = render(&mut s, w, h, &Theme::dark());
        for cell in b.content() {
            assert!(
                !cell.symbol().chars().any(crate::text::is_dangerous),
                "control character in a cell: {:?}",
                cell.symbol()
            );
        }
        assert!(text(&b).contains("Evil"));
    }
}

#[test]
fn too_small_says_so() {
    let mut s = scene();
    let b = render(&mut s, 40, 8, &Theme::dark());
    assert!(text(&b).contains("too small"));
    for (w, h) in [(0, 0), (1, 1), (2, 50), (300, 1)] {
        render(&mut s, w, h, &Theme::dark());
    }
}

#[test]
fn built_in_themes_parse_cleanly() {
    for name in ["dark", "light", "high-contrast"] {
        let (_, warnings) = Theme::load(name, false);
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
    }
    let (t, w) = Theme::load("neon", false);
    assert_eq!(w.len(), 1);
    assert_eq!(t.overdue, Theme::dark().overdue);
    assert_eq!(
        parse_style("black on yellow bold").unwrap(),
        Style::default()
            .fg(Color::Black)
            .bg(Color::Yellow)
            .add_modifier(Modifier::BOLD)
    );
    assert!(parse_style("chartreuse").is_err());
    let (mono, _) = Theme::load("dark", true);
    assert_eq!(mono.overdue.fg, None);
}

mod fuzz {
    use super::super::fuzzing::{page_from_bytes, render_page};
    use proptest::prelude::*;

    fn hostile_bytes() -> impl Strategy<Value = Vec<u8>> {
        let pieces = prop_oneof![
            Just(b"\x1b[2J".to_vec()),
            Just(b"\x1b]0;title\x07".to_vec()),
            Just(b"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\".to_vec()),
            Just(b"\x1b]52;c;aGk=\x07".to_vec()),
            Just(b"\x1bP+q\x1b\\".to_vec()),
            Just("\u{9b}31m".as_bytes().to_vec()),
            Just("\u{202e}\u{2066}".as_bytes().to_vec()),
            Just(b"\r\n\t".to_vec()),
            Just(br#"[{"id":"a","title":"\u001b[31m","status":7}]"#.to_vec()),
            proptest::collection::vec(any::<u8>(), 0..40),
        ];
        proptest::collection::vec(pieces, 0..8).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
        #[test]
        fn any_page_renders_without_control_characters(
            bytes in hostile_bytes(),
            w in 0u16..300,
            h in 0u16..100,
            tab in 0usize..7,
        ) {
            let r = render_page(page_from_bytes(&bytes), w, h, tab);
            prop_assert!(r.is_ok(), "{:?}", r);
        }
    }

    #[test]
    fn the_fuzz_entry_point_catches_what_it_should() {
        // Sanity: the checker itself sees a control character when one is
        // put in a cell (so the property above can fail).
        let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 2, 1));
        buf[(0, 0)].set_symbol("\u{1b}");
        assert!(buf
            .content()
            .iter()
            .any(|c| c.symbol().chars().any(crate::text::is_dangerous)));
        assert!(super::super::fuzzing::fuzz_one(b"\x00\x30\x02\x1b[2J").is_ok());
    }
}

#[test]
fn the_row_under_the_last_task_shows_loading_or_the_end() {
    let mut s = loaded(0);
    for i in 1..=60 {
        s.list
            .items
            .push(TaskItem::Task(Box::new(crate::app::tests::task(i))));
    }
    s.list.loading = true;
    s.list.end_reached = false;
    s.select_row(59);
    let b = render(&mut s, 80, 24, &Theme::dark());
    let t = text(&b);
    assert!(t.contains("> #60"), "{t}");
    assert!(t.contains("loading…"), "{t}");
    s.list.loading = false;
    s.list.end_reached = true;
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("end of list"), "{t}");
}

#[test]
fn the_mouse_scrolls_and_clicks_select_a_row() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut s = scene();
    render(&mut s, 120, 40, &Theme::dark());
    let ev = |kind, row| MouseEvent {
        kind,
        column: 5,
        row,
        modifiers: KeyModifiers::NONE,
    };
    let now = std::time::Instant::now();
    s.on_mouse(ev(MouseEventKind::ScrollDown, 10), now);
    assert_eq!(s.list.selected, 1);
    s.on_mouse(ev(MouseEventKind::ScrollUp, 10), now);
    assert_eq!(s.list.selected, 0);
    // Row 0 header, 1 the views' tabs, 2 border, 3 column titles: row 6
    // is the third task.
    s.on_mouse(ev(MouseEventKind::Down(MouseButton::Left), 6), now);
    assert_eq!(s.list.selected, 2);
    // The current task follows the click.
    assert_eq!(
        s.detail.as_ref().map(|d| d.task_id.clone()),
        s.list.selected_id().map(str::to_string)
    );
}

#[test]
fn the_list_title_shows_active_filters_with_me_for_you() {
    let mut s = loaded(0);
    s.filters = crate::app::state::fields::parse_filters("assigned=me status=completed", s.my_id())
        .unwrap();
    let t = list::title_line(&s);
    assert!(t.contains("filter status=completed assigned=me"), "{t}");
}

/// Rows scrolled out of sight above are said in the list's title, as
/// rows not yet loaded below are: a refresh that puts rows above the
/// cursor (which stays where it was) leaves them in sight by name.
#[test]
fn rows_above_the_view_are_said_in_the_title() {
    let mut s = loaded(40);
    let top = text(&render(&mut s, 80, 24, &Theme::dark()));
    let title = top.lines().nth(2).unwrap();
    assert!(
        !title.contains("above"),
        "at the top nothing is above: {title}"
    );
    for _ in 0..30 {
        s.on_key(key('j'));
    }
    let screen = text(&render(&mut s, 80, 24, &Theme::dark()));
    let title = screen.lines().nth(2).unwrap();
    let first_row = screen.lines().nth(4).unwrap();
    let above = s.list.offset;
    assert!(above > 0, "the list scrolled");
    assert!(title.contains(&format!("| {above} above")), "{title}");
    // The first row shown is the one after those said to be above.
    let expected = s.list.items[above]
        .task()
        .unwrap()
        .display_id
        .raw()
        .to_string();
    assert!(first_row.contains(&expected), "{first_row} / {expected}");
}

// ---- text as written: Markdown, files, mentions, local times ----

const EVIL: &str = "\u{1b}[2J\u{9b}31m\u{202e}";
/// Hostile text without brackets (they would change a link's Markdown).
const EVIL_LINK: &str = "\u{1b}\u{9b}31m\u{202e}";

mod access;
mod cut;
mod grapheme;
mod inbox;
mod keyline;
mod marks;
mod mouse;
mod pickers;
mod screens;
mod text;
mod typed;
mod views;
