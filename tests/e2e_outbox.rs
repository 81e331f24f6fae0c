//! The outbox with the real binary (issue 22): a store another program
//! holds is waited for and never moved aside, its queued edit intact; two
//! taskdecks started together send a leftover queued edit once. No
//! assertion depends on how fast anything is.

mod support;

use support::*;

/// The store files in `home` (the database and its WAL).
fn store_files(home: &Home) -> Vec<std::path::PathBuf> {
    home.files()
        .into_iter()
        .filter(|p| p.starts_with(home.cache()) && p.to_string_lossy().contains(".sqlite3"))
        .collect()
}

fn the_db(home: &Home) -> std::path::PathBuf {
    store_files(home)
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "sqlite3"))
        .expect("the store")
}

fn quit(tui: &mut Tui) {
    tui.send("q");
    let st = tui.wait_exit(WAIT);
    // What taskdeck said last (its stderr after the screen was given
    // back: why it exited 1, if it did).
    let raw = tui.raw();
    let tail =
        String::from_utf8_lossy(&raw[raw.len().saturating_sub(1500)..]).replace('\u{1b}', "␛");
    assert_eq!(
        st.exit_code(),
        0,
        "q exits with 0; the last output:\n{tail}"
    );
}

/// A first session queues `:status completed` of the current task while
/// the service is down, and quits (the edit kept in the store). Returns
/// the task's display id.
fn leave_a_queued_edit(svc: &Service, home: &Home) -> String {
    let mut tui = launch_ready(svc, home);
    let screen = tui.screen();
    let current = current_row(&screen);
    svc.set_faults("down=1");
    tui.send(":status completed\r");
    tui.wait_for("outbox 1", WAIT);
    quit(&mut tui);
    let raw = String::from_utf8_lossy(&tui.raw()).to_string();
    assert!(raw.contains("kept in the local store"), "{raw}");
    svc.set_faults("");
    current
}

fn outbox_rows(db: &std::path::Path) -> i64 {
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row("SELECT count(*) FROM outbox", [], |r| r.get(0))
        .unwrap()
}

fn set_aside(home: &Home) -> usize {
    home.files()
        .iter()
        .filter(|p| p.to_string_lossy().contains("corrupt"))
        .count()
}

