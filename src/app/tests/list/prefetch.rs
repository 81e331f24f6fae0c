//! Prefetch: the plan a cursor move makes (what it reads, cancels and
//! reuses), user requests first, nothing read twice, never a write, and
//! answers for tasks the user left fill the cache without touching the
//! screen.

use super::*;

/// The reads prefetched in `fx` (the requests inside `Prefetch`).
fn pre(fx: &[Effect]) -> Vec<ApiRequest> {
    reqs(fx)
        .into_iter()
        .filter_map(|r| match r {
            ApiRequest::Prefetch(inner) => Some(*inner),
            _ => None,
        })
        .collect()
}

fn cancelled(fx: &[Effect]) -> Vec<u64> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Cancel { ticket } => Some(*ticket),
            _ => None,
        })
        .collect()
}

fn all_four(n: i64) -> Vec<ApiRequest> {
    vec![
        ApiRequest::GetTask { id: tid(n) },
        ApiRequest::Comments { id: tid(n) },
        ApiRequest::Thread { id: tid(n) },
        ApiRequest::Subtasks { id: tid(n) },
    ]
}

fn comment(task: i64, text: &str) -> Comment {
    Comment {
        id: format!("c-{task}").as_str().into(),
        content: text.into(),
        ..Default::default()
    }
}

/// The service's answer to a read, `tag` in what it says.
fn reply(req: &ApiRequest, tag: &str) -> Result<Reply, ApiError> {
    let n = |id: &str| id[id.len() - 12..].parse::<i64>().unwrap();
    Ok(match req {
        ApiRequest::GetTask { id } => {
            let mut t = task(n(id));
            t.title = format!("{tag} full {}", n(id)).as_str().into();
            Reply::Task(Box::new(t))
        }
        ApiRequest::Comments { id } => {
            Reply::Comments(vec![comment(n(id), &format!("{tag} comment {}", n(id)))])
        }
        ApiRequest::Thread { .. } => Reply::Messages(vec![]),
        ApiRequest::Subtasks { .. } => Reply::Items(vec![]),
        ApiRequest::GetSharing { .. } => Reply::Sharing(Default::default()),
        ApiRequest::ListPage { .. } => Reply::Page(TaskPage {
            items: (1..=10)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: None,
        }),
        other => panic!("not a read prefetch makes: {other:?}"),
    })
}

/// Answer every request in `fx` (user and prefetch alike).
fn answer_all(s: &mut State, fx: &[Effect], tag: &str) -> Vec<Effect> {
    let mut out = Vec::new();
    for e in fx {
        if let Effect::Api { ticket, req } = e {
            let inner = match &**req {
                ApiRequest::Prefetch(i) => (**i).clone(),
                r => r.clone(),
            };
            out.extend(s.on_api(ApiResult {
                ticket: *ticket,
                req: (**req).clone(),
                result: reply(&inner, tag),
            }));
        }
    }
    out
}

/// Task 1 current on the Comments tab, everything around it read ahead.
fn settled(n: i64) -> State {
    let mut s = loaded(n);
    let fx = open_tab(&mut s, Tab::Comments);
    s.focus = Focus::List;
    let mut fx = fx;
    fx.extend(s.plan_prefetch());
    for _ in 0..10 {
        if fx.is_empty() {
            break;
        }
        answer_all(&mut s, &fx, "svc");
        fx = s.plan_prefetch();
    }
    assert!(s.prefetch.inflight.is_empty());
    s
}

#[test]
fn opening_a_task_sends_its_tabs_together_user_request_first_then_neighbours_when_answered() {
    let mut s = loaded(10);
    let fx = open_tab(&mut s, Tab::Comments);
    assert_eq!(reqs(&fx), vec![ApiRequest::Comments { id: tid(1) }]);
    // The same round trip: the task's other tabs, as prefetches (no slot:
    // they never abort the user's Comments); no neighbour while the
    // user's read is in flight.
    let plan = s.plan_prefetch();
    assert_eq!(
        pre(&plan),
        vec![
            ApiRequest::GetTask { id: tid(1) },
            ApiRequest::Thread { id: tid(1) },
            ApiRequest::Subtasks { id: tid(1) },
        ]
    );
    assert!(reqs(&plan).iter().all(|r| r.slot().is_none()));
    // The user's read answered: the nearest neighbour next, within the
    // budget of 4 in flight.
    answer(&mut s, &fx, Ok(Reply::Comments(vec![comment(1, "one")])));
    let plan2 = s.plan_prefetch();
    assert_eq!(pre(&plan2), vec![ApiRequest::GetTask { id: tid(2) }]);
    answer_all(&mut s, &plan, "svc");
    let plan3 = s.plan_prefetch();
    assert_eq!(
        pre(&plan3),
        all_four(2)[1..].to_vec(),
        "the rest of the nearest row first"
    );
    answer_all(&mut s, &plan2, "svc");
    answer_all(&mut s, &plan3, "svc");
    assert_eq!(pre(&s.plan_prefetch()), all_four(3), "then the next one");
}

