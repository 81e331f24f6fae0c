//! Each reason, from a base and what the service has now; the store's
//! side (snooze, follow-up, once across instances, across a restart).

use super::derive::*;
use super::sandboxed::{store, Store};
use super::*;
use crate::api::{Comment, Task};
use crate::store::{Db, InboxBase, InboxMark, MarkKind};
use jiff::Timestamp;
use serde_json::json;

/// The due date's wire name, from the field table.
const DUE: &str = crate::domain::task_field::TaskField::Due.wire();

pub(super) const ME: &str = "00000000-0000-4000-8000-00000000000a";
pub(super) const BOB: &str = "00000000-0000-4000-8000-00000000000b";
pub(super) const T1: &str = "10000000-0000-4000-8000-000000000001";

pub(super) fn me() -> Me {
    Me {
        id: ME.into(),
        name: "Alice Adams".into(),
        email: "alice@example.com".into(),
    }
}

pub(super) fn now() -> Timestamp {
    crate::api::parse_timestamp("2026-11-25T10:00:00Z").unwrap()
}

fn task(v: serde_json::Value) -> Task {
    let mut base = json!({
        "id": T1, "display_id": "#12", "title": "Quarterly report",
        "status": "in_progress", "priority": "medium",
        "assigned_to": {"id": ME, "name": "Alice Adams", "email": "alice@example.com"},
        "creator": {"id": BOB, "name": "Bob", "email": "bob@example.com"},
        DUE: "2026-11-27T17:00:00Z",
        "updated_at": "2026-11-25T08:00:00Z",
        "involved_people": [],
    });
    for (k, val) in v.as_object().unwrap() {
        base[k] = val.clone();
    }
    serde_json::from_value(base).unwrap()
}

pub(super) fn snap(v: serde_json::Value) -> Snapshot {
    Snapshot::of(&task(v), &me())
}

pub(super) fn kinds(items: &[crate::store::InboxItem]) -> Vec<&str> {
    items.iter().map(|i| i.kind.as_str()).collect()
}

#[test]
fn a_task_newly_assigned_to_me_says_so_and_the_first_walk_only_learns() {
    let s = snap(json!({}));
    let items = task_items(T1, None, &s, false, now());
    assert_eq!(kinds(&items), ["assigned"]);
    assert_eq!(items[0].words, "assigned to you");
    assert!(task_items(T1, None, &s, true, now()).is_empty());
    // Reassigned to me from someone else.
    let before = snap(json!({"assigned_to": {"id": BOB, "name": "Bob"}}));
    let after = snap(json!({"updated_at": "2026-11-25T09:00:00Z"}));
    assert_eq!(
        kinds(&task_items(T1, Some(&before), &after, false, now())),
        ["assigned"]
    );
}

#[test]
fn no_longer_assigned_names_the_new_assignee_once() {
    let before = snap(json!({}));
    let after = snap(
        json!({"assigned_to": {"id": BOB, "name": "Bob"}, "updated_at": "2026-11-25T09:00:00Z"}),
    );
    let items = task_items(T1, Some(&before), &after, false, now());
    assert_eq!(kinds(&items), ["unassigned"]);
    assert_eq!(items[0].words, "no longer assigned to you (now Bob)");
    // The same version again is nothing new.
    assert!(task_items(T1, Some(&after), &after, false, now()).is_empty());
}

#[test]
fn changed_fields_carry_the_services_values_and_say_them_in_words() {
    let before = snap(json!({DUE: "2026-11-27T17:00:00Z"}));
    let after = snap(json!({
        "status": "completed", DUE: "2026-11-30T17:00:00Z",
        "updated_at": "2026-11-25T09:30:00Z"
    }));
    let items = task_items(T1, Some(&before), &after, false, now());
    assert_eq!(kinds(&items), ["changed"]);
    assert_eq!(
        items[0].words,
        "status in progress → completed; due Fri → Mon"
    );
    let ch: Vec<Change> = serde_json::from_str(&items[0].changes).unwrap();
    // The service's values, and taskdeck's words beside them.
    assert_eq!(
        ch[0],
        Change {
            field: "status".into(),
            before: Some(json!("in_progress")),
            after: Some(json!("completed")),
            before_words: "in progress".into(),
            after_words: "completed".into(),
        }
    );
    assert_eq!(ch[1].field, DUE);
    assert_eq!(ch[1].before, Some(json!("2026-11-27T17:00:00Z")));
    assert_eq!(ch[1].after, Some(json!("2026-11-30T17:00:00Z")));
    assert_eq!(items[0].target.as_deref(), Some("field:status"));
    // The service's time, not ours.
    assert_eq!(items[0].at, secs(Some("2026-11-25T09:30:00Z")).unwrap());
    // An older version than the inbox knew is never news.
    assert!(task_items(T1, Some(&after), &before, false, now()).is_empty());
}

