//! The outbox in the store (issue 22, points 5–7): a busy store is
//! waited for and never moved aside, a damaged one hands its queued edits
//! to the new one, a queued edit is taken by one process only and only
//! for its user, and a write the disk refuses is said.

use super::*;
use rusqlite::Connection;

fn task(id: &str, n: i64, title: &str) -> StoredTask {
    StoredTask {
        id: id.into(),
        number: Some(n),
        title: title.into(),
        updated_at: Some("2026-01-01T00:00:00Z".into()),
        json: serde_json::json!({"id": id, "task_number": n, "title": title}).to_string(),
        full: true,
    }
}

/// Files next to the store named `….corrupt-<time>` (set aside).
fn set_aside_files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("corrupt"))
        .count()
}

// Replaces `a_locked_database_is_moved_aside`, which asserted what issue
// 22 (point 6) names as the bug: a busy store is never moved aside.
#[test]
fn a_locked_database_is_waited_for_and_never_moved_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        let (db, _) = Db::open(&path).unwrap();
        db.outbox_add(1, "t", "#1", "priority → low", "{}", None, None, 5)
            .unwrap();
        db.outbox_release().unwrap();
    }
    // Another process holds the whole file (no reader gets in).
    let locker = Connection::open(&path).unwrap();
    locker
        .execute_batch("PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    let e = Db::open_waiting(&path, std::time::Duration::from_millis(300))
        .err()
        .expect("not opened while held");
    assert!(e.contains("held by another"), "{e}");
    assert!(e.contains("left") || e.contains("leaves"), "{e}");
    assert!(path.exists(), "the live store stays where it is");
    assert_eq!(set_aside_files(dir.path()), 0, "nothing moved aside");
    // Held for a while, then let go: the open waits and gets it.
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        locker.execute_batch("COMMIT;").unwrap();
        drop(locker);
    });
    let (db, note) = Db::open_waiting(&path, std::time::Duration::from_secs(20)).unwrap();
    release.join().unwrap();
    assert!(note.is_none(), "{note:?}");
    assert_eq!(
        db.outbox().unwrap().len(),
        1,
        "the queued edit is still there"
    );
    assert_eq!(set_aside_files(dir.path()), 0);
}

#[test]
fn a_store_another_process_is_writing_to_opens_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    drop(Db::open(&path).unwrap());
    // A writer's exclusive transaction (WAL: readers go on).
    let writer = Connection::open(&path).unwrap();
    writer.execute_batch("BEGIN EXCLUSIVE;").unwrap();
    let (db, note) = Db::open_waiting(&path, std::time::Duration::from_millis(300)).unwrap();
    assert!(note.is_none(), "{note:?}");
    assert_eq!(db.task_count().unwrap(), 0);
    assert_eq!(set_aside_files(dir.path()), 0);
    writer.execute_batch("COMMIT;").unwrap();
}

#[test]
fn a_damaged_store_hands_its_queued_edits_to_the_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        let (db, _) = Db::open(&path).unwrap();
        db.outbox_add(
            7,
            "t",
            "#1",
            "priority → low",
            "{\"kind\":1}",
            Some("v1"),
            None,
            5,
        )
        .unwrap();
        // Made by a taskdeck newer than this one: not read as this schema.
        db.conn.pragma_update(None, "user_version", 99).unwrap();
    }
    let (db, note) = Db::open(&path).unwrap();
    let note = note.unwrap();
    assert!(note.contains("moved aside"), "{note}");
    assert!(note.contains("1 queued edit carried over"), "{note}");
    assert_eq!(set_aside_files(dir.path()), 1);
    let rows = db.outbox().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (
            rows[0].seq,
            rows[0].what.as_str(),
            rows[0].base_updated_at.as_deref()
        ),
        (7, "priority → low", Some("v1"))
    );
}

fn file_db(path: &std::path::Path, owner: &str) -> Db {
    let (mut db, _) = Db::open(path).unwrap();
    db.set_owner(owner);
    db
}

/// A handle on the store at `path` holding one queued edit (place 1),
/// claimed; and when.
fn one_edit_claimed(path: &std::path::Path) -> (Db, i64) {
    let db = file_db(path, "alice");
    let now = now_secs();
    db.outbox_add(1, "t", "#1", "a", "{}", None, None, now)
        .unwrap();
    assert_eq!(db.outbox_take(now).unwrap().0.len(), 1);
    (db, now)
}

