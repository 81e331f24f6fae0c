use super::*;
use rusqlite::Connection;

/// An older store opened by this build: upgraded in place (not moved
/// aside), at this build's schema version.
pub(super) fn opens_in_place(path: &std::path::Path) -> Db {
    let (db, note) = Db::open(path).unwrap();
    assert!(note.is_none(), "upgraded, not moved aside: {note:?}");
    let version: i64 = db
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    db
}

fn task(id: &str, n: i64, title: &str, updated: &str, full: bool) -> StoredTask {
    StoredTask {
        id: id.into(),
        number: Some(n),
        title: title.into(),
        updated_at: Some(updated.into()),
        json: serde_json::json!({"id": id, "task_number": n, "title": title,
            "updated_at": updated, "tags": ["urgent"], "description": "Quarterly numbers"})
        .to_string(),
        full,
    }
}

#[test]
fn tasks_views_and_tabs_round_trip() {
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(
        &[
            task("a", 1, "Alpha", "2026-01-01T00:00:00Z", false),
            task("b", 2, "Beta", "2026-01-01T00:00:00Z", false),
        ],
        10,
    )
    .unwrap();
    db.put_view("k", &["b".into(), "a".into(), "gone".into()], 11)
        .unwrap();
    let (rows, at) = db.get_view("k").unwrap().unwrap();
    assert_eq!(
        rows.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
        ["b", "a"],
        "order kept, unknown ids skipped"
    );
    assert_eq!(at, 11);
    db.put_tab("a", "comments", "[1]", 12).unwrap();
    db.put_tab("a", "comments", "[2]", 13).unwrap();
    let d = db.get_detail("a").unwrap();
    assert_eq!(d.task.unwrap().title, "Alpha");
    assert_eq!(d.tabs.len(), 1);
    assert_eq!(d.tabs[0].json, "[2]");
    assert_eq!(
        db.find_number(2).unwrap().map(|r| r.id).as_deref(),
        Some("b")
    );
}

#[test]
fn an_older_version_never_replaces_a_newer_one() {
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(&[task("a", 1, "New", "2026-02-01T00:00:00Z", true)], 1)
        .unwrap();
    db.put_tasks(&[task("a", 1, "Old", "2026-01-01T00:00:00Z", true)], 2)
        .unwrap();
    assert_eq!(db.get_task("a").unwrap().unwrap().0.title, "New");
    // A list row of the same version does not replace the whole task…
    db.put_tasks(&[task("a", 1, "Row", "2026-02-01T00:00:00Z", false)], 3)
        .unwrap();
    let (t, fetched) = db.get_task("a").unwrap().unwrap();
    assert!(t.full);
    assert_eq!(t.title, "New");
    // …but it was seen fresh.
    assert_eq!(fetched, 3);
    db.put_tasks(&[task("a", 1, "Newer", "2026-03-01T00:00:00Z", false)], 4)
        .unwrap();
    assert_eq!(db.get_task("a").unwrap().unwrap().0.title, "Newer");
}

#[test]
fn versions_are_compared_by_instant_not_by_text() {
    let mut db = Db::in_memory().unwrap();
    let title = |db: &Db| db.get_task("a").unwrap().unwrap().0.title;
    db.put_tasks(&[task("a", 1, "Old", "2026-02-01T10:00:00Z", true)], 1)
        .unwrap();
    // Half a second later: as text, `.` sorts before `Z`.
    db.put_tasks(&[task("a", 1, "New", "2026-02-01T10:00:00.5Z", true)], 2)
        .unwrap();
    assert_eq!(title(&db), "New");
    // An hour earlier, written with an offset: as text, later.
    db.put_tasks(
        &[task("a", 1, "Older", "2026-02-01T14:00:00+05:00", true)],
        3,
    )
    .unwrap();
    assert_eq!(title(&db), "New");
    // The same instant written otherwise: a row does not replace the task.
    db.put_tasks(
        &[task("a", 1, "Row", "2026-02-01T10:00:00.500+00:00", false)],
        4,
    )
    .unwrap();
    assert_eq!(title(&db), "New");
}

