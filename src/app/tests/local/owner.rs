//! An edit is sent only as the user who made it (issue 32, point 4), at
//! the reducer: the user an edit records, `/me` asked again after the
//! service was away, and a check answered after `/me` named someone else.

use super::*;
use crate::app::local::outbox::OutState;
use crate::app::tests::local::store::{go_offline, unreachable, with_store};

fn named(id: &str) -> Identity {
    Identity {
        user_id: id.into(),
        ..Default::default()
    }
}

fn probe(s: &mut State, who: &str) -> Vec<Effect> {
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    answer(s, &probe, Ok(Reply::Me(named(who))))
}

#[test]
fn an_edit_made_before_the_service_answers_is_the_open_stores_users() {
    let mut s = with_store(loaded(2));
    s.me = None;
    s.local.user = Some("u-alice".into());
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    assert_eq!(s.outbox.len(), 1);
    assert_eq!(s.outbox[0].user_id.as_deref(), Some("u-alice"));
}

#[test]
fn after_an_outage_the_service_naming_another_user_sends_nothing() {
    let mut s = with_store(loaded(2));
    s.local.user = Some("u-me".into());
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let fx = probe(&mut s, "u-bob");
    assert!(
        !reqs(&fx)
            .iter()
            .any(|r| matches!(r, ApiRequest::Patch { .. })),
        "nothing of u-me's is sent with u-bob's key: {:?}",
        reqs(&fx)
    );
    assert!(
        s.outbox.iter().all(|i| i.state == OutState::Queued),
        "not even checked: {:?}",
        s.outbox.iter().map(|i| &i.state).collect::<Vec<_>>()
    );
}

#[test]
fn a_check_answered_after_me_named_someone_else_sends_nothing() {
    let mut s = with_store(loaded(2));
    s.local.user = Some("u-me".into());
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    // Back, as u-me: the task is read before sending.
    let check = probe(&mut s, "u-me");
    assert!(reqs(&check)
        .iter()
        .any(|r| matches!(r, ApiRequest::GetTask { .. })));
    // Meanwhile the service names u-bob for this key.
    let me = vec![s.request(ApiRequest::Me)];
    answer(&mut s, &me, Ok(Reply::Me(named("u-bob"))));
    let fx = answer_where(
        &mut s,
        &check,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(task(1)))),
    );
    assert!(
        !reqs(&fx)
            .iter()
            .any(|r| matches!(r, ApiRequest::Patch { .. })),
        "never sent as u-bob: {:?}",
        reqs(&fx)
    );
    assert!(!s
        .outbox
        .iter()
        .any(|i| matches!(i.state, OutState::Sending(_))));
}

/// Issue 42, point 11: a store opened read-only said edits made offline
/// are NOT KEPT; going offline and queueing an edit say the same, never
/// "edits are queued" as if kept.
#[test]
fn a_read_only_store_never_says_edits_are_kept() {
    let mut s = with_store(loaded(2));
    s.local.read_only = Some("permission denied".into());
    go_offline(&mut s);
    let said = s.status.as_ref().map(|x| x.1.clone()).unwrap_or_default();
    assert!(
        said.contains("NOT KEPT (the local store is read-only)"),
        "{said}"
    );
    assert!(!said.contains("edits are queued;"), "{said}");
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    assert_eq!(s.outbox.len(), 1);
    let said = s.status.as_ref().map(|x| x.1.clone()).unwrap_or_default();
    assert!(
        said.contains("NOT KEPT (the local store is read-only)"),
        "{said}"
    );
    assert!(
        matches!(&s.outbox[0].kept, crate::app::local::outbox::Kept::Not(w) if w.contains("read-only")),
        "{:?}",
        s.outbox[0].kept
    );
}

