//! API results come back here: the service's answer replaces local state.
//! `on_api` does what every answer needs (connectivity, the store, the
//! outbox, the directory); `apply_answer` is the table that hands each
//! answer to the feature that owns it.

use crate::app::state::{ApiRequest, ApiResult, Effect, Level, Pending, Reply, State};

impl State {
    pub fn on_api(&mut self, r: ApiResult) -> Vec<Effect> {
        if let ApiRequest::Prefetch(inner) = r.req {
            let read = match &*inner {
                ApiRequest::GetTask { id } => Some(id.clone()),
                _ => None,
            };
            let fx = self.on_prefetched(r.ticket, *inner, r.result);
            if let Some(id) = read {
                self.linked_task_read(&id);
            }
            return fx;
        }
        // Every answer says whether the service is reachable, and what it
        // says is kept (memory, the store).
        let mut fx = self.connectivity(&r);
        self.record(&r);
        // A read deciding between our write's answer and a copy shown.
        self.read_decided(&r);
        // A read that failed waits before prefetch asks again.
        self.note_read(&r.req, &r.result);
        // Bulk edits, undo and redo handle their own answers.
        if self.engine.owns(r.ticket) {
            fx.extend(self.engine_answer(r));
            return fx;
        }
        // A write's outcome goes into the history (undo, redo).
        self.note_answer(&r);
        let comments = matches!(
            r.req,
            ApiRequest::Comments { .. }
                | ApiRequest::AddComment { .. }
                | ApiRequest::ReplyComment { .. }
                | ApiRequest::EditComment { .. }
        );
        let outboxed = self.outbox_answer(&r);
        fx.extend(outboxed.fx);
        // An open `:outbox` shows the entries as they are now.
        let refused = outboxed
            .note
            .as_ref()
            .filter(|(l, _)| *l == Level::Error)
            .map(|(_, t)| t.clone());
        self.refresh_outbox_chooser(refused);
        let req = r.req.clone();
        if outboxed.handled {
            self.record_after(&req);
            return fx;
        }
        if self.keeps_shown_offline(&r) {
            self.inflight.remove(&r.ticket);
            return fx;
        }
        self.learn_from(&r);
        let current_tab_answer = matches!(
            &req,
            ApiRequest::Comments { id } | ApiRequest::Thread { id } | ApiRequest::GetTask { id }
                if self.detail.as_ref().is_some_and(|d| &d.task_id == id)
        );
        let task_read = matches!(r.result, Ok(Reply::Task(_)));
        fx.extend(self.apply_answer(r));
        // An edit that waited for this task whole (`edit/task.rs`).
        fx.extend(self.whole_arrived(&req, task_read));
        if let Some((level, note)) = outboxed.note {
            self.say(level, note);
        }
        self.mark_fresh(&req);
        if comments {
            self.rebuild_comment_tree();
        }
        if current_tab_answer {
            self.mark_seen();
        }
        self.record_after(&req);
        fx
    }

    /// Every person and team an answer names goes into the directory.
    fn learn_from(&mut self, r: &ApiResult) {
        let task = match &r.req {
            ApiRequest::Comments { id }
            | ApiRequest::AddComment { id, .. }
            | ApiRequest::ReplyComment { id, .. }
            | ApiRequest::EditComment { id, .. }
            | ApiRequest::Thread { id }
            | ApiRequest::ReplyRequester { id, .. }
            | ApiRequest::GetSharing { id }
            | ApiRequest::PutSharing { id, .. } => Some(self.label_of(id)),
            _ => None,
        };
        let task = task.as_deref();
        let d = &mut self.directory;
        match &r.result {
            Ok(Reply::Comments(v)) => v.iter().for_each(|c| d.learn_comment(c, task)),
            Ok(Reply::Comment(c)) => d.learn_comment(c, task),
            Ok(Reply::Messages(v)) => v.iter().for_each(|m| d.learn_message(m, task)),
            Ok(Reply::Message(m)) => d.learn_message(m, task),
            Ok(Reply::Sharing(s)) => d.learn_sharing(s, task),
            _ => {}
        }
    }