#[test]
fn shared_with_me_and_access_removed() {
    let shared = snap(json!({
        "assigned_to": {"id": BOB, "name": "Bob"},
        "involved_people": [{"id": ME, "name": "Alice Adams", "role": "shared", "access_level": "read"}]
    }));
    let items = task_items(T1, None, &shared, false, now());
    assert_eq!(kinds(&items), ["shared"]);
    assert_eq!(items[0].words, "shared with you (read)");
    let gone = gone_item(T1, &shared, Some(None), now()).unwrap();
    assert_eq!(gone.kind, "access_removed");
    assert!(
        gone.words.contains("your access was removed"),
        "{}",
        gone.words
    );
    let archived = snap(json!({"archived": true}));
    assert_eq!(
        gone_item(T1, &shared, Some(Some(&archived)), now())
            .unwrap()
            .words,
        "archived"
    );
}

#[test]
fn due_today_and_overdue_come_once_per_local_day() {
    let today = snap(json!({DUE: "2026-11-25T17:00:00Z"}));
    let items = task_items(T1, Some(&today), &today, false, now());
    assert_eq!(kinds(&items), ["due"]);
    assert_eq!(items[0].key, "due:2026-11-25");
    assert_eq!(items[0].words, "due today 17:00");
    let late = snap(json!({DUE: "2026-11-23T17:00:00Z"}));
    let items = task_items(T1, Some(&late), &late, false, now());
    assert_eq!(items[0].words, "overdue: was due Mon 17:00");
    // Not mine, or done: no reminder.
    let done = snap(json!({DUE: "2026-11-23T17:00:00Z", "status": "completed"}));
    assert!(task_items(T1, Some(&done), &done, false, now()).is_empty());
    // Even the first walk reminds.
    assert_eq!(kinds(&task_items(T1, None, &late, true, now())), ["due"]);
}

#[test]
fn a_draft_waits_for_me() {
    let d = snap(json!({"draft": true, DUE: null}));
    let items = task_items(T1, Some(&d), &d, false, now());
    assert_eq!(kinds(&items), ["draft"]);
    assert_eq!(items[0].words, "draft waiting for you to accept or reject");
}

pub(super) fn comment(id: &str, author: &str, text: &str, extra: serde_json::Value) -> Comment {
    let mut v = json!({
        "id": id, "task_id": T1, "content": text,
        "author": {"id": author, "name": if author == ME { "Alice Adams" } else { "Bob" }},
        "created_at": "2026-11-25T09:00:00Z", "mentioned_users": []
    });
    for (k, val) in extra.as_object().unwrap() {
        v[k] = val.clone();
    }
    serde_json::from_value(v).unwrap()
}

#[test]
fn new_comments_mentions_and_replies_say_so_and_mine_are_never_news() {
    let s = snap(json!({}));
    let cs = vec![
        comment("c1", ME, "my question", json!({})),
        comment("c2", BOB, "plain note", json!({})),
        comment("c3", BOB, "answer", json!({"parent_comment_id": "c1"})),
        // No list from the service: the text is read.
        comment(
            "c4",
            BOB,
            "ping @alice adams please",
            json!({"mentioned_users": null}),
        ),
        comment("c5", BOB, "by id", json!({"mentioned_users": [{"id": ME}]})),
        comment(
            "c6",
            BOB,
            "by email",
            json!({"mentioned_users": ["ALICE@example.com"]}),
        ),
        comment(
            "c7",
            BOB,
            "@alice adamsx is someone else",
            json!({"mentioned_users": null}),
        ),
        comment("c8", ME, "my own note", json!({})),
    ];
    let known: Vec<String> = vec!["c1".into()];
    let items = comment_items(T1, &s, Some(&known), 0, &cs, &me(), now());
    let got: Vec<(&str, &str)> = items
        .iter()
        .map(|i| (i.key.as_str(), i.kind.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("comment:c2", "comment"),
            ("comment:c3", "reply"),
            ("comment:c4", "mentioned"),
            ("comment:c5", "mentioned"),
            ("comment:c6", "mentioned"),
            ("comment:c7", "comment"),
        ]
    );
    assert_eq!(items[1].words, "Bob replied to your comment: “answer”");
    assert_eq!(
        items[2].words,
        "Bob mentioned you: “ping @alice adams please”"
    );
    assert_eq!(items[0].target.as_deref(), Some("comment:c2"));
    // Never read before: only comments made after the inbox began to
    // follow the task are news.
    let since = secs(Some("2026-11-25T09:30:00Z")).unwrap();
    assert!(comment_items(T1, &s, None, since, &cs, &me(), now()).is_empty());
    let since = secs(Some("2026-11-25T08:30:00Z")).unwrap();
    assert_eq!(
        comment_items(T1, &s, None, since, &cs, &me(), now()).len(),
        7 - 1
    );
}

