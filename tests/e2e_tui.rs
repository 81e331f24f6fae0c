//! The real binary in a pseudo-terminal against a sandbox started inside the
//! test: what the user sees on screen, what reached the service, and the
//! terminal left as it was found.

mod support;

use serde_json::{json, Value};
use std::collections::HashSet;
use std::time::{Duration, Instant};
use support::*;
use taskdeck::sandbox::SandboxOptions;

const COLS: u16 = 120;
const ROWS: u16 = 40;

fn launch(svc: &Service, home: &Home) -> Tui {
    let tui = Tui::spawn(home, &[], &svc.env(), COLS, ROWS);
    tui.wait_for("Alice Martin", WAIT);
    tui
}

fn query_param<'a>(q: &'a str, name: &str) -> Option<&'a str> {
    q.split('&')
        .find_map(|kv| kv.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
}

/// The number in the list title `Tasks: All | 165 (all)`.
fn list_count(screen: &str) -> usize {
    let at = screen.find("Tasks: All | ").expect("list title") + "Tasks: All | ".len();
    screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap()
}

/// Every task Alice can see in the unfiltered list, walked over plain HTTP.
fn raw_walk(svc: &Service) -> HashSet<String> {
    svc.raw_tasks()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect()
}

fn quit(tui: &mut Tui) {
    tui.send("q");
    let st = tui.wait_exit(WAIT);
    assert_eq!(st.exit_code(), 0, "q exits with 0");
}

#[test]
fn header_and_walking_the_list_loads_every_task_once_with_a_constant_limit() {
    let svc = Service::start(SandboxOptions::default());
    let visible = raw_walk(&svc);
    assert!(visible.len() > 100, "the walk needs several pages");
    svc.sb.clear_requests();

    let home = Home::new();
    let mut tui = launch(&svc, &home);
    tui.wait_for("Acme Legal LLP", WAIT);
    tui.wait_for("(more below)", WAIT);

    let start = Instant::now();
    while !tui.screen().contains("(all)") {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the end of the list was never reached:\n{}",
            tui.screen()
        );
        tui.send("G");
        std::thread::sleep(Duration::from_millis(100));
        tui.send("j");
    }
    let shown = list_count(&tui.screen());
    assert_eq!(
        shown,
        visible.len(),
        "the TUI holds as many rows as the service has visible tasks"
    );

    let all: Vec<String> = svc
        .requests_matching("GET", "/api/v1/tasks")
        .into_iter()
        .map(|r| r.query.unwrap_or_default())
        .collect();
    // The inbox walks the tasks involving the user beside the list (the
    // view "All" has no `involving`): pages of its own constant 100.
    let (inbox, pages): (Vec<String>, Vec<String>) = all
        .into_iter()
        .partition(|q| query_param(q, "involving").is_some());
    assert!(
        inbox.iter().all(|q| query_param(q, "limit") == Some("100")),
        "{inbox:?}"
    );
    let limits: HashSet<&str> = pages
        .iter()
        .map(|q| query_param(q, "limit").expect("every page names its limit"))
        .collect();
    assert_eq!(limits.len(), 1, "one limit for every page: {pages:?}");
    let limit: usize = limits.into_iter().next().unwrap().parse().unwrap();
    let cursors: Vec<Option<&str>> = pages.iter().map(|q| query_param(q, "cursor")).collect();
    let distinct: HashSet<_> = cursors.iter().collect();
    assert_eq!(
        distinct.len(),
        cursors.len(),
        "no page fetched twice: {pages:?}"
    );
    assert_eq!(
        cursors.iter().filter(|c| c.is_none()).count(),
        1,
        "exactly one first page"
    );
    let needed = visible.len().div_ceil(limit);
    assert!(
        pages.len() == needed || pages.len() == needed + 1,
        "{} pages for {} tasks at limit {limit}",
        pages.len(),
        visible.len()
    );
    quit(&mut tui);
}

/// Wait for the detail pane (right side) to show a line containing `text`.
fn wait_detail(tui: &Tui, text: &str) {
    tui.wait_until(&format!("detail shows {text:?}"), WAIT, |_| {
        tui.region(COLS * 55 / 100, COLS - COLS * 55 / 100)
            .iter()
            .any(|l| l.contains(text))
    });
}

