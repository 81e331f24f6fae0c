//! What a task row received keeps (issue 42 §2): memory never follows what
//! the service sends. A row read from a listing (the task list, subtasks,
//! the inbox's walk, the store read back) keeps at most
//! [`FIELD_KEPT`] bytes of each string, [`LIST_KEPT`] items of each list
//! (keys of each object) and [`ROW_KEPT`] bytes of text in all; what was
//! cut is named in [`Task::cut`](super::Task) (the field, the size received
//! and the size kept), so the detail says so. The task's `id` is never cut
//! (requests name it). A row whose JSON text is at most [`FIELD_KEPT`]
//! bytes holds nothing to cut and is read as it is.
//!
//! One task opened (`GET /tasks/{id}`) and `--json` output are read whole.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Bytes of one string kept (a title, a description, an unknown field's
/// text): a few KB, more than any screen shows.
pub const FIELD_KEPT: usize = 4 * 1024;
/// Items of one list (tags, links, people…) or keys of one object kept.
pub const LIST_KEPT: usize = 256;
/// Bytes of text (strings and keys) one row keeps in all.
pub const ROW_KEPT: usize = 32 * 1024;
/// At most this many cut fields are named (the rest are counted).
const NAMED_MAX: usize = 8;

/// A field that was cut when its row was read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CutField {
    /// The field's name as received (a top-level key of the task).
    pub field: String,
    /// Bytes of text the field held as received.
    pub received: usize,
    /// Bytes of text kept.
    pub kept: usize,
}

/// The fields to read first, so that what a row is known by keeps its share
/// of [`ROW_KEPT`] whatever else it holds.
const FIRST: [&str; 10] = [
    "id",
    "display_id",
    "task_number",
    "title",
    "status",
    "priority",
    "updated_at",
    "created_at",
    "complete_by",
    "description",
];

/// The JSON text of one row, bounded; `None` when nothing in it passes a
/// bound (read it as it is).
pub fn bounded_row(raw: &str) -> Option<(String, Vec<CutField>)> {
    if raw.len() <= FIELD_KEPT {
        return None;
    }
    let Ok(Value::Object(mut m)) = serde_json::from_str::<Value>(raw) else {
        return None; // not an object: read (and refused) as it is
    };
    let mut budget = ROW_KEPT;
    let mut cuts = Vec::new();
    let mut order: Vec<String> = FIRST
        .iter()
        .filter(|k| m.contains_key(**k))
        .map(|k| k.to_string())
        .collect();
    order.extend(m.keys().filter(|k| !FIRST.contains(&k.as_str())).cloned());
    let mut keys_left = LIST_KEPT.max(FIRST.len());
    let mut dropped = Map::new();
    for k in order {
        let v = m.get_mut(&k).expect("a key of the map");
        if k == "id" {
            budget = budget.saturating_sub(text_bytes(v));
            continue;
        }
        let received = text_bytes(v);
        if keys_left == 0 || budget == 0 {
            // Past the row's bound: the field is left out.
            dropped.insert(k.clone(), Value::Null);
            cuts.push(CutField {
                field: k,
                received,
                kept: 0,
            });
            continue;
        }
        keys_left -= 1;
        budget = budget.saturating_sub(k.len());
        let mut changed = false;
        bound(v, &mut budget, &mut changed);
        if changed {
            cuts.push(CutField {
                field: k,
                received,
                kept: text_bytes(v),
            });
        }
    }
    for k in dropped.keys() {
        m.remove(k);
    }
    if cuts.is_empty() {
        return None;
    }
    if cuts.len() > NAMED_MAX {
        let rest = cuts.split_off(NAMED_MAX - 1);
        cuts.push(CutField {
            field: format!("{} more fields", rest.len()),
            received: rest.iter().map(|c| c.received).sum(),
            kept: rest.iter().map(|c| c.kept).sum(),
        });
    }
    Some((serde_json::to_string(&Value::Object(m)).ok()?, cuts))
}

