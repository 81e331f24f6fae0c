//! API results come back here: the service's answer replaces local state.

use crate::api::*;
use crate::app::state::{
    ApiRequest, ApiResult, Effect, Focus, Level, Load, Overlay, Pending, Reply, State, Tab,
};

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
        fx.extend(self.apply_answer(r));
        if let Some((level, note)) = outboxed.note {
            self.say(level, note);
        }
        if let Some(d) = &mut self.detail {
            match &req {
                ApiRequest::Comments { id } if *id == d.task_id => {
                    d.stale.remove("comments");
                }
                ApiRequest::Thread { id } if *id == d.task_id => {
                    d.stale.remove("thread");
                }
                ApiRequest::Subtasks { id } if *id == d.task_id => {
                    d.stale.remove("subtasks");
                }
                ApiRequest::GetSharing { id } if *id == d.task_id => {
                    d.stale.remove("sharing");
                }
                ApiRequest::GetTask { id } if *id == d.task_id => {
                    d.stale.remove("task");
                }
                _ => {}
            }
            if !d.stale.contains("task") {
                d.cached_at = None;
            }
        }
        if comments {
            self.rebuild_comment_tree();
        }
        if current_tab_answer {
            self.mark_seen();
        }
        self.record_after(&req);
        fx
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

    fn apply_answer(&mut self, r: ApiResult) -> Vec<Effect> {
        self.inflight.remove(&r.ticket);
        let ApiResult {
            ticket,
            req,
            result,
        } = r;
        let pending_fields: Vec<Pending> = self
            .pending
            .iter()
            .filter(|p| p.ticket == ticket)
            .cloned()
            .collect();
        self.pending.retain(|p| p.ticket != ticket);
        match (req, result) {
            (ApiRequest::Me, Ok(Reply::Me(me))) => {
                self.directory.learn_person(
                    &me.user_id,
                    me.user_name.raw(),
                    me.user_email.raw(),
                    None,
                );
                self.me = Some(me);
                self.me_error = None;
                self.owner.recheck = false;
                self.owner.asked = false;
                // The identity is confirmed: the outbox may send (it waits
                // for this, see `outbox_pump`).
                self.outbox_pump()
            }
            (ApiRequest::Me, Err(e)) => {
                let msg = format!("identity lookup failed: {e}");
                self.me_error = Some(msg.clone());
                self.say(Level::Error, msg);
                vec![]
            }
            (ApiRequest::ListPage { gen, .. }, _) if gen != self.list.gen => vec![],
            (ApiRequest::ListPage { cursor, .. }, Ok(Reply::Page(page))) => {
                self.cleared("list");
                self.apply_page(ticket, cursor, page)
            }
            (ApiRequest::RefreshPage { gen, page, .. }, result) => {
                self.on_refreshed_page(ticket, gen, page, result)
            }
            (ApiRequest::ListPage { cursor, .. }, Err(e)) => {
                self.list_walk_failed(cursor.is_none());
                let msg = format!("loading tasks failed: {e}");
                self.list.error = Some(msg.clone());
                self.say_about("list", Level::Error, msg);
                vec![]
            }
            (ApiRequest::PickTasks { query, number }, result) => {
                let q = query.query.clone().unwrap_or_default();
                self.on_picked_tasks(
                    Some(q),
                    number,
                    match result {
                        Ok(Reply::Page(p)) => Ok(p),
                        Ok(Reply::Found(found, _)) => Ok(TaskPage {
                            items: found.into_iter().map(TaskItem::Task).collect(),
                            cursor: None,
                        }),
                        Ok(_) => Err("unexpected answer".into()),
                        Err(e) => Err(e.to_string()),
                    },
                );
                vec![]
            }
            (ApiRequest::FindByNumber { number, .. }, result) => {
                self.on_found(ticket, number, result)
            }
            (ApiRequest::GetTask { id }, Ok(Reply::Task(t))) => {
                if let Some(fx) = self.number_check(&id, Ok(&t)) {
                    return fx;
                }
                self.cleared(&id);
                self.replace_task(*t, ticket);
                vec![]
            }
            (ApiRequest::GetTask { id }, Err(e)) => {
                if let Some(fx) = self.number_check(&id, Err(&e)) {
                    return fx;
                }
                if matches!(e, ApiError::NotFound { .. }) {
                    // Said once: it is not read again until a refresh.
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
            (ApiRequest::Patch { id, patch }, Ok(Reply::Task(t))) => {
                let what: Vec<String> = pending_fields.iter().map(done_text).collect();
                let label = t.label();
                let archived_now = patch.archived == Some(true) && t.archived;
                self.replace_task(*t, ticket);
                if archived_now
                    && self.history.undo_stack.last().is_some_and(|op| {
                        self.history
                            .get(*op)
                            .is_some_and(|o| o.records.iter().any(|r| r.task_id == id))
                    })
                {
                    let key = self
                        .keymap
                        .key_for(crate::app::keymap::Action::Undo)
                        .unwrap_or_else(|| ":undo".into());
                    self.say(
                        Level::Success,
                        format!("archived {label} — {key} restores it (:undo)"),
                    );
                    return vec![];
                }
                if self.sending.contains_key(&ticket) {
                    self.compose_succeeded(ticket, &what.join(", "));
                } else if what.is_empty() {
                    self.say(Level::Success, format!("{label} updated"));
                } else {
                    self.say(Level::Success, format!("{label}: {}", what.join(", ")));
                }
                vec![]
            }
            (ApiRequest::Patch { .. }, Err(e)) if self.sending.contains_key(&ticket) => {
                self.compose_failed(ticket, e);
                vec![]
            }
            (ApiRequest::Patch { id, .. }, Err(e)) => {
                let what: Vec<String> = pending_fields
                    .iter()
                    .map(|p| p.field.replace('_', " "))
                    .collect();
                let label = self.label_of(&id);
                let what = if what.is_empty() {
                    "the task".into()
                } else {
                    what.join(", ")
                };
                if e.outcome_unknown() {
                    // It may have been applied: never resent, but read back
                    // so the screen shows what the service has.
                    self.say(
                        Level::Error,
                        format!(
                            "{label}: changing {what}: {e} — outcome unknown, reading the task back"
                        ),
                    );
                    return vec![self.request(ApiRequest::GetTask { id })];
                }
                self.say(
                    Level::Error,
                    format!("{label}: changing {what} failed: {e}"),
                );
                vec![]
            }
            (ApiRequest::Delete { id }, Ok(_)) => {
                let label = self.label_of(&id);
                // Gone on the service: no picker offers it again (`:drafts`
                // reads memory and the store); its copy stays known.
                self.local.deleted.insert(id.clone());
                self.local
                    .store(crate::store::worker::StoreCmd::ForgetTask(id.clone()));
                if let Some(i) = self.list.position(&id) {
                    let gone = self.list.items.remove(i);
                    self.list.reindex();
                    self.rows_leave([gone]);
                    // The cursor stays on the row it was on.
                    if i < self.list.selected {
                        self.list.selected -= 1;
                    }
                    self.list.selected = self
                        .list
                        .selected
                        .min(self.list.items.len().saturating_sub(1));
                }
                let mut fx = Vec::new();
                if self.detail.as_ref().is_some_and(|d| d.task_id == id) {
                    // The current task is gone: the row under the cursor
                    // (if any) is current now, and the screen says so.
                    self.detail = None;
                    self.focus = Focus::List;
                    fx = self.follow_cursor();
                }
                self.say(
                    Level::Success,
                    format!("draft {label} rejected (deleted on the service)"),
                );
                fx
            }
            (ApiRequest::Delete { .. }, Err(e)) => {
                self.say(Level::Error, format!("rejecting the draft failed: {e}"));
                vec![]
            }
            (ApiRequest::Subtasks { id }, result) => {
                if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
                    d.subtasks = match result {
                        Ok(Reply::Items(v)) => Load::Loaded(v),
                        Ok(_) => Load::Failed("unexpected answer".into()),
                        Err(e) => Load::Failed(e.to_string()),
                    };
                }
                vec![]
            }
            (ApiRequest::CreateSubtask { parent, .. }, Ok(Reply::Task(t))) => {
                self.say(Level::Success, format!("subtask {} created", t.label()));
                if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == parent) {
                    d.subtasks = Load::NotLoaded;
                    d.tab = Tab::Subtasks;
                    return self.load_tab(Tab::Subtasks);
                }
                vec![]
            }
            (ApiRequest::CreateSubtask { .. }, Err(e)) => {
                self.say(Level::Error, format!("creating the subtask failed: {e}"));
                vec![]
            }
            (ApiRequest::Comments { id }, result) => {
                if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
                    d.comments = match result {
                        Ok(Reply::Comments(v)) => Load::Loaded(v),
                        Err(ApiError::NotAvailable { .. }) => {
                            d.comments_local_only = true;
                            Load::Loaded(vec![])
                        }
                        Err(e) => Load::Failed(e.to_string()),
                        Ok(_) => Load::Failed("unexpected answer".into()),
                    };
                }
                vec![]
            }
            (
                ApiRequest::AddComment { id, .. }
                | ApiRequest::ReplyComment { id, .. }
                | ApiRequest::EditComment { id, .. },
                result,
            ) => {
                let result = result.and_then(|r| match r {
                    Reply::Comment(c) => Ok(c),
                    _ => Err(ApiError::Decode {
                        message: "unexpected answer".into(),
                        excerpt: String::new(),
                    }),
                });
                match result {
                    Ok(c) => {
                        let list = self.local_comments.entry(id.clone()).or_default();
                        list.retain(|x| x.id != c.id);
                        list.push(c.clone());
                        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
                            if let Load::Loaded(v) = &mut d.comments {
                                v.retain(|x| x.id != c.id);
                                v.push(c);
                            }
                        }
                        self.compose_succeeded(ticket, "comment saved");
                    }
                    Err(e) => self.compose_failed(ticket, e),
                }
                vec![]
            }
            (ApiRequest::Thread { id }, result) => {
                if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
                    d.thread = match result {
                        Ok(Reply::Messages(v)) => Load::Loaded(v),
                        Err(ApiError::NotAvailable { .. }) => {
                            d.thread_unavailable = true;
                            Load::Loaded(vec![])
                        }
                        Err(e) => Load::Failed(e.to_string()),
                        Ok(_) => Load::Failed("unexpected answer".into()),
                    };
                }
                vec![]
            }
            (ApiRequest::ReplyRequester { id, .. }, result) => {
                match result {
                    Ok(Reply::Message(m)) => {
                        let shown = delivery_text(m.delivery_status.as_ref());
                        self.replies.entry(id).or_default().push(m);
                        self.compose_succeeded(ticket, shown);
                    }
                    Ok(_) => self.compose_failed(
                        ticket,
                        ApiError::Decode {
                            message: "unexpected answer".into(),
                            excerpt: String::new(),
                        },
                    ),
                    Err(e) => self.compose_failed(ticket, e),
                }
                vec![]
            }
            (
                ref req @ (ApiRequest::AddLinks { .. }
                | ApiRequest::UpdateLink { .. }
                | ApiRequest::RemoveLink { .. }
                | ApiRequest::Attach { .. }
                | ApiRequest::Detach { .. }),
                Ok(Reply::Task(t)),
            ) => {
                let label = t.label();
                let what = match &req {
                    ApiRequest::AddLinks { links, .. } => {
                        format!("{} linked", plural(links.len(), "item", "items"))
                    }
                    ApiRequest::UpdateLink {
                        kind, item, update, ..
                    } => {
                        let name = link_name(&t, item);
                        match (&update.role, &update.context) {
                            (Some(r), _) => format!("link to {kind} {name} is now {r}"),
                            (None, Some(None)) => format!("check ids of {kind} {name} cleared"),
                            (None, Some(Some(ids))) => {
                                format!("{kind} {name} checks {}", plural(ids.len(), "id", "ids"))
                            }
                            (None, None) => format!("link to {kind} {name} updated"),
                        }
                    }
                    ApiRequest::RemoveLink { kind, .. } => format!("{kind} link removed"),
                    ApiRequest::Attach { file_ids, .. } => {
                        format!("{} attached", plural(file_ids.len(), "file", "files"))
                    }
                    ApiRequest::Detach { .. } => {
                        "file detached (the file itself stays uploaded)".into()
                    }
                    _ => "updated".into(),
                };
                self.replace_task(*t, ticket);
                self.say(Level::Success, format!("{label}: {what}"));
                vec![]
            }
            (
                ApiRequest::AddLinks { .. }
                | ApiRequest::UpdateLink { .. }
                | ApiRequest::RemoveLink { .. },
                Err(e),
            ) => {
                self.say(Level::Error, format!("link change failed: {e}"));
                vec![]
            }
            (ApiRequest::Attach { .. } | ApiRequest::Detach { .. }, Err(e)) => {
                self.say(Level::Error, format!("file change failed: {e}"));
                vec![]
            }
            (ApiRequest::GetSharing { id }, result) => {
                let mut edit = false;
                if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
                    d.sharing = match result {
                        Ok(Reply::Sharing(s)) => Load::Loaded(s),
                        Ok(_) => Load::Failed("unexpected answer".into()),
                        Err(e) => Load::Failed(e.to_string()),
                    };
                    edit = std::mem::take(&mut d.edit_sharing_when_loaded)
                        && matches!(d.sharing, Load::Loaded(_))
                        && matches!(self.overlay, Overlay::None);
                }
                if edit {
                    if let Err(e) = self.open_sharing() {
                        self.say(Level::Error, e);
                    }
                }
                vec![]
            }
            (ApiRequest::PutSharing { id, update }, Ok(Reply::Sharing(s))) => {
                self.sharing_saved(ticket, id, &update, s)
            }
            (ApiRequest::PutSharing { id, update }, Err(e)) => {
                self.sharing_save_failed(ticket, id, update, &e)
            }
            // Answered to the bulk engine only.
            (ApiRequest::SharingForEdit { .. }, _) => vec![],
            (ApiRequest::Validate { path, .. }, result) => {
                let lines = match result {
                    Ok(Reply::Layout(l, _)) => crate::app::popups::text::layout_lines(&l),
                    Ok(_) => vec!["unexpected answer".into()],
                    Err(e) => vec![e.to_string()],
                };
                self.overlay = Overlay::Text {
                    title: format!("Layout check: {}", crate::text::clean(&path)),
                    lines,
                    scroll: 0,
                };
                vec![]
            }
            (ApiRequest::ViewCount { view, .. }, result) => self.view_counted(ticket, view, result),
            // Unwrapped in `on_api` (see `list/prefetch/`).
            (ApiRequest::Prefetch(_), _) => vec![],
            (req, Ok(_)) => {
                tracing::warn!(request = %req.describe(), "unexpected reply kind");
                vec![]
            }
        }
    }
}

