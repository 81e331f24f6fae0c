//! Views, custom commands and the board: the real binary in a
//! pseudo-terminal against a sandbox started inside the test, with a
//! config file holding a `[[views]]` and `[[commands]]` entries.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};
use support::*;
use taskdeck::sandbox::RecordedRequest;

const COLS: u16 = 120;
const ROWS: u16 = 40;

fn config(home: &Home, ids: &Path) -> Vec<(String, String)> {
    let cfg = home.root().join("config.toml");
    std::fs::write(
        &cfg,
        format!(
            r#"# test config
[[views]]
name = "Due today"
filter = "assigned=me to=today"
key = "7"

[[commands]]
key = "O"
description = "Log the id"
run = 'printf "%s\n" {{id}} >> {ids}'

[[commands]]
key = "I"
description = "Say hello with the terminal"
run = 'printf "INTERACTIVE %s\n" {{display_id}}; read answer'
interactive = true
"#,
            ids = ids.display()
        ),
    )
    .unwrap();
    vec![("TASKDECK_CONFIG".into(), cfg.display().to_string())]
}

fn launch(svc: &Service, home: &Home, ids: &Path) -> Tui {
    let mut env = svc.env();
    env.extend(config(home, ids));
    let tui = Tui::spawn(home, &[], &env, COLS, ROWS);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    tui
}

fn query_param<'a>(q: &'a str, name: &str) -> Option<&'a str> {
    q.split('&')
        .find_map(|kv| kv.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
}