/// Cut `v` to the bounds, taking what it keeps from `budget`.
fn bound(v: &mut Value, budget: &mut usize, changed: &mut bool) {
    match v {
        Value::String(s) => {
            let keep = FIELD_KEPT.min(*budget);
            if s.len() > keep {
                let at = start(s, keep).len();
                s.truncate(at);
                s.shrink_to_fit();
                *changed = true;
            }
            *budget -= s.len();
        }
        Value::Array(a) => {
            if a.len() > LIST_KEPT {
                a.truncate(LIST_KEPT);
                *changed = true;
            }
            for x in a.iter_mut() {
                bound(x, budget, changed);
            }
        }
        Value::Object(o) => {
            if o.len() > LIST_KEPT {
                let extra: Vec<String> = o.keys().skip(LIST_KEPT).cloned().collect();
                for k in extra {
                    o.remove(&k);
                }
                *changed = true;
            }
            let mut gone = Vec::new();
            for (k, x) in o.iter_mut() {
                if *budget < k.len() {
                    gone.push(k.clone());
                    continue;
                }
                *budget -= k.len();
                bound(x, budget, changed);
            }
            if !gone.is_empty() {
                *changed = true;
                for k in gone {
                    o.remove(&k);
                }
            }
        }
        _ => {}
    }
}

/// The start of `s` in at most `n` bytes (cut at a character's boundary).
pub fn start(s: &str, n: usize) -> &str {
    let mut at = n.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    &s[..at]
}

/// The bytes of text (strings and keys) a value holds.
fn text_bytes(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len(),
        Value::Array(a) => a.iter().map(text_bytes).sum(),
        Value::Object(o) => o.iter().map(|(k, x)| k.len() + text_bytes(x)).sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Task, TaskItem};
    use super::*;

    fn task(item: TaskItem) -> Task {
        match item {
            TaskItem::Task(t) => *t,
            TaskItem::Unreadable(u) => panic!("unreadable: {}", u.reason),
        }
    }

    #[test]
    fn a_600_kb_title_is_kept_as_a_few_kb_and_said_cut() {
        let title = "é".repeat(300 * 1024); // 600 KB, two bytes a character
        let raw = serde_json::json!({"id": "t1", "display_id": "#1", "title": title}).to_string();
        let t = task(TaskItem::from_json(&raw));
        assert_eq!(t.id, "t1");
        assert_eq!(t.display_id.raw(), "#1");
        assert!(t.title.raw().len() <= FIELD_KEPT, "{}", t.title.raw().len());
        assert!(t.title.raw().len() > FIELD_KEPT - 4);
        assert!(title.starts_with(t.title.raw()));
        let cut = t.cut.as_deref().expect("the cut is named");
        assert_eq!(
            cut,
            [CutField {
                field: "title".into(),
                received: 600 * 1024,
                kept: t.title.raw().len(),
            }]
        );
        // The store keeps the row as read, and reads back the same words.
        let back = task(TaskItem::from_json(&serde_json::to_string(&t).unwrap()));
        assert_eq!(back.title.raw(), t.title.raw());
        assert_eq!(back.cut, t.cut);
    }

    #[test]
    fn every_field_long_list_and_unknown_field_is_bounded_and_the_row_in_all() {
        let big = "x".repeat(100 * 1024);
        let tags: Vec<String> = (0..5000).map(|i| format!("tag{i}")).collect();
        let raw = serde_json::json!({
            "id": "t2",
            "title": "short",
            "description": big,
            "additional_context": big,
            "tags": tags,
            "x_notes": big,
            "x_more": {"deep": [big, big, big]},
            "x_many": (0..3000).map(|i| (format!("k{i}"), Value::from(i))).collect::<Map<_, _>>(),
        })
        .to_string();
        let t = task(TaskItem::from_json(&raw));
        assert_eq!(t.title.raw(), "short");
        assert_eq!(t.tags.len(), LIST_KEPT);
        assert!(t.description.as_ref().unwrap().raw().len() <= FIELD_KEPT);
        let kept = serde_json::to_string(&t).unwrap();
        assert!(
            kept.len() < ROW_KEPT + 16 * 1024,
            "a row keeps {} bytes",
            kept.len()
        );
        let named: Vec<&str> = t.cut.iter().flatten().map(|c| c.field.as_str()).collect();
        for f in ["description", "additional_context", "tags"] {
            assert!(named.contains(&f), "{f} not named in {named:?}");
        }
    }

    #[test]
    fn an_ordinary_row_is_read_as_it_is() {
        let raw = serde_json::json!({"id": "t3", "title": "Review the lease", "tags": ["a", "b"]})
            .to_string();
        assert!(bounded_row(&raw).is_none());
        let t = task(TaskItem::from_json(&raw));
        assert!(t.cut.is_none());
        assert!(!serde_json::to_string(&t).unwrap().contains("taskdeck_cut"));
    }
}
