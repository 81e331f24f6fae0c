//! A chain of quick edits of one task cut by a quit (a user met it: two
//! quick `:priority` edits, the terminal lost mid-send, taskdeck started
//! again): the kept second edit showed as a conflict with the user's OWN
//! first edit ("#1 changed on the service since this edit was made:
//! priority → low waits for you"). The second was made against the
//! version before the first (it was made before the first's answer), and
//! was never moved onto the first's answer. Now it is, in memory and in
//! the store, so only someone else's change holds it after a restart —
//! judged against the task as the user saw it when making the edits (kept
//! with each in the store), never the copy a refresh stored since.
//!
//! Every test plays one scene (`quit`: the two edits, cut by a quit) on
//! the product's own store (`OnDisk`), then a restart (`restart`).

use super::*;
use crate::app::local::outbox::OutState;
use crate::app::tests::local::store::{with_store, OnDisk};
use crate::store::worker::StoreCmd;
use crate::store::OutboxRow;

const T1: &str = "2026-11-02T10:00:01Z";
const T2: &str = "2026-11-02T10:05:00Z";

/// The service's task 1 at `at` with `priority`.
fn at(at: &str, priority: Priority) -> Task {
    let mut t = task(1);
    t.priority = priority;
    t.updated_at = Some(at.into());
    t
}

fn is_get(r: &ApiRequest) -> bool {
    matches!(r, ApiRequest::GetTask { id } if *id == tid(1))
}

fn patch_sent(fx: &[Effect]) -> Option<Value> {
    reqs(fx).into_iter().find_map(|r| match r {
        ApiRequest::Patch { patch, .. } => Some(patch.to_json()),
        _ => None,
    })
}

/// `:priority urgent` then `:priority low` on task 1, the second made
/// before the first is answered (chained behind it by the worker); the
/// writes as the loop tracks them, and their tickets.
fn two_quick_edits(s: &mut State) -> (crate::app::WritesInFlight, Vec<(u64, ApiRequest)>) {
    let mut writes = crate::app::WritesInFlight::default();
    let mut sent = Vec::new();
    for cmd in ["priority urgent", "priority low"] {
        for e in palette(s, cmd) {
            if let Effect::Api { ticket, req } = e {
                writes.started(ticket, &req, s);
                sent.push((ticket, *req));
            }
        }
    }
    assert_eq!(sent.len(), 2, "{sent:?}");
    (writes, sent)
}

/// How the quit cut the two quick edits.
#[derive(Clone, Copy)]
enum Cut {
    /// The first answered (with `T1`), the second still out.
    FirstAnswered,
    /// The first still out, the second never sent.
    FirstOut,
}

/// The scene: the two quick edits on task 1, `meanwhile` (what arrives
/// before the quit), the quit cutting them as `cut` says; what the store
/// (on disk, served as its thread serves it) holds at the next start.
fn quit(cut: Cut, meanwhile: impl FnOnce(&mut State)) -> Vec<OutboxRow> {
    let mut disk = OnDisk::open();
    let mut s = with_store(loaded(2));
    let (mut writes, sent) = two_quick_edits(&mut s);
    match cut {
        Cut::FirstAnswered => {
            s.on_api(ApiResult {
                ticket: sent[0].0,
                req: sent[0].1.clone(),
                result: Ok(Reply::Task(Box::new(at(T1, Priority::Urgent)))),
            });
            writes.answered(sent[0].0);
        }
        Cut::FirstOut => writes.never_sent(&[sent[1].0]),
    }
    meanwhile(&mut s);
    s.keep_writes_in_flight(&writes);
    disk.serve(&mut s);
    disk.reopen()
}

/// The next start: the store's outbox read back, the first check asked;
/// the store's copies of the tasks are `stored` (as last refreshed).
fn restart_with(rows: Vec<OutboxRow>, stored: Vec<Task>) -> (State, Vec<Effect>) {
    let mut s = with_store(loaded_with_tasks(&Settings::default(), stored));
    s.outbox_from_store(rows);
    let fx = s.outbox_pump();
    assert!(reqs(&fx).iter().any(is_get), "{:?}", reqs(&fx));
    (s, fx)
}

/// [`restart_with`] the tasks as first loaded.
fn restart(rows: Vec<OutboxRow>) -> (State, Vec<Effect>) {
    restart_with(rows, (1..=2).map(task).collect())
}

/// The check in `fx` finds the service holding our first edit (`T1`) and
/// nothing else: the chained edit goes out, no conflict.
fn goes_out(s: &mut State, fx: &[Effect]) {
    let fx = answer_where(
        s,
        fx,
        is_get,
        Ok(Reply::Task(Box::new(at(T1, Priority::Urgent)))),
    );
    assert_eq!(
        patch_sent(&fx),
        Some(json!({"priority": "low"})),
        "{:?} {:?}",
        s.outbox.iter().map(|i| &i.state).collect::<Vec<_>>(),
        s.status
    );
}

