//! The guarantees of "never lose work, never trust the wire", proven on the
//! real binary in a pseudo-terminal against a sandbox started in the test:
//! drafts survive kill -9, a failed send keeps the text and is never
//! retried, requester replies say what really happened, escape sequences in
//! service text never reach the terminal, the UI stays responsive under
//! faults, and the API key is written nowhere.

mod support;

use std::time::Duration;
use support::*;
use taskdeck::sandbox::SandboxOptions;

use support::{launch_ready as launch, open_number as open};

const COLS: u16 = 120;
const ROWS: u16 = 40;

fn header(tui: &Tui) -> String {
    tui.screen().lines().next().unwrap_or_default().to_string()
}

#[test]
fn requester_replies_say_draft_or_sent_as_the_service_answered() {
    let svc = Service::small();
    let home = Home::new();
    let tui = launch(&svc, &home);
    for (n, text, expect) in [
        (1, "Redlines attached", "DRAFT — staged"),
        (2, "Fee cap confirmed", "#2: reply sent"),
    ] {
        open(&tui, n);
        tui.send("R");
        tui.wait_for("Reply to the requester", WAIT);
        tui.send(text);
        tui.wait_for(text, WAIT);
        tui.send("\x13");
        tui.wait_for(expect, WAIT);
        let id = svc.task_id(&format!("#{n}"));
        let sent = svc.requests_matching("POST", &format!("/api/v1/tasks/{id}/thread"));
        assert_eq!(sent.len(), 1, "one reply posted for #{n}");
    }
}

#[test]
fn escape_sequences_in_a_title_never_reach_the_terminal() {
    let svc = Service::start(SandboxOptions {
        tasks: 60,
        quirks: true,
        ..Default::default()
    });
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    tui.send("/Terminal escapes\r");
    tui.wait_for("\"Terminal escapes\" | 1 (all)", WAIT);
    tui.send("\r");
    // The detail shows the stand-ins (U+241B for ESC) instead of the codes.
    tui.wait_for("␛[2J cleared?", WAIT);
    tui.wait_for("␛]52;c;aGk=", WAIT);
    tui.wait_for("␛[31mred␛[0m", WAIT);
    tui.send("q");
    tui.wait_exit(WAIT);

    let raw = tui.raw();
    let has = |needle: &[u8]| raw.windows(needle.len()).any(|w| w == needle);
    assert!(!has(b"\x1b]52"), "no OSC 52 clipboard write");
    assert!(!has(b"\x1b]0;"), "no window title change");
    assert!(
        !has(b"\x1b[2J cleared"),
        "the title's clear-screen is not sent"
    );
    assert!(!has(b"\x1b[31mred"), "the description's colour is not sent");
    assert!(!has("\u{202e}".as_bytes()), "no bidi override");
    assert!(!has("\u{9b}".as_bytes()), "no 8-bit CSI");
    assert_restored(&raw);
}

#[test]
fn under_faults_input_is_never_blocked_and_the_list_recovers() {
    // Enough tasks for several pages, so that every third request failing
    // hits the walk.
    let svc = Service::start(SandboxOptions::default());
    let home = Home::new();
    // No read-ahead: the failures counted below land on the list's pages,
    // not on reads of the tasks around the cursor.
    let cfg = home.root().join("no-prefetch.toml");
    std::fs::write(&cfg, "prefetch = false\n").unwrap();
    let mut env = svc.env();
    env.push(("TASKDECK_CONFIG".into(), cfg.display().to_string()));
    let tui = Tui::spawn(&home, &[], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| {
        s.contains("(more below)") || s.contains("(all)")
    });

    // Every answer takes 3 s: the refresh (the list and the current task)
    // is in flight while the user works.
    svc.set_faults("delay=3000");
    tui.send("r");
    tui.wait_until(
        "the in-flight requests in the header",
        Duration::from_secs(1),
        |_| header(&tui).contains("2 requests"),
    );
    tui.send("j");
    tui.send("?");
    tui.wait_until(
        "help while the request is still in flight",
        Duration::from_secs(1),
        |s| s.contains("Help — type to filter") && header(&tui).contains("request"),
    );
    tui.key("\x1b");
    tui.wait_until("the stalled request answered", WAIT, |s| {
        !header(&tui).contains("request") && s.contains("(more below)")
    });

    // Every third request fails with 503: GETs are retried, the whole list
    // loads, and nothing is left failed. Which requests are the third
    // depends on what else is read meanwhile (the current task, the
    // inbox): a refresh whose 503s all fell on other reads retries no
    // page, so the refresh is made again (at most 5 times) until one did.
    svc.set_faults("fail_every=3,status=503");
    let mut seen = Vec::new();
    for _ in 0..5 {
        svc.sb.clear_requests();
        tui.send("r");
        tui.wait_until("the refresh under way", WAIT, |s| !s.contains("(all)"));
        let start = std::time::Instant::now();
        while !tui.screen().contains("(all)") {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the list never loaded under faults:\n{}",
                tui.screen()
            );
            tui.send("G");
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(!tui.screen().contains("ERROR"), "{}", tui.screen());
        let gets = svc.requests_matching("GET", "/api/v1/tasks");
        let distinct: std::collections::HashSet<_> = gets.iter().map(|r| r.query.clone()).collect();
        seen.push((gets.len(), distinct.len()));
        if gets.len() > distinct.len() {
            break;
        }
    }
    assert!(
        seen.iter().any(|(gets, pages)| gets > pages),
        "some pages were retried after a 503 (requests, pages of each refresh: {seen:?})"
    );
    svc.set_faults("");
    tui.send(":open #2\r");
    tui.wait_for("▶ #2 ", WAIT);
}