// Issue 22, point 6: a store held busy for more than ~1.5 s was treated as
// damaged: moved aside, its WAL deleted, the queued edit lost.
#[test]
fn a_store_another_program_holds_is_waited_for_and_never_moved_aside() {
    let svc = Service::small();
    let home = Home::new();
    leave_a_queued_edit(&svc, &home);
    let db = the_db(&home);
    assert_eq!(outbox_rows(&db), 1);
    let locker = rusqlite::Connection::open(&db).unwrap();
    locker
        .execute_batch("PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 160, 40);
    tui.wait_for(
        "held by another program",
        std::time::Duration::from_secs(30),
    );
    // The session goes on with the service.
    tui.wait_for("(more below)", WAIT);
    quit(&mut tui);
    assert_eq!(set_aside(&home), 0, "nothing moved aside");
    locker.execute_batch("COMMIT;").unwrap();
    drop(locker);
    assert_eq!(outbox_rows(&db), 1, "the queued edit is still there");
}

// Issue 22, point 7: two instances started together sent a leftover
// queued edit twice. Each takes the edits it sends in one transaction.
#[test]
fn two_taskdecks_started_together_send_a_leftover_queued_edit_once() {
    let svc = Service::small();
    let home = Home::new();
    let current = leave_a_queued_edit(&svc, &home);
    let id = svc.task_id(&current);
    svc.sb.clear_requests();
    let mut a = Tui::spawn(&home, &[], &svc.env(), 160, 40);
    let mut b = Tui::spawn(&home, &[], &svc.env(), 160, 40);
    for t in [&a, &b] {
        t.wait_for("(more below)", WAIT);
    }
    // One of them sends it.
    a.wait_until("the PATCH", std::time::Duration::from_secs(30), |_| {
        !svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"))
            .is_empty()
    });
    for t in [&a, &b] {
        t.wait_until("the outbox settled", WAIT, |s| !s.contains("outbox 1"));
    }
    quit(&mut a);
    quit(&mut b);
    let patches = svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"));
    assert_eq!(patches.len(), 1, "{patches:?}");
    assert_eq!(outbox_rows(&the_db(&home)), 0);
}

// Issue 22, point 5, as the acceptance run does it: the store's disk
// refuses every write (here SQLite cannot make its shared-memory file,
// which it meets as on a full disk, whoever runs the test) and the
// service is away. What is stored is still read; the edit says NOT KEPT;
// quitting names it and exits non-zero.
#[test]
fn offline_on_a_store_that_cannot_be_written_an_edit_is_not_kept_and_quitting_exits_1() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch_ready(&svc, &home);
    quit(&mut tui);
    let db = the_db(&home);
    for f in store_files(&home).iter().filter(|f| **f != db) {
        std::fs::remove_file(f).unwrap();
    }
    std::fs::create_dir(db.with_extension("sqlite3-shm")).unwrap();
    svc.set_faults("down=1");
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 160, 40);
    tui.wait_for("OFFLINE", WAIT);
    tui.wait_for("cached ", WAIT);
    tui.send(":status completed\r");
    tui.wait_for("1 NOT KEPT", WAIT);
    tui.send("q");
    let st = tui.wait_exit(WAIT);
    let out = String::from_utf8_lossy(&tui.raw()).to_string();
    assert_eq!(st.exit_code(), 1, "never a silent exit 0: {out}");
    assert!(out.contains("NOT sent and NOT kept"), "{out}");
    assert!(out.contains("status → completed"), "named: {out}");
    assert_eq!(set_aside(&home), 0, "nothing moved aside");
}

// Issue 32, point 14: another program holds the store's write lock as
// taskdeck starts (longer than the start waits). The run said it went on
// without the store, and the edit queued in it waited for the next start.
// Now it is tried again in the background, with a word in the header,
// opened once free, and what it holds is sent.
#[test]
fn a_store_busy_at_start_is_opened_once_free_and_its_queued_edit_sent() {
    let svc = Service::small();
    let home = Home::new();
    let current = leave_a_queued_edit(&svc, &home);
    let id = svc.task_id(&current);
    let patches = || svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"));
    let db = the_db(&home);
    // Another program's write transaction: readers go on, writers wait.
    let locker = rusqlite::Connection::open(&db).unwrap();
    locker.execute_batch("BEGIN IMMEDIATE;").unwrap();
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 160, 40);
    tui.wait_for("store busy — retrying", std::time::Duration::from_secs(30));
    tui.wait_for("(more below)", WAIT);
    assert!(patches().is_empty(), "nothing taken while it is held");
    locker.execute_batch("COMMIT;").unwrap();
    drop(locker);
    tui.wait_until("the PATCH", std::time::Duration::from_secs(30), |_| {
        patches().len() == 1
    });
    tui.wait_until("the store in use", WAIT, |s| {
        !s.contains("store busy") && !s.contains("outbox 1")
    });
    quit(&mut tui);
    assert_eq!(patches().len(), 1, "sent once");
    assert_eq!(outbox_rows(&db), 0, "and gone from the store");
    assert_eq!(set_aside(&home), 0, "nothing moved aside");
}

