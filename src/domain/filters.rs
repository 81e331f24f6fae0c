//! Filters and tags as words: `:filter status=a,b to=+7d` (and a view's
//! `filter = …` in the config file) read into a `TaskQuery`; `a,b` or
//! `+a -b` read into tags. People stay as typed here (`me`, a name): the
//! app resolves them through its directory.

use super::dates;
use crate::api::{Priority, Status, TaskQuery};

/// The service's task statuses and priorities, as filter and command words.
pub const STATUS_VALUES: &[&str] = &[
    "not_started",
    "in_progress",
    "waiting_on_external",
    "completed",
];
pub const PRIORITY_VALUES: &[&str] = &["urgent", "high", "medium", "low", "no_priority"];

/// A status as the user types it (`:filter status=…`, `:status`, a view's
/// filter, `--status`): the service's value, the word the screen shows
/// for it (`waiting`, `in progress`) or a beginning of either that names
/// one value only (`wait`, `in_p`), any case; `_` and a space are the
/// same. Returns the service's exact value; an unknown or ambiguous word
/// is refused naming the candidates.
pub fn status_value(typed: &str) -> Result<&'static str, String> {
    Valued::Status.read(typed)
}

/// A priority as the user types it: the rules of [`status_value`] (the
/// screen shows `-` for `no_priority`).
pub fn priority_value(typed: &str) -> Result<&'static str, String> {
    Valued::Priority.read(typed)
}

/// The task's enum-valued fields a word is read into, one rule for all
/// (`:status`, `:filter`, a view, `--status`, `--priority`…): each reads
/// its word with [`one_value`] and lists its accepted values one way
/// ([`Valued::listed`]). A new enum-valued field is a variant here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valued {
    Status,
    Priority,
}

impl Valued {
    /// What the value is called in messages (`give a priority`).
    pub fn what(self) -> &'static str {
        match self {
            Valued::Status => "status",
            Valued::Priority => "priority",
        }
    }

    /// (service value, word shown), in the service's order.
    fn table(self) -> Vec<(&'static str, String)> {
        match self {
            Valued::Status => Status::KNOWN
                .iter()
                .map(|s| (s.as_wire(), s.label()))
                .collect(),
            Valued::Priority => Priority::KNOWN
                .iter()
                .map(|p| (p.as_wire(), p.label()))
                .collect(),
        }
    }

    /// `typed` read as the service's value (see [`status_value`]).
    pub fn read(self, typed: &str) -> Result<&'static str, String> {
        one_value(self.what(), typed, &self.table())
    }

    /// The values accepted, as messages name them: the service's value,
    /// and the word shown beside it when it differs
    /// (`waiting_on_external (waiting)`).
    pub fn listed(self) -> String {
        listed(&self.table())
    }
}

