//! Sequences a review found landing actions on the wrong task, dropping a
//! newer answer, or sending twice; each test failed before its fix.

use super::*;

fn shown(s: &State) -> String {
    s.detail
        .as_ref()
        .map(|d| d.task_id.clone())
        .unwrap_or_default()
}

fn page(range: std::ops::RangeInclusive<i64>, cursor: Option<&str>) -> Result<Reply, ApiError> {
    Ok(Reply::Page(TaskPage {
        items: range.map(|i| TaskItem::Task(Box::new(task(i)))).collect(),
        cursor: cursor.map(str::to_string),
    }))
}

#[test]
fn a_picker_never_runs_on_a_task_other_than_the_one_it_opened_for() {
    let mut s = loaded(3);
    let mut draft = task(1);
    draft.draft = true;
    let t = s.next_ticket;
    s.replace_task(draft, t);
    s.directory
        .learn_person("u-s1", "Sam Taylor", "s1@acme.test", None);
    s.directory
        .learn_person("u-s2", "Sam Taylor", "s2@acme.test", None);
    s.on_key(key('D'));
    let delete = s.on_key(key('y'));
    s.command("assign Sam Taylor");
    assert!(matches!(s.overlay, Overlay::Picker(_)));
    // The draft's deletion lands: another task becomes current.
    answer(&mut s, &delete, Ok(Reply::Deleted));
    assert_ne!(shown(&s), tid(1));
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(reqs(&fx).is_empty(), "nothing sent to another task: {fx:?}");
    assert!(s.status.as_ref().unwrap().1.contains("nothing sent"));
}

#[test]
fn a_newer_answer_that_travelled_slower_still_wins() {
    let mut s = loaded(1);
    let patch = palette(&mut s, "status completed");
    let read = s.refresh();
    // The service read the task before the PATCH committed; that answer
    // (sent later) arrives first.
    let mut old = task(1);
    old.updated_at = Some("2026-11-01T10:00:00Z".into());
    answer_where(
        &mut s,
        &read,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(old))),
    );
    let mut done = task(1);
    done.status = Status::Completed;
    done.updated_at = Some("2026-11-01T10:00:05Z".into());
    answer(&mut s, &patch, Ok(Reply::Task(Box::new(done))));
    assert_eq!(s.current_task().unwrap().status, Status::Completed);
}

#[test]
fn g_then_reading_the_detail_never_moves_the_current_task() {
    let mut s = loaded(0);
    let first = reqs(&s.reload_list(false)).remove(0);
    let mut fx = s.on_api(ApiResult {
        ticket: 500,
        req: first,
        result: page(1..=10, Some("p2")),
    });
    fx.extend(s.on_key(key('G')));
    s.on_key(code(KeyCode::Enter)); // reading #10's detail
    let current = shown(&s);
    let next = reqs(&fx)
        .into_iter()
        .find(|r| matches!(r, ApiRequest::ListPage { .. }))
        .expect("the next page");
    s.on_api(ApiResult {
        ticket: 501,
        req: next,
        result: page(11..=20, None),
    });
    assert_eq!(shown(&s), current);
}

#[test]
fn rejecting_a_draft_above_the_cursor_keeps_the_cursor_on_its_row() {
    let mut s = loaded(3);
    let mut draft = task(1);
    draft.draft = true;
    let t = s.next_ticket;
    s.replace_task(draft, t);
    s.on_key(key('D'));
    let delete = s.on_key(key('y'));
    s.select_row(2); // #3 is current
    answer(&mut s, &delete, Ok(Reply::Deleted));
    assert_eq!(s.list.selected_id(), Some(tid(3).as_str()));
    assert!(s.cursor_on_current());
}

#[test]
fn history_never_keeps_a_placeholder() {
    let mut s = loaded(3);
    palette(&mut s, "open #99"); // not loaded: looked for
    s.focus = Focus::List;
    s.on_key(key('j')); // moved on before the answer
    s.on_key(key('<'));
    assert!(
        !shown(&s).starts_with('#'),
        "back to a real task, not {}",
        shown(&s)
    );
}

