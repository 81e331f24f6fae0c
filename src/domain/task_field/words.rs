//! The task field table's words: a field's value on screen, a change in a
//! message, a waiting edit, a conflict's row, a cell of the CLI's table.

use super::{tags, TaskField};
use crate::api::{due_instant, json_summary, Field, Priority, Status, Task, TaskPatch};
use jiff::Timestamp;
use serde_json::Value;

impl TaskField {
    /// The field's value on a task in words (`waiting`, `none`).
    pub fn words(self, t: &Task) -> String {
        match self {
            TaskField::Status => t.status.label(),
            TaskField::Priority => t.priority.to_string(),
            TaskField::AssignedTo => t
                .assigned_to
                .as_ref()
                .map(|p| p.label())
                .unwrap_or_else(|| "nobody".into()),
            TaskField::Tags if t.tags.is_empty() => "none".into(),
            TaskField::Tags => tags(t).join(", "),
            TaskField::Archived if t.archived => "archived".into(),
            TaskField::Archived => "not archived".into(),
            TaskField::Title
            | TaskField::Description
            | TaskField::AdditionalContext
            | TaskField::AssignedAgent
            | TaskField::AssignedTeam
            | TaskField::Matter
            | TaskField::Due
            | TaskField::LinkedItems
            | TaskField::InvolvedPeople
            | TaskField::Draft => match self.read(t) {
                Value::Null => "none".into(),
                Value::String(s) => s,
                v => v.to_string(),
            },
        }
    }

