//! Typed text is never lost and never sent twice, proven on the real binary
//! in a pseudo-terminal against a sandbox started in the test: drafts
//! survive kill -9 and hang-ups (also under $EDITOR), a failed or slow send
//! keeps the text and is never retried or duplicated, pastes are sent as
//! shown.

mod support;

use std::time::Duration;
use support::*;

use support::{launch_ready as launch, open_number as open};

const COLS: u16 = 120;
const ROWS: u16 = 40;

fn mode(p: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn posts(svc: &Service) -> usize {
    svc.requests().iter().filter(|r| r.method == "POST").count()
}

#[test]
fn a_draft_survives_kill_9_and_is_offered_back_without_sending() {
    let svc = Service::small();
    let home = Home::new();
    let id = svc.task_id("#2");
    let text = "Fee cap confirmed at 25k, kill-9 proof";

    let mut tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.send(text);
    tui.wait_for(text, WAIT);
    // The debounced save (not a send): wait for the file, then kill hard.
    let file = svc.draft_file(&home, KEY, &id, "comment");
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&file).ok().as_deref() != Some(text) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no draft saved at {} while typing",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    tui.signal(libc::SIGKILL);
    let st = tui.wait_exit(WAIT);
    assert_eq!(
        st.signal().map(|s| s.contains("Kill")),
        Some(true),
        "{st:?}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    assert_eq!(mode(&file), 0o600, "the draft is private");
    assert_eq!(posts(&svc), 0, "nothing was sent");

    let tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.wait_for(text, WAIT);
    tui.wait_for("restored your unsent draft", WAIT);
    assert_eq!(posts(&svc), 0, "restoring never sends");
}

#[test]
fn a_failed_send_keeps_the_text_and_is_never_retried() {
    let svc = Service::small();
    let home = Home::new();
    let id = svc.task_id("#2");
    let comments = format!("/api/v1/tasks/{id}/comments");
    let text = "Please confirm the fee cap";
    // Asked before any fault is injected.
    let file = svc.draft_file(&home, KEY, &id, "comment");

    let tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.send(text);
    tui.wait_for(text, WAIT);

    svc.sb.clear_requests();
    svc.set_faults("fail_every=1,status=503");
    tui.send("\x13"); // ctrl-s
                      // A 503 may come after the service acted: the outcome is unknown,
                      // never "not sent".
    tui.wait_for("OUTCOME UNKNOWN", WAIT);
    assert!(!tui.screen().contains("NOT SENT"), "{}", tui.screen());
    assert!(
        tui.screen().contains(text),
        "the text is still in the composer"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    // Give a (wrong) automatic retry every chance to show up.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        svc.requests_matching("POST", &comments).len(),
        1,
        "exactly one POST: writes are never retried automatically"
    );

    // The connection drops after the service got the request: the outcome
    // is unknown, and the composer says so.
    svc.sb.clear_requests();
    svc.set_faults("reset_every=1");
    tui.send("\x13");
    tui.wait_for("outcome unknown", WAIT);
    assert!(
        tui.screen().contains(text),
        "the text is still in the composer"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        svc.requests_matching("POST", &comments).len(),
        1,
        "exactly one POST after a dropped connection"
    );
}

/// The comments the service holds for a task, by content.
fn comment_texts(svc: &Service, id: &str) -> Vec<String> {
    let c = taskdeck::api::Client::new(taskdeck::api::ClientConfig::new(
        svc.sb.base_url(),
        taskdeck::api::ApiKey::new(KEY),
    ))
    .unwrap();
    svc.rt
        .block_on(c.list_comments(id))
        .unwrap()
        .into_iter()
        .map(|c| c.content.raw().to_string())
        .collect()
}

#[test]
fn a_slow_send_closed_reopened_and_edited_posts_once_and_keeps_the_later_text() {
    let svc = Service::small();
    let home = Home::new();
    let id = svc.task_id("#2");
    let file = svc.draft_file(&home, KEY, &id, "comment");
    let comments = format!("/api/v1/tasks/{id}/comments");

    let mut tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.send("first part");
    tui.wait_for("first part", WAIT);
    // A slow service: every answer takes 6 s, time enough (generously) for
    // the keys below to be read while the POST is in flight.
    svc.sb.clear_requests();
    svc.set_faults("delay=6000");
    tui.send("\x13");
    tui.wait_for("sending…", WAIT);
    tui.key("\x1b");
    tui.wait_until("the composer closed", WAIT, |s| {
        !s.contains("Internal comment")
    });
    tui.send("c");
    tui.wait_for("a send of this text is in flight", WAIT);
    assert!(
        !tui.screen().contains("nothing was sent"),
        "{}",
        tui.screen()
    );
    tui.send(" second part");
    tui.wait_for("first part second part", WAIT);
    // A second ctrl-s while the first send is in flight sends nothing.
    tui.send("\x13");
    tui.wait_for("not sent: a send of this draft is in flight", WAIT);
    // The POST answers: only what it sent leaves the draft.
    tui.wait_for("kept as a draft (not sent)", Duration::from_secs(30));
    svc.set_faults("");
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&file).ok().as_deref() != Some("second part") {
        assert!(
            start.elapsed() < WAIT,
            "the draft should hold the later text: {:?}",
            std::fs::read_to_string(&file)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        svc.requests_matching("POST", &comments).len(),
        1,
        "exactly one POST"
    );
    assert_eq!(
        comment_texts(&svc, &id)
            .iter()
            .filter(|c| c.contains("first part"))
            .collect::<Vec<_>>(),
        vec!["first part"],
        "the service has the first part once, and not the second"
    );
    // kill -9 now loses nothing: the later text is on disk.
    tui.signal(libc::SIGKILL);
    tui.wait_exit(WAIT);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "second part");

    let tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("restored your unsent draft", WAIT);
    tui.wait_for("second part", WAIT);
    assert_eq!(svc.requests_matching("POST", &comments).len(), 1);
}

