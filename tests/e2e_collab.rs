//! Collaboration flows through the real binary in a pseudo-terminal:
//! link roles and check ids, sharing with an ambiguous name resolved through
//! the picker, and the self-removal warning before the PUT.

mod support;

use serde_json::json;
use support::*;

const COLS: u16 = 140;
const ROWS: u16 = 45;

fn launch(svc: &Service, home: &Home) -> Tui {
    let tui = Tui::spawn(home, &[], &svc.env(), COLS, ROWS);
    tui.wait_for("Alice Martin", WAIT);
    tui
}

/// Open `task` and move from the Overview to the tab `steps` to the right.
fn open_tab(tui: &Tui, task: &str, steps: usize) {
    tui.send(&format!(":open {task}\r"));
    tui.wait_for(&format!("▶ {task} "), WAIT);
    tui.wait_for("title:", WAIT);
    for _ in 0..steps {
        tui.key("]");
    }
}

#[test]
fn a_link_role_and_check_ids_change_and_the_screen_shows_the_answer() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    open_tab(&tui, "#3", 3);
    tui.wait_for("chk-104", WAIT);
    svc.sb.clear_requests();
    // The review link is the first row.
    tui.send(":role output\r");
    tui.wait_until("role shown as output", WAIT, |s| {
        s.lines()
            .any(|l| l.contains("review") && l.contains("output"))
    });
    let path = "/links/review/1cf44051-b5bf-4f3f-8db5-7059fbbf7165";
    tui.wait_until("the PATCH recorded", WAIT, |_| {
        !svc.requests_matching("PATCH", path).is_empty()
    });
    let patches = svc.requests_matching("PATCH", path);
    assert_eq!(patches.len(), 1);
    assert_eq!(patches[0].body, Some(json!({"role": "output"})));
    let task = svc.sb.task_json("#3").unwrap();
    let link = task["linked_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["type"] == "review")
        .unwrap()
        .clone();
    assert_eq!(link["role"], "output");

    svc.sb.clear_requests();
    tui.send(":checks chk-9\r");
    tui.wait_for("checks: chk-9", WAIT);
    tui.wait_until("the PATCH recorded", WAIT, |_| {
        !svc.requests_matching("PATCH", path).is_empty()
    });
    let patches = svc.requests_matching("PATCH", path);
    assert_eq!(
        patches[0].body,
        Some(json!({"context": {"check_ids": ["chk-9"]}}))
    );
    tui.send("q");
    tui.wait_exit(WAIT);
}

#[test]
fn sharing_previews_the_change_and_resolves_an_ambiguous_name_with_the_picker() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    open_tab(&tui, "#10", 4);
    tui.wait_for("S edits sharing", WAIT);
    svc.sb.clear_requests();
    tui.key("S");
    tui.wait_for("Sharing of #10 (edits a copy", WAIT);
    // Remove myself (Alice is listed as a watcher), add "Sam Taylor".
    let screen = tui.screen();
    let rows: Vec<&str> = screen.lines().collect();
    let visibility = rows.iter().position(|l| l.contains("visibility:")).unwrap();
    let people = rows.iter().position(|l| l.contains("people:")).unwrap();
    let alice = rows
        .iter()
        .enumerate()
        .position(|(i, l)| i > people && l.contains("Alice Martin"))
        .map(|p| p + 1)
        .unwrap();
    // Row 0 is the visibility; people follow the "people:" heading.
    let _ = visibility;
    for _ in 0..(alice - people) {
        tui.key("j");
    }
    tui.key("d");
    tui.key("a");
    tui.send("Sam Taylor write\r");
    tui.wait_for("Sam Taylor  write", WAIT);
    tui.key("\r");
    // Two Sam Taylors are known: asked before the review (#32 §3), on the
    // entry typed; the Sam already listed is not offered.
    tui.wait_for("\"Sam Taylor\" matches more than one person", WAIT);
    tui.wait_for("samuel.taylor@acme.test", WAIT);
    tui.key("\r");
    tui.wait_for("YOU WILL LOSE ACCESS", WAIT);
    tui.wait_for(
        "+ person Sam Taylor <samuel.taylor@acme.test> gains write access",
        WAIT,
    );
    assert!(
        svc.requests_matching("PUT", "/sharing").is_empty(),
        "nothing is sent before the preview is accepted"
    );
    tui.key("y");
    tui.wait_for("you no longer have access", WAIT);
    let puts = svc.requests_matching("PUT", "/sharing");
    assert_eq!(puts.len(), 1, "sent once, with the chosen id");
    let sent = &puts[0].body.as_ref().unwrap()["users"];
    assert!(
        !sent
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["user_id"] == "Sam Taylor"),
        "the name was replaced by an id: {sent}"
    );
    let id = svc.task_id("#10");
    let state = svc.rt.block_on(async {
        reqwest::Client::new()
            .get(format!("{}/api/v1/tasks/{id}/sharing", svc.sb.base_url()))
            .bearer_auth("demo-carol-acme")
            .send()
            .await
            .unwrap()
            .json::<serde_json::Value>()
            .await
            .unwrap()
    });
    let emails: Vec<&str> = state["users"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u["email"].as_str())
        .collect();
    assert!(emails.contains(&"samuel.taylor@acme.test"), "{emails:?}");
    assert!(!emails.contains(&"alice@acme.test"), "{emails:?}");
    tui.send("q");
    tui.wait_exit(WAIT);
}

