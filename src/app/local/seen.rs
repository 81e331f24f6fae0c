//! What the user saw and did: for each task what was last seen of it (its
//! version, comments, messages), so that changed rows and new comments are
//! marked and `:changed` lists them; and the tasks recently opened or acted
//! on, for `:recent`.

use super::cache::now_secs;
use crate::api::*;
use crate::app::state::{ApiRequest, Load, State};
use crate::store::worker::StoreCmd;
use crate::store::Recent;

impl State {
    /// What an answered request did, in words, for `:recent` (reads are
    /// not actions).
    pub(crate) fn action_words(&self, ticket: u64, req: &ApiRequest) -> Option<(String, String)> {
        use ApiRequest as R;
        let id = req.written_task()?;
        let fields: Vec<String> = self
            .pending
            .iter()
            .filter(|p| p.ticket == ticket)
            .map(|p| p.done_words())
            .collect();
        let what = match req {
            R::Delete { .. } => "draft rejected".to_string(),
            R::AddComment { .. } | R::ReplyComment { .. } => "commented".to_string(),
            R::EditComment { .. } => "comment edited".to_string(),
            R::ReplyRequester { .. } => "replied to the requester".to_string(),
            R::CreateSubtask { title, .. } => format!("subtask {title:?} created"),
            _ if !fields.is_empty() => fields.join(", "),
            other => other.describe(),
        };
        Some((id.to_string(), crate::text::clean(&what)))
    }

    /// Remember that the user opened or acted on a task.
    pub fn note_recent(&mut self, id: &str, action: &str) {
        if uuid::Uuid::parse_str(id).is_err() {
            return;
        }
        let task = self
            .known_copy(id)
            .or_else(|| self.current_task().filter(|t| t.id == id));
        let (label, title) = match task {
            Some(t) => (t.label(), t.title.line().into_owned()),
            None => (self.label_of(id), String::new()),
        };
        // Opening again does not hide what was done to it.
        let action = match self.local.recent.iter().find(|r| r.task_id == id) {
            Some(r) if action == "opened" && r.action != "opened" => r.action.clone(),
            _ => action.to_string(),
        };
        let r = Recent {
            task_id: id.to_string(),
            label,
            title,
            action,
            at: now_secs(),
        };
        self.local.recent.retain(|x| x.task_id != id);
        self.local.recent.insert(0, r.clone());
        self.local.recent.truncate(200);
        self.local.store(StoreCmd::Recent(r));
    }

    /// The task became current: what the user saw of it before is kept
    /// for the marks, and it is seen now.
    pub(crate) fn look_at_current(&mut self) {
        let Some(d) = &mut self.detail else { return };
        let id = d.task_id.clone();
        if uuid::Uuid::parse_str(&id).is_err() {
            return;
        }
        d.seen_before = self.local.seen.get(&id).cloned();
        self.list.changed.remove(&id);
        self.local.store(StoreCmd::Current(id.clone()));
        self.local.store(StoreCmd::Opened(id.clone()));
        self.mark_seen();
    }

    /// The user opened the current task on purpose (`enter`, a jump by
    /// number, link, subtask, history or `:recent`): `:recent` lists it. A
    /// row the cursor rests on or passes is current, not opened (#26 §9).
    pub(crate) fn note_opened(&mut self) {
        if let Some(id) = self.detail.as_ref().map(|d| d.task_id.clone()) {
            self.note_recent(&id, "opened");
        }
    }

    /// Record what the detail shows of the current task as seen.
    pub fn mark_seen(&mut self) {
        // A task the cursor only passed is not seen (`list/settle/`).
        let Some(d) = self.detail.as_ref().filter(|d| !d.passing) else {
            return;
        };
        let id = d.task_id.clone();
        if uuid::Uuid::parse_str(&id).is_err() {
            return;
        }
        let ids_c = match &d.comments {
            Load::Loaded(v) if !d.comments_local_only => {
                Some(v.iter().map(|c| c.id.as_str().to_string()).collect())
            }
            _ => None,
        };
        let ids_m = match &d.thread {
            Load::Loaded(v) if !d.thread_unavailable => {
                Some(v.iter().map(|m| m.id.as_str().to_string()).collect())
            }
            _ => None,
        };
        let updated = d
            .task
            .as_ref()
            .and_then(|t| t.updated_at.as_deref().map(str::to_string));
        let e = self.local.seen.entry(id.clone()).or_default();
        let before = e.clone();
        if updated.is_some() {
            e.updated_at = updated;
        }
        if ids_c.is_some() {
            e.comment_ids = ids_c;
        }
        if ids_m.is_some() {
            e.message_ids = ids_m;
        }
        if *e != before {
            e.at = now_secs();
            let s = e.clone();
            self.local.store(StoreCmd::Seen(id, s));
        }
    }

    /// The row changed on the service since the user last opened it.
    pub fn changed_since_seen(&self, t: &Task) -> bool {
        // A newer version than the one seen: not the same instant written
        // otherwise, nor an older copy (a list row behind the detail).
        self.local.seen.get(t.id.as_str()).is_some_and(|s| {
            let (seen, now) = (s.updated_at.as_deref(), t.updated_at.as_deref());
            seen.is_some()
                && now.is_some()
                && !super::freshness::same_version(seen, now)
                && super::freshness::newer(seen, now)
        })
    }

    /// A comment (or requester message) the user had not seen when the
    /// task was opened this time.
    pub fn is_new_comment(&self, id: &str) -> bool {
        self.detail
            .as_ref()
            .and_then(|d| d.seen_before.as_ref())
            .and_then(|s| s.comment_ids.as_ref())
            .is_some_and(|ids| !ids.iter().any(|x| x == id))
    }
    pub fn is_new_message(&self, id: &str) -> bool {
        self.detail
            .as_ref()
            .and_then(|d| d.seen_before.as_ref())
            .and_then(|s| s.message_ids.as_ref())
            .is_some_and(|ids| !ids.iter().any(|x| x == id))
    }
}

/// `:changed` — the loaded tasks whose rows changed since the user last
/// opened them: (id, label, title).
pub fn changed_rows(s: &State) -> Vec<(String, String, String)> {
    s.list
        .items
        .iter()
        .filter_map(TaskItem::task)
        .filter(|t| s.changed_since_seen(t) || s.list.changed.contains(t.id.as_str()))
        .map(|t| {
            (
                t.id.as_str().to_string(),
                t.label(),
                t.title.line().into_owned(),
            )
        })
        .collect()
}
