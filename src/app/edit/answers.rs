//! The service's answers to changes made here: a PATCH (in words, "#12:
//! status → completed", or read back when its outcome is unknown), a
//! draft rejected, a subtask created, a comment or a reply sent, links and
//! files changed. The service's copy replaces ours; a failure is said with
//! what was being changed. `dispatch::results` hands each answer here.

use crate::api::*;
use crate::app::state::{
    ApiRequest, Effect, Focus, Level, Load, Origin, Pending, Reply, State, Tab,
};
use crate::domain::words::{plural, reply_said};

impl State {
    /// A PATCH answered with the task: its copy replaces ours, and the
    /// status line says what changed (an archive says how to undo it).
    pub(crate) fn patched(
        &mut self,
        ticket: u64,
        id: String,
        patch: TaskPatch,
        t: Task,
        pending: &[Pending],
    ) -> Vec<Effect> {
        let what: Vec<String> = pending.iter().map(Pending::done_words).collect();
        let label = t.label();
        let archived_now = patch.archived == Some(true) && t.archived;
        let read = self.write_answered(t, ticket);
        if archived_now
            && self.history.undo_stack.last().is_some_and(|op| {
                self.history
                    .get(*op)
                    .is_some_and(|o| o.records.iter().any(|r| r.task_id == id))
            })
        {
            // The key that undoes where the user is (issue 40 §4).
            let key = self
                .keymap
                .hint_key(self.key_contexts(), crate::app::keymap::Action::Undo)
                .unwrap_or_else(|| ":undo".into());
            self.say(
                Level::Success,
                format!("archived {label} — {key} restores it (:undo)"),
            );
            return read;
        }
        if self.sending.contains_key(&ticket) {
            self.compose_succeeded(ticket, &what.join(", "));
        } else if what.is_empty() {
            self.say(Level::Success, format!("{label} updated"));
        } else {
            self.say(Level::Success, format!("{label}: {}", what.join(", ")));
        }
        read
    }

    /// A PATCH failed: a composer's send says so in the composer; an edit
    /// whose outcome is unknown is never sent again but read back.
    pub(crate) fn patch_failed(
        &mut self,
        ticket: u64,
        id: String,
        e: ApiError,
        pending: &[Pending],
    ) -> Vec<Effect> {
        if self.sending.contains_key(&ticket) {
            self.compose_failed(ticket, e);
            return vec![];
        }
        let what: Vec<String> = pending.iter().map(|p| p.name()).collect();
        let label = self.label_of(&id);
        let what = if what.is_empty() {
            "the task".into()
        } else {
            what.join(", ")
        };
        if e.outcome_unknown() {
            // It may have been applied: never resent, but read back so
            // the screen shows what the service has.
            self.say(
                Level::Error,
                format!("{label}: changing {what}: {e} — outcome unknown, reading the task back"),
            );
            return vec![self.request(ApiRequest::GetTask { id })];
        }
        self.say(
            Level::Error,
            format!("{label}: changing {what} failed: {e}"),
        );
        vec![]
    }

