//! Passing rows in transit reads nothing: `G` following pages, a held `j`
//! or `ctrl-d` show each row from what is known but read, open and mark
//! seen only the row the cursor rests on. Time is fed to `on_tick`.

use super::*;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn page(from: i64, per: i64, cursor: Option<String>) -> Result<Reply, ApiError> {
    Ok(Reply::Page(TaskPage {
        items: (from..from + per)
            .map(|i| TaskItem::Task(Box::new(task(i))))
            .collect(),
        cursor,
    }))
}

/// The number of the task a read is about.
fn read_task(r: &ApiRequest) -> Option<i64> {
    let r = match r {
        ApiRequest::Prefetch(inner) => &**inner,
        r => r,
    };
    let id = match r {
        ApiRequest::GetTask { id }
        | ApiRequest::Comments { id }
        | ApiRequest::Thread { id }
        | ApiRequest::Subtasks { id }
        | ApiRequest::GetSharing { id } => id,
        _ => return None,
    };
    Some(id[id.len() - 12..].parse().unwrap())
}

fn read_tasks(fx: &[Effect]) -> BTreeSet<i64> {
    reqs(fx).iter().filter_map(read_task).collect()
}

/// The tasks `:recent` says were opened, and those marked seen.
fn opened_and_seen(s: &State) -> (BTreeSet<i64>, BTreeSet<i64>) {
    let n = |id: &str| id[id.len() - 12..].parse::<i64>().unwrap();
    (
        s.local.recent.iter().map(|r| n(&r.task_id)).collect(),
        s.local.seen.keys().map(|id| n(id)).collect(),
    )
}

/// The cursor rests: the tick after the last move dates it, a later one
/// finds it still. Returns what that asks, the loop's read-ahead included.
fn rest(s: &mut State, at: Instant) -> Vec<Effect> {
    let mut fx = s.on_tick(at).0;
    fx.extend(s.on_tick(at + Duration::from_secs(1)).0);
    fx.extend(s.plan_prefetch());
    fx
}

#[test]
fn g_following_a_hundred_pages_reads_and_opens_only_the_row_it_rests_on() {
    let mut s = loaded(0);
    let mut fx = s.reload_list(false);
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        page(1, 100, Some("c1".into())),
    );
    // Task 1 is current and rested on (read, seen; not opened: the user
    // did not open it, #26 §9).
    let t0 = Instant::now() + Duration::from_secs(10);
    rest(&mut s, t0);
    let before = opened_and_seen(&s);
    assert_eq!(before, (BTreeSet::new(), BTreeSet::from([1])));

    let mut all = s.on_key(key('G'));
    all.extend(s.plan_prefetch());
    for p in 1..100 {
        let next = (p + 1 < 100).then(|| format!("c{}", p + 1));
        fx = s.next_page_if_any(std::mem::take(&mut all).into_iter().collect());
        let got = answer_where(
            &mut s,
            &fx,
            |r| matches!(r, ApiRequest::ListPage { .. }),
            page(p * 100 + 1, 100, next),
        );
        // The row under the cursor shows at once, from its list row.
        let d = s.detail.as_ref().unwrap();
        assert_eq!(Some(d.task_id.as_str()), s.list.selected_id());
        assert!(d.task.is_some());
        all.extend(got);
        all.extend(s.plan_prefetch());
        assert_eq!(
            read_tasks(&all),
            BTreeSet::new(),
            "page {p}: a passed row read"
        );
    }
    assert!(s.list.end_reached);
    assert_eq!(s.list.selected, 9_999);
    assert_eq!(
        opened_and_seen(&s),
        before,
        "passed rows are neither opened nor seen"
    );

    // At rest: the last row is read, opened and seen, and its neighbour
    // read ahead — a handful of tasks.
    let fx = rest(&mut s, t0 + Duration::from_secs(5));
    let read = read_tasks(&fx);
    assert!(read.contains(&10_000) && read.len() <= 3, "{read:?}");
    assert!(reqs(&fx)
        .iter()
        .any(|r| *r == ApiRequest::GetTask { id: tid(10_000) }
            || *r == ApiRequest::Prefetch(Box::new(ApiRequest::GetTask { id: tid(10_000) }))));
    let (opened, seen) = opened_and_seen(&s);
    assert_eq!(opened, BTreeSet::new(), "resting is not opening (:recent)");
    assert!(seen.contains(&10_000) && seen.len() == 2, "{seen:?}");
}

/// Issue 42 §2: `G` over a slow service — each page arriving later than
/// `SETTLE` after the one before — reads none of the rows it waits on while
/// the next page is on its way (it read one task's details per slow page):
/// the cursor is carried, not resting, until the last page is in.
#[test]
fn g_over_a_slow_service_reads_nothing_while_pages_are_on_their_way() {
    let mut s = loaded(0);
    let fx = s.reload_list(false);
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        page(1, 100, Some("c1".into())),
    );
    let mut t = Instant::now() + Duration::from_secs(10);
    rest(&mut s, t);
    let mut all = s.on_key(key('G'));
    all.extend(s.plan_prefetch());
    for p in 1..20 {
        let next = (p + 1 < 20).then(|| format!("c{}", p + 1));
        let fx = s.next_page_if_any(std::mem::take(&mut all).into_iter().collect());
        // The page takes two seconds: the cursor stays put meanwhile.
        t += Duration::from_secs(2);
        let waited = rest(&mut s, t);
        assert_eq!(
            read_tasks(&waited),
            BTreeSet::new(),
            "page {p}: the row waited on was read: {:?}",
            reqs(&waited)
        );
        assert!(
            s.detail.as_ref().unwrap().passing,
            "page {p}: still passing"
        );
        all.extend(answer_where(
            &mut s,
            &fx,
            |r| matches!(r, ApiRequest::ListPage { .. }),
            page(p * 100 + 1, 100, next),
        ));
        all.extend(s.plan_prefetch());
        assert_eq!(read_tasks(&all), BTreeSet::new(), "page {p}: a row read");
    }
    assert!(s.list.end_reached);
    assert_eq!(s.list.selected, 1_999);
    // The last page is in: the cursor rests on the last row, read then.
    let fx = rest(&mut s, t + Duration::from_secs(2));
    let read = read_tasks(&fx);
    assert!(read.contains(&2_000) && read.len() <= 3, "{read:?}");
}

