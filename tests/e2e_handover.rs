//! The terminal handed to another program and taken back — ctrl-z under
//! a job-control shell, `$EDITOR`, an interactive `[[commands]]` entry —
//! read as the raw bytes taskdeck writes (`src/tui/terminal.rs`): before
//! the other program has the terminal, taskdeck's title is popped
//! (`CSI 23;0 t`) and mouse capture is off; after, the terminal's title is
//! pushed again (`CSI 22;0 t`), taskdeck's title written again, and mouse
//! capture is back on. The other program marks the moment it has the
//! terminal by writing a line to it.

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};
use support::*;

/// The terminal's title saved (`setup`, `resume`)…
const PUSH: &[u8] = b"\x1b[22;0t";
/// … and given back (`restore`).
const POP: &[u8] = b"\x1b[23;0t";
/// crossterm's `EnableMouseCapture` and `DisableMouseCapture`, as written.
const MOUSE_ON: &[u8] = b"\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1015h\x1b[?1006h";
const MOUSE_OFF: &[u8] = b"\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l";
/// The alternate screen left (`restore`).
const LEAVE: &[u8] = b"\x1b[?1049l";
/// taskdeck's title (`notify = ["title"]`, the default): `OSC 2 ;`, the
/// inbox's count if any (`(7) `), then this.
const TITLE: &str = "taskdeck — Alice Martin @ Acme Legal LLP\x07";

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

/// Where taskdeck's title (any count) is first set in `hay`.
fn find_title(hay: &[u8]) -> Option<usize> {
    (0..hay.len()).find(|&i| {
        let Some(rest) = hay[i..].strip_prefix(b"\x1b]2;") else {
            return false;
        };
        let rest = match rest.iter().position(|b| *b == b' ') {
            Some(sp) if rest.starts_with(b"(") => &rest[sp + 1..],
            _ => rest,
        };
        rest.starts_with(TITLE.as_bytes())
    })
}

