//! The inbox with the real binary in a pseudo-terminal, as Alice with the
//! TUI open: Bob assigns her a task, mentions her in a comment on a task
//! she is involved in (the task's `updated_at` does not move) and
//! completes a task assigned to her; within two walks (`r` in the inbox,
//! twice) the inbox lists all three with their reasons; her own edit from
//! taskdeck adds nothing; a snoozed task leaves the inbox and is still
//! snoozed after a restart; `taskdeck inbox --json` agrees with the screen.

mod support;

use support::*;
use taskdeck::api::{ApiKey, Client, ClientConfig, Field, Status, Task, TaskPatch, TaskQuery};

const BOB: &str = "demo-bob-acme";

/// Esc alone: a key right after it would read as Alt+key.
fn esc(tui: &Tui) {
    tui.send("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(300));
}

fn client(svc: &Service, key: &str) -> Client {
    Client::new(ClientConfig::new(
        svc.sb.base_url(),
        ApiKey::new(key.to_string()),
    ))
    .unwrap()
}

fn page(svc: &Service, c: &Client, q: TaskQuery) -> Vec<Task> {
    svc.rt
        .block_on(c.list_tasks(&q, 100, None))
        .unwrap()
        .items
        .iter()
        .filter_map(|i| i.task().cloned())
        .collect()
}

#[test]
fn another_users_changes_reach_the_inbox_and_mine_do_not() {
    let svc = Service::small();
    let home = Home::new();
    let alice = client(&svc, KEY);
    let bob = client(&svc, BOB);
    let alice_id = svc.user_id(KEY);
    let bob_id = svc.user_id(BOB);

    let mut tui = Tui::spawn(&home, &[], &svc.env(), 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_for("┌#", WAIT);
    // The first walk learns what there is.
    tui.send("i");
    tui.wait_for("Inbox", WAIT);
    tui.wait_for("read just now", WAIT);
    esc(&tui);

    // Alice's own edit, from taskdeck: the current task's priority.
    let screen = tui.screen();
    let current = screen
        .lines()
        .find_map(|l| l.split('┌').nth(1))
        .and_then(|r| r.split_whitespace().next())
        .expect("a current task")
        .to_string();
    let own = svc.task_id(&current);
    let before = svc.sb.task_json(&current).unwrap()["priority"].clone();
    let wanted = if before == "low" { "high" } else { "low" };
    tui.send(&format!(":priority {wanted}\r"));
    tui.wait_until("the edit answered", WAIT, |_| {
        svc.sb.task_json(&current).unwrap()["priority"] == wanted
    });

    // Bob's three changes.
    let mine = page(
        &svc,
        &alice,
        TaskQuery {
            assigned_to: Some(alice_id.clone()),
            status: vec!["in_progress".into()],
            ..Default::default()
        },
    );
    let mut mine = mine.into_iter().filter(|t| *t.id != *own);
    let done = mine.next().expect("a task of Alice's in progress");
    let talked = mine.next().expect("a second one");
    let given = page(
        &svc,
        &bob,
        TaskQuery {
            assigned_to: Some(bob_id),
            ..Default::default()
        },
    )
    .into_iter()
    .find(|t| *t.id != *own && t.id != done.id && t.id != talked.id)
    .expect("a task of Bob's");
    svc.rt
        .block_on(bob.patch_task(
            &given.id,
            &TaskPatch {
                assigned_to: Field::Set(alice_id.clone()),
                ..Default::default()
            },
        ))
        .unwrap();
    let updated = |id: &str| svc.rt.block_on(alice.get_task(id)).unwrap().updated_at;
    let was = updated(&talked.id);
    // By e-mail: the sandbox lists her in `mentioned_users`, and the
    // service's list is the truth (issue 32 §7: a name it does not list
    // is no mention).
    let email = svc.rt.block_on(alice.me()).unwrap().user_email;
    let text = format!("@{} a question for you", email.raw());
    svc.rt
        .block_on(bob.add_comment(&talked.id, &text, &[]))
        .unwrap();
    assert_eq!(
        updated(&talked.id),
        was,
        "a comment does not move updated_at"
    );
    svc.rt
        .block_on(bob.patch_task(
            &done.id,
            &TaskPatch {
                status: Some(Status::Completed),
                ..Default::default()
            },
        ))
        .unwrap();

    // Two walks.
    tui.send("i");
    tui.send("r");
    tui.send("r");
    tui.wait_until("all three reasons", WAIT, |s| {
        s.contains("assigned to you")
            && s.contains("Bob Okafor mentioned you")
            && s.contains("status in progress → completed")
    });
    let screen = tui.screen();
    // The popup's lines (the status line may still say what was edited).
    let popup: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("┌ Inbox"))
        .take_while(|l| !l.contains("└"))
        .collect();
    assert!(popup.len() > 3, "{screen}");
    assert!(
        !popup.iter().any(|l| l.contains(&format!("→ {wanted}"))),
        "Alice's own edit is not in her inbox: {screen}"
    );
    assert!(screen.contains("inbox "), "the header counts it: {screen}");
    // Mentions first: the first row is the mention; snooze it.
    tui.send("s");
    tui.wait_for("snooze ", WAIT);
    tui.send("2h\r");
    tui.wait_for("snoozed until", WAIT);
    tui.send("i");
    tui.wait_until("the snoozed row gone", WAIT, |s| {
        s.contains("assigned to you") && !s.contains("mentioned you")
    });
    esc(&tui);
    tui.send("q");
    tui.wait_exit(WAIT);

    // The CLI reads the same store: the same items, the snoozed one hidden.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_taskdeck"))
        .args(["inbox", "--json"])
        .env_clear()
        .envs(home.env())
        .envs(svc.env())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let items: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let reason = |id: &str| -> Vec<String> {
        items
            .iter()
            .filter(|i| i["task"]["id"] == id)
            .map(|i| i["reason"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        reason(&given.id).contains(&"assigned".to_string()),
        "{items:?}"
    );
    assert!(
        reason(&done.id).contains(&"changed".to_string()),
        "{items:?}"
    );
    assert!(reason(&talked.id).is_empty(), "snoozed: {items:?}");
    assert!(
        !reason(&own).contains(&"changed".to_string()),
        "own edit: {items:?}"
    );

    // After a restart the snooze holds: listed by :snoozed.
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.send(":snoozed\r");
    tui.wait_for("snoozed until", WAIT);
    assert!(tui.screen().contains(&talked.label()), "{}", tui.screen());
    esc(&tui);
    tui.send("q");
    tui.wait_exit(WAIT);
}