#[test]
fn a_held_key_reads_the_first_row_and_the_one_it_rests_on_not_those_between() {
    for held in [key('j'), ctrl('d')] {
        let mut s = loaded(400);
        s.list_height = 20;
        let t0 = Instant::now() + Duration::from_secs(10);
        rest(&mut s, t0);
        // The first press after a rest is deliberate: read at once.
        let mut fx = s.on_key(held);
        fx.extend(s.plan_prefetch());
        let first = s.list.selected as i64 + 1;
        assert!(read_tasks(&fx).contains(&first), "{:?}", reqs(&fx));
        // Repeats, each dated by a tick, come before the cursor rests.
        let mut passed = Vec::new();
        for _ in 0..15 {
            s.on_tick(t0);
            let mut fx = s.on_key(held);
            fx.extend(s.plan_prefetch());
            assert_eq!(read_tasks(&fx), BTreeSet::new());
            let d = s.detail.as_ref().unwrap();
            assert_eq!(Some(d.task_id.as_str()), s.list.selected_id());
            assert!(d.passing && d.task.is_some(), "shown from its row");
            passed.push(s.list.selected as i64 + 1);
        }
        let last = *passed.last().unwrap();
        let (opened, seen) = opened_and_seen(&s);
        assert_eq!(opened, BTreeSet::new(), "moving is not opening (:recent)");
        assert_eq!(seen, BTreeSet::from([1, first]));
        let fx = rest(&mut s, t0 + Duration::from_secs(5));
        let read = read_tasks(&fx);
        assert!(read.contains(&last), "{read:?}");
        assert!(
            read.iter().all(|n| (last - 1..=last + 2).contains(n)),
            "only the rested row and its neighbours: {read:?}"
        );
        let (opened, seen) = opened_and_seen(&s);
        assert_eq!(opened, BTreeSet::new());
        assert_eq!(seen, BTreeSet::from([1, first, last]));
        assert!(!s.detail.as_ref().unwrap().passing);
    }
}

#[test]
fn a_passed_row_keeps_its_changed_mark_and_enter_opens_it_at_once() {
    let mut s = loaded(30);
    let t0 = Instant::now() + Duration::from_secs(10);
    rest(&mut s, t0);
    s.list.changed.insert(tid(3));
    s.on_key(key('j'));
    s.on_tick(t0);
    s.on_key(key('j'));
    assert_eq!(s.list.selected_id(), Some(tid(3).as_str()));
    assert!(s.list.changed.contains(&tid(3)), "passing hides no mark");
    let mut fx = s.on_key(code(KeyCode::Enter));
    fx.extend(s.plan_prefetch());
    assert!(
        read_tasks(&fx).contains(&3),
        "Enter reads the passed task now: {:?}",
        reqs(&fx)
    );
    assert!(!s.list.changed.contains(&tid(3)));
    assert!(opened_and_seen(&s).0.contains(&3));
}

/// #26 §9: `:recent` lists the tasks opened (`enter`, a jump) or acted on,
/// never the rows the cursor rested on or passed.
#[test]
fn recent_lists_what_was_opened_or_done_not_the_rows_the_cursor_passed() {
    let mut s = loaded(6);
    let t0 = Instant::now() + Duration::from_secs(10);
    rest(&mut s, t0);
    for (i, k) in ['j', 'j', 'j'].into_iter().enumerate() {
        s.on_key(key(k));
        rest(&mut s, t0 + Duration::from_secs(2 * (i as u64 + 1)));
    }
    assert_eq!(s.list.selected, 3);
    assert_eq!(
        opened_and_seen(&s).0,
        BTreeSet::new(),
        "rested on, not opened"
    );
    // Enter opens #4; `:open #2` jumps to #2; `p` on #6 acts on it.
    s.on_key(code(KeyCode::Enter));
    assert_eq!(opened_and_seen(&s).0, BTreeSet::from([4]));
    palette(&mut s, "open #2");
    assert_eq!(opened_and_seen(&s).0, BTreeSet::from([2, 4]));
    s.on_key(code(KeyCode::Esc));
    s.on_key(key('G'));
    let fx = palette(&mut s, "priority low");
    let mut low = task(6);
    low.priority = Priority::Low;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(low))));
    assert_eq!(opened_and_seen(&s).0, BTreeSet::from([2, 4, 6]));
    let labels: Vec<(String, String)> = s
        .local
        .recent
        .iter()
        .map(|r| (r.label.clone(), r.action.clone()))
        .collect();
    assert_eq!(
        labels[0],
        ("#6".into(), "priority → low".into()),
        "{labels:?}"
    );
    assert_eq!(labels[1].0, "#2");
}
