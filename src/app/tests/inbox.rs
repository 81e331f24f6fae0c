//! The inbox in the TUI: `i` opens it; `enter` opens the task where it
//! matters and marks it read; `d`, `u`, `a`, `r`; `:snooze`, `:follow-up`,
//! `:snoozed`; the header count and the list's mark.

use super::*;
use crate::inbox::{InboxCmd, InboxRow, InboxUpdate, Kind};
use crate::store::{InboxMark, MarkKind};

fn row(n: i64, kind: Kind, words: &str, target: Option<&str>) -> InboxRow {
    InboxRow {
        task_id: tid(n),
        label: format!("#{n}"),
        title: format!("Task number {n}"),
        at: jiff::Timestamp::now().as_second() - 60,
        reasons: vec![(kind, words.into())],
        target: target.map(str::to_string),
        snoozed_until: None,
        read: false,
    }
}

/// A state whose inbox runs and holds two rows: a mention on #2 (at its
/// comment `c-9`) and a field change on #3.
fn with_inbox() -> State {
    let mut s = loaded(5);
    s.inbox.running = true;
    s.on_inbox(InboxUpdate {
        rows: vec![
            row(
                2,
                Kind::Mention,
                "Bob mentioned you: “look”",
                Some("comment:c-9"),
            ),
            row(
                3,
                Kind::Fields,
                "status in progress → completed",
                Some("field:status"),
            ),
        ],
        unread: [tid(2), tid(3)].into_iter().collect(),
        ..Default::default()
    });
    s
}

fn inbox_cmds(fx: &[Effect]) -> Vec<InboxCmd> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Inbox(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn i_opens_the_inbox_and_enter_opens_the_task_at_its_comment_and_marks_it_read() {
    let mut s = with_inbox();
    assert_eq!(s.inbox.count(), 2);
    s.on_key(key('i'));
    assert!(matches!(s.overlay, Overlay::Inbox(_)));
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(inbox_cmds(&fx), [InboxCmd::Read(tid(2))]);
    assert!(matches!(s.overlay, Overlay::None));
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task_id, tid(2));
    assert_eq!(d.tab, Tab::Comments);
    assert_eq!(d.focus_comment.as_deref(), Some("c-9"));
    // The comments are asked for; when they come, the cursor is on it.
    let r = reqs(&fx);
    assert!(r.contains(&ApiRequest::Comments { id: tid(2) }), "{r:?}");
    let c = |id: &str| -> Comment {
        serde_json::from_value(json!({"id": id, "task_id": tid(2), "content": "x",
            "author": {"id": "u-bob", "name": "Bob"}, "created_at": "2026-11-01T10:00:00Z"}))
        .unwrap()
    };
    let comments = vec![c("c-1"), c("c-5"), c("c-9")];
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Comments { .. }),
        Ok(Reply::Comments(comments)),
    );
    assert_eq!(s.detail.as_ref().unwrap().cursor, 2);
}

#[test]
fn a_changed_field_opens_on_the_overview() {
    let mut s = with_inbox();
    s.on_key(key('i'));
    s.on_key(key('j'));
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(inbox_cmds(&fx), [InboxCmd::Read(tid(3))]);
    assert_eq!(s.detail.as_ref().unwrap().tab, Tab::Overview);
    assert_eq!(
        s.detail.as_ref().unwrap().focus_field.as_deref(),
        Some("status")
    );
}

/// A reminder points at the due date, but nothing changed there: the
/// overview opens without `◀ changed` (issue 46 §2: every demo item
/// opened saying `◀ changed (inbox)`).
#[test]
fn a_reminder_opens_on_the_overview_with_no_field_marked_changed() {
    let mut s = loaded(5);
    s.inbox.running = true;
    s.on_inbox(InboxUpdate {
        rows: vec![row(
            4,
            Kind::Due,
            "overdue: was due Mon 17:00",
            Some("field:due"),
        )],
        unread: [tid(4)].into_iter().collect(),
        ..Default::default()
    });
    s.on_key(key('i'));
    s.on_key(code(KeyCode::Enter));
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task_id, tid(4));
    assert_eq!(d.tab, Tab::Overview);
    assert_eq!(d.focus_field, None);
}

