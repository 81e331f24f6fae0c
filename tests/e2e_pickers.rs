//! Pickers, not ids (#26 §1): the real binary in a pseudo-terminal against
//! a sandbox started inside the test — the keys pressed and exactly what
//! reached the service.

mod support;

use serde_json::json;
use support::*;

/// A draft opened once by its id (from a notice) is kept by the store; at
/// the next start `W` lists it and `a` accepts it: two keys, no id.
#[test]
fn a_draft_seen_once_is_accepted_from_drafts_in_two_keys_at_the_next_start() {
    let svc = Service::small();
    let home = Home::new();
    let draft = svc.task_id("#5");
    assert_eq!(svc.sb.task_json(&draft).unwrap()["draft"], true);

    let mut tui = launch_ready(&svc, &home);
    tui.send(&format!(":open {draft}\r"));
    tui.wait_for("Respond to new matter intake", WAIT);
    tui.wait_for("DRAFT", WAIT);
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);

    let mut tui = launch_ready(&svc, &home);
    svc.sb.clear_requests();
    tui.send("W");
    tui.wait_for("Draft tasks (a accepts", WAIT);
    tui.wait_until("the stored draft listed", WAIT, |s| {
        s.contains("#5      Respond to new matter intake") && !s.contains("reading the store")
    });
    tui.send("a");
    tui.wait_for("draft accepted", WAIT);
    let patches = svc.requests_matching("PATCH", &draft);
    assert_eq!(patches.len(), 1, "{patches:?}");
    assert_eq!(patches[0].body, Some(json!({"draft": false})));
    assert_eq!(svc.sb.task_json(&draft).unwrap()["draft"], false);
    // The list stays open, without it.
    tui.wait_until("the accepted draft gone from the list", WAIT, |s| {
        s.contains("no draft task seen")
    });
    tui.key("\u{1b}");
    tui.wait_until("the list closed", WAIT, |s| !s.contains("[drafts]"));
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

/// `:link task 2` picks #2 among the tasks seen: `enter` links it.
#[test]
fn link_task_by_number_links_the_picked_task_with_no_id_typed() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch_ready(&svc, &home);
    open_number(&tui, 1);
    let (one, two) = (svc.task_id("#1"), svc.task_id("#2"));
    svc.sb.clear_requests();
    tui.send(":link task 2\r");
    tui.wait_for("Link which task?", WAIT);
    tui.send("\r");
    let linked = || {
        svc.sb.task_json(&one).unwrap()["linked_items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["type"] == "task" && l["id"] == two.as_str())
    };
    tui.wait_until("#1 linked to #2 on the service", WAIT, |_| linked());
    // One write, naming #2's id: the user typed none.
    let writes: Vec<_> = svc
        .requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert!(writes[0].body.as_ref().unwrap().to_string().contains(&two));
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}
