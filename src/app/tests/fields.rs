//! The task field table walked whole (issue 40): every field of
//! `TaskField::ALL` through patch → undo → conflict → inbox change → CLI.
//! A field added to the table fails here until each step knows it (the
//! sample below is an exhaustive `match`: the compiler asks for it).

use super::*;
use crate::app::edit::changes::{changed_since, inverse, split_patch, Change};
use crate::domain::task_field::{TaskField, Undo};
use crate::inbox::change::changes;
use crate::inbox::snapshot::{Me, Snapshot};

/// A change of `f`: the field's value on the task before and after (as
/// the service sends a task) and what the PATCH sends to make it.
fn sample(f: TaskField) -> (Value, Value, Value) {
    let bob = json!({"id": "u-bob", "name": "Bob", "email": "bob@acme.test"});
    match f {
        TaskField::Status => (json!("in_progress"), json!("completed"), json!("completed")),
        TaskField::Priority => (json!("high"), json!("low"), json!("low")),
        TaskField::Due => (
            json!(null),
            json!("2026-12-01T17:00:00Z"),
            json!("2026-12-01T17:00:00Z"),
        ),
        TaskField::Title => (json!("Task number 1"), json!("Renamed"), json!("Renamed")),
        TaskField::AssignedTo => (
            json!({"id": "u-me", "name": "Me Myself", "email": "me@acme.test"}),
            bob.clone(),
            json!("u-bob"),
        ),
        TaskField::Tags => (json!(["a", "b"]), json!(["b", "x"]), json!(["b", "x"])),
        TaskField::Archived => (json!(false), json!(true), json!(true)),
        TaskField::Description => (json!("Do the thing"), json!(null), json!(null)),
        TaskField::AdditionalContext => (json!(null), json!("More"), json!("More")),
        TaskField::AssignedAgent => (
            json!(null),
            json!({"id": "ag-1", "name": "Agent"}),
            json!("ag-1"),
        ),
        TaskField::AssignedTeam => (
            json!({"id": "team-1", "name": "Ops"}),
            json!({"id": "team-2", "name": "Legal"}),
            json!("team-2"),
        ),
        TaskField::Matter => (json!(null), json!({"id": "m-1", "name": "M"}), json!("m-1")),
        TaskField::LinkedItems => (task_json(1)["linked_items"].clone(), json!([]), json!([])),
        TaskField::InvolvedPeople => (json!([]), json!([bob]), json!([{"id": "u-bob"}])),
        TaskField::Draft => (json!(true), json!(false), json!(false)),
    }
}

fn with(f: TaskField, v: &Value) -> Task {
    let mut j = task_json(1);
    j[f.spec().on_task] = v.clone();
    serde_json::from_value(j).unwrap_or_else(|e| panic!("{f:?}: {e}"))
}