#[test]
fn d_marks_done_without_opening_u_brings_it_back_a_shows_all_r_walks() {
    let mut s = with_inbox();
    let before = s.detail.as_ref().map(|d| d.task_id.clone());
    s.on_key(key('i'));
    let fx = s.on_key(key('d'));
    assert_eq!(inbox_cmds(&fx), [InboxCmd::Read(tid(2))]);
    assert!(matches!(s.overlay, Overlay::Inbox(_)), "stays open");
    assert_eq!(s.detail.as_ref().map(|d| d.task_id.clone()), before);
    // The inbox answers with what it marked: `u` brings that back.
    s.on_inbox(InboxUpdate {
        read: Some((tid(2), vec!["comment:c-9".into()])),
        ..Default::default()
    });
    let fx = s.on_key(key('u'));
    assert_eq!(
        inbox_cmds(&fx),
        [InboxCmd::Unread(tid(2), vec!["comment:c-9".into()])]
    );
    // Nothing more to bring back: said, nothing sent.
    assert!(inbox_cmds(&s.on_key(key('u'))).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("nothing marked done"));
    assert_eq!(inbox_cmds(&s.on_key(key('a'))), [InboxCmd::ShowAll(true)]);
    assert_eq!(inbox_cmds(&s.on_key(key('r'))), [InboxCmd::Refresh]);
    s.on_key(code(KeyCode::Esc));
    assert!(matches!(s.overlay, Overlay::None));
}

/// `d` then `u` faster than the inbox answers (one burst of keys): `u`
/// brings back the task just marked done — never the one marked before
/// it, which an empty stack of answers used to pop (seen in the demo).
#[test]
fn u_pressed_before_ds_answer_brings_back_that_task_not_the_one_before() {
    let mut s = with_inbox();
    s.on_key(key('i'));
    // #2 marked done and answered: it is on the `u` stack.
    assert_eq!(inbox_cmds(&s.on_key(key('d'))), [InboxCmd::Read(tid(2))]);
    let only_3 = |read: Option<(String, Vec<String>)>| InboxUpdate {
        rows: vec![row(3, Kind::Fields, "status", Some("field:status"))],
        unread: [tid(3)].into_iter().collect(),
        read,
        ..Default::default()
    };
    s.on_inbox(only_3(Some((tid(2), vec!["comment:c-9".into()]))));
    // #3 marked done; `u` comes before its answer.
    assert_eq!(inbox_cmds(&s.on_key(key('d'))), [InboxCmd::Read(tid(3))]);
    let fx = s.on_key(key('u'));
    assert!(
        inbox_cmds(&fx).is_empty(),
        "nothing of #2 brought back: {fx:?}"
    );
    assert!(s
        .status
        .as_ref()
        .unwrap()
        .1
        .contains("back in the inbox: #3"));
    // The answer says what #3's read marked: it goes back at once.
    let fx = s.on_inbox(InboxUpdate {
        read: Some((tid(3), vec!["field:status".into()])),
        ..Default::default()
    });
    assert_eq!(
        inbox_cmds(&fx),
        [InboxCmd::Unread(tid(3), vec!["field:status".into()])]
    );
    // The next `u` is #2's.
    assert_eq!(
        inbox_cmds(&s.on_key(key('u'))),
        [InboxCmd::Unread(tid(2), vec!["comment:c-9".into()])]
    );
    assert!(s.inbox.reading.is_empty());
}

/// A read the store could not make is answered with nothing marked: it
/// waits no more, and a `u` for it brings nothing back.
#[test]
fn a_read_that_marked_nothing_is_no_longer_awaited() {
    let mut s = with_inbox();
    s.on_key(key('i'));
    s.on_key(key('d'));
    s.on_key(key('u'));
    let fx = s.on_inbox(InboxUpdate {
        read: Some((tid(2), vec![])),
        error: Some("the inbox's store: disk full".into()),
        ..Default::default()
    });
    assert!(inbox_cmds(&fx).is_empty());
    assert!(s.inbox.reading.is_empty());
    assert!(s.inbox.done.is_empty());
}