#[test]
fn a_move_onto_a_prefetched_task_shows_it_at_once_with_no_request_and_reads_the_next_row() {
    let mut s = settled(10);
    let fx = s.on_key(key('j'));
    assert_eq!(
        reqs(&fx),
        vec![],
        "task 2 is known and fresh: nothing asked"
    );
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task_id, tid(2));
    assert!(
        matches!(&d.comments, Load::Loaded(v) if v[0].content.raw() == "svc comment 2"),
        "no loading state: {:?}",
        d.comments
    );
    assert!(d.stale.is_empty() && d.cached_at.is_none());
    assert_eq!(
        d.task.as_ref().unwrap().title.raw(),
        "svc full 2",
        "the full task read ahead"
    );
    // The window moved: the row two below is read, nothing else twice.
    let plan = s.plan_prefetch();
    assert_eq!(pre(&plan), all_four(4));
    assert!(cancelled(&plan).is_empty());
}

#[test]
fn a_move_cancels_prefetches_that_are_no_longer_near_and_reuses_what_was_read() {
    let mut s = settled(10);
    s.on_key(key('j'));
    s.on_key(key('j'));
    let plan = s.plan_prefetch();
    assert_eq!(pre(&plan), all_four(4), "task 3 current: 4 and 5 ahead");
    answer_all(&mut s, &plan, "svc");
    let plan = s.plan_prefetch();
    assert_eq!(pre(&plan), all_four(5));
    // Back to the top before task 5 answered: it left the window.
    let fx = s.on_key(key('g'));
    assert_eq!(reqs(&fx), vec![], "task 1 was read: reused");
    let plan2 = s.plan_prefetch();
    let tickets: Vec<u64> = plan
        .iter()
        .filter_map(|e| match e {
            Effect::Api { ticket, .. } => Some(*ticket),
            _ => None,
        })
        .collect();
    assert_eq!(cancelled(&plan2), tickets);
    assert_eq!(pre(&plan2), vec![], "1, 2, 3 are all known and fresh");
    assert!(s.prefetch.inflight.is_empty());
}

#[test]
fn an_answer_for_a_task_the_user_left_fills_its_cache_without_touching_the_screen() {
    let mut s = settled(10);
    s.on_key(key('j'));
    let plan = s.plan_prefetch();
    assert_eq!(pre(&plan), all_four(4));
    let row_before = format!("{:?}", s.list.items[3]);
    let detail_before = s.detail.as_ref().unwrap().clone();
    // Task 4's answers come while task 2 is current.
    answer_all(&mut s, &plan, "late");
    let k = &s.local.known[&tid(4)];
    assert_eq!(k.copy().unwrap().title.raw(), "late full 4");
    assert_eq!(
        k.comments.as_ref().unwrap()[0].content.raw(),
        "late comment 4",
        "kept for when it becomes current"
    );
    assert_eq!(
        format!("{:?}", s.list.items[3]),
        row_before,
        "the list row is untouched"
    );
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task_id, detail_before.task_id);
    assert_eq!(d.comments, detail_before.comments);
    assert_eq!(d.task, detail_before.task);
    // Even one that was cancelled meanwhile: kept, screen untouched.
    s.on_key(key('j'));
    let plan = s.plan_prefetch();
    assert_eq!(pre(&plan), all_four(5));
    s.on_key(key('g'));
    let plan2 = s.plan_prefetch();
    assert_eq!(cancelled(&plan2).len(), 4);
    answer_all(&mut s, &plan, "cancelled");
    assert_eq!(
        s.local.known[&tid(5)].comments.as_ref().unwrap()[0]
            .content
            .raw(),
        "cancelled comment 5"
    );
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(1));
}

#[test]
fn a_prefetch_of_the_current_tab_in_flight_fills_it_instead_of_a_second_request() {
    let mut s = loaded(10);
    s.on_key(code(crossterm::event::KeyCode::Enter));
    let plan = s.plan_prefetch();
    assert!(pre(&plan).contains(&ApiRequest::Comments { id: tid(1) }));
    // The user opens Comments while its prefetch is on the way.
    let fx = s.on_key(key(']'));
    assert_eq!(s.detail.as_ref().unwrap().tab, Tab::Comments);
    assert_eq!(reqs(&fx), vec![], "no second Comments");
    assert_eq!(s.detail.as_ref().unwrap().comments, Load::Loading);
    answer_all(&mut s, &plan, "svc");
    assert!(matches!(
        &s.detail.as_ref().unwrap().comments,
        Load::Loaded(v) if v[0].content.raw() == "svc comment 1"
    ));
    assert_eq!(s.comment_rows().len(), 1, "the tree is built");
}

