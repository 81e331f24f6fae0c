//! The task field table (issue 40): every field a PATCH can set, declared
//! once — its wire name, its label and words, how it is read from a task
//! and written to a PATCH, how its values are said, compared, undone, and
//! printed as a column of the CLI's table. Every place that handles "each
//! field" (changes and their inverse, pending marks, the conflict view,
//! the inbox's before → after, the CLI's columns, the detail pane) goes
//! through [`TaskField`]; the wire names are written here and nowhere
//! else outside `api` and `sandbox`.
//!
//! Adding a field: its `TaskPatch` member (`api/request.rs`, both ways),
//! one variant with its [`TaskField::spec`] row here (the compiler then
//! asks for its arm in each `match` below and in the inbox's), and the
//! sandbox's handling. `every_field_walks_the_whole_way` (in
//! `src/app/tests/fields.rs`) walks each field of [`TaskField::ALL`]
//! through patch → undo → conflict → inbox change → CLI. Its words (on
//! screen, in messages, in the CLI's cells) are `words.rs`.

use crate::api::{parse_timestamp, Task, TaskPatch};
use serde_json::Value;

mod words;

/// A field of a task that a PATCH sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TaskField {
    Status,
    Priority,
    Due,
    Title,
    AssignedTo,
    Tags,
    Archived,
    Description,
    AdditionalContext,
    AssignedAgent,
    AssignedTeam,
    Matter,
    LinkedItems,
    InvolvedPeople,
    Draft,
}

/// What the table says of one field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The PATCH body's key (`complete_by`).
    pub wire: &'static str,
    /// The key of the task as the service sends it, when it differs from
    /// the PATCH's (`assigned_team_id` sets `assigned_team`).
    pub on_task: &'static str,
    /// In words, on screen (`due`, `assigned to`).
    pub label: &'static str,
    /// The inbox compares it (a change of it is news): the inbox's word
    /// for it (`due`, `assignee`). `None`: not compared.
    pub inbox: Option<&'static str>,
    /// The header of its column in the CLI's task table (`DUE`). `None`:
    /// no column.
    pub column: Option<&'static str>,
}

const fn spec(
    wire: &'static str,
    on_task: &'static str,
    label: &'static str,
    inbox: Option<&'static str>,
    column: Option<&'static str>,
) -> Spec {
    Spec {
        wire,
        on_task,
        label,
        inbox,
        column,
    }
}

/// How a change of a field is undone (see [`TaskField::undo`]).
// Made once per undone change and unwrapped at once: boxing buys nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Undo {
    /// This PATCH sets the value back.
    Patch(TaskPatch),
    /// The tags added are removed and the tags removed added again (the
    /// tags as they are when sent, not a copy of the old list).
    Tags,
    /// Nothing to undo.
    Nothing,
}

impl TaskField {
    /// Every field, in the order the inbox lists changes.
    pub const ALL: [TaskField; 15] = [
        TaskField::Status,
        TaskField::Priority,
        TaskField::Due,
        TaskField::Title,
        TaskField::AssignedTo,
        TaskField::Tags,
        TaskField::Archived,
        TaskField::Description,
        TaskField::AdditionalContext,
        TaskField::AssignedAgent,
        TaskField::AssignedTeam,
        TaskField::Matter,
        TaskField::LinkedItems,
        TaskField::InvolvedPeople,
        TaskField::Draft,
    ];

    /// The table: one row a field.
    pub const fn spec(self) -> Spec {
        use TaskField as F;
        match self {
            F::Status => spec("status", "status", "status", Some("status"), Some("STATUS")),
            F::Priority => spec(
                "priority",
                "priority",
                "priority",
                Some("priority"),
                Some("PRI"),
            ),
            F::Due => spec(
                "complete_by",
                "complete_by",
                "due",
                Some("due"),
                Some("DUE"),
            ),
            F::Title => spec("title", "title", "title", Some("title"), Some("TITLE")),
            F::AssignedTo => spec(
                "assigned_to",
                "assigned_to",
                "assigned to",
                Some("assignee"),
                Some("ASSIGNEE"),
            ),
            F::Tags => spec("tags", "tags", "tags", Some("tags"), Some("TAGS")),
            F::Archived => spec("archived", "archived", "archived", Some("archived"), None),
            F::Description => spec("description", "description", "description", None, None),
            F::AdditionalContext => spec(
                "additional_context",
                "additional_context",
                "additional context",
                None,
                None,
            ),
            F::AssignedAgent => spec(
                "assigned_agent",
                "assigned_agent",
                "assigned agent",
                None,
                None,
            ),
            F::AssignedTeam => spec(
                "assigned_team_id",
                "assigned_team",
                "assigned team",
                None,
                None,
            ),
            F::Matter => spec("matter_id", "matter", "matter", None, None),
            F::LinkedItems => spec("linked_items", "linked_items", "linked items", None, None),
            F::InvolvedPeople => spec(
                "involved_people",
                "involved_people",
                "involved people",
                None,
                None,
            ),
            F::Draft => spec("draft", "draft", "draft", None, None),
        }
    }

