//! A chain of quick edits of one task cut by a quit (a user met it: two
//! quick `:priority` edits, the terminal lost mid-send, taskdeck started
//! again): the kept second edit showed as a conflict with the user's OWN
//! first edit ("#1 changed on the service since this edit was made:
//! priority → low waits for you"). The second was made against the
//! version before the first (it was made before the first's answer), and
//! was never moved onto the first's answer. Now it is, in memory and in
//! the store, so only someone else's change holds it after a restart.

use super::*;
use crate::app::local::outbox::OutState;
use crate::app::tests::local::store::with_store;
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

/// What the store holds of the outbox after the quit: its adds, with the
/// rebases applied (as `Db::outbox_rebase` does).
fn stored_rows(s: &State) -> Vec<OutboxRow> {
    let mut rows: Vec<OutboxRow> = Vec::new();
    for c in &s.local.out {
        match c {
            StoreCmd::OutboxAdd {
                seq,
                task_id,
                label,
                what,
                request,
                base_updated_at,
                created_at,
                ..
            } => rows.push(OutboxRow {
                seq: *seq,
                task_id: task_id.clone(),
                label: label.clone(),
                what: what.clone(),
                request: request.clone(),
                base_updated_at: base_updated_at.clone(),
                created_at: *created_at,
                user_id: Some("u-me".into()),
            }),
            StoreCmd::OutboxRebase { seq, base } => {
                for r in rows.iter_mut().filter(|r| r.seq == *seq) {
                    r.base_updated_at = base.clone();
                }
            }
            StoreCmd::OutboxRemove(seq) => rows.retain(|r| r.seq != *seq),
            _ => {}
        }
    }
    rows
}

/// The next start: the store's outbox read back, the first check asked.
fn restart(rows: Vec<OutboxRow>) -> (State, Vec<Effect>) {
    let mut s = with_store(loaded(2));
    s.outbox_from_store(rows);
    let fx = s.outbox_pump();
    assert!(reqs(&fx).iter().any(is_get), "{:?}", reqs(&fx));
    (s, fx)
}

/// The first edit answered, the second still out when the terminal is
/// lost: kept with the first's answer as its base, so the next start
/// sends it (the service holds our own first edit, nothing else).
#[test]
fn a_chained_edit_in_flight_at_quit_is_checked_against_the_answer_to_the_edit_before_it() {
    let mut s = with_store(loaded(2));
    let (mut writes, sent) = two_quick_edits(&mut s);
    let (first, _) = &sent[0];
    s.on_api(ApiResult {
        ticket: *first,
        req: sent[0].1.clone(),
        result: Ok(Reply::Task(Box::new(at(T1, Priority::Urgent)))),
    });
    writes.answered(*first);
    s.keep_writes_in_flight(&writes);
    let rows = stored_rows(&s);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        rows[0].base_updated_at.as_deref(),
        Some(T1),
        "the chained edit is made against our first edit's answer"
    );

    // The next start: the service holds our first edit (the second did
    // not arrive): the second goes out, no conflict.
    let (mut s, fx) = restart(rows);
    let fx = answer_where(
        &mut s,
        &fx,
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

/// The first edit still out, the second waiting behind it (never sent)
/// when the terminal is lost: both kept, made against the version before
/// the first. The next start finds the first arrived (its fields hold,
/// nothing else moved): the second is moved onto that version, in the
/// store too (a crash now keeps the chain), and goes out.
#[test]
fn a_chained_edit_never_sent_at_quit_follows_the_first_once_found_arrived_after_a_restart() {
    let mut s = with_store(loaded(2));
    let (mut writes, sent) = two_quick_edits(&mut s);
    writes.never_sent(&[sent[1].0]);
    s.keep_writes_in_flight(&writes);
    let rows = stored_rows(&s);
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
    let fx = answer_where(
        &mut s,
        &fx,
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

/// Someone else changed the task after our first edit: the chained edit
/// still waits for the user after a restart — in both courses (the first
/// answered before the quit, or found arrived after it).
#[test]
fn someone_elses_change_after_the_first_edit_still_holds_the_chained_one() {
    let waits = |s: &State, fx: &[Effect]| {
        assert_eq!(patch_sent(fx), None, "sent over someone else's change");
        assert_eq!(s.outbox.len(), 1);
        match &s.outbox[0].state {
            OutState::Waiting(why) => assert!(why.contains("changed on the service"), "{why}"),
            other => panic!("{other:?}"),
        }
    };

    // Answered before the quit; then someone else set the priority.
    let mut s = with_store(loaded(2));
    let (mut writes, sent) = two_quick_edits(&mut s);
    s.on_api(ApiResult {
        ticket: sent[0].0,
        req: sent[0].1.clone(),
        result: Ok(Reply::Task(Box::new(at(T1, Priority::Urgent)))),
    });
    writes.answered(sent[0].0);
    s.keep_writes_in_flight(&writes);
    let (mut s, fx) = restart(stored_rows(&s));
    let fx = answer_where(
        &mut s,
        &fx,
        is_get,
        Ok(Reply::Task(Box::new(at(T2, Priority::Medium)))),
    );
    waits(&s, &fx);

    // Found arrived after the restart, but someone else changed another
    // field as well: not only our first edit moved it.
    let mut s = with_store(loaded(2));
    let (mut writes, sent) = two_quick_edits(&mut s);
    writes.never_sent(&[sent[1].0]);
    s.keep_writes_in_flight(&writes);
    let (mut s, fx) = restart(stored_rows(&s));
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