#[test]
fn moving_during_a_refresh_keeps_the_task_moved_to() {
    let mut s = loaded(0);
    let first = reqs(&s.reload_list(false)).remove(0);
    s.on_api(ApiResult {
        ticket: 600,
        req: first,
        result: page(1..=60, None),
    });
    let fx = s.refresh();
    s.select_row(40); // the user moves while the refresh runs
    let p1 = reqs(&fx).remove(0);
    let fx = s.on_api(ApiResult {
        ticket: 601,
        req: p1,
        result: page(1..=30, Some("p2")),
    });
    assert_eq!(shown(&s), tid(41));
    let p2 = reqs(&fx)
        .into_iter()
        .find(|r| matches!(r, ApiRequest::ListPage { .. }))
        .unwrap();
    s.on_api(ApiResult {
        ticket: 602,
        req: p2,
        result: page(31..=60, None),
    });
    assert_eq!(shown(&s), tid(41));
    assert!(s.cursor_on_current(), "still the row under the cursor");
}

#[test]
fn an_unknown_team_name_is_never_sent_as_an_id() {
    let mut s = loaded(1);
    let fx = s.command("team Sales");
    assert!(reqs(&fx).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("no known team"));
    let (_, body) = only_patch(&s.command("team Ops"));
    assert_eq!(body, json!({"assigned_team_id": "team-1"}));
}

#[test]
fn nothing_is_asked_twice() {
    let mut s = loaded(1);
    let first = palette(&mut s, "open #99");
    assert_eq!(reqs(&first).len(), 1);
    assert!(reqs(&palette(&mut s, "open #99")).is_empty());
    // A refresh on the Requester tab reads the task once.
    let mut s = loaded(1);
    let mut t = task(1);
    t.source_channel = None;
    let tk = s.next_ticket;
    s.replace_task(t, tk);
    open_tab(&mut s, Tab::Requester);
    let gets = reqs(&s.refresh())
        .into_iter()
        .filter(|r| matches!(r, ApiRequest::GetTask { .. }))
        .count();
    assert_eq!(gets, 1);
}

#[test]
fn a_filter_alias_resolved_through_the_picker_runs_once() {
    let mut s = loaded(1);
    s.directory
        .learn_person("u-s1", "Sam Taylor", "s1@acme.test", None);
    s.directory
        .learn_person("u-s2", "Sam Taylor", "s2@acme.test", None);
    s.command("filter assignee=Sam");
    assert!(matches!(s.overlay, Overlay::Picker(_)));
    let fx = s.on_key(code(KeyCode::Enter));
    assert!(matches!(s.overlay, Overlay::None), "no second picker");
    match reqs(&fx).as_slice() {
        [ApiRequest::ListPage { query, .. }] => {
            assert_eq!(query.assigned_to.as_deref(), Some("u-s1"))
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn a_failed_refresh_lets_the_old_walk_go_on() {
    let mut s = loaded(0);
    let first = reqs(&s.reload_list(false)).remove(0);
    s.on_api(ApiResult {
        ticket: 700,
        req: first,
        result: page(1..=50, Some("p2")),
    });
    refresh_answered(&mut s, busy());
    assert_eq!(s.list.cursor.as_deref(), Some("p2"));
    assert!(s.list.keep_selected.is_none());
    // Scrolling down fetches the next page of the old walk.
    let mut asked = Vec::new();
    for _ in 0..45 {
        asked.extend(reqs(&s.on_key(key('j'))));
    }
    assert!(
        asked
            .iter()
            .any(|r| matches!(r, ApiRequest::ListPage { cursor: Some(c), .. } if c == "p2")),
        "{asked:?}"
    );
}

#[test]
fn enter_after_the_debounced_search_walks_the_list_once() {
    let mut s = loaded(1);
    s.on_key(key('/'));
    type_str(&mut s, "nda");
    let due = s.search_due.expect("debounce pending");
    let (fx, _) = s.on_tick(due);
    assert_eq!(reqs(&fx).len(), 1, "the debounced walk");
    assert!(
        reqs(&s.on_key(code(KeyCode::Enter))).is_empty(),
        "no second walk"
    );
    // Enter before the pause: the walk goes out at once, once.
    s.on_key(key('/'));
    type_str(&mut s, " q4");
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(reqs(&fx).len(), 1);
    assert!(s.search_due.is_none());
}