/// Wait until taskdeck's title is set in the raw bytes from `from` on.
fn wait_title(tui: &Tui, what: &str, from: usize) -> usize {
    let start = Instant::now();
    loop {
        let raw = tui.raw();
        if let Some(at) = find_title(&raw[from.min(raw.len())..]) {
            return from + at;
        }
        assert!(
            start.elapsed() < WAIT,
            "timed out waiting for {what}; screen:\n{}",
            tui.screen()
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// The processes under `root` (the pty's process) are killed if the test
/// fails, so that a failure leaves no stopped command or stuck taskdeck
/// behind (a passing test leaves none, and its pids may be reused).
struct Reaper(i32);

impl Drop for Reaper {
    fn drop(&mut self) {
        if std::thread::panicking() {
            kill_tree(self.0);
        }
    }
}

/// taskdeck spawned, with its reaper, once its first page is shown.
fn started(tui: Tui) -> (Tui, Reaper) {
    let reaper = Reaper(tui.pid());
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    (tui, reaper)
}

fn kill_tree(pid: i32) {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    for e in dir.flatten() {
        let Ok(child) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().nth(1));
        if ppid == Some(pid.to_string().as_str()) {
            kill_tree(child);
        }
    }
    // SAFETY: kill(2) on a process this test started.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
}

fn show(b: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(b))
}

/// Wait until the raw bytes from `from` on hold `needle`; where it starts.
fn wait_raw(tui: &Tui, what: &str, from: usize, needle: &[u8]) -> usize {
    let start = Instant::now();
    loop {
        let raw = tui.raw();
        if let Some(at) = find(&raw[from.min(raw.len())..], needle) {
            return from + at;
        }
        assert!(
            start.elapsed() < WAIT,
            "timed out waiting for {what}; screen:\n{}",
            tui.screen()
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// A config with the mouse on (the title is on by default) and `more`.
fn config(home: &Home, more: &str) -> String {
    let path = home.root().join("config.toml");
    std::fs::write(&path, format!("mouse = true\nrefresh_secs = 0\n{more}")).unwrap();
    path.display().to_string()
}

fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `before` (taskdeck's bytes from the hand-over's key to the moment the
/// other program has the terminal): the title popped and mouse capture
/// released, once each, the title first (nothing of taskdeck's after the
/// restore), and neither taken back.
fn assert_given_back(before: &[u8]) {
    let b = show(before);
    assert_eq!(count(before, POP), 1, "the title popped once: {b}");
    assert_eq!(count(before, MOUSE_OFF), 1, "the mouse released once: {b}");
    assert_eq!(count(before, PUSH), 0, "the title not pushed again: {b}");
    assert_eq!(count(before, MOUSE_ON), 0, "the mouse not taken again: {b}");
    let (pop, off, leave) = (
        find(before, POP).unwrap(),
        find(before, MOUSE_OFF).unwrap(),
        find(before, LEAVE).expect("the alternate screen left"),
    );
    assert!(pop < off && off < leave, "title, mouse, screen: {b}");
}

/// `after` (taskdeck's bytes once the other program gave the terminal
/// back): the title pushed again and taskdeck's written after it, mouse
/// capture on again, and the title not popped meanwhile.
fn assert_taken_back(after: &[u8]) {
    let a = show(&after[..after.len().min(600)]);
    assert_eq!(count(after, PUSH), 1, "the title pushed once: {a}");
    assert_eq!(count(after, MOUSE_ON), 1, "the mouse taken once: {a}");
    assert_eq!(count(after, POP), 0, "the title not popped: {a}");
    let push = find(after, PUSH).unwrap();
    let title = find_title(after).expect("taskdeck's title written again");
    assert!(push < title, "pushed, then taskdeck's title: {a}");
}

/// Quit: the title popped last of all (after its last push), the terminal
/// restored.
fn quit(tui: &mut Tui) {
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
    let raw = tui.raw();
    let last = |n: &[u8]| raw.windows(n.len()).rposition(|w| w == n);
    assert!(last(POP) > last(PUSH), "the title given back at quit");
    assert!(
        last(MOUSE_OFF) > last(MOUSE_ON),
        "the mouse released at quit"
    );
    assert_restored(&raw);
}

/// ctrl-z under a job-control shell: the bytes before taskdeck stops give
/// the title and the mouse back; after `fg` (SIGCONT) it takes both again.
#[test]
fn ctrl_z_gives_the_title_and_the_mouse_back_and_fg_takes_them_again() {
    let svc = Service::small();
    let home = Home::new();
    let mut env = env_with(svc.env(), "TASKDECK_CONFIG", &config(&home, ""));
    env.push(("BIN".into(), env!("CARGO_BIN_EXE_taskdeck").into()));
    let script = "set -m; \"$BIN\"; echo \"[stopped: $?]\"; \
                  read -r line; fg >/dev/null; echo \"[fg: $?]\"";
    let mut tui = Tui::spawn_program(&home, "bash", &["-c", script], &env, 120, 40);
    let _reaper = Reaper(tui.pid());
    tui.wait_for("Alice Martin", WAIT);
    wait_title(&tui, "taskdeck's title", 0);
    let raw = tui.raw();
    assert_eq!(count(&raw, PUSH), 1, "pushed at start: {}", show(&raw));
    assert_eq!(count(&raw, MOUSE_ON), 1, "captured at start");
    let from = raw.len();

    tui.send("\x1a");
    let stopped = wait_raw(&tui, "the job stopped", from, b"[stopped: 148]");
    assert_given_back(&tui.raw()[from..stopped]);

    let resumed = tui.raw().len();
    tui.send("\r");
    wait_title(&tui, "the title after fg", resumed);
    wait_raw(&tui, "the mouse after fg", resumed, MOUSE_ON);
    tui.wait_for("Alice Martin", WAIT);
    assert_taken_back(&tui.raw()[resumed..]);

    quit(&mut tui);
    tui.wait_for("[fg: 0]", WAIT);
}

/// `$EDITOR` (ctrl-e in the composer): the editor runs with the title
/// popped and the mouse released, and taskdeck takes both back after it.
#[test]
fn the_editor_runs_with_the_title_and_the_mouse_given_back() {
    let svc = Service::small();
    let home = Home::new();
    let ran = home.root().join("editor-ran");
    let editor = home.root().join("editor.sh");
    script(
        &editor,
        &format!(
            "printf 'EDITOR HAS THE TERMINAL\\n'\nprintf 'ran\\n' >> '{}'\nprintf 'from the editor' >> \"$1\"\n",
            ran.display()
        ),
    );
    let mut env = env_with(svc.env(), "TASKDECK_CONFIG", &config(&home, ""));
    env = env_with(env, "EDITOR", &editor.display().to_string());
    env.retain(|(k, _)| k != "VISUAL");
    let (mut tui, _reaper) = started(Tui::spawn(&home, &[], &env, 120, 40));
    wait_title(&tui, "taskdeck's title", 0);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    let from = tui.raw().len();

    tui.send("\x05"); // ctrl-e: $EDITOR
    let marker = wait_raw(&tui, "the editor", from, b"EDITOR HAS THE TERMINAL");
    tui.wait_for("from the editor", WAIT);
    assert_eq!(
        std::fs::read_to_string(&ran).unwrap(),
        "ran\n",
        "it ran once"
    );
    wait_title(&tui, "the title after the editor", marker);
    let raw = tui.raw();
    assert_given_back(&raw[from..marker]);
    assert_taken_back(&raw[marker..]);

    tui.key("\x1b");
    tui.wait_until("the composer closed", WAIT, |s| {
        !s.contains("Internal comment")
    });
    // (Esc on a composer with text may ask first: keep the draft.)
    quit(&mut tui);
}

/// An interactive custom command (`interactive = true`) runs with the
/// title popped and the mouse released; both are taken back after it.
#[test]
fn an_interactive_command_runs_with_the_title_and_the_mouse_given_back() {
    let svc = Service::small();
    let home = Home::new();
    let ran = home.root().join("command-ran");
    let cfg = config(
        &home,
        &format!(
            r#"
[[commands]]
key = "I"
description = "Hand over the terminal"
run = 'printf "COMMAND HAS THE TERMINAL\n"; printf "ran\n" >> {}'
interactive = true
"#,
            ran.display()
        ),
    );
    let env = env_with(svc.env(), "TASKDECK_CONFIG", &cfg);
    let (mut tui, _reaper) = started(Tui::spawn(&home, &[], &env, 120, 40));
    wait_title(&tui, "taskdeck's title", 0);
    let from = tui.raw().len();

    tui.send("I");
    let marker = wait_raw(&tui, "the command", from, b"COMMAND HAS THE TERMINAL");
    tui.wait_for("hand-over-the-terminal on", WAIT);
    assert_eq!(
        std::fs::read_to_string(&ran).unwrap(),
        "ran\n",
        "it ran once"
    );
    wait_title(&tui, "the title after the command", marker);
    let raw = tui.raw();
    assert_given_back(&raw[from..marker]);
    assert_taken_back(&raw[marker..]);

    quit(&mut tui);
}

/// `notify = []`: the title is never touched — no push, no pop, no title
/// around a hand-over — while mouse capture is still released and taken
/// back.
#[test]
fn with_the_title_off_a_hand_over_writes_no_title_byte() {
    let svc = Service::small();
    let home = Home::new();
    let cfg = config(
        &home,
        r#"notify = []

[[commands]]
key = "I"
description = "Hand over the terminal"
run = 'printf "COMMAND HAS THE TERMINAL\n"'
interactive = true
"#,
    );
    let env = env_with(svc.env(), "TASKDECK_CONFIG", &cfg);
    let (mut tui, _reaper) = started(Tui::spawn(&home, &[], &env, 120, 40));
    let from = tui.raw().len();
    tui.send("I");
    let marker = wait_raw(&tui, "the command", from, b"COMMAND HAS THE TERMINAL");
    tui.wait_for("hand-over-the-terminal on", WAIT);
    wait_raw(&tui, "the mouse taken back", marker, MOUSE_ON);
    let raw = tui.raw();
    assert_eq!(count(&raw[from..marker], MOUSE_OFF), 1);
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
    let raw = tui.raw();
    for (seq, what) in [
        (PUSH, "push"),
        (POP, "pop"),
        (b"\x1b]2;".as_slice(), "title"),
    ] {
        assert_eq!(
            count(&raw, seq),
            0,
            "no title {what}: {}",
            show(&raw[..300])
        );
    }
    assert_restored(&raw);
}

/// ctrl-z typed into an interactive command (its own process group owns
/// the terminal, so the terminal stops the command): taskdeck stops with it
/// as one job, as a shell would, instead of waiting forever on a stopped
/// command; `fg` continues both, the command has the terminal again, and
/// once it ends taskdeck takes back the title and the mouse.
#[test]
fn ctrl_z_in_an_interactive_command_stops_taskdeck_with_it_and_fg_continues_both() {
    let svc = Service::small();
    let home = Home::new();
    let cfg = config(
        &home,
        r#"
[[commands]]
key = "I"
description = "Hand over the terminal"
run = 'printf "COMMAND HAS THE TERMINAL\n"; read answer; printf "COMMAND GOT %s\n" "$answer"'
interactive = true
"#,
    );
    let mut env = env_with(svc.env(), "TASKDECK_CONFIG", &cfg);
    env.push(("BIN".into(), env!("CARGO_BIN_EXE_taskdeck").into()));
    let script = "set -m; \"$BIN\"; echo \"[stopped: $?]\"; \
                  read -r line; fg >/dev/null; echo \"[fg: $?]\"";
    let spawned = Tui::spawn_program(&home, "bash", &["-c", script], &env, 120, 40);
    let (mut tui, _reaper) = started(spawned);
    let from = tui.raw().len();
    tui.send("I");
    let marker = wait_raw(&tui, "the command", from, b"COMMAND HAS THE TERMINAL");
    assert_given_back(&tui.raw()[from..marker]);

    tui.send("\x1a");
    let stopped = wait_raw(
        &tui,
        "taskdeck stopped with its command",
        marker,
        b"[stopped: 148]",
    );
    // Nothing of taskdeck's while the command had the terminal.
    assert_eq!(count(&tui.raw()[marker..stopped], b"\x1b["), 0);

    tui.send("\r");
    // Continued: the command's group owns the terminal again (`sh`, the
    // command, leads it), reads its line, then taskdeck takes over.
    let start = Instant::now();
    let leader = |g: i32| std::fs::read_to_string(format!("/proc/{g}/comm")).ok();
    while tui
        .foreground_group()
        .and_then(leader)
        .as_deref()
        .map(str::trim)
        != Some("sh")
    {
        assert!(
            start.elapsed() < WAIT,
            "the command never had the terminal again"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    tui.send("yes\r");
    let got = wait_raw(&tui, "the command continued", stopped, b"COMMAND GOT yes");
    tui.wait_for("hand-over-the-terminal on", WAIT);
    wait_title(&tui, "the title after the command", got);
    assert_taken_back(&tui.raw()[got..]);

    quit(&mut tui);
    tui.wait_for("[fg: 0]", WAIT);
}

/// The same ctrl-z with no job-control shell above taskdeck (its group is
/// orphaned: nothing can stop it, nor continue it): the command is
/// continued at once and goes on with the terminal.
#[test]
fn ctrl_z_in_an_interactive_command_with_no_job_control_lets_it_go_on() {
    let svc = Service::small();
    let home = Home::new();
    let cfg = config(
        &home,
        r#"
[[commands]]
key = "I"
description = "Hand over the terminal"
run = 'printf "COMMAND HAS THE TERMINAL\n"; read answer; printf "COMMAND GOT %s\n" "$answer"'
interactive = true
"#,
    );
    let env = env_with(svc.env(), "TASKDECK_CONFIG", &cfg);
    let (mut tui, _reaper) = started(Tui::spawn(&home, &[], &env, 120, 40));
    let from = tui.raw().len();
    tui.send("I");
    let marker = wait_raw(&tui, "the command", from, b"COMMAND HAS THE TERMINAL");
    tui.send("\x1a");
    tui.send("yes\r");
    let got = wait_raw(&tui, "the command went on", marker, b"COMMAND GOT yes");
    tui.wait_for("hand-over-the-terminal on", WAIT);
    wait_title(&tui, "the title after the command", got);
    assert_taken_back(&tui.raw()[got..]);
    quit(&mut tui);
}