    /// One answer, handed to the feature that owns it: a table, one arm
    /// per request and outcome. The edit marks the answer ends are taken
    /// first (a PATCH says what it changed with them).
    fn apply_answer(&mut self, r: ApiResult) -> Vec<Effect> {
        self.inflight.remove(&r.ticket);
        let ApiResult {
            ticket,
            req,
            result,
        } = r;
        let pending: Vec<Pending> = self
            .pending
            .iter()
            .filter(|p| p.ticket == ticket)
            .cloned()
            .collect();
        self.pending.retain(|p| p.ticket != ticket);
        use ApiRequest as Q;
        match (req, result) {
            // Who the key acts as (`local/outbox/owner.rs`).
            (Q::Me, Ok(Reply::Me(me))) => self.identity_known(me),
            (Q::Me, Err(e)) => self.identity_failed(e),
            // The list's walk, tasks read, a task's tabs (`list/`).
            (Q::ListPage { gen, .. }, _) if gen != self.list.gen => vec![],
            (Q::ListPage { cursor, .. }, Ok(Reply::Page(page))) => {
                self.page_answered(ticket, cursor, page)
            }
            (Q::ListPage { cursor, .. }, Err(e)) => self.page_failed(cursor, e),
            (Q::RefreshPage { gen, page, .. }, res) => {
                self.on_refreshed_page(ticket, gen, page, res)
            }
            (Q::FindByNumber { number, .. }, res) => self.on_found(ticket, number, res),
            (Q::GetTask { id }, Ok(Reply::Task(t))) => self.task_read(ticket, id, *t),
            (Q::GetTask { id }, Err(e)) => self.task_read_failed(id, e),
            (Q::Subtasks { id }, res) => self.subtasks_loaded(id, res),
            (Q::Comments { id }, res) => self.comments_loaded(id, res),
            (Q::Thread { id }, res) => self.thread_loaded(id, res),
            // Changes made here (`edit/answers.rs`, `edit/share.rs`).
            (Q::Patch { id, patch }, Ok(Reply::Task(t))) => {
                self.patched(ticket, id, patch, *t, &pending)
            }
            (Q::Patch { id, .. }, Err(e)) => self.patch_failed(ticket, id, e, &pending),
            (Q::Delete { id }, Ok(_)) => self.draft_deleted(id),
            (Q::Delete { .. }, Err(e)) => self.change_failed("rejecting the draft", e),
            (Q::CreateSubtask { parent, .. }, Ok(Reply::Task(t))) => {
                self.subtask_created(parent, *t)
            }
            (Q::CreateSubtask { .. }, Err(e)) => self.change_failed("creating the subtask", e),
            (
                Q::AddComment { id, .. } | Q::ReplyComment { id, .. } | Q::EditComment { id, .. },
                res,
            ) => self.comment_saved(ticket, id, res),
            (Q::ReplyRequester { id, .. }, res) => self.requester_replied(ticket, id, res),
            (
                ref req @ (Q::AddLinks { .. }
                | Q::UpdateLink { .. }
                | Q::RemoveLink { .. }
                | Q::Attach { .. }
                | Q::Detach { .. }),
                Ok(Reply::Task(t)),
            ) => self.links_changed(ticket, req, *t),
            (Q::AddLinks { .. } | Q::UpdateLink { .. } | Q::RemoveLink { .. }, Err(e)) => {
                self.change_failed("link change", e)
            }
            (Q::Attach { .. } | Q::Detach { .. }, Err(e)) => self.change_failed("file change", e),
            (Q::GetSharing { id }, res) => self.sharing_loaded(id, res),
            (Q::PutSharing { id, update }, Ok(Reply::Sharing(s))) => {
                self.sharing_saved(ticket, id, &update, s)
            }
            (Q::PutSharing { id, update }, Err(e)) => {
                self.sharing_save_failed(ticket, id, update, &e)
            }
            // Pickers, popups and views.
            (Q::PickTasks { query, number }, res) => self.picked_tasks_answered(query, number, res),
            (Q::Validate { path, .. }, res) => self.layout_checked(&path, res),
            (Q::ViewCount { view, .. }, res) => self.view_counted(ticket, view, res),
            // Answered to the bulk engine only; prefetches are unwrapped
            // in `on_api` (see `list/prefetch/`).
            (Q::SharingForEdit { .. } | Q::Prefetch(_), _) => vec![],
            (req, Ok(_)) => unexpected_reply(&req),
        }
    }
}

/// An answer of a kind its request never gets: logged, nothing changed.
fn unexpected_reply(req: &ApiRequest) -> Vec<Effect> {
    tracing::warn!(request = %req.describe(), "unexpected reply kind");
    vec![]
}
