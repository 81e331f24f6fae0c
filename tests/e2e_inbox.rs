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

/// Issue 36: two sandboxes as two profiles (and a third whose service is
/// down). Started as `work`, the inbox shows the `client` profile's news
/// labelled `[client]` (walked with its own key and store), the profile
/// that is down as a line, and Enter on the client's row switches to the
/// client profile and opens the task there. No request reaches a service
/// with another profile's key.
#[test]
fn another_profiles_item_is_labelled_and_enter_opens_it_in_that_profile() {
    let work = Service::small();
    let client_svc = Service::small();
    let home = Home::new();
    let work_key = work.sb.keys[0].key.clone();
    let client_key = client_svc.sb.keys[1].key.clone();
    let config = home.root().join("profiles.toml");
    std::fs::write(
        &config,
        format!(
            "inbox_refresh_secs = 600\n\n\
             [profiles.work]\nbase_url = \"{}\"\napi_key = \"{work_key}\"\n\n\
             [profiles.client]\nbase_url = \"{}\"\napi_key = \"{client_key}\"\n\n\
             [profiles.lab]\nbase_url = \"http://127.0.0.1:9\"\napi_key = \"nothing-here\"\n",
            work.sb.base_url(),
            client_svc.sb.base_url(),
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let env = vec![("TASKDECK_CONFIG".to_string(), config.display().to_string())];
    // The first walks (the CLI's) learn what there is.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_taskdeck"))
        .args(["inbox", "--all-profiles", "--json"])
        .env_clear()
        .envs(home.env().into_iter().chain(env.clone()))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // News on the client's service: a task of another user given to the
    // client profile's user.
    let mine = client(&client_svc, &client_key);
    let theirs = client(&client_svc, &client_svc.sb.keys[0].key);
    let my_id = client_svc.user_id(&client_key);
    let their_id = client_svc.user_id(&client_svc.sb.keys[0].key);
    let t = page(
        &client_svc,
        &theirs,
        TaskQuery {
            assigned_to: Some(their_id),
            ..Default::default()
        },
    )
    .into_iter()
    .find(|t| !t.title.line().is_empty())
    .expect("a task of the other user");
    client_svc
        .rt
        .block_on(theirs.patch_task(
            &t.id,
            &TaskPatch {
                assigned_to: Field::Set(my_id),
                ..Default::default()
            },
        ))
        .unwrap();
    drop(mine);
    work.sb.clear_requests();
    client_svc.sb.clear_requests();
    let label = t.display_id.line().into_owned();

    let tui = Tui::spawn(&home, &["--profile", "work"], &env, 140, 40);
    tui.wait_for("┌#", WAIT);
    tui.send("i");
    tui.wait_for("Inbox", WAIT);
    let head = format!("[client] {label}");
    tui.wait_for(&head, WAIT);
    tui.wait_for("[lab] its service cannot be reached", WAIT);
    // The row's place among the rows (two lines a row): `j` that often.
    let screen = tui.screen();
    let at = screen
        .lines()
        .filter(|l| l.contains("[work] #") || l.contains("[client] #"))
        .position(|l| l.contains(&head))
        .expect("the client's row");
    for _ in 0..at {
        tui.send("j");
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    tui.send("\r");
    // The client profile, with the task open.
    let open = format!("▶ {label} ");
    tui.wait_until("the client's task open in the client profile", WAIT, |s| {
        s.contains(&open) && s.contains("profile client")
    });
    // Nothing went to a service with another profile's key.
    for (svc, key) in [(&work, &work_key), (&client_svc, &client_key)] {
        let email = svc
            .sb
            .keys
            .iter()
            .find(|k| &k.key == key)
            .unwrap()
            .user_email
            .clone();
        let reqs = svc.requests();
        assert!(!reqs.is_empty());
        assert!(
            reqs.iter()
                .all(|r| r.caller.as_deref() == Some(email.as_str())),
            "a request with another profile's key: {reqs:?}"
        );
    }
}

/// Issue 46 §3: Bob mentions Alice on a task of hers that is already
/// completed; the comment does not move the task's `updated_at`, and the
/// task is not among the open ones the inbox reads in halves. Within
/// three walks (`r` three times in the inbox) the mention is there: the
/// completed tasks are read in a rotating third each walk.
#[test]
fn a_mention_on_a_completed_task_reaches_the_inbox_within_three_walks() {
    let svc = Service::small();
    let home = Home::new();
    let alice = client(&svc, KEY);
    let bob = client(&svc, BOB);
    let alice_id = svc.user_id(KEY);

    let mut tui = Tui::spawn(&home, &[], &svc.env(), 120, 40);
    tui.wait_for("┌#", WAIT);
    // The first walk learns what there is.
    tui.send("i");
    tui.wait_for("read just now", WAIT);
    esc(&tui);

    let done = page(
        &svc,
        &alice,
        TaskQuery {
            assigned_to: Some(alice_id),
            status: vec!["completed".into()],
            ..Default::default()
        },
    )
    .into_iter()
    .find(|t| svc.rt.block_on(bob.get_task(&t.id)).is_ok())
    .expect("a completed task of Alice's that Bob sees");
    let updated = |id: &str| svc.rt.block_on(alice.get_task(id)).unwrap().updated_at;
    let was = updated(&done.id);
    let email = svc.rt.block_on(alice.me()).unwrap().user_email;
    let text = format!("@{} the okapi filing, once more", email.raw());
    svc.rt
        .block_on(bob.add_comment(&done.id, &text, &[]))
        .unwrap();
    assert_eq!(updated(&done.id), was, "a comment does not move updated_at");

    // Three walks, then the mention.
    tui.send("i");
    tui.send("r");
    tui.send("r");
    tui.send("r");
    tui.wait_until("the mention on the completed task", WAIT, |s| {
        s.contains("Bob Okafor mentioned you") && s.contains("okapi")
    });
    esc(&tui);
    tui.send("q");
    tui.wait_exit(WAIT);
}
