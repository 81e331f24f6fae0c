//! The periodic refresh with the real binary in a pseudo-terminal: with
//! every task loaded it sends no more list requests than with one page
//! loaded (one page asked again per period, never a walk of every loaded
//! page). The period is one second; the counts are bounds over a few
//! periods, not timings.

mod support;

use std::time::Duration;
use support::*;
use taskdeck::sandbox::SandboxOptions;

const PERIOD_S: u64 = 1;
/// The window the requests are counted over: three periods and a half.
const WINDOW: Duration = Duration::from_millis(3_500);

fn launch(svc: &Service, home: &Home) -> Tui {
    let cfg = home.root().join("config.toml");
    std::fs::write(
        &cfg,
        format!("refresh_secs = {PERIOD_S}\nprefetch = false\ncache = false\n"),
    )
    .unwrap();
    let mut env = svc.env();
    env.push(("TASKDECK_CONFIG".into(), cfg.display().to_string()));
    let tui = Tui::spawn(home, &[], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    tui
}

/// The list requests (`GET …/tasks`) the service saw during `WINDOW`, and
/// whether each was a first page (no cursor).
fn list_requests_over_a_window(svc: &Service) -> Vec<bool> {
    svc.sb.clear_requests();
    std::thread::sleep(WINDOW);
    svc.requests_matching("GET", "/tasks")
        .iter()
        .map(|r| !r.query.as_deref().unwrap_or("").contains("cursor="))
        .collect()
}

#[test]
fn with_every_task_loaded_a_periodic_refresh_sends_no_more_than_with_one_page() {
    let svc = Service::start(SandboxOptions {
        tasks: 700,
        ..Default::default()
    });
    let total = svc.raw_tasks().len();
    let pages = total.div_ceil(50);
    assert!(pages >= 5, "enough pages to tell: {total} tasks");
    let home = Home::new();
    let mut tui = launch(&svc, &home);

    let one_page = list_requests_over_a_window(&svc);
    assert!(
        !one_page.is_empty(),
        "the periodic refresh runs (one page loaded)"
    );

    // Every task loaded: the walk goes to the end.
    tui.send("G");
    tui.wait_until("every page", WAIT, |s| s.contains("— end of list —"));
    tui.wait_until("every row", WAIT, |s| {
        s.contains(&format!("| {total} (all)"))
    });
    let all = list_requests_over_a_window(&svc);
    assert!(
        !all.is_empty(),
        "the periodic refresh runs (every page loaded)"
    );
    assert!(
        all.len() <= one_page.len() + 1,
        "{} pages loaded: {} list requests over {WINDOW:?} against {} with one page",
        pages,
        all.len(),
        one_page.len()
    );
    // One request a period at most: a walk of every loaded page would send
    // {pages} per period.
    assert!(
        all.len() as u64 <= WINDOW.as_secs() / PERIOD_S + 1,
        "{all:?}"
    );

    // `r` still reloads everything: the walk from the first page on.
    svc.sb.clear_requests();
    tui.send("r");
    tui.wait_until("the walk again", WAIT, |_| {
        svc.requests_matching("GET", "/tasks").len() >= pages
    });
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}