#[test]
fn a_row_per_task_mentions_first_then_newest() {
    let mk = |task: &str, key: &str, kind: Kind, at: i64| crate::store::InboxItem {
        task_id: task.into(),
        key: key.into(),
        kind: kind.as_str().into(),
        rank: kind.rank(),
        words: format!("{} words", kind.as_str()),
        changes: "[]".into(),
        label: task.into(),
        title: String::new(),
        target: Some(key.into()),
        at,
        read_at: None,
    };
    let items = vec![
        mk("a", "fields:1", Kind::Fields, 300),
        mk("b", "comment:x", Kind::Comment, 200),
        mk("a", "comment:y", Kind::Comment, 250),
        mk("c", "comment:z", Kind::Mention, 100),
    ];
    let rows = group(&items, &[], 400);
    let order: Vec<&str> = rows.iter().map(|r| r.task_id.as_str()).collect();
    assert_eq!(order, ["c", "a", "b"]);
    assert_eq!(rows[1].why(400), "changed words · comment words");
    assert_eq!(rows[1].target.as_deref(), Some("fields:1"));
    // Snoozed until later: hidden; once the time came: back, saying so.
    let mark = |at| InboxMark {
        task_id: "a".into(),
        kind: MarkKind::Snooze,
        at,
        since: 0,
        label: "a".into(),
        title: String::new(),
    };
    assert_eq!(group(&items, &[mark(500)], 400).len(), 2);
    let back = group(&items, &[mark(350)], 400);
    let a = back.iter().find(|r| r.task_id == "a").unwrap();
    assert_eq!(a.snoozed_until, Some(350));
    assert!(a.why(400).starts_with("snoozed until "), "{}", a.why(400));
}

fn base(s: &Snapshot, since: i64) -> InboxBase {
    InboxBase {
        task_id: T1.into(),
        snap: serde_json::to_string(s).unwrap(),
        version: s.version(),
        comment_ids: Some(vec![]),
        since,
        reminds: s.mine && s.open(),
    }
}

#[test]
fn the_same_change_found_by_two_instances_is_one_item() {
    let Store {
        db: mut a,
        path,
        _dir,
    } = store();
    let (mut b, _) = Db::open(&path).unwrap();
    let before = snap(json!({}));
    a.inbox_commit(&[base(&before, 0)], &[], &[], 1).unwrap();
    let after = snap(json!({"status": "completed", "updated_at": "2026-11-25T09:00:00Z"}));
    let items = task_items(T1, Some(&before), &after, false, now());
    assert_eq!(
        a.inbox_commit(&[base(&after, 0)], &[], &items, 2).unwrap(),
        1
    );
    assert_eq!(
        b.inbox_commit(&[base(&after, 0)], &[], &items, 2).unwrap(),
        0
    );
    // An instance that read an older version never moves the base back
    // (at a time after both versions: a version ahead of the clock is a
    // service clock that ran ahead, and orders nothing).
    let n = now().as_second();
    b.inbox_commit(&[base(&before, 0)], &[], &[], n).unwrap();
    assert_eq!(a.inbox_bases().unwrap()[T1].version, after.version());
    assert_eq!(a.inbox_items(false).unwrap().len(), 1);
}

#[test]
fn a_write_of_ours_in_flight_is_not_news_and_its_answer_becomes_the_base() {
    let mut db = Db::in_memory().unwrap();
    let before = snap(json!({}));
    db.inbox_commit(&[base(&before, 0)], &[], &[], 1).unwrap();
    db.inbox_own(T1, None, 10).unwrap();
    let after = snap(json!({"status": "completed", "updated_at": "2026-11-25T09:00:00Z"}));
    let items = task_items(T1, Some(&before), &after, false, now());
    assert_eq!(
        db.inbox_commit(&[base(&after, 0)], &[], &items, 11)
            .unwrap(),
        0
    );
    db.inbox_own(T1, Some(&base(&after, 0)), 12).unwrap();
    let stored: Snapshot = serde_json::from_str(&db.inbox_bases().unwrap()[T1].snap).unwrap();
    assert_eq!(stored, after);
}

