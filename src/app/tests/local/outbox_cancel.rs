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
use crate::app::tests::local::store::{
    back_online, go_offline, is_get, unreachable, with_store, OnDisk,
};
use crate::store::worker::StoreCmd;
use crate::store::StoredTask;

/// A store on disk and the state using it.
struct Scene {
    disk: OnDisk,
    s: State,
}

impl Scene {
    /// `#1 priority → low` queued offline and kept by the store.
    fn queued() -> Scene {
        let mut sc = Scene {
            disk: OnDisk::open(),
            s: with_store(loaded(2)),
        };
        go_offline(&mut sc.s);
        let fx = palette(&mut sc.s, "priority low");
        answer(&mut sc.s, &fx, Err(unreachable()));
        sc.disk.serve(&mut sc.s);
        assert_eq!(sc.s.outbox.len(), 1);
        assert_eq!(sc.s.outbox[0].kept, Kept::Kept);
        sc
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
        self.disk.serve(&mut self.s);
        assert!(!self.s.local.on, "the store failed: {:?}", self.s.status);
    }

    /// The user cancels the queued edit in `:outbox`.
    fn cancel(&mut self) {
        let seq = self.s.outbox[0].seq;
        self.s.outbox_cancel(seq);
        assert!(self.s.outbox.is_empty());
        self.disk.serve(&mut self.s);
    }
}

fn status(s: &State) -> String {
    s.status.clone().map(|x| x.1).unwrap_or_default()
}

#[test]
fn a_cancel_after_the_disk_filled_is_kept_and_the_edit_does_not_come_back() {
    let mut sc = Scene::queued();
    sc.disk.db.sim_disk(true, false).unwrap();
    sc.write_fails();
    sc.cancel();
    assert!(sc.s.cancels_not_kept().is_empty(), "{:?}", sc.s.cancels);
    assert!(!status(&sc.s).contains("NOT KEPT"), "{}", status(&sc.s));
    let lines = crate::app::quit_lines(&sc.s, &Default::default(), None);
    assert!(!lines.iter().any(|l| l.contains("NOT KEPT")), "{lines:?}");
    let rows = sc.disk.reopen();
    assert!(rows.is_empty(), "the cancelled edit comes back: {rows:?}");
}

#[test]
fn a_cancel_while_another_program_holds_the_store_is_marked_beside_it_and_kept() {
    let mut sc = Scene::queued();
    let other = rusqlite::Connection::open(&sc.disk.path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    sc.disk.db.sim_disk(false, true).unwrap();
    sc.write_fails();
    sc.cancel();
    assert!(sc.s.cancels_not_kept().is_empty(), "{:?}", sc.s.cancels);
    assert!(
        crate::store::outbox::read_cancel_marks(&sc.disk.path).len() == 1,
        "marked beside the store"
    );
    // The other program lets go; the next start removes the row.
    other.execute_batch("ROLLBACK").unwrap();
    drop(other);
    let marks = crate::store::outbox::cancel_marks_path(&sc.disk.path).unwrap();
    let rows = sc.disk.reopen();
    assert!(rows.is_empty(), "the cancelled edit comes back: {rows:?}");
    assert!(!marks.exists(), "the mark goes once carried out");
}

#[test]
fn a_cancel_the_store_cannot_keep_says_so_is_tried_again_and_named_at_quit() {
    let mut sc = Scene::queued();
    // Nothing can be marked beside the store either.
    std::fs::create_dir(crate::store::outbox::cancel_marks_path(&sc.disk.path).unwrap()).unwrap();
    let other = rusqlite::Connection::open(&sc.disk.path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    sc.disk.db.sim_disk(false, true).unwrap();
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
            && l.contains("sent at the next start")
            && l.contains("cannot tell it was cancelled")),
        "{lines:?}"
    );
    // Still held: the idle tick changes nothing.
    sc.disk.tick(&mut sc.s);
    assert_eq!(sc.s.cancels_not_kept().len(), 1);

    // The other program lets go: the store's next try keeps the cancel.
    other.execute_batch("ROLLBACK").unwrap();
    sc.disk.tick(&mut sc.s);
    assert!(sc.s.cancels_not_kept().is_empty());
    assert!(
        status(&sc.s).contains("the cancel is kept now"),
        "{}",
        status(&sc.s)
    );
    let lines = crate::app::quit_lines(&sc.s, &Default::default(), None);
    assert!(!lines.iter().any(|l| l.contains("NOT KEPT")), "{lines:?}");
    drop(other);
    assert!(sc.disk.reopen().is_empty());
}