#[test]
fn local_search_finds_words_by_prefix_and_follows_updates() {
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(
        &[
            task(
                "a",
                1,
                "Invoice for Fabrikam",
                "2026-01-01T00:00:00Z",
                false,
            ),
            task("b", 2, "Payroll run", "2026-01-01T00:00:00Z", false),
        ],
        1,
    )
    .unwrap();
    let ids = |db: &Db, q: &str| {
        db.search(q, 10)
            .unwrap()
            .into_iter()
            .map(|t| t.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&db, "fabri"), ["a"]);
    assert_eq!(ids(&db, "invoice fab"), ["a"]);
    assert_eq!(ids(&db, "quarterly").len(), 2, "the description counts");
    assert!(ids(&db, "\"; DROP TABLE tasks; --").is_empty());
    db.put_tasks(&[task("a", 1, "Renamed", "2026-02-01T00:00:00Z", false)], 2)
        .unwrap();
    assert!(
        ids(&db, "fabrikam").is_empty(),
        "the old title is forgotten"
    );
    assert_eq!(ids(&db, "renamed"), ["a"]);
}

#[test]
fn eviction_drops_unopened_tasks_fetched_longest_ago_first() {
    let mut db = Db::in_memory().unwrap();
    for (i, id) in ["old", "opened", "mid", "queued", "new"].iter().enumerate() {
        db.put_tasks(
            &[task(id, i as i64, id, "2026-01-01T00:00:00Z", false)],
            i as i64,
        )
        .unwrap();
        db.put_tab(id, "comments", "[]", 0).unwrap();
    }
    db.opened("opened", 0).unwrap();
    db.outbox_add(1, "queued", "#3", "status → completed", "{}", None, None, 0)
        .unwrap();
    assert_eq!(db.evict(2).unwrap(), 3);
    let left: Vec<String> = ["old", "opened", "mid", "queued", "new"]
        .iter()
        .filter(|id| db.get_task(id).unwrap().is_some())
        .map(|s| s.to_string())
        .collect();
    assert_eq!(left, ["opened", "queued"]);
    assert!(db.get_detail("old").unwrap().tabs.is_empty());
    assert!(db.search("mid", 10).unwrap().is_empty());
}

#[test]
fn seen_keeps_what_a_later_look_did_not_load() {
    let db = Db::in_memory().unwrap();
    let s = Seen {
        updated_at: Some("u1".into()),
        comment_ids: Some(vec!["c1".into()]),
        message_ids: None,
        at: 1,
    };
    db.put_seen("a", &s).unwrap();
    db.put_seen(
        "a",
        &Seen {
            updated_at: Some("u2".into()),
            comment_ids: None,
            message_ids: Some(vec!["m1".into()]),
            at: 2,
        },
    )
    .unwrap();
    let all = db.all_seen().unwrap();
    let a = &all["a"];
    assert_eq!(a.updated_at.as_deref(), Some("u2"));
    assert_eq!(a.comment_ids.as_deref(), Some(&["c1".to_string()][..]));
    assert_eq!(a.message_ids.as_deref(), Some(&["m1".to_string()][..]));
}

#[test]
fn recent_is_newest_first_one_row_per_task() {
    let db = Db::in_memory().unwrap();
    for (id, action, at) in [
        ("a", "opened", 1),
        ("b", "archived", 2),
        ("a", "status → completed", 3),
    ] {
        db.put_recent(&Recent {
            task_id: id.into(),
            label: format!("#{id}"),
            title: "T".into(),
            action: action.into(),
            at,
        })
        .unwrap();
    }
    let r = db.recent().unwrap();
    assert_eq!(
        r.iter()
            .map(|r| (r.task_id.as_str(), r.action.as_str()))
            .collect::<Vec<_>>(),
        [("a", "status → completed"), ("b", "archived")]
    );
}

