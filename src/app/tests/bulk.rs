//! Marks and bulk edits: the exact requests a bulk edit sends (one field
//! each, the marked tasks, a few at a time), its outcomes, and marks that
//! survive refreshes and paging.

use super::*;
use crate::app::bulk::CONCURRENCY;

/// `space` `n` times from the top: marks rows 1..=n (the cursor moves down).
pub(crate) fn mark_rows(s: &mut State, n: usize) {
    for _ in 0..n {
        s.on_key(key(' '));
    }
}

/// Answer every request in `fx` with `reply`, and those its answers send,
/// until none is left: every request answered, in order.
pub(crate) fn answer_all(
    s: &mut State,
    fx: Vec<Effect>,
    reply: impl Fn(&ApiRequest) -> Result<Reply, ApiError>,
) -> Vec<ApiRequest> {
    let mut queue: std::collections::VecDeque<Effect> = fx.into();
    let mut seen = Vec::new();
    while let Some(e) = queue.pop_front() {
        if let Effect::Api { ticket, req } = e {
            let result = reply(&req);
            seen.push((*req).clone());
            queue.extend(s.on_api(ApiResult {
                ticket,
                req: *req,
                result,
            }));
        }
    }
    seen
}

/// The task a PATCH answers with: `task(n)` with the patch applied.
pub(crate) fn patched(req: &ApiRequest, base: impl Fn(&str) -> Task) -> Result<Reply, ApiError> {
    match req {
        ApiRequest::Patch { id, patch } => {
            let mut v = serde_json::to_value(base(id)).unwrap();
            for (k, val) in patch.to_json().as_object().unwrap() {
                v[k] = val.clone();
            }
            Ok(Reply::Task(Box::new(serde_json::from_value(v).unwrap())))
        }
        ApiRequest::GetTask { id } => Ok(Reply::Task(Box::new(base(id)))),
        other => panic!("unexpected request {other:?}"),
    }
}

pub(crate) fn n_of(id: &str) -> i64 {
    id.rsplit('-').next().unwrap().parse().unwrap()
}

fn confirm_lines(s: &State) -> Vec<String> {
    match &s.overlay {
        Overlay::Confirm { lines, .. } => lines.clone(),
        _ => panic!("a confirmation expected, status {:?}", s.status),
    }
}

fn patches(r: &[ApiRequest]) -> Vec<(String, Value)> {
    r.iter()
        .filter_map(|r| match r {
            ApiRequest::Patch { id, patch } => Some((id.clone(), patch.to_json())),
            _ => None,
        })
        .collect()
}

#[test]
fn marking_three_rows_and_status_sends_three_one_field_patches_after_one_confirmation() {
    let mut s = loaded(5);
    mark_rows(&mut s, 3);
    assert_eq!(s.marks.len(), 3);
    assert!(crate::ui::list_title(&s).contains("3 marked"));
    assert_eq!(
        s.command_targets().unwrap(),
        (1..=3)
            .map(|n| (tid(n), format!("#{n}")))
            .collect::<Vec<_>>()
    );
    let fx = palette(&mut s, "status completed");
    assert!(reqs(&fx).is_empty(), "nothing before the confirmation");
    let lines = confirm_lines(&s);
    assert_eq!(lines[0], "3 tasks: status → completed");
    assert!(lines.iter().any(|l| l.contains("#2 Task number 2")));
    let fx = s.on_key(key('y'));
    assert_eq!(
        patches(&reqs(&fx)),
        (1..=3)
            .map(|n| (tid(n), json!({"status": "completed"})))
            .collect::<Vec<_>>()
    );
    // Each row shows its pending mark, the status line the progress.
    for n in 1..=3 {
        assert!(s.pending_for(&tid(n), "status").is_some());
    }
    assert!(s.status.as_ref().unwrap().1.contains("0/3 done"));
    let all = answer_all(&mut s, fx, |r| patched(r, |id| task(n_of(id))));
    assert_eq!(all.len(), 3, "no other request: {all:?}");
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Success);
    assert_eq!(text, "3 tasks: status → completed — 3 done");
    for n in 1..=3 {
        assert_eq!(
            s.list.items[n - 1].task().unwrap().status,
            Status::Completed,
            "the answer replaced row {n}"
        );
    }
    // Done: the marks go, the history holds one operation.
    assert!(s.marks.is_empty());
    assert!(s.pending.is_empty());
    assert_eq!(s.history.undo_stack.len(), 1);
}