/// #32 §2: #10 is shared with one Sam Taylor (by e-mail); the other is
/// added by typing `Sam Taylor`. Both are known here, so the name is asked
/// before the review, on that entry: the picker says the typed text and
/// offers the Sam not yet listed; the Sam already there stays; one PUT
/// sends the chosen id and is accepted. (The service's 400 for a name
/// not known here is `app::tests::edit::names::a_same_name_refusal…`.)
#[test]
fn a_second_person_of_the_same_name_is_added_beside_the_first() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    open_tab(&tui, "#10", 4);
    tui.wait_for("S edits sharing", WAIT);
    // First Sam Taylor, by e-mail.
    tui.key("S");
    tui.wait_for("Sharing of #10 (edits a copy", WAIT);
    tui.key("a");
    tui.send("sam.taylor@acme.test\r");
    tui.key("\r");
    tui.wait_for(
        "+ person Sam Taylor <sam.taylor@acme.test> gains read access",
        WAIT,
    );
    tui.key("y");
    tui.wait_for("sharing saved", WAIT);
    svc.sb.clear_requests();
    tui.key("S");
    tui.wait_for("Sharing of #10 (edits a copy", WAIT);
    tui.key("a");
    tui.send("Sam Taylor write\r");
    tui.key("\r");
    tui.wait_for("\"Sam Taylor\" matches more than one person", WAIT);
    let screen = tui.screen();
    let offered: Vec<&str> = screen
        .lines()
        // The picker's rows: a label, the row Enter takes marked `>`
        // (the editor's rows beneath end with their access).
        .filter(|l| l.contains("@acme.test>") && !l.contains(" write") && !l.contains(" read"))
        .collect();
    assert_eq!(offered.len(), 1, "only the Sam not listed: {offered:?}");
    assert!(
        offered[0].contains("samuel.taylor@acme.test"),
        "{offered:?}"
    );
    tui.key("\r");
    tui.wait_for(
        "+ person Sam Taylor <samuel.taylor@acme.test> gains write access",
        WAIT,
    );
    let review = tui.screen();
    assert!(
        !review.contains("- person"),
        "nobody loses access: {review}"
    );
    assert!(svc.requests_matching("PUT", "/sharing").is_empty());
    tui.key("y");
    tui.wait_for("sharing saved", WAIT);
    let puts = svc.requests_matching("PUT", "/sharing");
    assert_eq!(puts.len(), 1, "{puts:?}");
    let id = svc.task_id("#10");
    let state = get_json(
        &svc,
        "demo-alice-acme",
        &format!("/api/v1/tasks/{id}/sharing"),
    );
    let emails: Vec<&str> = state["users"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u["email"].as_str())
        .collect();
    assert!(
        emails.contains(&"sam.taylor@acme.test") && emails.contains(&"samuel.taylor@acme.test"),
        "{emails:?}"
    );
    tui.send("q");
    tui.wait_exit(WAIT);
}