    /// A value as a PATCH body or a task holds it, in words, for the
    /// conflict view's rows: a person by name (`person` turns an id into
    /// one), a date short and local, a status as the list says it.
    /// Unsanitised and uncut: the caller does both.
    pub fn value_words(self, v: &Value, person: &dyn Fn(&str) -> String) -> String {
        match (self, v) {
            (_, Value::Null) => "none".to_string(),
            (TaskField::Status, Value::String(s)) => Status::parse(s).label(),
            (TaskField::Priority, Value::String(s)) => Priority::parse(s).label(),
            // Short and local (`Fri 17:00`): three of them share a row.
            (TaskField::Due, Value::String(s)) => due_instant(s)
                .map(|t| crate::domain::later::short_when(t, crate::clock::timestamp(), true))
                .unwrap_or_else(|| s.clone()),
            (TaskField::AssignedTo, Value::String(id)) => person(id),
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
                    other => json_summary(other),
                })
                .collect::<Vec<_>>()
                .join(", "),
            (_, Value::String(s)) => s.clone(),
            (_, Value::Bool(b)) => if *b { "yes" } else { "no" }.to_string(),
            (_, other) => json_summary(other),
        }
    }

    /// A PATCH of this field in words: `status → completed`, `unassigned`,
    /// `due date cleared`. `person` turns a person's id into a name.
    pub fn change_words(self, p: &TaskPatch, person: &dyn Fn(&str) -> String) -> String {
        let sent = self.sent(p).unwrap_or(Value::Null);
        let clear = sent.is_null();
        match self {
            TaskField::Status => format!(
                "status → {}",
                p.status.as_ref().map(|s| s.label()).unwrap_or_default()
            ),
            TaskField::Priority => format!(
                "priority → {}",
                p.priority
                    .as_ref()
                    .map(|s| s.to_string())
                    .unwrap_or_default()
            ),
            TaskField::AssignedTo => match &p.assigned_to {
                Field::Set(id) => format!("assigned to {}", person(id)),
                _ => "unassigned".into(),
            },
            TaskField::Due => match &p.complete_by {
                Field::Set(d) => format!("due → {}", crate::domain::dates::when(Some(d))),
                _ => "due date cleared".into(),
            },
            TaskField::Tags => match &p.tags {
                Some(t) if t.is_empty() => "tags cleared".into(),
                Some(t) => format!("tags → {}", t.join(", ")),
                None => "tags".into(),
            },
            TaskField::Archived if p.archived == Some(true) => "archived".into(),
            TaskField::Archived => "restored".into(),
            TaskField::Draft => "draft accepted".into(),
            TaskField::Title => format!("title → {}", p.title.clone().unwrap_or_default()),
            TaskField::Description | TaskField::AdditionalContext if clear => {
                format!("{} cleared", self.label())
            }
            TaskField::Description | TaskField::AdditionalContext => {
                format!("{} saved", self.label())
            }
            TaskField::AssignedAgent
            | TaskField::AssignedTeam
            | TaskField::Matter
            | TaskField::LinkedItems
            | TaskField::InvolvedPeople
                if clear =>
            {
                format!("{} cleared", self.label())
            }
            TaskField::AssignedAgent
            | TaskField::AssignedTeam
            | TaskField::Matter
            | TaskField::LinkedItems
            | TaskField::InvolvedPeople => {
                let v = sent
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or(sent.to_string());
                format!("{} → {v}", self.label())
            }
        }
    }

    /// A value as a pending mark holds it (the words shown while it is in
    /// flight: `none`, `nobody`, a date as sent), as a message says it
    /// once sent: `due → Fri 17:00`, `unassigned`, `title → New`.
    pub fn done_words(self, shown: &str) -> String {
        match (self, shown) {
            (TaskField::Archived, "archived") => "archived".into(),
            (TaskField::Archived, _) => "restored".into(),
            (TaskField::Draft, _) => "draft accepted".into(),
            (TaskField::Due, "none") => "due date cleared".into(),
            // Local time, as everywhere else on screen.
            (TaskField::Due, due) => format!("due → {}", crate::domain::dates::when(Some(due))),
            (TaskField::AssignedTo, "nobody") => "unassigned".into(),
            (TaskField::AssignedTo, who) => format!("assigned to {who}"),
            (TaskField::Description | TaskField::AdditionalContext, "none") => {
                format!("{} cleared", self.label())
            }
            (TaskField::Description | TaskField::AdditionalContext, _) => {
                format!("{} saved", self.label())
            }
            (
                TaskField::Status
                | TaskField::Priority
                | TaskField::Title
                | TaskField::Tags
                | TaskField::AssignedAgent
                | TaskField::AssignedTeam
                | TaskField::Matter
                | TaskField::LinkedItems
                | TaskField::InvolvedPeople,
                value,
            ) => {
                if value == "none" {
                    format!("{} cleared", self.label())
                } else {
                    format!("{} → {value}", self.label())
                }
            }
        }
    }

    /// A pending mark's value as a list of waiting edits shows it (a due
    /// date local).
    pub fn shown(self, value: &str) -> String {
        match self {
            TaskField::Due if value != "none" => crate::domain::dates::when(Some(value)),
            TaskField::Due
            | TaskField::Status
            | TaskField::Priority
            | TaskField::Title
            | TaskField::AssignedTo
            | TaskField::Tags
            | TaskField::Archived
            | TaskField::Description
            | TaskField::AdditionalContext
            | TaskField::AssignedAgent
            | TaskField::AssignedTeam
            | TaskField::Matter
            | TaskField::LinkedItems
            | TaskField::InvolvedPeople
            | TaskField::Draft => value.to_string(),
        }
    }

    /// The field's cell in the CLI's task table (`None`: no column), and
    /// whether it is flagged (an overdue date).
    pub fn cell(self, t: &Task, now: Timestamp) -> Option<(String, bool)> {
        self.spec().column?;
        Some(match self {
            TaskField::Priority => (t.priority.label(), false),
            TaskField::Status => (t.status.label(), false),
            TaskField::Due => {
                let raw = t.complete_by.as_deref().filter(|r| !r.trim().is_empty());
                match (t.due(), raw) {
                    // The TUI's wording; a completed task is never late.
                    (Some(d), _) => {
                        let completed = t.status == Status::Completed;
                        let (text, late) = crate::domain::dates::due_text(d, now, completed);
                        (text.trim_start_matches('!').to_string(), late)
                    }
                    (None, Some(raw)) => (crate::text::clean(raw), false),
                    (None, None) => ("-".into(), false),
                }
            }
            TaskField::AssignedTo => (
                t.assigned_to
                    .as_ref()
                    .map(|p| p.label())
                    .unwrap_or_else(|| "-".into()),
                false,
            ),
            TaskField::Title => (t.title.line().into_owned(), false),
            TaskField::Tags => (
                t.tags
                    .iter()
                    .map(|s| s.line().into_owned())
                    .collect::<Vec<_>>()
                    .join(","),
                false,
            ),
            TaskField::Archived
            | TaskField::Description
            | TaskField::AdditionalContext
            | TaskField::AssignedAgent
            | TaskField::AssignedTeam
            | TaskField::Matter
            | TaskField::LinkedItems
            | TaskField::InvolvedPeople
            | TaskField::Draft => return None,
        })
    }
}
