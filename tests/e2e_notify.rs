//! Notifications with the real binary in a pseudo-terminal, read as the
//! raw bytes it writes: Alice has taskdeck open and idle; Bob mentions her
//! in a comment; at the inbox's next walk taskdeck rings, sends a desktop
//! notification through the terminal (OSC 9; wrapped for passthrough when
//! `$TMUX` is set), puts the count in the title (pushed at start, popped at
//! quit) and runs `notify_command` once with the notice in its
//! environment. The task's title is hostile (`ESC ] 0 ;`): it sets nothing.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};
use support::*;
use taskdeck::api::{ApiKey, Client, ClientConfig, Task, TaskPatch, TaskQuery};

const BOB: &str = "demo-bob-acme";
const HOSTILE: &str = "Budget\x1b]0;pwned\x07 review";

/// A walk every 30 s (the least the config takes): the mention arrives
/// within one or two of them.
const NEXT_WALKS: Duration = Duration::from_secs(100);

fn client(svc: &Service, key: &str) -> Client {
    Client::new(ClientConfig::new(
        svc.sb.base_url(),
        ApiKey::new(key.to_string()),
    ))
    .unwrap()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

fn wait_raw(tui: &Tui, what: &str, needle: &[u8], timeout: Duration) -> Vec<u8> {
    let start = Instant::now();
    loop {
        let raw = tui.raw();
        if find(&raw, needle).is_some() {
            return raw;
        }
        if start.elapsed() > timeout {
            panic!(
                "timed out after {timeout:?} waiting for {what}; screen:\n{}",
                tui.screen()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The config: a walk every 30 s, every way on, the command writing its
/// variables (only the notice's: never the key) to `out`.
fn config(home: &Home, out: &Path) -> std::path::PathBuf {
    let path = home.root().join("notify.toml");
    let script = format!(
        "env | grep -E '^TASKDECK_(REASONS?|TASK_NUMBER|TASK_ID|TITLE|WORDS|COUNT|PROFILE)=' | sort >> '{o}'; echo --- >> '{o}'",
        o = out.display()
    );
    std::fs::write(
        &path,
        format!(
            "inbox_refresh_secs = 30\nnotify = [\"bell\", \"desktop\", \"title\"]\nnotify_command = {}\n",
            toml_string(&script)
        ),
    )
    .unwrap();
    path
}

fn toml_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A task of Alice's in progress, its title made hostile by Bob before
/// taskdeck starts (what the first walk finds is never news).
fn hostile_task(svc: &Service) -> Task {
    let alice = client(svc, KEY);
    let bob = client(svc, BOB);
    let task = svc
        .rt
        .block_on(alice.list_tasks(
            &TaskQuery {
                assigned_to: Some(svc.user_id(KEY)),
                status: vec!["in_progress".into()],
                ..Default::default()
            },
            100,
            None,
        ))
        .unwrap()
        .items
        .iter()
        .find_map(|i| i.task().cloned())
        .expect("a task of Alice's in progress");
    svc.rt
        .block_on(bob.patch_task(
            &task.id,
            &TaskPatch {
                title: Some(HOSTILE.into()),
                ..Default::default()
            },
        ))
        .unwrap();
    task
}

/// Start taskdeck and wait for its first walk (the inbox says when).
fn start(home: &Home, svc: &Service, extra: &[(&str, &str)], cfg: &Path) -> Tui {
    let mut env = env_with(svc.env(), "TASKDECK_CONFIG", &cfg.display().to_string());
    for (k, v) in extra {
        env = env_with(env, k, v);
    }
    let tui = Tui::spawn(home, &[], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.send("i");
    tui.wait_for("read just now", WAIT);
    tui.send("\x1b");
    tui.wait_until("the inbox closed", WAIT, |s| !s.contains("┌ Inbox"));
    tui
}

/// Bob mentions Alice by her e-mail: the sandbox lists her in
/// `mentioned_users`, which the inbox takes as the truth.
fn mention(svc: &Service, task: &Task) {
    let bob = client(svc, BOB);
    let alice = client(svc, KEY);
    let email = svc.rt.block_on(alice.me()).unwrap().user_email;
    let text = format!("@{} can you look at this?", email.raw());
    svc.rt
        .block_on(bob.add_comment(&task.id, &text, &[]))
        .unwrap();
}

#[test]
fn a_mention_while_idle_rings_notifies_titles_and_runs_the_command_once() {
    let svc = Service::small();
    let home = Home::new();
    let out = home.root().join("notified");
    let cfg = config(&home, &out);
    let task = hostile_task(&svc);
    let label = task.display_id.raw().to_string();
    let mut tui = start(&home, &svc, &[("TERM_PROGRAM", "WezTerm")], &cfg);
    let before = tui.raw();
    assert_eq!(count(&before, b"\x1b]9;"), 0, "nothing new yet");
    assert!(
        find(&before, b"\x1b[22;0t").is_some(),
        "the terminal's title is pushed"
    );

    mention(&svc, &task);
    let words = format!("Bob Okafor mentioned you on {label}");
    let osc = format!("\x07\x1b]9;taskdeck: {words}");
    let raw = wait_raw(&tui, "the bell and OSC 9", osc.as_bytes(), NEXT_WALKS);
    let at = find(&raw, osc.as_bytes()).unwrap();
    let seq_end = at + raw[at + 1..].iter().position(|b| *b == 0x07).unwrap() + 1;
    let seq = String::from_utf8_lossy(&raw[at + 1..=seq_end]).into_owned();
    assert!(
        seq.ends_with(" review\x07")
            && seq.contains("Budget")
            && seq.matches('\x1b').count() == 1
            && seq.matches('\x07').count() == 1,
        "the title is in the notification, its controls gone: {seq:?}"
    );
    // The title counts the inbox as the header does.
    let screen = tui.screen();
    let n: usize = screen
        .split("inbox ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("the header counts the inbox");
    wait_raw(
        &tui,
        "the title with the count",
        format!("\x1b]2;({n}) taskdeck — Alice Martin @ Acme Legal LLP\x07").as_bytes(),
        WAIT,
    );
    // The command ran, with the notice in its environment.
    let start_wait = Instant::now();
    while !std::fs::read_to_string(&out).is_ok_and(|s| s.contains("---")) {
        assert!(start_wait.elapsed() < WAIT, "notify_command never ran");
        std::thread::sleep(Duration::from_millis(50));
    }
    tui.send("q");
    tui.wait_exit(WAIT);
    let raw = tui.raw();
    assert_eq!(count(&raw, b"\x1b]9;"), 1, "one notification, once");
    assert_eq!(count(&raw[at..], b"\x07\x1b]9;"), 1, "one bell with it");
    // The hostile title set nothing: no OSC 0 at all, and every title
    // written is taskdeck's own.
    assert!(
        find(&raw, b"\x1b]0;").is_none(),
        "a title was set by the service's text"
    );
    for w in raw.windows(4).enumerate().filter(|(_, w)| w == b"\x1b]2;") {
        let rest = String::from_utf8_lossy(&raw[w.0 + 4..(w.0 + 80).min(raw.len())]).into_owned();
        assert!(
            rest.starts_with("taskdeck") || rest.starts_with(&format!("({n}) taskdeck")),
            "{rest:?}"
        );
    }
    // The title is given back before the terminal is restored.
    let popped = raw
        .windows(7)
        .rposition(|w| w == b"\x1b[23;0t")
        .expect("the title popped");
    assert!(popped > at);
    assert_restored(&raw);

    let env = std::fs::read_to_string(&out).unwrap();
    assert_eq!(env.matches("---").count(), 1, "run once: {env}");
    for want in [
        "TASKDECK_REASON=mentioned".to_string(),
        format!("TASKDECK_TASK_NUMBER={}", label.trim_start_matches('#')),
        format!("TASKDECK_TASK_ID={}", task.id.as_str()),
        format!("TASKDECK_WORDS={words}"),
        "TASKDECK_COUNT=1".to_string(),
        "TASKDECK_PROFILE=".to_string(),
    ] {
        assert!(env.lines().any(|l| l == want), "{want:?} in\n{env}");
    }
    assert!(!env.contains('\x1b') && !env.contains('\x07'), "{env:?}");
    // The title, its controls made harmless (spaces, or the stand-ins the
    // store kept).
    let title = env
        .lines()
        .find_map(|l| l.strip_prefix("TASKDECK_TITLE="))
        .expect("TASKDECK_TITLE");
    assert!(
        title.starts_with("Budget") && title.ends_with(" review") && title.contains("]0;pwned"),
        "{title:?}"
    );
}

#[test]
fn inside_tmux_the_notification_is_wrapped_for_passthrough() {
    let svc = Service::small();
    let home = Home::new();
    let out = home.root().join("notified");
    let cfg = config(&home, &out);
    let task = hostile_task(&svc);
    let label = task.display_id.raw().to_string();
    let tmux = [
        ("TMUX", "/tmp/tmux-1000/default,4242,0"),
        ("TERM_PROGRAM", "tmux"),
        ("TERM", "tmux-256color"),
    ];
    let mut tui = start(&home, &svc, &tmux, &cfg);
    mention(&svc, &task);
    let wrapped = format!("\x1bPtmux;\x1b\x1b]9;taskdeck: Bob Okafor mentioned you on {label}");
    let raw = wait_raw(
        &tui,
        "OSC 9 wrapped for tmux",
        wrapped.as_bytes(),
        NEXT_WALKS,
    );
    let at = find(&raw, wrapped.as_bytes()).unwrap();
    let end = at + find(&raw[at..], b"\x07\x1b\\").expect("the DCS ends") + 3;
    let dcs = &raw[at..end];
    // Inside the DCS every ESC is doubled: unwrapped, one OSC 9 and nothing else.
    let inner = &dcs[7..dcs.len() - 2];
    let unwrapped = String::from_utf8_lossy(inner).replace("\x1b\x1b", "\x1b");
    assert_eq!(unwrapped.matches('\x1b').count(), 1, "{unwrapped:?}");
    assert!(unwrapped.starts_with("\x1b]9;") && unwrapped.ends_with('\x07'));
    assert_eq!(
        count(&raw, b"\x1b]9;"),
        count(&raw, b"\x1b\x1b]9;"),
        "never unwrapped inside tmux"
    );
    tui.send("q");
    tui.wait_exit(WAIT);
    assert_restored(&tui.raw());
}

/// In a real tmux (a private server, `allow-passthrough on`), attached in
/// the pseudo-terminal: the terminal outside tmux receives the OSC 9.
#[test]
fn through_a_real_tmux_with_passthrough_the_terminal_gets_the_notification() {
    let svc = Service::small();
    let home = Home::new();
    let out = home.root().join("notified");
    let cfg = config(&home, &out);
    let task = hostile_task(&svc);
    let label = task.display_id.raw().to_string();
    let conf = home.root().join("tmux.conf");
    std::fs::write(&conf, "set -g allow-passthrough on\nset -g status off\n").unwrap();
    let socket = home.root().join("tmux.sock");
    // The pane's environment: the home's, the service's and the config,
    // on the command line (a tmux server's environment is its own).
    let mut cmd = String::from("env -i");
    let env = env_with(svc.env(), "TASKDECK_CONFIG", &cfg.display().to_string());
    for (k, v) in home.env().iter().chain(env.iter()) {
        if k != "TASKDECK_CONFIG" || v.ends_with("notify.toml") {
            cmd.push_str(&format!(" {k}='{v}'"));
        }
    }
    cmd.push_str(&format!(
        " TMUX=\"$TMUX\" TERM=tmux-256color {}",
        env!("CARGO_BIN_EXE_taskdeck")
    ));
    let sock = socket.display().to_string();
    let conf = conf.display().to_string();
    /// The private server goes, whatever the test's end.
    struct Server(String);
    impl Drop for Server {
        fn drop(&mut self) {
            let _ = std::process::Command::new("tmux")
                .args(["-S", &self.0, "kill-server"])
                .output();
        }
    }
    let server = Server(sock.clone());
    let mut tui = Tui::spawn_program(
        &home,
        "tmux",
        &[
            "-S",
            &sock,
            "-f",
            &conf,
            "new-session",
            "-x",
            "120",
            "-y",
            "40",
            &cmd,
        ],
        &[],
        120,
        40,
    );
    tui.wait_for("Alice Martin", WAIT);
    tui.send("i");
    tui.wait_for("read just now", WAIT);
    tui.send("\x1b");
    tui.wait_until("the inbox closed", WAIT, |s| !s.contains("┌ Inbox"));
    mention(&svc, &task);
    let plain = format!("\x1b]9;taskdeck: Bob Okafor mentioned you on {label}");
    wait_raw(&tui, "OSC 9 out of tmux", plain.as_bytes(), NEXT_WALKS);
    let raw = tui.raw();
    assert!(
        find(&raw, b"\x1bPtmux;").is_none(),
        "tmux unwrapped it: the terminal outside never sees the wrapper"
    );
    drop(server);
    tui.wait_exit(WAIT);
}
