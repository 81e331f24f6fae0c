//! An edit of a task whose older edits wait in the outbox joins them
//! (`State::send_or_hold`, the loop's last look before a request goes
//! out): a task's edits reach the service in the order they were made
//! (simulator seed 1245223388597411134: an archive sent past a restore
//! that waited in the outbox, the restore then sent over it).

use super::*;
use crate::app::local::outbox::OutState;
use crate::app::tests::bulk::{mark_rows, n_of, patched};
use crate::app::tests::local::store::{back_online, go_offline, is_get, unreachable, with_store};

/// What the loop does with `fx` before anything goes out: a write that
/// joins the outbox is not sent, and what it asks for instead follows.
fn go_out(s: &mut State, fx: Vec<Effect>) -> Vec<Effect> {
    let mut out = Vec::new();
    let mut queue: std::collections::VecDeque<Effect> = fx.into();
    while let Some(e) = queue.pop_front() {
        if let Effect::Api { ticket, req } = &e {
            if let Some(more) = s.send_or_hold(*ticket, req) {
                queue.extend(more);
                continue;
            }
        }
        out.push(e);
    }
    out
}

fn patches(fx: &[Effect]) -> Vec<(String, Value)> {
    reqs(fx)
        .into_iter()
        .filter_map(|r| match r {
            ApiRequest::Patch { id, patch } => Some((id, patch.to_json())),
            _ => None,
        })
        .collect()
}

/// Task 1's `priority low` queued offline; the service back, its check
/// (a read of task 1) on the way: the effects holding that read.
fn one_queued_and_checking(s: &mut State) -> Vec<Effect> {
    go_offline(s);
    let fx = palette(s, "priority low");
    answer(s, &fx, Err(unreachable()));
    assert_eq!(s.outbox.len(), 1);
    let fx = back_online(s);
    assert!(reqs(&fx).iter().any(|r| is_get(r, 1)), "{:?}", reqs(&fx));
    fx
}

#[test]
fn an_edit_made_while_an_older_edit_of_its_task_waits_in_the_outbox_goes_out_after_it() {
    let mut s = with_store(loaded(2));
    let check = one_queued_and_checking(&mut s);
    // The user archives task 1 while its queued edit is being checked.
    let fx = palette(&mut s, "archive");
    assert_eq!(patches(&fx), vec![(tid(1), json!({"archived": true}))]);
    let in_flight = s.inflight.len();
    let sent = go_out(&mut s, fx);
    assert!(
        patches(&sent).is_empty(),
        "not sent past the outbox: {:?}",
        reqs(&sent)
    );
    assert_eq!(s.outbox.len(), 2);
    assert_eq!(s.outbox[1].what, "archived");
    assert_eq!(s.outbox[1].state, OutState::Queued);
    assert!(!s.outbox[1].unknown, "it never went out");
    let said = &s.status.as_ref().unwrap().1;
    assert!(
        said.contains("archived queued behind an older edit of it in the outbox; sent after them"),
        "{said}"
    );
    // Its pending mark stays until it is sent; nothing of it is in flight.
    assert!(s.pending_for(&tid(1), "archived").is_some());
    assert_eq!(
        s.inflight.len(),
        in_flight - 1,
        "{:?}",
        s.inflight.values().collect::<Vec<_>>()
    );
    // The outbox goes on in order: the priority, then the archive, each
    // checked against our previous answer (no conflict with our own).
    let mut service = task(1);
    let mut fx = check;
    let mut bodies = Vec::new();
    for at in ["2026-11-02T10:00:01Z", "2026-11-02T10:00:02Z"] {
        fx = go_out(&mut s, fx);
        fx = answer_where(
            &mut s,
            &fx,
            |r| is_get(r, 1),
            Ok(Reply::Task(Box::new(service.clone()))),
        );
        let fx2 = go_out(&mut s, fx.clone());
        let p = patches(&fx2);
        assert_eq!(
            p.len(),
            1,
            "the outbox's own send goes out: {:?}",
            reqs(&fx)
        );
        bodies.push(p[0].1.clone());
        let mut v = serde_json::to_value(&service).unwrap();
        for (k, val) in p[0].1.as_object().unwrap() {
            v[k] = val.clone();
        }
        v["updated_at"] = json!(at);
        service = serde_json::from_value(v).unwrap();
        fx = answer_where(
            &mut s,
            &fx2,
            |r| matches!(r, ApiRequest::Patch { .. }),
            Ok(Reply::Task(Box::new(service.clone()))),
        );
    }
    assert_eq!(
        bodies,
        vec![json!({"priority": "low"}), json!({"archived": true})],
        "in the order made"
    );
    assert!(
        s.outbox.is_empty(),
        "{:?}",
        s.outbox.iter().map(|i| &i.state).collect::<Vec<_>>()
    );
    assert!(s.pending_for(&tid(1), "archived").is_none());
}

#[test]
fn an_edit_of_another_task_goes_out_at_once() {
    let mut s = with_store(loaded(2));
    one_queued_and_checking(&mut s);
    s.on_key(key('j'));
    let fx = palette(&mut s, "archive");
    let sent = go_out(&mut s, fx);
    assert_eq!(patches(&sent), vec![(tid(2), json!({"archived": true}))]);
    assert_eq!(s.outbox.len(), 1);
}

