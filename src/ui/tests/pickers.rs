//! #40 §2 and §5 as drawn: candidates told apart once, a picker that
//! shows what is typed, narrows, marks the row Enter takes and says when
//! nothing matches; names suggested as typed in the sharing editor.

use super::*;
use crate::app::popups::sharing::{PickThen, Picker};
use crate::app::tests::loaded_with_tasks;
use crate::config::Settings;

/// The scene with two teams called Litigation known, and the picker
/// `:team Litigation` opens to tell them apart.
pub(super) fn two_litigation_teams() -> State {
    let mut s = scene();
    s.directory
        .learn_team("33d29895-7a68-4e2b-9c1d-0a1b2c3d4e5f", "Litigation", None);
    s.directory
        .learn_team("9f00aa11-2222-4333-8444-555566667777", "Litigation", None);
    let candidates = match s.directory.resolve_team("Litigation") {
        crate::app::state::directory::Resolved::Many(c) => c,
        other => panic!("two teams expected: {other:?}"),
    };
    s.overlay = Overlay::Picker(Picker::new(
        "Litigation".into(),
        true,
        candidates,
        PickThen::Command {
            template: "team {}".into(),
            target: None,
        },
    ));
    s
}

#[test]
fn two_teams_of_one_name_show_each_short_id_once() {
    let mut s = two_litigation_teams();
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert_eq!(t.matches("Litigation (33d29895…)").count(), 1, "{t}");
    assert_eq!(t.matches("Litigation (9f00aa11…)").count(), 1, "{t}");
    assert!(!t.contains("33d29895-7a68"), "the id twice:\n{t}");
    // The one picker: what is typed shows, narrows, the row Enter takes
    // is marked, and nothing left says so.
    for c in "9f0".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("find: 9f0"), "{t}");
    assert!(t.contains("> Litigation (9f00aa11…)"), "{t}");
    assert!(!t.contains("Litigation (33d29895…)"), "{t}");
    s.on_key(key('x'));
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("no team matches what is typed"), "{t}");
}

#[test]
fn the_files_picker_shows_what_is_typed_narrows_and_says_when_nothing_matches() {
    let mut v = task_json(2);
    v["title"] = "Onboard Nguyễn & Co".into();
    v["input_files"] = serde_json::json!([
        {"id": "44444444-4444-4444-8444-444444444444", "name": "kyc-checklist.pdf", "size": 2048},
        {"id": "55555555-5555-4555-8555-555555555555", "name": "budget.xlsx", "size": 4096}
    ]);
    let other: Task = serde_json::from_value(v).unwrap();
    let mut s = loaded_with_tasks(
        &Settings::default(),
        vec![crate::app::tests::task(1), other],
    );
    s.on_key(key('F'));
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(
        t.contains("kyc-checklist.pdf") && t.contains("budget.xlsx"),
        "{t}"
    );
    for c in "kyc".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("find: kyc"), "what is typed is shown:\n{t}");
    assert!(
        t.contains("> kyc-checklist.pdf"),
        "the row Enter takes:\n{t}"
    );
    assert!(!t.contains("budget.xlsx"), "narrowed:\n{t}");
    // The task's title, accents folded, finds its files too.
    for _ in 0..3 {
        s.on_key(code(KeyCode::Backspace));
    }
    for c in "nguyen budg".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(
        t.contains("> budget.xlsx") && !t.contains("kyc-checklist"),
        "{t}"
    );
    for c in "zzz".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("no file seen matches what is typed"), "{t}");
}

#[test]
fn the_sharing_editor_shows_the_names_a_typed_line_may_mean() {
    let mut s = scene();
    s.directory
        .learn_person("u-carol", "Carol Nguyễn", "carol@acme.test", None);
    let sharing = crate::app::tests::sharing_state(serde_json::json!([]));
    if let Some(d) = s.detail.as_mut() {
        d.sharing = crate::app::state::Load::Loaded(sharing);
    }
    s.on_key(key('S'));
    s.on_key(key('a'));
    for c in "nguyen".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(
        t.contains("tab completes: Carol Nguyễn <carol@acme.test>"),
        "{t}"
    );
}

