//! Three ways for a queued edit that met a change made on the service
//! (#25 §5): what the user last saw, what they wanted, what the service
//! has now, per field; keep mine or take theirs, each. Only the fields
//! kept are sent; taking theirs for all cancels the edit.

use crate::api::{due_instant, Priority, Status, Task, TaskPatch};
use crate::app::local::outbox::three::Three;
use crate::app::popups::chooser::ChooserKind;
use crate::app::popups::conflict::{ConflictOf, ConflictOutcome, ConflictView};
use crate::app::state::{ApiRequest, Effect, Level, Overlay, State};
use serde_json::Value;

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
            .map(|(k, v)| {
                // The task's own field for a PATCH key.
                let on_task = |t: &Value| match k.as_str() {
                    "assigned_team_id" => t.get("assigned_team").cloned(),
                    "matter_id" => t.get("matter").cloned(),
                    other => t.get(other).cloned(),
                };
                Three {
                    key: k.clone(),
                    field: k.replace('_', " "),
                    saw: before
                        .as_ref()
                        .and_then(on_task)
                        .map_or_else(|| "(not known)".to_string(), |v| self.words(k, &v)),
                    mine: self.words(k, v),
                    theirs: on_task(&now)
                        .map_or_else(|| "(not said)".into(), |v| self.words(k, &v)),
                    keep_mine: true,
                    at: None,
                }
            })
            .collect()
    }

    /// A field's value in words: a person by name, a date local, a status
    /// as the list says it.
    pub(crate) fn words(&self, key: &str, v: &Value) -> String {
        let text = match (key, v) {
            (_, Value::Null) => "none".to_string(),
            ("status", Value::String(s)) => Status::parse(s).label(),
            ("priority", Value::String(s)) => Priority::parse(s).label(),
            // Short and local (`Fri 17:00`): three of them share a row.
            ("complete_by", Value::String(s)) => due_instant(s)
                .map(|t| crate::domain::later::short_when(t, jiff::Timestamp::now(), true))
                .unwrap_or_else(|| s.clone()),
            ("assigned_to", Value::String(id)) => self
                .directory
                .people
                .get(id)
                .map(|p| p.label())
                .unwrap_or_else(|| crate::api::short_id(id)),
            (_, Value::Object(o)) => ["name", "email", "display_name", "id"]
                .iter()
                .find_map(|f| o.get(*f).and_then(|v| v.as_str()).filter(|s| !s.is_empty()))
                .unwrap_or("(set)")
                .to_string(),
            (_, Value::Array(a)) if a.is_empty() => "none".to_string(),
            (_, Value::Array(a)) => a
                .iter()
                .map(|x| match x {
                    Value::String(s) => s.clone(),
                    other => crate::api::json_summary(other),
                })
                .collect::<Vec<_>>()
                .join(", "),
            (_, Value::String(s)) => s.clone(),
            (_, Value::Bool(b)) => if *b { "yes" } else { "no" }.to_string(),
            (_, other) => crate::api::json_summary(other),
        };
        crate::cut::cut(&crate::text::clean(&text), 40)
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
            if let Some(val) = all.get(&r.key) {
                body.insert(r.key.clone(), val.clone());
            }
        }
        let Some(part) = TaskPatch::from_json(&Value::Object(body)) else {
            return vec![];
        };
        let id = id.clone();
        // The entry goes; what is kept of it is sent as a new edit (over
        // the service's values: the user has just seen them).
        self.outbox_cancel(seq);
        let kept_words: Vec<String> = kept
            .iter()
            .map(|r| format!("{} → {}", r.field, r.mine))
            .collect();
        self.say(
            Level::Info,
            format!(
                "{}: sending {}; the rest kept as the service has it",
                v.label,
                kept_words.join(", ")
            ),
        );
        vec![self.request(ApiRequest::Patch { id, patch: part })]
    }
}