    /// The PATCH body's key (`complete_by`).
    pub const fn wire(self) -> &'static str {
        self.spec().wire
    }

    /// In words (`due`).
    pub const fn label(self) -> &'static str {
        self.spec().label
    }

    /// The field a PATCH key names.
    pub fn from_wire(key: &str) -> Option<TaskField> {
        Self::ALL.into_iter().find(|f| f.wire() == key)
    }

    /// The field the inbox's word names (`due`), or its wire name.
    pub fn from_inbox(word: &str) -> Option<TaskField> {
        Self::ALL
            .into_iter()
            .find(|f| f.spec().inbox == Some(word))
            .or_else(|| Self::from_wire(word))
    }

    /// The field a one-field PATCH sets (its first, if it sets several).
    pub fn of_patch(p: &TaskPatch) -> Option<TaskField> {
        p.to_json()
            .as_object()
            .and_then(|m| m.keys().find_map(|k| Self::from_wire(k)))
    }

    /// The fields a PATCH sets, in the order of its body.
    pub fn in_patch(p: &TaskPatch) -> Vec<TaskField> {
        p.to_json()
            .as_object()
            .map(|m| m.keys().filter_map(|k| Self::from_wire(k)).collect())
            .unwrap_or_default()
    }

    /// What `p` sends for this field (`None`: it does not set it).
    pub fn sent(self, p: &TaskPatch) -> Option<Value> {
        p.to_json().get(self.wire()).cloned()
    }

    /// A PATCH setting this field to `v` (as the body says it), or why not.
    pub fn write(self, v: Value) -> Result<TaskPatch, String> {
        let mut m = serde_json::Map::new();
        m.insert(self.wire().to_string(), v);
        TaskPatch::from_json(&Value::Object(m))
            .ok_or_else(|| format!("the {} cannot be written back", self.label()))
    }

    /// `p`'s part that sets this field (`None`: `p` does not set it).
    pub fn one(self, p: &TaskPatch) -> Option<TaskPatch> {
        self.write(self.sent(p)?).ok()
    }

    /// The field's value on a task as the PATCH body names it, for
    /// comparing (and writing back: [`Self::undo`]).
    pub fn read(self, t: &Task) -> Value {
        let s = |x: &str| Value::String(x.to_string());
        let opt = |x: Option<&str>| x.map(s).unwrap_or(Value::Null);
        let open = |v: &Value, what| {
            open_id(v, what)
                .map(|o| opt(o.as_deref()))
                .unwrap_or(v.clone())
        };
        match self {
            TaskField::Title => s(t.title.raw()),
            TaskField::Description => opt(t.description.as_ref().map(|d| d.raw())),
            TaskField::AdditionalContext => opt(t.additional_context.as_ref().map(|d| d.raw())),
            TaskField::AssignedTo => opt(t.assigned_to.as_ref().map(|p| p.id.as_str())),
            TaskField::AssignedAgent => open(&t.assigned_agent, "agent"),
            TaskField::AssignedTeam => open(&t.assigned_team, "team"),
            TaskField::Matter => open(&t.matter, "matter"),
            TaskField::Status => s(t.status.as_wire()),
            TaskField::Priority => s(t.priority.as_wire()),
            TaskField::Due => opt(t.complete_by.as_deref()),
            TaskField::Tags => Value::Array(tags(t).into_iter().map(Value::String).collect()),
            TaskField::Archived => Value::Bool(t.archived),
            TaskField::Draft => Value::Bool(t.draft),
            // Sent whole, never read back to compare: a change of them is
            // not compared, nor undone.
            TaskField::LinkedItems | TaskField::InvolvedPeople => Value::Null,
        }
    }

    /// The task already holds `v`, what a PATCH sets this field to (a
    /// first attempt landed). A due date is compared as an instant (or
    /// none); fields the service may rewrite past comparing (an
    /// open-shape id) are never taken as landed.
    pub fn holds(self, v: &Value, t: &Task) -> bool {
        match self {
            TaskField::AssignedTo => match v {
                Value::Null => t.assigned_to.is_none(),
                v => t
                    .assigned_to
                    .as_ref()
                    .is_some_and(|p| Some(p.id.as_str()) == v.as_str()),
            },
            TaskField::Status
            | TaskField::Priority
            | TaskField::Title
            | TaskField::Tags
            | TaskField::Archived
            | TaskField::Draft
            | TaskField::Description
            | TaskField::AdditionalContext => {
                serde_json::to_value(t)
                    .ok()
                    .and_then(|j| j.get(self.spec().on_task).cloned())
                    .as_ref()
                    == Some(v)
            }
            // A due date the service may write otherwise (a date, a
            // time in another zone): the same instant holds, and none
            // holds none (simulator seed 5444350406609129812: a cleared
            // due date never found landed was sent again after a crash).
            TaskField::Due => {
                let due = t.complete_by.as_deref().filter(|d| !d.trim().is_empty());
                match (v, due) {
                    (Value::Null, due) => due.is_none(),
                    (Value::String(want), Some(has)) => {
                        match (parse_timestamp(want), parse_timestamp(has)) {
                            (Some(a), Some(b)) => a == b,
                            _ => false,
                        }
                    }
                    _ => false,
                }
            }
            TaskField::AssignedAgent
            | TaskField::AssignedTeam
            | TaskField::Matter
            | TaskField::LinkedItems
            | TaskField::InvolvedPeople => false,
        }
    }

    /// What undoes a change of this field, made to a task that was
    /// `before`; or why it cannot be undone.
    pub fn undo(self, before: &Task) -> Result<Undo, String> {
        match self {
            TaskField::Tags => Ok(Undo::Tags),
            TaskField::Draft if before.draft => Err(
                "accepting a draft cannot be undone: the service has no way to make a task a draft again"
                    .into(),
            ),
            TaskField::Draft => Ok(Undo::Nothing),
            TaskField::LinkedItems | TaskField::InvolvedPeople => {
                Err(format!("a change of {} cannot be undone", self.wire()))
            }
            TaskField::AssignedAgent => back(self, open_id(&before.assigned_agent, "agent")?),
            TaskField::AssignedTeam => back(self, open_id(&before.assigned_team, "team")?),
            TaskField::Matter => back(self, open_id(&before.matter, "matter")?),
            TaskField::Status
            | TaskField::Priority
            | TaskField::Title
            | TaskField::Description
            | TaskField::AdditionalContext
            | TaskField::AssignedTo
            | TaskField::Due
            | TaskField::Archived => self.write(self.read(before)).map(Undo::Patch),
        }
    }
}