/// Issue 40 §3 in the choosers: a row wider than the popup says it was cut
/// (at 60 columns the files picker's row, file name, size, number and
/// title, stopped mid-word with nothing saying so).
#[test]
fn a_chooser_row_wider_than_its_popup_ends_in_the_cut_mark() {
    let mut v = task_json(2);
    // Short enough not to be cut in the row itself (30 columns).
    v["title"] = "Chase Northwind for signature".into();
    v["input_files"] = serde_json::json!([
        {"id": "44444444-4444-4444-8444-444444444444", "name": "kyc-checklist.pdf", "size": 2048}
    ]);
    let other: Task = serde_json::from_value(v).unwrap();
    let mut s = loaded_with_tasks(
        &Settings::default(),
        vec![crate::app::tests::task(1), other],
    );
    s.on_key(key('F'));
    let t = text(&render(&mut s, 60, 24, &Theme::dark()));
    let row = t
        .lines()
        .find(|l| l.contains("kyc-checklist.pdf"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(row.contains('…'), "the cut says so: {row:?}");
    assert!(!row.contains("signature"), "{row:?}");
}

/// Issue 40 §5: the drafts list (`W`), `:recent`, `:changed`,
/// `:outbox` and `:snoozed` are the one picker — what is typed shows and
/// narrows (accents folded), `>` marks the row Enter takes, a line says
/// when nothing matches, and a row's key acts on the `>` row. Before,
/// they took letters as keys and drew no `find:` line and no `>`.
#[test]
fn every_chooser_is_typed_into_narrows_and_marks_the_row_enter_takes() {
    let mut a = task_json(2);
    a["title"] = "Réviser le contrat".into();
    a["draft"] = true.into();
    let mut b = task_json(3);
    b["title"] = "Budget review".into();
    b["draft"] = true.into();
    let drafts: Vec<Task> = [a, b]
        .into_iter()
        .map(|v| serde_json::from_value(v).unwrap())
        .collect();
    let mut s = loaded_with_tasks(
        &Settings::default(),
        vec![
            crate::app::tests::task(1),
            drafts[0].clone(),
            drafts[1].clone(),
        ],
    );
    s.on_key(key('W'));
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("find: "), "what is typed is shown:\n{t}");
    assert!(t.contains("> #2"), "the row Enter takes:\n{t}");
    for c in "budg".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("find: budg"), "{t}");
    assert!(t.contains("> #3      Budget review"), "{t}");
    assert!(!t.contains("#2      Réviser"), "narrowed:\n{t}");
    // The accept key acts on the `>` row, the one typed for.
    let fx = s.on_key(crate::app::tests::ctrl('a'));
    assert_eq!(
        crate::app::tests::only_patch(&fx).0,
        crate::app::tests::tid(3)
    );
    s.overlay = Overlay::None;
    // `:recent`: accents folded; nothing left says so.
    let now = crate::app::local::cache::now_secs();
    s.local.recent = vec![
        crate::store::Recent {
            task_id: crate::app::tests::tid(2),
            label: "#2".into(),
            title: "Réviser le contrat".into(),
            action: "opened".into(),
            at: now,
        },
        crate::store::Recent {
            task_id: crate::app::tests::tid(3),
            label: "#3".into(),
            title: "Budget review".into(),
            action: "archived".into(),
            at: now,
        },
    ];
    crate::app::tests::palette(&mut s, "recent");
    for c in "reviser".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("find: reviser"), "{t}");
    assert!(t.contains("> #2      Réviser le contrat"), "{t}");
    assert!(!t.contains("#3      Budget"), "narrowed:\n{t}");
    for c in " zzz".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("no row matches what is typed"), "{t}");
    // `:outbox` and `:snoozed` too: typed into, `>` on the first row.
    for kind in ["outbox", "snoozed", "changed"] {
        s.overlay = Overlay::None;
        crate::app::tests::palette(&mut s, kind);
        s.on_key(key('q'));
        let t = text(&render(&mut s, 120, 40, &Theme::dark()));
        assert!(
            matches!(s.overlay, Overlay::Chooser(_)) && t.contains("find: q"),
            "{kind}: a letter types, never closes:\n{t}"
        );
    }
}

/// One picker, as drawn: the sharing candidates' rows are every picker's
/// (`chooser::rows`) — more candidates than the screen holds scroll with
/// the mark (the marked row was drawn below the screen, out of sight),
/// and a label wider than the popup ends in `…` (it stopped mid-word).
#[test]
fn the_same_name_picker_keeps_its_mark_in_sight_and_says_a_row_was_cut() {
    let mut s = scene();
    let long = "x".repeat(120);
    let candidates = (0..40)
        .map(|i| (format!("u-{i}"), format!("Sam Taylor {i:02} {long}")))
        .collect();
    s.overlay = Overlay::Picker(Picker::new(
        "Sam".into(),
        false,
        candidates,
        PickThen::Command {
            template: "assign {}".into(),
            target: None,
        },
    ));
    for _ in 0..30 {
        s.on_key(code(KeyCode::Down));
    }
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let marked: Vec<&str> = t.lines().filter(|l| l.contains("> Sam Taylor")).collect();
    assert_eq!(marked.len(), 1, "{t}");
    assert!(marked[0].contains("Sam Taylor 30"), "{t}");
    assert!(marked[0].contains('…'), "the row says it was cut:\n{t}");
    // The click on a row drawn takes that row (the window's, not the
    // list's first).
    let b = render(&mut s, 80, 24, &Theme::dark());
    let at = super::mouse::cell_of(&b, "Sam Taylor 29");
    assert!(super::mouse::click(&mut s, at, std::time::Instant::now()));
    match &s.overlay {
        Overlay::Picker(p) => assert_eq!(p.selected, 29),
        _ => panic!("the picker expected"),
    }
}