fn get_json(svc: &Service, key: &str, path: &str) -> serde_json::Value {
    let url = format!("{}{path}", svc.sb.base_url());
    svc.rt.block_on(async {
        reqwest::Client::new()
            .get(url)
            .bearer_auth(key)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    })
}

#[test]
fn files_attach_and_detach_with_a_confirmation_that_the_file_stays() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    let files = get_json(&svc, KEY, "/api/v1/files");
    let task = svc.sb.task_json("#2").unwrap();
    let attached: Vec<&str> = task["input_files"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(task["output_files"].as_array().into_iter().flatten())
        .filter_map(|f| f["id"].as_str())
        .collect();
    let file = files
        .as_array()
        .unwrap()
        .iter()
        .find(|f| !attached.contains(&f["id"].as_str().unwrap()))
        .unwrap();
    let (fid, fname) = (file["id"].as_str().unwrap(), file["name"].as_str().unwrap());
    open_tab(&tui, "#2", 5);
    tui.send(&format!(":attach {fid}\r"));
    tui.wait_for(fname, WAIT);
    let after = svc.sb.task_json("#2").unwrap();
    assert!(after.to_string().contains(fid), "attached on the service");
    // Select it and detach: the confirmation says the file is not deleted.
    let rows = tui.screen();
    let pos = rows
        .lines()
        .filter(|l| l.contains("input") || l.contains("output"))
        .position(|l| l.contains(fname))
        .unwrap();
    for _ in 0..pos {
        tui.key("j");
    }
    tui.key("X");
    tui.wait_for("The file itself is not deleted", WAIT);
    tui.key("y");
    tui.wait_until("file gone from the task", WAIT, |_| {
        !svc.sb.task_json("#2").unwrap().to_string().contains(fid)
    });
    let still = get_json(&svc, KEY, "/api/v1/files");
    assert!(
        still.to_string().contains(fid),
        "the file itself stays uploaded"
    );
    tui.send("q");
    tui.wait_exit(WAIT);
}

#[test]
fn a_layout_check_lists_issues_with_paths() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = launch(&svc, &home);
    let path = home.root().join("layout.json");
    std::fs::write(
        &path,
        r#"{"type": "report", "blocks": [{"type": "heading", "text": "Hi", "level": 9}, {"type": "paragraph", "txet": "typo"}]}"#,
    )
    .unwrap();
    tui.send(&format!(":validate {}\r", path.display()));
    tui.wait_for("INVALID", WAIT);
    tui.wait_for("blocks[0].level", WAIT);
    tui.wait_for("out_of_range", WAIT);
    tui.wait_for("unknown_field", WAIT);
    tui.wait_for("Normalised layout", WAIT);
    tui.key("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(100));
    tui.send("q");
    tui.wait_exit(WAIT);
}

#[test]
fn disabled_features_are_explained_not_reported_as_not_found() {
    let svc = Service::small();
    let home = Home::new();
    let env = vec![
        ("TASKDECK_BASE_URL".to_string(), svc.sb.base_url()),
        (
            "TASKDECK_API_KEY".to_string(),
            "demo-gina-globex".to_string(),
        ),
    ];
    let mut tui = Tui::spawn(&home, &[], &env, COLS, ROWS);
    tui.wait_for("Gina Rossi", WAIT);
    let path = home.root().join("layout.json");
    std::fs::write(&path, r#"{"type": "report", "blocks": []}"#).unwrap();
    tui.send(&format!(":validate {}\r", path.display()));
    tui.wait_for("Visual Builder is not enabled for this organisation", WAIT);
    tui.key("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(100));
    tui.send(":open #16\r");
    tui.wait_for("▶ #16 ", WAIT);
    tui.wait_for("title:", WAIT);
    tui.key("R");
    tui.send("hello");
    tui.send("\x13"); // ctrl-s
    tui.wait_for(
        "requester thread is not enabled for this organisation",
        WAIT,
    );
    assert!(!tui.screen().contains("not found"), "{}", tui.screen());
    tui.key("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(100));
    tui.send("q");
    tui.wait_exit(WAIT);
}
