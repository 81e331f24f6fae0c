//! What the service holds is what the user is told (issue 32, §6–§9):
//! own actions are no news, a reminder ends with its reason, mentions are
//! what the service says, one comment is one item, a service clock set
//! back hides nothing.

use super::cycle::new_base;
use super::derive::*;
use super::tests::{comment, kinds, me, now, snap, BOB, ME, T1};
use crate::store::Db;
use serde_json::json;

/// The due date's wire name, from the field table.
const DUE: &str = crate::domain::task_field::TaskField::Due.wire();

#[test]
fn reassigning_or_archiving_ones_own_task_is_no_news() {
    // The inbox knew the task as the user's; the user gave it to Bob.
    let known = snap(json!({}));
    let mut answered = snap(json!({
        "assigned_to": {"id": BOB, "name": "Bob"}, "updated_at": "2026-11-25T09:00:00Z"
    }));
    let read = answered.clone();
    answered.own = true;
    assert_eq!(
        gone_item(T1, &answered, Some(Some(&read)), now()),
        None,
        "the user's own reassignment"
    );
    let mut archived = snap(json!({"archived": true, "updated_at": "2026-11-25T09:00:00Z"}));
    archived.own = true;
    assert_eq!(gone_item(T1, &archived, Some(Some(&archived)), now()), None);
    // Someone else's doing still says so: a base the walk read, or an
    // answer of ours that still involved the user.
    let gone = gone_item(T1, &known, Some(Some(&read)), now()).unwrap();
    assert_eq!(gone.words, "no longer involves you");
    let mut still = known.clone();
    still.own = true;
    assert!(gone_item(T1, &still, Some(None), now()).is_some());
}

#[test]
fn a_task_leaving_while_a_write_of_ours_is_in_flight_is_kept_and_not_news() {
    let mut db = Db::in_memory().unwrap();
    let s = snap(json!({}));
    db.inbox_commit(&[new_base(T1, &s, Some(&[]), 0, now())], &[], &[], 1)
        .unwrap();
    db.inbox_own(T1, None, 10).unwrap();
    let item = gone_item(T1, &s, Some(Some(&s)), now()).unwrap();
    assert_eq!(db.inbox_commit(&[], &[T1.into()], &[item], 11).unwrap(), 0);
    assert!(db.inbox_bases().unwrap().contains_key(T1), "kept");
}

#[test]
fn a_reminder_ends_when_the_due_date_moves_ahead() {
    let mut db = Db::in_memory().unwrap();
    let late = snap(json!({DUE: "2026-11-23T17:00:00Z"}));
    let items = task_items(T1, Some(&late), &late, false, now());
    assert_eq!(kinds(&items), ["due"]);
    db.inbox_commit(&[new_base(T1, &late, None, 0, now())], &[], &items, 1)
        .unwrap();
    // Bob (or the user) moved the due date to next week.
    let ahead = snap(json!({DUE: "2026-12-02T17:00:00Z",
        "updated_at": "2026-11-25T09:00:00Z"}));
    let items = task_items(T1, Some(&late), &ahead, false, now());
    db.inbox_commit(&[new_base(T1, &ahead, None, 0, now())], &[], &items, 2)
        .unwrap();
    assert_eq!(kinds(&db.inbox_items(false).unwrap()), ["changed"]);
    // Still overdue: the reminder stays today.
    let mut db = Db::in_memory().unwrap();
    let items = task_items(T1, Some(&late), &late, false, now());
    db.inbox_commit(&[new_base(T1, &late, None, 0, now())], &[], &items, 1)
        .unwrap();
    db.inbox_commit(&[new_base(T1, &late, None, 0, now())], &[], &items, 2)
        .unwrap();
    assert_eq!(kinds(&db.inbox_items(false).unwrap()), ["due"]);
    // A write of ours moving it ahead ends it at once.
    let mut b = new_base(T1, &ahead, None, 0, now());
    b.version += 1;
    db.inbox_own(T1, Some(&b), 3).unwrap();
    assert!(db.inbox_items(false).unwrap().is_empty());
}

#[test]
fn mentions_are_what_the_service_lists_even_an_empty_list() {
    let m = me();
    let listed = |text: &str, list: serde_json::Value| {
        mentions(
            &comment("c", BOB, text, json!({"mentioned_users": list})),
            &m,
        )
    };
    assert!(!listed("@Alice Adams please", json!([])));
    assert!(!listed("@alice@example.com", json!([{"id": BOB}])));
    assert!(listed("no name at all", json!([{"id": ME}])));
    assert!(listed("no name at all", json!(["alice@example.com"])));
}

