//! The periodic refresh does not grow with what is loaded: one request per
//! period (the first page and the pages in view in turn), pages coming into
//! view unchecked are asked again, a page's answer replaces its rows in
//! place, rows not checked for a while are marked, `r` walks everything.

use super::*;
use std::time::{Duration, Instant};

const EVERY: Duration = Duration::from_secs(60);

fn page(ns: impl IntoIterator<Item = i64>, cursor: Option<&str>) -> Result<Reply, ApiError> {
    Ok(Reply::Page(TaskPage {
        items: ns
            .into_iter()
            .map(|i| TaskItem::Task(Box::new(task(i))))
            .collect(),
        cursor: cursor.map(str::to_string),
    }))
}

/// A list walked over `pages` pages of `per` rows (tasks 1, 2, …), the
/// cursor on the first row, 10 rows in view.
fn walked(pages: i64, per: i64) -> State {
    let mut s = loaded(0);
    s.list_height = 10;
    let mut fx = s.reload_list(false);
    for p in 0..pages {
        let rows = p * per + 1..=(p + 1) * per;
        let next = (p + 1 < pages).then(|| format!("c{}", p + 1));
        answer_where(
            &mut s,
            &fx,
            |r| matches!(r, ApiRequest::ListPage { .. }),
            page(rows, next.as_deref()),
        );
        if p + 1 < pages {
            fx = vec![s.next_page()];
        }
    }
    assert_eq!(s.list.items.len() as i64, pages * per);
    assert_eq!(s.list.pages.len() as i64, pages);
    assert!(s.list.end_reached);
    s
}

/// The list requests in `fx`: (page asked again or None for the walk, cursor).
fn list_reqs(fx: &[Effect]) -> Vec<(Option<usize>, Option<String>)> {
    reqs(fx)
        .into_iter()
        .filter_map(|r| match r {
            ApiRequest::RefreshPage { page, cursor, .. } => Some((Some(page), cursor)),
            ApiRequest::ListPage { cursor, .. } => Some((None, cursor)),
            _ => None,
        })
        .collect()
}

fn ids(s: &State) -> Vec<i64> {
    s.list
        .items
        .iter()
        .filter_map(|i| i.task().and_then(|t| t.task_number))
        .collect()
}

/// A periodic refresh `n` periods from now.
fn tick(s: &mut State, n: u32) -> Vec<Effect> {
    s.on_tick(Instant::now() + EVERY * n + Duration::from_secs(1))
        .0
}

#[test]
fn a_periodic_refresh_is_one_request_with_one_page_or_ten_thousand_rows() {
    let mut one = walked(1, 50);
    assert_eq!(list_reqs(&tick(&mut one, 1)), vec![(Some(0), None)]);

    let mut many = walked(200, 50);
    assert_eq!(many.list.items.len(), 10_000);
    // At the top: the first page is the page in view.
    assert_eq!(list_reqs(&tick(&mut many, 1)), vec![(Some(0), None)]);

    // At the bottom: the pages in view and the first take turns, one
    // request a period, never a walk.
    let mut many = walked(200, 50);
    many.on_key(key('G'));
    let mut asked = Vec::new();
    for n in 1..=4 {
        let fx = tick(&mut many, n);
        let r = list_reqs(&fx);
        assert_eq!(r.len(), 1, "one request per period: {r:?}");
        let (Some(k), cursor) = r[0].clone() else {
            panic!("a page asked again, not a walk: {r:?}")
        };
        let want = if k == 0 { None } else { Some(format!("c{k}")) };
        assert_eq!(
            cursor, want,
            "page {k} is asked with the cursor that first asked it"
        );
        answer_where(
            &mut many,
            &fx,
            |r| matches!(r, ApiRequest::RefreshPage { .. }),
            page(k as i64 * 50 + 1..=(k as i64 + 1) * 50, want.as_deref()),
        );
        asked.push(k);
    }
    // The one checked longest ago first: the first page (walked first).
    assert_eq!(
        asked,
        [0, 199, 0, 199],
        "the first page and the page in view in turn"
    );
}

#[test]
fn a_row_of_the_same_instant_written_otherwise_is_not_marked_changed() {
    let mut s = walked(3, 5);
    let fx = vec![s.refresh_page(1)];
    // Page 2 again: #7 at 2026-11-01T10:00:00Z, written with a fraction and
    // an offset; #6 really newer.
    let mut same = task(7);
    same.updated_at = Some("2026-11-01T05:00:00.000-05:00".into());
    let mut newer = task(6);
    newer.updated_at = Some("2026-11-01T10:00:00.5Z".into());
    let items = [newer, same, task(8), task(9), task(10)]
        .into_iter()
        .map(|t| TaskItem::Task(Box::new(t)))
        .collect();
    answer(
        &mut s,
        &fx,
        Ok(Reply::Page(TaskPage {
            items,
            cursor: Some("c2".into()),
        })),
    );
    assert!(s.list.changed.contains(&tid(6)));
    assert!(!s.list.changed.contains(&tid(7)));
}

