//! The board: columns by status, moving between cards (the current task
//! follows), and `H`/`L` sending the status PATCH.

use super::*;
use crate::app::views::board::columns;

/// Five tasks: #1 not started, #2 and #3 in progress, #4 completed, #5 in
/// a status the API does not list.
pub(crate) fn board_state() -> State {
    let mut s = loaded(0);
    for (n, status) in [
        (1, "not_started"),
        (2, "in_progress"),
        (3, "in_progress"),
        (4, "completed"),
        (5, "blocked"),
    ] {
        let mut t = task_json(n);
        t["status"] = status.into();
        let t: Task = serde_json::from_value(t).unwrap();
        s.list.items.push(TaskItem::Task(Box::new(t)));
    }
    s.list.end_reached = true;
    s.follow_cursor();
    s
}

fn current(s: &State) -> String {
    s.detail.as_ref().unwrap().task_id.clone()
}

#[test]
fn one_column_per_status_and_the_cursor_is_the_current_task() {
    let mut s = board_state();
    assert!(reqs(&s.on_key(key('b'))).is_empty());
    assert!(s.board.is_some());
    let cols: Vec<String> = columns(&s.list.items)
        .iter()
        .map(|c| c.as_wire().to_string())
        .collect();
    assert_eq!(
        cols,
        vec![
            "not_started",
            "in_progress",
            "waiting_on_external",
            "completed",
            "blocked"
        ]
    );
    assert_eq!(s.board_cursor(), Some((0, 0)));
    s.on_key(key('l'));
    assert_eq!((current(&s), s.board_cursor()), (tid(2), Some((1, 0))));
    s.on_key(key('j'));
    assert_eq!((current(&s), s.board_cursor()), (tid(3), Some((1, 1))));
    s.on_key(key('j'));
    assert_eq!(current(&s), tid(3), "the column's end");
    // The empty column is passed over; the row is kept where it can be.
    s.on_key(key('l'));
    assert_eq!((current(&s), s.board_cursor()), (tid(4), Some((3, 0))));
    s.on_key(key('l'));
    assert_eq!(current(&s), tid(5), "an unknown status has its column");
    s.on_key(key('l'));
    assert_eq!(current(&s), tid(5));
    s.on_key(key('h'));
    s.on_key(key('h'));
    assert_eq!(current(&s), tid(2));
    // Task keys act on the card: the palette names it.
    s.on_key(key('s'));
    match &s.overlay {
        Overlay::Palette(p) => assert_eq!(p.target.as_ref().unwrap().0, tid(2)),
        _ => panic!("the status palette"),
    }
    s.on_key(code(KeyCode::Esc));
    // Esc: the list again, on the same task.
    s.on_key(code(KeyCode::Esc));
    assert!(s.board.is_none());
    assert_eq!(s.list.selected_id(), Some(tid(2).as_str()));
}

#[test]
fn l_sends_one_patch_with_the_next_status_and_the_answer_moves_the_card() {
    let mut s = board_state();
    s.on_key(key('b'));
    s.on_key(key('l')); // #2, in progress
    let fx = s.on_key(key('L'));
    let (id, body) = only_patch(&fx);
    assert_eq!(id, tid(2));
    assert_eq!(body, json!({"status": "waiting_on_external"}));
    let p = s.pending_for(&tid(2), "status").expect("the pending mark");
    assert_eq!(p.value, "waiting");
    // Until the service answers, the card stays where it is.
    assert_eq!(s.board_cursor(), Some((1, 0)));
    // L again moves on from where the card is going.
    let fx2 = s.on_key(key('L'));
    assert_eq!(only_patch(&fx2).1, json!({"status": "completed"}));
    let mut waiting = task(2);
    waiting.status = Status::WaitingOnExternal;
    answer(&mut s, &fx, Ok(Reply::Task(Box::new(waiting))));
    assert_eq!(
        s.board_cursor(),
        Some((2, 0)),
        "the card follows the answer"
    );
    let mut done = task(2);
    done.status = Status::Completed;
    answer(&mut s, &fx2, Ok(Reply::Task(Box::new(done))));
    assert_eq!(s.board_cursor(), Some((3, 0)), "completed, in list order");
    assert!(s.pending.is_empty());
    assert!(s
        .status
        .as_ref()
        .unwrap()
        .1
        .starts_with("#2: status → completed"));
    // H: back one, the same PATCH as :status.
    assert_eq!(
        only_patch(&s.on_key(key('H'))).1,
        json!({"status": "waiting_on_external"})
    );
}

