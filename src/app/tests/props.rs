//! Property: whatever the user and the service do — navigation keys, opens,
//! focus changes, mouse events, answers in any order — the request of a
//! task action goes to the task the detail header shows.

use super::*;
use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Key(char),
    Code(KeyCode),
    Open(i64),
    Wheel(u16, u16, bool),
    Click(u16, u16),
    Answer(usize),
    Act(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        prop::sample::select(vec!['j', 'k', 'g', 'G', ']', '[', '<', '>', '+', '1'])
            .prop_map(Op::Key),
        prop::sample::select(vec![
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Tab,
            KeyCode::Down
        ])
        .prop_map(Op::Code),
        (1i64..9).prop_map(Op::Open),
        (0u16..160, 0u16..45, any::<bool>()).prop_map(|(c, r, d)| Op::Wheel(c, r, d)),
        (0u16..160, 0u16..45).prop_map(|(c, r)| Op::Click(c, r)),
        (0usize..8).prop_map(Op::Answer),
        (0usize..5).prop_map(Op::Act),
    ]
}

/// The task a task request is about.
fn target_of(r: &ApiRequest) -> Option<&str> {
    match r {
        ApiRequest::Patch { id, .. }
        | ApiRequest::AddComment { id, .. }
        | ApiRequest::ReplyComment { id, .. }
        | ApiRequest::ReplyRequester { id, .. }
        | ApiRequest::AddLinks { id, .. }
        | ApiRequest::Attach { id, .. }
        | ApiRequest::Delete { id } => Some(id),
        _ => None,
    }
}

/// A plausible answer for a request in flight.
fn reply_for(r: &ApiRequest) -> Result<Reply, ApiError> {
    let n_of = |id: &str| {
        id.rsplit('-')
            .next()
            .and_then(|n| n.parse::<i64>().ok())
            .unwrap_or(1)
    };
    match r {
        ApiRequest::GetTask { id } | ApiRequest::Patch { id, .. } => {
            Ok(Reply::Task(Box::new(task(n_of(id)))))
        }
        ApiRequest::FindByNumber { number, .. } => {
            Ok(Reply::Found(Some(Box::new(task(*number))), vec![]))
        }
        ApiRequest::ListPage { .. } => whole_page(1..=5),
        ApiRequest::Comments { .. } => Ok(Reply::Comments(vec![])),
        ApiRequest::Thread { .. } => Ok(Reply::Messages(vec![])),
        ApiRequest::Subtasks { .. } => Ok(Reply::Items(vec![])),
        _ => Err(ApiError::Status {
            status: 500,
            message: "no".into(),
        }),
    }
}

fn run(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let mut s = loaded(5);
    let mut inflight: Vec<(u64, ApiRequest)> = Vec::new();
    let track = |fx: &[Effect], inflight: &mut Vec<(u64, ApiRequest)>| {
        for e in fx {
            if let Effect::Api { ticket, req } = e {
                inflight.push((*ticket, (**req).clone()));
            }
        }
    };
    for op in ops {
        // Popups are closed between steps, as a user finishes a command.
        if !matches!(s.overlay, Overlay::None) {
            s.on_key(code(KeyCode::Esc));
            s.overlay = Overlay::None;
        }
        let fx = match op {
            Op::Key(c) => s.on_key(key(c)),
            Op::Code(c) => s.on_key(code(c)),
            Op::Open(n) => palette(&mut s, &format!("open #{n}")),
            Op::Wheel(column, row, down) => {
                crate::app::tests::drawn(&mut s, 160, 45);
                s.on_mouse(
                    MouseEvent {
                        kind: if down {
                            MouseEventKind::ScrollDown
                        } else {
                            MouseEventKind::ScrollUp
                        },
                        column,
                        row,
                        modifiers: KeyModifiers::NONE,
                    },
                    std::time::Instant::now(),
                )
                .0
            }
            Op::Click(column, row) => {
                crate::app::tests::drawn(&mut s, 160, 45);
                s.on_mouse(
                    MouseEvent {
                        kind: MouseEventKind::Down(MouseButton::Left),
                        column,
                        row,
                        modifiers: KeyModifiers::NONE,
                    },
                    std::time::Instant::now(),
                )
                .0
            }
            Op::Answer(i) if !inflight.is_empty() => {
                let (ticket, req) = inflight.remove(i % inflight.len());
                let result = reply_for(&req);
                s.on_api(ApiResult {
                    ticket,
                    req,
                    result,
                })
            }
            Op::Answer(_) => vec![],
            Op::Act(a) => {
                let shown = s
                    .detail
                    .as_ref()
                    .filter(|d| d.task.is_some())
                    .map(|d| d.task_id.clone());
                let mut fx = match a {
                    0 => s.on_key(key('x')),
                    1 => {
                        let mut fx = s.on_key(key('s'));
                        fx.extend(type_str(&mut s, "completed"));
                        fx.extend(s.on_key(code(KeyCode::Enter)));
                        fx
                    }
                    2 => {
                        let mut fx = s.on_key(key('c'));
                        fx.extend(type_str(&mut s, "hi"));
                        fx.extend(s.on_key(ctrl('s')));
                        fx
                    }
                    3 => {
                        let mut fx = s.on_key(key('R'));
                        fx.extend(type_str(&mut s, "hi"));
                        fx.extend(s.on_key(ctrl('s')));
                        fx
                    }
                    _ => palette(&mut s, "priority low"),
                };
                for r in reqs(&fx) {
                    if let Some(id) = target_of(&r) {
                        prop_assert_eq!(
                            Some(id),
                            shown.as_deref(),
                            "a task action went elsewhere: {:?}",
                            r
                        );
                    }
                }
                fx.retain(|e| !matches!(e, Effect::Quit));
                fx
            }
        };
        track(&fx, &mut inflight);
        // The list cursor, when active, is on the current task.
        if s.cursor_on_current() {
            prop_assert_eq!(
                s.list.selected_id(),
                s.detail.as_ref().map(|d| d.task_id.as_str())
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]
    #[test]
    fn a_task_action_always_lands_on_the_task_the_detail_shows(ops in prop::collection::vec(op(), 1..40)) {
        run(ops)?;
    }
}