#[test]
fn palette_edits_send_one_field_and_show_the_answer() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    tui.send(":open #2\r");
    wait_detail(&tui, "▶ #2 ");
    wait_detail(&tui, "Confirm engagement letter with");
    let id = svc.task_id("#2");
    let path = format!("/api/v1/tasks/{id}");

    let cases: [(&str, Value, &str, &str); 5] = [
        (
            "status completed",
            json!({"status": "completed"}),
            "status: completed",
            "status",
        ),
        (
            "priority high",
            json!({"priority": "high"}),
            "priority: high",
            "priority",
        ),
        (
            "due none",
            json!({"complete_by": null}),
            "due: none",
            "complete_by",
        ),
        ("archive", json!({"archived": true}), "ARCHIVED", "archived"),
        (
            "restore",
            json!({"archived": false}),
            "status: completed",
            "archived",
        ),
    ];
    for (cmd, body, shown, field) in cases {
        svc.sb.clear_requests();
        tui.send(&format!(":{cmd}\r"));
        tui.wait_until(&format!(":{cmd} answered and shown"), WAIT, |s| {
            let header = s.lines().next().unwrap_or_default();
            let detail = tui.region(COLS * 55 / 100, COLS - COLS * 55 / 100);
            let on_screen = if cmd == "restore" {
                !detail.iter().any(|l| l.contains("ARCHIVED"))
            } else {
                detail.iter().any(|l| l.contains(shown))
            };
            !svc.requests_matching("PATCH", &path).is_empty()
                && !header.contains("request")
                && on_screen
        });
        let patches = svc.requests_matching("PATCH", &path);
        assert_eq!(patches.len(), 1, ":{cmd} sends exactly one PATCH");
        assert_eq!(patches[0].body.as_ref(), Some(&body), ":{cmd} body");
        let task = svc.sb.task_json("#2").unwrap();
        assert_eq!(&task[field], &body[field], ":{cmd} reached the service");
    }
    quit(&mut tui);
}

#[test]
fn quit_restores_the_terminal() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    tui.wait_for("(more below)", WAIT);
    let during = tui.local_flags().expect("termios of the pty");
    assert_eq!(
        during & libc::ICANON,
        0,
        "raw mode (no canonical input) while running"
    );
    quit(&mut tui);
    assert_restored(&tui.raw());
    let after = tui.local_flags().expect("termios of the pty");
    assert_ne!(after & libc::ICANON, 0, "canonical mode back after quit");
    assert_ne!(after & libc::ECHO, 0, "echo back after quit");
}

fn signal_restores(sig: i32) {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    tui.wait_for("(more below)", WAIT);
    tui.signal(sig);
    let st = tui.wait_exit(WAIT);
    assert_eq!(st.exit_code(), 128 + sig as u32, "exit status says why");
    assert_restored(&tui.raw());
    if let Some(after) = tui.local_flags() {
        assert_ne!(after & libc::ICANON, 0, "canonical mode back");
    }
}

#[test]
fn sigterm_restores_the_terminal_and_exits_143() {
    signal_restores(libc::SIGTERM);
}

#[test]
fn sighup_restores_the_terminal_and_exits_129() {
    signal_restores(libc::SIGHUP);
}

#[test]
fn a_panic_restores_the_terminal_and_shows_no_secret() {
    let svc = Service::small();
    let home = Home::new();
    let mut extra = svc.env();
    extra.push(("TASKDECK_DEBUG_PANIC".into(), "1".into()));
    extra.push(("RUST_BACKTRACE".into(), "1".into()));
    let mut tui = Tui::spawn(&home, &[], &extra, 100, 30);
    let st = tui.wait_exit(WAIT);
    assert_eq!(st.exit_code(), 101, "a panic exits 101");
    let raw = tui.raw();
    let text = String::from_utf8_lossy(&raw);
    assert!(
        text.contains("deliberate test panic"),
        "the panic message is shown"
    );
    // The terminal was restored before the message was printed.
    let msg_at = text.find("deliberate test panic").unwrap();
    for off in ["\x1b[?1049l", "\x1b[?2004l"] {
        let at = text
            .rfind(off)
            .unwrap_or_else(|| panic!("{off:?} never written"));
        assert!(at < msg_at, "{off:?} must come before the panic message");
    }
    let shown = text.rfind("\x1b[?25h").expect("cursor shown");
    assert!(
        shown > text.rfind("\x1b[?25l").unwrap(),
        "cursor shown after last hidden"
    );
    if let Some(after) = tui.local_flags() {
        assert_ne!(after & libc::ICANON, 0, "canonical mode back");
    }
    assert!(
        !text.contains("demo-alice-acme"),
        "the key is not in the panic output"
    );
    for f in home.files() {
        let body = std::fs::read(&f).unwrap_or_default();
        assert!(
            !String::from_utf8_lossy(&body).contains("demo-alice-acme"),
            "key in {f:?}"
        );
    }
}

