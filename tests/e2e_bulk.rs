//! Marks, a bulk edit and its undo: the real binary in a pseudo-terminal
//! against a sandbox started inside the test — what the screen says and
//! exactly what reached the service.

mod support;

use serde_json::json;
use std::collections::HashMap;
use support::*;

/// Every task Alice sees in the unfiltered list: id -> status.
fn statuses(svc: &Service) -> HashMap<String, String> {
    svc.raw_tasks()
        .iter()
        .map(|t| {
            (
                t["id"].as_str().unwrap().to_string(),
                t["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn task_of(path: &str) -> String {
    path.rsplit('/').next().unwrap().to_string()
}

#[test]
fn three_marked_rows_completed_in_one_bulk_edit_then_z_restores_each_status() {
    let svc = Service::small();
    let before = statuses(&svc);
    let home = Home::new();
    let mut tui = launch_ready(&svc, &home);

    for n in 1..=3 {
        tui.send(" ");
        tui.wait_for(&format!("[{n} marked]"), WAIT);
    }
    svc.sb.clear_requests();
    tui.send(":status completed\r");
    tui.wait_for("3 tasks: status → completed", WAIT);
    tui.wait_for("y yes", WAIT);
    assert!(
        svc.requests_matching("PATCH", "").is_empty(),
        "nothing is sent before the confirmation"
    );
    tui.send("y");
    tui.wait_for("3 tasks: status → completed — 3 done", WAIT);
    let patches = svc.requests_matching("PATCH", "");
    assert_eq!(patches.len(), 3, "exactly three PATCHes: {patches:?}");
    let mut ids: Vec<String> = patches.iter().map(|r| task_of(&r.path)).collect();
    for p in &patches {
        assert_eq!(p.body, Some(json!({"status": "completed"})), "one field");
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 3, "three different tasks");
    for id in &ids {
        assert_eq!(svc.sb.task_json(id).unwrap()["status"], "completed");
    }
    // The marks went with the success.
    tui.wait_until("the marks cleared", WAIT, |s| !s.contains(" marked]"));

    svc.sb.clear_requests();
    tui.send("z");
    tui.wait_for("undone: \"3 tasks: status → completed\" — 3 done", WAIT);
    let patches = svc.requests_matching("PATCH", "");
    assert_eq!(patches.len(), 3, "exactly three PATCHes: {patches:?}");
    for p in &patches {
        let id = task_of(&p.path);
        assert!(ids.contains(&id), "the same three tasks");
        assert_eq!(
            p.body,
            Some(json!({"status": before[&id]})),
            "each back to its own status"
        );
        assert_eq!(
            svc.sb.task_json(&id).unwrap()["status"],
            before[&id].as_str()
        );
    }
    // Each task was read back before its PATCH.
    for id in &ids {
        assert_eq!(
            svc.requests_matching("GET", &format!("/api/v1/tasks/{id}"))
                .len(),
            1
        );
    }
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}