fn wait_requests(svc: &Service, method: &str, suffix: &str, n: usize) -> Vec<RecordedRequest> {
    let start = Instant::now();
    loop {
        let r = svc.requests_matching(method, suffix);
        if r.len() >= n || start.elapsed() > WAIT {
            return r;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// The `#N` of the row under the list cursor (`> #12 …`).
fn cursor_row(screen: &str) -> String {
    let line = screen
        .lines()
        .find(|l| l.contains("> #"))
        .unwrap_or_else(|| panic!("no cursor row:\n{screen}"));
    let at = line.find("> #").unwrap() + 2;
    line[at..]
        .chars()
        .take_while(|c| *c == '#' || c.is_ascii_digit())
        .collect()
}

#[test]
fn a_view_from_the_config_is_reachable_by_its_key_and_sends_my_id_and_the_end_of_today() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home, &home.root().join("ids.txt"));
    svc.sb.clear_requests();
    tui.send("7");
    tui.wait_for("Tasks: Due today", WAIT);
    let lists = wait_requests(&svc, "GET", "/api/v1/tasks", 1);
    assert_eq!(lists.len(), 1, "one walk: {lists:?}");
    let q = lists[0].query.clone().unwrap_or_default();
    assert_eq!(
        query_param(&q, "assigned_to"),
        Some(svc.user_id(KEY).as_str()),
        "{q}"
    );
    let to = query_param(&q, "complete_by_to").expect("complete_by_to");
    assert!(
        to.contains("23%3A59%3A59") || to.contains("23:59:59"),
        "{q}"
    );
    assert_eq!(query_param(&q, "complete_by_from"), None, "{q}");
    // The switcher counts every view: one first page each.
    svc.sb.clear_requests();
    tui.send("0");
    tui.wait_for("Views — first-page counts", WAIT);
    // Seven built-in views (Mine, overdue the seventh) and Due today.
    let counts = wait_requests(&svc, "GET", "/api/v1/tasks", 8);
    assert_eq!(counts.len(), 8, "{counts:?}");
    // All of Alice's tasks are more than a page: `50+`.
    tui.wait_for("50+", WAIT);
    tui.key("\x1b");
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

#[test]
fn a_custom_command_writes_the_current_tasks_id_and_an_interactive_one_gets_the_terminal() {
    let svc = Service::small();
    let home = Home::new();
    let ids = home.root().join("ids.txt");
    let mut tui = launch(&svc, &home, &ids);
    // The cursor's move is waited for (a fixed pause read the row before
    // the move under load, and the command then ran on the other task).
    let first = cursor_row(&tui.screen());
    tui.send("j");
    tui.wait_until("the cursor on the second row", WAIT, |s| {
        s.contains("> #") && cursor_row(s) != first
    });
    let number = cursor_row(&tui.screen());
    let id = svc.task_id(&number);
    tui.send("O");
    tui.wait_for("log-the-id on", WAIT);
    tui.wait_for(": done", WAIT);
    assert_eq!(std::fs::read_to_string(&ids).unwrap(), format!("{id}\n"));

    tui.send("I");
    tui.wait_for(&format!("INTERACTIVE {number}"), WAIT);
    tui.send("\r");
    tui.wait_for("say-hello-with-the-terminal on", WAIT);
    tui.wait_for("Alice Martin", WAIT);
    // ctrl-c while it has the terminal interrupts the command, not taskdeck.
    tui.send("I");
    tui.wait_for(&format!("INTERACTIVE {number}"), WAIT);
    std::thread::sleep(Duration::from_millis(200));
    tui.send("\x03");
    tui.wait_for("say-hello-with-the-terminal on", WAIT);
    tui.wait_for("failed", WAIT);
    tui.wait_for("Alice Martin", WAIT);
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
    assert_restored(&tui.raw());
}

#[test]
fn the_board_shows_a_column_per_status_and_l_sends_one_patch_with_the_next_status() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home, &home.root().join("ids.txt"));
    tui.send(":board\r");
    tui.wait_for("Board: All", WAIT);
    let screen = tui.screen();
    for col in ["not started (", "in progress (", "waiting (", "completed ("] {
        assert!(screen.contains(col), "{col}: {screen}");
    }
    // The card under the cursor is the current task (`>`).
    let number = {
        let line = screen.lines().find(|l| l.contains(">#")).unwrap();
        let at = line.find(">#").unwrap() + 1;
        line[at..]
            .chars()
            .take_while(|c| *c == '#' || c.is_ascii_digit())
            .collect::<String>()
    };
    let before = svc.sb.task_json(&number).unwrap();
    let order = [
        "not_started",
        "in_progress",
        "waiting_on_external",
        "completed",
    ];
    let i = order
        .iter()
        .position(|s| *s == before["status"].as_str().unwrap())
        .unwrap();
    // Completed is the last: then H is the move that exists.
    let (key, next) = if i + 1 < order.len() {
        ("L", order[i + 1])
    } else {
        ("H", order[i - 1])
    };
    svc.sb.clear_requests();
    tui.send(key);
    wait_requests(&svc, "PATCH", "", 1);
    std::thread::sleep(Duration::from_millis(300));
    let patches: Vec<_> = svc
        .requests()
        .into_iter()
        .filter(|r| r.method == "PATCH")
        .collect();
    assert_eq!(patches.len(), 1, "{patches:?}");
    assert!(patches[0].path.ends_with(before["id"].as_str().unwrap()));
    assert_eq!(patches[0].body, Some(serde_json::json!({ "status": next })));
    tui.wait_for(&format!("{number}: status →"), WAIT);
    assert_eq!(svc.sb.task_json(&number).unwrap()["status"], next);
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

/// Issue 22, point 17, with the real binary: a task whose title is shell
/// code. A command written for earlier versions (`'sh' -c {title}`) is left
/// out with a warning saying what to write instead, and runs nothing; the
/// title reaches a command as `$TASKDECK_TITLE`, exactly, as data.
#[test]
fn a_hostile_title_reaches_a_custom_command_only_as_data() {
    let svc = Service::small();
    let home = Home::new();
    let marker = home.root().join("pwned");
    let out = home.root().join("title.txt");
    let cfg = home.root().join("config.toml");
    std::fs::write(
        &cfg,
        format!(
            r#"[[commands]]
name = "sh-title"
description = "Old style"
run = "'sh' -c {{title}}"

[[commands]]
name = "note"
description = "Note the title"
run = 'printf %s "$TASKDECK_TITLE" > {out}'
"#,
            out = out.display()
        ),
    )
    .unwrap();
    let mut env = svc.env();
    env.push(("TASKDECK_CONFIG".into(), cfg.display().to_string()));
    let tui = Tui::spawn(&home, &[], &env, COLS, ROWS);
    tui.wait_for("\"sh-title\" is disabled", WAIT);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    let number = cursor_row(&tui.screen());
    let id = svc.task_id(&number);
    let title = format!(
        "$(touch {}); touch {} '\"",
        marker.display(),
        marker.display()
    );
    let status = svc.rt.block_on(async {
        reqwest::Client::new()
            .patch(format!("{}/api/v1/tasks/{id}", svc.sb.base_url()))
            .bearer_auth(KEY)
            .json(&serde_json::json!({ "title": title }))
            .send()
            .await
            .unwrap()
            .status()
    });
    assert!(status.is_success(), "{status}");
    tui.send("r");
    tui.wait_for("$(touch", WAIT);
    assert_eq!(cursor_row(&tui.screen()), number);

    tui.send(":run sh-title\r");
    tui.wait_for("no custom command \"sh-title\"", WAIT);
    tui.send(":run note\r");
    tui.wait_for(&format!("note on {number}: done"), WAIT);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), title);
    assert!(!marker.exists(), "the title ran");
    let mut tui = tui;
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

