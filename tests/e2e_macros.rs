//! A macro (issue 44) with the real binary in a pseudo-terminal against a
//! sandbox started inside the test: `:macro NAME` shows the review of
//! every step, nothing is sent before `y`, then each task gets its reply
//! posted once and its status changed once — on the current task, then on
//! three marked ones.

mod support;

use serde_json::json;
use support::*;

const CONFIG: &str = r#"
[[macros]]
name = "ack"
description = "Thank the requester, wait on them, follow up in 3 days"
reply = "Hello {requester}, thanks: {number} is with us."
status = "waiting_on_external"
follow_up = "in 3 days"
"#;

fn task_of(path: &str) -> String {
    path.trim_end_matches("/thread")
        .rsplit('/')
        .next()
        .unwrap()
        .to_string()
}

/// The tasks the sandbox got a reply POST and a status PATCH for, each
/// sorted; every PATCH carries only the macro's status.
fn replied_and_patched(svc: &Service) -> (Vec<String>, Vec<String>) {
    let mut posts: Vec<String> = svc
        .requests_matching("POST", "/thread")
        .iter()
        .map(|r| task_of(&r.path))
        .collect();
    let patches = svc.requests_matching("PATCH", "");
    for p in &patches {
        assert_eq!(
            p.body,
            Some(json!({"status": "waiting_on_external"})),
            "one field"
        );
    }
    let mut patched: Vec<String> = patches.iter().map(|r| task_of(&r.path)).collect();
    posts.sort();
    patched.sort();
    (posts, patched)
}

#[test]
fn a_macro_on_the_current_task_then_on_three_marked_sends_each_step_once() {
    let svc = Service::small();
    let home = Home::new();
    let path = home.root().join("config.toml");
    std::fs::write(&path, CONFIG).unwrap();
    let env = env_with(svc.env(), "TASKDECK_CONFIG", &path.display().to_string());
    let mut tui = Tui::spawn(&home, &[], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| {
        s.contains("(more below)") || s.contains("(all)")
    });

    // One task: the current row.
    let first = current_row(&tui.screen());
    let first_id = svc.task_id(&first);
    svc.sb.clear_requests();
    tui.send(":macro ack\r");
    tui.wait_for(&format!("macro ack on {first}?"), WAIT);
    tui.wait_for("reply: Hello ", WAIT);
    tui.wait_for(&format!("thanks: {first} is with us."), WAIT);
    tui.wait_for("status → waiting", WAIT);
    tui.wait_for("follow-up ", WAIT);
    tui.wait_for("y yes", WAIT);
    assert!(
        svc.requests().iter().all(|r| r.method == "GET"),
        "nothing is sent before y: {:?}",
        svc.requests()
    );
    tui.send("y");
    tui.wait_for("macro ack — ", WAIT);
    let (posts, patched) = replied_and_patched(&svc);
    assert_eq!(posts, vec![first_id.clone()], "the reply posted once");
    assert_eq!(patched, vec![first_id.clone()], "the status changed once");
    assert_eq!(
        svc.sb.task_json(&first_id).unwrap()["status"],
        "waiting_on_external"
    );

    // Three marked tasks, below the first.
    tui.send("j");
    for n in 1..=3 {
        tui.send(" ");
        tui.wait_for(&format!("[{n} marked]"), WAIT);
    }
    svc.sb.clear_requests();
    tui.send(":macro ack\r");
    tui.wait_for("macro ack on 3 tasks?", WAIT);
    tui.wait_for("y yes", WAIT);
    tui.send("y");
    tui.wait_until("every task answered", WAIT, |_| {
        let (posts, patched) = replied_and_patched(&svc);
        posts.len() >= 3 && patched.len() >= 3
    });
    tui.wait_for("macro ack — ", WAIT);
    tui.wait_until("the marks cleared", WAIT, |s| !s.contains(" marked]"));
    let (posts, patched) = replied_and_patched(&svc);
    assert_eq!(posts.len(), 3, "three replies: {posts:?}");
    assert_eq!(posts, patched, "each task replied to and changed");
    let mut distinct = posts.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "three different tasks, once each");
    assert!(!posts.contains(&first_id), "not the first task again");
    for id in &posts {
        assert_eq!(
            svc.sb.task_json(id).unwrap()["status"],
            "waiting_on_external"
        );
    }

    let pid = tui.pid();
    tui.send("q");
    tui.wait_exit(WAIT);
    let alive = std::process::Command::new("ps")
        .args(["-p", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(!alive, "no taskdeck left behind (pid {pid})");
}

// Issue 44 §3: a macro run while the service is down. Its status change
// waits in the outbox and is sent once when the service is back; its reply
// is never queued (a POST lost after the service applied it would be
// posted twice): said NOT SENT, kept as the task's draft, and sent once
// from the composer.
#[test]
fn offline_a_macro_queues_its_fields_sent_once_when_back_and_keeps_its_reply_as_a_draft() {
    let svc = Service::small();
    let home = Home::new();
    let path = home.root().join("config.toml");
    std::fs::write(&path, CONFIG.replace("follow_up = \"in 3 days\"\n", "")).unwrap();
    let env = env_with(svc.env(), "TASKDECK_CONFIG", &path.display().to_string());
    let mut tui = Tui::spawn(&home, &[], &env, 160, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| {
        s.contains("(more below)") || s.contains("(all)")
    });
    let first = current_row(&tui.screen());
    let first_id = svc.task_id(&first);
    // Known to be offline first (a refresh fails): a reply sent into a
    // connection that then breaks is another case, outcome unknown, never
    // sent again (app::tests::macros).
    svc.set_faults("down=1");
    tui.send("r");
    tui.wait_for("OFFLINE", WAIT);
    tui.send(":macro ack\r");
    tui.wait_for("y yes", WAIT);
    svc.sb.clear_requests();
    tui.send("y");
    tui.wait_for("reply NOT SENT (offline)", WAIT);
    tui.wait_for("outbox 1", WAIT);
    assert!(
        svc.requests().is_empty(),
        "nothing reached the service while it was down: {:?}",
        svc.requests()
    );

    svc.set_faults("");
    tui.wait_until(
        "the queued status sent",
        std::time::Duration::from_secs(40),
        |_| !replied_and_patched(&svc).1.is_empty(),
    );
    tui.wait_until("the outbox settled", WAIT, |s| !s.contains("outbox 1"));
    let (posts, patched) = replied_and_patched(&svc);
    assert_eq!(patched, vec![first_id.clone()], "the status sent once");
    assert!(
        posts.is_empty(),
        "the reply is never sent by the outbox: {posts:?}"
    );
    assert_eq!(
        svc.sb.task_json(&first_id).unwrap()["status"],
        "waiting_on_external"
    );

    // The reply waits as the task's draft: R opens it, ctrl-s sends it once.
    tui.send("R");
    tui.wait_for(&format!("thanks: {first} is with us."), WAIT);
    tui.send("\x13");
    tui.wait_until("the reply posted", WAIT, |_| {
        !replied_and_patched(&svc).0.is_empty()
    });
    let (posts, patched) = replied_and_patched(&svc);
    assert_eq!(posts, vec![first_id.clone()], "the reply posted once");
    assert_eq!(patched, vec![first_id.clone()], "and the status not again");

    tui.wait_until("the composer closed", WAIT, |s| s.contains("q quit"));
    let pid = tui.pid();
    tui.send("q");
    tui.wait_exit(WAIT);
    let alive = std::process::Command::new("ps")
        .args(["-p", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(!alive, "no taskdeck left behind (pid {pid})");
}