#[test]
fn no_status_beyond_the_ends_and_none_from_an_unknown_one() {
    let mut s = board_state();
    s.on_key(key('b'));
    assert!(reqs(&s.on_key(key('H'))).is_empty(), "#1 is not started");
    assert!(s.status.as_ref().unwrap().1.contains("not started column"));
    for _ in 0..4 {
        s.on_key(key('l'));
    }
    assert_eq!(current(&s), tid(5));
    assert!(reqs(&s.on_key(key('L'))).is_empty());
    assert!(reqs(&s.on_key(key('H'))).is_empty());
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Warn);
    assert!(text.contains("blocked"), "{text}");
    // A failed move keeps the card and says why.
    s.on_key(key('h'));
    assert!(
        reqs(&s.on_key(key('L'))).is_empty(),
        "completed is the last"
    );
    let fx = s.on_key(key('H'));
    assert_eq!(only_patch(&fx).1, json!({"status": "waiting_on_external"}));
    answer(
        &mut s,
        &fx,
        Err(ApiError::BadRequest {
            message: "not allowed".into(),
            body: Value::Null,
        }),
    );
    assert_eq!(current(&s), tid(4));
    assert_eq!(s.board_cursor(), Some((3, 0)));
    assert!(s.status.as_ref().unwrap().1.contains("not allowed"));
}

#[test]
fn enter_opens_the_detail_and_views_switch_under_the_board() {
    let mut s = board_state();
    s.on_key(key('b'));
    s.on_key(key('j'));
    s.on_key(key('l'));
    s.on_key(code(KeyCode::Enter));
    assert!(s.board.is_none());
    assert_eq!(s.focus, Focus::Detail);
    assert_eq!(current(&s), tid(2));
    s.on_key(key('b'));
    assert_eq!(s.board_cursor(), Some((1, 0)));
    // A view's key reloads the list; the board stays and shows it.
    let r = reqs(&s.on_key(key('2')));
    assert!(matches!(&r[..], [ApiRequest::ListPage { .. }]));
    assert!(s.board.is_some());
    // Outside the board, its keys say where they work.
    s.on_key(key('b'));
    s.act(crate::app::keymap::Action::MoveRight);
    assert!(s.status.as_ref().unwrap().1.contains("board only"));
    let help = crate::ui::help_lines(&s, "");
    assert!(help.iter().any(|l| l.starts_with("On the board")));
    assert!(help
        .iter()
        .any(|l| l.contains("L") && l.contains("move_right")));
}

#[test]
fn marks_and_bulk_edits_work_on_the_board() {
    let mut s = board_state();
    s.on_key(key('b'));
    // Mark the card under the cursor (#1), move to the next column, mark #2.
    s.on_key(key(' '));
    assert_eq!(current(&s), tid(1), "marking a card keeps it current");
    s.on_key(key('l'));
    assert_eq!(current(&s), tid(2));
    s.on_key(key(' '));
    assert!(s.marks.contains(&tid(1)) && s.marks.contains(&tid(2)));
    // A status for both: one confirmation, then two one-field PATCHes.
    palette(&mut s, "status completed");
    assert!(matches!(s.overlay, Overlay::Confirm { .. }));
    let fx = s.on_key(key('y'));
    let mut ids: Vec<(String, serde_json::Value)> = reqs(&fx)
        .into_iter()
        .filter_map(|r| match r {
            ApiRequest::Patch { id, patch } => Some((id, patch.to_json())),
            _ => None,
        })
        .collect();
    ids.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        ids,
        vec![
            (tid(1), json!({"status": "completed"})),
            (tid(2), json!({"status": "completed"}))
        ]
    );
}