#[test]
fn snooze_and_follow_up_are_stored_marks_on_the_current_task() {
    let mut s = with_inbox();
    s.on_key(code(KeyCode::Enter));
    let fx = palette(&mut s, "snooze 2h");
    let cmds = inbox_cmds(&fx);
    let InboxCmd::Mark(m) = &cmds[0] else {
        panic!("{cmds:?}")
    };
    assert_eq!(m.kind, MarkKind::Snooze);
    assert_eq!(m.task_id, tid(1));
    let ahead = m.at - jiff::Timestamp::now().as_second();
    assert!((7190..=7200).contains(&ahead), "{ahead}");
    assert!(s.status.as_ref().unwrap().1.contains("snoozed until"));
    let fx = palette(&mut s, "follow-up tomorrow");
    assert!(matches!(&inbox_cmds(&fx)[0], InboxCmd::Mark(m) if m.kind == MarkKind::FollowUp));
    // A time not ahead is refused, nothing stored.
    let fx = palette(&mut s, "snooze yesterday");
    assert!(inbox_cmds(&fx).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains(":snooze"));
}

#[test]
fn s_in_the_inbox_snoozes_the_rows_task() {
    let mut s = with_inbox();
    s.on_key(key('i'));
    s.on_key(key('j'));
    s.on_key(key('s'));
    assert!(matches!(s.overlay, Overlay::Palette(_)));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(3));
    let fx = type_str(&mut s, "3h");
    assert!(fx.is_empty());
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(matches!(&inbox_cmds(&fx)[0], InboxCmd::Mark(m) if m.task_id == tid(3)));
}

#[test]
fn without_a_running_inbox_snooze_says_why() {
    let mut s = loaded(3);
    s.inbox.off = Some("the inbox is kept in the local store, and `cache = false`".into());
    s.on_key(code(KeyCode::Enter));
    let fx = palette(&mut s, "snooze 2h");
    assert!(inbox_cmds(&fx).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("cache = false"));
}

#[test]
fn snoozed_lists_the_marks_and_x_cancels_one() {
    let mut s = with_inbox();
    let now = jiff::Timestamp::now().as_second();
    s.on_inbox(InboxUpdate {
        marks: vec![InboxMark {
            task_id: tid(4),
            kind: MarkKind::Snooze,
            at: now + 3600,
            since: now,
            label: "#4".into(),
            title: "Task number 4".into(),
        }],
        ..Default::default()
    });
    palette(&mut s, "snoozed");
    let Overlay::Chooser(c) = &s.overlay else {
        panic!("a chooser")
    };
    assert_eq!(c.rows.len(), 1);
    assert!(c.rows[0].1.contains("snoozed until"), "{}", c.rows[0].1);
    let fx = s.on_key(ctrl('x'));
    assert_eq!(
        inbox_cmds(&fx),
        [InboxCmd::Unmark(tid(4), MarkKind::Snooze)]
    );
}

#[test]
fn with_no_period_opening_the_inbox_walks_once_and_r_offline_says_why() {
    let mut s = with_inbox();
    assert!(!s.inbox.periodic);
    assert_eq!(inbox_cmds(&s.on_key(key('i'))), [InboxCmd::Refresh]);
    s.on_key(code(KeyCode::Esc));
    s.on_inbox(InboxUpdate {
        walked_at: Some(jiff::Timestamp::now().as_second()),
        ..Default::default()
    });
    assert!(inbox_cmds(&s.on_key(key('i'))).is_empty());
    s.on_key(code(KeyCode::Esc));
    // Walking by itself: opening asks nothing.
    let mut p = with_inbox();
    p.inbox.periodic = true;
    assert!(inbox_cmds(&p.on_key(key('i'))).is_empty());
    // Before the service named the user, `r` says why nothing is walked.
    p.me = None;
    assert!(inbox_cmds(&p.on_key(key('r'))).is_empty());
    assert!(p
        .status
        .as_ref()
        .unwrap()
        .1
        .contains("once the service has said who you are"));
}

fn unread(n: i64, key: &str, kind: Kind, words: &str) -> crate::inbox::UnreadItem {
    crate::inbox::UnreadItem {
        task_id: tid(n),
        key: key.into(),
        kind: Some(kind),
        words: words.into(),
        label: format!("#{n}"),
        title: format!("Task number {n}"),
    }
}