fn back(f: TaskField, id: Option<String>) -> Result<Undo, String> {
    f.write(id.map_or(Value::Null, Value::String))
        .map(Undo::Patch)
}

/// A task's tags as sent.
pub fn tags(t: &Task) -> Vec<String> {
    t.tags.iter().map(|s| s.raw().to_string()).collect()
}

/// The id an open-shape field (agent, team, matter) refers to: `Ok(None)`
/// when it is empty, an error when it has no id to send back.
fn open_id(v: &Value, what: &str) -> Result<Option<String>, String> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        Value::Object(m) => m
            .get("id")
            .and_then(|i| i.as_str())
            .map(|s| Some(s.to_string()))
            .ok_or(format!("the previous {what} has no id to send back")),
        _ => Err(format!("the previous {what} has no id to send back")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Field, Priority, Status};
    use serde_json::json;

    /// A due date holds when it is the same instant however the service
    /// writes it, and a cleared one when the task has none (an edit
    /// whose outcome is unknown is then found landed, never sent again:
    /// simulator seed 5444350406609129812); anything unreadable does not.
    #[test]
    fn a_due_date_holds_as_the_same_instant_and_none_as_none() {
        let mut t = crate::api::Task::default();
        assert!(TaskField::Due.holds(&Value::Null, &t));
        t.complete_by = Some(" ".into());
        assert!(TaskField::Due.holds(&Value::Null, &t), "blank is none");
        t.complete_by = Some("2026-12-01T10:00:00Z".into());
        assert!(!TaskField::Due.holds(&Value::Null, &t));
        assert!(TaskField::Due.holds(&json!("2026-12-01T10:00:00Z"), &t));
        assert!(TaskField::Due.holds(&json!("2026-12-01T11:00:00+01:00"), &t));
        assert!(!TaskField::Due.holds(&json!("2026-12-01T10:00:01Z"), &t));
        assert!(!TaskField::Due.holds(&json!("friday"), &t), "unreadable");
        t.complete_by = Some("2026-12-01".into());
        assert!(TaskField::Due.holds(&json!("2026-12-01T00:00:00Z"), &t));
        t.complete_by = None;
        assert!(!TaskField::Due.holds(&json!("2026-12-01T00:00:00Z"), &t));
    }

    /// The wire names, pinned here once against the API model: the other
    /// tests name fields through the table.
    #[test]
    fn wire_names_are_the_api_models() {
        let names: Vec<&str> = TaskField::ALL.iter().map(|f| f.wire()).collect();
        assert_eq!(
            names,
            [
                "status",
                "priority",
                "complete_by",
                "title",
                "assigned_to",
                "tags",
                "archived",
                "description",
                "additional_context",
                "assigned_agent",
                "assigned_team_id",
                "matter_id",
                "linked_items",
                "involved_people",
                "draft"
            ]
        );
        // Each is a key the PATCH body reads and writes back as it was.
        for f in TaskField::ALL {
            let v = match f {
                TaskField::Archived | TaskField::Draft => json!(true),
                TaskField::Tags => json!(["a"]),
                TaskField::LinkedItems | TaskField::InvolvedPeople => json!([{"id": "x"}]),
                TaskField::Status
                | TaskField::Priority
                | TaskField::Due
                | TaskField::Title
                | TaskField::AssignedTo
                | TaskField::Description
                | TaskField::AdditionalContext
                | TaskField::AssignedAgent
                | TaskField::AssignedTeam
                | TaskField::Matter => json!("in_progress"),
            };
            let p = f.write(v.clone()).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            assert_eq!(p.to_json(), json!({ f.wire(): v }), "{f:?}");
            assert_eq!(TaskField::of_patch(&p), Some(f));
            assert_eq!(TaskField::from_wire(f.wire()), Some(f));
        }
        // Every field of the PATCH body is in the table.
        let all = TaskPatch {
            title: Some("t".into()),
            description: Field::Set("d".into()),
            additional_context: Field::Set("c".into()),
            assigned_to: Field::Set("u".into()),
            assigned_agent: Field::Set("a".into()),
            assigned_team_id: Field::Set("t".into()),
            matter_id: Field::Set("m".into()),
            status: Some(Status::Completed),
            priority: Some(Priority::High),
            complete_by: Field::Set("2026-12-01T17:00:00Z".into()),
            tags: Some(vec![]),
            linked_items: Some(vec![]),
            involved_people: Some(vec![]),
            archived: Some(true),
            draft: Some(false),
        };
        let keys: Vec<String> = all.to_json().as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys.len(), TaskField::ALL.len());
        assert_eq!(
            TaskField::in_patch(&all).len(),
            TaskField::ALL.len(),
            "{keys:?}"
        );
    }

    #[test]
    fn the_inbox_and_the_cli_name_fields_by_their_words() {
        assert_eq!(TaskField::from_inbox("due"), Some(TaskField::Due));
        assert_eq!(
            TaskField::from_inbox("assignee"),
            Some(TaskField::AssignedTo)
        );
        assert_eq!(TaskField::from_inbox("complete_by"), Some(TaskField::Due));
        assert_eq!(TaskField::from_inbox("status"), Some(TaskField::Status));
        assert_eq!(TaskField::from_inbox("nonsense"), None);
        assert_eq!(TaskField::Due.spec().column, Some("DUE"));
        assert_eq!(TaskField::AssignedTeam.spec().on_task, "assigned_team");
    }
}