#[test]
fn quitting_while_a_send_is_in_flight_says_the_outcome_is_unknown_everywhere() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.send("in flight at quit");
    tui.wait_for("in flight at quit", WAIT);
    svc.set_faults("delay=3000");
    tui.send("\x13");
    tui.wait_for("sending…", WAIT);
    tui.signal(libc::SIGTERM);
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 128 + libc::SIGTERM as u32);
    let said = String::from_utf8_lossy(&tui.raw()).into_owned();
    assert!(
        said.contains("was still being sent when you quit — its outcome is unknown"),
        "{said}"
    );
    assert!(!said.contains("unsent"), "{said}");
    // Whether the POST landed is not known here (the sandbox drops it with
    // the connection; a real service may have applied it): the next run
    // says so.
    svc.set_faults("");
    let tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for(
        "may have reached the service: check before sending again",
        WAIT,
    );
    assert!(!tui.screen().contains("nothing was sent"));
}

const UNWRITABLE: &str = "typed on a full disk";

/// The composer open on #2 with [`UNWRITABLE`] typed, its drafts' folder
/// replaced by a file: no draft can be written there (as on a full disk,
/// or in a folder that refuses it).
fn typing_where_no_draft_can_be_written(svc: &Service, home: &Home) -> Tui {
    let tui = launch(svc, home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    let dir = svc.drafts_of(home, KEY);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::write(&dir, "not a folder").unwrap();
    tui.send(UNWRITABLE);
    tui.wait_for(UNWRITABLE, WAIT);
    tui
}

/// The draft saved as typing pauses, when it cannot be written, says so
/// at once: the status line shows it without waiting for another key or
/// answer (it was set, and drawn only at the next key).
#[test]
fn a_draft_that_cannot_be_saved_while_typing_is_said_at_once() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = typing_where_no_draft_can_be_written(&svc, &home);
    tui.wait_for("could not save the draft", WAIT);
    tui.signal(libc::SIGTERM);
    tui.wait_exit(WAIT);
}

