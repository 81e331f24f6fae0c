//! The outbox, issue 22 (points 5, 8–10): queued edits of one task go out
//! in order, each checked against our previous answer; only someone
//! else's change holds one; the check compares with the version the edit
//! was made against; bulk edits made offline queue per task; an edit the
//! store could not keep says so, and quitting names it.

use super::*;
use crate::app::local::outbox::{Kept, OutState};
use crate::app::tests::bulk::{mark_rows, n_of, patched};
use crate::app::tests::local::store::{back_online, go_offline, is_get, unreachable, with_store};
use crate::store::worker::{StoreAnswer, StoreCmd};

fn version(t: &Task, at: &str) -> Task {
    let mut t = t.clone();
    t.updated_at = Some(at.into());
    t
}

/// The service's task 1 after a PATCH: the body applied, a new version.
fn after_patch(fx: &[Effect], before: &Task, at: &str) -> (Task, Value) {
    let (_, body) = only_patch(&fx.iter().filter(|e| matches!(e, Effect::Api { req, .. } if matches!(**req, ApiRequest::Patch { .. }))).cloned().collect::<Vec<_>>());
    let mut v = serde_json::to_value(before).unwrap();
    for (k, val) in body.as_object().unwrap() {
        v[k] = val.clone();
    }
    v["updated_at"] = json!(at);
    (serde_json::from_value(v).unwrap(), body)
}

#[test]
fn three_offline_edits_of_one_task_all_go_out_in_order_after_reconnecting() {
    let mut s = with_store(loaded(2));
    go_offline(&mut s);
    for cmd in ["priority low", "status completed", "title Renamed offline"] {
        let fx = palette(&mut s, cmd);
        answer(&mut s, &fx, Err(unreachable()));
    }
    assert_eq!(s.outbox.len(), 3);
    let mut fx = back_online(&mut s);
    let mut service = task(1);
    let mut sent = Vec::new();
    for (i, at) in [
        "2026-11-02T10:00:01Z",
        "2026-11-02T10:00:02Z",
        "2026-11-02T10:00:03Z",
    ]
    .into_iter()
    .enumerate()
    {
        // Each is checked first: the service holds our previous answer.
        let check = s
            .outbox
            .iter()
            .position(|i| matches!(i.state, OutState::Checking(_)));
        assert_eq!(check, Some(0), "edit {i} is read first: {:?}", reqs(&fx));
        fx = answer_where(
            &mut s,
            &fx,
            |r| is_get(r, 1),
            Ok(Reply::Task(Box::new(service.clone()))),
        );
        let (next, body) = after_patch(&fx, &service, at);
        sent.push(body);
        service = next;
        fx = answer_where(
            &mut s,
            &fx,
            |r| matches!(r, ApiRequest::Patch { .. }),
            Ok(Reply::Task(Box::new(service.clone()))),
        );
    }
    assert_eq!(
        sent,
        vec![
            json!({"priority": "low"}),
            json!({"status": "completed"}),
            json!({"title": "Renamed offline"})
        ],
        "in the order made"
    );
    assert!(
        s.outbox.is_empty(),
        "{:?}",
        s.outbox.iter().map(|i| &i.state).collect::<Vec<_>>()
    );
    assert!(!reqs(&fx)
        .iter()
        .any(|r| matches!(r, ApiRequest::Patch { .. })));
    // The next base is kept in the store too (a crash keeps the chain).
    assert!(s.local.out.iter().any(
        |c| matches!(c, StoreCmd::OutboxRebase { base: Some(b), .. } if b == "2026-11-02T10:00:01Z")
    ));
}

#[test]
fn a_later_queued_edit_still_waits_for_someone_elses_change_after_ours() {
    let mut s = loaded(2);
    go_offline(&mut s);
    for cmd in ["priority low", "status completed"] {
        let fx = palette(&mut s, cmd);
        answer(&mut s, &fx, Err(unreachable()));
    }
    let fx = back_online(&mut s);
    let fx = answer_where(
        &mut s,
        &fx,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(task(1)))),
    );
    let (ours, _) = after_patch(&fx, &task(1), "2026-11-02T10:00:01Z");
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Patch { .. }),
        Ok(Reply::Task(Box::new(ours.clone()))),
    );
    // Someone else changed it after our first edit.
    let mut theirs = version(&ours, "2026-11-02T10:05:00Z");
    theirs.status = Status::WaitingOnExternal;
    let fx = answer_where(
        &mut s,
        &fx,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(theirs))),
    );
    assert!(!reqs(&fx)
        .iter()
        .any(|r| matches!(r, ApiRequest::Patch { .. })));
    assert_eq!(s.outbox.len(), 1);
    assert!(matches!(s.outbox[0].state, OutState::Waiting(_)));
}

