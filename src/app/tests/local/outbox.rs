//! The outbox: edits made while the service is unreachable are queued,
//! checked against the task and sent exactly once when it is back; they
//! wait for the user over a newer version, can be cancelled, and survive
//! the store. Comments never queue.

use super::*;
use crate::app::local::outbox::OutState;
use crate::app::tests::local::store::{go_offline, unreachable, with_store};
use crate::store::worker::StoreCmd;

#[test]
fn an_edit_made_offline_is_queued_then_sent_exactly_once_after_a_check() {
    let mut s = with_store(loaded(3));
    go_offline(&mut s);
    let fx = palette(&mut s, "status completed");
    // The worker answers "unreachable" at once while offline.
    let fx = answer(&mut s, &fx, Err(unreachable()));
    assert!(reqs(&fx).is_empty(), "nothing is sent while offline");
    assert_eq!(s.outbox.len(), 1);
    assert_eq!(s.outbox[0].what, "status → completed");
    assert!(s
        .local
        .out
        .iter()
        .any(|c| matches!(c, StoreCmd::OutboxAdd { .. })));
    assert!(
        s.pending_for(&tid(1), "status").is_some(),
        "the pending mark stays"
    );
    // Back: the task is read first, then the edit goes, once.
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let fx = answer(
        &mut s,
        &probe,
        Ok(Reply::Me(Identity {
            user_id: "u-me".into(),
            ..Default::default()
        })),
    );
    let check: Vec<&Effect> = fx
        .iter()
        .filter(|e| matches!(e, Effect::Api { req, .. } if matches!(**req, ApiRequest::GetTask { ref id } if *id == tid(1))))
        .collect();
    assert_eq!(check.len(), 1, "{:?}", reqs(&fx));
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { id } if *id == tid(1)),
        Ok(Reply::Task(Box::new(task(1)))),
    );
    let (id, body) = only_patch(&fx);
    assert_eq!((id, body), (tid(1), json!({"status": "completed"})));
    let mut done = task(1);
    done.status = Status::Completed;
    done.updated_at = Some("2026-11-02T10:00:00Z".into());
    let fx = answer(&mut s, &fx, Ok(Reply::Task(Box::new(done))));
    assert!(reqs(&fx).is_empty(), "sent once: {:?}", reqs(&fx));
    assert!(s.outbox.is_empty());
    assert!(s
        .local
        .out
        .iter()
        .any(|c| matches!(c, StoreCmd::OutboxRemove(_))));
    assert!(s
        .status
        .as_ref()
        .unwrap()
        .1
        .contains("sent from the outbox"));
}

#[test]
fn a_queued_edit_waits_for_the_user_when_the_task_changed_on_the_service() {
    let mut s = loaded(3);
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let fx = answer(&mut s, &probe, Ok(Reply::Me(same_user())));
    let mut changed = task(1);
    changed.updated_at = Some("2026-11-05T10:00:00Z".into());
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(changed))),
    );
    assert!(
        !reqs(&fx)
            .iter()
            .any(|r| matches!(r, ApiRequest::Patch { .. })),
        "not sent over a newer version"
    );
    assert!(matches!(s.outbox[0].state, OutState::Waiting(_)));
    // The user sends it anyway from :outbox: enter shows the field three
    // ways, and enter again sends it as it was (mine is kept by default).
    palette(&mut s, "outbox");
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(reqs(&fx).is_empty());
    assert!(matches!(s.overlay, Overlay::Conflict(_)));
    let fx = s.on_key(code(KeyCode::Enter));
    let (_, body) = only_patch(&fx);
    assert_eq!(body, json!({"priority": "low"}));
}

#[test]
fn a_queued_edit_goes_when_the_task_read_back_writes_the_same_version_otherwise() {
    let mut s = loaded(3);
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let fx = answer(&mut s, &probe, Ok(Reply::Me(same_user())));
    // The row said 2026-11-01T10:00:00Z; the task read alone says the same.
    let mut same = task(1);
    same.updated_at = Some("2026-11-01T10:00:00.000000+00:00".into());
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(same))),
    );
    let (_, body) = only_patch(&fx);
    assert_eq!(body, json!({"priority": "low"}));
}

/// A queued `:priority low` that meets the service's `urgent`.
fn conflicted() -> State {
    conflicted_with(|_| {})
}