/// Text typed in the composer that cannot be kept as a draft is never
/// lost without a word at a quit: stderr says NOT KEPT, why, and gives
/// the text itself, the one copy left (it once said nothing at all, and
/// the text was gone).
#[test]
fn a_draft_that_cannot_be_written_at_a_quit_is_said_not_kept_with_its_text() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = typing_where_no_draft_can_be_written(&svc, &home);
    tui.signal(libc::SIGTERM);
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 128 + libc::SIGTERM as u32);
    let said = String::from_utf8_lossy(&tui.raw()).into_owned();
    let after = said
        .rsplit_once("could NOT be kept as a draft")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("NOT KEPT said: {said}"));
    assert!(
        said.contains("your internal comment on #2 could NOT be kept"),
        "{said}"
    );
    assert!(after.contains("NOT KEPT"), "{after}");
    assert!(after.contains(UNWRITABLE), "the text itself: {after}");
    assert!(!after.contains("unsent text is kept"), "{after}");
    // And the file it was written to instead, which holds it.
    let folder = home.spilled();
    let file = std::fs::read_dir(&folder)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert!(
        said.replace("\r\n", "")
            .contains(&format!("written instead to {}", file.display())),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), UNWRITABLE);
}

/// The text no draft can keep when the terminal is gone (the pane killed,
/// the window closed): stderr goes nowhere, so it is written to the
/// private folder (`$XDG_RUNTIME_DIR/taskdeck/`, 0700, the file 0600), and
/// the next start says where it is, never the text (before: lost, unsaid).
#[test]
fn a_text_no_draft_can_keep_at_a_hang_up_is_written_privately_and_named_at_the_next_start() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = HangupTui::spawn(&home, &svc.env(), COLS, ROWS);
    tui.wait_for("Alice Martin", WAIT);
    tui.send(":open #2\r");
    tui.wait_for("▶ #2 Confirm", WAIT);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    let dir = svc.drafts_of(&home, KEY);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::write(&dir, "not a folder").unwrap();
    tui.send(UNWRITABLE);
    tui.wait_for(UNWRITABLE, WAIT);
    tui.hang_up();
    let st = tui.wait_exit(WAIT);
    assert_ne!(st.exit_code(), 101, "no panic");
    assert_eq!(st.exit_code(), 129, "a hang-up: {st:?}");

    let folder = home.spilled();
    assert_eq!(mode(&folder), 0o700);
    let files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(mode(&files[0]), 0o600);
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), UNWRITABLE);
    let name = files[0].file_name().unwrap().to_str().unwrap().to_string();
    assert!(name.contains("_2"), "named by the task: {name}");

    let mut tui = Tui::spawn(&home, &[], &svc.env(), 200, ROWS);
    tui.wait_for("unsaved text", WAIT);
    tui.wait_for(&name, WAIT);
    assert!(!tui.screen().contains(UNWRITABLE), "never the text");
    tui.signal(libc::SIGTERM);
    tui.wait_exit(WAIT);
}