#[test]
fn an_edit_sent_anyway_over_someone_elses_change_does_not_carry_the_next_one() {
    let mut s = loaded(2);
    go_offline(&mut s);
    for cmd in ["priority low", "status completed"] {
        let fx = palette(&mut s, cmd);
        answer(&mut s, &fx, Err(unreachable()));
    }
    let fx = back_online(&mut s);
    let mut theirs = version(&task(1), "2026-11-02T09:00:00Z");
    theirs.priority = Priority::Urgent;
    answer_where(
        &mut s,
        &fx,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(theirs.clone()))),
    );
    assert!(matches!(s.outbox[0].state, OutState::Waiting(_)));
    let seq = s.outbox[0].seq;
    let fx = s.outbox_send_anyway(seq);
    let (ours, _) = after_patch(&fx, &theirs, "2026-11-02T10:00:01Z");
    let fx = answer(&mut s, &fx, Ok(Reply::Task(Box::new(ours.clone()))));
    // The second was made against the version before their change: it
    // was never accepted over it, so it waits too.
    let fx = answer_where(
        &mut s,
        &fx,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(ours))),
    );
    assert!(!reqs(&fx)
        .iter()
        .any(|r| matches!(r, ApiRequest::Patch { .. })));
    assert!(matches!(s.outbox[0].state, OutState::Waiting(_)));
}

#[test]
fn queued_edits_go_out_when_the_service_writes_their_version_otherwise() {
    let mut s = with_store(loaded(2));
    go_offline(&mut s);
    for cmd in ["priority low", "status completed"] {
        let fx = palette(&mut s, cmd);
        answer(&mut s, &fx, Err(unreachable()));
    }
    let mut fx = back_online(&mut s);
    // The rows said 2026-11-01T10:00:00Z; the task read alone writes the
    // same instant with a fraction and an offset.
    let mut service = version(&task(1), "2026-11-01T10:00:00.000+00:00");
    let mut sent = Vec::new();
    for at in ["2026-11-02T10:00:01Z", "2026-11-02T10:00:02Z"] {
        fx = answer_where(
            &mut s,
            &fx,
            |r| is_get(r, 1),
            Ok(Reply::Task(Box::new(service.clone()))),
        );
        let (next, body) = after_patch(&fx, &service, at);
        sent.push(body);
        service = next;
        fx = answer_where(
            &mut s,
            &fx,
            |r| matches!(r, ApiRequest::Patch { .. }),
            Ok(Reply::Task(Box::new(service.clone()))),
        );
    }
    assert_eq!(
        sent,
        vec![json!({"priority": "low"}), json!({"status": "completed"})]
    );
    assert!(s.outbox.is_empty(), "{:?}", s.outbox);
}

// Issue 22, point 9: the base was taken when the edit's failure came back,
// from whatever copy had arrived meanwhile (here a refresh showing another
// person's change), so the check compared the service with itself and the
// queued edit overwrote that change.
#[test]
fn a_queued_edit_is_checked_against_the_version_it_was_made_on_not_a_copy_that_arrived_since() {
    let mut s = loaded(2);
    let edit = palette(&mut s, "priority low");
    assert_eq!(only_patch(&edit).1, json!({"priority": "low"}));
    // While the PATCH is out, the refresh (`refresh_secs`) of the task
    // shown brings someone else's change.
    let mut theirs = version(&task(1), "2026-11-02T10:05:00Z");
    theirs.priority = Priority::Urgent;
    let fx = s.refresh();
    assert!(reqs(&fx).iter().any(|r| is_get(r, 1)), "{:?}", reqs(&fx));
    answer_where(
        &mut s,
        &fx,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(theirs.clone()))),
    );
    assert_eq!(
        s.detail
            .as_ref()
            .and_then(|d| d.task.as_ref())
            .unwrap()
            .priority,
        Priority::Urgent,
        "shown"
    );
    // The PATCH's connection drops: outcome unknown, read back first.
    let fx = answer(
        &mut s,
        &edit,
        Err(ApiError::Network {
            message: "connection closed before message completed".into(),
        }),
    );
    let fx = confirm_me(&mut s, &fx);
    assert_eq!(s.outbox.len(), 1);
    assert_eq!(
        s.outbox[0].base_updated_at.as_deref(),
        Some("2026-11-01T10:00:00Z"),
        "the version shown when the edit was made"
    );
    let fx = answer_where(
        &mut s,
        &fx,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(theirs))),
    );
    assert!(
        !reqs(&fx)
            .iter()
            .any(|r| matches!(r, ApiRequest::Patch { .. })),
        "never sent over their change: {:?}",
        reqs(&fx)
    );
    assert!(matches!(s.outbox[0].state, OutState::Waiting(_)));
}

