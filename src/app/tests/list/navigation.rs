//! The one current task: opening, history, what actions hit.

use super::*;

#[test]
fn open_by_number_searches_when_not_loaded() {
    let mut s = loaded(2);
    let fx = palette(&mut s, "open #2");
    assert!(reqs(&fx).is_empty(), "#2 is loaded: opened at once");
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
    let fx = palette(&mut s, "open #1234");
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::FindByNumber {
            number: 1234,
            limit: 100
        }]
    );
}

#[test]
fn opening_by_number_navigates_at_once_and_nothing_lands_on_the_old_row() {
    let mut s = loaded(2);
    let fx = palette(&mut s, "open #77");
    assert_eq!(s.focus, Focus::Detail);
    assert_eq!(s.detail.as_ref().unwrap().task_id, "#77");
    // While #77 is being looked for, `c` must not open a composer for the
    // task that happened to be selected in the list.
    s.on_key(key('c'));
    assert!(!matches!(s.overlay, Overlay::Compose(_)));
    assert!(s.status.as_ref().unwrap().1.contains("still loading"));
    answer(
        &mut s,
        &fx,
        Ok(Reply::Found(Some(Box::new(task(77))), vec![])),
    );
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(77));
    s.on_key(key('c'));
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.task_id, tid(77)),
        _ => panic!("composer for #77 expected"),
    }
}

#[test]
fn a_late_answer_for_a_task_the_user_left_is_ignored() {
    let mut s = loaded(2);
    let fx = palette(&mut s, "open #77");
    palette(&mut s, "open #2");
    answer(
        &mut s,
        &fx,
        Ok(Reply::Found(Some(Box::new(task(77))), vec![])),
    );
    assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
}

/// The task every task action would hit: the detail's.
fn shown(s: &State) -> String {
    s.detail
        .as_ref()
        .map(|d| d.task_id.clone())
        .unwrap_or_default()
}

#[test]
fn the_detail_follows_the_list_cursor_at_once() {
    let mut s = loaded(3);
    assert_eq!(shown(&s), tid(1), "the first row is current once loaded");
    let fx = s.on_key(key('j'));
    assert_eq!(shown(&s), tid(2));
    assert!(
        s.detail.as_ref().unwrap().task.is_some(),
        "the row is shown at once, no request needed"
    );
    assert!(reqs(&fx).is_empty(), "{fx:?}");
    assert!(s.cursor_on_current());
}

#[test]
fn open_a_uuid_not_in_the_list_then_esc_then_reply_lands_on_the_opened_task() {
    let mut s = loaded(3);
    let other = tid(900);
    let fx = palette(&mut s, &format!("open {other}"));
    assert_eq!(reqs(&fx)[0], ApiRequest::GetTask { id: other.clone() });
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(task(900)))),
    );
    assert_eq!(s.detail.as_ref().unwrap().origin, Origin::Elsewhere);
    assert!(!s.cursor_on_current(), "the list cursor is shown inactive");
    assert!(crate::ui::detail_header(&s).contains("not in this list"));
    // Esc returns focus to the list and changes nothing else.
    s.on_key(code(KeyCode::Esc));
    assert_eq!(s.focus, Focus::List);
    assert_eq!(shown(&s), other);
    palette(&mut s, "reply");
    match &s.overlay {
        Overlay::Compose(c) => {
            assert_eq!(c.task_id, other);
            assert_eq!(c.task_label, "#900");
        }
        _ => panic!("composer expected"),
    }
    type_str(&mut s, "hello");
    let fx = s.on_key(ctrl('s'));
    match &reqs(&fx)[..] {
        [ApiRequest::ReplyRequester { id, .. }] => assert_eq!(id, &other),
        r => panic!("{r:?}"),
    }
}

#[test]
fn j_then_x_archives_the_row_under_the_cursor() {
    let mut s = loaded(3);
    s.on_key(code(KeyCode::Enter)); // detail of #1, focused
    s.on_key(code(KeyCode::Esc)); // back to the list
    s.on_key(key('j'));
    let (id, body) = only_patch(&s.on_key(key('x')));
    assert_eq!(id, tid(2));
    assert_eq!(body, json!({"archived": true}));
    // With the detail focused, j moves within it; x still hits what it shows.
    s.on_key(code(KeyCode::Tab));
    s.on_key(key('j'));
    let (id, _) = only_patch(&s.on_key(key('x')));
    assert_eq!(id, tid(2));
}

