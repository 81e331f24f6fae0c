//! The service's answers about what is read: a page of the list's walk,
//! one task, a task's subtasks, comments and requester thread. Each
//! replaces what is shown (a newer copy already shown wins, see
//! `local/freshness/`); a failure is said where it belongs (the list, the
//! detail) and nothing else is touched. `dispatch::results` hands each
//! answer here.

use crate::api::*;
use crate::app::state::{ApiRequest, Effect, Level, Load, Reply, State};
use crate::domain::words::GONE;

impl State {
    /// A page of the walk came back (the walk's generation was checked).
    pub(crate) fn page_answered(
        &mut self,
        ticket: u64,
        asked: Option<String>,
        page: TaskPage,
    ) -> Vec<Effect> {
        self.cleared("list");
        self.apply_page(ticket, asked, page)
    }

    /// A page of the walk failed: the walk stops there, and the list says
    /// why.
    pub(crate) fn page_failed(&mut self, asked: Option<String>, e: ApiError) -> Vec<Effect> {
        self.list_walk_failed(asked.is_none());
        let msg = format!("loading tasks failed: {e}");
        self.list.error = Some(msg.clone());
        self.say_about("list", Level::Error, msg);
        vec![]
    }

    /// A page of the walk failed: the walk stops where it was. A refresh
    /// that failed before its first page keeps the rows shown, and the old
    /// walk goes on from its cursor.
    pub(crate) fn list_walk_failed(&mut self, first_page: bool) {
        let l = &mut self.list;
        l.loading = false;
        if first_page && l.replacing {
            if let Some((c, end)) = l.before_refresh.take() {
                l.cursor = c;
                l.end_reached = end;
            }
        }
        l.replacing = false;
        l.keep_selected = None;
        l.refill_to = 0;
        l.previous.clear();
    }

    /// One task read: it replaces its row and the detail's copy, unless it
    /// answers an `:open #N` whose number it does not carry.
    pub(crate) fn task_read(&mut self, ticket: u64, id: String, t: Task) -> Vec<Effect> {
        if let Some(fx) = self.number_check(&id, Ok(&t)) {
            return fx;
        }
        self.cleared(&id);
        self.replace_task(t, ticket);
        vec![]
    }

    /// One task could not be read: gone (said once, not read again until
    /// a refresh) or failed, in the detail and on the status line.
    pub(crate) fn task_read_failed(&mut self, id: String, e: ApiError) -> Vec<Effect> {
        if let Some(fx) = self.number_check(&id, Err(&e)) {
            return fx;
        }
        if matches!(e, ApiError::NotFound { .. }) {
            if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
                d.error = Some(GONE.into());
            }
            let label = self.label_of(&id);
            self.say_about(&id, Level::Warn, format!("{label}: {GONE}"));
            return vec![];
        }
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
            d.error = Some(e.to_string());
        }
        self.say_about(&id, Level::Error, format!("loading the task failed: {e}"));
        vec![]
    }

    /// The Subtasks tab of task `id`, if it is shown.
    pub(crate) fn subtasks_loaded(
        &mut self,
        id: String,
        result: Result<Reply, ApiError>,
    ) -> Vec<Effect> {
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
            let items = |r| match r {
                Reply::Items(v) => Some(v),
                _ => None,
            };
            d.subtasks = tab_load(result, items, None);
        }
        vec![]
    }

    /// The Comments tab of task `id`, if it is shown; a service without
    /// comments leaves only those written here.
    pub(crate) fn comments_loaded(
        &mut self,
        id: String,
        result: Result<Reply, ApiError>,
    ) -> Vec<Effect> {
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
            let comments = |r| match r {
                Reply::Comments(v) => Some(v),
                _ => None,
            };
            d.comments = tab_load(result, comments, Some(&mut d.comments_local_only));
        }
        vec![]
    }

    /// The requester thread of task `id`, if it is shown; a task without
    /// a channel says so.
    pub(crate) fn thread_loaded(
        &mut self,
        id: String,
        result: Result<Reply, ApiError>,
    ) -> Vec<Effect> {
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
            let messages = |r| match r {
                Reply::Messages(v) => Some(v),
                _ => None,
            };
            d.thread = tab_load(result, messages, Some(&mut d.thread_unavailable));
        }
        vec![]
    }

    /// An answer for the detail's own task: that part of it is fresh
    /// again (the `stale` marks of an offline start).
    pub(crate) fn mark_fresh(&mut self, req: &ApiRequest) {
        let Some(d) = &mut self.detail else {
            return;
        };
        let part = match req {
            ApiRequest::Comments { id } if *id == d.task_id => Some("comments"),
            ApiRequest::Thread { id } if *id == d.task_id => Some("thread"),
            ApiRequest::Subtasks { id } if *id == d.task_id => Some("subtasks"),
            ApiRequest::GetSharing { id } if *id == d.task_id => Some("sharing"),
            ApiRequest::GetTask { id } if *id == d.task_id => Some("task"),
            _ => None,
        };
        if let Some(part) = part {
            d.stale.remove(part);
        }
        if !d.stale.contains("task") {
            d.cached_at = None;
        }
    }
}

/// A tab's rows from an answer: the reply of the kind asked (`take`), or
/// why not. With `unavailable`, a service that has no such thing
/// (`NotAvailable`) gives no rows and sets it, rather than a failure.
fn tab_load<T>(
    result: Result<Reply, ApiError>,
    take: impl FnOnce(Reply) -> Option<Vec<T>>,
    unavailable: Option<&mut bool>,
) -> Load<Vec<T>> {
    match (result, unavailable) {
        (Ok(r), _) => {
            take(r).map_or_else(|| Load::Failed("unexpected answer".into()), Load::Loaded)
        }
        (Err(ApiError::NotAvailable { .. }), Some(flag)) => {
            *flag = true;
            Load::Loaded(vec![])
        }
        (Err(e), _) => Load::Failed(e.to_string()),
    }
}