fn listed(table: &[(&'static str, String)]) -> String {
    table
        .iter()
        .map(|(wire, shown)| {
            if normal(shown) == normal(wire) {
                wire.to_string()
            } else {
                format!("{wire} ({shown})")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Lower case, `_` as a space, spaces collapsed: `In_Progress` and
/// `in  progress` are one word.
fn normal(w: &str) -> String {
    w.replace('_', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// `typed` read against `table`, (service value, word shown) pairs: an
/// exact word first, else the one value a beginning names.
fn one_value(
    what: &str,
    typed: &str,
    table: &[(&'static str, String)],
) -> Result<&'static str, String> {
    let listed = listed(table);
    let t = normal(typed);
    // Asked for (the palette lists the values under its question, which
    // must fit 80 columns): the values are named when one is wrong.
    if t.is_empty() {
        return Err(format!("give a {what}"));
    }
    let words = |(wire, shown): &(&'static str, String)| [normal(wire), normal(shown)];
    if let Some((wire, _)) = table.iter().find(|e| words(e).contains(&t)) {
        return Ok(wire);
    }
    let found: Vec<&'static str> = table
        .iter()
        .filter(|e| words(e).iter().any(|w| w.starts_with(&t)))
        .map(|(wire, _)| *wire)
        .collect();
    match found.as_slice() {
        [one] => Ok(one),
        [] => Err(format!("unknown {what} {typed:?} (use {listed})")),
        many => Err(format!(
            "{typed:?} could be the {what} {} (type more of it)",
            many.join(" or ")
        )),
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
        Some(tz) => dates::parse_bound_in(v, crate::clock::timestamp(), lower, tz),
        None => dates::parse_bound(v, crate::clock::timestamp(), lower),
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
        // `status=` alone would clear every filter (an empty query).
        if v.trim().is_empty() {
            return Err(format!("{word:?}: give a value after the ="));
        }
        let list = |v: &str| {
            v.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        match k {
            "status" => {
                q.status = list(v)
                    .iter()
                    .map(|s| status_value(s).map(str::to_string))
                    .collect::<Result<_, _>>()?;
            }
            "priority" => q.priority = Some(priority_value(v)?.to_string()),
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
    fn status_and_priority_words_the_value_shown_or_a_unique_beginning() {
        // (typed, what it reads as, or a word the refusal must hold)
        let statuses: &[(&str, Result<&str, &str>)] = &[
            // The service's values, any case.
            ("waiting_on_external", Ok("waiting_on_external")),
            ("Waiting_On_External", Ok("waiting_on_external")),
            ("not_started", Ok("not_started")),
            // The words the screen shows.
            ("waiting", Ok("waiting_on_external")),
            ("WAITING", Ok("waiting_on_external")),
            ("in progress", Ok("in_progress")),
            ("  in   progress ", Ok("in_progress")),
            ("not started", Ok("not_started")),
            // Unique beginnings of either.
            ("wait", Ok("waiting_on_external")),
            ("w", Ok("waiting_on_external")),
            ("in_p", Ok("in_progress")),
            ("in p", Ok("in_progress")),
            ("comp", Ok("completed")),
            ("Comp", Ok("completed")),
            ("waiting_on", Ok("waiting_on_external")),
            // Unknown: the candidates named, with the words shown.
            ("done", Err("unknown status \"done\"")),
            ("done", Err("waiting_on_external (waiting)")),
            ("waitingx", Err("unknown status")),
            ("on_external", Err("unknown status")),
            ("", Err("give a status")),
        ];
        for (typed, want) in statuses {
            match (status_value(typed), want) {
                (Ok(got), Ok(w)) => assert_eq!(got, *w, "{typed:?}"),
                (Err(e), Err(w)) => assert!(e.contains(w), "{typed:?}: {e}"),
                (got, w) => panic!("{typed:?}: {got:?}, expected {w:?}"),
            }
        }
        let priorities: &[(&str, Result<&str, &str>)] = &[
            ("urgent", Ok("urgent")),
            ("no_priority", Ok("no_priority")),
            ("no priority", Ok("no_priority")),
            ("-", Ok("no_priority")),
            ("n", Ok("no_priority")),
            ("Med", Ok("medium")),
            ("h", Ok("high")),
            ("critical", Err("unknown priority \"critical\"")),
            ("critical", Err("no_priority (-)")),
        ];
        for (typed, want) in priorities {
            match (priority_value(typed), want) {
                (Ok(got), Ok(w)) => assert_eq!(got, *w, "{typed:?}"),
                (Err(e), Err(w)) => assert!(e.contains(w), "{typed:?}: {e}"),
                (got, w) => panic!("{typed:?}: {got:?}, expected {w:?}"),
            }
        }
        // Ambiguous: no beginning of today's values is (each starts its
        // own way), so the rule is shown on a table where one is.
        let table = [
            ("not_started", "not started".to_string()),
            ("no_priority", "-".to_string()),
        ];
        let e = one_value("word", "no", &table).unwrap_err();
        assert_eq!(
            e,
            "\"no\" could be the word not_started or no_priority (type more of it)"
        );
        assert_eq!(one_value("word", "not", &table), Ok("not_started"));
        // The values listed for completion are the service's.
        let wires: Vec<&str> = Status::KNOWN.iter().map(|s| s.as_wire()).collect();
        assert_eq!(wires, STATUS_VALUES);
        let wires: Vec<&str> = Priority::KNOWN.iter().map(|s| s.as_wire()).collect();
        assert_eq!(wires, PRIORITY_VALUES);
    }

    #[test]
    fn filters_send_the_service_value_of_a_word_shown_or_begun() {
        let q = parse_filters("status=waiting,in_p,Completed priority=med", None).unwrap();
        assert_eq!(
            q.status,
            vec!["waiting_on_external", "in_progress", "completed"]
        );
        assert_eq!(q.priority.as_deref(), Some("medium"));
        let q = parse_filters(r#"status="in progress",not_started priority=-"#, None).unwrap();
        assert_eq!(q.status, vec!["in_progress", "not_started"]);
        assert_eq!(q.priority.as_deref(), Some("no_priority"));
        let e = parse_filters("status=waiting,done", None).unwrap_err();
        assert!(e.contains("unknown status \"done\""), "{e}");
        // A view's filter in the config is checked by the same words.
        assert!(check_filters("status=waiting priority=urg").is_ok());
        assert!(check_filters("status=wat").is_err());
        // A key without its value is refused, not read as no filter.
        for bare in [
            "status=",
            "priority=",
            "assigned= status=completed",
            "tags=",
        ] {
            let e = parse_filters(bare, Some("u-me")).unwrap_err();
            assert!(e.contains("give a value"), "{bare}: {e}");
        }
    }

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