#[test]
fn a_bulk_edit_made_offline_queues_each_task_and_says_so_per_task() {
    let mut s = with_store(loaded(4));
    go_offline(&mut s);
    mark_rows(&mut s, 3);
    palette(&mut s, "status completed");
    let mut queue: std::collections::VecDeque<Effect> = s.on_key(key('y')).into();
    // Offline: the worker answers every request "unreachable" at once.
    while let Some(e) = queue.pop_front() {
        if let Effect::Api { ticket, req } = e {
            queue.extend(s.on_api(ApiResult {
                ticket,
                req: *req,
                result: Err(unreachable()),
            }));
        }
    }
    assert_eq!(s.outbox.len(), 3, "one queued edit per task");
    assert!(s.outbox.iter().all(|i| i.what == "status → completed"));
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Warn, "{text}");
    assert!(text.contains("3 queued"), "{text}");
    assert!(text.contains("#1, #2, #3"), "{text}");
    assert!(!text.contains("failed"), "{text}");
    for n in 1..=3 {
        assert!(
            s.pending_for(&tid(n), "status").is_some(),
            "the mark stays until sent"
        );
    }
    // Back: each goes out after its check.
    let mut fx = back_online(&mut s);
    let mut sent = 0;
    while let Some(Effect::Api { ticket, req }) = fx.iter().find(|e| matches!(e, Effect::Api { req, .. } if matches!(**req, ApiRequest::GetTask { .. } | ApiRequest::Patch { .. }))).cloned() {
        if matches!(*req, ApiRequest::Patch { .. }) {
            sent += 1;
        }
        let result = patched(&req, |id| task(n_of(id)));
        fx = s.on_api(ApiResult { ticket, req: *req, result });
    }
    assert_eq!(sent, 3);
    assert!(s.outbox.is_empty());
}

#[test]
fn an_edit_the_store_could_not_keep_says_so_and_quitting_names_it() {
    let mut s = with_store(loaded(2));
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let seq = s.outbox[0].seq;
    assert_eq!(s.outbox[0].kept, Kept::Writing);
    s.on_store(StoreAnswer::OutboxNotKept {
        local: seq as u64,
        why: "database or disk is full".into(),
    });
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Error);
    assert!(
        text.contains("could NOT be kept (database or disk is full)"),
        "{text}"
    );
    assert_eq!(s.outbox_lost().len(), 1);
    let lines = crate::app::quit_lines(&s, &Default::default(), None);
    assert!(
        lines.iter().any(|l| l.contains("NOT kept")
            && l.contains("#1 priority → low")
            && l.contains("full")),
        "{lines:?}"
    );
    // A profile switch would lose it too: refused.
    let e = s.switch_profile("work").unwrap_err();
    assert!(e.contains("1 queued edit is not kept"), "{e}");
    assert!(!s.quit);
}

#[test]
fn an_edit_the_store_kept_is_named_at_quit_as_kept_and_is_not_lost() {
    let mut s = with_store(loaded(2));
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    let seq = s.outbox[0].seq;
    s.on_store(StoreAnswer::OutboxAdded {
        local: seq as u64,
        seq,
    });
    assert!(s.outbox_lost().is_empty());
    let lines = crate::app::quit_lines(&s, &Default::default(), None);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("kept in the local store") && l.contains("#1 priority → low")),
        "{lines:?}"
    );
}

