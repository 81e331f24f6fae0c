//! What the state does for `history` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::app::edit::changes::{inverse, share_back, split_patch, Change, ShareDelta};
use crate::app::state::{ApiRequest, ApiResult, Load, Reply, State};

impl State {
    /// A person's name for messages (their id when unknown).
    pub fn person_name(&self, id: &str) -> String {
        if self.my_id() == Some(id) {
            return "me".into();
        }
        self.directory
            .people
            .get(id)
            .map(|p| p.label())
            .unwrap_or_else(|| short_id(id))
    }

    /// A change in words, people named, linked items by number or name.
    pub fn change_words(&self, c: &Change) -> String {
        c.words(&|id| self.person_name(id), &|k, i| {
            self.link_label(None, k, i)
        })
    }

    /// A linked item as the rest of the screen names it: a task known here
    /// by its number (`#57`), else the name the service gave the link (on
    /// `on`, the task as just answered, or a task shown), else its kind
    /// and short id.
    pub fn link_label(&self, on: Option<&Task>, kind: &LinkType, id: &str) -> String {
        if *kind == LinkType::Task {
            if let Some(t) = self.best_copy(id) {
                return t.label();
            }
        }
        let shown = self.detail.as_ref().and_then(|d| d.task.as_ref());
        let named = on
            .into_iter()
            .chain(shown)
            .chain(self.list.items.iter().filter_map(|i| i.task()))
            .flat_map(|t| t.linked_items.iter())
            .find(|l| l.id == id && !l.display_name.is_empty());
        match named {
            Some(l) => format!("{kind} {:?}", l.display_name.line()),
            None => crate::app::edit::changes::link_fallback(kind, id),
        }
    }

    /// A write goes out (`State::request`): remember the task as the
    /// service last answered it, to compute the inverse from its answer.
    pub fn note_write(&mut self, ticket: u64, req: &ApiRequest) {
        use ApiRequest as R;
        let Some(id) = req.written_task() else {
            return;
        };
        let before = self.best_copy(id);
        let sharing_before = match req {
            R::PutSharing { .. } => {
                self.detail
                    .as_ref()
                    .filter(|d| d.task_id == *id)
                    .and_then(|d| match &d.sharing {
                        Load::Loaded(s) => Some(s.clone()),
                        _ => None,
                    })
            }
            _ => None,
        };
        let edit = match req {
            R::Patch { .. }
            | R::AddLinks { .. }
            | R::UpdateLink { .. }
            | R::RemoveLink { .. }
            | R::Attach { .. }
            | R::Detach { .. }
            | R::PutSharing { .. } => Some(format!("{} {}", self.label_of(id), req.describe())),
            _ => None,
        };
        self.history.sent.insert(
            ticket,
            Sent {
                before,
                sharing_before,
                edit,
            },
        );
    }