/// The list's row labels on screen (`#12`), in order.
fn row_labels(screen: &str) -> Vec<String> {
    screen
        .lines()
        // `┃`, the cursor column, the mark column (`»` in the inbox, `*`
        // changed…), then the number.
        .filter_map(|l| {
            let mut c = l.strip_prefix('┃')?.chars();
            c.next()?;
            c.next()?;
            c.as_str().strip_prefix('#')
        })
        .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        .filter_map(|r| r.split_whitespace().next())
        .map(|n| format!("#{n}"))
        .collect()
}

/// #26 §2 and §3 with the real binary: `/` narrows the rows on screen at
/// each key while the service is too slow to have answered; `esc` puts
/// them back with the cursor on its task; a digit switches tabs.
#[test]
fn the_live_filter_narrows_before_any_answer_and_digits_switch_tabs() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home, &home.root().join("ids.txt"));
    tui.wait_for("1 All", WAIT);
    // The rows as one whole frame shows them (read twice alike: a frame
    // arrives in several writes, and a read between them holds parts of
    // two — CI once compared the rows put back with such a read).
    let (first, _) = tui.wait_frame("the first page's rows", WAIT, |s, _| {
        s.contains("6 Mine, open") && row_labels(s).len() > 5
    });
    let before = row_labels(&first);
    let cursor = cursor_row(&first);
    // Said with the failure, if the rows put back differ.
    eprintln!("rows before: {before:?}, cursor {cursor}");
    // From now on no answer comes back within the test.
    svc.set_faults("delay=60000");
    tui.send("/#");
    // Each key narrows the rows on screen (the number typed so far).
    for k in 2..=cursor.len() {
        let typed = &cursor[..k];
        tui.send(&cursor[k - 1..k]);
        tui.wait_until(&format!("the rows narrowed to {typed}"), WAIT, |s| {
            let rows = row_labels(s);
            rows.contains(&cursor) && rows.iter().all(|r| r.starts_with(typed))
        });
    }
    assert!(row_labels(&tui.screen()).len() < before.len());
    assert!(
        tui.screen().contains(&format!("/{cursor}_")),
        "the box on the status line"
    );
    tui.key("\x1b");
    tui.wait_until("the rows back", WAIT, |s| row_labels(s) == before);
    assert_eq!(cursor_row(&tui.screen()), cursor, "the cursor on its task");
    // `3`: the third tab (Involving me), shown current in the title.
    tui.send("3");
    tui.wait_for("Tasks: Involving me", WAIT);
    svc.set_faults("");
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

#[test]
fn filter_completes_with_tab_and_the_word_shown_sends_the_service_value() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home, &home.root().join("ids.txt"));
    // Tab completes the key, then the value as the service names it.
    tui.send(":filter ");
    tui.key("\t");
    tui.wait_for(":filter status=", WAIT);
    tui.send("w");
    tui.key("\t");
    tui.wait_for(":filter status=waiting_on_external", WAIT);
    tui.key("\x1b");
    // The word the STATUS column shows is read as that value.
    svc.sb.clear_requests();
    tui.send(":filter status=waiting");
    tui.key("\r");
    let lists = wait_requests(&svc, "GET", "/api/v1/tasks", 1);
    assert_eq!(lists.len(), 1, "one walk: {lists:?}");
    let q = lists[0].query.clone().unwrap_or_default();
    assert_eq!(
        query_param(&q, "status"),
        Some("waiting_on_external"),
        "{q}"
    );
    tui.wait_for("filter status=waiting_on_external", WAIT);
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}
