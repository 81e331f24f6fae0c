//! Read-ahead with the real binary in a pseudo-terminal, the sandbox
//! answering every request after 100 ms: while the user rests on a task,
//! the next task's comments are read before any key asks for them; moving
//! onto it reads them no second time; over ten moves the service sees at
//! most five requests a move and never a write. No assertion depends on how
//! fast anything is: each wait is for something to happen at all.

mod support;

use std::time::Duration;
use support::*;
use taskdeck::sandbox::SandboxOptions;

/// The detail shows `number` (focused or not).
fn current(screen: &str, number: &str) -> bool {
    screen.contains(&format!("┌{number} ")) || screen.contains(&format!("▶ {number} "))
}

fn comments_reads(svc: &Service, id: &str) -> usize {
    svc.requests_matching("GET", &format!("/tasks/{id}/comments"))
        .len()
}

#[test]
fn the_next_task_is_read_before_the_key_and_not_again_after_it() {
    let svc = Service::start(SandboxOptions {
        tasks: 300,
        ..Default::default()
    });
    // The list's order, as the service gives it.
    let rows: Vec<(String, String)> = svc
        .raw_tasks()
        .iter()
        .take(12)
        .map(|t| {
            (
                t["display_id"].as_str().unwrap().to_string(),
                t["id"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let home = Home::new();
    let cfg = home.root().join("config.toml");
    std::fs::write(&cfg, "cache = false\nrefresh_secs = 0\n").unwrap();
    let mut env = svc.env();
    env.push(("TASKDECK_CONFIG".into(), cfg.display().to_string()));
    svc.set_faults("delay=100");
    let mut tui = Tui::spawn(&home, &[], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    // The Comments tab, focus on the list.
    tui.key("]");
    tui.wait_until("the comments tab", WAIT, |s| {
        current(s, &rows[0].0) && s.contains("comment") && !s.contains("loading comments")
    });
    tui.key("\x1b");
    std::thread::sleep(Duration::from_millis(300));

    let moves = 10;
    let before = svc.requests().len();
    for (number, id) in &rows[1..=moves] {
        // Resting on the task above: its comments are read without a key.
        tui.wait_until(&format!("{number}'s comments read ahead"), WAIT, |_| {
            comments_reads(&svc, id) >= 1
        });
        tui.send("j");
        tui.wait_until(&format!("{number} current with its comments"), WAIT, |s| {
            current(s, number) && !s.contains("loading comments")
        });
    }
    // Settle, then count.
    std::thread::sleep(Duration::from_millis(600));
    let seen = svc.requests();
    let walk = &seen[before..];
    assert!(
        walk.iter().all(|r| r.method == "GET"),
        "read-ahead never writes: {:?}",
        walk.iter()
            .filter(|r| r.method != "GET")
            .map(|r| (&r.method, &r.path))
            .collect::<Vec<_>>()
    );
    assert!(
        walk.len() <= 5 * moves,
        "{} requests over {moves} moves: {:?}",
        walk.len(),
        walk.iter().map(|r| &r.path).collect::<Vec<_>>()
    );
    for (number, id) in &rows[1..=moves] {
        assert_eq!(
            comments_reads(&svc, id),
            1,
            "{number}'s comments were read once, ahead, and reused"
        );
    }
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}