#[test]
fn an_edit_behind_one_waiting_for_the_user_says_so_and_waits_with_it() {
    let mut s = with_store(loaded(2));
    let check = one_queued_and_checking(&mut s);
    // Someone else changed task 1: the queued edit waits for the user.
    let mut theirs = task(1);
    theirs.updated_at = Some("2026-11-02T10:05:00Z".into());
    let fx = answer_where(
        &mut s,
        &check,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(theirs))),
    );
    assert!(matches!(s.outbox[0].state, OutState::Waiting(_)));
    assert!(patches(&fx).is_empty());
    let fx = palette(&mut s, "status completed");
    let sent = go_out(&mut s, fx);
    assert!(patches(&sent).is_empty(), "{:?}", reqs(&sent));
    let said = &s.status.as_ref().unwrap().1;
    assert!(
        said.contains("queued behind an older edit of it in the outbox, one waiting for you"),
        "{said}"
    );
    assert_eq!(s.outbox.len(), 2);
}

#[test]
fn an_edit_of_many_tasks_leaves_the_one_whose_older_edit_waits_in_the_outbox_and_says_so() {
    let mut s = with_store(loaded(3));
    let check = one_queued_and_checking(&mut s);
    let mut theirs = task(1);
    theirs.updated_at = Some("2026-11-02T10:05:00Z".into());
    answer_where(
        &mut s,
        &check,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(theirs))),
    );
    mark_rows(&mut s, 3);
    palette(&mut s, "status completed");
    let fx = s.on_key(key('y'));
    let mut queue: std::collections::VecDeque<Effect> = go_out(&mut s, fx).into();
    let mut sent = Vec::new();
    while let Some(e) = queue.pop_front() {
        if let Effect::Api { ticket, req } = e {
            sent.push((*req).clone());
            let result = patched(&req, |id| task(n_of(id)));
            let more = s.on_api(ApiResult {
                ticket,
                req: *req,
                result,
            });
            queue.extend(go_out(&mut s, more));
        }
    }
    let ids: Vec<String> = sent
        .iter()
        .filter_map(|r| match r {
            ApiRequest::Patch { id, .. } => Some(id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        ids,
        vec![tid(2), tid(3)],
        "task 1's edit joins its older one"
    );
    assert_eq!(s.outbox.len(), 2);
    assert_eq!(s.outbox[1].task_id, tid(1));
    let said = &s.status.as_ref().unwrap().1;
    assert!(
        said.contains("2 done")
            && said.contains("1 queued behind older edits of theirs in the outbox; sent after them (:outbox) (#1)"),
        "{said}"
    );
}

/// An undo goes out at once even when an edit of its task waits in the
/// outbox, if that edit writes another field: it reads the task back
/// first and says what it found (an undo is never queued).
#[test]
fn an_undo_goes_out_though_an_edit_of_its_task_waits_in_the_outbox() {
    let mut s = with_store(loaded(2));
    let fx = palette(&mut s, "priority low");
    let mut low = task(1);
    low.priority = Priority::Low;
    low.updated_at = Some("2026-11-02T09:00:00Z".into());
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(low.clone()))));
    // Then, offline, a status edit: queued; back, it is being checked.
    go_offline(&mut s);
    let fx = palette(&mut s, "status completed");
    answer(&mut s, &fx, Err(unreachable()));
    let check = back_online(&mut s);
    assert!(reqs(&check).iter().any(|r| is_get(r, 1)));
    assert_eq!(s.outbox.len(), 1);
    // `z` takes the priority back: its read, then its PATCH, go out.
    let z = s.on_key(key('z'));
    let fx = go_out(&mut s, z);
    assert!(reqs(&fx).iter().any(|r| is_get(r, 1)), "{:?}", reqs(&fx));
    let fx = answer_where(
        &mut s,
        &fx,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(low))),
    );
    let sent = go_out(&mut s, fx);
    assert_eq!(
        patches(&sent),
        vec![(tid(1), json!({"priority": task(1).priority}))],
        "{:?}",
        reqs(&sent)
    );
    assert_eq!(s.outbox.len(), 1, "only the status edit waits");
}

/// An undo whose field a later edit of the same task writes, waiting in
/// the outbox, is refused, said: sent after the undo, that edit would
/// land over it (soak seed 10366710314734648864: an unassign undone, the
/// unassign made after it sent from the outbox over the undo).
#[test]
fn an_undo_waits_while_an_edit_of_the_same_field_waits_in_the_outbox() {
    let mut s = with_store(loaded(2));
    let fx = palette(&mut s, "priority low");
    let mut low = task(1);
    low.priority = Priority::Low;
    low.updated_at = Some("2026-11-02T09:00:00Z".into());
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(low))));
    go_offline(&mut s);
    let fx = palette(&mut s, "priority urgent");
    answer(&mut s, &fx, Err(unreachable()));
    back_online(&mut s);
    assert_eq!(s.outbox.len(), 1);
    let fx = s.on_key(key('z'));
    assert!(reqs(&fx).is_empty(), "{:?}", reqs(&fx));
    let said = &s.status.as_ref().unwrap().1;
    assert!(
        said.contains("#1: an edit of the same field waits in the outbox: undo once it is sent"),
        "{said}"
    );
}