#[test]
fn text_is_read_only_without_a_list_and_only_mentions_standing_alone() {
    let m = me();
    let said = |text: &str| {
        let c = comment("c", BOB, text, json!({"mentioned_users": null}));
        mentions(&c, &m)
    };
    for yes in [
        "@Alice Adams please",
        "ping @alice@example.com.",
        "(@alice adams) see",
        "first para\n\n@Alice Adams, second",
        "**@Alice Adams** look",
    ] {
        assert!(said(yes), "{yes:?} is a mention");
    }
    for no in [
        "see @alice@example.com.evil.com",
        "ping x@Alice Adams",
        "forward to bob@alice@example.com",
        "@alice adamsx is someone else",
        "code: `@Alice Adams`",
        "```\n@Alice Adams\n```",
        "    @Alice Adams (indented code)",
        "mail alice@example.com",
    ] {
        assert!(!said(no), "{no:?} is not a mention");
    }
    // Absent is the same as null.
    let mut v = serde_json::to_value(comment("c", BOB, "@Alice Adams", json!({}))).unwrap();
    v.as_object_mut().unwrap().remove("mentioned_users");
    let c: crate::api::Comment = serde_json::from_value(v).unwrap();
    assert!(mentions(&c, &m));
}

#[test]
fn a_comment_back_under_another_id_is_not_a_second_item() {
    let s = snap(json!({}));
    let first = comment("c1", BOB, "please review", json!({}));
    let again = comment("c1-new", BOB, "please review", json!({}));
    // Read once: known by id and by print.
    let base = new_base(T1, &s, Some(std::slice::from_ref(&first)), 0, now());
    let known = base.comment_ids.unwrap();
    assert!(comment_items(
        T1,
        &s,
        Some(&known),
        0,
        std::slice::from_ref(&again),
        &me(),
        now()
    )
    .is_empty());
    // Both in one listing never read before: one item.
    let items = comment_items(T1, &s, Some(&[]), 0, &[first, again], &me(), now());
    assert_eq!(items.len(), 1);
    // Another text, or another time, is another comment.
    let other = comment("c2", BOB, "please review!", json!({}));
    let later = comment(
        "c3",
        BOB,
        "please review",
        json!({"created_at": "2026-11-25T09:05:00Z"}),
    );
    assert_eq!(
        comment_items(T1, &s, Some(&known), 0, &[other, later], &me(), now()).len(),
        2
    );
}

#[test]
fn a_service_clock_set_back_hides_no_change() {
    // The clock ran five years ahead when the inbox last read the task.
    let ahead = snap(json!({"updated_at": "2031-11-25T08:00:00Z"}));
    let after = snap(json!({"status": "completed", "updated_at": "2026-11-25T09:00:00Z"}));
    let items = task_items(T1, Some(&ahead), &after, false, now());
    assert_eq!(kinds(&items), ["changed"]);
    // Same content, whatever the time says: nothing.
    let same = snap(json!({"updated_at": "2026-11-25T09:30:00Z"}));
    assert!(task_items(T1, Some(&ahead), &same, false, now()).is_empty());
    // The store takes the read over the base from the future, and the
    // next change is seen against it.
    let mut db = Db::in_memory().unwrap();
    db.inbox_commit(&[new_base(T1, &ahead, Some(&[]), 0, now())], &[], &[], 1)
        .unwrap();
    let n = now().as_second();
    assert_eq!(
        db.inbox_commit(&[new_base(T1, &after, None, 0, now())], &[], &items, n)
            .unwrap(),
        1
    );
    assert_eq!(db.inbox_bases().unwrap()[T1].version, after.version());
    // Two instances with sane clocks: an older read still never wins.
    let older = snap(json!({"status": "not_started", "updated_at": "2026-11-25T08:30:00Z"}));
    assert!(task_items(T1, Some(&after), &older, false, now()).is_empty());
    db.inbox_commit(&[new_base(T1, &older, None, 0, now())], &[], &[], n)
        .unwrap();
    assert_eq!(db.inbox_bases().unwrap()[T1].version, after.version());
}