#[test]
fn a_bulk_edit_runs_a_few_requests_at_a_time_fed_as_answers_arrive() {
    let mut s = loaded(10);
    s.on_key(key('V'));
    assert_eq!(s.marks.len(), 10);
    palette(&mut s, "priority low");
    assert_eq!(confirm_lines(&s)[0], "10 tasks: priority → low");
    let fx = s.on_key(key('y'));
    let first = reqs(&fx);
    assert_eq!(first.len(), CONCURRENCY, "bounded: {first:?}");
    assert_eq!(s.engine.in_flight(), CONCURRENCY);
    // One answer lets exactly one more request go.
    let (ticket, req) = match &fx[0] {
        Effect::Api { ticket, req } => (*ticket, (**req).clone()),
        _ => unreachable!(),
    };
    let result = patched(&req, |id| task(n_of(id)));
    let more = s.on_api(ApiResult {
        ticket,
        req,
        result,
    });
    assert_eq!(
        patches(&reqs(&more)),
        vec![(tid(5), json!({"priority": "low"}))]
    );
    let mut rest = fx[1..].to_vec();
    rest.extend(more);
    let mut max = 0;
    let mut queue: std::collections::VecDeque<Effect> = rest.into();
    let mut sent: Vec<ApiRequest> = first;
    sent.truncate(CONCURRENCY);
    sent.push(ApiRequest::Patch {
        id: tid(5),
        patch: TaskPatch {
            priority: Some(Priority::Low),
            ..Default::default()
        },
    });
    while let Some(Effect::Api { ticket, req }) = queue.pop_front() {
        max = max.max(s.engine.in_flight());
        let result = patched(&req, |id| task(n_of(id)));
        let next = s.on_api(ApiResult {
            ticket,
            req: *req,
            result,
        });
        sent.extend(reqs(&next));
        queue.extend(next);
    }
    assert!(
        max <= CONCURRENCY,
        "never more than {CONCURRENCY} in flight"
    );
    let mut ids: Vec<String> = patches(&sent).into_iter().map(|(id, _)| id).collect();
    ids.sort();
    assert_eq!(ids, (1..=10).map(tid).collect::<Vec<_>>(), "each task once");
    assert!(patches(&sent)
        .iter()
        .all(|(_, b)| *b == json!({"priority": "low"})));
    assert_eq!(s.engine.last.as_ref().unwrap().max_in_flight, CONCURRENCY);
    assert!(s.status.as_ref().unwrap().1.ends_with("10 done"));
}

#[test]
fn a_partial_failure_keeps_the_failed_task_marked_with_its_error() {
    let mut s = loaded(3);
    mark_rows(&mut s, 3);
    palette(&mut s, "status completed");
    let fx = s.on_key(key('y'));
    answer_all(&mut s, fx, |r| match r {
        ApiRequest::Patch { id, .. } if *id == tid(2) => Err(ApiError::BadRequest {
            message: "status is locked".into(),
            body: Value::Null,
        }),
        other => patched(other, |id| task(n_of(id))),
    });
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Error);
    assert!(
        text.starts_with("3 tasks: status → completed — 2 done, 1 failed — #2:")
            && text.contains("status is locked"),
        "{text}"
    );
    // Only the failure stays marked, with its error.
    assert_eq!(s.marks.ids(), &[tid(2)]);
    assert!(s.marks.error(&tid(2)).unwrap().contains("status is locked"));
    assert_eq!(s.list.items[1].task().unwrap().status, Status::InProgress);
    assert!(crate::ui::list_title(&s).contains("1 marked, 1 failed"));
    // The history keeps each outcome.
    let lines = s.history_lines();
    assert!(
        lines.iter().any(|l| l.contains("2 done, 1 failed")),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.contains("#2 failed") && l.contains("status is locked")));
    // Running it again goes to the failed task only.
    palette(&mut s, "status completed");
    assert_eq!(confirm_lines(&s)[0], "1 task: status → completed");
    let fx = s.on_key(key('y'));
    assert_eq!(
        patches(&reqs(&fx)),
        vec![(tid(2), json!({"status": "completed"}))]
    );
    assert!(s.marks.error(&tid(2)).is_none(), "the old error goes");
}