/// What a confirmed edit did, in words ("status → completed").
fn done_text(p: &Pending) -> String {
    let v = crate::text::clean(&p.value);
    match (p.field.as_str(), v.as_str()) {
        ("archived", "archived") => "archived".into(),
        ("archived", _) => "restored".into(),
        ("draft", _) => "draft accepted".into(),
        ("complete_by", "none") => "due date cleared".into(),
        // Local time, as everywhere else on screen.
        ("complete_by", due) => format!("due → {}", crate::app::dates::when(Some(due))),
        ("assigned_to", "nobody") => "unassigned".into(),
        ("assigned_to", who) => format!("assigned to {who}"),
        ("description" | "additional_context", "none") => {
            format!("{} cleared", p.field.replace('_', " "))
        }
        ("description" | "additional_context", _) => {
            format!("{} saved", p.field.replace('_', " "))
        }
        (field, "none") => format!("{} cleared", field.replace('_', " ")),
        (field, value) => format!("{} → {value}", field.replace('_', " ")),
    }
}

use crate::domain::words::{delivery_text, plural, GONE};

/// A linked item's display name, quoted.
fn link_name(t: &Task, item: &str) -> String {
    t.linked_items
        .iter()
        .find(|l| l.id == item)
        .map(|l| format!("{:?}", l.display_name.line()))
        .unwrap_or_default()
}
