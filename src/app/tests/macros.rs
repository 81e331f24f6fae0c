//! Macros (issue 44): the review renders every step per task, `y` sends
//! them through the single commands' requests in order, a failing step
//! stops its task and is said by name, `z` takes back fields and marks.

use super::bulk::{answer_all, mark_rows, n_of, patched};
use super::*;
use crate::app::bulk::JobState;
use crate::domain::macros::Macro;
use crate::inbox::InboxCmd;
use crate::store::MarkKind;

fn await_signature() -> Macro {
    Macro {
        name: "await-signature".into(),
        key: Some("M".into()),
        description: "Ask for the signed copy".into(),
        reply: Some(
            "Hello {requester}, could you send the signed copy of {title} ({number})?".into(),
        ),
        comment: Some("Asked {requester} for the signed copy.".into()),
        status: Some("waiting".into()),
        tags: vec!["+awaiting-signature".into(), "-a".into()],
        follow_up: Some("in 3 days".into()),
        ..Default::default()
    }
}

fn with_macro(m: Macro, tasks: Vec<Task>) -> State {
    let settings = Settings {
        macros: vec![m],
        ..Default::default()
    };
    let mut s = loaded_with_tasks(&settings, tasks);
    s.inbox.running = true;
    s
}

fn review(s: &State) -> Vec<String> {
    match &s.overlay {
        Overlay::Confirm { lines, .. } => lines.clone(),
        _ => panic!("the review expected; status {:?}", s.status),
    }
}

fn message(status: DeliveryStatus) -> Reply {
    Reply::Message(RequesterMessage {
        content: "x".into(),
        delivery_status: Some(status),
        ..Default::default()
    })
}

/// Answer a macro's requests: replies with `reply`, comments, PATCHes.
fn service(
    reply: impl Fn(&str) -> Result<Reply, ApiError>,
) -> impl Fn(&ApiRequest) -> Result<Reply, ApiError> {
    move |r| match r {
        ApiRequest::ReplyRequester { id, .. } => reply(id),
        ApiRequest::AddComment { content, .. } => Ok(Reply::Comment(Comment {
            id: "cm".into(),
            content: content.as_str().into(),
            ..Default::default()
        })),
        ApiRequest::Comments { .. } => Ok(Reply::Comments(vec![])),
        other => patched(other, |id| task(n_of(id))),
    }
}

