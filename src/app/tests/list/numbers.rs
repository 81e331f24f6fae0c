//! `:open #N` through the store's number index: the store is asked first;
//! a number it knows opens by id (the requests of `:open UUID`, nothing
//! searched nor walked); one it does not know is searched; a late answer
//! never steals the screen; a wrong index is corrected by the service's
//! answer; every listing's rows are indexed.

use super::*;
use crate::app::tests::local::store::with_store;
use crate::store::worker::{FoundNumber, StoreAnswer, StoreCmd};
use crate::store::{Numbered, StoredDetail};

fn asked_store(s: &State, n: i64) -> bool {
    s.local
        .out
        .iter()
        .any(|c| matches!(c, StoreCmd::FindNumber { number, first: true } if *number == n))
}

fn row(n: i64) -> Numbered {
    Numbered {
        number: n,
        display_id: format!("#{n}"),
        id: tid(n),
        title: format!("Task number {n}"),
    }
}

/// The store knows `n` (with `stored` of it).
fn known(n: i64, stored: StoredDetail) -> StoreAnswer {
    StoreAnswer::Number {
        number: n,
        first: true,
        found: Some(Box::new(FoundNumber {
            row: row(n),
            detail: stored,
        })),
    }
}

fn searches(r: &[ApiRequest]) -> bool {
    r.iter().any(|r| {
        matches!(
            r,
            ApiRequest::FindByNumber { .. } | ApiRequest::ListPage { .. }
        )
    })
}

#[test]
fn a_number_the_store_knows_opens_by_id_with_the_requests_of_open_uuid() {
    let mut s = with_store(loaded(3));
    let fx = palette(&mut s, "open #500");
    assert!(reqs(&fx).is_empty(), "the store is asked first: {fx:?}");
    assert!(asked_store(&s, 500), "{:?}", s.local.out);
    assert_eq!(s.detail.as_ref().unwrap().task_id, "#500");
    // Nothing lands on the task current before while the store is asked.
    s.on_key(key('c'));
    assert!(!matches!(s.overlay, Overlay::Compose(_)));
    let fx = s.on_store(known(500, StoredDetail::default()));
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(500));
    assert!(
        crate::ui::detail_header(&s).contains("#500 Task number 500"),
        "the stored title while it loads: {}",
        crate::ui::detail_header(&s)
    );
    let mut opened = reqs(&fx);
    opened.extend(reqs(&s.plan_prefetch()));
    // The same as opening it by its id.
    let mut by_id = with_store(loaded(3));
    let mut expected = reqs(&palette(&mut by_id, &format!("open {}", tid(500))));
    expected.extend(reqs(&by_id.plan_prefetch()));
    assert_eq!(opened, expected);
    assert_eq!(opened[0], ApiRequest::GetTask { id: tid(500) });
    assert!(!searches(&opened), "{opened:?}");
    // Its answer has the number: shown, nothing more asked.
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(task(500)))),
    );
    assert!(!searches(&reqs(&fx)), "{fx:?}");
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task.as_ref().unwrap().title.raw(), "Task number 500");
    assert!(d.by_number.is_none(), "checked");
}

#[test]
fn what_the_store_kept_of_the_task_is_shown_at_once_and_read_again() {
    let mut s = with_store(loaded(3));
    palette(&mut s, "open #500");
    let mut old = task(500);
    old.title = "As stored".into();
    let fx = s.on_store(known(
        500,
        StoredDetail {
            task: Some(crate::app::local::cache::stored(&old, true)),
            fetched_at: 100,
            tabs: vec![],
        },
    ));
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task.as_ref().unwrap().title.raw(), "As stored");
    assert_eq!(reqs(&fx), vec![ApiRequest::GetTask { id: tid(500) }]);
    let fx = answer(&mut s, &fx, Ok(Reply::Task(Box::new(task(500)))));
    assert!(reqs(&fx).is_empty());
    let d = s.detail.as_ref().unwrap();
    assert_eq!(d.task.as_ref().unwrap().title.raw(), "Task number 500");
}

#[test]
fn a_number_the_store_does_not_know_is_searched_on_the_service() {
    let mut s = with_store(loaded(3));
    palette(&mut s, "open #500");
    let fx = s.on_store(StoreAnswer::Number {
        number: 500,
        first: true,
        found: None,
    });
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::FindByNumber {
            number: 500,
            limit: 100
        }]
    );
    assert_eq!(s.detail.as_ref().unwrap().task_id, "#500");
}

#[test]
fn a_late_store_answer_after_moving_on_changes_nothing() {
    let mut s = with_store(loaded(3));
    assert!(reqs(&palette(&mut s, "open #500")).is_empty());
    // The user moves on before the store answers.
    palette(&mut s, "open #2");
    let status = s.status.clone();
    let fx = s.on_store(known(500, StoredDetail::default()));
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
    assert_eq!(s.status, status);
    // Likewise for an answer that it is not stored.
    assert!(reqs(&palette(&mut s, "open #600")).is_empty());
    palette(&mut s, "open #3");
    let fx = s.on_store(StoreAnswer::Number {
        number: 600,
        first: true,
        found: None,
    });
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(3));
}

