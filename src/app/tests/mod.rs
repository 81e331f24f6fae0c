//! Reducer tests: feed keys, commands and answers; assert the exact
//! requests emitted and the resulting state. Helpers here, tests by
//! subject in the files below.

mod bulk;
mod custom;
mod edit;
mod fields;
mod inbox;
mod list;
pub(crate) mod local;
pub(crate) mod macros;
mod props;
mod undo;
pub(crate) mod views;

use super::state::*;
use crate::api::*;
use crate::config::Settings;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{json, Value};

/// The due date's wire name, from the field table.
pub(crate) const DUE: &str = crate::domain::task_field::TaskField::Due.wire();

pub fn task_json(n: i64) -> Value {
    json!({
        "id": format!("00000000-0000-4000-8000-{n:012}"),
        "display_id": format!("#{n}"),
        "task_number": n,
        "title": format!("Task number {n}"),
        "description": "Do the thing",
        "additional_context": null,
        "status": "in_progress",
        "priority": "high",
        "team": {"id": "team-1", "name": "Ops"},
        "creator": {"id": "u-bob", "name": "Bob", "email": "bob@acme.test"},
        "assigned_to": {"id": "u-me", "name": "Me Myself", "email": "me@acme.test"},
        "assigned_agent": null, "assigned_team": null, "matter": null,
        DUE: null,
        "tags": ["a", "b"],
        "visibility": "customer",
        "archived": false, "draft": false,
        "involved_people": [],
        "shared_teams": [],
        "linked_items": [
            {"type": "review", "id": "11111111-1111-4111-8111-111111111111", "display_name": "Review R", "role": "reference", "context": {"check_ids": ["c1"]}, "is_output": false},
            {"type": "chat", "id": "22222222-2222-4222-8222-222222222222", "display_name": "Chat C", "role": "reference", "context": null, "is_output": false}
        ],
        "input_files": [{"id": "33333333-3333-4333-8333-333333333333", "name": "in.pdf"}],
        "output_files": [],
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-01T10:00:00Z"
    })
}

pub fn task(n: i64) -> Task {
    serde_json::from_value(task_json(n)).unwrap()
}

pub(crate) fn tid(n: i64) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

pub fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

pub fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

pub fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

pub fn reqs(fx: &[Effect]) -> Vec<ApiRequest> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api { req, .. } => Some((**req).clone()),
            _ => None,
        })
        .collect()
}

pub(crate) fn ticket_of(fx: &[Effect]) -> u64 {
    fx.iter()
        .find_map(|e| match e {
            Effect::Api { ticket, .. } => Some(*ticket),
            _ => None,
        })
        .expect("a request")
}

/// A state with identity known and `n` tasks loaded (end of list reached).
pub fn loaded(n: i64) -> State {
    loaded_with(&Settings::default(), n)
}

/// `loaded`, with `settings` (views, custom commands, keys).
pub fn loaded_with(settings: &Settings, n: i64) -> State {
    loaded_with_tasks(settings, (1..=n).map(task).collect())
}

/// `loaded_with`, with these tasks (hostile text, odd values).
pub fn loaded_with_tasks(settings: &Settings, tasks: Vec<Task>) -> State {
    let mut s = crate::app::new_state("svc.test".into(), settings, false);
    let fx = s.start();
    let t_me = ticket_of(&fx);
    s.on_api(ApiResult {
        ticket: t_me,
        req: ApiRequest::Me,
        result: Ok(Reply::Me(Identity {
            user_id: "u-me".into(),
            customer_id: "c1".into(),
            user_name: "Me Myself".into(),
            user_email: "me@acme.test".into(),
            customer_name: "Acme".into(),
            extra: Default::default(),
        })),
    });
    let page_req = reqs(&fx)[1].clone();
    s.on_api(ApiResult {
        ticket: t_me + 1,
        req: page_req,
        result: Ok(Reply::Page(TaskPage {
            items: tasks
                .into_iter()
                .map(|t| TaskItem::Task(Box::new(t)))
                .collect(),
            cursor: None,
        })),
    });
    s
}

/// Draw one frame of `w`×`h`: what a click lands on is where a frame
/// drew it (`State::hits`), as in the TUI, which draws before the user
/// can click.
pub(crate) fn drawn(s: &mut State, w: u16, h: u16) {
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    term.draw(|f| crate::ui::draw(f, s, &crate::ui::Theme::dark()))
        .unwrap();
}

pub(crate) fn type_str(s: &mut State, text: &str) -> Vec<Effect> {
    let mut fx = Vec::new();
    for c in text.chars() {
        fx.extend(s.on_key(key(c)));
    }
    fx
}