/// [`conflicted`], the service's copy changed by `more` too.
fn conflicted_with(more: impl Fn(&mut Task)) -> State {
    let mut s = loaded(3);
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let fx = answer(&mut s, &probe, Ok(Reply::Me(same_user())));
    let mut changed = task(1);
    changed.priority = Priority::Urgent;
    changed.updated_at = Some("2026-11-05T10:00:00Z".into());
    more(&mut changed);
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(changed))),
    );
    s
}

/// Another instance changed more than the field edited here: the view
/// offers only the edited field as a conflict, and says which others
/// changed on the service meanwhile (kept as the service has them); with
/// nothing else changed it says nothing more.
#[test]
fn a_conflict_says_the_other_fields_the_service_changed_meanwhile() {
    let mut s = conflicted_with(|t| {
        t.status = Status::WaitingOnExternal;
        t.title = crate::text::Untrusted::new("Renamed elsewhere");
    });
    palette(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    let Overlay::Conflict(v) = &s.overlay else {
        panic!("three ways")
    };
    let fields: Vec<&str> = v.rows.iter().map(|r| r.field.as_str()).collect();
    assert_eq!(fields, ["priority"], "only the edited field is a conflict");
    let also: Vec<&String> = v
        .about
        .iter()
        .filter(|a| a.starts_with("also changed"))
        .collect();
    assert_eq!(
        also,
        [&"also changed on the service, not part of your edit (kept as the service has them): status, title".to_string()],
        "{:?}",
        v.about
    );
    // Sending what is kept still sends only the edited field.
    let fx = s.on_key(code(KeyCode::Enter));
    let (_, body) = only_patch(&fx);
    assert_eq!(body, json!({"priority": "low"}));

    let mut s = conflicted();
    palette(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    let Overlay::Conflict(v) = &s.overlay else {
        panic!("three ways")
    };
    assert!(v.about.is_empty(), "{:?}", v.about);
}

#[test]
fn a_conflict_shows_what_i_saw_what_i_wanted_and_what_the_service_has() {
    let mut s = conflicted();
    let three = &s.outbox[0].three;
    assert_eq!(three.len(), 1);
    let r = &three[0];
    assert_eq!(
        (
            r.field.as_str(),
            r.saw.as_str(),
            r.mine.as_str(),
            r.theirs.as_str()
        ),
        ("priority", "high", "low", "urgent")
    );
    assert!(s.status.as_ref().unwrap().1.contains("side by side"));
    // Taking theirs: nothing is sent and the edit leaves the outbox.
    palette(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    s.on_key(key('t'));
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(reqs(&fx).is_empty(), "{:?}", reqs(&fx));
    assert!(s.outbox.is_empty());
    assert!(s
        .status
        .as_ref()
        .unwrap()
        .1
        .contains("kept the service's values"));
}

#[test]
fn esc_in_a_conflict_goes_back_to_the_outbox_with_nothing_sent() {
    let mut s = conflicted();
    palette(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    s.on_key(key('t'));
    let fx = s.on_key(code(KeyCode::Esc));
    assert!(reqs(&fx).is_empty());
    assert!(matches!(s.overlay, Overlay::Chooser(_)));
    assert_eq!(s.outbox.len(), 1, "still waiting");
}

#[test]
fn a_queued_edit_can_be_cancelled_and_is_never_sent() {
    let mut s = with_store(loaded(3));
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let seq = s.outbox[0].seq;
    palette(&mut s, "outbox");
    assert!(matches!(s.overlay, Overlay::Chooser(_)));
    s.on_key(ctrl('x'));
    assert!(s.outbox.is_empty());
    assert!(s.pending.is_empty(), "the pending mark goes with it");
    // The store is told (a cancel, answered whatever the store's state:
    // `outbox_cancel.rs`).
    assert!(s.local.out.contains(&StoreCmd::OutboxCancel(seq)));
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let fx = answer(&mut s, &probe, Ok(Reply::Me(same_user())));
    assert!(!reqs(&fx)
        .iter()
        .any(|r| matches!(r, ApiRequest::Patch { .. })));
}

#[test]
fn a_patch_that_lost_its_connection_is_resent_only_if_it_did_not_arrive() {
    // Arrived: the read-back shows the value: not sent again.
    let mut s = loaded(2);
    let fx = palette(&mut s, "status completed");
    let fx = answer(
        &mut s,
        &fx,
        Err(ApiError::Network {
            message: "connection closed before message completed".into(),
        }),
    );
    let fx = confirm_me(&mut s, &fx);
    let mut landed = task(1);
    landed.status = Status::Completed;
    landed.updated_at = Some("2026-11-02T10:00:00Z".into());
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(landed))),
    );
    assert!(reqs(&fx).is_empty(), "{:?}", reqs(&fx));
    assert!(s.outbox.is_empty());
    assert!(s
        .status
        .as_ref()
        .unwrap()
        .1
        .contains("had reached the service"));
    // Did not arrive: the task is as before: sent once.
    let mut s = loaded(2);
    let fx = palette(&mut s, "status completed");
    let fx = answer(
        &mut s,
        &fx,
        Err(ApiError::Network {
            message: "connection closed before message completed".into(),
        }),
    );
    let fx = confirm_me(&mut s, &fx);
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(task(1)))),
    );
    assert_eq!(only_patch(&fx).1, json!({"status": "completed"}));
}

