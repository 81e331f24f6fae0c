//! The list walk: pages, search, views and filters, refresh.

use super::*;

#[test]
fn start_asks_identity_and_first_page_with_the_page_size() {
    let mut s = crate::app::new_state("h".into(), &Settings::default(), false);
    let r = reqs(&s.start());
    assert_eq!(r[0], ApiRequest::Me);
    match &r[1] {
        ApiRequest::ListPage {
            limit,
            cursor,
            query,
            ..
        } => {
            assert_eq!(*limit, 50);
            assert_eq!(*cursor, None);
            assert!(query.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn scrolling_fetches_ahead_with_the_same_limit_and_cursor() {
    let mut s = crate::app::new_state("h".into(), &Settings::default(), false);
    let fx = s.start();
    let page_req = reqs(&fx)[1].clone();
    let fx2 = s.on_api(ApiResult {
        ticket: 2,
        req: page_req,
        result: Ok(Reply::Page(TaskPage {
            items: (1..=50)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: Some("c2".into()),
        })),
    });
    // With 50 rows and a 20-row screen, nothing is fetched yet…
    assert!(reqs(&fx2).is_empty(), "{fx2:?}");
    assert!(!s.list.loading);
    // …until the selection nears the end.
    let mut fetched = Vec::new();
    for _ in 0..40 {
        fetched.extend(reqs(&s.on_key(key('j'))));
    }
    assert_eq!(fetched.len(), 1, "one page fetched ahead: {fetched:?}");
    match &fetched[0] {
        ApiRequest::ListPage { limit, cursor, .. } => {
            assert_eq!(*limit, 50);
            assert_eq!(cursor.as_deref(), Some("c2"));
        }
        other => panic!("{other:?}"),
    }
    // No duplicate fetch while that page is in flight.
    assert!(reqs(&s.on_key(key('j'))).is_empty());
}

#[test]
fn a_stale_page_is_dropped() {
    let mut s = loaded(3);
    let old_gen = s.list.gen;
    s.on_key(key('r'));
    let stale = ApiResult {
        ticket: 99,
        req: ApiRequest::ListPage {
            gen: old_gen,
            query: TaskQuery::default(),
            limit: 50,
            cursor: None,
        },
        result: Ok(Reply::Page(TaskPage {
            items: vec![TaskItem::Task(Box::new(task(77)))],
            cursor: None,
        })),
    };
    s.on_api(stale);
    assert!(s.list.position(&tid(77)).is_none());
}

#[test]
fn search_is_debounced_and_a_newer_query_supersedes() {
    let mut s = loaded(3);
    s.on_key(key('/'));
    let fx = type_str(&mut s, "nda");
    assert!(reqs(&fx).is_empty(), "no request per keystroke");
    let gen_before = s.list.gen;
    let (fx, _) = s.on_tick(std::time::Instant::now() + std::time::Duration::from_secs(1));
    let r = reqs(&fx);
    assert_eq!(r.len(), 1);
    match &r[0] {
        ApiRequest::ListPage { query, gen, .. } => {
            assert_eq!(query.query.as_deref(), Some("nda"));
            assert_eq!(*gen, gen_before + 1);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        r[0].slot(),
        Some("list"),
        "same slot: the worker aborts the older request"
    );
}

#[test]
fn quick_views_and_filters_shape_the_query() {
    let mut s = loaded(1);
    let r = reqs(&s.on_key(key('2')));
    match &r[0] {
        ApiRequest::ListPage { query, .. } => {
            assert_eq!(query.assigned_to.as_deref(), Some("u-me"))
        }
        other => panic!("{other:?}"),
    }
    let r = reqs(&palette(
        &mut s,
        "filter status=in_progress,completed priority=high tags=a",
    ));
    match &r[0] {
        ApiRequest::ListPage { query, .. } => {
            assert_eq!(query.status, vec!["in_progress", "completed"]);
            assert_eq!(query.priority.as_deref(), Some("high"));
            assert_eq!(query.tags, vec!["a"]);
            assert_eq!(
                query.assigned_to.as_deref(),
                Some("u-me"),
                "view Mine still applies"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(reqs(&palette(&mut s, "filter status=bogus")).is_empty());
}

#[test]
fn selection_stays_on_the_same_task_across_a_refresh() {
    let mut s = loaded(5);
    s.on_key(key('j'));
    s.on_key(key('j'));
    assert_eq!(s.list.selected_id(), Some(tid(3).as_str()));
    let fx = s.on_key(key('r'));
    // The service now returns the rows in another order, one changed.
    let mut changed = task(3);
    changed.updated_at = Some("2026-11-20T00:00:00Z".into());
    let items = vec![task(5), changed, task(1), task(2), task(4)]
        .into_iter()
        .map(|t| TaskItem::Task(Box::new(t)))
        .collect();
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Ok(Reply::Page(TaskPage {
            items,
            cursor: None,
        })),
    );
    assert_eq!(s.list.selected_id(), Some(tid(3).as_str()));
    assert_eq!(s.list.selected, 1);
    assert!(s.list.changed.contains(&tid(3)), "changed rows are marked");
    assert!(!s.list.changed.contains(&tid(5)));
}

#[test]
fn a_refresh_finds_the_selected_task_on_a_later_page() {
    let mut s = loaded(0);
    let first = reqs(&s.reload_list(false)).remove(0);
    s.on_api(ApiResult {
        ticket: 700,
        req: first,
        result: whole_page(1..=60),
    });
    s.select_row(55);
    let fx = s.refresh();
    let page1 = reqs(&fx).remove(0);
    // The service now puts task 56 on the second page.
    let fx = s.on_api(ApiResult {
        ticket: 701,
        req: page1,
        result: Ok(Reply::Page(TaskPage {
            items: (1..=50)
                .filter(|i| *i != 56)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: Some("p2".into()),
        })),
    });
    let page2 = reqs(&fx).remove(0);
    assert!(
        matches!(&page2, ApiRequest::ListPage { cursor: Some(c), .. } if c == "p2"),
        "refill continues"
    );
    s.on_api(ApiResult {
        ticket: 702,
        req: page2,
        result: Ok(Reply::Page(TaskPage {
            items: (51..=60)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: None,
        })),
    });
    assert_eq!(s.list.selected_id(), Some(tid(56).as_str()));
}

#[test]
fn a_superseded_request_is_no_longer_counted_in_flight() {
    let mut s = loaded(2);
    s.on_key(code(KeyCode::Enter));
    s.on_key(key(']')); // comments of task 1 requested
    s.on_key(key('[')); // back to overview
    s.focus = Focus::List;
    s.on_key(key('j'));
    s.on_key(code(KeyCode::Enter)); // task 2 opens on Overview
    s.on_key(key(']')); // comments of task 2: supersedes task 1's
    let comments: Vec<_> = s
        .inflight
        .values()
        .filter(|(_, slot)| *slot == Some("comments"))
        .collect();
    assert_eq!(comments.len(), 1);
}

#[test]
fn bottom_follows_new_pages_to_the_end() {
    let mut s = crate::app::new_state("h".into(), &Settings::default(), false);
    let fx = s.start();
    let first = reqs(&fx)[1].clone();
    let page = |from: i64, cursor: Option<&str>| {
        Ok(Reply::Page(TaskPage {
            items: (from..from + 50)
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: cursor.map(str::to_string),
        }))
    };
    let fx = s.on_api(ApiResult {
        ticket: 2,
        req: first,
        result: page(1, Some("c2")),
    });
    assert!(reqs(&fx).is_empty());
    let fx = s.on_key(key('G'));
    let next = reqs(&fx).remove(0);
    let fx = s.on_api(ApiResult {
        ticket: 3,
        req: next,
        result: page(51, Some("c3")),
    });
    assert_eq!(
        s.list.selected, 99,
        "the selection followed to the new bottom"
    );
    let next = reqs(&fx).remove(0);
    s.on_api(ApiResult {
        ticket: 4,
        req: next,
        result: page(101, None),
    });
    assert_eq!(s.list.selected, 149);
    assert!(s.list.end_reached && !s.list.to_bottom);
}

#[test]
fn a_repeated_cursor_ends_the_walk_and_no_task_shows_twice() {
    let mut s = crate::app::tests::loaded(0);
    let first = reqs(&s.reload_list(false)).remove(0);
    let page = |range: std::ops::RangeInclusive<i64>, cursor: &str| {
        Ok(Reply::Page(TaskPage {
            items: range.map(|i| TaskItem::Task(Box::new(task(i)))).collect(),
            cursor: Some(cursor.into()),
        }))
    };
    let fx = s.on_api(ApiResult {
        ticket: 900,
        req: first,
        result: page(1..=3, "c1"),
    });
    // The service sends the same page and cursor again.
    let next = reqs(&s.next_page_if_any(fx)).remove(0);
    let fx = s.on_api(ApiResult {
        ticket: 901,
        req: next,
        result: page(3..=5, "c2"),
    });
    let next = reqs(&s.next_page_if_any(fx)).remove(0);
    let fx = s.on_api(ApiResult {
        ticket: 902,
        req: next,
        result: page(4..=6, "c1"),
    });
    assert!(reqs(&fx).is_empty(), "the walk stops: {fx:?}");
    assert!(s.list.end_reached && !s.list.loading);
    assert!(s
        .list
        .error
        .as_ref()
        .unwrap()
        .contains("repeated a page cursor"));
    let ids: Vec<&str> = s.list.items.iter().filter_map(|i| i.id()).collect();
    let unique: std::collections::HashSet<&&str> = ids.iter().collect();
    assert_eq!(ids.len(), unique.len(), "no task twice: {ids:?}");
    assert_eq!(ids.len(), 5);
}

// The filter form (f).

#[test]
fn the_form_builds_every_filter() {
    let mut s = loaded(1);
    s.on_key(key('f'));
    assert!(matches!(s.overlay, Overlay::Filter(_)));
    s.on_key(key(' ')); // not_started
    s.on_key(key('j'));
    s.on_key(key('j'));
    s.on_key(key('j'));
    s.on_key(key(' ')); // completed
    s.on_key(key('j'));
    s.on_key(key(' ')); // priority urgent
    s.on_key(key(' ')); // high
    s.on_key(code(KeyCode::Tab));
    for c in "me".chars() {
        s.on_key(key(c));
    }
    s.on_key(code(KeyCode::Tab));
    s.on_key(code(KeyCode::Tab));
    s.on_key(code(KeyCode::Tab));
    for c in "nda,q4".chars() {
        s.on_key(key(c));
    }
    s.on_key(code(KeyCode::Tab));
    for c in "2026-12-01".chars() {
        s.on_key(key(c));
    }
    let fx = s.on_key(code(KeyCode::Enter));
    let r = reqs(&fx);
    match &r[..] {
        [ApiRequest::ListPage { query, .. }] => {
            assert_eq!(query.status, vec!["not_started", "completed"]);
            assert_eq!(query.priority.as_deref(), Some("high"));
            assert_eq!(query.assigned_to.as_deref(), Some("u-me"));
            assert_eq!(query.tags, vec!["nda", "q4"]);
            assert_eq!(query.complete_by_from.as_deref(), Some("2026-12-01"));
        }
        other => panic!("{other:?}"),
    }
    // Reopening shows the same filters.
    s.on_key(key('f'));
    match &s.overlay {
        Overlay::Filter(f) => {
            assert_eq!(f.status, [true, false, false, true]);
            assert_eq!(f.text[0].text, "me");
        }
        _ => panic!(),
    }
}

#[test]
fn a_bad_date_stays_in_the_form_with_a_message() {
    let mut s = loaded(1);
    s.on_key(key('f'));
    for _ in 0..9 {
        s.on_key(code(KeyCode::Tab));
    }
    for c in "whenever".chars() {
        s.on_key(key(c));
    }
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(reqs(&fx).is_empty());
    match &s.overlay {
        Overlay::Filter(f) => assert!(f.error.as_deref().unwrap_or("").contains("not a date")),
        _ => panic!("form stays open"),
    }
}

#[test]
fn a_row_is_found_by_its_index_and_a_list_the_index_does_not_cover_row_by_row() {
    let mut l = TaskList::default();
    let rows = |ns: std::ops::RangeInclusive<i64>| -> Vec<TaskItem> {
        ns.map(|i| TaskItem::Task(Box::new(task(i)))).collect()
    };
    l.extend_rows(rows(1..=50));
    l.extend_rows(rows(51..=100));
    assert_eq!(l.position(&tid(73)), Some(72));
    assert_eq!(l.position(&tid(101)), None);
    // Rows pushed past the index, or a row replaced in place: still found.
    l.items.push(TaskItem::Task(Box::new(task(101))));
    assert_eq!(l.position(&tid(101)), Some(100));
    l.reindex();
    l.items.swap(0, 1);
    assert_eq!(l.position(&tid(1)), Some(1));
    assert_eq!(l.position(&tid(2)), Some(0));
    l.extend_rows(rows(102..=102));
    assert_eq!(l.position(&tid(102)), Some(101));
    assert_eq!(l.position(&tid(1)), Some(1));
}