/// #32 §12: an edit held in the outbox whose task was archived on the
/// service meanwhile: the conflict view says ARCHIVED, Enter asks before
/// writing to it, `n` sends nothing, `y` sends the edit.
#[test]
fn the_conflict_view_says_archived_and_asks_before_writing() {
    let svc = Service::small();
    let home = Home::new();
    let label = leave_a_queued_edit(&svc, &home);
    let id = svc.task_id(&label);
    // Archived on the service while taskdeck was away.
    let url = format!("{}/api/v1/tasks/{id}", svc.sb.base_url());
    let status = svc.rt.block_on(async {
        reqwest::Client::new()
            .patch(url)
            .bearer_auth(KEY)
            .json(&serde_json::json!({"archived": true}))
            .send()
            .await
            .unwrap()
            .status()
    });
    assert!(status.is_success(), "{status}");
    svc.sb.clear_requests();
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 120, 40);
    tui.wait_for("waits for you", WAIT);
    tui.send(":outbox\r");
    tui.wait_for("WAITS FOR YOU", WAIT);
    tui.send("\r");
    tui.wait_for(&format!("{label} is ARCHIVED on the service"), WAIT);
    tui.send("\r");
    tui.wait_for(
        "Send the fields kept as yours to the archived task anyway?",
        WAIT,
    );
    tui.send("n");
    tui.wait_for("changed on the service since your edit", WAIT);
    assert!(svc.requests_matching("PATCH", &id).is_empty());
    tui.send("\r");
    tui.wait_for("archived task anyway?", WAIT);
    tui.send("y");
    tui.wait_until("the PATCH sent", WAIT, |_| {
        !svc.requests_matching("PATCH", &id).is_empty()
    });
    let patches = svc.requests_matching("PATCH", &id);
    assert_eq!(patches.len(), 1, "{patches:?}");
    assert_eq!(
        patches[0].body,
        Some(serde_json::json!({"status": "completed"}))
    );
    quit(&mut tui);
}

// The adversarial pass, point 1: a signal while an edit is on its way
// (the service slow to answer). Before, the edit was named on stderr
// only ("still in flight … check it"), which a hang-up over SSH never
// shows, and the next start knew nothing of it: lost silently if it had
// not arrived. Now it is kept in the outbox as one whose outcome is
// unknown: the next start reads the task back and sends it only if it
// did not arrive — once.
#[test]
fn an_edit_in_flight_when_a_signal_ends_taskdeck_is_kept_and_sent_once_at_the_next_start() {
    for sig in [libc::SIGTERM, libc::SIGHUP] {
        let OnTask {
            svc,
            home,
            mut tui,
            current,
            id,
            ..
        } = ready_on_current();
        assert_ne!(svc.sb.task_json(&current).unwrap()["status"], "completed");
        svc.set_faults("delay=3000");
        svc.sb.clear_requests();
        tui.send(":status completed\r");
        tui.wait_until("the PATCH on its way", WAIT, |_| {
            !svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"))
                .is_empty()
        });
        tui.signal(sig);
        tui.wait_exit(WAIT);
        let raw = String::from_utf8_lossy(&tui.raw()).to_string();
        if sig == libc::SIGTERM {
            assert!(
                raw.contains("outcome unknown") && raw.contains("kept in the local store"),
                "{raw}"
            );
        }
        assert_eq!(outbox_rows(&the_db(&home)), 1, "signal {sig}: kept");
        svc.set_faults("");
        svc.sb.clear_requests();
        let mut again = launch_ready(&svc, &home);
        let db = the_db(&home);
        again.wait_until("the outbox emptied", WAIT, |_| outbox_rows(&db) == 0);
        assert_eq!(
            svc.sb.task_json(&current).unwrap()["status"],
            "completed",
            "signal {sig}: the edit reached the service"
        );
        let patches = svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"));
        assert!(patches.len() <= 1, "signal {sig}: sent once: {patches:?}");
        quit(&mut again);
        assert_eq!(outbox_rows(&the_db(&home)), 0);
    }
}

