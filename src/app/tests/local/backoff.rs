//! Failing reads are not hammered: a read the service refused is retried
//! with backoff (never faster than once a second per task and tab), and a
//! task answering 404 is read once — "gone, or no longer visible to you" —
//! until the user refreshes. The loop plans prefetches after every batch
//! (answers, keys, ticks, ~30 a second while anything moves): these tests
//! plan at that pace and assert the exact requests.

use super::*;
use std::time::{Duration, Instant};

fn gone() -> ApiError {
    ApiError::NotFound {
        what: "task".into(),
        message: String::new(),
    }
}

fn failing() -> ApiError {
    ApiError::Status {
        status: 503,
        message: "try later".into(),
    }
}

/// Every read in `fx` (the inner one of a prefetch).
fn sent(fx: &[Effect]) -> Vec<ApiRequest> {
    reqs(fx)
        .into_iter()
        .map(|r| match r {
            ApiRequest::Prefetch(i) => *i,
            r => r,
        })
        .collect()
}

/// Answer every request in `fx`: reads of task 1's `bad` tab with `err`,
/// everything else as the service would.
fn answer(
    s: &mut State,
    fx: &[Effect],
    bad: fn(&ApiRequest) -> bool,
    err: &ApiError,
) -> Vec<Effect> {
    let mut out = Vec::new();
    for e in fx {
        let Effect::Api { ticket, req } = e else {
            continue;
        };
        let inner = match &**req {
            ApiRequest::Prefetch(i) => (**i).clone(),
            r => r.clone(),
        };
        let result = if bad(&inner) {
            Err(err.clone())
        } else {
            Ok(match &inner {
                ApiRequest::GetTask { id } => {
                    Reply::Task(Box::new(task(id[id.len() - 12..].parse().unwrap())))
                }
                ApiRequest::Comments { .. } => Reply::Comments(vec![]),
                ApiRequest::Thread { .. } => Reply::Messages(vec![]),
                ApiRequest::Subtasks { .. } => Reply::Items(vec![]),
                ApiRequest::GetSharing { .. } => Reply::Sharing(Default::default()),
                ApiRequest::ListPage { .. } => Reply::Page(TaskPage {
                    items: (1..=3).map(|i| TaskItem::Task(Box::new(task(i)))).collect(),
                    cursor: None,
                }),
                other => panic!("unexpected read {other:?}"),
            })
        };
        out.extend(s.on_api(ApiResult {
            ticket: *ticket,
            req: (**req).clone(),
            result,
        }));
    }
    out
}

fn task_one_read(r: &ApiRequest) -> bool {
    *r == ApiRequest::GetTask { id: tid(1) }
}

/// Open task 1, then run the loop for `secs` seconds at 30 batches a
/// second, answering everything at once; the reads sent, with when.
fn run(s: &mut State, err: ApiError, secs: u64) -> Vec<(Duration, ApiRequest)> {
    let t0 = Instant::now();
    let mut log = Vec::new();
    let mut fx = open_tab(s, Tab::Comments);
    let frames = secs * 30;
    for frame in 0..=frames {
        let at = Duration::from_millis(frame * 1000 / 30);
        fx.extend(s.plan_prefetch_at(t0 + at));
        for r in sent(&fx) {
            log.push((at, r));
        }
        fx = answer(s, &fx, task_one_read, &err);
    }
    log
}

fn reads_of_task_one(log: &[(Duration, ApiRequest)]) -> Vec<Duration> {
    log.iter()
        .filter(|(_, r)| task_one_read(r))
        .map(|(at, _)| *at)
        .collect()
}

#[test]
fn a_task_answering_404_is_read_once_and_said_gone() {
    let mut s = loaded(3);
    let log = run(&mut s, gone(), 10);
    let others = log.iter().filter(|(_, r)| !task_one_read(r)).count();
    assert_eq!(others, 11, "every other read once");
    assert_eq!(
        reads_of_task_one(&log),
        vec![Duration::ZERO],
        "read once in 10 s"
    );
    let d = s.detail.as_ref().unwrap();
    assert_eq!(
        d.error.as_deref(),
        Some("gone, or no longer visible to you")
    );
    let gone_said = s
        .messages
        .iter()
        .filter(|m| m.text.contains("gone, or no longer visible to you"))
        .count();
    assert_eq!(gone_said, 1, "said once");

    // Away and back: still gone, not asked again.
    s.focus = Focus::List;
    let t = Instant::now();
    let mut fx = s.on_key(key('j'));
    fx.extend(s.on_key(key('k')));
    fx.extend(s.plan_prefetch_at(t));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(1));
    assert!(!sent(&fx).iter().any(task_one_read), "{fx:?}");
    assert_eq!(
        s.detail.as_ref().unwrap().error.as_deref(),
        Some("gone, or no longer visible to you")
    );
    answer(&mut s, &fx, task_one_read, &gone());

    // A refresh (`r`) asks again, once.
    let t = Instant::now();
    let mut fx = s.on_key(key('r'));
    fx.extend(s.plan_prefetch_at(t));
    let again: Vec<_> = sent(&fx).into_iter().filter(task_one_read).collect();
    assert_eq!(again.len(), 1, "{fx:?}");
    answer(&mut s, &fx, task_one_read, &gone());
    let fx = s.plan_prefetch_at(t + Duration::from_secs(5));
    assert!(!sent(&fx).iter().any(task_one_read), "{fx:?}");
}

#[test]
fn a_failing_read_is_retried_with_backoff_never_faster_than_once_a_second() {
    let mut s = loaded(3);
    let log = run(&mut s, failing(), 20);
    let at = reads_of_task_one(&log);
    // At once, then 1 s, 2 s, 4 s and 8 s after each failure (answered at
    // once, noted by the next batch, a frame later).
    assert_eq!(at.len(), 5, "{at:?}");
    assert_eq!(at[0], Duration::ZERO);
    for (i, w) in at.windows(2).enumerate() {
        let wait = Duration::from_secs(1 << i);
        let gap = w[1] - w[0];
        assert!(
            gap >= wait && gap <= wait + Duration::from_millis(100),
            "retry {i}: {gap:?} after the failure: {at:?}"
        );
    }
    // The other tabs and the neighbours were read once each: task 1's
    // comments (the user's), thread and subtasks; four tabs of 2 and 3.
    let others: Vec<_> = log.iter().filter(|(_, r)| !task_one_read(r)).collect();
    assert_eq!(others.len(), 11, "{others:?}");
}
