//! A queued edit cancelled in `:outbox` after the store failed (the disk
//! full: `SQLITE_FULL`; the store held by another program: `SQLITE_BUSY`).
//! The bug: the cancel's removal went the way of every write after the
//! failure (dropped, the store being off for the session), while the
//! screen said "cancelled (not sent)"; the edit came back at the next
//! start and was sent. Now the cancel always reaches the store's thread,
//! which removes the row, or marks the cancel beside the store (the next
//! open removes it), or says `cancel NOT KEPT` and tries again; quitting
//! names a cancel still not kept (exit 1).
//!
//! These run the product's own store (`Db`, served by the store thread's
//! `Server`) on a file, under SQLite's own failures (`Db::sim_disk`, the
//! model disk's switch), and open it again as the next start does.

use super::*;
use crate::app::local::outbox::Kept;
use crate::app::tests::local::store::{go_offline, unreachable, with_store};
use crate::store::worker::{Server, StoreCmd};
use crate::store::{Db, StoredTask};
use std::path::Path;

/// A store on disk, its thread's server, and the state using it.
struct Scene {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
    db: Db,
    server: Server,
    s: State,
}

impl Scene {
    /// `#1 priority → low` queued offline and kept by the store.
    fn queued() -> Scene {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("u-me.sqlite3");
        let (db, _, _) = Db::open_for(&path, "u-me").unwrap();
        let mut sc = Scene {
            _dir: dir,
            path,
            db,
            server: Server::new(crate::store::DEFAULT_MAX_TASKS, None),
            s: with_store(loaded(2)),
        };
        go_offline(&mut sc.s);
        let fx = palette(&mut sc.s, "priority low");
        answer(&mut sc.s, &fx, Err(unreachable()));
        sc.serve();
        assert_eq!(sc.s.outbox.len(), 1);
        assert_eq!(sc.s.outbox[0].kept, Kept::Kept);
        sc
    }

    /// The store's thread: what the state queued is served, the answers
    /// given back, until nothing is left.
    fn serve(&mut self) {
        loop {
            let cmds = std::mem::take(&mut self.s.local.out);
            if cmds.is_empty() {
                return;
            }
            let answers = std::cell::RefCell::new(Vec::new());
            for c in cmds {
                self.server
                    .serve(&mut self.db, c, &|a| answers.borrow_mut().push(a));
            }
            for a in answers.into_inner() {
                self.s.on_store(a);
            }
        }
    }

    /// The store's idle tick (a minute in the thread): cancels not kept
    /// are tried again.
    fn tick(&mut self) {
        let answers = std::cell::RefCell::new(Vec::new());
        self.server
            .retry_cancels(&self.db, &|a| answers.borrow_mut().push(a));
        for a in answers.into_inner() {
            self.s.on_store(a);
        }
    }

    /// A write the disk now refuses: a task that must grow the file.
    fn write_fails(&mut self) {
        self.s.local.store(StoreCmd::PutTasks(vec![StoredTask {
            id: "t-big".into(),
            number: Some(99),
            title: "big".into(),
            updated_at: None,
            json: json!({"id": "t-big", "description": "x".repeat(200_000)}).to_string(),
            full: true,
        }]));
        self.serve();
        assert!(!self.s.local.on, "the store failed: {:?}", self.s.status);
    }

    /// The user cancels the queued edit in `:outbox`.
    fn cancel(&mut self) {
        let seq = self.s.outbox[0].seq;
        self.s.outbox_cancel(seq);
        assert!(self.s.outbox.is_empty());
        self.serve();
    }
}

/// The next start: what the store's outbox holds, whoever holds it.
fn stored_at_next_start(path: &Path) -> Vec<crate::store::OutboxRow> {
    let (db, _, _) = Db::open_for(path, "u-me").unwrap();
    db.outbox().unwrap()
}

fn status(s: &State) -> String {
    s.status.clone().map(|x| x.1).unwrap_or_default()
}

#[test]
fn a_cancel_after_the_disk_filled_is_kept_and_the_edit_does_not_come_back() {
    let mut sc = Scene::queued();
    sc.db.sim_disk(true, false).unwrap();
    sc.write_fails();
    sc.cancel();
    assert!(sc.s.cancels_not_kept().is_empty(), "{:?}", sc.s.cancels);
    assert!(!status(&sc.s).contains("NOT KEPT"), "{}", status(&sc.s));
    let lines = crate::app::quit_lines(&sc.s, &Default::default(), None);
    assert!(!lines.iter().any(|l| l.contains("NOT KEPT")), "{lines:?}");
    drop(sc.db);
    let rows = stored_at_next_start(&sc.path);
    assert!(rows.is_empty(), "the cancelled edit comes back: {rows:?}");
}

#[test]
fn a_cancel_while_another_program_holds_the_store_is_marked_beside_it_and_kept() {
    let mut sc = Scene::queued();
    let other = rusqlite::Connection::open(&sc.path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    sc.db.sim_disk(false, true).unwrap();
    sc.write_fails();
    sc.cancel();
    assert!(sc.s.cancels_not_kept().is_empty(), "{:?}", sc.s.cancels);
    assert!(
        crate::store::outbox::read_cancel_marks(&sc.path).len() == 1,
        "marked beside the store"
    );
    // The other program lets go; the next start removes the row.
    other.execute_batch("ROLLBACK").unwrap();
    drop(other);
    drop(sc.db);
    let rows = stored_at_next_start(&sc.path);
    assert!(rows.is_empty(), "the cancelled edit comes back: {rows:?}");
    assert!(crate::store::outbox::read_cancel_marks(&sc.path).is_empty());
}

#[test]
fn a_cancel_the_store_cannot_keep_says_so_is_tried_again_and_named_at_quit() {
    let mut sc = Scene::queued();
    // Nothing can be marked beside the store either.
    std::fs::create_dir(crate::store::outbox::cancel_marks_path(&sc.path).unwrap()).unwrap();
    let other = rusqlite::Connection::open(&sc.path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    sc.db.sim_disk(false, true).unwrap();
    sc.write_fails();
    sc.cancel();
    let text = status(&sc.s);
    assert!(
        text.contains("#1: priority → low — cancel NOT KEPT (")
            && text.contains("comes back at the next start"),
        "{text}"
    );
    assert_eq!(sc.s.cancels_not_kept().len(), 1);
    let lines = crate::app::quit_lines(&sc.s, &Default::default(), None);
    assert!(
        lines.iter().any(|l| l.contains("1 cancel was NOT KEPT")
            && l.contains("#1 priority → low")
            && l.contains("sent at the next start")),
        "{lines:?}"
    );
    // Still held: the idle tick changes nothing.
    sc.tick();
    assert_eq!(sc.s.cancels_not_kept().len(), 1);

    // The other program lets go: the store's next try keeps the cancel.
    other.execute_batch("ROLLBACK").unwrap();
    sc.tick();
    assert!(sc.s.cancels_not_kept().is_empty());
    assert!(
        status(&sc.s).contains("the cancel is kept now"),
        "{}",
        status(&sc.s)
    );
    let lines = crate::app::quit_lines(&sc.s, &Default::default(), None);
    assert!(!lines.iter().any(|l| l.contains("NOT KEPT")), "{lines:?}");
    drop(other);
    drop(sc.db);
    assert!(stored_at_next_start(&sc.path).is_empty());
}