#[test]
fn snoozes_and_follow_ups_survive_a_restart() {
    let Store { db, path, _dir } = store();
    for (kind, at) in [(MarkKind::Snooze, 1000), (MarkKind::FollowUp, 2000)] {
        db.inbox_mark(&InboxMark {
            task_id: T1.into(),
            kind,
            at,
            since: 500,
            label: "#12".into(),
            title: "Quarterly report".into(),
        })
        .unwrap();
    }
    // Restarted: the store closed, then opened again.
    drop(db);
    let (mut db, _) = Db::open(&path).unwrap();
    let marks = db.inbox_marks().unwrap();
    assert_eq!(marks.len(), 2);
    // Before its time the follow-up waits; after it, with no news, it
    // enters the inbox saying so, once.
    let t = |s| Timestamp::from_second(s).unwrap();
    assert_eq!(cycle::follow_ups(&mut db, t(1500)).unwrap(), 0);
    assert_eq!(cycle::follow_ups(&mut db, t(2500)).unwrap(), 1);
    assert_eq!(cycle::follow_ups(&mut db, t(2600)).unwrap(), 0);
    let items = db.inbox_items(false).unwrap();
    assert_eq!(items[0].kind, "follow-up");
    assert!(
        items[0].words.starts_with("no answer since "),
        "{}",
        items[0].words
    );
    // The snooze that ended brings the task back, saying so.
    let rows = group(&items, &db.inbox_marks().unwrap(), 2600);
    assert_eq!(rows[0].snoozed_until, Some(1000));
    // Marked read: gone, and `u` brings it back.
    let keys = db.inbox_read(T1, 2700).unwrap();
    assert!(group(
        &db.inbox_items(false).unwrap(),
        &db.inbox_marks().unwrap(),
        2700
    )
    .is_empty());
    db.inbox_unread(T1, &keys).unwrap();
    assert_eq!(db.inbox_items(false).unwrap().len(), 1);
}

#[test]
fn a_follow_up_answered_by_someone_is_dropped_silently() {
    let mut db = Db::in_memory().unwrap();
    db.inbox_mark(&InboxMark {
        task_id: T1.into(),
        kind: MarkKind::FollowUp,
        at: 2000,
        since: 500,
        label: "#12".into(),
        title: String::new(),
    })
    .unwrap();
    let s = snap(json!({}));
    let c = comment(
        "c9",
        BOB,
        "done",
        json!({"created_at": "1970-01-01T00:15:00Z"}),
    );
    let items = comment_items(T1, &s, Some(&[]), 0, &[c], &me(), now());
    db.inbox_commit(&[], &[], &items, 900).unwrap();
    let t = Timestamp::from_second(2500).unwrap();
    assert_eq!(cycle::follow_ups(&mut db, t).unwrap(), 0);
    assert!(db.inbox_marks().unwrap().is_empty());
}

#[test]
fn a_reminder_is_over_once_the_task_is_done() {
    let mut db = Db::in_memory().unwrap();
    let late = snap(json!({DUE: "2026-11-23T17:00:00Z"}));
    let items = task_items(T1, Some(&late), &late, false, now());
    db.inbox_commit(&[base(&late, 0)], &[], &items, 1).unwrap();
    assert_eq!(db.inbox_items(false).unwrap().len(), 1);
    let done = snap(json!({DUE: "2026-11-23T17:00:00Z", "status": "completed",
        "updated_at": "2026-11-25T09:00:00Z"}));
    let items = task_items(T1, Some(&late), &done, false, now());
    db.inbox_commit(&[base(&done, 0)], &[], &items, 2).unwrap();
    let unread = db.inbox_items(false).unwrap();
    assert_eq!(
        kinds(&unread),
        ["changed"],
        "the reminder is over, the change is news"
    );
}

