//! The real binary as a process, against a sandbox started in the test.
//! The user's config and state are never touched: TASKDECK_CONFIG and
//! XDG_STATE_HOME point into a temporary directory.

mod cli_env;

use cli_env::*;
use serde_json::Value;
use std::process::Output;
use taskdeck::sandbox::{Sandbox, SandboxOptions};

async fn sandbox(quirks: bool) -> Sandbox {
    Sandbox::start_local(SandboxOptions {
        tasks: 300,
        quirks,
        ..Default::default()
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn me_human_and_json() {
    let sb = sandbox(false).await;
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    let o = env.run(&["me"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(&sb.keys[0].user_name), "{out}");
    assert!(out.contains(&sb.keys[0].org_name), "{out}");
    let o = env.run(&["me", "--json"]).await;
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["user_email"], sb.keys[0].user_email.as_str());

    // `--assigned-to me` resolves through the identity lookup.
    let o = env
        .run(&["tasks", "--assigned-to", "me", "--limit", "100", "--json"])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let items: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert!(!items.is_empty());
    for t in &items {
        assert_eq!(t["assigned_to"]["id"], v["user_id"], "{t}");
    }
    let uid = v["user_id"].as_str().unwrap();
    assert!(sb.requests().iter().any(|r| r.path == "/api/v1/tasks"
        && r.query
            .as_deref()
            .unwrap_or("")
            .contains(&format!("assigned_to={uid}"))));

    // The log went to the state dir, never to the terminal, and holds no key.
    let log = std::fs::read_to_string(env.dir.path().join("state/taskdeck/taskdeck.log"))
        .unwrap_or_default();
    assert!(!log.contains(&sb.keys[0].key));
}

#[tokio::test]
async fn bad_key_exits_4_with_one_line() {
    let sb = sandbox(false).await;
    let env = Env::for_sandbox(&sb, "wrong-key");
    let o = env.run(&["tasks"]).await;
    assert_eq!(o.status.code(), Some(4));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("taskdeck: listing tasks failed: authentication failed (401)"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}

#[tokio::test]
async fn service_failure_exits_1_and_usage_exits_2() {
    let sb = sandbox(false).await;
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    sb.set_faults("fail_every=1,status=500".parse().unwrap());
    let o = env.run(&["me"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("500"), "{}", stderr(&o));
    sb.set_faults(Default::default());

    for args in [
        &["tasks", "--limit", "0"][..],
        &["tasks", "--limit", "101"],
        &["tasks", "--bogus"],
        &["--api-key", "x", "me"],
        &["tasks", "--due-from", "next week"],
    ] {
        let o = env.run(args).await;
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }

    // No configuration at all: instructions, exit 2, no hang.
    let bare = Env::new();
    for args in [&[][..], &["me"]] {
        let o = bare.run(args).await;
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(
            err.contains("TASKDECK_BASE_URL") && err.contains("taskdeck demo"),
            "{err}"
        );
    }
}

#[tokio::test]
async fn tasks_all_json_is_lossless_and_keeps_the_limit() {
    let sb = sandbox(true).await;
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    sb.clear_requests();
    let o = env
        .run(&["tasks", "--all", "--limit", "37", "--json"])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let items: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();

    let gets: Vec<_> = sb
        .requests()
        .into_iter()
        .filter(|r| r.method == "GET" && r.path == "/api/v1/tasks")
        .collect();
    assert!(gets.len() > 1);
    for r in &gets {
        let q = r.query.clone().unwrap_or_default();
        assert!(q.split('&').any(|p| p == "limit=37"), "{q}");
    }

    // Every visible task exactly once: compare with a direct walk.
    let client = sb.client(0);
    let mut expected = Vec::new();
    let mut cursor = None;
    loop {
        let p = client
            .list_tasks_raw(&Default::default(), 100, cursor.as_deref())
            .await
            .unwrap();
        expected.extend(p.items.iter().map(|i| {
            serde_json::from_str::<Value>(i.get()).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        }));
        match p.cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let mut got: Vec<String> = items
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got.len(), expected.len());
    got.sort();
    got.dedup();
    expected.sort();
    assert_eq!(got, expected);

    // Unknown fields survive, and the unreadable item is there as sent.
    let text = stdout(&o);
    assert!(text.contains("\"x_sla\""), "unknown field lost");
    assert!(
        items.iter().any(|v| v["title"].is_number()),
        "unreadable item missing"
    );
    assert!(items.iter().any(|v| v["status"] == "blocked"));
}

#[tokio::test]
async fn human_table_is_safe_and_colourless_off_a_tty() {
    let sb = sandbox(true).await;
    let mut env = Env::for_sandbox(&sb, &sb.keys[0].key);
    let o = env.run(&["tasks", "--all", "--limit", "100"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // Not a terminal: no colour and no raw escapes (the quirk titles carry some).
    assert!(!out.contains('\u{1b}'), "ESC reached stdout");
    assert!(!out
        .chars()
        .any(|c| c != '\n' && taskdeck::text::is_dangerous(c)));
    assert!(out.contains("Terminal escapes ␛[2J"), "{out}");
    assert!(out.contains("unreadable item"), "{out}");
    // Not a terminal: the columns fit 100, and every title is whole
    // (issue 32 §11: a script gets whole titles, never cut with `…`).
    let header = out.lines().next().unwrap();
    assert!(unicode_width(header) <= 100, "too wide: {header}");
    let o = env
        .run(&["tasks", "--all", "--limit", "100", "--json"])
        .await;
    let items: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    let mut titles = 0;
    for t in items.iter().filter_map(|v| v["title"].as_str()) {
        let shown = taskdeck::text::clean(t);
        assert!(out.contains(shown.trim()), "cut: {shown}\n{out}");
        titles += 1;
    }
    assert!(titles > 10);

    env.set("NO_COLOR", "1");
    env.set("CLICOLOR_FORCE", "1");
    let o = env.run(&["tasks", "--limit", "30"]).await;
    assert!(!o.stdout.contains(&0x1b), "NO_COLOR output has an ESC byte");

    // CLICOLOR_FORCE alone does colour: the assertion above can fail.
    env.vars.retain(|(k, _)| k != "NO_COLOR");
    let o = env.run(&["tasks", "--limit", "30"]).await;
    assert!(o.stdout.contains(&0x1b));
}

fn unicode_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

#[tokio::test]
async fn human_table_honours_columns_off_a_tty() {
    let sb = sandbox(true).await;
    let mut env = Env::for_sandbox(&sb, &sb.keys[0].key);
    // The layout follows COLUMNS (its header); a title wider than its
    // column is written whole off a terminal (issue 32 §11).
    let widest = |o: &Output| stdout(o).lines().next().map(unicode_width).unwrap_or(0);

    let o = env.run(&["tasks", "--limit", "100"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let default = widest(&o);
    assert!(default > 60 && default <= 100, "{default}");

    env.set("COLUMNS", "60");
    let o = env.run(&["tasks", "--limit", "100"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(widest(&o) <= 60, "{}", stdout(&o));

    // Not a positive integer: ignored.
    for bad in ["0", "-3", "wide"] {
        env.set("COLUMNS", bad);
        let o = env.run(&["tasks", "--limit", "100"]).await;
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(widest(&o), default, "COLUMNS={bad}");
    }
}

#[tokio::test]
async fn due_filters_take_the_tuis_forms() {
    let sb = sandbox(false).await;
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    let now = jiff::Timestamp::now();
    let expect = |s: &str, lower: bool| taskdeck::app::dates::parse_bound(s, now, lower).unwrap();
    for (flag, value, param, want) in [
        (
            "--due-from",
            "today",
            "complete_by_from",
            expect("today", true),
        ),
        ("--due-to", "+2w", "complete_by_to", expect("+2w", false)),
        (
            "--due-to",
            "tomorrow",
            "complete_by_to",
            expect("tomorrow", false),
        ),
        (
            "--due-from",
            "2026-12-01",
            "complete_by_from",
            expect("2026-12-01", true),
        ),
    ] {
        sb.clear_requests();
        let o = env.run(&["tasks", flag, value, "--json"]).await;
        assert_eq!(o.status.code(), Some(0), "{value}: {}", stderr(&o));
        let sent = sb
            .requests()
            .into_iter()
            .filter(|r| r.path == "/api/v1/tasks")
            .filter_map(|r| r.query)
            .collect::<Vec<_>>();
        let pair = format!("{param}={}", want.replace(':', "%3A"));
        assert!(
            sent.iter().any(|q| q.split('&').any(|p| p == pair)),
            "{value}: {pair} not in {sent:?}"
        );
    }

    sb.clear_requests();
    // 26-12-01 was read as year 26 and sent.
    for bad in ["next week", "none", "+3x", "+", "26-12-01", "2026-02-30"] {
        let o = env.run(&["tasks", "--due-to", bad]).await;
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
        assert!(err.starts_with("taskdeck: --due-to: "), "{err}");
        assert!(o.stdout.is_empty());
    }
    assert!(sb.requests().is_empty(), "a bad filter reached the service");
}

#[tokio::test]
async fn status_and_priority_are_checked_locally() {
    let sb = sandbox(false).await;
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    sb.clear_requests();
    for (args, listed) in [
        (
            &["tasks", "--status", "in_progress,done"][..],
            "not_started, in_progress, waiting_on_external (waiting), completed",
        ),
        (
            &["tasks", "--priority", "critical"],
            "urgent, high, medium, low, no_priority (-)",
        ),
    ] {
        let o = env.run(args).await;
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(listed), "{err}");
        assert!(
            err.contains("\"done\"") || err.contains("\"critical\""),
            "{err}"
        );
    }
    assert!(sb.requests().is_empty(), "a bad value reached the service");
    // An empty value is no value: every enum-valued flag, one rule, lists
    // the values it accepts (the palette's short `give a priority` is not
    // the CLI's answer).
    for (args, listed) in [
        (
            &["tasks", "--priority", ""][..],
            "--priority: give a priority (use urgent, high, medium, low, no_priority (-))",
        ),
        (&["tasks", "--priority", "  "], "--priority: give a priority (use urgent,"),
        (
            &["tasks", "--status", ""],
            "--status: give a status (use not_started, in_progress, waiting_on_external (waiting), completed)",
        ),
        (&["tasks", "--status", ","], "--status: give a status (use not_started,"),
    ] {
        let o = env.run(args).await;
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(listed), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    assert!(
        sb.requests().is_empty(),
        "an empty value reached the service"
    );

    let o = env
        .run(&[
            "tasks",
            "--status",
            "in_progress, Waiting_On_External",
            "--priority",
            "urgent",
            "--json",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let items: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    for t in &items {
        assert_eq!(t["priority"], "urgent", "{t}");
        assert!(
            t["status"] == "in_progress" || t["status"] == "waiting_on_external",
            "{t}"
        );
    }
    // The words the TUI shows, and unique beginnings, are read as it reads
    // them; the service gets its own values.
    sb.clear_requests();
    let o = env
        .run(&[
            "tasks",
            "--status",
            "waiting,in_p",
            "--priority",
            "urg",
            "--json",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sent = sb
        .requests()
        .into_iter()
        .filter(|r| r.path == "/api/v1/tasks")
        .filter_map(|r| r.query)
        .collect::<Vec<_>>();
    for pair in [
        "status=waiting_on_external%2Cin_progress",
        "priority=urgent",
    ] {
        assert!(
            sent.iter().any(|q| q.split('&').any(|p| p == pair)),
            "{pair} not in {sent:?}"
        );
    }
}

#[tokio::test]
async fn a_name_or_email_where_an_id_is_wanted_exits_2_before_sending() {
    let sb = Sandbox::start_local(SandboxOptions::default())
        .await
        .unwrap();
    let env = Env::for_sandbox(&sb, "demo-alice-acme");
    for (flag, value) in [
        ("--assigned-to", "bob@acme.test"),
        ("--involving", "Bob Okafor"),
        ("--team-id", "Litigation team"),
    ] {
        sb.clear_requests();
        let o = env.run(&["tasks", flag, value]).await;
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}");
        assert!(err.contains("takes an id") && err.contains("jq"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(
            sb.requests().iter().all(|r| r.path != "/api/v1/tasks"),
            "nothing listed"
        );
    }
}

#[tokio::test]
async fn the_tui_without_a_terminal_says_ssh_t_and_exits_2() {
    let sb = sandbox(false).await;
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    sb.clear_requests();
    // stdout is a pipe here, as with `ssh host taskdeck` (no `-t`).
    for args in [&[][..], &["demo"]] {
        let o = env.run(args).await;
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("needs a terminal") && err.contains("ssh -t"),
            "{err}"
        );
        assert_eq!(
            err.lines().next().map(|l| l.starts_with("taskdeck: ")),
            Some(true)
        );
    }
    assert!(sb.requests().is_empty(), "nothing was sent");
}

/// Today's `tasks --all --json` output for `items`: one array of the items
/// exactly as received.
fn whole_array(items: &[Box<serde_json::value::RawValue>]) -> String {
    let joined: Vec<&str> = items.iter().map(|i| i.get()).collect();
    taskdeck::text::escape_json_controls(&format!("[{}]\n", joined.join(","))).into_owned()
}

#[tokio::test]
async fn tasks_all_streams_the_same_output_and_asks_the_largest_page() {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 4_000,
        quirks: true,
        ..Default::default()
    })
    .await
    .unwrap();
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    let client = sb.client(0);
    let (items, more) =
        taskdeck::cli::commands::walk_pages(&client, &Default::default(), 100, true, 1_000)
            .await
            .unwrap();
    assert!(!more);
    assert!(
        items.len() > 2 * taskdeck::cli::stream::HOLD_ITEMS,
        "long enough to be written page by page: {}",
        items.len()
    );
    let list_limits = |sb: &Sandbox| -> Vec<String> {
        sb.requests()
            .into_iter()
            .filter(|r| r.method == "GET" && r.path == "/api/v1/tasks")
            .map(|r| {
                let q = r.query.clone().unwrap_or_default();
                q.split('&')
                    .find(|p| p.starts_with("limit="))
                    .unwrap_or("none")
                    .to_string()
            })
            .collect()
    };

    // JSON: byte for byte what the whole walk printed at once.
    sb.clear_requests();
    let o = env.run(&["tasks", "--all", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), whole_array(&items));
    let parsed: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(parsed.len(), items.len());
    let limits = list_limits(&sb);
    assert_eq!(limits.len(), items.len().div_ceil(100));
    assert!(limits.iter().all(|l| l == "limit=100"), "{limits:?}");

    // The table: a header no wider than the output and one line per task
    // in the walk's order; off a terminal each title is whole (issue 32
    // §11: was "no line wider than the output", which cut titles).
    let o = env.run(&["tasks", "--all"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), items.len() + 1);
    assert!(lines[0].starts_with("ID "), "{}", lines[0]);
    assert!(unicode_width(lines[0]) <= 100, "too wide: {}", lines[0]);
    for (line, item) in lines[1..].iter().zip(&items) {
        let v: Value = serde_json::from_str(item.get()).unwrap();
        let readable = !line.contains("(unreadable item: ");
        if let Some(t) = v["title"].as_str().filter(|_| readable) {
            let shown = taskdeck::text::clean(t);
            assert!(line.contains(shown.trim()), "cut: {line} for {shown}");
        }
        if let Some(d) = v["display_id"].as_str().filter(|_| readable) {
            assert!(line.starts_with(&format!("{d} ")), "{line} for {d}");
        }
    }

    // One page and --limit keep their sizes.
    sb.clear_requests();
    let o = env.run(&["tasks", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(list_limits(&sb), vec!["limit=20"]);
    sb.clear_requests();
    let o = env
        .run(&["tasks", "--all", "--limit", "250", "--json"])
        .await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = env
        .run(&["tasks", "--all", "--limit", "90", "--json"])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        whole_array(&items),
        "the same list at any page size"
    );
    assert!(list_limits(&sb).iter().all(|l| l == "limit=90"));
}