#[test]
fn comments_are_never_queued_they_stay_drafts() {
    let mut s = loaded(2);
    go_offline(&mut s);
    s.on_key(key('c'));
    type_str(&mut s, "offline words");
    let fx = s.on_key(ctrl('s'));
    answer(&mut s, &fx, Err(unreachable()));
    assert!(s.outbox.is_empty());
    match &s.overlay {
        Overlay::Compose(c) => {
            assert_eq!(c.text(), "offline words");
            assert!(matches!(c.state, SendState::Failed { .. }));
        }
        _ => panic!("the composer stays open with the text"),
    }
    // Back online: the composer offers to send.
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    answer(&mut s, &probe, Ok(Reply::Me(same_user())));
    match &s.overlay {
        Overlay::Compose(c) => assert!(c.note.as_deref().unwrap_or("").contains("back")),
        _ => panic!(),
    }
}

#[test]
fn stored_edits_come_back_from_the_store_and_are_checked_before_sending() {
    let mut s = loaded(2);
    let req = ApiRequest::Patch {
        id: tid(2),
        patch: TaskPatch {
            status: Some(Status::Completed),
            ..Default::default()
        },
    };
    let stored = crate::app::local::outbox::to_stored(&req).unwrap();
    assert_eq!(crate::app::local::outbox::from_stored(&stored), Some(req));
    s.outbox_from_store(vec![crate::store::OutboxRow {
        seq: 7,
        task_id: tid(2),
        label: "#2".into(),
        what: "status → completed".into(),
        request: stored,
        base_updated_at: Some("2026-11-01T10:00:00Z".into()),
        created_at: 1,
        user_id: None,
        saw: None,
    }]);
    let fx = s.outbox_pump();
    assert_eq!(reqs(&fx), vec![ApiRequest::GetTask { id: tid(2) }]);
}

#[test]
fn every_queueable_edit_survives_the_store_round_trip() {
    let edits = vec![
        ApiRequest::Patch {
            id: "t".into(),
            patch: TaskPatch {
                assigned_to: Field::Clear,
                complete_by: Field::Set("2026-12-01T17:00:00Z".into()),
                tags: Some(vec!["x".into()]),
                archived: Some(true),
                ..Default::default()
            },
        },
        ApiRequest::PutSharing {
            id: "t".into(),
            update: SharingUpdate {
                visibility: "private".into(),
                users: vec![ShareUser {
                    user_id: "u".into(),
                    access_level: "write".into(),
                }],
                teams: vec![],
            },
        },
        ApiRequest::UpdateLink {
            id: "t".into(),
            kind: LinkType::Review,
            item: "i".into(),
            update: LinkUpdate {
                role: Some(LinkRole::Subject),
                context: Some(Some(vec!["c1".into()])),
            },
        },
        ApiRequest::RemoveLink {
            id: "t".into(),
            kind: LinkType::Chat,
            item: "i".into(),
        },
        ApiRequest::Detach {
            id: "t".into(),
            file_id: "f".into(),
        },
    ];
    for e in edits {
        let s = crate::app::local::outbox::to_stored(&e).unwrap();
        assert_eq!(crate::app::local::outbox::from_stored(&s), Some(e));
    }
    assert!(
        crate::app::local::outbox::to_stored(&ApiRequest::AddComment {
            id: "t".into(),
            content: "x".into(),
            file_ids: vec![]
        })
        .is_none()
    );
}