/// `taskdeck inbox` at 160 columns (issue 40 §3): the title gives way,
/// the change keeps its arrow and its value; narrower, the quote is cut
/// at a word's end with `…` before the change is.
#[test]
fn a_row_cut_to_a_width_cuts_the_title_before_the_change() {
    use crate::inbox::{InboxRow, Kind};
    let row = InboxRow {
        task_id: "t".into(),
        label: "#7".into(),
        title: "Review the share purchase agreement for the Fabrikam acquisition and every schedule attached to it".into(),
        at: 0,
        reasons: vec![
            (Kind::Mention, "Bob mentioned you: “@Alice the counterparty has sent a revised draft”".into()),
            (Kind::Fields, "priority medium → high".into()),
        ],
        target: None,
        snoozed_until: None,
        read: false,
    };
    let head = format!("{:<8} {:>8}  ", row.label, "2h ago");
    let line = crate::cut::line(&row.line_pieces(head.clone(), 0), 160);
    assert!(line.ends_with("· priority medium → high"), "{line}");
    assert!(line.contains("revised draft”"), "the quote whole: {line}");
    assert!(
        line.contains("Review the share purchase agreement") && line.contains("… — "),
        "{line}"
    );
    assert!(crate::cut::width(&line) <= 160, "{line}");
    let line = crate::cut::line(&row.line_pieces(head, 0), 100);
    assert!(line.ends_with("· priority medium → high"), "{line}");
    assert!(
        line.contains("… · priority"),
        "the quote cut, saying so: {line}"
    );
    assert!(crate::cut::width(&line) <= 100, "{line}");
}

/// A base made for the commit, counted while it lives.
struct Counted(InboxBase, std::rc::Rc<std::cell::Cell<usize>>);

impl std::borrow::Borrow<InboxBase> for Counted {
    fn borrow(&self) -> &InboxBase {
        &self.0
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.1.set(self.1.get() - 1);
    }
}

#[test]
fn a_walks_bases_are_written_one_at_a_time_never_all_held() {
    // Issue 42 §2: a first walk of 20,000 tasks held every base's snapshot
    // JSON until the commit (~20 MB). The commit asks for each base when
    // it writes it, and drops it before asking for the next.
    let mut db = Db::in_memory().unwrap();
    let s = snap(json!({}));
    let live = std::rc::Rc::new(std::cell::Cell::new(0));
    let most = std::rc::Rc::new(std::cell::Cell::new(0));
    let bases = (0..50).map(|n| {
        live.set(live.get() + 1);
        most.set(most.get().max(live.get()));
        let mut b = base(&s, 0);
        b.task_id = format!("10000000-0000-4000-8000-{n:012}");
        Ok(Counted(b, live.clone()))
    });
    db.inbox_commit_each(bases, &[], &[], 1).unwrap();
    assert_eq!(db.inbox_bases().unwrap().len(), 50);
    assert_eq!(most.get(), 1, "bases held at once");
    assert_eq!(live.get(), 0);

    // A base that cannot be made ends the walk's transaction: nothing of
    // it is written.
    let mut db = Db::in_memory().unwrap();
    let bases = (0..3).map(|n| {
        if n == 2 {
            return Err(rusqlite::Error::InvalidQuery);
        }
        let mut b = base(&s, 0);
        b.task_id = format!("20000000-0000-4000-8000-{n:012}");
        Ok(b)
    });
    assert!(db.inbox_commit_each(bases, &[], &[], 1).is_err());
    assert!(db.inbox_bases().unwrap().is_empty());
    assert!(!db.inbox_started());
}

#[test]
fn a_walk_holds_each_snapshot_as_its_json_and_reads_it_back_whole() {
    // Issue 42 §2: a walk holds up to 20,000 snapshots until its end; as
    // `Snapshot`s (a dozen strings, the assignee's parsed JSON, ~400
    // bytes inline) they were ~24 MB of the TUI's peak with ~100k rows.
    use super::snapshot::Held;
    let mut s = snap(json!({"tags": ["a", "b"], "status": "completed"}));
    s.own = true;
    let open = snap(json!({}));
    for s in [&s, &open] {
        let h = Held::of(s);
        assert_eq!(h.snapshot().as_ref(), Some(s));
        assert_eq!((h.open(), h.version()), (s.open(), s.version()));
        assert_eq!(h.json(), serde_json::to_string(s).unwrap());
    }
    assert!(!Held::of(&s).open() && Held::of(&open).open());
    // Held: its JSON (a boxed str, exactly sized) and two numbers.
    assert!(std::mem::size_of::<Held>() <= 32);
    assert!(std::mem::size_of::<Snapshot>() > 4 * std::mem::size_of::<Held>());
}