#[test]
fn outbox_keeps_order_and_removes() {
    let db = Db::in_memory().unwrap();
    let a = db
        .outbox_add(
            1,
            "t",
            "#1",
            "status → completed",
            "{\"a\":1}",
            Some("u"),
            None,
            5,
        )
        .unwrap();
    let b = db
        .outbox_add(2, "t", "#1", "priority → high", "{}", None, None, 6)
        .unwrap();
    assert!(b > a);
    db.outbox_remove(a).unwrap();
    let rows = db.outbox().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].what, "priority → high");
}

#[test]
fn a_file_that_is_not_a_database_is_moved_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store").join("user-x.sqlite3");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        b"this is not a database, it is a shopping list\n".repeat(100),
    )
    .unwrap();
    let (db, note) = Db::open(&path).unwrap();
    let note = note.expect("a message");
    assert!(note.contains("moved aside"), "{note}");
    assert_eq!(db.task_count().unwrap(), 0);
    let aside: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("corrupt"))
        .collect();
    assert_eq!(aside.len(), 1, "the damaged file is kept for a look");
}

#[test]
fn a_newer_schema_is_moved_aside_not_misread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        let c = Connection::open(&path).unwrap();
        c.pragma_update(None, "user_version", 99).unwrap();
    }
    let (_db, note) = Db::open(&path).unwrap();
    assert!(note.unwrap().contains("newer"));
}

#[cfg(unix)]
#[test]
fn the_database_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s").join("u.sqlite3");
    let (db, _) = Db::open(&path).unwrap();
    db.set_meta("k", "v").unwrap();
    for ext in ["sqlite3", "sqlite3-wal"] {
        let p = path.with_extension(ext);
        if p.exists() {
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{}", p.display());
        }
    }
    let dmode = std::fs::metadata(path.parent().unwrap())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dmode, 0o700);
}

#[test]
fn boot_reads_the_last_view_and_current_task() {
    let mut db = Db::in_memory().unwrap();
    db.put_tasks(&[task("a", 1, "Alpha", "u", true)], 1)
        .unwrap();
    db.put_view("all", &["a".into()], 2).unwrap();
    db.set_meta("last_view", "{\"view\":\"all\"}").unwrap();
    db.set_meta("last_view_key", "all").unwrap();
    db.set_meta("last_task", "a").unwrap();
    db.put_tab("a", "comments", "[]", 3).unwrap();
    let b = db.boot().unwrap();
    assert_eq!(b.rows.len(), 1);
    assert_eq!(b.rows_saved_at, 2);
    assert_eq!(b.current.unwrap().tabs.len(), 1);
}

#[test]
fn the_thread_writes_in_order_and_answers_reads() {
    let (tx, rx) = std::sync::mpsc::channel();
    let t = worker::StoreThread::start(Db::in_memory().unwrap(), 100, move |a| {
        let _ = tx.send(a);
    });
    t.send(worker::StoreCmd::PutTasks(vec![task(
        "a", 7, "Alpha", "u", true,
    )]));
    t.send(worker::StoreCmd::FindNumber {
        number: 7,
        first: true,
    });
    match rx.recv().unwrap() {
        worker::StoreAnswer::Number {
            number: 7,
            first: true,
            found: Some(f),
        } => {
            assert_eq!(f.row.id, "a");
            assert_eq!(
                f.detail.task.unwrap().title,
                "Alpha",
                "what is stored of it"
            );
        }
        other => panic!("{other:?}"),
    }
    t.finish();
}

