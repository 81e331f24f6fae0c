//! Three ways for a queued edit that met a change made on the service
//! (#25 §5): what the user last saw, what they wanted, what the service
//! has now, per field; keep mine or take theirs, each. Only the fields
//! kept are sent; taking theirs for all cancels the edit.

use crate::api::{Task, TaskPatch};
use crate::app::local::outbox::three::Three;
use crate::app::popups::chooser::ChooserKind;
use crate::app::popups::conflict::{ConflictOf, ConflictOutcome, ConflictView};
use crate::app::state::{ApiRequest, Effect, Level, Overlay, State};
use crate::domain::task_field::TaskField;
use serde_json::Value;

/// The fields of the task the other side changed that the edit does not
/// set (the service's values, read back, against the copy the edit was
/// made on), said in one line above the rows: they are no conflict (the
/// edit never touches them) and are kept as the service has them, but the
/// user choosing between the rows should know the task moved elsewhere
/// too (the view listed only the edited fields). `None` when no other
/// field changed.
pub(crate) fn changed_besides(patch: &TaskPatch, saw: &Task, now: &Task) -> Option<String> {
    let edited = TaskField::in_patch(patch);
    let others: Vec<TaskField> = TaskField::ALL
        .into_iter()
        .filter(|f| !edited.contains(f) && f.read(saw) != f.read(now))
        .collect();
    (!others.is_empty()).then(|| changed_besides_words(&others))
}

/// The line [`changed_besides`] says for `fields`.
pub(crate) fn changed_besides_words(fields: &[TaskField]) -> String {
    let names: Vec<&str> = fields.iter().map(|f| f.label()).collect();
    format!(
        "also changed on the service, not part of your edit (kept as the service has {}): {}",
        if names.len() == 1 { "it" } else { "them" },
        names.join(", ")
    )
}

impl State {
    /// The fields of a queued PATCH three ways: `before` is the copy the
    /// user last saw (when known), `now` what the service answered.
    pub(crate) fn three_way(
        &self,
        patch: &TaskPatch,
        before: Option<&Task>,
        now: &Task,
    ) -> Vec<Three> {
        let mine = patch.to_json();
        let Some(mine) = mine.as_object() else {
            return Vec::new();
        };
        let json = |t: &Task| serde_json::to_value(t).unwrap_or(Value::Null);
        let (before, now) = (before.map(json), json(now));
        mine.iter()
            .filter_map(|(k, v)| {
                let key = TaskField::from_wire(k)?;
                // The task's own field for a PATCH key.
                let on_task = |t: &Value| t.get(key.spec().on_task).cloned();
                Some(Three {
                    key,
                    field: key.label().to_string(),
                    saw: before
                        .as_ref()
                        .and_then(on_task)
                        .map_or_else(|| "(not known)".to_string(), |v| self.words(key, &v)),
                    mine: self.words(key, v),
                    theirs: on_task(&now)
                        .map_or_else(|| "(not said)".into(), |v| self.words(key, &v)),
                    keep_mine: true,
                    at: None,
                })
            })
            .collect()
    }

    /// A field's value in words ([`TaskField::value_words`]: a person by
    /// name, a date local, a status as the list says it), clean and short.
    pub(crate) fn words(&self, key: TaskField, v: &Value) -> String {
        let person = |id: &str| {
            self.directory
                .people
                .get(id)
                .map(|p| p.label())
                .unwrap_or_else(|| crate::api::short_id(id))
        };
        crate::cut::cut(&crate::text::clean(&key.value_words(v, &person)), 40)
    }

    /// `enter` on a waiting outbox entry: its fields three ways when it
    /// is a field edit that met a change (else it is sent as it is).
    pub(crate) fn open_conflict(&mut self, seq: i64) -> Option<Vec<Effect>> {
        let item = self.outbox.iter().find(|i| i.seq == seq)?;
        if item.three.is_empty() {
            return None;
        }
        let lost = match &item.state {
            crate::app::local::outbox::OutState::Waiting(w)
                if w.starts_with(crate::domain::words::ACCESS_LOST) =>
            {
                Some(w.clone())
            }
            _ => None,
        };
        let (label, rows) = (item.label.clone(), item.three.clone());
        let task = match &item.req {
            ApiRequest::Patch { id, .. } => self.known_task(id),
            _ => None,
        };
        let archived = task.is_some_and(|t| t.archived);
        let mut about = Vec::new();
        if archived {
            about.push(format!(
                "{label} is ARCHIVED on the service: sending writes to an archived task (asked first)"
            ));
        }
        if task.is_some_and(|t| t.draft) {
            about.push(format!(
                "{label} is a DRAFT on the service (not yet accepted)"
            ));
        }
        about.extend(lost);
        if let (ApiRequest::Patch { patch, .. }, Some(saw), Some(now)) =
            (&item.req, item.saw.as_deref(), task)
        {
            about.extend(changed_besides(patch, saw, now));
        }
        self.overlay = Overlay::Conflict(ConflictView {
            of: ConflictOf::Outbox(seq),
            label,
            rows,
            selected: 0,
            about,
            archived,
            asked: false,
        });
        Some(vec![])
    }