#[test]
fn a_page_asked_again_replaces_its_rows_in_place_and_keeps_the_cursor() {
    let mut s = walked(3, 5);
    // The cursor on #12 (page 2), on the screen's third line.
    s.list.offset = 9;
    s.move_list_cursor(11);
    assert_eq!(s.list.selected_id(), Some(tid(12).as_str()));
    let fx = vec![s.refresh_page(1)];
    // Page 2 now: #6 renamed, #16 new, #7, #9, #11 (moved here); #8 and
    // #10 are no longer on it.
    let mut renamed = task(6);
    renamed.title = "Renamed".into();
    renamed.updated_at = Some("2026-11-02T10:00:00Z".into());
    let items = [renamed, task(16), task(7), task(9), task(11)]
        .into_iter()
        .map(|t| TaskItem::Task(Box::new(t)))
        .collect();
    answer(
        &mut s,
        &fx,
        Ok(Reply::Page(TaskPage {
            items,
            cursor: Some("c2".into()),
        })),
    );
    assert_eq!(
        ids(&s),
        vec![1, 2, 3, 4, 5, 6, 16, 7, 9, 11, 8, 10, 12, 13, 14, 15]
    );
    let i6 = s.list.position(&tid(6)).unwrap();
    assert_eq!(s.list.items[i6].task().unwrap().title.raw(), "Renamed");
    assert!(
        s.list.changed.contains(&tid(6)),
        "the changed row is marked"
    );
    assert!(!s.list.changed.contains(&tid(7)));
    // The cursor stays on #12, on the same line of the screen.
    assert_eq!(s.list.selected_id(), Some(tid(12).as_str()));
    assert_eq!(s.list.selected - s.list.offset, 2);
    // #8 and #10 belong to no page now: marked not recently checked.
    let now = Instant::now();
    assert!(s.row_unchecked(&tid(8), now));
    assert!(s.row_unchecked(&tid(10), now));
    assert!(!s.row_unchecked(&tid(16), now));
    assert!(!s.row_unchecked(&tid(11), now));
    assert_eq!(
        s.list.page_of[tid(11).as_str()],
        1,
        "#11 moved to the page that lists it"
    );
}

#[test]
fn a_page_answer_never_replaces_a_newer_row() {
    let mut s = walked(2, 5);
    let fx = vec![s.refresh_page(1)];
    // Our PATCH of #7 is answered after the page was asked for.
    s.move_list_cursor(6);
    let patch = palette(&mut s, "priority low");
    let mut patched = task(7);
    patched.priority = Priority::Low;
    patched.updated_at = Some("2026-11-05T10:00:00Z".into());
    answer(&mut s, &patch, Ok(Reply::Task(Box::new(patched))));
    answer(&mut s, &fx, page(6..=10, None));
    let i = s.list.position(&tid(7)).unwrap();
    assert_eq!(s.list.items[i].task().unwrap().priority, Priority::Low);
}

#[test]
fn rows_far_from_the_screen_are_marked_and_asked_when_they_come_into_view() {
    let mut s = walked(4, 20);
    let long_ago = Instant::now() - EVERY * 5;
    s.list.pages[2].checked = long_ago;
    let now = Instant::now();
    assert!(s.row_unchecked(&tid(45), now), "page 3's rows are marked");
    assert!(!s.row_unchecked(&tid(5), now));
    // Moving within the first page asks nothing again.
    assert!(list_reqs(&s.move_list_cursor(5)).is_empty());
    // Page 3 comes into view: it is asked again, once.
    let fx = s.move_list_cursor(40);
    assert_eq!(list_reqs(&fx), vec![(Some(2), Some("c2".into()))]);
    assert!(list_reqs(&s.move_list_cursor(1)).is_empty(), "not twice");
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::RefreshPage { .. }),
        page(41..=60, Some("c3")),
    );
    assert!(!s.row_unchecked(&tid(45), Instant::now()), "checked now");
}

#[test]
fn with_the_periodic_refresh_off_nothing_is_marked_or_asked() {
    let mut s = walked(3, 20);
    s.refresh_every = None;
    s.list.pages[2].checked = Instant::now() - EVERY * 10;
    assert!(!s.row_unchecked(&tid(45), Instant::now()));
    assert!(list_reqs(&s.move_list_cursor(50)).is_empty());
    assert!(list_reqs(&tick(&mut s, 5)).is_empty());
}

#[test]
fn r_still_walks_the_whole_list() {
    let mut s = walked(3, 20);
    let fx = s.on_key(key('r'));
    assert_eq!(list_reqs(&fx), vec![(None, None)]);
    // The walk refills what was loaded.
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        page(1..=20, Some("c1")),
    );
    assert_eq!(list_reqs(&fx), vec![(None, Some("c1".into()))]);
}

#[test]
fn a_failed_check_keeps_the_rows_and_the_page_is_asked_again() {
    let mut s = walked(2, 20);
    let fx = tick(&mut s, 1);
    assert_eq!(list_reqs(&fx), vec![(Some(0), None)]);
    answer(
        &mut s,
        &fx,
        Err(ApiError::Status {
            status: 500,
            message: "boom".into(),
        }),
    );
    assert_eq!(ids(&s), (1..=40).collect::<Vec<_>>());
    assert!(!s.list.pages[0].asking);
    assert_eq!(list_reqs(&tick(&mut s, 2)), vec![(Some(0), None)]);
}