    /// A draft rejected: gone on the service, from the list and from the
    /// pickers (its copy stays known); the row under the cursor is
    /// current if it was.
    pub(crate) fn draft_deleted(&mut self, id: String) -> Vec<Effect> {
        let label = self.label_of(&id);
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
        let under_a_popup = self.overlay.bound_task() == Some(id.as_str());
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
            if under_a_popup {
                // A composer (or the sharing editor) was opened on it
                // before the answer came: the detail stays under it, out
                // of the list, so that what is written is never sent to
                // the neighbour that took its row (simulator seed
                // 196387919095221932). Sending it is then refused by the
                // service, and the text kept.
                d.origin = Origin::Elsewhere;
            } else {
                self.detail = None;
                self.focus = Focus::List;
                fx = self.follow_cursor();
            }
        }
        let open = if under_a_popup {
            "; what you are writing on it cannot be sent there"
        } else {
            ""
        };
        self.say(
            Level::Success,
            format!("draft {label} rejected (deleted on the service){open}"),
        );
        fx
    }

    /// A popup closed over the detail of a draft rejected while it was
    /// open (kept under it, out of the list: [`State::draft_deleted`]):
    /// the detail now follows the cursor, as it does when no popup is.
    pub(crate) fn leave_deleted_detail(&mut self) -> Vec<Effect> {
        let stale = self.detail.as_ref().is_some_and(|d| {
            d.origin == Origin::Elsewhere
                && self.local.deleted.contains(&d.task_id)
                && self.list.position(&d.task_id).is_none()
        });
        if !stale {
            return vec![];
        }
        self.detail = None;
        self.focus = Focus::List;
        self.follow_cursor()
    }

    /// A subtask created under `parent`: its Subtasks tab is read again
    /// when it is shown.
    pub(crate) fn subtask_created(&mut self, parent: String, t: Task) -> Vec<Effect> {
        self.say(Level::Success, format!("subtask {} created", t.label()));
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == parent) {
            d.subtasks = Load::NotLoaded;
            d.tab = Tab::Subtasks;
            return self.load_tab(Tab::Subtasks);
        }
        vec![]
    }

    /// A change failed as a whole: said with what it was ("link change").
    pub(crate) fn change_failed(&mut self, what: &str, e: ApiError) -> Vec<Effect> {
        self.say(Level::Error, format!("{what} failed: {e}"));
        vec![]
    }

    /// A comment added, answered or edited: kept with those written here
    /// and shown; the composer's send ends.
    pub(crate) fn comment_saved(
        &mut self,
        ticket: u64,
        id: String,
        result: Result<Reply, ApiError>,
    ) -> Vec<Effect> {
        let result = result.and_then(|r| match r {
            Reply::Comment(c) => Ok(c),
            _ => Err(unexpected()),
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

    /// A reply to the requester sent: kept, and its delivery said.
    pub(crate) fn requester_replied(
        &mut self,
        ticket: u64,
        id: String,
        result: Result<Reply, ApiError>,
    ) -> Vec<Effect> {
        match result {
            Ok(Reply::Message(m)) => {
                let shown = reply_said(m.delivery_status.as_ref());
                self.replies.entry(id).or_default().push(m);
                self.compose_succeeded(ticket, &shown);
            }
            Ok(_) => self.compose_failed(ticket, unexpected()),
            Err(e) => self.compose_failed(ticket, e),
        }
        vec![]
    }

    /// Links or files changed: the service's copy replaces ours, and the
    /// status line says what changed.
    pub(crate) fn links_changed(&mut self, ticket: u64, req: &ApiRequest, t: Task) -> Vec<Effect> {
        let label = t.label();
        let what = match req {
            ApiRequest::AddLinks { links, .. } => format!(
                "linked {}",
                crate::app::edit::changes::linked_items(links, &|k, i| self.link_label(
                    Some(&t),
                    k,
                    i
                ))
            ),
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
            ApiRequest::RemoveLink { kind, item, .. } => {
                format!("unlinked {}", self.link_label(None, kind, item))
            }
            ApiRequest::Attach { file_ids, .. } => {
                format!("{} attached", plural(file_ids.len(), "file", "files"))
            }
            ApiRequest::Detach { .. } => "file detached (the file itself stays uploaded)".into(),
            _ => "updated".into(),
        };
        let read = self.write_answered(t, ticket);
        self.say(Level::Success, format!("{label}: {what}"));
        read
    }
}

fn unexpected() -> ApiError {
    ApiError::Decode {
        message: "unexpected answer".into(),
        excerpt: String::new(),
    }
}

/// A linked item's display name, quoted (cleaned as everywhere, not
/// Debug-escaped).
fn link_name(t: &Task, item: &str) -> String {
    t.linked_items
        .iter()
        .find(|l| l.id == item)
        .map(|l| format!("\"{}\"", l.display_name.line()))
        .unwrap_or_default()
}
