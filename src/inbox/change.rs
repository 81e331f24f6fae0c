//! One changed field of a task, as `taskdeck inbox --json` carries it: the
//! service's field, its values before and after exactly as the service
//! sent them, and the same in taskdeck's words (what screens say).

use super::snapshot::Snapshot;
use crate::api::due_instant;
use crate::domain::later;
use crate::domain::task_field::TaskField;
use jiff::Timestamp;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// One changed field. `before`/`after` are the service's own values
/// (`"no_priority"`, `"2026-12-01T17:00:00Z"`, the assignee's object, an
/// enum value taskdeck does not know, `null`), kept as JSON values;
/// `None` (absent from the JSON): not known — the inbox's base was stored
/// by a taskdeck that kept only words. `before_words`/`after_words` are
/// taskdeck's (`-` for no priority, `tomorrow 17:00`, a person's name).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The service's field: `status`, `priority`, `complete_by`, `title`,
    /// `assigned_to`, `tags`, `archived`.
    pub field: String,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub before: Option<Value>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub after: Option<Value>,
    pub before_words: String,
    pub after_words: String,
}

/// A value that is there, `null` included (serde's `Option` would read
/// `null` as absent).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl Change {
    /// The field as the inbox's words name it (`due`, `assignee`).
    pub fn word(&self) -> &str {
        TaskField::from_wire(&self.field)
            .and_then(|f| f.spec().inbox)
            .unwrap_or(&self.field)
    }

    /// The change in the item's words: `priority - → high`, `title changed`.
    pub fn words(&self) -> String {
        if TaskField::from_wire(&self.field) == Some(TaskField::Title) {
            return "title changed".to_string();
        }
        format!(
            "{} {} → {}",
            self.word(),
            self.before_words,
            self.after_words
        )
    }

    /// The changes as an item stores them (JSON). An item stored before
    /// the values were kept holds `{field, before, after}` in words: read
    /// as words, the values not known.
    pub fn stored(json: &str) -> Vec<Change> {
        let Ok(Value::Array(all)) = serde_json::from_str::<Value>(json) else {
            return Vec::new();
        };
        all.into_iter()
            .filter_map(|v| {
                if v.get("before_words").is_some() {
                    return serde_json::from_value(v).ok();
                }
                let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                let word = text("field");
                let field = TaskField::from_inbox(&word).map_or(word, |f| f.wire().to_string());
                Some(Change {
                    field,
                    before: None,
                    after: None,
                    before_words: text("before"),
                    after_words: text("after"),
                })
            })
            .collect()
    }
}

fn due_words(due: Option<&str>, now: Timestamp, clock: bool) -> String {
    match due.and_then(due_instant) {
        Some(t) => later::short_when(t, now, clock),
        None => "none".to_string(),
    }
}

/// The fields that changed, in the table's order: the service's values
/// before and after, and the same in words.
pub fn changes(before: &Snapshot, after: &Snapshot, now: Timestamp) -> Vec<Change> {
    TaskField::ALL
        .into_iter()
        .filter_map(|f| {
            let [b, a] = compare(f, before, after, now)?;
            Some(Change {
                field: f.wire().to_string(),
                before: before.sent(f),
                after: after.sent(f),
                before_words: b,
                after_words: a,
            })
        })
        .collect()
}