#[test]
fn a_queued_edit_a_certificate_proxy_or_key_refusal_stops_is_kept_waiting_not_dropped() {
    for err in [
        ApiError::Tls {
            message: "svc.test: certificate not trusted".into(),
        },
        ApiError::Unauthorized {
            message: "bad key".into(),
        },
    ] {
        let mut s = with_store(loaded(3));
        go_offline(&mut s);
        let fx = palette(&mut s, "status completed");
        answer(&mut s, &fx, Err(unreachable()));
        let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
        let fx = answer(
            &mut s,
            &probe,
            Ok(Reply::Me(Identity {
                user_id: "u-me".into(),
                ..Default::default()
            })),
        );
        let fx = answer_where(
            &mut s,
            &fx,
            |r| matches!(r, ApiRequest::GetTask { id } if *id == tid(1)),
            Ok(Reply::Task(Box::new(task(1)))),
        );
        assert_eq!(only_patch(&fx).0, tid(1));
        s.local.out.clear();
        answer(&mut s, &fx, Err(err.clone()));
        assert_eq!(s.outbox.len(), 1, "{err:?}: the edit is kept");
        assert!(
            matches!(&s.outbox[0].state, OutState::Waiting(why) if why.contains("could not be sent")),
            "{:?}",
            s.outbox[0].state
        );
        assert!(
            !s.local
                .out
                .iter()
                .any(|c| matches!(c, StoreCmd::OutboxRemove(_))),
            "not removed from the store"
        );
    }
}

/// [`conflicted`] whose queued edit held two fields: the priority (the
/// service changed it: urgent) and the status.
fn two_field_conflict() -> State {
    let mut s = conflicted();
    let patch = TaskPatch {
        priority: Some(Priority::Low),
        status: Some(Status::Completed),
        ..Default::default()
    };
    let mut changed = task(1);
    changed.priority = Priority::Urgent;
    let three = s.three_way(&patch, Some(&task(1)), &changed);
    s.outbox[0].req = ApiRequest::Patch { id: tid(1), patch };
    s.outbox[0].three = three;
    s
}

#[test]
fn a_conflict_sends_only_the_fields_kept_as_mine() {
    let mut s = two_field_conflict();
    palette(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    let Overlay::Conflict(v) = &s.overlay else {
        panic!("three ways")
    };
    let fields: Vec<&str> = v.rows.iter().map(|r| r.field.as_str()).collect();
    assert_eq!(fields, ["status", "priority"]);
    // Mine for the status, theirs for the priority (urgent).
    s.on_key(key('m'));
    s.on_key(key('t'));
    let fx = s.on_key(code(KeyCode::Enter));
    let (id, body) = only_patch(&fx);
    assert_eq!((id, body), (tid(1), json!({"status": "completed"})));
    // The entry is what was sent, as the outbox's own send; its answer
    // takes it out of the outbox.
    assert_eq!(s.outbox.len(), 1);
    assert_eq!(s.outbox[0].what, "status → completed");
    assert!(matches!(s.outbox[0].state, OutState::Sending(t) if t == ticket_of(&fx)));
    let seq = s.outbox[0].seq;
    let mut done = task(1);
    done.status = Status::Completed;
    done.priority = Priority::Urgent;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(done))));
    assert!(
        s.outbox.is_empty(),
        "the entry is replaced by what was sent"
    );
    assert!(!s.outbox.iter().any(|i| i.seq == seq));
}

/// A conflict resolved while a later edit of its task waits behind it
/// (made while it waited for the user: `State::send_or_hold`): what is
/// kept of it goes out first, as the outbox's own, and the later edit
/// after its answer — never the other way round.
#[test]
fn a_conflict_resolved_goes_out_before_the_later_edit_of_its_task_behind_it() {
    let mut s = two_field_conflict();
    // While it waits, the user sets the title: it joins the outbox.
    let fx = palette(&mut s, "title Later");
    let (ticket, req) = match &fx[..] {
        [Effect::Api { ticket, req }] => (*ticket, (**req).clone()),
        other => panic!("one request: {other:?}"),
    };
    assert!(
        s.send_or_hold(ticket, &req).is_some(),
        "held behind the conflict"
    );
    assert_eq!(s.outbox.len(), 2);
    // Mine for the status, theirs for the priority: what is kept goes
    // out in the entry's place.
    palette(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    assert!(matches!(s.overlay, Overlay::Conflict(_)));
    s.on_key(key('m'));
    s.on_key(key('t'));
    let fx = s.on_key(code(KeyCode::Enter));
    let (id, body) = only_patch(&fx);
    assert_eq!((id, body), (tid(1), json!({"status": "completed"})));
    let (ticket, req) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Api { ticket, req } => Some((*ticket, (**req).clone())),
            _ => None,
        })
        .unwrap();
    assert!(
        s.send_or_hold(ticket, &req).is_none(),
        "the resolution goes out, not behind the later edit"
    );
    assert_eq!(s.outbox[0].what, "status → completed");
    assert_eq!(s.outbox[1].what, "title → Later");
    assert_eq!(s.outbox[1].state, OutState::Queued);
}