fn notices(fx: &[Effect]) -> Vec<crate::inbox::Notice> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Notify(n) => Some(n.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn only_what_arrives_after_the_first_walk_notifies_and_each_item_once() {
    let mut s = loaded(5);
    s.inbox.running = true;
    s.inbox.periodic = true;
    let stored = unread(2, "comment:c-1", Kind::Comment, "Bob commented");
    let update = |items: Vec<crate::inbox::UnreadItem>, walked: bool| InboxUpdate {
        items,
        walked_at: walked.then_some(1_700_000_000),
        ..Default::default()
    };
    // What the store holds, then what the first walk finds: no notice.
    assert!(notices(&s.on_inbox(update(vec![stored.clone()], false))).is_empty());
    let caught_up = unread(3, "fields:2", Kind::Assigned, "assigned to you");
    let first = update(vec![stored.clone(), caught_up.clone()], true);
    assert!(notices(&s.on_inbox(first)).is_empty());
    // Two mentions in one walk: one notice naming both.
    let m1 = unread(4, "comment:c-2", Kind::Mention, "Bob Okafor mentioned you");
    let m2 = unread(5, "comment:c-3", Kind::Reply, "Bob Okafor replied to you");
    let all = vec![stored, caught_up, m1.clone(), m2.clone()];
    let n = notices(&s.on_inbox(update(all.clone(), true)));
    assert_eq!(n.len(), 1);
    assert_eq!(n[0].items, vec![m1, m2]);
    assert_eq!(
        n[0].words,
        "2 new: Bob Okafor mentioned you on #4, Bob Okafor replied to you on #5"
    );
    // The same inbox again (a command answered, the next walk): nothing.
    assert!(notices(&s.on_inbox(update(all, true))).is_empty());
}

#[test]
fn an_inbox_walked_only_when_asked_starts_with_what_the_store_holds() {
    let mut s = loaded(5);
    s.inbox.periodic = false;
    // Walking only when asked: the store's items are the start.
    let stored = unread(2, "comment:c-1", Kind::Mention, "Bob mentioned you");
    let u = InboxUpdate {
        items: vec![stored.clone()],
        ..Default::default()
    };
    assert!(notices(&s.on_inbox(u)).is_empty());
    let m = unread(3, "comment:c-2", Kind::Mention, "Bob mentioned you");
    let u = InboxUpdate {
        items: vec![stored, m],
        ..Default::default()
    };
    assert_eq!(notices(&s.on_inbox(u)).len(), 1);
}

#[test]
fn snooze_with_nothing_asks_and_a_time_said_twice_is_refused() {
    // `:snooze ` + Enter (and `s` + Enter) took the first suggestion and
    // snoozed an hour; now the palette stays open and asks.
    let mut s = with_inbox();
    s.on_key(code(KeyCode::Enter));
    for text in ["snooze", "snooze ", "follow-up "] {
        let fx = palette(&mut s, text);
        assert!(inbox_cmds(&fx).is_empty(), "{text:?} stored a mark");
        assert!(matches!(s.overlay, Overlay::Palette(_)), "{text:?} closed");
        s.on_key(code(KeyCode::Esc));
    }
    s.on_key(key('i'));
    s.on_key(key('s'));
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(inbox_cmds(&fx).is_empty(), "s + Enter snoozed");
    let (_, words, _) = s.status.clone().unwrap();
    assert!(words.contains("when"), "{words}");
    s.on_key(code(KeyCode::Esc));
    s.on_key(code(KeyCode::Esc));
    // A value typed runs as typed: not the suggestion `tomorrow`.
    let fx = palette(&mut s, "snooze tomorrow tomorrow");
    assert!(inbox_cmds(&fx).is_empty());
    assert_eq!(s.status.as_ref().unwrap().0, Level::Error);
    // Chosen with the arrows, a suggestion runs.
    s.on_key(key(':'));
    type_str(&mut s, "snooze ");
    s.on_key(code(KeyCode::Down));
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(matches!(&inbox_cmds(&fx)[0], InboxCmd::Mark(m) if m.kind == MarkKind::Snooze));
}

#[test]
fn a_partial_walk_is_said_once_with_what_is_missing() {
    let mut s = with_inbox();
    let walk = |at: i64, failed: usize| InboxUpdate {
        walked_at: Some(at),
        report: Some(crate::inbox::CycleReport {
            pages: 1,
            complete: true,
            comments_failed: failed,
            ..Default::default()
        }),
        ..Default::default()
    };
    let said = |s: &State| -> Vec<String> {
        s.messages
            .iter()
            .filter(|m| m.text.starts_with("inbox partly refreshed"))
            .map(|m| m.text.clone())
            .collect()
    };
    s.on_inbox(walk(100, 2));
    assert_eq!(
        said(&s),
        ["inbox partly refreshed: the comments of 2 tasks could not be read"]
    );
    // The same walk sent again (after a command): not said twice.
    s.on_inbox(walk(100, 2));
    assert_eq!(said(&s).len(), 1);
    // A whole walk says nothing.
    s.on_inbox(walk(200, 0));
    assert_eq!(said(&s).len(), 1);
}

/// Issue 36: another profile's inbox beside the current one's.
fn with_other_profile() -> State {
    let mut s = with_inbox();
    s.profile = Some("home".into());
    s.inbox.here = "home".into();
    let mut r = row(
        7,
        Kind::Fields,
        "status open → blocked",
        Some("field:status"),
    );
    r.task_id = "t-work-7".into();
    // The newest of all, yet after the current profile's rows.
    r.at += 30;
    s.on_profile_inbox(
        "work".into(),
        InboxUpdate {
            rows: vec![r],
            unread: ["t-work-7".to_string()].into_iter().collect(),
            ..Default::default()
        },
    );
    s.on_profile_inbox(
        "lab".into(),
        InboxUpdate {
            error: Some("its service cannot be reached: \u{1b}[31mrefused".into()),
            ..Default::default()
        },
    );
    s
}

#[test]
fn other_profiles_rows_are_labelled_and_counted_and_their_writes_go_to_their_own_inbox() {
    let mut s = with_other_profile();
    // The header counts every profile's unread tasks.
    assert_eq!(s.inbox.count(), 3);
    let rows = s.inbox.rows();
    assert_eq!(
        s.inbox.row_count(),
        rows.len(),
        "the count is the rows shown"
    );
    let shown: Vec<(Option<String>, &str)> = rows
        .iter()
        .map(|r| (s.inbox.label(r), r.row.label.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            // The current profile's rows first (issue 46 §1), though
            // work's #7 is newer than home's #3.
            (Some("[home]".to_string()), "#2"),
            (Some("[home]".to_string()), "#3"),
            (Some("[work]".to_string()), "#7"),
        ]
    );
    // The profile that is down says so, sanitised.
    let lab = s.inbox.others.iter().find(|o| o.profile == "lab").unwrap();
    assert_eq!(
        lab.last.error.as_deref(),
        Some("its service cannot be reached: ␛[31mrefused")
    );
    // Walking only when asked: opening asks every profile's inbox that
    // has not walked yet, each its own.
    let fx = s.on_key(key('i'));
    assert_eq!(inbox_cmds(&fx), [InboxCmd::Refresh]);
    assert!(fx.contains(&Effect::ProfileInbox("work".into(), InboxCmd::Refresh)));
    assert!(fx.contains(&Effect::ProfileInbox("lab".into(), InboxCmd::Refresh)));
    // `d` on the other profile's row (the third: the current profile's
    // come first): its own inbox, never the current one.
    s.on_key(key('j'));
    s.on_key(key('j'));
    let fx = s.on_key(key('d'));
    assert_eq!(inbox_cmds(&fx), []);
    assert_eq!(
        fx,
        [Effect::ProfileInbox(
            "work".into(),
            InboxCmd::Read("t-work-7".into())
        )]
    );
    // Its answer names what was read: `u` brings it back there.
    s.on_profile_inbox(
        "work".into(),
        InboxUpdate {
            read: Some(("t-work-7".into(), vec!["k1".into()])),
            ..Default::default()
        },
    );
    let fx = s.on_key(key('u'));
    assert_eq!(
        fx,
        [Effect::ProfileInbox(
            "work".into(),
            InboxCmd::Unread("t-work-7".into(), vec!["k1".into()])
        )]
    );
    // Snoozing another profile's row is refused in words.
    s.on_profile_inbox(
        "work".into(),
        InboxUpdate {
            rows: vec![{
                let mut r = row(7, Kind::Fields, "x", None);
                r.task_id = "t-work-7".into();
                r.at += 30;
                r
            }],
            ..Default::default()
        },
    );
    // Back on it: the last row, after the current profile's two.
    s.on_key(key('j'));
    let shown = s.inbox.rows();
    assert_eq!(shown.len(), 3);
    assert_eq!(shown[2].row.task_id, "t-work-7");
    let fx = s.on_key(key('s'));
    assert!(fx.is_empty(), "{fx:?}");
    assert!(matches!(s.overlay, Overlay::Inbox(_)));
    assert!(s.detail.as_ref().is_none_or(|d| d.task_id != "t-work-7"));
}

#[test]
fn enter_on_another_profiles_row_switches_to_it_then_opens_the_row_there() {
    let mut s = with_other_profile();
    s.on_key(key('i'));
    // The work row is the third: the current profile's come first.
    s.on_key(key('j'));
    s.on_key(key('j'));
    let fx = s.on_key(code(KeyCode::Enter));
    // Nothing asked of this profile's service or inbox for that row.
    assert!(reqs(&fx).is_empty(), "{fx:?}");
    assert_eq!(inbox_cmds(&fx), []);
    assert_eq!(s.switch_to.as_deref(), Some("work"));
    assert!(s.quit);
    let r = s.inbox.open_next.clone().expect("the row, carried across");
    assert_eq!(r.task_id, "t-work-7");
    // In the new run (now the work profile): read there and opened at the
    // changed field.
    let mut s = loaded(5);
    s.inbox.running = true;
    let fx = s.open_switched(r);
    assert_eq!(inbox_cmds(&fx), [InboxCmd::Read("t-work-7".into())]);
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task_id, "t-work-7");
    assert_eq!(d.focus_field.as_deref(), Some("status"));
    assert!(matches!(s.overlay, Overlay::None));
}