/// One field compared: its words before and after when it changed.
/// A field the inbox compares has an inbox word in the table
/// ([`crate::domain::task_field::Spec::inbox`]); the others never change
/// here.
fn compare(
    f: TaskField,
    before: &Snapshot,
    after: &Snapshot,
    now: Timestamp,
) -> Option<[String; 2]> {
    let words = |b: &String, a: &String| (b != a).then(|| [b.clone(), a.clone()]);
    match f {
        TaskField::Status => (before.status != after.status)
            .then(|| [before.status_words.clone(), after.status_words.clone()]),
        TaskField::Priority => words(&before.priority, &after.priority),
        TaskField::Due => {
            let at = |s: &Snapshot| s.due.as_deref().and_then(due_instant);
            if at(before) == at(after) {
                return None;
            }
            let words = |clock| [before, after].map(|s| due_words(s.due.as_deref(), now, clock));
            // A due time moved within its day says the times.
            let [b, a] = words(false);
            Some(if b == a { words(true) } else { [b, a] })
        }
        TaskField::Title => words(&before.title, &after.title),
        // Who it is assigned to, when that is not about the user (the
        // user's own assignment has a reason of its own).
        TaskField::AssignedTo => {
            let who = |s: &Snapshot| s.assignee.clone().unwrap_or_else(|| "nobody".into());
            (!before.mine && !after.mine && before.assignee_id != after.assignee_id)
                .then(|| [who(before), who(after)])
        }
        TaskField::Tags => {
            (before.tags != after.tags).then(|| [before.tags.join(", "), after.tags.join(", ")])
        }
        TaskField::Archived => {
            let w = |a: bool| if a { "archived" } else { "active" }.to_string();
            (before.archived != after.archived).then(|| [w(before.archived), w(after.archived)])
        }
        TaskField::Description
        | TaskField::AdditionalContext
        | TaskField::AssignedAgent
        | TaskField::AssignedTeam
        | TaskField::Matter
        | TaskField::LinkedItems
        | TaskField::InvolvedPeople
        | TaskField::Draft => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::derive::task_items;
    use crate::inbox::tests::{now, snap, BOB, T1};
    use serde_json::json;

    const DUE: &str = TaskField::Due.wire();

    fn changed(before: &Snapshot, after: &Snapshot) -> (String, Vec<Change>) {
        let items = task_items(T1, Some(before), after, false, now());
        assert_eq!(items.len(), 1, "{items:?}");
        (items[0].words.clone(), Change::stored(&items[0].changes))
    }

    #[test]
    fn an_unknown_enum_value_is_kept_as_sent_and_no_priority_is_the_services_word() {
        let before = snap(json!({"priority": "no_priority", "status": "in_progress"}));
        let after = snap(json!({
            "priority": "p0-\u{1b}[31mcritical", "status": "blocked_by_legal",
            "updated_at": "2026-11-25T09:00:00Z"
        }));
        let (words, ch) = changed(&before, &after);
        assert_eq!(ch[0].field, "status");
        assert_eq!(ch[0].before, Some(json!("in_progress")));
        assert_eq!(ch[0].after, Some(json!("blocked_by_legal")));
        assert_eq!(ch[1].field, "priority");
        assert_eq!(ch[1].before, Some(json!("no_priority")));
        assert_eq!(ch[1].before_words, "-");
        assert_eq!(ch[1].after, Some(json!("p0-\u{1b}[31mcritical")));
        assert!(words.starts_with("status in progress → "), "{words}");
        // In `--json`: the values as JSON values, the words beside them.
        let v = serde_json::to_value(&ch[1]).unwrap();
        assert_eq!(
            v,
            json!({"field": "priority", "before": "no_priority",
                   "after": "p0-\u{1b}[31mcritical", "before_words": "-",
                   "after_words": ch[1].after_words})
        );
    }

    #[test]
    fn a_cleared_due_date_is_null_and_an_assignee_the_services_person() {
        let bob = json!({"id": BOB, "name": "Bob", "email": "bob@example.com"});
        let before = snap(json!({"assigned_to": bob, DUE: "2026-11-27"}));
        let after = snap(json!({
            "assigned_to": null, DUE: null,
            "updated_at": "2026-11-25T09:00:00Z"
        }));
        let (words, ch) = changed(&before, &after);
        assert_eq!(words, "due Fri → none; assignee Bob → nobody");
        assert_eq!(ch[0].field, DUE);
        assert_eq!(ch[0].before, Some(json!("2026-11-27")));
        assert_eq!(ch[0].after, Some(json!(null)));
        assert_eq!(ch[1].field, "assigned_to");
        assert_eq!(ch[1].before, Some(bob));
        assert_eq!(ch[1].after, Some(json!(null)));
        // `null` stays `null` through the store (not "not known").
        let text = serde_json::to_string(&ch).unwrap();
        assert_eq!(Change::stored(&text), ch);
    }

    #[test]
    fn a_due_time_moved_within_its_day_says_the_times() {
        let before = snap(json!({DUE: "2026-11-27T09:00:00Z"}));
        let after = snap(json!({
            DUE: "2026-11-27T17:00:00Z", "updated_at": "2026-11-25T09:00:00Z"
        }));
        let (_, ch) = changed(&before, &after);
        assert_ne!(ch[0].before_words, ch[0].after_words, "{ch:?}");
        // Each says its time of day, not only the day both share.
        for w in [&ch[0].before_words, &ch[0].after_words] {
            assert!(w.contains(':'), "a time in {w:?}");
        }
    }

    #[test]
    fn an_item_stored_with_words_only_reads_as_words_values_not_known() {
        let old = r#"[{"field":"priority","before":"-","after":"high"},
                      {"field":"due","before":"Fri","after":"Mon"}]"#;
        let ch = Change::stored(old);
        assert_eq!(ch[0].before, None);
        assert_eq!(ch[0].before_words, "-");
        assert_eq!(ch[1].field, DUE);
        let v = serde_json::to_value(&ch[0]).unwrap();
        assert!(v.get("before").is_none(), "{v}");
        // A base stored with words only: its values are not known either.
        let mut base = snap(json!({"priority": "no_priority"}));
        base.sent = None;
        let after = snap(json!({"priority": "high", "updated_at": "2026-11-25T09:00:00Z"}));
        let (_, ch) = changed(&base, &after);
        assert_eq!(
            (ch[0].before.clone(), ch[0].after.clone()),
            (None, Some(json!("high")))
        );
    }
}