#[test]
fn an_unknown_outcome_is_said_and_read_back_never_resent() {
    let mut s = loaded(2);
    mark_rows(&mut s, 2);
    palette(&mut s, "priority low");
    let fx = s.on_key(key('y'));
    let all = answer_all(&mut s, fx, |r| match r {
        ApiRequest::Patch { id, .. } if *id == tid(1) => Err(ApiError::Network {
            message: "connection reset".into(),
        }),
        other => patched(other, |id| task(n_of(id))),
    });
    assert_eq!(
        all.iter()
            .filter(|r| matches!(r, ApiRequest::Patch { .. }))
            .count(),
        2,
        "never resent"
    );
    assert!(all.contains(&ApiRequest::GetTask { id: tid(1) }));
    let text = s.status.clone().unwrap().1;
    assert!(text.contains("1 done, 1 outcome unknown"), "{text}");
    assert!(s.marks.contains(&tid(1)));
}

#[test]
fn tags_in_bulk_are_added_and_removed_against_each_tasks_own_list() {
    let mut s = loaded(2);
    let mut t2 = task(2);
    t2.tags = vec!["x".into(), "a".into()].into();
    s.list.items[1] = TaskItem::Task(Box::new(t2.clone()));
    mark_rows(&mut s, 2);
    palette(&mut s, "tags +c -a");
    assert_eq!(confirm_lines(&s)[0], "2 tasks: tags +c -a");
    let fx = s.on_key(key('y'));
    assert_eq!(
        patches(&reqs(&fx)),
        vec![
            (tid(1), json!({"tags": ["b", "c"]})),
            (tid(2), json!({"tags": ["x", "c"]})),
        ]
    );
    // A mix of the two forms sends nothing.
    mark_rows(&mut s, 1);
    assert!(reqs(&palette(&mut s, "tags a +b")).is_empty());
    assert!(s.status.as_ref().unwrap().1.contains("mixes the two forms"));
}

#[test]
fn marks_survive_a_refresh_and_paging() {
    let mut s = loaded(3);
    s.on_key(key('j'));
    s.on_key(key(' '));
    assert_eq!(s.marks.ids(), &[tid(2)]);
    // A refresh answers the rows in another order, and a second page.
    let fx = s.refresh();
    let page = |items: Vec<i64>, cursor: Option<&str>| {
        Ok(Reply::Page(TaskPage {
            items: items
                .into_iter()
                .map(|i| TaskItem::Task(Box::new(task(i))))
                .collect(),
            cursor: cursor.map(str::to_string),
        }))
    };
    let fx = answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        page(vec![3, 2], Some("c2")),
    );
    assert!(s.marks.contains(&tid(2)));
    let fx = s.next_page_if_any(fx);
    answer_where(
        &mut s,
        &fx,
        |r| matches!(r, ApiRequest::ListPage { .. }),
        page(vec![1, 4], None),
    );
    assert_eq!(s.list.items.len(), 4);
    assert_eq!(s.command_targets().unwrap(), vec![(tid(2), "#2".into())]);
    // The mark column shows on the marked row, wherever it is now.
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 30)).unwrap();
    term.draw(|f| {
        crate::ui::render(f, &s, &crate::ui::Theme::dark());
    })
    .unwrap();
    let screen: String = term
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(screen.contains("● #2 "), "{screen}");
    assert!(screen.contains("[1 marked]"), "the header counts the marks");
}

#[test]
fn v_marks_a_range_capital_v_every_loaded_row_and_esc_or_u_clears() {
    let mut s = loaded(6);
    s.on_key(key('j'));
    s.on_key(key('v')); // the range starts at row 2
    assert_eq!(s.marks.ids(), &[tid(2)]);
    s.on_key(key('j'));
    s.on_key(key('j'));
    s.on_key(key('v'));
    let mut ids = s.marks.ids().to_vec();
    ids.sort();
    assert_eq!(ids, (2..=4).map(tid).collect::<Vec<_>>());
    // From the row last marked with space too.
    s.on_key(code(KeyCode::Esc));
    assert!(s.marks.is_empty(), "esc in the list clears the marks");
    s.on_key(key('g'));
    s.on_key(key(' ')); // marks #1, cursor on #2
    s.on_key(key('j'));
    s.on_key(key('v')); // #1..=#3
    assert_eq!(s.marks.len(), 3);
    s.on_key(key('U'));
    assert!(s.marks.is_empty());
    s.on_key(key('V'));
    assert_eq!(s.marks.len(), 6);
    // space on a marked row unmarks it.
    s.on_key(key('g'));
    s.on_key(key(' '));
    assert_eq!(s.marks.len(), 5);
    assert!(!s.marks.contains(&tid(1)));
}

