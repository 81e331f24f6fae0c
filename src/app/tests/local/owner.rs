//! An edit is sent only as the user who made it (issue 32, point 4), at
//! the reducer: the user an edit records, `/me` asked again after the
//! service was away, and a check answered after `/me` named someone else.

use super::*;
use crate::app::local::outbox::OutState;
use crate::app::tests::local::store::{unreachable, with_store};

fn named(id: &str) -> Identity {
    Identity {
        user_id: id.into(),
        ..Default::default()
    }
}

fn go_offline(s: &mut State) {
    let fx = s.refresh();
    answer_where(
        s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Err(unreachable()),
    );
    assert!(s.offline.is_some());
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
