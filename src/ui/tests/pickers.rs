//! #40 §2 and §5 as drawn: candidates told apart once, a picker that
//! shows what is typed, narrows, marks the row Enter takes and says when
//! nothing matches; names suggested as typed in the sharing editor.

use super::*;
use crate::app::popups::sharing::{PickThen, Picker};
use crate::app::tests::loaded_with_tasks;
use crate::config::Settings;

#[test]
fn two_teams_of_one_name_show_each_short_id_once() {
    let mut s = scene();
    s.directory
        .learn_team("33d29895-7a68-4e2b-9c1d-0a1b2c3d4e5f", "Litigation", None);
    s.directory
        .learn_team("9f00aa11-2222-4333-8444-555566667777", "Litigation", None);
    let candidates = match s.directory.resolve_team("Litigation") {
        crate::app::state::directory::Resolved::Many(c) => c,
        other => panic!("two teams expected: {other:?}"),
    };
    s.overlay = Overlay::Picker(Picker {
        reference: "Litigation".into(),
        team: true,
        candidates,
        selected: 0,
        find: Default::default(),
        then: PickThen::Command {
            template: "team {}".into(),
            target: None,
        },
    });
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
    let sharing: crate::api::SharingState = serde_json::from_value(serde_json::json!({
        "visibility": "private", "users": [], "teams": []
    }))
    .unwrap();
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