#[test]
fn damage_past_the_header_is_found_by_the_thread_and_moved_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        let (mut db, _) = Db::open(&path).unwrap();
        let many: Vec<StoredTask> = (0..400)
            .map(|i| task(&format!("t{i}"), i, &"a long title ".repeat(20), "u", true))
            .collect();
        db.put_tasks(&many, 1).unwrap();
        db.outbox_add(3, "t1", "#1", "priority → low", "{}", Some("v"), None, 5)
            .unwrap();
        db.outbox_release().unwrap();
        db.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
    }
    // Scribble over pages in the middle of the file (not the header).
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    for b in &mut bytes[mid..mid + 8192] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).unwrap();
    // The open (cheap, at start) does not read every page…
    let (db, note) = Db::open(&path).unwrap();
    assert!(note.is_none());
    // …the store's thread does, says so once and moves the file aside,
    // carrying its queued edit over to a new store it goes on with
    // (issue 22, point 6: it was moved aside and its edits lost).
    let (tx, rx) = std::sync::mpsc::channel();
    let t = worker::StoreThread::start(db, 100, move |a| {
        let _ = tx.send(a);
    });
    match rx.recv().unwrap() {
        worker::StoreAnswer::SetAside(m) => {
            assert!(m.contains("moved aside"), "{m}");
            assert!(m.contains("1 queued edit carried over"), "{m}");
        }
        other => panic!("{other:?}"),
    }
    t.finish();
    let aside = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| e.file_name().to_string_lossy().contains("corrupt"));
    assert!(aside);
    // The damaged file is no longer in the way: the store there is a new,
    // sound one holding the edit.
    let (db, note) = Db::open(&path).unwrap();
    assert!(note.is_none(), "{note:?}");
    db.check().unwrap();
    assert_eq!(db.task_count().unwrap(), 0);
    assert_eq!(db.outbox().unwrap()[0].what, "priority → low");
}

fn numbered(n: i64, id: &str) -> Numbered {
    Numbered {
        number: n,
        display_id: format!("#{n}"),
        id: id.into(),
        title: format!("Task {n}"),
    }
}

#[test]
fn the_number_index_records_every_row_of_a_page_and_follows_moves() {
    let mut db = Db::in_memory().unwrap();
    let page: Vec<Numbered> = (1..=100).map(|n| numbered(n, &format!("t{n}"))).collect();
    db.put_numbers(&page, 10).unwrap();
    assert_eq!(db.number_count().unwrap(), 100);
    assert_eq!(db.task_count().unwrap(), 0, "no task row is written for it");
    let r = db.find_number(77).unwrap().unwrap();
    assert_eq!((r.id.as_str(), r.title.as_str()), ("t77", "Task 77"));
    assert!(db.find_number(101).unwrap().is_none());
    // Renumbered: the old number no longer names it.
    db.put_numbers(&[numbered(500, "t77")], 11).unwrap();
    assert!(db.find_number(77).unwrap().is_none());
    assert_eq!(db.find_number(500).unwrap().unwrap().id, "t77");
    // A number given to another task names that one.
    db.put_numbers(&[numbered(500, "other")], 12).unwrap();
    assert_eq!(db.find_number(500).unwrap().unwrap().id, "other");
    db.forget_number(500, "not-it").unwrap();
    assert!(
        db.find_number(500).unwrap().is_some(),
        "only that pair goes"
    );
    db.forget_number(500, "other").unwrap();
    assert!(db.find_number(500).unwrap().is_none());
}

#[test]
fn the_number_index_is_bounded_and_the_longest_unseen_go_first() {
    let mut db = Db::in_memory().unwrap();
    for (at, range) in [(1, 1..=40), (2, 41..=80), (3, 81..=120)] {
        let rows: Vec<Numbered> = range.map(|n| numbered(n, &format!("t{n}"))).collect();
        db.put_numbers(&rows, at).unwrap();
    }
    // #5 seen again since: it stays.
    db.put_numbers(&[numbered(5, "t5")], 4).unwrap();
    assert_eq!(db.evict_numbers(100).unwrap(), 20);
    assert_eq!(db.number_count().unwrap(), 100);
    assert!(db.find_number(5).unwrap().is_some());
    assert!(db.find_number(1).unwrap().is_none());
    assert!(db.find_number(21).unwrap().is_none());
    assert!(db.find_number(22).unwrap().is_some());
    assert_eq!(db.evict_numbers(100).unwrap(), 0);
}