#[test]
fn a_task_whose_updated_at_moved_or_a_refresh_is_read_again() {
    let mut s = settled(10);
    // A page says task 2 changed on the service.
    let fx = s.reload_list(true);
    let mut t2 = task(2);
    t2.updated_at = Some("2026-11-02T10:00:00Z".into());
    let items = (1..=10)
        .map(|i| TaskItem::Task(Box::new(if i == 2 { t2.clone() } else { task(i) })))
        .collect();
    answer(
        &mut s,
        &fx,
        Ok(Reply::Page(TaskPage {
            items,
            cursor: None,
        })),
    );
    assert_eq!(pre(&s.plan_prefetch()), all_four(2), "only task 2, again");
    // `r`: everything asked again (the user's requests first).
    let mut s = settled(10);
    let fx = s.on_key(key('r'));
    let user = reqs(&fx);
    assert!(
        user.contains(&ApiRequest::Comments { id: tid(1) }),
        "{user:?}"
    );
    answer_all(&mut s, &fx, "svc");
    let plan = s.plan_prefetch();
    assert_eq!(
        pre(&plan),
        vec![
            ApiRequest::Thread { id: tid(1) },
            ApiRequest::Subtasks { id: tid(1) },
            ApiRequest::GetTask { id: tid(2) },
            ApiRequest::Comments { id: tid(2) },
        ],
        "the current task's other tabs, then neighbours, within the budget of 4"
    );
}

#[test]
fn a_prefetch_is_never_a_write_and_a_write_in_flight_holds_neighbours_back() {
    let mut s = settled(10);
    s.on_key(key('j'));
    let fx = palette(&mut s, "status completed");
    assert!(matches!(reqs(&fx)[..], [ApiRequest::Patch { .. }]));
    let plan = s.plan_prefetch();
    assert_eq!(pre(&plan), vec![], "a user request is in flight");
    answer_where(
        &mut s,
        &fx,
        |_| true,
        Ok(Reply::Task(Box::new({
            let mut t = task(2);
            t.updated_at = Some("2026-11-03T10:00:00Z".into());
            t
        }))),
    );
    let plan = s.plan_prefetch();
    assert!(!pre(&plan).is_empty());
    for r in pre(&plan) {
        assert!(crate::app::local::outbox::is_read(&r), "only reads: {r:?}");
    }
    assert!(reqs(&plan)
        .iter()
        .all(|r| matches!(r, ApiRequest::Prefetch(_))));
}

#[test]
fn a_service_without_a_thread_listing_is_not_asked_for_one_again() {
    let mut s = loaded(10);
    s.on_key(code(crossterm::event::KeyCode::Enter));
    let plan = s.plan_prefetch();
    for e in &plan {
        if let Effect::Api { ticket, req } = e {
            let ApiRequest::Prefetch(inner) = &**req else {
                continue;
            };
            let result = match &**inner {
                ApiRequest::Thread { .. } => Err(ApiError::NotAvailable { endpoint: "thread" }),
                r => reply(r, "svc"),
            };
            s.on_api(ApiResult {
                ticket: *ticket,
                req: (**req).clone(),
                result,
            });
        }
    }
    let plan = s.plan_prefetch();
    assert_eq!(
        pre(&plan),
        vec![
            ApiRequest::GetTask { id: tid(2) },
            ApiRequest::Comments { id: tid(2) },
            ApiRequest::Subtasks { id: tid(2) },
            ApiRequest::GetTask { id: tid(3) },
        ]
    );
}

#[test]
fn prefetch_false_in_the_config_and_offline_read_nothing_ahead() {
    let c = crate::config::from_str("prefetch = false\n", None);
    let mut s = loaded_with(&c.settings, 10);
    assert!(!s.prefetch.on);
    let fx = open_tab(&mut s, Tab::Comments);
    answer(&mut s, &fx, Ok(Reply::Comments(vec![])));
    assert_eq!(s.plan_prefetch(), vec![]);
    s.on_key(key('j'));
    assert_eq!(s.plan_prefetch(), vec![]);
    // Offline: nothing either, and what was in flight is cancelled.
    let mut s = loaded(10);
    open_tab(&mut s, Tab::Comments);
    let plan = s.plan_prefetch();
    assert_eq!(pre(&plan).len(), 3);
    s.offline = Some(crate::app::local::offline::Offline {
        since: jiff::Timestamp::now(),
        next_probe: std::time::Instant::now(),
        backoff: std::time::Duration::from_secs(1),
        probing: None,
        why: "down".into(),
    });
    let plan2 = s.plan_prefetch();
    assert_eq!(pre(&plan2), vec![]);
    assert_eq!(cancelled(&plan2).len(), 3);
}