#[test]
fn the_last_page_asked_again_lets_the_walk_go_on() {
    let mut s = walked(2, 20);
    s.move_list_cursor(39);
    let fx = vec![s.refresh_page(1)];
    // New tasks arrived at the end: the page now has a cursor.
    answer(&mut s, &fx, page(21..=40, Some("more")));
    assert!(!s.list.end_reached);
    assert_eq!(s.list.cursor.as_deref(), Some("more"));
    let fx = s.fetch_ahead();
    assert_eq!(list_reqs(&fx), vec![(None, Some("more".into()))]);
}

#[test]
fn an_answer_for_an_older_walk_changes_nothing() {
    let mut s = walked(2, 20);
    let fx = vec![s.refresh_page(0)];
    s.on_key(key('r'));
    answer(&mut s, &fx, page([99], None));
    assert!(s.list.position(&tid(99)).is_none());
}

#[test]
fn after_a_new_walk_failed_the_old_walks_pages_are_never_asked_again() {
    let mut s = walked(3, 20);
    // Another view; its first page fails.
    let fx = s.on_key(key('2'));
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Err(ApiError::Status {
            status: 500,
            message: "boom".into(),
        }),
    );
    // The periodic refresh walks the view anew: no page of the old walk
    // (another query's cursor) is asked under the new one.
    assert_eq!(list_reqs(&tick(&mut s, 1)), vec![(None, None)]);
}

#[test]
fn a_page_asked_again_keeps_the_row_index_exact_whatever_moved() {
    let mut s = walked(4, 10);
    assert!(s.list.index_exact());
    // (page asked again, what it lists now, the list's order after)
    let cases: [(usize, Vec<i64>); 4] = [
        // The same rows: replaced in place.
        (1, (11..=20).collect()),
        // A row of page 1 moves here and a new one comes.
        (2, vec![21, 3, 41, 22, 23, 24, 25, 26, 27, 28, 29, 30]),
        // A row of the last page moves up to the first.
        (0, vec![1, 2, 40, 4, 5, 6, 7, 8, 9, 10]),
        // The last page lists fewer rows: the others stay after them.
        (3, vec![31, 32]),
    ];
    for (k, listed) in cases {
        let fx = vec![s.refresh_page(k)];
        answer(&mut s, &fx, page(listed.clone(), None));
        assert!(s.list.index_exact(), "after page {k} listed {listed:?}");
        for (i, item) in s.list.items.iter().enumerate() {
            assert_eq!(s.list.position(item.id().unwrap()), Some(i));
        }
        assert_eq!(s.list.position(&tid(999)), None);
    }
    assert!(ids(&s).contains(&41));
}

/// `e2e_freeze`'s flaky step (CI under load: after an edit's answer, `k`
/// on #2 did not move the row within 3 s) suggested that an answer asked
/// for before a key puts the cursor back where it was when asked. It does
/// not: the task under the cursor is taken when the answer is applied. A
/// page asked again, the edit's answer and `r`'s walk, each answered after
/// `k` and `j` moved the cursor, leave it where the keys put it.
#[test]
fn answers_asked_for_before_a_key_never_undo_its_move() {
    let mut s = walked(1, 10);
    s.move_list_cursor(1);
    assert_eq!(s.list.selected_id(), Some(tid(2).as_str()));
    // Out together: a page asked again, an edit of #2 and `r`'s walk.
    let again = vec![s.refresh_page(0)];
    let edit = palette(&mut s, "status completed");
    assert!(!reqs(&edit).is_empty(), "the edit goes out");
    let walk = s.refresh();
    // `k` then `j` then `j`: the cursor on #3.
    s.on_key(key('k'));
    assert_eq!(s.list.selected_id(), Some(tid(1).as_str()));
    s.on_key(key('j'));
    s.on_key(key('j'));
    let on = |s: &State| s.list.selected_id().map(str::to_string);
    assert_eq!(on(&s).as_deref(), Some(tid(3).as_str()));

    let mut done = task(2);
    done.status = Status::Completed;
    done.updated_at = Some("2026-11-02T10:00:00Z".into());
    answer_where(
        &mut s,
        &edit,
        |r| matches!(r, ApiRequest::Patch { .. }),
        Ok(Reply::Task(Box::new(done))),
    );
    assert_eq!(
        on(&s).as_deref(),
        Some(tid(3).as_str()),
        "the edit's answer"
    );
    answer(&mut s, &again, page(1..=10, None));
    assert_eq!(on(&s).as_deref(), Some(tid(3).as_str()), "the page again");
    answer_where(
        &mut s,
        &walk,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        page(1..=10, None),
    );
    assert_eq!(on(&s).as_deref(), Some(tid(3).as_str()), "the walk");
    // And `k` still moves it.
    s.on_key(key('k'));
    assert_eq!(on(&s).as_deref(), Some(tid(2).as_str()));
}