#[test]
fn edits_queued_when_the_store_failed_are_not_kept_and_say_so() {
    let mut s = with_store(loaded(2));
    go_offline(&mut s);
    let fx = palette(&mut s, "priority low");
    answer(&mut s, &fx, Err(unreachable()));
    s.on_store(StoreAnswer::Failed(
        "the local store failed (database or disk is full); this session goes on without it".into(),
    ));
    assert!(matches!(s.outbox[0].kept, Kept::Not(_)));
    // Without a store, a new edit says at once that it is not kept.
    let fx = palette(&mut s, "status completed");
    answer(&mut s, &fx, Err(unreachable()));
    let text = s.status.clone().unwrap().1;
    assert!(text.contains("NOT KEPT"), "{text}");
    assert_eq!(s.outbox_lost().len(), 2);
}

/// Simulator seed 1848020198 (step 7741, "not kept without a word"): a
/// bulk edit made offline after the store failed queued its tasks in
/// memory only and said nothing until its summary — quitting meanwhile
/// loses them unsaid. Each is said NOT KEPT as it is queued.
#[test]
fn a_bulk_edit_queued_without_a_store_says_each_task_not_kept_as_it_queues() {
    let mut s = with_store(loaded(4));
    go_offline(&mut s);
    s.on_store(StoreAnswer::Failed(
        "the local store failed (database or disk is full); this session goes on without it".into(),
    ));
    mark_rows(&mut s, 3);
    palette(&mut s, "status completed");
    let mut queue: std::collections::VecDeque<Effect> = s.on_key(key('y')).into();
    let mut said = 0;
    while let Some(e) = queue.pop_front() {
        if let Effect::Api { ticket, req } = e {
            let (queued, told) = (s.outbox.len(), s.messages.len());
            queue.extend(s.on_api(ApiResult {
                ticket,
                req: *req,
                result: Err(unreachable()),
            }));
            if s.outbox.len() > queued {
                let label = &s.outbox.last().unwrap().label;
                assert!(
                    s.messages
                        .iter()
                        .skip(told)
                        .any(|m| m.text.contains("NOT KEPT") && m.text.contains(label.as_str())),
                    "{label}: {:?}",
                    s.messages
                );
                said += 1;
            }
        }
    }
    assert_eq!(said, 3);
    assert!(s.outbox.iter().all(|i| matches!(i.kept, Kept::Not(_))));
}

#[test]
fn an_edit_made_by_another_user_is_never_sent_with_this_key() {
    let mut s = loaded(2);
    let stored = crate::app::local::outbox::to_stored(&ApiRequest::Patch {
        id: tid(1),
        patch: TaskPatch {
            priority: Some(Priority::Low),
            ..Default::default()
        },
    })
    .unwrap();
    s.outbox_from_store(vec![crate::store::OutboxRow {
        seq: 1,
        task_id: tid(1),
        label: "#1".into(),
        what: "priority → low".into(),
        request: stored,
        base_updated_at: Some("2026-11-01T10:00:00Z".into()),
        created_at: 1,
        user_id: Some("u-alice".into()),
        saw: None,
    }]);
    let fx = s.outbox_pump();
    assert!(reqs(&fx).is_empty(), "{:?}", reqs(&fx));
    assert!(s.outbox.is_empty());
    assert!(s.status.clone().unwrap().1.contains("another user"));
}