#[test]
fn one_task_commands_are_refused_while_tasks_are_marked() {
    let mut s = loaded(3);
    mark_rows(&mut s, 2);
    for cmd in ["title New", "comment", "reject", "description clear"] {
        let fx = palette(&mut s, cmd);
        assert!(reqs(&fx).is_empty(), ":{cmd}");
        assert!(
            matches!(s.overlay, Overlay::None),
            ":{cmd} opened something"
        );
        let text = &s.status.as_ref().unwrap().1;
        // The key the marks' hint line names where the user is (the
        // list: `esc`, as `Keymap::hint_key` prefers; `U` too).
        assert!(
            text.contains("2 tasks are marked") && text.contains("esc clears"),
            ":{cmd}: {text}"
        );
        assert!(crate::ui::hint_text(&s, 400).contains("esc clear marks"));
    }
    // Copying is not an edit: the current task.
    let fx = palette(&mut s, "copy");
    assert_eq!(fx, vec![Effect::Copy("#3".into())]);
}

#[test]
fn every_bulk_action_sends_its_one_field_to_each_marked_task() {
    let cases: Vec<(&str, Value)> = vec![
        ("assign bob@acme.test", json!({"assigned_to": "u-bob"})),
        ("unassign", json!({"assigned_to": null})),
        ("due none", json!({DUE: null})),
        ("due 2026-12-01", json!({DUE: "2026-12-01T23:59:59Z"})),
        ("tags x,y", json!({"tags": ["x", "y"]})),
        ("tags none", json!({"tags": []})),
        ("archive", json!({"archived": true})),
        ("restore", json!({"archived": false})),
        ("team none", json!({"assigned_team_id": null})),
        ("matter none", json!({"matter_id": null})),
    ];
    for (cmd, want) in cases {
        let mut s = loaded(3);
        mark_rows(&mut s, 2);
        palette(&mut s, cmd);
        let fx = s.on_key(key('y'));
        assert_eq!(
            patches(&reqs(&fx)),
            vec![(tid(1), want.clone()), (tid(2), want)],
            ":{cmd}"
        );
    }
    // x with marks: archive them (restore when every one is archived).
    let mut s = loaded(3);
    mark_rows(&mut s, 2);
    s.on_key(key('x'));
    assert_eq!(confirm_lines(&s)[0], "2 tasks: archived");
    // Links go to every marked task.
    let mut s = loaded(3);
    mark_rows(&mut s, 2);
    palette(&mut s, "link task #3");
    let fx = s.on_key(key('y'));
    assert_eq!(
        reqs(&fx),
        vec![
            ApiRequest::AddLinks {
                id: tid(1),
                links: vec![(LinkType::Task, tid(3))]
            },
            ApiRequest::AddLinks {
                id: tid(2),
                links: vec![(LinkType::Task, tid(3))]
            },
        ]
    );
}

#[test]
fn accepting_drafts_in_bulk_skips_the_tasks_that_are_not_drafts() {
    let mut s = loaded(3);
    for n in [1, 3] {
        let mut d = task(n);
        d.draft = true;
        s.list.items[n as usize - 1] = TaskItem::Task(Box::new(d));
    }
    s.on_key(key('V'));
    palette(&mut s, "accept");
    let lines = confirm_lines(&s);
    assert_eq!(lines[0], "2 tasks: draft accepted");
    assert!(lines.iter().any(|l| l.contains("Skipped, not drafts: #2")));
    let fx = s.on_key(key('y'));
    assert_eq!(
        patches(&reqs(&fx)),
        vec![
            (tid(1), json!({"draft": false})),
            (tid(3), json!({"draft": false}))
        ]
    );
    answer_all(&mut s, fx, |r| patched(r, |id| task(n_of(id))));
    let text = s.status.clone().unwrap().1;
    assert!(text.contains("2 done, 1 skipped"), "{text}");
    // Accepting a draft has no inverse: the history says so.
    assert!(s.undo_last().is_err());
    assert!(s
        .history_lines()
        .iter()
        .any(|l| l.contains("#1 cannot be undone: accepting a draft cannot be undone")));
}

