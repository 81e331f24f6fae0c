//! Task fields and filters as words: `:filter` parsing, the filter string
//! shown in the list title, file entries of any shape.

use super::command::{PRIORITY_VALUES, STATUS_VALUES};
use super::dates;
use crate::api::*;

/// The filters as `key=value` words, as the palette's `filter` takes them.
pub fn filter_string(q: &TaskQuery, me: Option<&str>) -> String {
    // The user's own id reads as `me`, as it was typed.
    let who = |id: &str| {
        if Some(id) == me {
            "me".to_string()
        } else {
            id.to_string()
        }
    };
    let mut parts = Vec::new();
    if !q.status.is_empty() {
        parts.push(format!("status={}", q.status.join(",")));
    }
    if let Some(p) = &q.priority {
        parts.push(format!("priority={p}"));
    }
    if let Some(a) = &q.assigned_to {
        parts.push(format!("assigned={}", who(a)));
    }
    if let Some(a) = &q.involving {
        parts.push(format!("involving={}", who(a)));
    }
    if let Some(a) = &q.team_id {
        parts.push(format!("team={a}"));
    }
    if !q.tags.is_empty() {
        parts.push(format!("tags={}", q.tags.join(",")));
    }
    if let Some(a) = &q.complete_by_from {
        parts.push(format!("from={a}"));
    }
    if let Some(a) = &q.complete_by_to {
        parts.push(format!("to={a}"));
    }
    parts.join(" ")
}

/// Input and output files of a task as (direction, entry).
pub fn file_entries(t: &Task) -> Vec<(&'static str, &serde_json::Value)> {
    let mut out = Vec::new();
    for (dir, v) in [("input", &*t.input_files), ("output", &*t.output_files)] {
        if let serde_json::Value::Array(a) = v {
            out.extend(a.iter().map(|e| (dir, e)));
        } else if !v.is_null() {
            out.push((dir, v));
        }
    }
    out
}

/// The id of a file entry of any shape.
pub fn file_id(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Object(m) => ["id", "file_id"]
            .iter()
            .find_map(|k| m.get(*k).and_then(|v| v.as_str()).map(str::to_string)),
        _ => None,
    }
}

pub fn parse_filters(args: &str, me: Option<&str>) -> Result<TaskQuery, String> {
    let mut q = TaskQuery::default();
    if args.trim() == "clear" || args.trim().is_empty() {
        return Ok(q);
    }
    let resolve_me = |v: &str| -> Result<String, String> {
        if v == "me" {
            me.map(str::to_string)
                .ok_or_else(|| "who you are is not known yet".to_string())
        } else {
            Ok(v.to_string())
        }
    };
    for word in args.split_whitespace() {
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| format!("{word:?}: filters are key=value, e.g. status=in_progress"))?;
        let list = |v: &str| {
            v.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        match k {
            "status" => {
                q.status = list(v);
                if let Some(bad) = q.status.iter().find(|s| !STATUS_VALUES.contains(&s.as_str())) {
                    return Err(format!("unknown status {bad:?} (use {})", STATUS_VALUES.join(", ")));
                }
            }
            "priority" => {
                if !PRIORITY_VALUES.contains(&v) {
                    return Err(format!("unknown priority {v:?} (use {})", PRIORITY_VALUES.join(", ")));
                }
                q.priority = Some(v.into())
            }
            "assigned" | "assigned_to" | "assignee" => q.assigned_to = Some(resolve_me(v)?),
            "involving" => q.involving = Some(resolve_me(v)?),
            "team" | "team_id" => q.team_id = Some(v.into()),
            "tags" => q.tags = list(v),
            "from" | "due_from" => q.complete_by_from = Some(dates::parse_bound(v, chrono::Utc::now(), true)?),
            "to" | "due_to" => q.complete_by_to = Some(dates::parse_bound(v, chrono::Utc::now(), false)?),
            "query" | "q" => q.query = Some(v.into()),
            other => return Err(format!("unknown filter {other:?} (status, priority, assigned, involving, team, tags, from, to)")),
        }
    }
    Ok(q)
}

/// `over`'s filters on top of `base`: every filter `over` names replaces
/// the same filter of `base` (a quick view plus `:filter status=…`).
pub fn merge(base: &TaskQuery, over: &TaskQuery) -> TaskQuery {
    let pick = |a: &Option<String>, b: &Option<String>| b.clone().or_else(|| a.clone());
    let list = |a: &Vec<String>, b: &Vec<String>| if b.is_empty() { a.clone() } else { b.clone() };
    TaskQuery {
        query: pick(&base.query, &over.query),
        status: list(&base.status, &over.status),
        priority: pick(&base.priority, &over.priority),
        assigned_to: pick(&base.assigned_to, &over.assigned_to),
        involving: pick(&base.involving, &over.involving),
        team_id: pick(&base.team_id, &over.team_id),
        tags: list(&base.tags, &over.tags),
        complete_by_from: pick(&base.complete_by_from, &over.complete_by_from),
        complete_by_to: pick(&base.complete_by_to, &over.complete_by_to),
    }
}