#[test]
fn another_profiles_new_item_notifies_naming_that_profile() {
    let mut s = loaded(5);
    s.inbox.running = true;
    s.inbox.periodic = true;
    let update = |items: Vec<crate::inbox::UnreadItem>| InboxUpdate {
        items,
        walked_at: Some(1_700_000_000),
        ..Default::default()
    };
    // Its first walk is the start: nothing told; what comes after is,
    // naming the profile (never as the current profile's).
    let old = unread(7, "fields:1", Kind::Assigned, "assigned to you");
    assert!(s
        .on_profile_inbox("work".into(), update(vec![old.clone()]))
        .is_empty());
    let new = unread(8, "comment:c-4", Kind::Mention, "Ann mentioned you");
    let fx = s.on_profile_inbox("work".into(), update(vec![old, new.clone()]));
    assert!(notices(&fx).is_empty());
    match fx.as_slice() {
        [Effect::ProfileNotify(p, n)] => {
            assert_eq!(p, "work");
            assert_eq!(n.items, vec![new]);
            assert_eq!(n.words, "[work] Ann mentioned you on #8");
        }
        other => panic!("{other:?}"),
    }
}

/// Issue 42 §11 in the TUI: profiles of the same service and the same user
/// read one store, and are one inbox — counted once, their rows shown
/// once, the second's walker stopped and said as the first's; a profile
/// of another store is still its own.
#[test]
fn profiles_of_one_service_and_user_are_one_inbox_in_the_tui() {
    let store = |name: &str| Some(std::path::PathBuf::from(format!("/svc/user-{name}.db")));
    let mut s = loaded(5);
    s.inbox.running = true;
    s.profile = Some("home".into());
    s.inbox.here = "home".into();
    let mine = || InboxUpdate {
        rows: vec![row(
            2,
            Kind::Mention,
            "Bob mentioned you",
            Some("comment:c-9"),
        )],
        unread: [tid(2)].into_iter().collect(),
        store: store("alice"),
        ..Default::default()
    };
    // A copy of the current profile answers before it: shown, for now.
    let fx = s.on_profile_inbox("copy".into(), mine());
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(s.inbox.count(), 1);
    // The current profile's inbox: the copy is the same inbox.
    let fx = s.on_inbox(mine());
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::ProfileStop(p) if p == "copy")),
        "{fx:?}"
    );
    // Another profile of the same user, and one of another user.
    let fx = s.on_profile_inbox("work".into(), mine());
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::ProfileStop(p) if p == "work")),
        "{fx:?}"
    );
    let mut bobs = mine();
    bobs.store = store("bob");
    bobs.rows[0].task_id = "t-bob".into();
    bobs.unread = ["t-bob".to_string()].into_iter().collect();
    assert!(s.on_profile_inbox("bob".into(), bobs).is_empty());
    // What the copy's walker sent before it stopped changes nothing.
    assert!(s.on_profile_inbox("copy".into(), mine()).is_empty());
    assert_eq!(s.inbox.count(), 2, "counted once, and Bob's");
    let rows = s.inbox.rows();
    assert_eq!(rows.len(), 2);
    assert_eq!(s.inbox.row_count(), 2);
    let labels: Vec<Option<String>> = rows.iter().map(|r| s.inbox.label(r)).collect();
    assert!(labels.contains(&Some("[home]".into())), "{labels:?}");
    assert!(labels.contains(&Some("[bob]".into())), "{labels:?}");
    let same: Vec<(&str, Option<&str>)> = s
        .inbox
        .others
        .iter()
        .map(|o| (o.profile.as_str(), o.same_as.as_deref()))
        .collect();
    assert_eq!(
        same,
        [
            ("copy", Some("home")),
            ("work", Some("home")),
            ("bob", None)
        ]
    );
}

