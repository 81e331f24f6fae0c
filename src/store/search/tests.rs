//! The search index kept in step (#36 §2): every field of a task, its
//! comments and requester messages, through edits, deletions, comments
//! read later, forgetting, eviction and the migration from v4.

use crate::store::{Db, StoredTask};

use serde_json::json;

fn task(id: &str, n: i64, title: &str, updated: &str, extra: serde_json::Value) -> StoredTask {
    let mut v = json!({"id": id, "task_number": n, "title": title, "updated_at": updated});
    if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
        o.extend(e.clone());
    }
    StoredTask {
        id: id.into(),
        number: Some(n),
        title: title.into(),
        updated_at: Some(updated.into()),
        json: v.to_string(),
        full: true,
    }
}

fn comments(list: &[(&str, &str, &str)]) -> String {
    let v: Vec<_> = list
        .iter()
        .map(|(id, who, text)| json!({"id": id, "content": text, "author": {"id": "u", "name": who, "email": ""}}))
        .collect();
    serde_json::to_string(&v).unwrap()
}

fn found(db: &Db, q: &str) -> Vec<(String, Vec<String>)> {
    db.find(q, 10)
        .unwrap()
        .into_iter()
        .map(|f| {
            let hits = f
                .hits
                .iter()
                .map(|h| format!("{}: {}", h.place.words(), h.snippet))
                .collect();
            (f.task.id, hits)
        })
        .collect()
}

fn ids(db: &Db, q: &str) -> Vec<String> {
    found(db, q).into_iter().map(|(id, _)| id).collect()
}

const T0: &str = "2026-01-01T00:00:00Z";
const T1: &str = "2026-02-01T00:00:00Z";

#[test]
fn every_field_of_a_task_is_found_and_says_where() {
    let mut db = Db::in_memory().unwrap();
    let extra = json!({
        "display_id": "ACME-7",
        "description": "Quarterly numbers",
        "additional_context": "Client prefers the aardvark template",
        "tags": ["legal"],
        "assigned_to": {"id": "d", "name": "Dana Scully", "email": "dana@x.test"},
        "creator": {"id": "f", "name": "Fox Mulder", "email": "fox@x.test"}
    });
    db.put_tasks(&[task("a", 7, "Renew the NDA", T0, extra)], 1)
        .unwrap();
    for (q, place) in [
        ("renew", "title: Renew the NDA"),
        ("quarter", "description: Quarterly numbers"),
        (
            "aardv",
            "additional context: Client prefers the aardvark template",
        ),
        ("legal", "tags: legal"),
        ("scully", "assignee Dana Scully: Dana Scully"),
        ("mulder", "creator Fox Mulder: Fox Mulder"),
        ("acme", "number: 7 ACME-7"),
    ] {
        assert_eq!(
            found(&db, q),
            [("a".to_string(), vec![place.to_string()])],
            "{q}"
        );
    }
    assert!(ids(&db, "\"; DROP TABLE tasks; --").is_empty());
}

#[test]
fn comments_and_messages_are_found_and_follow_edits_and_deletions() {
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(&[task("a", 1, "Alpha", T0, json!({}))], 1)
        .unwrap();
    db.put_tab(
        "a",
        "comments",
        &comments(&[("c1", "Bob", "Have you read the zebra memo yet?")]),
        2,
    )
    .unwrap();
    assert_eq!(
        found(&db, "zebra"),
        [(
            "a".to_string(),
            vec!["comment by Bob: Have you read the zebra memo yet?".to_string()]
        )]
    );
    // A comment edited: the old words go, the new ones are found.
    db.put_tab(
        "a",
        "comments",
        &comments(&[("c1", "Bob", "Have you read the giraffe memo yet?")]),
        3,
    )
    .unwrap();
    assert!(
        ids(&db, "zebra").is_empty(),
        "the edited words are forgotten"
    );
    assert_eq!(ids(&db, "giraffe"), ["a"]);
    // Deleted: gone.
    db.put_tab("a", "comments", "[]", 4).unwrap();
    assert!(ids(&db, "giraffe").is_empty());
    // A requester message, from its sender's shown name.
    let thread = json!([{"id": "m1", "content": "When will the okapi report be ready?",
        "sender_display_name": "Carol (client)", "direction": "inbound"}]);
    db.put_tab("a", "thread", &thread.to_string(), 5).unwrap();
    assert_eq!(
        found(&db, "okapi"),
        [(
            "a".to_string(),
            vec!["message from Carol (client): When will the okapi report be ready?".to_string()]
        )]
    );
    // Other tabs are not indexed; the comments tab does not touch messages.
    db.put_tab("a", "sharing", "{\"note\": \"walrus\"}", 6)
        .unwrap();
    assert!(ids(&db, "walrus").is_empty());
    db.put_tab("a", "comments", "[]", 7).unwrap();
    assert_eq!(ids(&db, "okapi"), ["a"]);
}