#[test]
fn history_goes_back_and_forward_over_jumps() {
    let mut s = loaded(3);
    palette(&mut s, "open #3");
    assert_eq!(shown(&s), tid(3));
    let fx = palette(&mut s, &format!("open {}", tid(900)));
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(task(900)))));
    assert_eq!(shown(&s), tid(900));
    s.on_key(key('<'));
    assert_eq!(shown(&s), tid(3));
    assert!(
        s.cursor_on_current(),
        "back in the list: the cursor is on it"
    );
    s.on_key(key('<'));
    assert_eq!(shown(&s), tid(1));
    s.on_key(key('>'));
    assert_eq!(shown(&s), tid(3));
    s.on_key(key('>'));
    assert_eq!(shown(&s), tid(900));
    // Moving the cursor from a task opened elsewhere keeps it in history.
    s.focus = Focus::List;
    s.on_key(key('j'));
    assert_ne!(shown(&s), tid(900));
    s.on_key(key('<'));
    assert_eq!(shown(&s), tid(900));
}

#[test]
fn an_older_answer_arriving_last_never_replaces_a_newer_one() {
    let mut s = loaded(2);
    // A refresh goes out, then a PATCH; the PATCH is answered first.
    let refresh = s.refresh();
    let patch = palette(&mut s, "status completed");
    let mut done = task(1);
    done.status = Status::Completed;
    done.updated_at = Some("2026-11-01T10:05:00Z".into());
    answer(&mut s, &patch, Ok(Reply::Task(Box::new(done))));
    // The refresh's older page lands seconds later.
    answer_where(
        &mut s,
        &refresh,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        whole_page(1..=2),
    );
    let row = s.list.items[0].task().unwrap();
    assert_eq!(row.status, Status::Completed, "the PATCHed value stays");
    assert_eq!(
        s.current_task().unwrap().status,
        Status::Completed,
        "in the detail too"
    );
    // Its GET, also sent before the PATCH, changes nothing either.
    answer_where(
        &mut s,
        &refresh,
        |r| matches!(r, ApiRequest::GetTask { .. }),
        Ok(Reply::Task(Box::new(task(1)))),
    );
    assert_eq!(s.current_task().unwrap().status, Status::Completed);
}

#[test]
fn two_quick_edits_answered_out_of_order_keep_the_last() {
    let mut s = loaded(1);
    let first = palette(&mut s, "priority low");
    let second = palette(&mut s, "priority urgent");
    let mut a2 = task(1);
    a2.priority = Priority::Urgent;
    a2.updated_at = Some("2026-11-01T10:00:02Z".into());
    answer(&mut s, &second, Ok(Reply::Task(Box::new(a2))));
    let mut a1 = task(1);
    a1.priority = Priority::Low;
    a1.updated_at = Some("2026-11-01T10:00:01Z".into());
    answer(&mut s, &first, Ok(Reply::Task(Box::new(a1))));
    assert_eq!(s.current_task().unwrap().priority, Priority::Urgent);
    assert_eq!(s.list.items[0].task().unwrap().priority, Priority::Urgent);
}

/// The version shown is remembered by name (`ShownVersion`, once a bare
/// triple): the newest answer's ticket, its `updated_at`, and the first
/// ticket not given out when it was applied.
#[test]
fn the_version_shown_is_remembered_by_name() {
    let mut s = loaded(1);
    let first = palette(&mut s, "priority low");
    let second = palette(&mut s, "priority urgent");
    let ticket = |fx: &[Effect]| {
        fx.iter()
            .find_map(|e| match e {
                Effect::Api { ticket, .. } => Some(*ticket),
                _ => None,
            })
            .unwrap()
    };
    let mut a2 = task(1);
    a2.updated_at = Some("2026-11-01T10:00:02Z".into());
    answer(&mut s, &second, Ok(Reply::Task(Box::new(a2))));
    let mut a1 = task(1);
    a1.updated_at = Some("2026-11-01T10:00:01Z".into());
    answer(&mut s, &first, Ok(Reply::Task(Box::new(a1))));
    let shown = &s.versions[&tid(1)];
    assert_eq!(shown.ticket, ticket(&second));
    assert_eq!(shown.updated_at.as_deref(), Some("2026-11-01T10:00:02Z"));
    assert!(shown.issued > ticket(&second), "{shown:?}");
}

#[test]
fn a_refresh_never_changes_the_current_task() {
    let mut s = loaded(3);
    s.on_key(key('j'));
    assert_eq!(shown(&s), tid(2));
    let fx = s.refresh();
    // Task 2 is gone from the list (archived elsewhere).
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        whole_page([1, 3]),
    );
    assert_eq!(shown(&s), tid(2), "still the task the user was looking at");
    assert_eq!(s.detail.as_ref().unwrap().origin, Origin::Elsewhere);
    let (id, _) = only_patch(&palette(&mut s, "priority low"));
    assert_eq!(id, tid(2));
}