/// The acceptance sequence of the one-current-task issue: a task opened by
/// id that no list holds, Esc, then a reply — it goes to the task the
/// detail shows, never to the list's row.
#[test]
fn open_by_id_then_esc_then_reply_goes_to_the_opened_task() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    tui.wait_for("(more below)", WAIT);
    // #4 is archived: in no list.
    let id = svc.task_id("#4");
    tui.send(&format!(":open {id}\r"));
    tui.wait_for("▶ #4 ", WAIT);
    tui.wait_for("not in this list", WAIT);
    tui.key("\x1b");
    tui.wait_for("[list]", WAIT);
    let screen = tui.screen();
    assert!(
        screen.contains("#4 "),
        "the detail still shows #4:\n{screen}"
    );
    tui.send(":reply\r");
    tui.wait_for("Reply to the requester — #4", WAIT);
    tui.send("Archived copy sent");
    tui.wait_for("Archived copy sent", WAIT);
    tui.send("\x13");
    tui.wait_until("the reply posted", WAIT, |_| {
        svc.requests()
            .iter()
            .any(|r| r.method == "POST" && r.path.ends_with("/thread"))
    });
    let posts: Vec<_> = svc
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert_eq!(posts.len(), 1, "{posts:?}");
    assert_eq!(posts[0].path, format!("/api/v1/tasks/{id}/thread"));
    tui.wait_for("#4:", WAIT);
    tui.send("q");
    tui.wait_exit(WAIT);
}

/// `j` then `x` archives the row under the cursor, also with a task open.
#[test]
fn j_then_x_archives_the_row_under_the_cursor() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    tui.wait_for("(more below)", WAIT);
    tui.send("\r"); // the first row's detail, focused
    tui.wait_for("[detail]", WAIT);
    tui.key("\x1b");
    tui.wait_for("[list]", WAIT);
    // The row under the first one.
    let screen = tui.screen();
    let rows: Vec<&str> = screen
        .lines()
        .filter(|l| {
            let rest = l.strip_prefix("┃> #").or_else(|| l.strip_prefix("┃  #"));
            rest.is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
        .collect();
    assert!(rows[0].starts_with("┃> #"), "{screen}");
    let second = rows[1]
        .trim_start_matches("┃  ")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    tui.send("j");
    // The second row is current: its number is in the detail's title.
    tui.wait_for(&format!("┌{second} "), WAIT);
    svc.sb.clear_requests();
    tui.send("x");
    tui.wait_for(&format!("archived {second} — z restores it"), WAIT);
    let id = svc.task_id(&second);
    let patches = svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"));
    assert_eq!(patches.len(), 1);
    assert_eq!(patches[0].body, Some(json!({"archived": true})));
    tui.send("q");
    tui.wait_exit(WAIT);
}

#[test]
fn term_dumb_is_refused_with_one_line_and_exit_2() {
    let svc = Service::small();
    let home = Home::new();
    let mut env = svc.env();
    env.push(("TERM".into(), "dumb".into()));
    let mut tui = Tui::spawn(&home, &[], &env, 100, 30);
    let st = tui.wait_exit(WAIT);
    assert_eq!(st.exit_code(), 2);
    let screen = tui.screen();
    assert!(screen.contains("TERM=dumb"), "{screen}");
    assert!(svc.requests().is_empty(), "nothing was sent");
}

#[test]
fn a_sixteen_colour_terminal_gets_classic_colour_codes() {
    let svc = Service::small();
    for (term, classic) in [("xterm", true), ("xterm-256color", false)] {
        let home = Home::new();
        let mut env = svc.env();
        env.push(("TERM".into(), term.into()));
        let mut tui = Tui::spawn(&home, &[], &env, 100, 30);
        tui.wait_until("the first page", WAIT, |s| {
            s.contains("(more below)") || s.contains("(all)")
        });
        tui.send("q");
        tui.wait_exit(WAIT);
        let raw = String::from_utf8_lossy(&tui.raw()).into_owned();
        let coded = raw.contains("38;5;");
        assert_eq!(
            !coded, classic,
            "{term}: 256-colour codes for named colours"
        );
        if classic {
            assert!(
                (30..38)
                    .chain(90..98)
                    .any(|n| raw.contains(&format!("\x1b[{n};"))
                        || raw.contains(&format!("\x1b[{n}m"))),
                "{term}: classic codes"
            );
        }
    }
}