#[test]
fn an_edit_whose_base_version_is_not_known_waits_rather_than_overwrite() {
    let mut s = loaded(2);
    let stored = crate::app::local::outbox::to_stored(&ApiRequest::Patch {
        id: tid(1),
        patch: TaskPatch {
            priority: Some(Priority::Low),
            ..Default::default()
        },
    })
    .unwrap();
    s.outbox_from_store(vec![crate::store::OutboxRow {
        seq: 1,
        task_id: tid(1),
        label: "#1".into(),
        what: "priority → low".into(),
        request: stored,
        base_updated_at: None,
        created_at: 1,
        user_id: None,
        saw: None,
    }]);
    let fx = s.outbox_pump();
    let fx = answer_where(
        &mut s,
        &fx,
        |r| is_get(r, 1),
        Ok(Reply::Task(Box::new(task(1)))),
    );
    assert!(!reqs(&fx)
        .iter()
        .any(|r| matches!(r, ApiRequest::Patch { .. })));
    match &s.outbox[0].state {
        OutState::Waiting(why) => assert!(why.contains("not known"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn edits_another_taskdeck_left_are_taken_in_order_once_and_sent() {
    let mut s = loaded(2);
    let row = |seq: i64, what: &str, patch: TaskPatch| crate::store::OutboxRow {
        seq,
        task_id: tid(1),
        label: "#1".into(),
        what: what.into(),
        request: crate::app::local::outbox::to_stored(&ApiRequest::Patch { id: tid(1), patch })
            .unwrap(),
        base_updated_at: Some("2026-11-01T10:00:00Z".into()),
        created_at: 1,
        user_id: Some("u-me".into()),
        saw: None,
    };
    let low = || TaskPatch {
        priority: Some(Priority::Low),
        ..Default::default()
    };
    s.outbox_from_store(vec![row(5, "priority → low", low())]);
    let fx = s.on_store(StoreAnswer::Taken(vec![
        row(
            3,
            "status → completed",
            TaskPatch {
                status: Some(Status::Completed),
                ..Default::default()
            },
        ),
        row(5, "priority → low", low()),
    ]));
    assert_eq!(
        s.outbox.iter().map(|i| i.seq).collect::<Vec<_>>(),
        vec![3, 5],
        "once each, in order"
    );
    assert_eq!(reqs(&fx), vec![ApiRequest::GetTask { id: tid(1) }]);
    assert!(
        matches!(s.outbox[0].state, OutState::Checking(_)),
        "the earliest first"
    );
}

/// A sharing change back from the store after a crash (its removal not
/// written: the disk full), whose first send may have landed: the task's
/// version tells nothing of it (a service need not move `updated_at` for
/// sharing; someone else may have moved it since), so the sharing is
/// read first; already as the edit sets it: not sent again, even when the
/// task moved since; otherwise checked as an edit that did not land, and
/// sent once (simulator seed 14789920118052397930: a sharing PUT applied
/// twice, its success heard in between).
#[test]
fn a_sharing_change_back_from_the_store_is_sent_again_only_if_the_sharing_does_not_hold_it() {
    let put = SharingUpdate::new(&Visibility::Customer).user("u-bob", &AccessLevel::Write);
    let row = || {
        let stored = crate::app::local::outbox::to_stored(&ApiRequest::PutSharing {
            id: tid(1),
            update: put.clone(),
        })
        .unwrap();
        crate::store::OutboxRow {
            seq: 7,
            task_id: tid(1),
            label: "#1".into(),
            what: "sharing".into(),
            request: stored,
            base_updated_at: Some("2026-11-01T10:00:00Z".into()),
            created_at: 1,
            user_id: None,
            saw: None,
        }
    };
    let bob = |level: AccessLevel| crate::api::Member {
        id: "u-bob".into(),
        access_level: Some(level),
        ..Default::default()
    };
    let mut moved = task(1);
    moved.updated_at = Some("2026-11-02T10:00:00Z".into());
    for (held, task_now) in [(true, task(1)), (true, moved), (false, task(1))] {
        let mut s = with_store(loaded(2));
        s.outbox_from_store(vec![row()]);
        let fx = s.outbox_pump();
        let fx = answer_where(
            &mut s,
            &fx,
            |r| is_get(r, 1),
            Ok(Reply::Task(Box::new(task_now))),
        );
        assert_eq!(
            reqs(&fx),
            vec![ApiRequest::SharingForEdit { id: tid(1) }],
            "the sharing is read, nothing sent yet"
        );
        let level = if held {
            AccessLevel::Write
        } else {
            AccessLevel::Read
        };
        let now = SharingState {
            visibility: Visibility::Customer,
            users: vec![bob(level)],
            ..Default::default()
        };
        let fx = answer(&mut s, &fx, Ok(Reply::Sharing(now)));
        if held {
            assert!(reqs(&fx).is_empty(), "{:?}", reqs(&fx));
            assert!(s.outbox.is_empty());
            assert!(s.local.out.contains(&StoreCmd::OutboxRemove(7)));
            assert!(s
                .status
                .as_ref()
                .unwrap()
                .1
                .contains("had reached the service"));
            continue;
        }
        // Not landed: the task is checked again, then the edit sent once.
        let fx = answer_where(
            &mut s,
            &fx,
            |r| is_get(r, 1),
            Ok(Reply::Task(Box::new(task(1)))),
        );
        assert_eq!(
            reqs(&fx),
            vec![ApiRequest::PutSharing {
                id: tid(1),
                update: put.clone()
            }]
        );
    }
}

/// A link's role or context changed, a link removed, a file detached,
/// each back from the store (its outcome unknown: sent before a crash
/// whose removal the store did not write): the task read back tells
/// whether it landed. Landed — the link as the edit sets it, the link or
/// the file gone — it is not sent again, even though the task moved
/// since (by that very edit); not landed, it is sent once when the task
/// has not moved, and waits for the user when it has. Files in a shape
/// that tells nothing leave a detach checked as one that did not land.
/// (They were checked by the task's version alone: a landed edit whose
/// answer was lost waited for the user as "changed on the service", and
/// enter sent it again.)
#[test]
fn a_link_or_file_edit_back_from_the_store_is_sent_again_only_if_the_task_does_not_hold_it() {
    let review = "11111111-1111-4111-8111-111111111111";
    let chat = "22222222-2222-4222-8222-222222222222";
    let file = "33333333-3333-4333-8333-333333333333";
    let edits = [
        ApiRequest::UpdateLink {
            id: tid(1),
            kind: LinkType::Review,
            item: review.into(),
            update: LinkUpdate {
                role: Some(LinkRole::Subject),
                context: Some(Some(vec!["c2".into(), "c1".into()])),
            },
        },
        ApiRequest::RemoveLink {
            id: tid(1),
            kind: LinkType::Chat,
            item: chat.into(),
        },
        ApiRequest::Detach {
            id: tid(1),
            file_id: file.into(),
        },
    ];
    // The task as each edit leaves it.
    let landed = |e: &ApiRequest| {
        let mut v = task_json(1);
        match e {
            ApiRequest::UpdateLink { .. } => {
                v["linked_items"][0]["role"] = json!("subject");
                v["linked_items"][0]["context"] = json!({"check_ids": ["c1", "c2"]});
            }
            ApiRequest::RemoveLink { .. } => {
                v["linked_items"].as_array_mut().unwrap().remove(1);
            }
            _ => v["input_files"] = json!([]),
        }
        v
    };
    let moved = |mut v: Value| {
        v["updated_at"] = json!("2026-11-02T10:00:00Z");
        serde_json::from_value::<Task>(v).unwrap()
    };
    for e in &edits {
        let row = crate::store::OutboxRow {
            seq: 7,
            task_id: tid(1),
            label: "#1".into(),
            what: e.describe(),
            request: crate::app::local::outbox::to_stored(e).unwrap(),
            base_updated_at: Some("2026-11-01T10:00:00Z".into()),
            created_at: 1,
            user_id: None,
            saw: None,
        };
        let mut odd_files = task_json(1);
        odd_files["input_files"] = json!({"primary": {"name": "in.pdf"}});
        let cases = [
            ("landed", moved(landed(e)), Some(true)),
            ("not landed, not moved", task(1), None),
            ("not landed, moved", moved(task_json(1)), Some(false)),
        ];
        let odd = matches!(e, ApiRequest::Detach { .. })
            .then(|| ("files unreadable, moved", moved(odd_files), Some(false)));
        for (case, read, dropped) in cases.into_iter().chain(odd) {
            let mut s = with_store(loaded(2));
            s.outbox_from_store(vec![row.clone()]);
            let fx = s.outbox_pump();
            let fx = answer_where(
                &mut s,
                &fx,
                |r| is_get(r, 1),
                Ok(Reply::Task(Box::new(read))),
            );
            match dropped {
                Some(true) => {
                    assert!(reqs(&fx).is_empty(), "{case} {e:?}: {:?}", reqs(&fx));
                    assert!(s.outbox.is_empty(), "{case} {e:?}");
                    assert!(
                        s.local.out.contains(&StoreCmd::OutboxRemove(7)),
                        "{case} {e:?}"
                    );
                    let said = &s.status.as_ref().unwrap().1;
                    assert!(
                        said.contains("had reached the service"),
                        "{case} {e:?}: {said}"
                    );
                }
                Some(false) => {
                    assert!(reqs(&fx).is_empty(), "{case} {e:?}: {:?}", reqs(&fx));
                    assert!(
                        matches!(s.outbox[0].state, OutState::Waiting(_)),
                        "{case} {e:?}: {:?}",
                        s.outbox[0].state
                    );
                }
                None => assert_eq!(reqs(&fx), vec![e.clone()], "{case}"),
            }
        }
    }
}