#[test]
fn two_processes_never_take_the_same_queued_edit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        // A session queued two edits and stopped (its claims given back).
        let db = file_db(&path, "alice");
        db.outbox_add(1, "t", "#1", "a", "{}", None, None, 5)
            .unwrap();
        db.outbox_add(2, "u", "#2", "b", "{}", None, None, 5)
            .unwrap();
        db.outbox_release().unwrap();
    }
    // Two starts at the same moment, on one file.
    let a = file_db(&path, "alice");
    let b = file_db(&path, "alice");
    let now = now_secs();
    let (got_a, left_a) = a.outbox_take(now).unwrap();
    let (got_b, left_b) = b.outbox_take(now).unwrap();
    assert_eq!((got_a.len(), left_a), (2, 0));
    assert_eq!((got_b.len(), left_b), (0, 2), "taken once, by one of them");
    // Still running: taking again changes nothing.
    assert!(b.outbox_take(now + 10).unwrap().0.is_empty());
    a.outbox_keep_claims(now + 200).unwrap();
    assert!(
        b.outbox_take(now + 400).unwrap().0.is_empty(),
        "kept alive: not stale"
    );
    // A stops: its rows are free for the next start.
    a.outbox_release().unwrap();
    assert_eq!(b.outbox_take(now + 400).unwrap().0.len(), 2);
}

#[test]
fn a_claim_of_a_process_gone_quiet_is_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    let (_dead, now) = one_edit_claimed(&path);
    let next = file_db(&path, "alice");
    assert!(next.outbox_take(now + 10).unwrap().0.is_empty());
    let later = now + outbox::CLAIM_STALE_SECS + 1;
    let (got, _) = next.outbox_take(later).unwrap();
    assert_eq!(got.len(), 1, "the dead process's claim is stale");
}

#[test]
fn a_queued_edit_is_taken_only_for_the_user_who_made_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        let alice = file_db(&path, "alice");
        alice
            .outbox_add(1, "t", "#1", "a", "{}", None, None, 5)
            .unwrap();
        alice.outbox_release().unwrap();
        let rows = alice.outbox().unwrap();
        assert_eq!(rows[0].user_id.as_deref(), Some("alice"), "who made it");
    }
    let bob = file_db(&path, "bob");
    let (got, left) = bob.outbox_take(now_secs()).unwrap();
    assert!(got.is_empty(), "never Bob's to send");
    assert_eq!(left, 1);
    let alice = file_db(&path, "alice");
    assert_eq!(alice.outbox_take(now_secs()).unwrap().0.len(), 1);
}

