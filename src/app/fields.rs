//! Task fields and filters as words: `:filter` parsing, the filter string
//! shown in the list title, file entries of any shape.

use super::command::{PRIORITY_VALUES, STATUS_VALUES};
use super::dates;
use super::directory::{Directory, Resolved};
use crate::api::*;

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

pub fn parse_filters(args: &str, me: Option<&str>) -> Result<TaskQuery, String> {
    parse_filters_in(args, me, None)
}

/// Check filter words without reading them in the user's zone (the config
/// file is checked before the zone is known: it may name it).
pub fn check_filters(args: &str) -> Result<(), String> {
    parse_filters_in(args, Some("me"), Some(&jiff::tz::TimeZone::UTC)).map(|_| ())
}

fn parse_filters_in(
    args: &str,
    me: Option<&str>,
    tz: Option<&jiff::tz::TimeZone>,
) -> Result<TaskQuery, String> {
    let bound = |v: &str, lower: bool| match tz {
        Some(tz) => dates::parse_bound_in(v, chrono::Utc::now(), lower, tz),
        None => dates::parse_bound(v, chrono::Utc::now(), lower),
    };
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
    for word in filter_words(args)? {
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
            "from" | "due_from" => q.complete_by_from = Some(bound(v, true)?),
            "to" | "due_to" => q.complete_by_to = Some(bound(v, false)?),
            "query" | "q" => q.query = Some(v.into()),
            other => return Err(format!("unknown filter {other:?} (status, priority, assigned, involving, team, tags, from, to, query)")),
        }
    }
    Ok(q)
}

/// Filter text as words: whitespace separates them, and double quotes
/// keep spaces in a value (`query="annual return"`, `team="Corporate Law"`).
pub fn filter_words(args: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in args.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if quoted {
        return Err(format!("{args:?}: a quote is not closed"));
    }
    if started {
        words.push(word);
    }
    Ok(words)
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

/// `a,b` replaces; `+a -b` adds and removes. A mix of the two forms is an
/// error (it could mean either).
pub fn edit_tags(current: &[String], arg: &str) -> Result<Vec<String>, String> {
    let words: Vec<&str> = arg
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let signed = words
        .iter()
        .filter(|w| w.starts_with('+') || w.starts_with('-'))
        .count();
    if signed > 0 && signed < words.len() {
        return Err(
            "mixes the two forms: a,b replaces the tags; +a -b adds and removes (nothing sent)"
                .into(),
        );
    }
    if signed > 0 {
        let mut tags = current.to_vec();
        for w in words {
            let (op, tag) = w.split_at(1);
            if tag.is_empty() {
                continue;
            }
            if op == "+" && !tags.iter().any(|t| t == tag) {
                tags.push(tag.to_string());
            } else if op == "-" {
                tags.retain(|t| t != tag);
            }
        }
        Ok(tags)
    } else {
        let mut tags: Vec<String> = Vec::new();
        for w in words {
            if !tags.iter().any(|t| t == w) {
                tags.push(w.to_string());
            }
        }
        Ok(tags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_values_keep_their_spaces() {
        assert_eq!(
            filter_words(r#"status=completed query="annual return"  team="Corporate Law""#)
                .unwrap(),
            vec![
                "status=completed",
                "query=annual return",
                "team=Corporate Law"
            ]
        );
        assert!(filter_words("query=\"open").is_err());
        let q = parse_filters(r#"query="two words" to=today"#, None).unwrap();
        assert_eq!(q.query.as_deref(), Some("two words"));
        assert!(q.complete_by_to.is_some());
    }

    #[test]
    fn tags_replace_add_remove() {
        let cur = vec!["a".to_string(), "b".to_string()];
        assert_eq!(edit_tags(&cur, "x,y").unwrap(), vec!["x", "y"]);
        assert_eq!(edit_tags(&cur, "+c -a").unwrap(), vec!["b", "c"]);
        assert_eq!(edit_tags(&cur, "").unwrap(), Vec::<String>::new());
        assert!(edit_tags(&cur, "x +a -b")
            .unwrap_err()
            .contains("nothing sent"));
    }
}