/// A place in the queue (`seq`) was the time in seconds, or one after
/// the highest edit in the outbox: an edit queued in the same second as
/// one cancelled took the cancelled one's place — which its cancel (a
/// mark beside the store, a try again of the store's thread) names, so
/// the new edit could go with it. Now a place given in a run is never
/// given again in it.
#[test]
fn an_edit_queued_after_a_cancel_never_takes_the_cancelled_edits_place() {
    let mut sc = Scene::queued();
    let first = sc.s.outbox[0].seq;
    sc.cancel();
    let fx = palette(&mut sc.s, "priority high");
    answer(&mut sc.s, &fx, Err(unreachable()));
    sc.disk.serve(&mut sc.s);
    assert_eq!(sc.s.outbox.len(), 1);
    assert!(
        sc.s.outbox[0].seq > first,
        "{} after {first}",
        sc.s.outbox[0].seq
    );
    // The rule, within one second: after every place given.
    use crate::app::local::outbox::next_seq;
    let given = next_seq(0, 0, 1_000);
    assert_eq!(next_seq(0, given, 1_000), given + 1);
    assert_eq!(next_seq(given + 5, given, 1_000), given + 6);
    assert_eq!(next_seq(0, given, 2_000), 2_000_001);
}

impl Scene {
    /// The service is back: the queued edit is checked, sent and
    /// answered (it landed); the store's thread serves what follows.
    fn sent_and_answered(&mut self) {
        let fx = back_online(&mut self.s);
        let fx = answer_where(
            &mut self.s,
            &fx,
            |r| is_get(r, 1),
            Ok(Reply::Task(Box::new(task(1)))),
        );
        let mut low = task(1);
        low.priority = Priority::Low;
        low.updated_at = Some("2026-11-02T10:00:01Z".into());
        answer_where(
            &mut self.s,
            &fx,
            |r| matches!(r, ApiRequest::Patch { .. }),
            Ok(Reply::Task(Box::new(low))),
        );
        assert!(self.s.outbox.is_empty(), "sent from the outbox");
        self.disk.serve(&mut self.s);
    }
}

/// A queued edit sent and answered after the store failed this session
/// leaves the store too (removed, or marked beside it as a cancel is):
/// its removal went the way of every write after the failure (dropped),
/// and the edit came back at the next start as if never sent — read back
/// and, the task looking as when it was made (a service whose clock went
/// back), sent again (simulator seed 13400517069403342923).
#[test]
fn an_edit_sent_after_the_store_failed_does_not_come_back_at_the_next_start() {
    // The disk full.
    let mut sc = Scene::queued();
    sc.disk.db.sim_disk(true, false).unwrap();
    sc.write_fails();
    sc.sent_and_answered();
    let rows = sc.disk.reopen();
    assert!(rows.is_empty(), "the sent edit comes back: {rows:?}");
    // The store held by another program: marked beside it, carried out
    // at the next start.
    let mut sc = Scene::queued();
    let other = rusqlite::Connection::open(&sc.disk.path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    sc.disk.db.sim_disk(false, true).unwrap();
    sc.write_fails();
    sc.sent_and_answered();
    assert_eq!(
        crate::store::outbox::read_cancel_marks(&sc.disk.path).len(),
        1,
        "marked beside the store"
    );
    other.execute_batch("ROLLBACK").unwrap();
    drop(other);
    let rows = sc.disk.reopen();
    assert!(rows.is_empty(), "the sent edit comes back: {rows:?}");
}
