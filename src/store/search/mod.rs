//! The search index (#36 §2): everything seen, searchable offline. One
//! contentless FTS5 table, `words_fts`, holds the words of every stored
//! task (number, display id, title, description, additional context,
//! tags, assignee and creator names) and of every comment and requester
//! message stored (`tabs` `comments` and `thread`); the plain table
//! `words` names what each of its rows is (task, kind, who, which note).
//! The index keeps no copy of the text: a hit's snippet is cut from the
//! task or the tab it came from. It is kept in step by `put_tasks`,
//! `put_tab`, `forget_task` and `evict` (a row is removed by its rowid:
//! FTS5 has no index on anything else).

use super::rows::{Found, Hit, Place, StoredTask};
use rusqlite::{params, Connection};
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;

mod query;
use query::query_words;
pub use query::{bound_query, query_cut_words, QUERY_BYTES, QUERY_WORDS};

/// Schema v5, idempotent: the index's two tables (the v1 `tasks_fts`,
/// which held titles, descriptions and tags only, is replaced by them).
pub(super) const SCHEMA_V5: &str = "CREATE TABLE IF NOT EXISTS words(
        id INTEGER PRIMARY KEY, task_id TEXT NOT NULL, kind TEXT NOT NULL,
        who TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '');
     CREATE INDEX IF NOT EXISTS words_task ON words(task_id, kind);
     CREATE VIRTUAL TABLE IF NOT EXISTS words_fts USING fts5(
        text, content='', contentless_delete=1, tokenize='unicode61', prefix='1 2');
     DROP TABLE IF EXISTS tasks_fts;";

/// A task's own words.
const TASK: &str = "task";
/// A comment (tab `comments`).
const COMMENT: &str = "comment";
/// A requester message (tab `thread`).
const MESSAGE: &str = "message";

/// The tabs whose notes are indexed, and the kind of their rows.
fn tab_kind(tab: &str) -> Option<&'static str> {
    match tab {
        "comments" => Some(COMMENT),
        "thread" => Some(MESSAGE),
        _ => None,
    }
}