/// The schema of version 1 (the first release of the store), as it made
/// files: an older store must upgrade in place.
const SCHEMA_V1: &str = "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
 CREATE TABLE tasks(id TEXT PRIMARY KEY, number INTEGER, title TEXT NOT NULL DEFAULT '',
    updated_at TEXT, json TEXT NOT NULL, full INTEGER NOT NULL DEFAULT 0,
    fetched_at INTEGER NOT NULL, opened_at INTEGER);
 CREATE INDEX tasks_number ON tasks(number);
 CREATE TABLE tabs(task_id TEXT NOT NULL, tab TEXT NOT NULL, json TEXT NOT NULL,
    fetched_at INTEGER NOT NULL, PRIMARY KEY(task_id, tab));
 CREATE TABLE views(key TEXT PRIMARY KEY, ids TEXT NOT NULL, saved_at INTEGER NOT NULL);
 CREATE TABLE seen(task_id TEXT PRIMARY KEY, updated_at TEXT, comment_ids TEXT,
    message_ids TEXT, at INTEGER NOT NULL);
 CREATE TABLE recent(task_id TEXT PRIMARY KEY, label TEXT NOT NULL, title TEXT NOT NULL,
    action TEXT NOT NULL, at INTEGER NOT NULL);
 CREATE TABLE people(id TEXT PRIMARY KEY, team INTEGER NOT NULL, name TEXT NOT NULL,
    email TEXT NOT NULL, tasks TEXT NOT NULL);
 CREATE TABLE outbox(seq INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL,
    label TEXT NOT NULL, what TEXT NOT NULL, request TEXT NOT NULL,
    base_updated_at TEXT, created_at INTEGER NOT NULL);
 CREATE VIRTUAL TABLE tasks_fts USING fts5(id UNINDEXED, text, tokenize='unicode61');
 PRAGMA user_version = 1;";

#[test]
fn a_version_1_store_upgrades_in_place_and_its_tasks_are_numbered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        let c = Connection::open(&path).unwrap();
        c.execute_batch(SCHEMA_V1).unwrap();
        c.execute(
            "INSERT INTO tasks(id,number,title,json,fetched_at) VALUES(?1,?2,?3,?4,?5)",
            rusqlite::params![
                "a",
                12,
                "Alpha",
                serde_json::json!({"id": "a", "display_id": "T-12", "title": "Alpha"}).to_string(),
                5
            ],
        )
        .unwrap();
        c.execute(
            "INSERT INTO tasks(id,number,title,json,fetched_at) VALUES('b',13,'Beta','not json',6)",
            [],
        )
        .unwrap();
        c.execute(
            "INSERT INTO outbox(seq,task_id,label,what,request,created_at)
             VALUES(1,'a','#12','status → completed','{}',7)",
            [],
        )
        .unwrap();
    }
    let mut db = opens_in_place(&path);
    // What v1 kept is all there…
    assert_eq!(db.get_task("a").unwrap().unwrap().0.title, "Alpha");
    assert_eq!(db.outbox().unwrap().len(), 1);
    // …and its tasks are in the index from the start.
    let a = db.find_number(12).unwrap().unwrap();
    assert_eq!((a.id.as_str(), a.display_id.as_str()), ("a", "T-12"));
    let b = db.find_number(13).unwrap().unwrap();
    assert_eq!((b.id.as_str(), b.display_id.as_str()), ("b", "#13"));
    assert_eq!(db.number_count().unwrap(), 2);
    db.put_numbers(&[numbered(14, "c")], 8).unwrap();
    drop(db);
    // Opened again: nothing is migrated twice.
    let (db, note) = Db::open(&path).unwrap();
    assert!(note.is_none());
    assert_eq!(db.number_count().unwrap(), 3);
}