/// The review of the adversarial pass: an edit still in flight when
/// taskdeck ends is kept in the outbox for the next start — but only for
/// the user it was made as. Made as Alice, then the key named Bob (his
/// store now open): quitting keeps nothing in Bob's outbox and names the
/// edit as in flight, its outcome unknown.
#[test]
fn an_edit_in_flight_at_quit_is_kept_only_for_the_user_who_made_it() {
    let edit = |s: &mut State| {
        let mut writes = crate::app::WritesInFlight::default();
        let fx = palette(s, "priority low");
        for e in &fx {
            if let Effect::Api { ticket, req } = e {
                writes.started(*ticket, req, s);
            }
        }
        writes
    };
    // The same user at quit: kept, for the next start.
    let mut s = with_store(loaded(2));
    s.me = Some(named("u-alice"));
    s.local.user = Some("u-alice".into());
    let writes = edit(&mut s);
    s.keep_writes_in_flight(&writes);
    assert_eq!(s.outbox.len(), 1, "kept for Alice's next start");
    assert_eq!(s.outbox[0].user_id.as_deref(), Some("u-alice"));
    assert!(s.outbox[0].left_in_flight);

    // The key now acts as Bob, his store open: nothing of Alice's is kept
    // in it, and quitting says the edit's outcome is unknown.
    let mut s = with_store(loaded(2));
    s.me = Some(named("u-alice"));
    s.local.user = Some("u-alice".into());
    let writes = edit(&mut s);
    s.me = Some(named("u-bob"));
    s.local.user = Some("u-bob".into());
    s.keep_writes_in_flight(&writes);
    assert!(
        s.outbox.is_empty(),
        "Alice's edit kept to be sent as Bob: {:?}",
        s.outbox.iter().map(|i| &i.user_id).collect::<Vec<_>>()
    );
    let lines = crate::app::quit_lines(&s, &writes, None);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("still in flight") && l.contains("priority")),
        "{lines:?}"
    );
}

/// Quit's words (the review): an edit that never went out — it waited
/// for an earlier write of its task when the session ended (a quit, a
/// signal, `:profile`), and the worker stopped it — is not "outcome
/// unknown": it is kept in its user's outbox as a plain queued edit, said
/// "not sent, kept … (sent at the next start)"; only the write whose
/// request went out is in doubt.
#[test]
fn an_edit_never_sent_at_quit_is_kept_as_queued_and_not_called_unknown() {
    let mut s = with_store(loaded(2));
    s.me = Some(named("u-alice"));
    s.local.user = Some("u-alice".into());
    let mut writes = crate::app::WritesInFlight::default();
    let mut tickets = Vec::new();
    for cmd in ["priority low", "priority high"] {
        for e in &palette(&mut s, cmd) {
            if let Effect::Api { ticket, req } = e {
                writes.started(*ticket, req, &s);
                tickets.push(*ticket);
            }
        }
    }
    assert_eq!(tickets.len(), 2);
    // The first went out; the second waited for its answer.
    writes.never_sent(&tickets[1..]);
    s.keep_writes_in_flight(&writes);
    assert_eq!(s.outbox.len(), 2, "both kept for Alice's next start");
    let first = s
        .outbox
        .iter()
        .find(|i| i.pending_ticket == Some(tickets[0]));
    let second = s
        .outbox
        .iter()
        .find(|i| i.pending_ticket == Some(tickets[1]));
    let (first, second) = (first.unwrap(), second.unwrap());
    assert!(
        first.left_in_flight && first.unknown,
        "the one sent is in doubt"
    );
    assert!(
        !second.left_in_flight && !second.unknown,
        "the one never sent is not in doubt"
    );
    assert_eq!(second.user_id.as_deref(), Some("u-alice"));
    for i in s.outbox.iter_mut() {
        i.kept = crate::app::local::outbox::Kept::Kept;
    }
    let lines = crate::app::quit_lines(&s, &writes, None);
    let all = lines.join("\n");
    let unknown: Vec<&String> = lines.iter().filter(|l| l.contains("unknown")).collect();
    assert_eq!(unknown.len(), 1, "{all}");
    assert!(
        unknown[0].contains("priority → low") && !unknown[0].contains("priority → high"),
        "{all}"
    );
    assert!(
        lines.iter().any(|l| l.contains("not sent")
            && l.contains("kept in the local store (sent at the next start)")
            && l.contains("priority → high")),
        "{all}"
    );
    assert!(writes.lost(&s).is_empty());
}