#[test]
fn a_hang_up_while_the_editor_is_open_saves_and_offers_the_editor_text_back() {
    use std::os::unix::fs::PermissionsExt;
    let svc = Service::small();
    let home = Home::new();
    let id = svc.task_id("#2");
    // An editor that writes a line, then waits (until the hang-up kills it).
    let editor = home.root().join("slow-editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf 'from the editor\\n' >> \"$1\"\nexec sleep 60\n",
    )
    .unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut env = svc.env();
    env.push(("EDITOR".into(), editor.display().to_string()));
    let mut tui = Tui::spawn(&home, &[], &env, COLS, ROWS);
    tui.wait_for("Alice Martin", WAIT);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.send("typed before the editor");
    tui.wait_for("typed before the editor", WAIT);
    tui.send("\x05"); // ctrl-e
    let draft = svc.draft_file(&home, KEY, &id, "comment");
    let editor_file = draft.with_extension("editor.md");
    let start = std::time::Instant::now();
    while !std::fs::read_to_string(&editor_file)
        .unwrap_or_default()
        .contains("from the editor")
    {
        assert!(start.elapsed() < WAIT, "the editor never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Saved before the editor started.
    assert_eq!(
        std::fs::read_to_string(&draft).unwrap(),
        "typed before the editor"
    );
    // The hang-up, as the kernel delivers it: SIGHUP to the foreground
    // process group (taskdeck, the shell, the editor).
    // SAFETY: kill(2) on our own child's process group.
    assert_eq!(unsafe { libc::kill(-tui.pid(), libc::SIGHUP) }, 0);
    let st = tui.wait_exit(WAIT);
    assert_ne!(st.exit_code(), 101, "no panic");
    assert_eq!(st.exit_code(), 129, "{st:?}");
    let out = String::from_utf8_lossy(&tui.raw()).into_owned();
    assert!(!out.contains("panicked"), "{out}");

    let tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("$EDITOR session that did not finish", WAIT);
    tui.wait_for("from the editor", WAIT);
    assert!(tui.screen().contains("typed before the editor"));
    assert_eq!(
        std::fs::read_to_string(&draft).unwrap(),
        "typed before the editor\nfrom the editor"
    );
}

#[test]
fn the_terminal_going_away_while_the_editor_is_open_is_a_clean_hang_up() {
    use std::os::unix::fs::PermissionsExt;
    let svc = Service::small();
    let home = Home::new();
    let id = svc.task_id("#2");
    let editor = home.root().join("slow-editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf 'written in the editor\\n' >> \"$1\"\nexec sleep 60\n",
    )
    .unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut env = svc.env();
    env.push(("EDITOR".into(), editor.display().to_string()));
    let mut tui = HangupTui::spawn(&home, &env, COLS, ROWS);
    tui.wait_for("Alice Martin", WAIT);
    tui.send(":open #2\r");
    // Found and shown (not `#2 (looking for it…)`): `c` has a task to act on.
    tui.wait_for("▶ #2 Confirm", WAIT);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.send("before the hang-up");
    tui.wait_for("before the hang-up", WAIT);
    tui.send("\x05"); // ctrl-e
    let draft = svc.draft_file(&home, KEY, &id, "comment");
    let editor_file = draft.with_extension("editor.md");
    let start = std::time::Instant::now();
    while !std::fs::read_to_string(&editor_file)
        .unwrap_or_default()
        .contains("written in the editor")
    {
        assert!(start.elapsed() < WAIT, "the editor never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The terminal window closes: every write of taskdeck now fails (EIO).
    tui.hang_up();
    let st = tui.wait_exit(WAIT);
    assert_ne!(st.exit_code(), 101, "a vanished terminal is no panic");
    assert_eq!(st.exit_code(), 129, "a hang-up: {st:?}");
    assert_eq!(
        std::fs::read_to_string(&draft).unwrap(),
        "before the hang-up"
    );

    let tui = launch(&svc, &home);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("$EDITOR session that did not finish", WAIT);
    tui.wait_for("written in the editor", WAIT);
}

/// A bracketed paste as terminals send it (lines ended by CR, an escape
/// sequence inside): the comment is posted with LF line ends and the ESC
/// as its visible stand-in, never raw.
#[test]
fn a_pasted_multi_line_text_is_posted_with_lf_and_no_raw_controls() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    open(&tui, 2);
    let id = svc.task_id("#2");
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.send("\x1b[200~first line\rsecond line\r\nthird \x1b[2J end\x1b[201~");
    tui.wait_for("third", WAIT);
    svc.sb.clear_requests();
    tui.send("\x13");
    let path = format!("/api/v1/tasks/{id}/comments");
    tui.wait_until("the POST", WAIT, |_| {
        !svc.requests_matching("POST", &path).is_empty()
    });
    let posts = svc.requests_matching("POST", &path);
    assert_eq!(posts.len(), 1);
    let content = posts[0].body.as_ref().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        content.starts_with("first line\nsecond line\nthird "),
        "{content:?}"
    );
    assert!(
        !content.contains('\r') && !content.contains('\u{1b}'),
        "{content:?}"
    );
    tui.wait_for("#2: comment saved", WAIT);
    tui.send("q");
    tui.wait_exit(WAIT);
}