#[test]
fn an_outbox_write_the_disk_refuses_is_said_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    let (db, _) = Db::open(&path).unwrap();
    // The file may not grow: as a full disk (SQLITE_FULL).
    let pages: i64 = db
        .conn
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    db.conn
        .pragma_update(None, "max_page_count", pages)
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let t = worker::StoreThread::start(db, 100, move |a| {
        let _ = tx.send(a);
    });
    t.send(worker::StoreCmd::OutboxAdd {
        local: 42,
        seq: 42,
        task_id: "t".into(),
        label: "#1".into(),
        what: "priority → low".into(),
        request: "x".repeat(200_000),
        base_updated_at: None,
        saw: None,
        created_at: 1,
    });
    match rx.recv().unwrap() {
        worker::StoreAnswer::OutboxNotKept { local: 42, why } => {
            assert!(why.contains("full"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    // A later edit hears the same (the store is off for the session).
    t.send(worker::StoreCmd::OutboxAdd {
        local: 43,
        seq: 43,
        task_id: "t".into(),
        label: "#1".into(),
        what: "status → completed".into(),
        request: "{}".into(),
        base_updated_at: None,
        saw: None,
        created_at: 1,
    });
    let mut heard = false;
    while let Ok(a) = rx.recv_timeout(std::time::Duration::from_secs(10)) {
        if let worker::StoreAnswer::OutboxNotKept { local: 43, .. } = a {
            heard = true;
            break;
        }
    }
    assert!(heard);
    t.finish();
}

#[test]
fn a_store_that_cannot_be_written_opens_read_only_and_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    {
        let (mut db, _) = Db::open(&path).unwrap();
        db.put_tasks(&[task("a", 1, "Alpha")], 1).unwrap();
        db.outbox_add(1, "a", "#1", "priority → low", "{}", None, None, 5)
            .unwrap();
        db.outbox_release().unwrap();
    }
    // SQLite cannot make its shared-memory file next to it (as on a full
    // disk, whoever runs the test).
    std::fs::create_dir(path.with_extension("sqlite3-shm")).unwrap();
    let (db, note, boot) = Db::open_for(&path, "alice").unwrap();
    let note = note.unwrap();
    assert!(note.contains("opened read-only"), "{note}");
    assert!(note.contains("NOT KEPT"), "{note}");
    assert!(db.read_only().is_some());
    assert_eq!(set_aside_files(dir.path()), 0, "nothing moved aside");
    let boot = boot.unwrap();
    assert_eq!(boot.rows.len() + boot.directory.len(), 0);
    assert!(
        boot.outbox.is_empty(),
        "nothing taken: it cannot be claimed"
    );
    assert_eq!(boot.outbox_elsewhere, 1);
    let (tx, rx) = std::sync::mpsc::channel();
    let t = worker::StoreThread::start(db, 100, move |a| {
        let _ = tx.send(a);
    });
    t.send(worker::StoreCmd::PutTasks(vec![task("b", 2, "Beta")]));
    t.send(worker::StoreCmd::OutboxAdd {
        local: 9,
        seq: 9,
        task_id: "a".into(),
        label: "#1".into(),
        what: "status → completed".into(),
        request: "{}".into(),
        base_updated_at: None,
        saw: None,
        created_at: 1,
    });
    match rx.recv().unwrap() {
        worker::StoreAnswer::OutboxNotKept { local: 9, why } => {
            assert!(why.contains("read-only"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    // Reads are still answered.
    t.send(worker::StoreCmd::LoadTask("a".into()));
    match rx.recv().unwrap() {
        worker::StoreAnswer::Task(id, d) => {
            assert_eq!(id, "a");
            assert_eq!(d.task.unwrap().title, "Alpha");
        }
        other => panic!("{other:?}"),
    }
    t.finish();
    std::fs::remove_dir(path.with_extension("sqlite3-shm")).unwrap();
    let (db, _) = Db::open(&path).unwrap();
    assert_eq!(db.outbox().unwrap().len(), 1, "left as it was");
    assert!(db.get_task("b").unwrap().is_none(), "nothing written");
}

#[test]
fn the_claim_of_a_process_that_died_is_let_go_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    let db = file_db(&path, "alice");
    let now = now_secs();
    db.outbox_add(1, "t", "#1", "a", "{}", None, None, now)
        .unwrap();
    // Held, a moment ago, by a process of this host that is gone now.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let claim = db.instance.rsplitn(3, ':').nth(2).unwrap().to_string();
    db.conn
        .execute(
            "UPDATE outbox SET claimed_by=?1, claimed_at=?2",
            rusqlite::params![format!("{claim}:{dead}:1"), now],
        )
        .unwrap();
    let next = file_db(&path, "alice");
    let (got, left) = next.outbox_take(now).unwrap();
    assert_eq!((got.len(), left), (1, 0), "taken without waiting");
    // A live one's (this process, another store handle) is not.
    let other = file_db(&path, "alice");
    assert!(other.outbox_take(now).unwrap().0.is_empty());
}

/// A store this process switched away from (`:profile`) while another
/// program held it: its claims could not be given back (the store's
/// thread does not even try once a write failed), and the `Db` is closed.
/// Switching back to it in the same run took its queued edits only once
/// the claims were stale (300 s, looked at every 60 s): minutes without a
/// word. Now an instance of this process that is closed counts as gone,
/// as a dead process does; one still open (another handle, as a second
/// taskdeck) never loses its rows.
#[test]
fn a_store_switched_back_to_takes_at_once_the_edits_this_process_could_not_give_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    let (away, now) = one_edit_claimed(&path);
    // A second live handle on the store (as a second taskdeck): nothing.
    let second = file_db(&path, "alice");
    assert!(second.outbox_take(now).unwrap().0.is_empty());
    // The switch away: closed without giving its claims back.
    drop(away);
    drop(second);
    // The switch back, seconds later: taken at once.
    let back = file_db(&path, "alice");
    let (got, left) = back.outbox_take(now + 10).unwrap();
    assert_eq!(
        (got.iter().map(|r| r.seq).collect::<Vec<_>>(), left),
        (vec![1], 0),
        "the queued edit waits for its claim to go stale"
    );
    // Once taken by the open one, another open handle still gets nothing.
    let other = file_db(&path, "alice");
    assert!(other.outbox_take(now + 10).unwrap().0.is_empty());
    assert!(other.outbox_take_new(now + 10).unwrap().is_empty());
}

/// A cancel marked beside the store (`<store>.cancelled`) named the
/// edit by its place alone (`seq`). The place is chosen by the client,
/// not by SQLite (`AUTOINCREMENT` never applies: every insert gives it),
/// so it can name another edit later: a mark whose file could not be
/// removed once carried out, a store copied back, a clock set back. Such
/// a mark took the other edit with it, without a word. Now a mark names
/// the edit (its task, when it was made, its request): another edit in
/// the same place stays, and the edit it was written for still goes.
#[test]
fn a_cancel_mark_takes_only_the_edit_it_was_written_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    let mut db = file_db(&path, "alice");
    db.outbox_add(
        5,
        "t",
        "#1",
        "priority → low",
        r#"{"p":"low"}"#,
        None,
        None,
        100,
    )
    .unwrap();
    db.outbox_add(6, "t", "#1", "status → completed", "{}", None, None, 100)
        .unwrap();
    // The store cannot write: both cancels are marked beside it.
    db.read_only = Some("read-only".into());
    db.outbox_cancel(5).unwrap();
    db.outbox_cancel(6).unwrap();
    db.read_only = None;
    assert_eq!(outbox::read_cancel_marks(&path).len(), 2);
    // Place 5 now holds another edit (the first gone meanwhile).
    db.outbox_remove(5).unwrap();
    db.outbox_add(
        5,
        "t",
        "#1",
        "priority → high",
        r#"{"p":"high"}"#,
        None,
        None,
        100,
    )
    .unwrap();
    db.outbox_release().unwrap();
    drop(db);
    let next = file_db(&path, "alice");
    let (got, _) = next.outbox_take(now_secs()).unwrap();
    assert_eq!(
        got.iter()
            .map(|r| (r.seq, r.what.as_str()))
            .collect::<Vec<_>>(),
        vec![(5, "priority → high")],
        "the mark of the cancelled edit took another one in its place"
    );
    assert!(outbox::read_cancel_marks(&path).is_empty());
    // A mark written by an older taskdeck (the place alone) is carried
    // out as it was written to be.
    std::fs::write(outbox::cancel_marks_path(&path).unwrap(), "5\n").unwrap();
    assert!(file_db(&path, "alice")
        .outbox_take(now_secs())
        .unwrap()
        .0
        .is_empty());
}

/// A cancel marked while the store cannot even be read (damaged, held
/// whole by another program): the mark names the edit as this handle
/// wrote it.
#[test]
fn a_cancel_marked_while_the_store_cannot_be_read_names_the_edit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    let mut db = file_db(&path, "alice");
    db.outbox_add(5, "t", "#1", "priority → low", "{}", None, None, 100)
        .unwrap();
    db.read_only = Some("read-only".into());
    // Its outbox cannot be read any more.
    Connection::open(&path)
        .unwrap()
        .execute_batch("ALTER TABLE outbox RENAME TO elsewhere")
        .unwrap();
    assert!(db.outbox().is_err());
    db.outbox_cancel(5).unwrap();
    let marks = outbox::read_cancel_marks(&path);
    assert_eq!(marks.len(), 1);
    assert_eq!(
        (marks[0].seq, marks[0].task.as_deref(), marks[0].created),
        (5, Some("t"), Some(100))
    );
}

#[test]
fn a_running_taskdeck_takes_only_the_edits_it_did_not_hold() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    let a = file_db(&path, "alice");
    let b = file_db(&path, "alice");
    let now = now_secs();
    a.outbox_add(1, "t", "#1", "a", "{}", None, None, now)
        .unwrap();
    b.outbox_add(2, "t", "#1", "b", "{}", None, None, now)
        .unwrap();
    assert!(
        b.outbox_take_new(now_secs()).unwrap().is_empty(),
        "its own are not new"
    );
    // A stops with its edit unsent: B picks it up while running.
    a.outbox_release().unwrap();
    let got = b.outbox_take_new(now_secs()).unwrap();
    assert_eq!(got.iter().map(|r| r.seq).collect::<Vec<_>>(), vec![1]);
    assert!(b.outbox_take_new(now_secs()).unwrap().is_empty());
}

/// Schema 7 keeps, with each queued edit, the task as the user saw it
/// when making it (`outbox.saw`). A store of schema 6 opens in place: its
/// queued edits kept and read (none seen: `None`), new ones keep theirs.
#[test]
fn a_version_6_store_keeps_its_queued_edits_and_new_ones_keep_what_the_user_saw() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u.sqlite3");
    drop(Db::open(&path).unwrap());
    {
        let c = Connection::open(&path).unwrap();
        c.execute_batch(
            "ALTER TABLE outbox DROP COLUMN saw;
             INSERT INTO outbox(seq,task_id,label,what,request,base_updated_at,created_at,user_id)
                 VALUES(1,'t','#1','priority → low','{}','v1',5,'u');
             PRAGMA user_version = 6;",
        )
        .unwrap();
    }
    let db = super::tests::opens_in_place(&path);
    let rows = db.outbox().unwrap();
    assert_eq!(rows.len(), 1, "the old queued edit is kept");
    assert_eq!(
        (rows[0].base_updated_at.as_deref(), rows[0].saw.as_deref()),
        (Some("v1"), None)
    );
    db.outbox_add(
        2,
        "t",
        "#1",
        "status → completed",
        "{}",
        Some("v1"),
        Some(r#"{"id":"t"}"#),
        6,
    )
    .unwrap();
    let rows = db.outbox().unwrap();
    assert_eq!(rows[1].saw.as_deref(), Some(r#"{"id":"t"}"#));
    drop(db);
    // Carried over as it is when the store is set aside.
    let rescued = super::outbox::rescue_outbox(&path);
    assert_eq!(rescued.len(), 2);
    assert_eq!(rescued[1].saw.as_deref(), Some(r#"{"id":"t"}"#));
}