#[test]
fn a_task_that_no_longer_has_the_number_sends_the_search() {
    // Renumbered on the service.
    let mut s = with_store(loaded(3));
    palette(&mut s, "open #500");
    let fx = s.on_store(known(500, StoredDetail::default()));
    let mut moved = task(500);
    moved.task_number = Some(501);
    moved.display_id = "#501".into();
    let fx = answer(&mut s, &fx, Ok(Reply::Task(Box::new(moved))));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::FindByNumber {
            number: 500,
            limit: 100
        }]
    );
    assert_eq!(s.detail.as_ref().unwrap().task_id, "#500");
    // Gone (404): the index forgets it, and the search goes.
    let mut s = with_store(loaded(3));
    palette(&mut s, "open #500");
    let fx = s.on_store(known(500, StoredDetail::default()));
    s.local.out.clear();
    let fx = answer(
        &mut s,
        &fx,
        Err(ApiError::NotFound {
            what: "task".into(),
            message: String::new(),
        }),
    );
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::FindByNumber {
            number: 500,
            limit: 100
        }]
    );
    assert!(s.local.out.contains(&StoreCmd::ForgetNumber {
        number: 500,
        id: tid(500)
    }));
    assert_eq!(s.detail.as_ref().unwrap().task_id, "#500");
    assert!(s.detail.as_ref().unwrap().error.is_none());
}

#[test]
fn a_task_known_in_memory_opens_by_its_number_without_asking_anyone() {
    let mut s = loaded(3);
    let fx = palette(&mut s, &format!("open {}", tid(900)));
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(task(900)))));
    palette(&mut s, "open #2");
    let fx = palette(&mut s, "open #900");
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(900));
    assert!(reqs(&fx).is_empty(), "read this session: {fx:?}");
}

#[test]
fn a_store_that_fails_while_asked_hands_the_number_to_the_service() {
    let mut s = with_store(loaded(3));
    palette(&mut s, "open #500");
    let fx = s.on_store(StoreAnswer::Failed("the local store failed".into()));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::FindByNumber {
            number: 500,
            limit: 100
        }]
    );
}

fn indexed(s: &State) -> Vec<i64> {
    s.local
        .out
        .iter()
        .filter_map(|c| match c {
            StoreCmd::PutNumbers(rows) => Some(rows.iter().map(|r| r.number)),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn the_rows_of_every_listing_go_into_the_number_index() {
    let mut s = with_store(loaded(3));
    let page = |r: std::ops::RangeInclusive<i64>| whole_page(r);
    // The list's walk (a refresh).
    refresh_answered(&mut s, page(1..=3));
    assert_eq!(indexed(&s), [1, 2, 3]);
    // Subtasks, a read ahead.
    s.local.out.clear();
    s.on_api(ApiResult {
        ticket: 9000,
        req: ApiRequest::Prefetch(Box::new(ApiRequest::Subtasks { id: tid(2) })),
        result: Ok(Reply::Items(vec![TaskItem::Task(Box::new(task(40)))])),
    });
    assert_eq!(indexed(&s), [40]);
    // A view's count.
    s.local.out.clear();
    s.on_api(ApiResult {
        ticket: 9001,
        req: ApiRequest::ViewCount {
            view: 0,
            query: Default::default(),
            limit: 50,
        },
        result: page(60..=61),
    });
    assert_eq!(indexed(&s), [60, 61]);
    // The walk of `:open #N`: every row it read.
    s.local.out.clear();
    palette(&mut s, "open #70");
    let fx = s.on_store(StoreAnswer::Number {
        number: 70,
        first: true,
        found: None,
    });
    answer(
        &mut s,
        &fx,
        Ok(Reply::Found(
            Some(Box::new(task(70))),
            (68..=70).map(row).collect(),
        )),
    );
    assert_eq!(indexed(&s), [68, 69, 70]);
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(70));
}

/// Simulator seed 3738905874 (step 4945): `:open #5`, the composer opened
/// on the task while its read was out, then the read answered 404: the
/// detail went to `#5` (looking for it) from under the composer, which
/// stayed on the gone task. A composer (or the sharing editor) bound to
/// the task keeps the detail on it; the answer goes on as usual.
#[test]
fn an_answer_for_a_number_never_moves_the_detail_from_under_the_composer() {
    for gone in [true, false] {
        let mut s = with_store(loaded(3));
        palette(&mut s, "open #500");
        // What the store kept of it is shown: the composer opens on it.
        let fx = s.on_store(known(
            500,
            StoredDetail {
                task: Some(crate::app::local::cache::stored(&task(500), true)),
                fetched_at: 100,
                tabs: vec![],
            },
        ));
        s.on_key(key('c'));
        assert!(
            matches!(&s.overlay, Overlay::Compose(c) if c.task_id == tid(500)),
            "{:?}",
            s.status
        );
        s.local.out.clear();
        let result = if gone {
            Err(ApiError::NotFound {
                what: "task".into(),
                message: String::new(),
            })
        } else {
            let mut moved = task(500);
            moved.task_number = Some(501);
            moved.display_id = "#501".into();
            Ok(Reply::Task(Box::new(moved)))
        };
        let fx = answer_where(
            &mut s,
            &fx,
            |r| matches!(r, ApiRequest::GetTask { .. }),
            result,
        );
        assert!(!searches(&reqs(&fx)), "gone {gone}: {fx:?}");
        let d = s.detail.as_ref().unwrap();
        assert_eq!(d.task_id, tid(500), "gone {gone}");
        assert!(d.by_number.is_none());
        assert!(matches!(&s.overlay, Overlay::Compose(c) if c.task_id == tid(500)));
        if gone {
            assert_eq!(d.error.as_deref(), Some(crate::domain::words::GONE));
            assert!(s.local.out.contains(&StoreCmd::ForgetNumber {
                number: 500,
                id: tid(500)
            }));
        } else {
            assert_eq!(d.task.as_ref().unwrap().task_number, Some(501));
        }
    }
}
