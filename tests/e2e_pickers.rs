//! Pickers, not ids (#26 §1): the real binary in a pseudo-terminal against
//! a sandbox started inside the test — the keys pressed and exactly what
//! reached the service.

mod support;

use serde_json::json;
use support::*;

/// A draft opened once by its id (from a notice) is kept by the store; at
/// the next start `W` lists it and ctrl-a accepts it: two keys, no id.
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
    tui.wait_for("Draft tasks", WAIT);
    tui.wait_until("the stored draft listed", WAIT, |s| {
        s.contains("#5      Respond to new matter intake") && !s.contains("reading the store")
    });
    // (A letter narrows the list, as in every picker.)
    tui.send("\u{1}");
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

/// #32 §1: in `:link task` what is typed shows and narrows at each key;
/// `#1` then `#11` keep the tasks whose number begins so; a number not
/// among the rows is looked up at the service ("looking up #N…") and
/// shown; Enter links the highlighted task and no other.
#[test]
fn link_picker_shows_what_is_typed_narrows_and_links_the_highlighted_task() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch_ready(&svc, &home);
    open_number(&tui, 1);
    let one = svc.task_id("#1");
    // The tasks #112…#119 Alice may see.
    let visible: Vec<String> = svc
        .raw_tasks()
        .iter()
        .filter_map(|t| t["display_id"].as_str().map(str::to_string))
        .filter(|d| d.len() == 4 && d.starts_with("#11") && d != "#110" && d != "#111")
        .collect();
    tui.send(":link task\r");
    tui.wait_for("Link which task?", WAIT);
    // (A row of the picker is `#12     Title`; the list's `#12    urgent`.)
    tui.wait_until("the service's rows", WAIT, |s| {
        !s.contains("searching the service") && s.contains("#12     ")
    });
    tui.send("#11");
    tui.wait_until(
        "the typed text and the rows narrowed to #11…",
        WAIT,
        |s| s.contains("find: #11") && s.contains("> #11 ") && !s.contains("#12     "),
    );
    // One not among the rows seen (the first page): looked up, shown.
    let screen = tui.screen();
    let label = visible
        .iter()
        .find(|d| !screen.contains(&format!("{d:<7} ")))
        .expect("a task #11x not among the rows")
        .clone();
    let target = svc.task_id(&label);
    tui.send(&label[3..]);
    tui.wait_until(&format!("{label} found and highlighted"), WAIT, |s| {
        s.contains(&format!("find: {label}"))
            && s.contains(&format!("> {label} "))
            && !s.contains("looking up")
    });
    svc.sb.clear_requests();
    tui.send("\r");
    let linked = || {
        svc.sb.task_json(&one).unwrap()["linked_items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["type"] == "task" && l["id"] == target.as_str())
    };
    tui.wait_until("#1 linked to the task typed", WAIT, |_| linked());
    let writes: Vec<_> = svc
        .requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert!(writes[0]
        .body
        .as_ref()
        .unwrap()
        .to_string()
        .contains(&target));
    // A number nobody has: said, and Enter links nothing.
    tui.send(":link task #9999\r");
    tui.wait_for("no task #9999 on the service", WAIT);
    svc.sb.clear_requests();
    tui.send("\r");
    tui.key("\u{1b}");
    tui.wait_until("the picker closed", WAIT, |s| {
        !s.contains("Link which task?")
    });
    assert!(
        svc.requests().iter().all(|r| r.method == "GET"),
        "{:?}",
        svc.requests()
    );
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

/// #32 §13: a task whose `task_number` the service sends as text (the
/// sandbox's quirk task 5) opens, shown by its number as received.
#[test]
fn a_task_whose_number_is_text_opens() {
    let svc = Service::start(taskdeck::sandbox::SandboxOptions {
        tasks: 60,
        quirks: true,
        ..Default::default()
    });
    let home = Home::new();
    let raw = svc.raw_tasks();
    let quirky = raw
        .iter()
        .find(|t| t["title"] == "Task with a string matter and a list of agents")
        .expect("the quirk task");
    assert!(quirky["task_number"].is_string(), "{quirky}");
    let label = quirky["display_id"].as_str().unwrap().to_string();
    let mut tui = launch_ready(&svc, &home);
    tui.send(&format!(":open {label}\r"));
    tui.wait_until("the task opened", WAIT, |s| {
        s.contains(&format!("▶ {label} Task with a string matter"))
            && s.contains("title:")
            && !s.contains("looking for it")
    });
    assert!(!tui.screen().contains("could not be loaded"));
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

/// #40 §2: a name typed without its accents finds the person — the
/// sandbox's Carol Nguyễn is `carol nguyen` at the keyboard — and the
/// PATCH names her id; the palette suggested her as typed.
#[test]
fn assign_carol_nguyen_typed_without_accents_assigns_carol_nguyen() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch_ready(&svc, &home);
    open_number(&tui, 1);
    let one = svc.task_id("#1");
    // The directory knows her once she is seen: the list's tasks name her.
    tui.send(":assign carol ng");
    tui.wait_for("assign Carol Nguyễn <carol@acme.test>", WAIT);
    tui.send("uyen\r");
    tui.wait_until("#1 assigned to Carol on the service", WAIT, |_| {
        svc.sb.task_json(&one).unwrap()["assigned_to"]["email"] == "carol@acme.test"
    });
    let carol = svc.sb.task_json(&one).unwrap()["assigned_to"]["id"].clone();
    let patches = svc.requests_matching("PATCH", &one);
    assert_eq!(patches.len(), 1, "{patches:?}");
    assert_eq!(patches[0].body, Some(json!({"assigned_to": carol})));
    assert!(!tui.screen().contains("no known person"));
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}