    /// An answer to a write sent outside the bulk engine: what it did goes
    /// into the history, with its inverse.
    pub fn note_answer(&mut self, r: &ApiResult) {
        use ApiRequest as R;
        if let (R::GetTask { id }, Ok(Reply::Task(t))) = (&r.req, &r.result) {
            // The read that follows a sharing change tells its version.
            if self.history.ours.get(id.as_str()) == Some(&None) {
                self.history.wrote(t);
            }
        }
        let Some(sent) = self.history.sent.remove(&r.ticket) else {
            return;
        };
        let Ok(reply) = &r.result else { return };
        let never = |s: &str| Some(s.to_string());
        let (id, changes, never): (&String, Vec<Change>, Option<String>) = match &r.req {
            R::Patch { id, patch } => (
                id,
                split_patch(patch).into_iter().map(Change::Patch).collect(),
                None,
            ),
            R::AddLinks { id, links } => (id, vec![Change::AddLinks(links.clone())], None),
            R::UpdateLink {
                id,
                kind,
                item,
                update,
            } => (
                id,
                vec![Change::UpdateLink(
                    kind.clone(),
                    item.clone(),
                    update.clone(),
                )],
                None,
            ),
            R::RemoveLink { id, kind, item } => (
                id,
                vec![Change::RemoveLink(kind.clone(), item.clone())],
                None,
            ),
            R::Attach { id, file_ids } => (id, vec![Change::Attach(file_ids.clone())], None),
            R::Detach { id, file_id } => (id, vec![Change::Detach(file_id.clone())], None),
            R::PutSharing { id, .. } => {
                // What the save changed: the entries that differ.
                let delta = match (&sent.sharing_before, reply) {
                    (Some(b), Reply::Sharing(s)) => share_back(s, b),
                    _ => ShareDelta::default(),
                };
                let words = "sharing saved".to_string();
                (id, vec![Change::Share(ShareDelta { words, ..delta })], None)
            }
            R::Delete { id } => (
                id,
                vec![],
                never("rejecting a draft deletes it on the service: it cannot be undone"),
            ),
            R::AddComment { id, .. } | R::ReplyComment { id, .. } => {
                (id, vec![], never("comments cannot be undone"))
            }
            R::EditComment { id, .. } => (id, vec![], never("comment edits cannot be undone")),
            R::ReplyRequester { id, .. } => (
                id,
                vec![],
                never("replies to the requester cannot be undone"),
            ),
            R::CreateSubtask { parent, .. } => (
                parent,
                vec![],
                never("creating a subtask cannot be undone (the API deletes drafts only)"),
            ),
            _ => return,
        };
        let label = sent
            .before
            .as_ref()
            .map(|t| t.label())
            .unwrap_or_else(|| self.label_of(id));
        let title = match &r.req {
            R::Delete { .. } => format!("{label}: draft rejected"),
            R::AddComment { .. } | R::ReplyComment { .. } => format!("{label}: comment"),
            R::EditComment { .. } => format!("{label}: comment edited"),
            R::ReplyRequester { .. } => format!("{label}: reply to the requester"),
            R::CreateSubtask { title, .. } => format!("{label}: subtask {title:?} created"),
            _ => {
                let words: Vec<String> = changes.iter().map(|c| self.change_words(c)).collect();
                format!("{label}: {}", words.join(", "))
            }
        };
        let after = match reply {
            Reply::Task(t) => Some((**t).clone()),
            _ => None,
        };
        if let Some(t) = &after {
            self.history.wrote(t);
        }
        let backward = if never.is_some() {
            Err(never.clone().unwrap_or_default())
        } else {
            match (&r.req, reply) {
                (R::PutSharing { .. }, Reply::Sharing(s)) => {
                    // Its version is known once the task is read back.
                    self.history.ours.insert(id.clone(), None);
                    match &sent.sharing_before {
                        Some(b) => Ok(vec![Change::Share(share_back(b, s))]),
                        None => Err("the sharing before the change was not known".into()),
                    }
                }
                _ => match (&sent.before, &after) {
                    (Some(b), Some(a)) => inverse(&changes, b, a, None),
                    _ => Err("the task was not known before the change".into()),
                },
            }
        };
        let op = Op {
            id: self.history.next_id(),
            at: crate::clock::timestamp(),
            title,
            records: vec![Record {
                task_id: id.clone(),
                label,
                forward: changes,
                backward,
                after,
                state: RecState::Applied,
                error: None,
            }],
            never,
        };
        self.history.push(op);
    }

    /// `:history`: every operation, newest first, with what `z` and `Z`
    /// would do and each task that failed or cannot be undone.
    pub fn history_lines(&self) -> Vec<String> {
        let h = &self.history;
        let key = |a, fallback: &str| {
            self.keymap
                .hint_key(self.key_contexts(), a)
                .unwrap_or_else(|| fallback.to_string())
        };
        let (z, zz) = (
            key(crate::app::keymap::Action::Undo, ":undo"),
            key(crate::app::keymap::Action::Redo, ":redo"),
        );
        let mut out = vec![
            format!("{z} undoes the operation marked ↶, {zz} redoes the one marked ↷ (no time limit while taskdeck runs)."),
            "Undo asks first when a task changed on the service since the edit.".into(),
            String::new(),
        ];
        if h.ops.is_empty() {
            out.push("  nothing yet: edits made from taskdeck appear here".into());
        }
        let undo = h.undo_stack.last().copied();
        let redo = h.redo_stack.last().copied();
        let running: Vec<u64> = self.engine.runs.iter().map(|r| r.op).collect();
        for op in h.ops.iter().rev() {
            let mark = if Some(op.id) == undo {
                "↶"
            } else if Some(op.id) == redo {
                "↷"
            } else {
                " "
            };
            let time = crate::app::dates::local_time(op.at);
            let state = if running.contains(&op.id) {
                "running…".to_string()
            } else if let Some(n) = &op.never {
                format!("cannot be undone: {n}")
            } else {
                op.outcome()
            };
            out.push(format!("{mark} {time}  {} — {state}", op.title));
            for r in &op.records {
                let line = match (&r.state, &r.backward, &r.error) {
                    (_, _, Some(e)) => format!("{}: {e}", r.label),
                    (RecState::Failed(e), ..) => format!("{} failed: {e}", r.label),
                    (RecState::Unknown(e), ..) => {
                        format!("{}: outcome unknown ({e}) — check it", r.label)
                    }
                    (RecState::Skipped(why), ..) => format!("{} skipped: {why}", r.label),
                    (RecState::Applied, Err(why), _) if op.never.is_none() => {
                        format!("{} cannot be undone: {why}", r.label)
                    }
                    _ => continue,
                };
                out.push(format!("      {line}"));
            }
        }
        out
    }
}