/// The probe's answer naming the user the edits were made as (issue 32,
/// point 4: these tests answered with an empty identity before, which
/// names another user; an edit is sent only as the user who made it).
fn same_user() -> Identity {
    Identity {
        user_id: "u-me".into(),
        ..Default::default()
    }
}

/// #32 §13: `:outbox` open while a queued edit is sent: the service
/// refuses it (404) — the entry no longer says `sending…`, the refusal is
/// said in the list.
#[test]
fn an_open_outbox_never_keeps_sending_on_an_entry_the_service_refused() {
    let mut s = with_store(loaded(3));
    go_offline(&mut s);
    let fx = palette(&mut s, "status completed");
    answer(&mut s, &fx, Err(unreachable()));
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let fx = answer(
        &mut s,
        &probe,
        Ok(Reply::Me(Identity {
            user_id: "u-me".into(),
            ..Default::default()
        })),
    );
    palette(&mut s, "outbox");
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { id } if *id == tid(1)),
        Ok(Reply::Task(Box::new(task(1)))),
    );
    let rows = |s: &State| match &s.overlay {
        Overlay::Chooser(c) => (
            c.rows.iter().map(|r| r.1.clone()).collect::<Vec<_>>(),
            c.note.clone(),
        ),
        _ => panic!("the outbox stays open"),
    };
    let (shown, _) = rows(&s);
    assert!(shown[0].contains("sending…"), "{shown:?}");
    answer(
        &mut s,
        &fx,
        Err(ApiError::NotFound {
            what: "task".into(),
            message: "not found".into(),
        }),
    );
    let (shown, note) = rows(&s);
    assert!(shown.iter().all(|l| !l.contains("sending…")), "{shown:?}");
    assert!(
        note.as_deref().unwrap_or("").contains("was refused"),
        "{note:?}"
    );
}

/// #32 §12: a held `priority` edit of a task archived meanwhile: the view
/// says the task is archived, and sending asks first (no: back to the
/// view, nothing sent; yes: sent).
#[test]
fn a_conflict_view_says_archived_and_asks_before_writing_to_it() {
    let mut s = loaded(3);
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let fx = answer(&mut s, &probe, Ok(Reply::Me(same_user())));
    let mut changed = task(1);
    changed.priority = Priority::Urgent;
    changed.archived = true;
    changed.draft = true;
    changed.updated_at = Some("2026-11-05T10:00:00Z".into());
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(changed))),
    );
    palette(&mut s, "outbox");
    s.on_key(code(KeyCode::Enter));
    let about = match &s.overlay {
        Overlay::Conflict(v) => v.about.join("\n"),
        _ => panic!("the conflict view"),
    };
    assert!(about.contains("#1 is ARCHIVED on the service"), "{about}");
    assert!(about.contains("#1 is a DRAFT"), "{about}");
    // Enter asks; `n` goes back to the view with nothing sent.
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(reqs(&fx).is_empty());
    match &s.overlay {
        Overlay::Confirm { lines, .. } => {
            assert!(lines.join(" ").contains("archived"), "{lines:?}")
        }
        _ => panic!("asked first"),
    }
    assert!(reqs(&s.on_key(key('n'))).is_empty());
    assert!(matches!(s.overlay, Overlay::Conflict(_)));
    s.on_key(code(KeyCode::Enter));
    let fx = s.on_key(key('y'));
    let (id, body) = only_patch(&fx);
    assert_eq!((id, body), (tid(1), json!({"priority": "low"})));
}

/// #32 §12: a held edit whose task the service no longer shows (404 on
/// the read before sending) waits saying access was lost.
#[test]
fn a_held_edit_whose_task_is_gone_says_access_lost() {
    let mut s = loaded(3);
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let probe = s.offline_tick(std::time::Instant::now() + std::time::Duration::from_secs(5));
    let fx = answer(&mut s, &probe, Ok(Reply::Me(same_user())));
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Err(ApiError::NotFound {
            what: "task".into(),
            message: "not found".into(),
        }),
    );
    match &s.outbox[0].state {
        OutState::Waiting(w) => assert!(
            w.starts_with("access lost: the service no longer shows #1 to you"),
            "{w}"
        ),
        other => panic!("{other:?}"),
    }
}