// A user met it: two quick edits of one task (the second made before the
// first was answered, so chained behind it), taskdeck quit with the second
// on its way, started again: the kept second edit waited as a conflict
// with the user's OWN first edit ("#2 changed on the service since this
// edit was made: priority → low waits for you"): it was kept against the
// version before the first. Now it follows the first's answer: checked
// against it at the next start, sent, and the task ends as the user left
// it.
#[test]
fn two_quick_edits_cut_by_a_quit_go_out_at_the_next_start_without_a_conflict() {
    let OnTask {
        svc,
        home,
        mut tui,
        current,
        id,
        priority: before,
    } = ready_on_current();
    let others: Vec<&str> = ["urgent", "high", "medium", "low"]
        .into_iter()
        .filter(|p| before != *p)
        .collect();
    let (first, second) = (others[0], others[1]);
    let patches = || patches_of(&svc, &id);
    svc.set_faults("delay=1500");
    svc.sb.clear_requests();
    tui.send(&format!(":priority {first}\r"));
    tui.wait_until("the first PATCH on its way", WAIT, |_| {
        !patches().is_empty()
    });
    // Made before the first is answered: it waits for it, then goes out.
    tui.send(&format!(":priority {second}\r"));
    tui.wait_until("the second PATCH on its way", WAIT, |_| {
        patches().len() == 2
    });
    assert_eq!(svc.sb.task_json(&current).unwrap()["priority"], first);
    // Quit with the second on its way (the service drops it unanswered).
    quit(&mut tui);
    assert_eq!(outbox_rows(&the_db(&home)), 1, "the second edit is kept");

    svc.set_faults("");
    let mut again = launch_ready(&svc, &home);
    let db = the_db(&home);
    again.wait_until("the outbox emptied", WAIT, |s| {
        assert!(
            !s.contains("changed on the service"),
            "the user's own first edit shown as a conflict:\n{s}"
        );
        outbox_rows(&db) == 0
    });
    assert_eq!(
        svc.sb.task_json(&current).unwrap()["priority"],
        second,
        "the second edit stands"
    );
    quit(&mut again);
}

// A user met it: the store failed (another program held it past the
// store's wait), then the user cancelled a queued edit in `:outbox` —
// "cancelled (not sent)" — and quit. The cancel had gone the way of every
// write after the failure (dropped): the edit came back at the next start
// and was sent. Now the cancel is marked beside the store when the store
// cannot take it, and the next start carries it out: nothing is sent.
#[test]
fn an_edit_cancelled_after_the_store_failed_is_not_sent_at_the_next_start() {
    let svc = Service::small();
    let home = Home::new();
    let current = leave_a_queued_edit(&svc, &home);
    let id = svc.task_id(&current);
    let db = the_db(&home);
    let mark = std::path::PathBuf::from(format!("{}.cancelled", db.display()));
    svc.set_faults("down=1");
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 160, 40);
    tui.wait_for("OFFLINE", WAIT);
    tui.wait_for("outbox 1", WAIT);
    // Another program takes the store's write lock and keeps it: the
    // store's next write fails once its wait is over.
    let other = rusqlite::Connection::open(&db).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    tui.send("j");
    tui.wait_for("this session goes on without it", WAIT);
    tui.send(":outbox\r");
    tui.wait_for("status → completed", WAIT);
    tui.send("\x18");
    tui.wait_for("cancelled (not sent)", WAIT);
    tui.wait_until("the cancel marked beside the store", WAIT, |_| {
        mark.exists()
    });
    other.execute_batch("ROLLBACK").unwrap();
    drop(other);
    tui.key("\x1b");
    tui.wait_until("the outbox closed", WAIT, |s| !s.contains("Outbox: edits"));
    quit(&mut tui);
    assert_eq!(outbox_rows(&db), 1, "the store itself could not take it");

    svc.set_faults("");
    svc.sb.clear_requests();
    let mut again = launch_ready(&svc, &home);
    again.wait_until("the cancel carried out", WAIT, |_| {
        outbox_rows(&db) == 0 && !mark.exists()
    });
    again.send("r");
    again.wait_until("the reload", WAIT, |s| s.contains("(more below)"));
    assert!(
        patches_of(&svc, &id).is_empty(),
        "the cancelled edit was sent"
    );
    assert_ne!(svc.sb.task_json(&current).unwrap()["status"], "completed");
    quit(&mut again);
}
