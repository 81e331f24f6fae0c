//! Filters and tags as words: `:filter status=a,b to=+7d` (and a view's
//! `filter = …` in the config file) read into a `TaskQuery`; `a,b` or
//! `+a -b` read into tags. People stay as typed here (`me`, a name): the
//! app resolves them through its directory.

use super::dates;
use crate::api::TaskQuery;

/// The service's task statuses and priorities, as filter and command words.
pub const STATUS_VALUES: &[&str] = &[
    "not_started",
    "in_progress",
    "waiting_on_external",
    "completed",
];
pub const PRIORITY_VALUES: &[&str] = &["urgent", "high", "medium", "low", "no_priority"];

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
        Some(tz) => dates::parse_bound_in(v, jiff::Timestamp::now(), lower, tz),
        None => dates::parse_bound(v, jiff::Timestamp::now(), lower),
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

/// What a tags argument asks: `a,b` replaces the tags; `+a -b` adds and
/// removes.
#[derive(Clone, Debug, PartialEq)]
pub enum TagEdit {
    Replace(Vec<String>),
    AddRemove {
        add: Vec<String>,
        remove: Vec<String>,
    },
}

/// Read a tags argument. A mix of the two forms is an error (it could
/// mean either); a tag named twice counts once.
pub fn tag_edit(arg: &str) -> Result<TagEdit, String> {
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
    let unique = |it: &mut dyn Iterator<Item = &str>| {
        let mut out: Vec<String> = Vec::new();
        for t in it {
            if !t.is_empty() && !out.iter().any(|o| o == t) {
                out.push(t.to_string());
            }
        }
        out
    };
    if signed > 0 {
        let add = unique(&mut words.iter().filter_map(|w| w.strip_prefix('+')));
        let remove = unique(&mut words.iter().filter_map(|w| w.strip_prefix('-')));
        // Both ways would mean whichever ran last: say so instead.
        if let Some(both) = add.iter().find(|t| remove.contains(t)) {
            return Err(format!(
                "adds and removes {:?}: name each tag one way (nothing sent)",
                crate::text::clean(both)
            ));
        }
        Ok(TagEdit::AddRemove { add, remove })
    } else {
        Ok(TagEdit::Replace(unique(&mut words.iter().copied())))
    }
}

/// The tags after `arg` (see [`tag_edit`]) applied to `current`.
pub fn edit_tags(current: &[String], arg: &str) -> Result<Vec<String>, String> {
    Ok(match tag_edit(arg)? {
        TagEdit::Replace(tags) => tags,
        TagEdit::AddRemove { add, remove } => apply_tags(current, &add, &remove),
    })
}

/// `current` with `add` added (at the end, once) and `remove` removed: the
/// one rule for a tag edit, on one task or many (bulk, undo).
pub fn apply_tags(current: &[String], add: &[String], remove: &[String]) -> Vec<String> {
    let mut out: Vec<String> = current
        .iter()
        .filter(|t| !remove.contains(t))
        .cloned()
        .collect();
    for a in add {
        if !out.contains(a) {
            out.push(a.clone());
        }
    }
    out
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
        assert_eq!(
            edit_tags(&cur, "+a -a").unwrap_err(),
            "adds and removes \"a\": name each tag one way (nothing sent)"
        );
        assert!(edit_tags(&cur, "x +a -b")
            .unwrap_err()
            .contains("nothing sent"));
    }

    #[test]
    fn one_reading_of_a_tags_argument_for_single_and_bulk_edits() {
        assert_eq!(
            tag_edit("+a -b +a").unwrap(),
            TagEdit::AddRemove {
                add: vec!["a".into()],
                remove: vec!["b".into()]
            }
        );
        assert_eq!(
            tag_edit("x, y x").unwrap(),
            TagEdit::Replace(vec!["x".into(), "y".into()])
        );
        assert_eq!(tag_edit("").unwrap(), TagEdit::Replace(vec![]));
        assert!(tag_edit("x +a").is_err());
    }
}