#[test]
fn an_edited_task_is_found_by_its_new_words_only_and_its_comments_stay() {
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(&[task("a", 1, "Invoice Fabrikam", T0, json!({}))], 1)
        .unwrap();
    db.put_tab("a", "comments", &comments(&[("c", "Bob", "zebra")]), 1)
        .unwrap();
    db.put_tasks(&[task("a", 1, "Renamed", T1, json!({}))], 2)
        .unwrap();
    assert!(ids(&db, "fabrikam").is_empty());
    assert_eq!(ids(&db, "renamed"), ["a"]);
    assert_eq!(ids(&db, "zebra"), ["a"], "its comments are still found");
    // An older version does not replace the newer one, nor its words.
    db.put_tasks(&[task("a", 1, "Invoice Fabrikam", T0, json!({}))], 3)
        .unwrap();
    assert!(ids(&db, "fabrikam").is_empty());
}

#[test]
fn a_task_with_words_in_the_title_and_a_comment_is_one_row_with_both() {
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(&[task("a", 1, "Zebra crossing", T0, json!({}))], 1)
        .unwrap();
    db.put_tab(
        "a",
        "comments",
        &comments(&[("c", "Bob", "the zebra memo")]),
        1,
    )
    .unwrap();
    let f = found(&db, "zebra");
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].1.len(), 2, "{f:?}");
}

/// Two comments of one task match: each hit is its own comment's words
/// (the task's comments are read once per search, each note found in
/// them by its id).
#[test]
fn two_matching_comments_of_one_task_are_two_hits_each_with_its_words() {
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(&[task("a", 1, "Quarterly", T0, json!({}))], 1)
        .unwrap();
    db.put_tab(
        "a",
        "comments",
        &comments(&[
            ("c1", "Bob", "the zebra memo from Monday"),
            ("c2", "Dana", "a second zebra, on Friday"),
        ]),
        1,
    )
    .unwrap();
    let f = found(&db, "zebra");
    assert_eq!(f.len(), 1, "{f:?}");
    let mut hits = f[0].1.clone();
    hits.sort();
    assert_eq!(hits.len(), 2, "{hits:?}");
    assert!(
        hits[0].starts_with("comment by Bob") && hits[0].contains("Monday"),
        "{hits:?}"
    );
    assert!(
        hits[1].starts_with("comment by Dana") && hits[1].contains("Friday"),
        "{hits:?}"
    );
}

#[test]
fn forgetting_and_evicting_a_task_take_its_comments_out_of_the_index() {
    let mut db = Db::in_memory().unwrap();
    for (i, id) in ["old", "kept"].iter().enumerate() {
        db.put_tasks(&[task(id, i as i64, id, T0, json!({}))], i as i64)
            .unwrap();
        db.put_tab(
            id,
            "comments",
            &comments(&[("c", "Bob", &format!("zebra {id}"))]),
            0,
        )
        .unwrap();
    }
    db.opened("kept", 5).unwrap();
    assert_eq!(db.evict(1).unwrap(), 1);
    assert_eq!(ids(&db, "zebra"), ["kept"]);
    db.forget_task("kept").unwrap();
    assert!(ids(&db, "zebra").is_empty());
    let rows: i64 = db
        .conn
        .query_row("SELECT count(*) FROM words", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 0, "nothing of them is left in the index");
}

#[test]
fn a_version_4_store_is_indexed_anew_and_the_migration_can_run_twice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        // A v4 store: its tasks and comments, the old index of titles.
        let (mut db, _) = Db::open(&path).unwrap();
        db.put_tasks(
            &[task(
                "a",
                3,
                "Alpha",
                T0,
                json!({"additional_context": "aardvark"}),
            )],
            1,
        )
        .unwrap();
        db.put_tab("a", "comments", &comments(&[("c", "Bob", "zebra memo")]), 1)
            .unwrap();
        db.conn
            .execute_batch(
                "DROP TABLE words_fts; DROP TABLE words;
                 CREATE VIRTUAL TABLE tasks_fts USING fts5(id UNINDEXED, text, tokenize='unicode61');
                 INSERT INTO tasks_fts(id,text) VALUES('a','3 Alpha');
                 PRAGMA user_version = 4;",
            )
            .unwrap();
    }
    let (db, _) = Db::open(&path).unwrap();
    assert_eq!(ids(&db, "zebra"), ["a"], "comments stored before are found");
    assert_eq!(ids(&db, "aardvark"), ["a"]);
    // Run again (a step interrupted and retried): the same index, once.
    db.conn.execute_batch(super::SCHEMA_V5).unwrap();
    super::rebuild(&db.conn).unwrap();
    assert_eq!(found(&db, "zebra").len(), 1);
    let rows: i64 = db
        .conn
        .query_row("SELECT count(*) FROM words", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 2, "one row for the task, one for its comment");
    let old: i64 = db
        .conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name='tasks_fts'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(old, 0);
}