/// Issue 46 §2 (why the link reads were backed out once): a walk's news
/// of a task the list does not hold — a draft read through a link — never
/// reaches the list: its rows and its cursor stay, and `g` after `G` is
/// the first row. The list's rows come from its pages alone.
#[test]
fn a_draft_found_by_the_inbox_leaves_the_lists_rows_and_cursor_alone() {
    let mut s = loaded(5);
    s.inbox.running = true;
    s.on_key(key('G'));
    let rows: Vec<String> = s
        .list
        .items
        .iter()
        .filter_map(|i| i.id().map(|id| id.to_string()))
        .collect();
    let at = s.list.selected;
    assert_eq!(at, rows.len() - 1);
    s.on_inbox(InboxUpdate {
        rows: vec![row(
            99,
            Kind::Draft,
            "draft waiting for you to accept or reject",
            None,
        )],
        unread: [tid(99)].into_iter().collect(),
        walked_at: Some(jiff::Timestamp::now().as_second()),
        ..Default::default()
    });
    let after: Vec<String> = s
        .list
        .items
        .iter()
        .filter_map(|i| i.id().map(|id| id.to_string()))
        .collect();
    assert_eq!(after, rows);
    assert_eq!(s.list.selected, at);
    s.on_key(key('g'));
    assert_eq!(s.list.selected, 0);
    assert_eq!(
        s.list.selected_id().map(|i| i.to_string()),
        Some(rows[0].clone())
    );
}