#[test]
fn sharing_in_bulk_reads_each_state_and_puts_it_back_with_the_person_added() {
    let mut s = loaded(2);
    mark_rows(&mut s, 2);
    palette(&mut s, "share add bob@acme.test write");
    assert_eq!(
        confirm_lines(&s)[0],
        "2 tasks: shared with Bob <bob@acme.test> (write)"
    );
    let fx = s.on_key(key('y'));
    assert_eq!(
        reqs(&fx),
        vec![
            ApiRequest::SharingForEdit { id: tid(1) },
            ApiRequest::SharingForEdit { id: tid(2) },
        ]
    );
    let current: SharingState = serde_json::from_value(json!({
        "visibility": "private",
        "users": [{"id": "u-me", "name": "Me", "email": "me@acme.test", "access_level": "write"}],
        "teams": [{"id": "t-1", "name": "Ops", "access_level": "read"}]
    }))
    .unwrap();
    let all = answer_all(&mut s, fx, |r| match r {
        ApiRequest::SharingForEdit { .. } => Ok(Reply::Sharing(current.clone())),
        ApiRequest::PutSharing { .. } => Ok(Reply::Sharing(current.clone())),
        other => patched(other, |id| task(n_of(id))),
    });
    let puts: Vec<&ApiRequest> = all
        .iter()
        .filter(|r| matches!(r, ApiRequest::PutSharing { .. }))
        .collect();
    assert_eq!(puts.len(), 2);
    match puts[0] {
        ApiRequest::PutSharing { id, update } => {
            assert_eq!(id, &tid(1));
            assert_eq!(
                serde_json::to_value(update).unwrap(),
                json!({
                    "visibility": "private",
                    "users": [
                        {"user_id": "u-me", "access_level": "write"},
                        {"user_id": "u-bob", "access_level": "write"}
                    ],
                    "teams": [{"team_id": "t-1", "access_level": "read"}]
                })
            );
        }
        _ => unreachable!(),
    }
    assert!(s.status.as_ref().unwrap().1.ends_with("2 done"));
}

#[test]
fn quitting_during_a_bulk_edit_names_the_tasks_not_sent() {
    let mut s = loaded(6);
    s.on_key(key('V'));
    palette(&mut s, "status completed");
    let fx = s.on_key(key('y'));
    assert_eq!(reqs(&fx).len(), CONCURRENCY);
    let lines = crate::app::quit_lines(&s, &Default::default(), None);
    assert!(
        lines.iter().any(|l| l
            .contains("6 tasks: status → completed: 2 of 6 tasks not sent when you quit: #5, #6")),
        "{lines:?}"
    );
}

/// Issue 42 §2: a row whose tags the listing cut is no ground for a bulk
/// tag edit — the new list would drop every tag cut off. That task is sent
/// nothing and says why; the others go on.
#[test]
fn a_bulk_tag_edit_sends_nothing_to_a_task_whose_tags_the_list_cut() {
    let mut s = loaded(2);
    let mut row = task_json(2);
    let tags: Vec<String> = (0..256).map(|i| format!("tag{i}")).collect();
    row["tags"] = json!(tags);
    row["taskdeck_cut"] = json!([{"field": "tags", "received": 300, "kept": 256}]);
    let t2: Task = serde_json::from_value(row).unwrap();
    s.list.items[1] = TaskItem::Task(Box::new(t2));
    mark_rows(&mut s, 2);
    palette(&mut s, "tags +c");
    let fx = s.on_key(key('y'));
    let sent = patches(&reqs(&fx));
    assert!(sent.iter().all(|(id, _)| *id != tid(2)), "{sent:?}");
    assert_eq!(sent, vec![(tid(1), json!({"tags": ["a", "b", "c"]}))]);
}

/// The status line is written one way (`State::say_passing`, under `say`
/// and `say_about`): a run's progress set it by hand, and had to set
/// `status_keyed` and `status_about` again beside it.
#[test]
fn the_status_line_is_written_by_the_status_helpers_alone() {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "tests") {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("app/state/mod.rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                for (i, l) in text.lines().enumerate() {
                    if l.contains("self.status = Some(") || l.contains("status_keyed =") {
                        out.push(format!("{}:{}: {}", p.display(), i + 1, l.trim()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    assert!(found.is_empty(), "written by hand: {found:#?}");
}