#[test]
fn the_mouse_never_retargets_an_open_popup() {
    use crossterm::event::{MouseEvent, MouseEventKind};
    let now = std::time::Instant::now();
    let wheel = MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 5,
        row: 10,
        modifiers: KeyModifiers::NONE,
    };
    // Without a popup the same wheel over the list moves the current task.
    let mut free = loaded(3);
    crate::app::tests::drawn(&mut free, 160, 45);
    free.on_mouse(wheel, now);
    free.on_mouse(wheel, now);
    assert_ne!(shown(&free), tid(1), "the wheel moves the list");
    let mut s = loaded(3);
    s.on_key(key('s')); // `:status ` prefilled for #1
    crate::app::tests::drawn(&mut s, 160, 45);
    s.on_mouse(wheel, now);
    s.on_mouse(wheel, now);
    assert_eq!(shown(&s), tid(1));
    type_str(&mut s, "completed");
    let (id, _) = only_patch(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(id, tid(1));
}

#[test]
fn a_click_in_the_detail_does_not_move_the_list() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut s = loaded(5);
    crate::app::tests::drawn(&mut s, 160, 45);
    // The detail is the right 45% at 160 columns.
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 150,
        row: 6,
        modifiers: KeyModifiers::NONE,
    };
    s.on_mouse(click, std::time::Instant::now());
    assert_eq!(s.list.selected, 0);
    assert_eq!(shown(&s), tid(1));
    assert_eq!(s.focus, Focus::Detail);
}

#[test]
fn enter_in_the_palette_runs_the_highlighted_suggestion() {
    let mut s = loaded(1);
    s.on_key(key(':'));
    type_str(&mut s, "status waiting_on");
    s.on_key(code(KeyCode::Down));
    let (id, body) = only_patch(&s.on_key(code(KeyCode::Enter)));
    assert_eq!(id, tid(1));
    assert_eq!(body, json!({"status": "waiting_on_external"}));
}

#[test]
fn archiving_from_the_detail_offers_the_same_undo() {
    let mut s = loaded(2);
    s.on_key(code(KeyCode::Enter));
    assert_eq!(s.focus, Focus::Detail);
    let fx = s.on_key(key('x'));
    let mut archived = task(1);
    archived.archived = true;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(archived.clone()))));
    assert!(
        s.status.as_ref().unwrap().1.contains("restores it"),
        "{:?}",
        s.status
    );
    let (id, body) = only_patch(&crate::app::tests::undo::undo_key_unchanged(
        &mut s,
        'z',
        &[archived],
    ));
    assert_eq!((id, body), (tid(1), json!({"archived": false})));
}

#[test]
fn a_later_success_clears_the_error_and_the_title_never_says_more_below_next_to_it() {
    let mut s = loaded(2);
    let fx = s.refresh();
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        Err(ApiError::Status {
            status: 503,
            message: "down".into(),
        }),
    );
    assert_eq!(s.status.as_ref().unwrap().0, Level::Error);
    let title = crate::ui::list_title(&s);
    assert!(
        title.contains("error") && !title.contains("more below"),
        "{title}"
    );
    refresh_answered(&mut s, whole_page([1]));
    assert!(s.status.is_none(), "{:?}", s.status);
}

#[test]
fn esc_in_the_detail_returns_to_the_list_and_changes_nothing_else() {
    let mut s = loaded(3);
    s.on_key(key('j'));
    s.on_key(code(KeyCode::Enter));
    s.on_key(key(']'));
    let tab = s.detail.as_ref().unwrap().tab;
    let fx = s.on_key(code(KeyCode::Esc));
    assert!(fx.is_empty());
    assert_eq!(s.focus, Focus::List);
    assert_eq!(shown(&s), tid(2));
    assert_eq!(s.detail.as_ref().unwrap().tab, tab);
    assert_eq!(s.list.selected, 1);
}

#[test]
fn the_detail_scrolls_within_its_content_and_never_goes_blank() {
    let mut s = loaded(1);
    s.on_key(code(KeyCode::Enter));
    // As the last frame measured it: 10 rows visible of 25.
    s.detail_view = (10, 25);
    s.on_key(key('G'));
    assert_eq!(s.detail.as_ref().unwrap().scroll, 15);
    s.on_key(ctrl('d'));
    assert_eq!(s.detail.as_ref().unwrap().scroll, 15);
    s.on_key(ctrl('u'));
    assert_eq!(s.detail.as_ref().unwrap().scroll, 10);
    s.on_key(key('g'));
    assert_eq!(s.detail.as_ref().unwrap().scroll, 0);
}