/// The first edit answered, the second still out when the terminal is
/// lost: kept with the first's answer as its base, so the next start
/// sends it (the service holds our own first edit, nothing else).
#[test]
fn a_chained_edit_in_flight_at_quit_is_checked_against_the_answer_to_the_edit_before_it() {
    let rows = quit(Cut::FirstAnswered, |_| {});
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        rows[0].base_updated_at.as_deref(),
        Some(T1),
        "the chained edit is made against our first edit's answer"
    );

    // The next start: the service holds our first edit (the second did
    // not arrive): the second goes out, no conflict.
    let (mut s, fx) = restart(rows);
    goes_out(&mut s, &fx);
}

/// The first edit still out, the second waiting behind it (never sent)
/// when the terminal is lost: both kept, made against the version before
/// the first. The next start finds the first arrived (its fields hold,
/// nothing else moved): the second is moved onto that version, in the
/// store too (a crash now keeps the chain), and goes out.
#[test]
fn a_chained_edit_never_sent_at_quit_follows_the_first_once_found_arrived_after_a_restart() {
    let rows = quit(Cut::FirstOut, |_| {});
    assert_eq!(rows.len(), 2, "{rows:?}");
    let second = rows[1].seq;

    let (mut s, fx) = restart(rows);
    // The first had arrived: the service holds it, and nothing else.
    let fx = answer_where(
        &mut s,
        &fx,
        is_get,
        Ok(Reply::Task(Box::new(at(T1, Priority::Urgent)))),
    );
    assert_eq!(s.outbox.len(), 1, "the first is not sent again");
    assert!(
        s.local.out.iter().any(|c| matches!(c,
            StoreCmd::OutboxRebase { seq, base: Some(b) } if *seq == second && b == T1)),
        "the store keeps the second's new base: {:?}",
        s.local.out
    );
    // The second's check.
    assert!(reqs(&fx).iter().any(is_get), "{:?}", reqs(&fx));
    goes_out(&mut s, &fx);
}

/// The chained edit was not sent: it waits for the user, the task having
/// changed on the service (someone else's change).
fn waits(s: &State, fx: &[Effect]) {
    assert_eq!(patch_sent(fx), None, "sent over someone else's change");
    assert_eq!(s.outbox.len(), 1);
    match &s.outbox[0].state {
        OutState::Waiting(why) => assert!(why.contains("changed on the service"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// Someone else changed the task after our first edit: the chained edit
/// still waits for the user after a restart — in both courses (the first
/// answered before the quit, or found arrived after it).
#[test]
fn someone_elses_change_after_the_first_edit_still_holds_the_chained_one() {
    // Answered before the quit; then someone else set the priority.
    let (mut s, fx) = restart(quit(Cut::FirstAnswered, |_| {}));
    let fx = answer_where(
        &mut s,
        &fx,
        is_get,
        Ok(Reply::Task(Box::new(at(T2, Priority::Medium)))),
    );
    waits(&s, &fx);

    // Found arrived after the restart, but someone else changed another
    // field as well: not only our first edit moved it.
    let (mut s, fx) = restart(quit(Cut::FirstOut, |_| {}));
    let mut theirs = at(T2, Priority::Urgent);
    theirs.status = Status::WaitingOnExternal;
    let fx = answer_where(
        &mut s,
        &fx,
        is_get,
        Ok(Reply::Task(Box::new(theirs.clone()))),
    );
    assert_eq!(s.outbox.len(), 1, "the first had arrived: not sent again");
    let fx = answer_where(&mut s, &fx, is_get, Ok(Reply::Task(Box::new(theirs))));
    waits(&s, &fx);
}

/// Someone else's change arrived in a refresh between the edits and the
/// quit (the first still out): the store's copy at the restart already
/// holds it. Compared with that copy, only our first edit's field moved
/// and the chained edit went out over the change unseen; compared with
/// the task as the user saw it when making the edits (kept with them),
/// it waits for the user.
#[test]
fn someone_elses_change_seen_in_a_refresh_before_the_quit_still_holds_the_chained_edit() {
    // Theirs: the status, at T1; then our first edit lands (T2).
    let mut theirs = task(1);
    theirs.status = Status::WaitingOnExternal;
    theirs.updated_at = Some(T1.into());
    let refreshed = theirs.clone();
    let rows = quit(Cut::FirstOut, move |s| {
        let fx = s.refresh();
        answer_where(
            s,
            &fx,
            |r| matches!(r, ApiRequest::ListPage { .. }),
            Ok(Reply::Page(TaskPage {
                items: vec![
                    TaskItem::Task(Box::new(refreshed)),
                    TaskItem::Task(Box::new(task(2))),
                ],
                cursor: None,
            })),
        );
        assert_eq!(
            s.known_copy(&tid(1)).map(|t| t.status.clone()),
            Some(Status::WaitingOnExternal),
            "the refresh brought their change"
        );
    });
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(
        rows.iter().all(|r| r.saw.is_some()),
        "what the user saw is kept with each edit"
    );
    let (mut s, fx) = restart_with(rows, vec![theirs.clone(), task(2)]);
    let mut now = theirs;
    now.priority = Priority::Urgent;
    now.updated_at = Some(T2.into());
    let fx = answer_where(&mut s, &fx, is_get, Ok(Reply::Task(Box::new(now.clone()))));
    assert_eq!(s.outbox.len(), 1, "the first had arrived: not sent again");
    let fx = answer_where(&mut s, &fx, is_get, Ok(Reply::Task(Box::new(now))));
    waits(&s, &fx);
}
