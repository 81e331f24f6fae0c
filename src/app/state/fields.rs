//! Task fields and filters as people and the directory know them: names
//! resolved to ids, the filter string shown in the list title, file
//! entries of any shape. The words themselves are `domain::filters`.

use super::directory::{Directory, Resolved};
use crate::api::*;
// The filter words themselves are shared with the config file (`domain`).
pub use crate::domain::filters::{check_filters, edit_tags, filter_words, merge, parse_filters};

/// A person as a filter word: `me`, their e-mail when known, else the id.
pub fn person_word(id: &str, me: Option<&str>, dir: &Directory) -> String {
    if Some(id) == me {
        return "me".into();
    }
    dir.people
        .get(id)
        .filter(|p| !p.email.is_empty())
        .map(|p| p.email.clone())
        .unwrap_or_else(|| id.to_string())
}

/// A filter names a person or team the directory has several of.
#[derive(Clone, Debug, PartialEq)]
pub struct Ambiguous {
    /// The filter word's key (`assigned`, `involving`, `team`).
    pub key: &'static str,
    pub reference: String,
    pub candidates: Vec<(String, String)>,
}

/// Filters name people and teams by e-mail, name or id: the query sent
/// always carries ids. An unknown name is an error (nothing is sent).
pub fn resolve_names(q: &mut TaskQuery, dir: &Directory) -> Result<(), Result<Ambiguous, String>> {
    let person = |key: &'static str,
                  v: &mut Option<String>|
     -> Result<(), Result<Ambiguous, String>> {
        let Some(r) = v.clone() else { return Ok(()) };
        if uuid::Uuid::parse_str(&r).is_ok() || dir.people.contains_key(&r) {
            return Ok(());
        }
        match dir.resolve_person(&r) {
            Resolved::One(id, _) => {
                *v = Some(id);
                Ok(())
            }
            Resolved::Many(candidates) => Err(Ok(Ambiguous {
                key,
                reference: r,
                candidates,
            })),
            Resolved::None => Err(Err(format!(
                "{key}={r}: no known person by that name or e-mail — use their e-mail or id as seen on a task (nothing sent)"
            ))),
        }
    };
    person("assigned", &mut q.assigned_to)?;
    person("involving", &mut q.involving)?;
    if let Some(r) = q.team_id.clone() {
        if uuid::Uuid::parse_str(&r).is_err() && !dir.teams.contains_key(&r) {
            match dir.resolve_team(&r) {
                Resolved::One(id, _) => q.team_id = Some(id),
                Resolved::Many(candidates) => {
                    return Err(Ok(Ambiguous {
                        key: "team",
                        reference: r,
                        candidates,
                    }))
                }
                Resolved::None => {
                    return Err(Err(format!(
                        "team={r}: no known team by that name — use its id as seen on a task (nothing sent)"
                    )))
                }
            }
        }
    }
    Ok(())
}

/// The filters as `key=value` words, as the palette's `filter` takes them;
/// people read as their e-mail (or `me`), teams as their name.
pub fn filter_string(q: &TaskQuery, me: Option<&str>, dir: &Directory) -> String {
    let who = |id: &str| person_word(id, me, dir);
    let team = |id: &str| {
        dir.teams
            .get(id)
            .filter(|t| !t.name.is_empty())
            .map(|t| t.name.clone())
            .unwrap_or_else(|| id.to_string())
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
        parts.push(format!("team={}", team(a)));
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
