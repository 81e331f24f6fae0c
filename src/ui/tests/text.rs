//! Text as written: Markdown, the raw view, files, comments, local times.

use super::*;

/// One task whose description is Markdown with hostile text in every
/// element, a sized input file, and the detail open at the top.
pub(super) fn markdown_scene() -> State {
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
fn a_comment_with_an_unreadable_time_shows_it_as_received() {
    let mut s = markdown_scene();
    s.on_key(key(']'));
    let task_id = s.detail.as_ref().unwrap().task_id.clone();
    let c = serde_json::from_value::<crate::api::Comment>(serde_json::json!({
        "id": "c1", "task_id": task_id, "content": "hello",
        "author": {"id": "u-bob", "name": "Bob Okafor"},
        "created_at": "2026-11-01 05:30\u{1b}[31m", "updated_at": "2026-11-01 05:30\u{1b}[31m"
    }))
    .unwrap();
    s.detail.as_mut().unwrap().comments = crate::app::state::Load::Loaded(vec![c]);
    s.rebuild_comment_tree();
    let b = render(&mut s, 100, 30, &Theme::dark());
    no_controls(&b);
    let t = text(&b);
    assert!(t.contains("Bob Okafor  2026-11-01 05:30␛[31m"), "{t}");
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
        .complete_by = due.map(Into::into);
    let ny = jiff::tz::TimeZone::get("America/New_York").unwrap();
    let t = crate::app::dates::with_zone(ny, || text(&render(&mut s, 120, 40, &Theme::dark())));
    assert!(t.contains("due: 2026-11-30 09:00 EST"), "{t}");
    assert!(t.contains("created: 2026-11-01 05:00 EST"), "{t}");
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("due: 2026-11-30 14:00 UTC"), "{t}");
    // Empty times from the service read as none, not as blanks.
    let task = s.detail.as_mut().unwrap().task.as_mut().unwrap();
    task.complete_by = Some("".into());
    task.created_at = Some(" ".into());
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("due: none"), "{t}");
    assert!(!t.contains("unreadable date"), "{t}");
    assert!(t.contains("created: -"), "{t}");
}

/// Found by hand in the demo: the overview said an assigned team as its
/// every key (`id: 33d29895-…`, `name: Litigation`), its uuid wrapping at
/// 120 columns. A team, an agent or a matter with a name is said by its
/// name; shared teams likewise; an object with none keeps its keys.
#[test]
fn the_overview_says_a_named_team_agent_or_matter_by_its_name() {
    let mut s = loaded(0);
    let mut t = task_json(7);
    t["assigned_team"] =
        serde_json::json!({"id": "33d29895-7a68-4c1e-9d2a-1f0b6c1d9e11", "name": "Litigation"});
    t["assigned_agent"] = serde_json::json!({"id": "a-1", "display_name": "Intake bot"});
    t["matter"] = serde_json::json!({"id": "m-9", "reference": "MAT-9"});
    t["shared_teams"] = serde_json::json!([{"id": "t-2", "name": "Tax"}]);
    let t: Task = serde_json::from_value(t).unwrap();
    s.list.items.push(TaskItem::Task(Box::new(t)));
    s.list.end_reached = true;
    s.follow_cursor();
    s.on_key(code(KeyCode::Enter));
    let screen = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(screen.contains("assigned team: Litigation"), "{screen}");
    assert!(!screen.contains("33d29895"), "{screen}");
    assert!(screen.contains("agent: Intake bot"), "{screen}");
    assert!(screen.contains("  Tax"), "{screen}");
    // No name: the keys, as before.
    assert!(screen.contains("reference: MAT-9"), "{screen}");
}

/// One rule for a control or bidi character from the service: the same
/// hostile string reads the same in the list, the search title, the
/// detail and the composer (a paste), each character by
/// its stand-in (`crate::text::clean`), never a `\u{..}` escape.
#[test]
fn a_hostile_string_is_shown_one_way_on_every_screen() {
    const HOSTILE: &str = "Evil\u{202e}gnp\u{1b}[2J";
    let shown = crate::text::clean(HOSTILE);
    assert_eq!(shown, "Evil\u{fffd}gnp\u{241b}[2J");
    let mut s = loaded(0);
    let mut t = task_json(7);
    t["title"] = HOSTILE.into();
    let t: Task = serde_json::from_value(t).unwrap();
    s.list.items.push(TaskItem::Task(Box::new(t)));
    s.list.end_reached = true;
    s.follow_cursor();
    let line_with = |b: &Buffer, needle: &str| -> String {
        text(b)
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?}:\n{}", text(b)))
            .to_string()
    };
    let mut places: Vec<(&str, String)> = Vec::new();
    let b = render(&mut s, 120, 40, &Theme::dark());
    no_controls(&b);
    places.push(("list row", line_with(&b, "Evil")));
    s.search = HOSTILE.into();
    let b = render(&mut s, 120, 40, &Theme::dark());
    no_controls(&b);
    places.push(("search title", line_with(&b, "Tasks: ")));
    s.on_key(code(KeyCode::Enter));
    let b = render(&mut s, 120, 40, &Theme::dark());
    no_controls(&b);
    places.push(("detail", line_with(&b, "Evil")));
    s.on_key(key('c'));
    s.on_paste(&format!("pasted {HOSTILE}"));
    let b = render(&mut s, 120, 40, &Theme::dark());
    no_controls(&b);
    places.push(("composer text", line_with(&b, "pasted ")));
    for (place, line) in &places {
        assert!(line.contains(shown.as_str()), "{place}: {line:?}");
    }
    assert!(
        places[1].1.contains(&format!("search \"{shown}\"")),
        "{:?}",
        places[1].1
    );
}
