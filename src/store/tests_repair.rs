//! A damaged schema never strands an edit (issue 32, point 15): a store
//! whose `user_version` says less than its tables hold, or whose tables
//! are missing, is repaired in place with its queued edit; one that
//! cannot be repaired is set aside after its queued edits and drafts are
//! carried over, and the note says so.

use super::*;
use rusqlite::Connection;

/// A store of this build holding one queued edit of `u-alice` and one
/// draft task, closed (its rows free for the next start).
fn store_with_an_edit(path: &std::path::Path) {
    let (mut db, _) = Db::open(path).unwrap();
    db.set_owner("u-alice");
    db.outbox_add(7, "t1", "#1", "status → completed", "{}", None, None, 5)
        .unwrap();
    db.outbox_release().unwrap();
    let draft = StoredTask {
        id: "d1".into(),
        number: Some(9),
        title: "a draft".into(),
        updated_at: Some("2026-01-01T00:00:00Z".into()),
        json: serde_json::json!({"id": "d1", "task_number": 9, "title": "a draft", "draft": true})
            .to_string(),
        full: true,
    };
    db.put_tasks(&[draft], 5).unwrap();
}

/// The queued edits a start of `u-alice` takes to send.
fn taken(path: &std::path::Path) -> (Db, Option<String>, Vec<OutboxRow>) {
    let (db, note, boot) = Db::open_for(path, "u-alice").expect("the store opens");
    let boot = boot.expect("read");
    (db, note, boot.outbox)
}

fn tables(db: &Db) -> Vec<String> {
    let mut st = db
        .conn
        .prepare("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        .unwrap();
    let names = st.query_map([], |r| r.get(0)).unwrap();
    names.map(Result::unwrap).collect()
}

fn set_aside_files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("corrupt"))
        .count()
}

#[test]
fn a_store_whose_version_says_less_than_its_tables_hold_is_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    store_with_an_edit(&path);
    // "table numbers already exists" on every start before.
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 1)
        .unwrap();
    let (db, note, rows) = taken(&path);
    assert_eq!(note, None, "repaired in place, nothing set aside");
    assert_eq!(rows.len(), 1, "the queued edit is taken to be sent");
    assert_eq!(rows[0].what, "status → completed");
    assert_eq!(set_aside_files(dir.path()), 0);
    let v: i64 = db
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
}

#[test]
fn a_store_whose_tables_are_missing_is_repaired_with_its_queued_edit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    store_with_an_edit(&path);
    // "no such table: inbox_own" on every run before; a column and an
    // index gone too.
    Connection::open(&path)
        .unwrap()
        .execute_batch(
            "DROP TABLE inbox_own; DROP TABLE inbox_items; DROP INDEX numbers_seen;
             ALTER TABLE outbox DROP COLUMN claimed_at;",
        )
        .unwrap();
    let (db, note, rows) = taken(&path);
    assert_eq!(note, None, "repaired in place");
    assert_eq!(rows.len(), 1, "the queued edit is taken to be sent");
    let t = tables(&db);
    for want in ["inbox_own", "inbox_items", "outbox", "tasks"] {
        assert!(t.iter().any(|n| n == want), "{want} in {t:?}");
    }
    // The inbox's tables work.
    db.conn
        .execute("INSERT INTO inbox_own(task_id, at) VALUES('t1', 1)", [])
        .unwrap();
    assert!(super::repair::gaps(&db.conn, super::schema::steps)
        .unwrap()
        .is_empty());
    assert_eq!(set_aside_files(dir.path()), 0);
}

#[test]
fn a_store_that_cannot_be_repaired_is_set_aside_after_its_edits_and_drafts_are_carried() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    store_with_an_edit(&path);
    // A column SQLite cannot add back (NOT NULL without a default).
    Connection::open(&path)
        .unwrap()
        .execute_batch("ALTER TABLE numbers DROP COLUMN title;")
        .unwrap();
    let (db, note, rows) = taken(&path);
    let note = note.expect("said");
    assert!(note.contains("moved aside"), "{note}");
    assert!(note.contains("1 queued edit carried over"), "{note}");
    assert!(note.contains("1 draft carried over"), "{note}");
    assert!(note.contains("numbers"), "which table: {note}");
    assert_eq!(set_aside_files(dir.path()), 1);
    assert_eq!(rows.len(), 1, "the carried edit is taken to be sent");
    let drafts = db.scan(Scan::Drafts, 10).unwrap();
    assert_eq!(drafts.len(), 1, "the draft is in the new store");
    assert!(super::repair::gaps(&db.conn, super::schema::steps)
        .unwrap()
        .is_empty());
}

#[test]
fn a_whole_store_is_opened_without_a_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    store_with_an_edit(&path);
    // Another process writing: a whole store still opens at once.
    let writer = Connection::open(&path).unwrap();
    writer.execute_batch("BEGIN IMMEDIATE;").unwrap();
    let (db, note) = Db::open_waiting(&path, std::time::Duration::from_millis(200)).expect("opens");
    assert_eq!(note, None);
    assert!(super::repair::gaps(&db.conn, super::schema::steps)
        .unwrap()
        .is_empty());
    writer.execute_batch("COMMIT;").unwrap();
}