/// Fill the index from everything stored (the migration to v5; run again,
/// it starts over and ends the same).
pub(super) fn rebuild(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(
        "INSERT INTO words_fts(words_fts) VALUES('delete-all');
         DELETE FROM words;",
    )?;
    let tasks: Vec<StoredTask> = {
        let mut st = c.prepare("SELECT id,number,title,json FROM tasks")?;
        let rows = st.query_map([], |r| {
            Ok(StoredTask {
                id: r.get(0)?,
                number: r.get(1)?,
                title: r.get(2)?,
                updated_at: None,
                json: r.get(3)?,
                full: false,
            })
        })?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for t in &tasks {
        index_task(c, t)?;
    }
    let tabs: Vec<(String, String, String)> = {
        let mut st =
            c.prepare("SELECT task_id,tab,json FROM tabs WHERE tab IN ('comments','thread')")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for (id, tab, json) in &tabs {
        index_tab(c, id, tab, json)?;
    }
    Ok(())
}

/// Remove a task's rows of one kind (`None`: all of them).
pub(super) fn unindex(c: &Connection, task_id: &str, kind: Option<&str>) -> rusqlite::Result<()> {
    let ids: Vec<i64> = {
        let mut st =
            c.prepare_cached("SELECT id FROM words WHERE task_id=?1 AND (?2 IS NULL OR kind=?2)")?;
        let rows = st.query_map(params![task_id, kind], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    if ids.is_empty() {
        return Ok(());
    }
    let mut del = c.prepare_cached("DELETE FROM words_fts WHERE rowid=?1")?;
    for id in &ids {
        del.execute([id])?;
    }
    c.prepare_cached("DELETE FROM words WHERE task_id=?1 AND (?2 IS NULL OR kind=?2)")?
        .execute(params![task_id, kind])?;
    Ok(())
}

fn index_doc(
    c: &Connection,
    task_id: &str,
    kind: &str,
    who: &str,
    note: &str,
    text: &str,
) -> rusqlite::Result<()> {
    c.prepare_cached("INSERT INTO words(task_id,kind,who,note) VALUES(?1,?2,?3,?4)")?
        .execute(params![task_id, kind, who, note])?;
    let id = c.last_insert_rowid();
    c.prepare_cached("INSERT INTO words_fts(rowid,text) VALUES(?1,?2)")?
        .execute(params![id, text])?;
    Ok(())
}

/// A task's own words, replacing those it had.
pub(super) fn index_task(c: &Connection, t: &StoredTask) -> rusqlite::Result<()> {
    unindex(c, &t.id, Some(TASK))?;
    let text: Vec<String> = task_fields(t, &TaskWords::of(&t.json))
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    index_doc(c, &t.id, TASK, "", "", &text.join(" "))
}

/// The comments or messages of a task as stored (a tab's JSON), replacing
/// those indexed before: one edited or deleted since is found as it is now.
pub(super) fn index_tab(
    c: &Connection,
    task_id: &str,
    tab: &str,
    json: &str,
) -> rusqlite::Result<()> {
    let Some(kind) = tab_kind(tab) else {
        return Ok(());
    };
    unindex(c, task_id, Some(kind))?;
    let notes: Vec<Value> = serde_json::from_str(json).unwrap_or_default();
    for n in &notes {
        let text = str_at(n, "content");
        if text.trim().is_empty() {
            continue;
        }
        let id = n.get("id").map(id_text).unwrap_or_default();
        index_doc(c, task_id, kind, &who(kind, n), &id, text)?;
    }
    Ok(())
}

fn id_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn str_at<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A person's name, else their e-mail.
fn person(v: Option<&Value>) -> String {
    let Some(p) = v else { return String::new() };
    crate::text::name_or_email(str_at(p, "name"), str_at(p, "email")).to_string()
}

/// Who wrote a note: a comment's author, a message's sender.
fn who(kind: &str, n: &Value) -> String {
    let w = if kind == COMMENT {
        person(n.get("author"))
    } else {
        let shown = str_at(n, "sender_display_name");
        if shown.is_empty() {
            person(n.get("sender"))
        } else {
            shown.to_string()
        }
    };
    if w.is_empty() {
        "someone".into()
    } else {
        w
    }
}

/// The fields of a task's stored JSON that search reads, each as its raw
/// JSON (borrowed: nothing else of the task is decoded or copied). A field
/// of another shape than expected reads as empty, as a whole task that is
/// no JSON object does.
#[derive(Default, serde::Deserialize)]
struct TaskWords<'a> {
    #[serde(borrow, default)]
    display_id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    description: Option<&'a RawValue>,
    #[serde(borrow, default)]
    additional_context: Option<&'a RawValue>,
    #[serde(borrow, default)]
    tags: Option<&'a RawValue>,
    #[serde(borrow, default)]
    assigned_to: Option<&'a RawValue>,
    #[serde(borrow, default)]
    creator: Option<&'a RawValue>,
}

impl<'a> TaskWords<'a> {
    fn of(json: &'a str) -> TaskWords<'a> {
        serde_json::from_str(json).unwrap_or_default()
    }
}

/// A raw JSON string's text (`""`: absent, or not a string).
fn raw_str(v: Option<&RawValue>) -> Cow<'_, str> {
    v.and_then(|r| serde_json::from_str::<Cow<str>>(r.get()).ok())
        .unwrap_or_default()
}

/// A person's name, else their e-mail, from their raw JSON object.
fn raw_person(v: Option<&RawValue>) -> String {
    #[derive(Default, serde::Deserialize)]
    struct P<'a> {
        #[serde(borrow, default)]
        name: Option<&'a RawValue>,
        #[serde(borrow, default)]
        email: Option<&'a RawValue>,
    }
    let p: P = v
        .and_then(|r| serde_json::from_str(r.get()).ok())
        .unwrap_or_default();
    crate::text::name_or_email(&raw_str(p.name), &raw_str(p.email)).to_string()
}

/// A task's searchable fields, each with its place.
fn task_fields(t: &StoredTask, v: &TaskWords<'_>) -> Vec<(Place, String)> {
    let mut out = Vec::new();
    let mut number = t.number.map(|n| n.to_string()).unwrap_or_default();
    let display = raw_str(v.display_id);
    if !display.is_empty() {
        number.push(' ');
        number.push_str(&display);
    }
    out.push((Place::Number, number));
    out.push((Place::Title, t.title.clone()));
    out.push((Place::Description, raw_str(v.description).into_owned()));
    out.push((Place::Context, raw_str(v.additional_context).into_owned()));
    let tags = v
        .tags
        .and_then(|r| serde_json::from_str::<Vec<&RawValue>>(r.get()).ok());
    if let Some(tags) = tags {
        let tags: Vec<Cow<str>> = tags
            .into_iter()
            .filter(|r| r.get().starts_with('"'))
            .map(|r| raw_str(Some(r)))
            .collect();
        out.push((Place::Tags, tags.join(" ")));
    }
    for (raw, place) in [
        (v.assigned_to, Place::Assignee as fn(String) -> Place),
        (v.creator, Place::Creator),
    ] {
        let name = raw_person(raw);
        if !name.is_empty() {
            out.push((place(name.clone()), name));
        }
    }
    out.retain(|(_, s)| !s.trim().is_empty());
    out
}

/// The words of a text, with where each starts (bytes).
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// Where in `text` the first word of `words` begins a word, if anywhere.
fn first_match(text: &str, words: &[String]) -> Option<usize> {
    tokens(text)
        .find(|(_, t)| {
            let t = t.to_lowercase();
            words.iter().any(|w| t.starts_with(w.as_str()))
        })
        .map(|(at, _)| at)
}

/// At most this many matches (the newest) are ranked by relevance.
pub const RANKED: i64 = 500;

/// Characters shown before and after the match in a snippet.
const BEFORE: usize = 24;
const AFTER: usize = 40;

/// The words around the first match in `text`, on one line, `…` where cut:
/// `…the zebra memo…`.
pub fn snippet(text: &str, words: &[String]) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    let at = first_match(&flat, words).unwrap_or(0);
    let head: Vec<char> = flat[..at].chars().collect();
    let tail: Vec<char> = flat[at..].chars().collect();
    let mut start = head.len().saturating_sub(BEFORE);
    // From a word's beginning.
    if start > 0 {
        while start < head.len() && head[start - 1] != ' ' {
            start += 1;
        }
    }
    let mut end = tail.len().min(AFTER);
    if end < tail.len() {
        while end > 0 && tail[end - 1] != ' ' {
            end -= 1;
        }
        if end == 0 {
            end = tail.len().min(AFTER);
        }
    }
    let mut s = String::new();
    if start > 0 {
        s.push('…');
    }
    s.extend(&head[start..]);
    s.extend(&tail[..end]);
    let mut s = s.trim_end().to_string();
    if end < tail.len() {
        s.push('…');
    }
    s
}

/// Stored tasks matching `query` (every word, as a prefix, in the task's
/// own fields or in one comment or message), best first, each with where
/// it matched ([`Db::find`](super::Db::find)).
pub(super) fn find(c: &Connection, query: &str, limit: usize) -> rusqlite::Result<Vec<Found>> {
    // However it came: a long query is cut, never read whole.
    let query = bound_query(query).0;
    // `#12` names a task number, not a word: `#1` is not every `10:00`
    // or `1 item` in a comment. Such words narrow by the number's digits.
    let mut numbers: Vec<&str> = Vec::new();
    let mut rest: Vec<&str> = Vec::new();
    for tok in query.split_whitespace() {
        match tok.strip_prefix('#') {
            Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => numbers.push(d),
            _ => rest.push(tok),
        }
    }
    let words = query_words(&rest.join(" "));
    if (words.is_empty() && numbers.is_empty()) || limit == 0 {
        return Ok(vec![]);
    }
    let numbered = |t: &StoredTask| {
        let n = t.number.map(|n| n.to_string()).unwrap_or_default();
        numbers.iter().all(|d| n.starts_with(d))
    };
    if words.is_empty() {
        let mut st = c.prepare_cached(
            "SELECT id FROM tasks WHERE CAST(number AS TEXT) LIKE ?1 || '%'
             ORDER BY length(CAST(number AS TEXT)), number LIMIT ?2",
        )?;
        let ids: Vec<String> = st
            .query_map(params![numbers[0], (limit * 4) as i64], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut out = Vec::new();
        for id in ids {
            if out.len() >= limit {
                break;
            }
            if let Some(task) = stored_task(c, &id)?.filter(|t| numbered(t)) {
                let shown = format!("#{}", task.number.unwrap_or_default());
                out.push(Found {
                    task,
                    hits: vec![Hit {
                        place: Place::Number,
                        snippet: shown,
                    }],
                });
            }
        }
        return Ok(out);
    }
    let matcher: Vec<String> = words.iter().map(|w| format!("\"{w}\"*")).collect();
    // Rows, best first; several may name one task. Only the newest
    // RANKED matches are ranked: FTS5 reads a match list in rowid order
    // and stops there, so a word in every task costs no more than a rare
    // one (a keystroke stays within its budget).
    let docs: Vec<(String, String, String, String)> = {
        let mut st = c.prepare_cached(
            "SELECT w.task_id, w.kind, w.who, w.note
             FROM (SELECT rowid, rank FROM
                     (SELECT rowid, rank FROM words_fts WHERE words_fts MATCH ?1
                      ORDER BY rowid DESC LIMIT ?3)
                   ORDER BY rank LIMIT ?2) f
             JOIN words w ON w.id = f.rowid ORDER BY f.rank",
        )?;
        let rows = st.query_map(
            params![matcher.join(" "), (limit * 4) as i64, RANKED],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut out: Vec<Found> = Vec::new();
    // A task's comments or thread, read once per search however many of
    // its notes matched.
    let mut tabs = Tabs::new();
    for (task_id, kind, who, note) in docs {
        let at = match out.iter().position(|f| f.task.id == task_id) {
            Some(i) => i,
            None if out.len() >= limit => continue,
            None => {
                let Some(task) = stored_task(c, &task_id)?.filter(|t| numbered(t)) else {
                    continue;
                };
                out.push(Found { task, hits: vec![] });
                out.len() - 1
            }
        };
        let hits = hits(c, &mut tabs, &out[at].task, &kind, &who, &note, &words)?;
        out[at].hits.extend(hits);
    }
    Ok(out)
}

/// A stored task, read as the store reads it ([`super::rows::task_row`]).
fn stored_task(c: &Connection, id: &str) -> rusqlite::Result<Option<StoredTask>> {
    use rusqlite::OptionalExtension;
    c.prepare_cached(
        "SELECT id,number,title,updated_at,json,full,fetched_at FROM tasks WHERE id=?1",
    )?
    .query_row([id], super::rows::task_row)
    .optional()
    .map(|found| found.map(|(t, _)| t))
}

/// The tabs a search has read: (task id, tab) → its JSON (`None`: none
/// stored).
type Tabs = std::collections::HashMap<(String, &'static str), Option<String>>;

/// Where one indexed row matched, with the words around it.
fn hits(
    c: &Connection,
    tabs: &mut Tabs,
    t: &StoredTask,
    kind: &str,
    who: &str,
    note: &str,
    words: &[String],
) -> rusqlite::Result<Vec<Hit>> {
    if kind == TASK {
        let fields = task_fields(t, &TaskWords::of(&t.json));
        let mut hits: Vec<Hit> = fields
            .iter()
            .filter(|(_, s)| first_match(s, words).is_some())
            .map(|(place, s)| Hit {
                place: place.clone(),
                snippet: snippet(s, words),
            })
            .collect();
        if hits.is_empty() {
            // Found by FTS5's folding (accents) where ours did not.
            hits.push(Hit {
                place: Place::Title,
                snippet: snippet(&t.title, words),
            });
        }
        return Ok(hits);
    }
    let tab = if kind == COMMENT {
        "comments"
    } else {
        "thread"
    };
    let json = match tabs.entry((t.id.clone(), tab)) {
        std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::hash_map::Entry::Vacant(e) => e.insert(
            c.prepare_cached("SELECT json FROM tabs WHERE task_id=?1 AND tab=?2")?
                .query_row(params![t.id, tab], |r| r.get::<_, String>(0))
                .ok(),
        ),
    };
    let text = json
        .as_deref()
        .map(|json| note_text(json, note))
        .unwrap_or_default();
    let place = if kind == COMMENT {
        Place::Comment(who.to_string())
    } else {
        Place::Message(who.to_string())
    };
    Ok(vec![Hit {
        place,
        snippet: snippet(&text, words),
    }])
}

/// The text of the note `id` in a tab's JSON (`""`: not there). Each note
/// is read as raw JSON and only its id and content decoded.
fn note_text(json: &str, id: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Note<'a> {
        #[serde(borrow, default)]
        id: Option<&'a RawValue>,
        #[serde(borrow, default)]
        content: Option<&'a RawValue>,
    }
    let Ok(notes) = serde_json::from_str::<Vec<&RawValue>>(json) else {
        return String::new();
    };
    notes
        .into_iter()
        .filter_map(|n| serde_json::from_str::<Note>(n.get()).ok())
        .find(|n| {
            // The id as the index wrote it (`id_text`).
            n.id.is_some_and(|r| match serde_json::from_str::<Cow<str>>(r.get()) {
                Ok(s) => s == id,
                Err(_) => serde_json::from_str::<Value>(r.get()).is_ok_and(|v| id_text(&v) == id),
            })
        })
        .map(|n| raw_str(n.content).into_owned())
        .unwrap_or_default()
}

/// The index's size on disk, in bytes (`dbstat`).
pub(super) fn index_bytes(c: &Connection) -> rusqlite::Result<i64> {
    c.query_row(
        "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'words%'",
        [],
        |r| r.get(0),
    )
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod snippets {
    use super::*;

    #[test]
    fn a_snippet_is_the_words_around_the_first_match() {
        let w = vec!["zebra".to_string()];
        let text = "Please see attached: we talked about it at length before \
                    the zebra memo went out to everyone on the list last Friday";
        let s = snippet(text, &w);
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(s.contains("the zebra memo"), "{s}");
        assert_eq!(snippet("zebra", &w), "zebra");
        assert_eq!(snippet("a\nzebra\tb", &w), "a zebra b");
    }
}