/// Run a CLI command of the binary with the home's environment.
fn cli(home: &Home, extra: &[(String, String)], args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_taskdeck"));
    cmd.args(args).env_clear().current_dir(home.root());
    for (k, v) in home.env().iter().chain(extra.iter()) {
        cmd.env(k, v);
    }
    cmd.stdin(std::process::Stdio::null()).output().unwrap()
}

#[test]
fn the_api_key_is_written_nowhere_even_with_trace_logging() {
    let svc = Service::small();
    let home = Home::new();
    let mut env = svc.env();
    env.push(("TASKDECK_LOG".into(), "trace".into()));
    env.push(("RUST_BACKTRACE".into(), "1".into()));
    let layout = home.root().join("layout.json");
    std::fs::write(
        &layout,
        r#"{"type":"report","blocks":[{"type":"heading","text":"Hi","level":9}]}"#,
    )
    .unwrap();

    let mut outputs: Vec<Vec<u8>> = Vec::new();
    for args in [
        vec!["me"],
        vec!["tasks", "--all"],
        vec!["tasks", "--all", "--json"],
        vec!["validate-layout", layout.to_str().unwrap()],
    ] {
        let out = cli(&home, &env, &args);
        // validate-layout of an invalid layout answers 1, after the request.
        assert!(
            matches!(out.status.code(), Some(0 | 1)) && !out.stdout.is_empty(),
            "{args:?}: {out:?}"
        );
        outputs.push(out.stdout);
        outputs.push(out.stderr);
    }
    // A failing request is logged too (with its error).
    svc.set_faults("fail_every=1,status=401");
    let out = cli(&home, &env, &["me"]);
    assert!(!out.status.success());
    outputs.push(out.stdout);
    outputs.push(out.stderr);
    svc.set_faults("");

    // A TUI session: a comment sent, a requester reply typed, then a hang-up.
    let mut tui = Tui::spawn(&home, &[], &env, COLS, ROWS);
    tui.wait_for("Alice Martin", WAIT);
    open(&tui, 2);
    tui.send("c");
    tui.wait_for("Internal comment", WAIT);
    tui.send("Sent with trace logging on");
    tui.wait_for("Sent with trace logging on", WAIT);
    tui.send("\x13");
    tui.wait_for("comment", WAIT);
    tui.wait_until("the composer closed", WAIT, |s| !s.contains("ctrl-s send"));
    tui.send("R");
    tui.wait_for("Reply to the requester", WAIT);
    tui.send("left unsent at quit");
    tui.wait_for("left unsent at quit", WAIT);
    // The connection drops: the draft is saved on the way out.
    tui.signal(libc::SIGHUP);
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 129);
    let id2 = svc.task_id("#2");
    assert_eq!(
        std::fs::read_to_string(svc.draft_file(&home, KEY, &id2, "requester")).unwrap(),
        "left unsent at quit",
        "the text typed before the hang-up is kept"
    );
    outputs.push(tui.raw());
    assert_eq!(
        svc.requests_matching("POST", "/comments").len(),
        1,
        "the comment went out"
    );

    let files = home.files();
    let log = files
        .iter()
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("taskdeck.log")
        })
        .expect("a log file was written");
    let log_text = std::fs::read_to_string(log).unwrap();
    assert!(
        log_text.contains("TRACE") || log_text.contains("DEBUG"),
        "trace logging is on, so the test means something"
    );
    assert!(
        files
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "txt")),
        "a draft was kept: {files:?}"
    );
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        assert!(
            !bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
            "the API key is in {}",
            f.display()
        );
    }
    for (i, o) in outputs.iter().enumerate() {
        assert!(
            !o.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
            "the API key is in output #{i}: {}",
            String::from_utf8_lossy(o)
        );
    }
}

#[test]
fn sigabrt_restores_the_terminal_and_dies_of_sigabrt() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    tui.signal(libc::SIGABRT);
    let st = tui.wait_exit(WAIT);
    assert!(
        st.signal().is_some_and(|s| s.contains("Abort")),
        "still the default action of SIGABRT: {st:?}"
    );
    assert_restored(&tui.raw());
    if let Some(after) = tui.local_flags() {
        assert_ne!(after & libc::ICANON, 0, "canonical mode back");
        assert_ne!(after & libc::ECHO, 0, "echo back");
    }
}
