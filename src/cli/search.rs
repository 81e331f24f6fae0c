//! `taskdeck search WORDS [--json] [--offline] [--limit N]` (#36 §2): the
//! local store's matches first, each with where it matched (a comment by
//! whom, a message, the title…), then the service's own search (`query`)
//! unless `--offline`. The service unreachable: the stored matches, said
//! so on stderr, exit 5. A query is read up to its 32nd word and 512
//! bytes (`store::bound_query`), said on stderr when cut.

use super::output::{emit, emit_json, say, Failure, Outcome, EXIT_CONNECTION, EXIT_OK};
use crate::api::{ApiError, Client, TaskItem, TaskQuery};
use crate::cut::Piece;
use crate::store::{Db, Found};
use serde_json::{json, Value};
use std::path::Path;

/// What was asked.
pub struct Ask {
    pub words: String,
    pub json: bool,
    pub offline: bool,
    pub limit: usize,
}

pub async fn run(client: &Client, store: Option<&Path>, ask: &Ask) -> Outcome {
    // The store and the service are asked the same bounded query.
    let (words, cut) = crate::store::bound_query(&ask.words);
    if cut {
        say(&format!("taskdeck: {}", crate::store::query_cut_words()));
    }
    let stored = stored_matches(store, words, ask.limit)?;
    let service = if ask.offline {
        None
    } else {
        let q = TaskQuery {
            query: Some(words.to_string()),
            ..Default::default()
        };
        let limit = ask.limit.min(100) as u32;
        Some(client.list_tasks_raw(&q, limit, None).await)
    };
    let (items, code) = match service {
        None => (None, EXIT_OK),
        Some(Ok(page)) => (Some(page.items), EXIT_OK),
        Some(Err(e)) => {
            let f = Failure::api("searching the service", &e);
            if e.is_auth() {
                return Err(f);
            }
            let code = if e.unreachable()
                || matches!(e, ApiError::Network { .. } | ApiError::Timeout { .. })
            {
                EXIT_CONNECTION
            } else {
                f.code
            };
            say(&format!(
                "taskdeck: {} — the stored matches only are shown",
                f.message
            ));
            (None, code)
        }
    };
    if ask.json {
        let stored: Vec<Value> = stored.iter().map(found_json).collect();
        let service: Value = match &items {
            Some(items) => Value::Array(
                items
                    .iter()
                    .map(|r| serde_json::from_str(r.get()).unwrap_or(Value::Null))
                    .collect(),
            ),
            None => Value::Null,
        };
        let out = json!({"stored": stored, "service": service});
        let text = serde_json::to_string_pretty(&out).unwrap_or_else(|_| "{}".into());
        emit_json(&format!("{text}\n"))?;
        return Ok(code);
    }
    // Cut to the width on a terminal only: into a pipe, whole lines.
    let width = super::table::cut_width();
    let mut text = String::new();
    let line =
        |text: &mut String, s: &str| super::table::push_line(text, &[Piece::whole(s)], width);
    if stored.is_empty() {
        text.push_str("Stored: no match.\n");
    } else {
        text.push_str(&format!("Stored ({}):\n", stored.len()));
    }
    for f in &stored {
        let (label, title) = label_title(&f.task.json, f.task.number, &f.task.title);
        // The title gives way before the words it matched (issue 40 §3).
        let mut pieces = vec![
            Piece::whole(format!("{label:<8} ")),
            Piece::cut(title, 0, 12),
        ];
        for h in &f.hits {
            let hit = format!(" · {}: \"{}\"", h.place.words(), h.snippet);
            pieces.push(Piece::cut(hit, 1, 12));
        }
        super::table::push_line(&mut text, &pieces, width);
    }
    if let Some(items) = &items {
        let known: Vec<&str> = stored.iter().map(|f| f.task.id.as_str()).collect();
        let rows: Vec<(String, String, bool)> = items
            .iter()
            .filter_map(|r| match TaskItem::from_json(r.get()) {
                TaskItem::Task(t) => Some((
                    t.label(),
                    t.title.line().into_owned(),
                    known.contains(&t.id.as_str()),
                )),
                TaskItem::Unreadable(_) => None,
            })
            .collect();
        if rows.is_empty() {
            text.push_str("Service: no match.\n");
        } else {
            text.push_str(&format!("Service ({}):\n", rows.len()));
        }
        for (label, title, also) in rows {
            let also = if also { "  (also stored)" } else { "" };
            line(&mut text, &format!("{label:<8} {title}{also}"));
        }
    } else if ask.offline {
        text.push_str("Service: not asked (--offline).\n");
    }
    emit(&text)?;
    Ok(code)
}

/// The store's matches: none when there is no store for this key yet.
fn stored_matches(store: Option<&Path>, words: &str, limit: usize) -> Result<Vec<Found>, Failure> {
    let Some(path) = store.filter(|p| p.exists()) else {
        return Ok(vec![]);
    };
    let (db, note) = Db::open(path).map_err(Failure::failed)?;
    if let Some(n) = note {
        say(&format!("taskdeck: {n}"));
    }
    db.find(words, limit)
        .map_err(|e| Failure::failed(format!("searching the local store failed: {e}")))
}

/// A stored task's label (`#12`, its display id) and title.
fn label_title(json: &str, number: Option<i64>, title: &str) -> (String, String) {
    match TaskItem::from_json(json) {
        TaskItem::Task(t) => (t.label(), t.title.line().into_owned()),
        TaskItem::Unreadable(_) => (
            number.map(|n| format!("#{n}")).unwrap_or_default(),
            title.to_string(),
        ),
    }
}

fn found_json(f: &Found) -> Value {
    let task: Value = serde_json::from_str(&f.task.json).unwrap_or(Value::Null);
    let matched: Vec<Value> = f
        .hits
        .iter()
        .map(|h| {
            let who = match &h.place {
                crate::store::Place::Assignee(w)
                | crate::store::Place::Creator(w)
                | crate::store::Place::Comment(w)
                | crate::store::Place::Message(w) => Value::String(w.clone()),
                _ => Value::Null,
            };
            json!({"where": h.place.key(), "who": who, "snippet": h.snippet})
        })
        .collect();
    json!({
        "id": f.task.id,
        "number": f.task.number,
        "title": f.task.title,
        "matched": matched,
        "task": task,
    })
}