/// Run a palette command as a user would: `:` + text + Enter.
pub(crate) fn palette(s: &mut State, text: &str) -> Vec<Effect> {
    let mut fx = s.on_key(key(':'));
    fx.extend(type_str(s, text));
    fx.extend(s.on_key(code(KeyCode::Enter)));
    fx
}

pub(crate) fn answer(s: &mut State, fx: &[Effect], result: Result<Reply, ApiError>) -> Vec<Effect> {
    answer_where(s, fx, |_| true, result)
}

/// The service's whole answer to a list request: the tasks `numbers`, one
/// page, no cursor.
pub(crate) fn whole_page(numbers: impl IntoIterator<Item = i64>) -> Result<Reply, ApiError> {
    Ok(Reply::Page(TaskPage {
        items: numbers
            .into_iter()
            .map(|i| TaskItem::Task(Box::new(task(i))))
            .collect(),
        cursor: None,
    }))
}

/// Answer the request in `fx` that `which` picks.
pub(crate) fn answer_where(
    s: &mut State,
    fx: &[Effect],
    which: impl Fn(&ApiRequest) -> bool,
    result: Result<Reply, ApiError>,
) -> Vec<Effect> {
    let (ticket, req) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Api { ticket, req } if which(req) => Some((*ticket, (**req).clone())),
            _ => None,
        })
        .expect("the request to answer");
    s.on_api(ApiResult {
        ticket,
        req,
        result,
    })
}

/// A refresh of the list, its page answered with `result` (the scene
/// many tests wrote out again: a check that fails, then one that passes).
pub(crate) fn refresh_answered(s: &mut State, result: Result<Reply, ApiError>) -> Vec<Effect> {
    let fx = s.refresh();
    answer_where(s, &fx, |r| matches!(r, ApiRequest::ListPage { .. }), result)
}

/// The service busy: a 503.
pub(crate) fn busy() -> Result<Reply, ApiError> {
    Err(ApiError::Status {
        status: 503,
        message: "busy".into(),
    })
}

pub(crate) fn only_patch(fx: &[Effect]) -> (String, Value) {
    let r = reqs(fx);
    assert_eq!(r.len(), 1, "exactly one request: {r:?}");
    match &r[0] {
        ApiRequest::Patch { id, patch } => (id.clone(), patch.to_json()),
        other => panic!("expected a PATCH, got {other:?}"),
    }
}

pub(crate) fn open_tab(s: &mut State, tab: Tab) -> Vec<Effect> {
    let mut fx = s.on_key(code(KeyCode::Enter));
    while s.detail.as_ref().unwrap().tab != tab {
        fx.extend(s.on_key(key(']')));
    }
    fx
}

/// A task's sharing as the service answers it: private, shared with
/// `users` (the service's entries), no team.
pub(crate) fn sharing_state(users: Value) -> SharingState {
    serde_json::from_value(json!({
        "visibility": "private", "users": users, "teams": []
    }))
    .unwrap()
}

/// The current task's Sharing tab opened, its sharing answered as
/// [`sharing_state`] of `users`, then the sharing editor opened (`S`).
pub(crate) fn sharing_editor_open(s: &mut State, users: Value) {
    let fx = open_tab(s, Tab::Sharing);
    answer_where(
        s,
        &fx,
        |r| matches!(r, ApiRequest::GetSharing { .. }),
        Ok(Reply::Sharing(sharing_state(users))),
    );
    s.on_key(key('S'));
    assert!(matches!(s.overlay, Overlay::Sharing(_)));
}

impl State {
    /// The next page's request: the one in `fx`, else one asked for now
    /// (as scrolling would).
    pub(crate) fn next_page_if_any(&mut self, fx: Vec<Effect>) -> Vec<Effect> {
        if reqs(&fx)
            .iter()
            .any(|r| matches!(r, ApiRequest::ListPage { .. }))
        {
            fx
        } else {
            vec![self.next_page()]
        }
    }
}

/// A write lost its connection: before anything queued is sent, who the
/// key acts as is asked again (issue 32, point 4). `fx` holds that
/// `GET /me` alone; it names the same user (`loaded`'s); returns what
/// follows.
pub(crate) fn confirm_me(s: &mut State, fx: &[Effect]) -> Vec<Effect> {
    assert_eq!(reqs(fx), vec![ApiRequest::Me], "who the key acts as first");
    answer(
        s,
        fx,
        Ok(Reply::Me(Identity {
            user_id: "u-me".into(),
            ..Default::default()
        })),
    )
}