/// `#1` names task numbers starting with 1, not every word starting with
/// `1` (`10:00` in a comment, `1 item` in the context): the live filter's
/// rows all start with what was typed.
#[test]
fn a_hash_and_digits_narrow_by_task_number_only() {
    let mut db = Db::in_memory().unwrap();
    let noisy = json!({"additional_context": "1 item left", "description": "call at 10:00"});
    db.put_tasks(
        &[
            task("a", 3, "Assess findings", T0, noisy),
            task("b", 12, "File the return", T0, json!({})),
            task("c", 1, "Reply to Northwind", T0, json!({})),
            task("d", 21, "Board minutes", T0, json!({})),
        ],
        1,
    )
    .unwrap();
    db.put_tab(
        "a",
        "comments",
        &comments(&[("x", "Bob", "see 1 and 12 zebra")]),
        2,
    )
    .unwrap();
    assert_eq!(ids(&db, "#1"), ["c", "b"]);
    assert_eq!(ids(&db, "#12"), ["b"]);
    assert!(ids(&db, "#9").is_empty());
    // With words: both must hold.
    assert_eq!(ids(&db, "zebra"), ["a"]);
    assert!(ids(&db, "#1 zebra").is_empty());
    assert_eq!(ids(&db, "#3 zebra"), ["a"]);
    // A plain number is still a word anywhere.
    assert!(ids(&db, "12").contains(&"a".to_string()));
}

/// Search reads only the fields it needs, as raw JSON: escaped text is
/// the service's text; a field of another shape (a number, an object, a
/// person as a string, a tag that is no string) reads as empty and the
/// rest of the task is still found; comment ids that are numbers match.
#[test]
fn fields_of_odd_shapes_read_as_empty_and_escapes_as_text() {
    let mut db = Db::in_memory().unwrap();
    let extra = json!({
        "display_id": 42,
        "description": "Caf\u{e9} \"quoted\" lemur\nnext line",
        "additional_context": {"not": "text"},
        "tags": ["okapi", 7, null, {"x": 1}],
        "assigned_to": "Dana Scully",
        "creator": {"id": "f", "name": null, "email": "fox@x.test"}
    });
    db.put_tasks(&[task("a", 7, "Plain title", T0, extra)], 1)
        .unwrap();
    let notes = json!([
        {"id": 17, "content": "the narwhal \u{1b}[31m memo", "author": {"name": "Bob"}},
        "not a note",
        {"id": "c2", "content": 5}
    ]);
    db.put_tab("a", "comments", &notes.to_string(), 1).unwrap();
    assert_eq!(
        found(&db, "lemur"),
        [(
            "a".into(),
            vec!["description: Café \"quoted\" lemur next line".into()]
        )]
    );
    assert_eq!(found(&db, "okapi")[0].1, ["tags: okapi"]);
    assert_eq!(found(&db, "fox")[0].1, ["creator fox@x.test: fox@x.test"]);
    assert!(ids(&db, "scully").is_empty(), "a person as a string");
    assert!(ids(&db, "text").is_empty(), "an object as context");
    let hits = &found(&db, "narwhal")[0].1;
    assert_eq!(hits.len(), 1);
    assert!(
        hits[0].starts_with("comment by Bob: the narwhal"),
        "{hits:?}"
    );
}

/// A query is read up to its 32nd word and 512 bytes (#42 §5: matching a
/// 28 KB query against 3,000 tasks took 52 s): the words past the bound
/// are not required, so a task holding the first 32 is found although the
/// rest appear nowhere (every word must match otherwise).
#[test]
fn a_query_is_read_up_to_its_32nd_word_and_512_bytes() {
    use crate::store::{bound_query, QUERY_BYTES, QUERY_WORDS};
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(&[task("a", 1, "Review the plan", T0, json!({}))], 1)
        .unwrap();
    let words: Vec<String> = std::iter::once("review".to_string())
        .chain((1..QUERY_WORDS).map(|_| "plan".to_string()))
        .chain(["nowhere".to_string(), "elsewhere".to_string()])
        .collect();
    let q = words.join(" ");
    assert_eq!(ids(&db, &q), vec!["a"]);
    let (kept, cut) = bound_query(&q);
    assert!(cut);
    assert!(kept.ends_with("plan"), "{kept}");
    assert_eq!(kept.split(' ').count(), QUERY_WORDS);
    // The query, 28 KB of one word said 4,000 times: one bound.
    let long = "review ".repeat(4000);
    let (kept, cut) = bound_query(&long);
    assert!(cut && kept.split(' ').count() == QUERY_WORDS, "{kept}");
    assert_eq!(ids(&db, &long), vec!["a"]);
    // Within the bound, a query is read whole.
    assert_eq!(bound_query(" review  plan "), (" review  plan", false));
    assert_eq!(bound_query("#12 review"), ("#12 review", false));
    // Bytes: a word the cut would split is left out; one word alone is
    // cut at a character's edge (a prefix of it is still searched).
    let wide = format!("{} {}", "é".repeat(200), "ü".repeat(200));
    let (kept, cut) = bound_query(&wide);
    assert!(cut);
    assert_eq!(kept, "é".repeat(200));
    let one = "ß".repeat(1000);
    let (kept, cut) = bound_query(&one);
    assert!(cut && kept.len() <= QUERY_BYTES && kept.len() > QUERY_BYTES - 2);
    // Punctuation alone after the last word is not a cut worth saying.
    assert!(!bound_query("review!!!").1);
}