    pub(crate) fn conflict_outcome(
        &mut self,
        v: ConflictView,
        out: ConflictOutcome,
    ) -> Vec<Effect> {
        match out {
            ConflictOutcome::Stay => {
                self.overlay = Overlay::Conflict(v);
                vec![]
            }
            ConflictOutcome::Back => {
                match v.of {
                    ConflictOf::Outbox(_) => self.open_chooser(ChooserKind::Outbox),
                    ConflictOf::Run(_) => {
                        self.engine.prepared = None;
                        self.say(Level::Info, format!("{}: cancelled, nothing sent", v.label));
                    }
                }
                vec![]
            }
            // Writing to an archived task is asked first (#32 §12).
            ConflictOutcome::Apply
                if v.archived && !v.asked && v.rows.iter().any(|r| r.keep_mine) =>
            {
                let lines = vec![
                    format!("{} is archived on the service.", v.label),
                    "Send the fields kept as yours to the archived task anyway?".into(),
                ];
                let mut yes = v.clone();
                yes.asked = true;
                self.overlay = Overlay::Confirm {
                    lines,
                    on_yes: crate::app::state::Confirmed::Conflict(Box::new(yes)),
                    back_to: Some(Box::new(Overlay::Conflict(v))),
                    scroll: 0,
                };
                vec![]
            }
            ConflictOutcome::Apply => match v.of {
                ConflictOf::Outbox(seq) => self.resolve_conflict(seq, v),
                ConflictOf::Run(id) => self.resolve_run(id, &v),
            },
        }
    }

    /// Send the fields kept, drop the others.
    fn resolve_conflict(&mut self, seq: i64, v: ConflictView) -> Vec<Effect> {
        let Some(item) = self.outbox.iter().find(|i| i.seq == seq).cloned() else {
            return vec![];
        };
        let ApiRequest::Patch { id, patch } = &item.req else {
            return vec![];
        };
        let kept: Vec<&Three> = v.rows.iter().filter(|r| r.keep_mine).collect();
        if kept.is_empty() {
            self.outbox_cancel(seq);
            self.say(
                Level::Success,
                format!("{}: kept the service's values, nothing sent", v.label),
            );
            return vec![];
        }
        if kept.len() == v.rows.len() {
            return self.outbox_send_anyway(seq);
        }
        if self.offline.is_some() {
            self.overlay = Overlay::Conflict(v);
            self.say(
                Level::Warn,
                "offline: choose again once the service is back",
            );
            return vec![];
        }
        let mut body = serde_json::Map::new();
        let all = patch.to_json();
        for r in &kept {
            if let Some(val) = all.get(r.key.wire()) {
                body.insert(r.key.wire().to_string(), val.clone());
            }
        }
        let Some(part) = TaskPatch::from_json(&Value::Object(body)) else {
            return vec![];
        };
        let id = id.clone();
        let kept_words: Vec<String> = kept
            .iter()
            .map(|r| format!("{} → {}", r.field, r.mine))
            .collect();
        // What is kept of the entry is sent in its place (over the
        // service's values: the user has just seen them), as the outbox's
        // own send: the later edits of the task queued behind it stay
        // behind it (`State::send_or_hold`). The store keeps the whole
        // edit until the answer removes it: after a crash it is read back
        // and, not all of it found, waits for the user again.
        let Some(i) = self.outbox.iter().position(|i| i.seq == seq) else {
            return vec![];
        };
        let entry = &mut self.outbox[i];
        entry.req = ApiRequest::Patch { id, patch: part };
        entry.what = crate::text::clean(&kept_words.join(", "));
        entry.three.clear();
        self.say(
            Level::Info,
            format!(
                "{}: sending {}; the rest kept as the service has it",
                v.label,
                kept_words.join(", ")
            ),
        );
        self.outbox_send_anyway(seq)
    }
}