#[test]
fn every_field_walks_the_whole_way() {
    let s = loaded(1);
    let now = jiff::Timestamp::now();
    // The inbox's user is someone else: the assignee's change is news.
    let me = Me {
        id: "u-other".into(),
        ..Default::default()
    };
    for f in TaskField::ALL {
        let (b, a, sent) = sample(f);
        let (before, after) = (with(f, &b), with(f, &a));
        assert_ne!(before, after, "{f:?}: the sample changes the task");

        // Patch: one field, written as the table says, read back whole.
        let p = f
            .write(sent.clone())
            .unwrap_or_else(|e| panic!("{f:?}: {e}"));
        assert_eq!(p.to_json(), json!({ f.wire(): sent }), "{f:?}");
        assert_eq!(TaskField::of_patch(&p), Some(f));
        assert_eq!(split_patch(&p), vec![p.clone()], "{f:?}");
        let change = Change::Patch(p.clone());
        assert_eq!(change.field(), Some(f));
        assert_eq!(change.pending_field(), f.wire());
        let words = change.words(&|id| format!("<{id}>"), &|_, id| format!("#<{id}>"));
        assert!(!words.is_empty() && !words.contains('_'), "{f:?}: {words}");

        // Undo: the inverse sets back what the task held before.
        let back = inverse(std::slice::from_ref(&change), &before, &after, None);
        match f.undo(&before) {
            Ok(Undo::Patch(inv)) => {
                let back = back.unwrap_or_else(|e| panic!("{f:?}: {e}"));
                assert_eq!(back, vec![Change::Patch(inv.clone())], "{f:?}");
                assert_eq!(f.sent(&inv), Some(f.read(&before)), "{f:?}");
                assert_ne!(f.read(&before), f.read(&after), "{f:?}");
            }
            Ok(Undo::Tags) => assert_eq!(
                back.unwrap(),
                vec![Change::Tags {
                    add: vec!["a".into()],
                    remove: vec!["x".into()]
                }]
            ),
            Ok(Undo::Nothing) => panic!("{f:?}: the sample's change has something to undo"),
            Err(why) => {
                // Only these three cannot be taken back; any other field
                // failing here would be a field quietly left out of undo.
                assert!(
                    matches!(
                        f,
                        TaskField::Draft | TaskField::LinkedItems | TaskField::InvolvedPeople
                    ),
                    "{f:?} unexpectedly cannot be undone: {why}"
                );
                assert!(why.contains("cannot be undone"), "{f:?}: {why}");
                assert_eq!(back, Err(why), "{f:?}");
            }
        }

        // Conflict: one row for the field, in its words, three ways.
        let rows = s.three_way(&p, Some(&before), &after);
        assert_eq!(rows.len(), 1, "{f:?}: {rows:?}");
        assert_eq!(rows[0].key, f);
        assert_eq!(rows[0].field, f.label());
        assert_eq!(rows[0].mine, s.words(f, &sent), "{f:?}");
        assert_eq!(rows[0].saw, s.words(f, &b), "{f:?}");
        assert_eq!(rows[0].theirs, s.words(f, &a), "{f:?}");
        // What moved on the service since our write, by the field's words
        // (the fields sent whole are not read back to compare).
        let moved = changed_since(std::slice::from_ref(&change), None, Some(&before), &after);
        if f.read(&before) == f.read(&after) {
            assert_eq!(moved, None, "{f:?}");
        } else {
            assert_eq!(
                moved,
                Some(format!("{} is now {}", f.label(), f.words(&after))),
                "{f:?}"
            );
        }

        // Inbox: a field the table says the inbox compares is a change of
        // its own, before → after, by the inbox's word; the others none.
        let found = changes(&Snapshot::of(&before, &me), &Snapshot::of(&after, &me), now);
        match f.spec().inbox {
            Some(word) => {
                assert_eq!(found.len(), 1, "{f:?}: {found:?}");
                assert_eq!(found[0].field, f.wire());
                assert_eq!(found[0].word(), word);
                assert!(found[0].words().starts_with(word), "{f:?}");
                assert_ne!(found[0].before, found[0].after, "{f:?}");
            }
            None => assert!(found.is_empty(), "{f:?}: {found:?}"),
        }

        // CLI: a field with a column is printed in it (its header, and
        // the row changes with it); a field without one changes no row.
        let render = |t: &Task| {
            crate::cli::table::render(&[TaskItem::Task(Box::new(t.clone()))], 200, false, now)
        };
        let (rb, ra) = (render(&before), render(&after));
        match f.spec().column {
            Some(header) => {
                assert!(crate::cli::table::COLUMNS.contains(&f), "{f:?}");
                assert!(ra[0].contains(header), "{f:?}: {}", ra[0]);
                assert_ne!(rb[1], ra[1], "{f:?}");
                let (cell, _) = f.cell(&after, now).unwrap();
                assert!(ra[1].contains(cell.as_str()), "{f:?}: {cell} in {}", ra[1]);
            }
            None => {
                assert!(!crate::cli::table::COLUMNS.contains(&f), "{f:?}");
                assert_eq!(f.cell(&after, now), None);
                assert_eq!(rb, ra, "{f:?}");
            }
        }
    }
}

/// A pending edit is said one way wherever it is said (issue 40): `:recent`
/// and the sent message through `Pending::done_words`, the outbox through
/// `Pending::words`, a failure through `Pending::name` — a due date in
/// local time everywhere (`:recent` showed the wire's timestamp).
#[test]
fn a_pending_edit_is_said_one_way_sent_waiting_and_failed() {
    use crate::app::state::Pending;
    let due = Pending {
        ticket: 1,
        task_id: "t".into(),
        field: "complete_by".into(),
        value: "2026-12-01T17:00:00Z".into(),
    };
    let local = crate::domain::dates::when(Some("2026-12-01T17:00:00Z"));
    assert_eq!(due.done_words(), format!("due → {local}"));
    assert_eq!(due.words(), format!("due → {local}"));
    assert_eq!(due.name(), "due");
    let archived = Pending {
        field: "archived".into(),
        value: "archived".into(),
        ..due.clone()
    };
    assert_eq!(archived.done_words(), "archived");
    assert_eq!(archived.words(), "archived");
    let link = Pending {
        field: "linked_items".into(),
        value: "none".into(),
        ..due.clone()
    };
    assert_eq!(link.done_words(), format!("{} cleared", link.name()));
    let sharing = Pending {
        field: "share_with".into(),
        value: "Bob".into(),
        ..due
    };
    assert_eq!(sharing.done_words(), "share with → Bob");
    assert_eq!(sharing.words(), "share with → Bob");
    assert_eq!(sharing.name(), "share with");

    // `:recent` says what was confirmed with the same words.
    let mut s = loaded(1);
    let id = task(1).id.to_string();
    s.pending.push(Pending {
        ticket: 7,
        task_id: id.clone(),
        field: "complete_by".into(),
        value: "2026-12-01T17:00:00Z".into(),
    });
    let req = ApiRequest::Patch {
        id: id.clone(),
        patch: TaskField::Due.write(json!("2026-12-01T17:00:00Z")).unwrap(),
    };
    let (_, words) = s.action_words(7, &req).expect("an action");
    assert_eq!(words, format!("due → {local}"));
}