#[test]
fn scan_finds_stored_drafts_and_tasks_with_files_and_a_forgotten_task_is_gone() {
    let mut db = Db::in_memory().unwrap();
    let with = |id: &str, n: i64, extra: serde_json::Value| {
        let mut t = task(id, n, id, "2026-01-01T00:00:00Z", true);
        let mut v: serde_json::Value = serde_json::from_str(&t.json).unwrap();
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        t.json = v.to_string();
        t
    };
    db.put_tasks(
        &[
            with("d", 1, serde_json::json!({"draft": true})),
            with(
                "n",
                2,
                serde_json::json!({"draft": false, "input_files": []}),
            ),
            with("f", 3, serde_json::json!({"output_files": [{"id": "x"}]})),
            with("g", 4, serde_json::json!({"input_files": "odd"})),
        ],
        10,
    )
    .unwrap();
    let ids = |rows: Vec<StoredTask>| rows.into_iter().map(|t| t.id).collect::<Vec<_>>();
    assert_eq!(ids(db.scan(Scan::Drafts, 10).unwrap()), ["d"]);
    assert_eq!(ids(db.scan(Scan::WithFiles, 10).unwrap()), ["f"]);
    db.put_tab("d", "comments", "[]", 11).unwrap();
    db.forget_task("d").unwrap();
    assert!(db.scan(Scan::Drafts, 10).unwrap().is_empty());
    assert!(db.get_task("d").unwrap().is_none());
    assert!(db.get_detail("d").unwrap().tabs.is_empty());
    assert!(db.find_number(1).unwrap().is_none());
    assert!(db.search("d", 10).unwrap().is_empty());
}

/// A write beside another connection's (the inbox's, a second instance's)
/// waits for it and lands: the task write takes the lock when it begins.
/// It read the stored version first in a deferred transaction, so when the
/// other writer committed after that read, SQLite refused the write at
/// once ("database is locked"): the task was never stored — a draft
/// opened once was gone at the next start.
#[test]
fn a_task_write_beside_another_writer_waits_and_lands() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite3");
    let (mut db, _) = Db::open(&path).unwrap();
    db.put_tasks(&[task("a", 1, "first", "2026-11-01T10:00:00Z", true)], 1)
        .unwrap();
    // Another connection holds the write lock for a moment, then commits.
    let mut other = rusqlite::Connection::open(&path).unwrap();
    let tx = other
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .unwrap();
    tx.execute(
        "INSERT INTO meta(key, value) VALUES('x', 'y') ON CONFLICT(key) DO UPDATE SET value='y'",
        [],
    )
    .unwrap();
    let writer = std::thread::spawn(move || {
        db.put_tasks(&[task("a", 1, "second", "2026-11-02T10:00:00Z", true)], 2)
            .map(|_| db)
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    tx.commit().unwrap();
    let db = writer.join().unwrap().expect("the write waited and landed");
    assert_eq!(db.get_task("a").unwrap().unwrap().0.title, "second");
}

/// Issue 46 §3: a store of schema version 5 (before the archived tasks the
/// inbox reads) opens in place: its inbox kept, `inbox_archived` made.
#[test]
fn a_version_5_store_opens_with_the_inbox_archived_table_made() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    drop(Db::open(&path).unwrap());
    {
        let c = Connection::open(&path).unwrap();
        c.execute_batch(
            "DROP TABLE inbox_archived;
             INSERT INTO inbox_base(task_id,snap,version,comment_ids,since) VALUES('t','{}',1,NULL,0);
             PRAGMA user_version = 5;",
        )
        .unwrap();
    }
    let db = opens_in_place(&path);
    assert!(db.inbox_base("t").unwrap().is_some(), "the inbox is kept");
    let archived = InboxBase {
        task_id: "a".into(),
        snap: "{}".into(),
        version: 0,
        comment_ids: Some(vec!["c1".into()]),
        since: 3,
        reminds: false,
    };
    db.inbox_archived_keep(&[archived], 9).unwrap();
    assert_eq!(db.inbox_archived_ids().unwrap(), ["a"]);
    let back = db.inbox_archived("a").unwrap().unwrap();
    assert_eq!((back.comment_ids, back.since), (Some(vec!["c1".into()]), 3));
}