fn marks(fx: &[Effect]) -> Vec<(String, MarkKind)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Inbox(InboxCmd::Mark(m)) => Some((m.task_id.clone(), m.kind)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_review_lists_every_step_per_task_with_the_texts_rendered_and_nothing_sent() {
    let mut hostile = task(2);
    hostile.title = "Lease {me} \u{1b}]0;pwned\u{7}".into();
    let mut s = with_macro(await_signature(), vec![task(1), hostile, task(3)]);
    mark_rows(&mut s, 2);
    let fx = palette(&mut s, "macro await-signature");
    assert!(reqs(&fx).is_empty(), "nothing is sent before y");
    let lines = review(&s);
    let text = lines.join("\n");
    assert!(
        lines[0].starts_with("macro await-signature on 2 tasks"),
        "{text}"
    );
    assert!(text.contains("#1 Task number 1"), "{text}");
    assert!(
        text.contains("  reply: Hello Bob, could you send the signed copy of Task number 1 (#1)?"),
        "{text}"
    );
    assert!(
        text.contains("  comment: Asked Bob for the signed copy."),
        "{text}"
    );
    assert!(text.contains("  status → waiting"), "{text}");
    assert!(text.contains("  tags +awaiting-signature -a"), "{text}");
    assert!(text.contains("  follow-up "), "{text}");
    // The service's title is text: `{me}` stays, control characters go.
    assert!(text.contains("of Lease {me} "), "{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
    assert!(!text.contains("#3"), "only the marked tasks: {text}");
}

#[test]
fn y_sends_reply_comment_and_fields_in_order_then_stores_the_follow_up() {
    let mut s = with_macro(await_signature(), vec![task(1)]);
    palette(&mut s, "macro await-signature");
    let fx = s.on_key(key('y'));
    let mut seen = Vec::new();
    let mut out = Vec::new();
    let mut queue: std::collections::VecDeque<Effect> = fx.into();
    let svc = service(|_| Ok(message(DeliveryStatus::Draft)));
    while let Some(e) = queue.pop_front() {
        match e {
            Effect::Api { ticket, req } => {
                seen.push((*req).clone());
                let result = svc(&req);
                queue.extend(s.on_api(ApiResult {
                    ticket,
                    req: *req,
                    result,
                }));
            }
            other => out.push(other),
        }
    }
    let kinds: Vec<&str> = seen
        .iter()
        .filter(|r| !matches!(r, ApiRequest::Comments { .. }))
        .map(|r| match r {
            ApiRequest::ReplyRequester { .. } => "reply",
            ApiRequest::AddComment { .. } => "comment",
            ApiRequest::Patch { patch, .. } if patch.status.is_some() => "status",
            ApiRequest::Patch { patch, .. } if patch.tags.is_some() => "tags",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, vec!["reply", "comment", "status", "tags"]);
    match &seen[0] {
        ApiRequest::ReplyRequester { content, .. } => assert_eq!(
            content,
            "Hello Bob, could you send the signed copy of Task number 1 (#1)?"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(marks(&out), vec![(tid(1), MarkKind::FollowUp)]);
    let said = &s.status.as_ref().unwrap().1;
    // The delivery as the service said it: a draft is never "sent".
    assert!(said.contains("#1: reply DRAFT"), "{said}");
    assert!(said.contains("status → waiting"), "{said}");
    assert!(said.contains("follow-up"), "{said}");
}

#[test]
fn a_failing_reply_is_said_by_name_with_what_was_and_was_not_done_and_not_retried() {
    let mut s = with_macro(await_signature(), vec![task(1), task(2), task(3)]);
    mark_rows(&mut s, 3);
    palette(&mut s, "macro await-signature");
    let fx = s.on_key(key('y'));
    let seen = answer_all(
        &mut s,
        fx,
        service(|id| {
            if n_of(id) == 2 {
                Err(ApiError::NotFound {
                    what: "requester thread".into(),
                    message: String::new(),
                })
            } else {
                Ok(message(DeliveryStatus::Sent))
            }
        }),
    );
    let replies_to_2 = seen
        .iter()
        .filter(|r| matches!(r, ApiRequest::ReplyRequester { id, .. } if *id == tid(2)))
        .count();
    assert_eq!(replies_to_2, 1, "nothing is retried");
    assert!(
        !seen.iter().any(|r| matches!(r, ApiRequest::Patch { id, .. } | ApiRequest::AddComment { id, .. } if *id == tid(2))),
        "a task stops at its failed step: {seen:?}"
    );
    let said = s.status.as_ref().unwrap().1.clone();
    assert!(
        said.starts_with("macro await-signature: 1 of 3 tasks failed"),
        "{said}"
    );
    assert!(said.contains("#2: reply failed"), "{said}");
    assert!(
        said.contains("done: nothing; not done: comment, status, tags, follow-up"),
        "{said}"
    );
    assert!(
        said.contains("#1: reply sent, comment added, status"),
        "{said}"
    );
    // The failed task stays marked with its error.
    assert!(s.marks.failed.contains_key(&tid(2)));
}

#[test]
fn z_takes_back_fields_and_follow_up_together_and_says_the_reply_stays() {
    let mut s = with_macro(await_signature(), vec![task(1)]);
    palette(&mut s, "macro await-signature");
    let fx = s.on_key(key('y'));
    answer_all(&mut s, fx, service(|_| Ok(message(DeliveryStatus::Sent))));
    let now: Vec<Task> = {
        let mut t = task(1);
        t.status = Status::WaitingOnExternal;
        t.tags = vec!["b".into(), "awaiting-signature".into()].into();
        vec![t]
    };
    let mut undo_fx = Vec::new();
    let mut queue: std::collections::VecDeque<Effect> = s.on_key(key('z')).into();
    let said_first = s.status.as_ref().unwrap().1.clone();
    assert!(
        said_first.contains("the reply and the comment, once sent, stay"),
        "{said_first}"
    );
    let mut sent = Vec::new();
    while let Some(e) = queue.pop_front() {
        match e {
            Effect::Api { ticket, req } => {
                sent.push((*req).clone());
                let result = patched(&req, |_| now[0].clone());
                queue.extend(s.on_api(ApiResult {
                    ticket,
                    req: *req,
                    result,
                }));
            }
            other => undo_fx.push(other),
        }
    }
    assert!(
        undo_fx
            .iter()
            .any(|e| matches!(e, Effect::Inbox(InboxCmd::Unmark(id, MarkKind::FollowUp)) if *id == tid(1))),
        "the follow-up is taken back: {undo_fx:?}"
    );
    let patches: Vec<serde_json::Value> = sent
        .iter()
        .filter_map(|r| match r {
            ApiRequest::Patch { patch, .. } => Some(patch.to_json()),
            _ => None,
        })
        .collect();
    assert!(
        patches.contains(&serde_json::json!({"status": "in_progress"})),
        "{patches:?}"
    );
    assert!(
        patches.contains(&serde_json::json!({"tags": ["b", "a"]})),
        "{patches:?}"
    );
    assert!(
        !sent.iter().any(|r| matches!(
            r,
            ApiRequest::ReplyRequester { .. } | ApiRequest::AddComment { .. }
        )),
        "nothing is said again"
    );
    let said = &s.status.as_ref().unwrap().1;
    assert!(
        said.contains("the reply and the comment, once sent, stay"),
        "{said}"
    );
}

#[test]
fn offline_the_fields_wait_in_the_outbox_and_the_reply_is_said_not_sent() {
    let m = Macro {
        name: "close".into(),
        description: "done".into(),
        status: Some("completed".into()),
        ..Default::default()
    };
    let mut s = with_macro(m, vec![task(1)]);
    palette(&mut s, "macro close");
    let fx = s.on_key(key('y'));
    answer(&mut s, &fx, Err(super::local::store::unreachable()));
    assert_eq!(s.outbox.len(), 1, "the status change waits in the outbox");
    let said = &s.status.as_ref().unwrap().1;
    assert!(said.contains("queued"), "{said}");
    assert!(s.engine.runs.is_empty());
    let _ = JobState::Queued;
}

#[test]
fn offline_the_reply_and_comment_are_kept_as_drafts_said_not_sent_and_the_fields_still_queue() {
    // Issue 44 §3: a POST is never queued (one lost after the service
    // applied it would be posted twice); it is said NOT SENT and kept as
    // the task's draft, and the task's later steps still go on.
    let dir = tempfile::tempdir().unwrap();
    let m = Macro {
        name: "close".into(),
        description: "done".into(),
        reply: Some("Hello {requester}, {title} is done.".into()),
        comment: Some("Closed by macro.".into()),
        status: Some("completed".into()),
        follow_up: Some("in 3 days".into()),
        ..Default::default()
    };
    let mut s = with_macro(m, vec![task(1)]);
    s.drafts = crate::app::state::drafts::Drafts::new(Some(dir.path().to_path_buf()));
    palette(&mut s, "macro close");
    let mut fx = s.on_key(key('y'));
    let mut asked = Vec::new();
    while fx.iter().any(|e| matches!(e, Effect::Api { .. })) {
        let Some(req) = fx.iter().find_map(|e| match e {
            Effect::Api { req, .. } => Some((**req).clone()),
            _ => None,
        }) else {
            break;
        };
        asked.push(req);
        let next = answer(&mut s, &fx, Err(super::local::store::unreachable()));
        fx = next;
    }
    assert!(
        matches!(asked[0], ApiRequest::ReplyRequester { .. })
            && matches!(asked[1], ApiRequest::AddComment { .. }),
        "the reply, then the comment, were tried: {asked:?}"
    );
    assert_eq!(s.outbox.len(), 1, "the status change waits in the outbox");
    assert!(
        s.outbox.iter().all(|o| !matches!(
            o.req,
            ApiRequest::ReplyRequester { .. } | ApiRequest::AddComment { .. }
        )),
        "no message is ever queued"
    );
    let vars = s.macro_vars(&task(1));
    assert_eq!(
        s.drafts.load(&tid(1), "requester"),
        Some(format!("Hello {}, {} is done.", vars.requester, vars.title)),
        "the reply, rendered, kept as the task's reply draft"
    );
    assert_eq!(
        s.drafts.load(&tid(1), "comment").as_deref(),
        Some("Closed by macro.")
    );
    let said = &s.status.as_ref().unwrap().1;
    assert!(
        said.contains("reply NOT SENT (offline): kept as its draft"),
        "{said}"
    );
    assert!(said.contains("comment NOT SENT (offline)"), "{said}");
    assert!(said.contains("queued"), "{said}");
    assert!(!said.contains("failed"), "{said}");
}

#[test]
fn the_key_of_a_macro_opens_its_review_and_a_macro_whose_key_is_taken_is_not_offered() {
    let mut s = with_macro(await_signature(), vec![task(1)]);
    s.on_key(key('M'));
    assert!(review(&s)[0].starts_with("macro await-signature on #1"));
    let taken = Macro {
        key: Some("j".into()),
        ..await_signature()
    };
    let s = with_macro(taken, vec![task(1)]);
    assert!(s.macros.is_empty(), "a key bound twice: never offered");
}

#[test]
fn help_and_the_palette_list_the_macros_with_their_descriptions() {
    let s = with_macro(await_signature(), vec![task(1)]);
    let help = crate::ui::help_lines(&s, "");
    assert!(
        help.iter()
            .any(|l| l.contains("M")
                && l.contains("Ask for the signed copy (:macro await-signature)")),
        "{help:?}"
    );
    let src = s.palette_sources();
    let offered = crate::app::popups::palette::complete("macro aw", &src);
    assert_eq!(offered, vec!["macro await-signature".to_string()]);
    assert_eq!(
        src.describe("macro await-signature"),
        Some("Ask for the signed copy")
    );
}

/// The review of a macro on 100 marked tasks, open.
pub(crate) fn review_of_100() -> State {
    let tasks: Vec<Task> = (1..=100).map(task).collect();
    let mut s = with_macro(await_signature(), tasks);
    mark_rows(&mut s, 100);
    palette(&mut s, "macro await-signature");
    s
}

fn scroll_of(s: &State) -> u16 {
    match &s.overlay {
        Overlay::Confirm { scroll, .. } => *scroll,
        _ => panic!("the review expected; status {:?}", s.status),
    }
}

#[test]
fn a_long_review_scrolls_with_the_view_keys_and_the_wheel_and_y_still_runs_it() {
    let mut s = review_of_100();
    let n = review(&s).len();
    assert!(n > 500, "every step of 100 tasks: {n} lines");
    assert_eq!(scroll_of(&s), 0);
    assert!(s.on_key(key('j')).is_empty(), "scrolling sends nothing");
    assert_eq!(scroll_of(&s), 1);
    let wheel = |kind| crossterm::event::MouseEvent {
        kind,
        column: 10,
        row: 10,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let now = std::time::Instant::now();
    s.on_mouse(wheel(crossterm::event::MouseEventKind::ScrollDown), now);
    assert_eq!(scroll_of(&s), 2, "the wheel scrolls the review");
    s.on_mouse(wheel(crossterm::event::MouseEventKind::ScrollUp), now);
    s.on_key(key('k'));
    s.on_key(key('k'));
    assert_eq!(scroll_of(&s), 0, "never above the first line");
    s.on_key(code(KeyCode::PageDown));
    assert_eq!(scroll_of(&s), 10);
    s.on_key(key('G'));
    assert_eq!(scroll_of(&s) as usize, n - 1, "G: the end, and no further");
    s.on_key(key('j'));
    assert_eq!(scroll_of(&s) as usize, n - 1);
    s.on_key(key('g'));
    assert_eq!(scroll_of(&s), 0);
    s.on_key(key('G'));
    // Scrolled, the answers are the same: y runs the macro on all 100.
    let fx = s.on_key(key('y'));
    assert!(matches!(s.overlay, Overlay::None));
    assert!(!reqs(&fx).is_empty(), "y runs it");
}
