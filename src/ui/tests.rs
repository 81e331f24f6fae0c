//! Whole-screen snapshots and the cells where colour carries meaning.

use super::*;
use crate::api::{Task, TaskItem};
use crate::app::tests::{code, key, loaded, task_json};
use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;

fn render(s: &mut State, w: u16, h: u16, theme: &Theme) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| draw(f, s, theme)).unwrap();
    term.backend().buffer().clone()
}

/// A whole-screen snapshot with clock times filtered (the scene's due
/// dates are relative to now).
fn snap(name: &str, b: &Buffer) {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"\d{4}-\d\d-\d\d \d\d:\d\d", "[date time]");
    settings.bind(|| insta::assert_snapshot!(name, text(b)));
}

fn text(b: &Buffer) -> String {
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
fn scene() -> State {
    let mut s = loaded(0);
    let now = chrono::Utc::now();
    let mut a = task_json(101);
    a["title"] = "Renew the Contoso NDA".into();
    a["complete_by"] = (now - chrono::Duration::days(3))
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
        .into();
    a["priority"] = "urgent".into();
    let mut b = task_json(102);
    b["title"] = "Draft engagement letter".into();
    b["draft"] = true.into();
    b["status"] = "not_started".into();
    b["complete_by"] = (now + chrono::Duration::days(5))
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
        .into();
    let mut c = task_json(103);
    c["title"] = "Evil \u{1b}[2J\u{1b}]0;pwned\u{7}title \u{202e}gnp.exe \u{9b}31m".into();
    c["status"] = "blocked".into();
    c["priority"] = "critical".into();
    c["x_sla"] = serde_json::json!({"tier": 2});
    for v in [a, b, c] {
        let t: Task = serde_json::from_value(v).unwrap();
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

fn find(b: &Buffer, needle: &str) -> (u16, u16) {
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
    assert_eq!(b[(x + 1, y)].fg, ratatui::style::Color::Red);
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
    let area = ratatui::layout::Rect::new(0, 0, 120, 40);
    s.on_mouse(ev(MouseEventKind::ScrollDown, 10), area);
    assert_eq!(s.list.selected, 1);
    s.on_mouse(ev(MouseEventKind::ScrollUp, 10), area);
    assert_eq!(s.list.selected, 0);
    // Row 0 header, 1 border, 2 column titles: row 5 is the third task.
    s.on_mouse(ev(MouseEventKind::Down(MouseButton::Left), 5), area);
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
    s.filters =
        crate::app::fields::parse_filters("assigned=me status=completed", s.my_id()).unwrap();
    let t = list::title_line(&s);
    assert!(t.contains("filter status=completed assigned=me"), "{t}");
}

// ---- text as written: Markdown, files, mentions, local times ----

const EVIL: &str = "\u{1b}[2J\u{9b}31m\u{202e}";
/// Hostile text without brackets (they would change a link's Markdown).
const EVIL_LINK: &str = "\u{1b}\u{9b}31m\u{202e}";

/// One task whose description is Markdown with hostile text in every
/// element, a sized input file, and the detail open at the top.
fn markdown_scene() -> State {
    let mut s = loaded(0);
    let mut t = task_json(7);
    t["title"] = "Review the Fabrikam SPA".into();
    t["description"] = format!(
        "Sign **bold{EVIL}** and *soft{EVIL}*\n\n- item one\n- `code{EVIL}`\n\n\
         1. first\n2. second\n\n> quoted{EVIL}\n\nSee [the doc{EVIL_LINK}](https://x.test/{EVIL_LINK})"
    )
    .into();
    t["additional_context"] = "```\nlet  spaced = 1;\n```".into();
    t["input_files"] = serde_json::json!([
        {"id": "33333333-3333-4333-8333-333333333333", "name": "SPA draft v3.docx",
         "size_bytes": 230400, "content_type": "application/msword"},
        {"id": "44444444-4444-4444-8444-444444444444", "name": "one.txt", "size_bytes": 1,
         "content_type": "text/plain"}
    ]);
    t["output_files"] = serde_json::json!([
        {"id": "55555555-5555-4555-8555-555555555555", "name": "redline.pdf",
         "size_bytes": 1258291, "content_type": "application/pdf"}
    ]);
    let t: Task = serde_json::from_value(t).unwrap();
    s.list.items.push(TaskItem::Task(Box::new(t)));
    s.list.end_reached = true;
    s.follow_cursor();
    s.on_key(code(KeyCode::Enter));
    s
}

fn no_controls(b: &Buffer) {
    for cell in b.content() {
        assert!(
            !cell.symbol().chars().any(crate::text::is_dangerous),
            "control character in a cell: {:?}",
            cell.symbol()
        );
    }
}

#[test]
fn markdown_description_renders_with_hostile_text_inside() {
    let mut s = markdown_scene();
    s.on_key(key('+')); // the detail fills the screen
    let b = render(&mut s, 100, 50, &Theme::dark());
    no_controls(&b);
    snap("markdown_overview_100x50", &b);
    let t = text(&b);
    assert!(t.contains("Sign bold␛[2J"), "{t}");
    assert!(!t.contains("**"), "no asterisks: {t}");
    assert!(t.contains("• item one"), "a bullet: {t}");
    assert!(t.contains("1. first"), "{t}");
    assert!(t.contains("│ quoted"), "{t}");
    assert!(
        t.contains("See the doc␛�31m� <https://x.test/␛�31m�>"),
        "the target shows: {t}"
    );
    assert!(t.contains("let  spaced = 1;"), "code verbatim: {t}");
    let (x, y) = find(&b, "Sign bold");
    assert!(b[(x + 5, y)].modifier.contains(Modifier::BOLD), "bold");
    assert!(
        !b[(x, y)].modifier.contains(Modifier::BOLD),
        "only the bold part"
    );
    let (x, y) = find(&b, "soft");
    assert!(b[(x, y)].modifier.contains(Modifier::ITALIC), "italic");
    let (x, y) = find(&b, "code␛");
    assert_eq!(b[(x, y)].fg, Theme::dark().accent.fg.unwrap(), "code style");
}

#[test]
fn the_raw_view_shows_the_text_exactly_as_written() {
    let mut s = markdown_scene();
    s.on_key(key('+'));
    s.on_key(key('m'));
    assert!(s.markdown_raw, "raw view on");
    let b = render(&mut s, 100, 50, &Theme::dark());
    s.on_key(key('m'));
    assert!(!s.markdown_raw, "m again: rendered");
    no_controls(&b);
    let t = text(&b);
    assert!(t.contains("text as written"), "the title says so: {t}");
    assert!(t.contains("Sign **bold␛[2J"), "{t}");
    assert!(t.contains("- item one"), "{t}");
    assert!(t.contains("[the doc"), "{t}");
    assert!(!t.contains("• item one"), "{t}");
    // And back: rendered again.
    let t = text(&render(&mut s, 100, 50, &Theme::dark()));
    assert!(
        t.contains("• item one") && !t.contains("text as written"),
        "{t}"
    );
}

#[test]
fn files_tab_shows_names_sizes_and_types_in_columns() {
    let mut s = markdown_scene();
    while s.detail.as_ref().unwrap().tab != crate::app::state::Tab::Files {
        s.on_key(key(']'));
    }
    let b = render(&mut s, 120, 24, &Theme::dark());
    snap("files_120x24", &b);
    let t = text(&b);
    assert!(t.contains("3 files"), "{t}");
    // No-break spaces show as spaces.
    let t = t.replace('\u{a0}', " ");
    for want in ["225 KB", "1 byte", "1.2 MB", "application/msword"] {
        assert!(t.contains(want), "{want}: {t}");
    }
    // Narrow: sizes and names wrap as whole words.
    let t = text(&render(&mut s, 70, 24, &Theme::dark())).replace('\u{a0}', " ");
    assert!(t.contains("225 KB") && t.contains("1.2 MB"), "{t}");
}

#[test]
fn comments_render_markdown_mentions_and_files() {
    let mut s = markdown_scene();
    s.on_key(key(']'));
    let task_id = s.detail.as_ref().unwrap().task_id.clone();
    let comment = |id: &str, parent: Option<&str>, content: &str, files: &[&str]| {
        serde_json::from_value::<crate::api::Comment>(serde_json::json!({
            "id": id, "task_id": task_id, "content": content,
            "author": {"id": "u-bob", "name": "Bob Okafor", "email": "bob@acme.test"},
            "parent_comment_id": parent,
            "mentioned_users": [{"id": "u-al", "name": "Alice Martin", "email": "alice@acme.test"}],
            "file_ids": files,
            "created_at": "2026-11-01T05:30:00Z", "updated_at": "2026-11-01T05:30:00Z"
        }))
        .unwrap()
    };
    s.detail.as_mut().unwrap().comments = crate::app::state::Load::Loaded(vec![
        comment(
            "c1",
            None,
            &format!("@alice@acme.test please check **clause 4{EVIL}**:\n\n- term\n- price"),
            &["33333333-3333-4333-8333-333333333333"],
        ),
        comment("c2", Some("c1"), "> clause 4\n\nDone.", &[]),
    ]);
    s.rebuild_comment_tree();
    let b =
        crate::app::dates::with_zone(jiff::tz::TimeZone::get("America/New_York").unwrap(), || {
            render(&mut s, 100, 30, &Theme::dark())
        });
    no_controls(&b);
    snap("comments_100x30", &b);
    let t = text(&b).replace('\u{a0}', " ");
    assert!(t.contains("2 comments"), "{t}");
    assert!(t.contains("mentions: @Alice Martin"), "{t}");
    assert!(!t.contains("\"name\""), "no JSON: {t}");
    assert!(
        t.contains("1 file: SPA draft v3.docx  225 KB  application/msword"),
        "{t}"
    );
    assert!(t.contains("• term"), "{t}");
    assert!(t.contains("│ clause 4"), "{t}");
    assert!(
        t.contains("2026-11-01 01:30 EDT"),
        "local time with its zone: {t}"
    );
}

#[test]
fn the_detail_shows_due_and_times_in_the_users_zone() {
    let mut s = markdown_scene();
    let due = Some("2026-11-30T14:00:00Z".to_string());
    s.detail
        .as_mut()
        .unwrap()
        .task
        .as_mut()
        .unwrap()
        .complete_by = due;
    let ny = jiff::tz::TimeZone::get("America/New_York").unwrap();
    let t = crate::app::dates::with_zone(ny, || text(&render(&mut s, 120, 40, &Theme::dark())));
    assert!(t.contains("due: 2026-11-30 09:00 EST"), "{t}");
    assert!(t.contains("created: 2026-11-01 05:00 EST"), "{t}");
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("due: 2026-11-30 14:00 UTC"), "{t}");
}

/// Every popup, opened the way a user opens it, at 80×24 and 120×40.
#[test]
fn every_popup_at_80x24_and_120x40() {
    use crate::api::SharingState;
    use crate::app::popups::sharing::Picker;
    let sharing: SharingState = serde_json::from_value(serde_json::json!({
        "visibility": "private",
        "users": [{"id": "u-me", "name": "Me Myself", "email": "me@acme.test", "access_level": "write"}],
        "teams": [{"id": "t-1", "name": "Ops", "access_level": "read"}]
    }))
    .unwrap();
    type Setup = Box<dyn Fn(&mut State)>;
    let typed = |s: &mut State, text: &str| {
        for c in text.chars() {
            s.on_key(key(c));
        }
    };
    let popups: Vec<(&str, Setup)> = vec![
        (
            "help",
            Box::new(|s: &mut State| {
                s.on_key(key('?'));
            }),
        ),
        (
            "palette",
            Box::new(move |s: &mut State| {
                s.on_key(key('s'));
                typed(s, "in");
            }),
        ),
        (
            "search",
            Box::new(move |s: &mut State| {
                s.on_key(key('/'));
                typed(s, "contoso");
            }),
        ),
        (
            "confirm",
            Box::new(|s: &mut State| {
                s.command("unlink");
            }),
        ),
        (
            "text",
            Box::new(|s: &mut State| {
                s.show_log(None);
            }),
        ),
        (
            "compose",
            Box::new(move |s: &mut State| {
                s.on_key(key('c'));
                typed(s, "Looks good: sending the redlines today.");
            }),
        ),
        (
            "filter",
            Box::new(|s: &mut State| {
                s.on_key(key('f'));
            }),
        ),
        (
            "sharing",
            Box::new(move |s: &mut State| {
                if let Some(d) = s.detail.as_mut() {
                    d.sharing = crate::app::state::Load::Loaded(sharing.clone());
                }
                s.on_key(key('S'));
            }),
        ),
        (
            "picker",
            Box::new(|s: &mut State| {
                s.overlay = Overlay::Picker(Picker {
                    then: crate::app::popups::sharing::PickThen::Command("assign {}".into()),
                    reference: "Sam".into(),
                    team: false,
                    candidates: vec![
                        ("u-1".into(), "Sam Taylor sam.t@acme.test".into()),
                        ("u-2".into(), "Sam Taylor sam.taylor@acme.test".into()),
                    ],
                    selected: 0,
                });
            }),
        ),
    ];
    for (name, setup) in &popups {
        for (w, h) in [(80, 24), (120, 40)] {
            let mut s = scene();
            // Links tab selected for the confirmation of an unlink.
            s.on_key(code(KeyCode::Enter));
            for _ in 0..3 {
                s.on_key(key(']'));
            }
            s.on_key(code(KeyCode::Esc));
            setup(&mut s);
            assert!(
                !matches!(s.overlay, Overlay::None),
                "{name} did not open: {:?}",
                s.status
            );
            let b = render(&mut s, w, h, &Theme::dark());
            snap(&format!("popup_{name}_{w}x{h}"), &b);
        }
    }
}

#[test]
fn at_80x24_an_opened_tasks_full_title_is_readable_and_zoom_works_at_any_width() {
    let mut s = scene();
    let long = "Assess review findings for the Fabrikam share purchase agreement before signing";
    if let Some(TaskItem::Task(t)) = s.list.items.get_mut(0) {
        t.title = long.into();
    }
    s.detail = None;
    s.follow_cursor();
    // The list shows titles at 80 columns.
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("Assess review findings"), "{t}");
    // Enter: the detail fills the screen and the whole title is there.
    s.on_key(code(KeyCode::Enter));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let flat: String = t
        .replace(['┃', '│'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains(&format!("title: {long}")), "{t}");
    assert!(
        !t.contains("TITLE  [tags]"),
        "the list is not beside it:\n{t}"
    );
    // Esc: back to the list, full width.
    s.on_key(code(KeyCode::Esc));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("TITLE  [tags]"), "{t}");
    // At 160 columns both panes; + zooms the focused one, + again restores.
    let t = text(&render(&mut s, 160, 45, &Theme::dark()));
    assert!(t.contains("TITLE  [tags]") && t.contains("Info | "), "{t}");
    s.on_key(key('+'));
    let t = text(&render(&mut s, 160, 45, &Theme::dark()));
    assert!(t.contains("TITLE  [tags]") && !t.contains("Info | "), "{t}");
    s.on_key(key('+'));
    let t = text(&render(&mut s, 160, 45, &Theme::dark()));
    assert!(t.contains("Info | "), "{t}");
}

#[test]
fn a_task_looked_for_and_not_found_says_so_in_full() {
    let mut s = scene();
    let fx = s.command("open #4040");
    let (ticket, req) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Api { ticket, req } if matches!(**req, ApiRequest::FindByNumber { .. }) => {
                Some((*ticket, (**req).clone()))
            }
            _ => None,
        })
        .unwrap();
    s.on_api(ApiResult {
        ticket,
        req,
        result: Err(crate::api::ApiError::Status {
            status: 404,
            message: "task #4040 not found: not among the tasks you can see in lists (archived and draft tasks open by id)".into(),
        }),
    });
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("#4040 (not found)"), "{t}");
    let flat: String = t
        .replace(['┃', '│'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("archived and draft tasks open by id"),
        "wrapped, not cut: {t}"
    );
}