#[test]
fn a_quick_view_and_a_filter_agree_in_title_form_and_request() {
    let mut s = loaded(1);
    s.on_key(key('2'));
    let fx = palette(&mut s, "filter status=completed");
    let q = match &reqs(&fx)[0] {
        ApiRequest::ListPage { query, .. } => query.clone(),
        r => panic!("{r:?}"),
    };
    assert_eq!(q.assigned_to.as_deref(), Some("u-me"));
    assert_eq!(q.status, vec!["completed"]);
    let title = crate::ui::list_title(&s);
    assert!(title.contains("Mine"), "{title}");
    assert!(title.contains("status=completed assigned=me"), "{title}");
    s.on_key(key('f'));
    match &s.overlay {
        Overlay::Filter(f) => {
            assert_eq!(f.text[0].text, "me");
            assert!(f.status[3]);
        }
        _ => panic!("filter form expected"),
    }
    // The form applies exactly what it shows: the same request again.
    let fx = s.on_key(code(KeyCode::Enter));
    match &reqs(&fx)[0] {
        ApiRequest::ListPage { query, .. } => assert_eq!(query, &q),
        r => panic!("{r:?}"),
    }
    // Clearing the assignee leaves the view's name.
    palette(&mut s, "filter clear");
    assert!(crate::ui::list_title(&s).contains("Tasks: All"));
}

#[test]
fn prompts_and_results_name_the_task() {
    let mut s = loaded(2);
    s.on_key(key('j'));
    s.on_key(key('s'));
    match &s.overlay {
        Overlay::Palette(p) => assert_eq!(p.target.as_ref().unwrap().1, "#2"),
        _ => panic!("palette expected"),
    }
    type_str(&mut s, "completed");
    let fx = s.on_key(code(KeyCode::Enter));
    let mut done = task(2);
    done.status = Status::Completed;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(done))));
    let msg = &s.status.as_ref().unwrap().1;
    assert!(msg.starts_with("#2: status → completed"), "{msg}");
}

#[test]
fn refresh_retries_a_failed_identity_lookup() {
    let mut s = crate::app::new_state("h".into(), &crate::config::Settings::default(), false);
    let fx = s.start();
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::Me),
        Err(ApiError::Network {
            message: "down".into(),
        }),
    );
    let fx = s.refresh();
    assert!(reqs(&fx).contains(&ApiRequest::Me), "{fx:?}");
    // Not twice while one is in flight.
    assert!(!reqs(&s.refresh()).contains(&ApiRequest::Me));
}

#[test]
fn a_subtask_shows_its_parent_as_a_link_and_p_opens_it() {
    let mut s = loaded(3);
    let mut sub = task_json(50);
    sub["parent_task_id"] = tid(2).into();
    let sub: Task = serde_json::from_value(sub).unwrap();
    let fx = palette(&mut s, &format!("open {}", tid(50)));
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(sub))));
    let screen = {
        let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
        term.draw(|f| crate::ui::draw(f, &mut s, &crate::ui::Theme::dark()))
            .unwrap();
        let b = term.backend().buffer().clone();
        (0..b.area.height)
            .map(|y| {
                (0..b.area.width)
                    .map(|x| b[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(screen.contains("parent: #2 Task number 2"), "{screen}");
    assert!(
        !screen.contains("parent_task_id"),
        "not an unknown field: {screen}"
    );
    s.on_key(key('P'));
    assert_eq!(shown(&s), tid(2));
    assert!(s.cursor_on_current(), "the parent is in the list");
    // A task that is not a subtask says so and goes nowhere.
    let fx = palette(&mut s, "parent");
    assert!(reqs(&fx).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("not a subtask"));
}

/// #26 §9: `P` on a task without a parent says so, names the task, and
/// goes nowhere (from the list and from the detail).
#[test]
fn p_on_a_task_without_a_parent_says_so() {
    let mut s = loaded(2);
    s.on_key(key('j'));
    for focus_detail in [false, true] {
        if focus_detail {
            s.on_key(code(KeyCode::Enter));
        }
        s.status = None;
        let fx = s.on_key(key('P'));
        assert!(reqs(&fx).is_empty(), "{fx:?}");
        let text = &s.status.as_ref().expect("a message").1;
        assert_eq!(
            text, ":parent: #2 is not a subtask (the service names no parent)",
            "P runs :parent"
        );
        assert_eq!(s.detail.as_ref().unwrap().task_id, tid(2));
        assert_eq!(s.focus == Focus::Detail, focus_detail, "focus unchanged");
    }
}