/// `d` then `u` on another profile's row, and that profile found to be
/// the same inbox as the current one before the read's answer came: the
/// answer still brings the item back (it was dropped with the profile's
/// other news).
#[test]
fn u_asked_before_the_answer_of_a_profile_since_shown_as_another_still_goes_back() {
    let mut s = with_other_profile();
    s.on_key(key('i'));
    s.on_key(key('j'));
    s.on_key(key('j'));
    s.on_key(key('d'));
    s.on_key(key('u'));
    let path = |p: &str| Some(std::path::PathBuf::from(p));
    s.on_inbox(InboxUpdate {
        store: path("/stores/alice.sqlite3"),
        ..Default::default()
    });
    s.on_profile_inbox(
        "work".into(),
        InboxUpdate {
            store: path("/stores/alice.sqlite3"),
            ..Default::default()
        },
    );
    assert!(s.inbox.others.iter().any(|o| o.same_as.is_some()));
    let fx = s.on_profile_inbox(
        "work".into(),
        InboxUpdate {
            read: Some(("t-work-7".into(), vec!["k1".into()])),
            ..Default::default()
        },
    );
    assert_eq!(
        fx,
        [Effect::ProfileInbox(
            "work".into(),
            InboxCmd::Unread("t-work-7".into(), vec!["k1".into()])
        )]
    );
}