/// Never sent and nothing to keep it (no store): said plainly, NOT sent
/// and NOT KEPT, and counted as lost (the exit status says so), never
/// "outcome unknown".
#[test]
fn an_edit_never_sent_without_a_store_is_said_lost_not_unknown() {
    let mut s = loaded(2);
    s.me = Some(named("u-alice"));
    let mut writes = crate::app::WritesInFlight::default();
    let mut tickets = Vec::new();
    for e in &palette(&mut s, "priority low") {
        if let Effect::Api { ticket, req } = e {
            writes.started(*ticket, req, &s);
            tickets.push(*ticket);
        }
    }
    writes.never_sent(&tickets);
    s.keep_writes_in_flight(&writes);
    let lines = crate::app::quit_lines(&s, &writes, None);
    let all = lines.join("\n");
    assert!(!all.contains("unknown"), "{all}");
    assert!(
        all.contains("NOT sent and NOT KEPT") && all.contains("priority → low"),
        "{all}"
    );
    assert_eq!(writes.lost(&s).len(), 1);
}

/// Simulator seed 515215864 (step 435, shrunk to 15 steps,
/// `tests/simulate/identity-unconfirmed-after-an-outage.steps`): away,
/// the key was reissued to another user; the first `GET /me` after the
/// outage answered 503, which brought taskdeck back online with who the
/// key acts as still unasked, and `:assign me` went out at once — as the
/// other user. Until `/me` answers, taskdeck stays offline: the edit made
/// meanwhile is queued and sent only once `/me` names its user.
#[test]
fn until_me_answers_after_an_outage_an_edit_waits_in_the_outbox() {
    let mut s = with_store(loaded(2));
    s.local.user = Some("u-me".into());
    go_offline(&mut s);
    // The probe: the service answers, but with a 503.
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    answer(
        &mut s,
        &probe,
        Err(ApiError::Status {
            status: 503,
            message: "the service failed".into(),
        }),
    );
    assert!(
        s.offline.is_some(),
        "still offline: who the key acts as is not known"
    );
    // A read sent before the outage answers: still offline, `/me` asked now.
    let read = vec![s.request(ApiRequest::GetTask { id: tid(1) })];
    let fx = answer(&mut s, &read, Ok(Reply::Task(Box::new(task(1)))));
    assert!(s.offline.is_some());
    assert!(
        reqs(&fx).iter().any(|r| matches!(r, ApiRequest::Me)),
        "{:?}",
        reqs(&fx)
    );
    // The edit made meanwhile: the worker answers it at once, offline.
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    assert_eq!(s.outbox.len(), 1, "queued, not sent");
    // `/me` names the user: back online, the edit checked then sent.
    let asked = fx_me(&s);
    assert_eq!(asked.len(), 1, "one `/me` in flight");
    let me = answer_where(
        &mut s,
        &asked,
        |r| matches!(r, ApiRequest::Me),
        Ok(Reply::Me(named("u-me"))),
    );
    assert!(s.offline.is_none());
    assert!(
        reqs(&me)
            .iter()
            .any(|r| matches!(r, ApiRequest::GetTask { .. })),
        "the queued edit goes on: {:?}",
        reqs(&me)
    );
}

/// The `GET /me` in flight, as an effect to answer.
fn fx_me(s: &State) -> Vec<Effect> {
    s.inflight
        .iter()
        .filter(|(_, (what, _))| *what == ApiRequest::Me.describe())
        .map(|(t, _)| Effect::Api {
            ticket: *t,
            req: Box::new(ApiRequest::Me),
        })
        .collect()
}
