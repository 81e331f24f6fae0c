//! `taskdeck inbox` against a sandbox: another user assigns Alice a task,
//! mentions her in a comment (the task's `updated_at` does not move) and
//! completes a task assigned to her; the next walk lists all three, each
//! with its reason, and `--json` carries the before → after.

mod cli_env;

use cli_env::*;
use serde_json::Value;
use taskdeck::api::{Client, Field, Priority, Status, TaskPatch, TaskQuery};
use taskdeck::sandbox::{Sandbox, SandboxOptions};

async fn first_page(c: &Client, q: TaskQuery) -> Vec<taskdeck::api::Task> {
    c.list_tasks(&q, 100, None)
        .await
        .unwrap()
        .items
        .iter()
        .filter_map(|i| i.task().cloned())
        .collect()
}

#[tokio::test]
async fn another_users_changes_reach_the_inbox_with_their_reasons() {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 200,
        ..Default::default()
    })
    .await
    .unwrap();
    let alice_key = &sb.keys[0].key;
    let env = Env::for_sandbox(&sb, alice_key);
    let alice = client(&sb, alice_key);
    let bob = client(&sb, &sb.keys[1].key);
    let alice_id = alice.me().await.unwrap().user_id;
    let bob_id = bob.me().await.unwrap().user_id;

    // The first walk learns what there is: only reminders can be news.
    let first = json_items(&env.run(&["inbox", "--json"]).await);
    assert!(
        first
            .iter()
            .all(|i| ["due", "draft"].contains(&i["reason"].as_str().unwrap())),
        "{first:?}"
    );

    // Bob: a task of his now Alice's; a mention on a task involving
    // her; a task of hers completed.
    let mine = first_page(
        &alice,
        TaskQuery {
            assigned_to: Some(alice_id.clone()),
            status: vec!["in_progress".into()],
            ..Default::default()
        },
    )
    .await;
    let done = mine.first().expect("Alice has a task in progress").clone();
    let others = first_page(
        &bob,
        TaskQuery {
            assigned_to: Some(bob_id.clone()),
            ..Default::default()
        },
    )
    .await;
    let given = others
        .iter()
        .find(|t| t.id != done.id)
        .expect("Bob has a task")
        .clone();
    let talked = mine
        .iter()
        .find(|t| t.id != done.id && t.id != given.id)
        .expect("Alice has a second task")
        .clone();
    bob.patch_task(
        &given.id,
        &TaskPatch {
            assigned_to: Field::Set(alice_id.clone()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let before = alice.get_task(&talked.id).await.unwrap().updated_at;
    // By e-mail: the sandbox fills `mentioned_users` for it, and that list
    // is the truth (a name alone it does not list, so it is no mention).
    let text = format!("@{} can you look at this?", sb.keys[0].user_email);
    bob.add_comment(&talked.id, &text, &[]).await.unwrap();
    let after = alice.get_task(&talked.id).await.unwrap().updated_at;
    assert_eq!(before, after, "the sandbox keeps updated_at on a comment");
    bob.patch_task(
        &done.id,
        &TaskPatch {
            status: Some(Status::Completed),
            ..Default::default()
        },
    )
    .await
    .unwrap();

    // Within two walks (the comment may wait for its half of the
    // rotation).
    let _ = env.run(&["inbox", "--json"]).await;
    let got = json_items(&env.run(&["inbox", "--json"]).await);
    let of = |id: &str| -> Vec<&Value> { got.iter().filter(|i| i["task"]["id"] == id).collect() };
    let a = of(&given.id);
    assert_eq!(a.len(), 1, "{got:#?}");
    assert_eq!(a[0]["reason"], "assigned");
    let m = of(&talked.id);
    assert_eq!(m[0]["reason"], "mentioned", "{got:#?}");
    assert!(m[0]["words"].as_str().unwrap().contains("mentioned you"));
    let c = of(&done.id);
    let changed = c
        .iter()
        .find(|i| i["reason"] == "changed")
        .expect("completed one");
    assert_eq!(
        changed["changes"][0],
        serde_json::json!({"field": "status", "before": "in_progress", "after": "completed",
            "before_words": "in progress", "after_words": "completed"})
    );
    assert!(changed["at"].as_str().unwrap().ends_with('Z'));
    // Mentions come first.
    assert_eq!(got[0]["reason"], "mentioned", "{got:#?}");

    // The table says the same in words; a third walk adds nothing.
    let o = env.run(&["inbox"]).await;
    let text = stdout(&o);
    assert!(text.contains("status in progress → completed"), "{text}");
    assert!(text.contains("assigned to you"), "{text}");
    let again = json_items(&env.run(&["inbox", "--json"]).await);
    assert_eq!(again.len(), got.len());

    // Without the service: what was stored, and exit 5.
    sb.set_faults(taskdeck::sandbox::Faults {
        down: true,
        ..Default::default()
    });
    let o = env.run(&["inbox", "--json"]).await;
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let stored: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(stored.len(), got.len());
    assert!(stderr(&o).contains("the inbox as stored"), "{}", stderr(&o));
}

/// `--json`'s changes are the service's values exactly as received (its
/// `no_priority`, its due date strings), with taskdeck's words beside
/// them; the table keeps the words.
#[tokio::test]
async fn json_changes_carry_the_services_own_values() {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 60,
        ..Default::default()
    })
    .await
    .unwrap();
    let alice_key = &sb.keys[0].key;
    let env = Env::for_sandbox(&sb, alice_key);
    let alice = client(&sb, alice_key);
    let bob = client(&sb, &sb.keys[1].key);
    let alice_id = alice.me().await.unwrap().user_id;
    let mine = first_page(
        &alice,
        TaskQuery {
            assigned_to: Some(alice_id.clone()),
            status: vec!["in_progress".into()],
            ..Default::default()
        },
    )
    .await;
    let t = mine.first().expect("Alice has a task in progress").clone();
    let patch = |priority, due: &str| TaskPatch {
        priority: Some(priority),
        complete_by: Field::Set(due.to_string()),
        ..Default::default()
    };
    bob.patch_task(&t.id, &patch(Priority::NoPriority, "2030-03-01T17:00:00Z"))
        .await
        .unwrap();
    let was = alice.get_task(&t.id).await.unwrap();
    // The first walk learns the task as it is.
    let _ = json_items(&env.run(&["inbox", "--json"]).await);
    bob.patch_task(&t.id, &patch(Priority::High, "2030-03-08T09:30:00+01:00"))
        .await
        .unwrap();
    let now = alice.get_task(&t.id).await.unwrap();
    let got = json_items(&env.run(&["inbox", "--json"]).await);
    let changed = got
        .iter()
        .find(|i| i["task"]["id"] == t.id.as_str() && i["reason"] == "changed")
        .unwrap_or_else(|| panic!("{got:#?}"));
    let ch = changed["changes"].as_array().unwrap();
    let of = |f: &str| {
        ch.iter()
            .find(|c| c["field"] == f)
            .unwrap_or_else(|| panic!("{f} in {ch:#?}"))
    };
    let stamp = |t: &taskdeck::api::Task| Value::from(t.complete_by.as_deref().unwrap());
    assert_eq!(
        of("priority"),
        &serde_json::json!({"field": "priority", "before": "no_priority", "after": "high",
            "before_words": "-", "after_words": "high"})
    );
    let due = of("complete_by");
    assert_eq!(due["before"], stamp(&was), "{due}");
    assert_eq!(due["after"], stamp(&now), "{due}");
    assert!(due["before_words"].is_string() && due["after_words"].is_string());
    // The table keeps taskdeck's words.
    let text = stdout(&env.run(&["inbox"]).await);
    assert!(text.contains("priority - → high"), "{text}");
    assert!(text.contains("due "), "{text}");
}

/// Control characters, a long tail: the title as the service holds it.
const TITLE: &str = "Pay \u{9b}31minvoice\u{1b}]0;pwned\u{7} \u{202e}fdp.exe, then a long tail of words that goes well past a hundred columns: the end";
const TAIL: &str = "goes well past a hundred columns: the end";

fn has_raw_controls(s: &str) -> bool {
    s.chars()
        .any(|c| c != '\n' && (taskdeck::text::is_dangerous(c) || taskdeck::text::is_invisible(c)))
}

#[tokio::test]
async fn a_partial_walk_is_said_json_is_lossless_pipes_get_whole_titles_reminders_end() {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 30,
        ..Default::default()
    })
    .await
    .unwrap();
    let alice_key = &sb.keys[0].key;
    let env = Env::for_sandbox(&sb, alice_key);
    let alice = client(&sb, alice_key);
    let bob = client(&sb, &sb.keys[1].key);
    let alice_id = alice.me().await.unwrap().user_id;
    let first = json_items(&env.run(&["inbox", "--json"]).await);
    let mine = first_page(
        &alice,
        TaskQuery {
            assigned_to: Some(alice_id.clone()),
            ..Default::default()
        },
    )
    .await;
    // Open tasks of Alice's that Bob may see and change.
    let mut open = Vec::new();
    for t in mine.iter().filter(|t| t.status != Status::Completed) {
        if bob.get_task(&t.id).await.is_ok() {
            open.push(t);
        }
    }
    assert!(open.len() >= 3, "Alice has open tasks Bob sees");

    // §6: an overdue task of Alice's, due moved a week ahead by Bob: its
    // reminder ends at the next walk.
    let overdue = open[0];
    let past = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(30);
    let ahead = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(24 * 8);
    let due = |t: jiff::Timestamp| taskdeck::api::to_utc_seconds(t);
    bob.patch_task(
        &overdue.id,
        &TaskPatch {
            complete_by: Field::Set(due(past)),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let got = json_items(&env.run(&["inbox", "--json"]).await);
    let reminded = |got: &[Value]| {
        got.iter()
            .any(|i| i["task"]["id"] == overdue.id.as_str() && i["reason"] == "due")
    };
    assert!(reminded(&got), "{first:#?} {got:#?}");
    bob.patch_task(
        &overdue.id,
        &TaskPatch {
            complete_by: Field::Set(due(ahead)),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let got = json_items(&env.run(&["inbox", "--json"]).await);
    assert!(!reminded(&got), "the reminder ended: {got:#?}");

    // §11: a title with control characters, lossless in --json, whole
    // (and sanitised) into a pipe.
    let titled = open[1];
    bob.patch_task(
        &titled.id,
        &TaskPatch {
            title: Some(TITLE.into()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let o = env.run(&["inbox", "--json"]).await;
    let raw = stdout(&o);
    assert!(!has_raw_controls(&raw), "{raw}");
    let got = json_items(&o);
    let it = got
        .iter()
        .find(|i| i["task"]["id"] == titled.id.as_str())
        .expect("the retitled task");
    assert_eq!(it["task"]["title"], TITLE, "lossless");
    let change = it["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["field"] == "title")
        .unwrap();
    assert_eq!(change["after"], TITLE);
    let o = env.run(&["inbox"]).await;
    let text = stdout(&o);
    assert!(!has_raw_controls(&text), "{text}");
    assert!(text.contains(TAIL), "a whole title into a pipe: {text}");
    assert_eq!(text.lines().filter(|l| l.contains(TAIL)).count(), 1);
    let o = env.run(&["tasks", "--limit", "100"]).await;
    let text = stdout(&o);
    assert!(text.contains(TAIL), "a whole title into a pipe: {text}");
    assert!(!has_raw_controls(&text), "{text}");

    // §10: one answer garbled in the walk (a comment read): said on
    // stderr, which part, exit 3; the mention it hid comes within the
    // next walks.
    let email = &sb.keys[0].user_email;
    for t in &open[..3] {
        bob.add_comment(&t.id, &format!("@{email} a word"), &[])
            .await
            .unwrap();
    }
    sb.clear_requests();
    let n0 = sb.requests_received();
    // /me, the one page, then comment reads: the second of those.
    let garbled = n0 + 4;
    sb.set_faults(taskdeck::sandbox::Faults {
        garbage_every: garbled,
        ..Default::default()
    });
    let o = env.run(&["inbox"]).await;
    sb.set_faults(taskdeck::sandbox::Faults::default());
    let log = sb.requests();
    assert!(
        log[(garbled - n0 - 1) as usize].path.ends_with("/comments"),
        "{:?}",
        log.iter().map(|r| &r.path).collect::<Vec<_>>()
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("the inbox walk was partial: the comments of 1 task could not be read"),
        "{err}"
    );
    let mut mentioned = 0;
    for _ in 0..3 {
        let got = json_items(&env.run(&["inbox", "--json"]).await);
        mentioned = got.iter().filter(|i| i["reason"] == "mentioned").count();
    }
    assert_eq!(mentioned, 3);
}

/// `inbox --all-profiles` (#36 §1): two sandboxes as two profiles, each
/// walked with its own key and store; every item names its profile; one
/// service down is named on stderr, the other's items are printed, exit 6.
#[tokio::test]
async fn every_profile_in_one_inbox_and_one_down_is_partial() {
    let opts = || SandboxOptions {
        tasks: 60,
        ..Default::default()
    };
    let work = Sandbox::start_local(opts()).await.unwrap();
    let client_sb = Sandbox::start_local(opts()).await.unwrap();
    let env = Env::new();
    let config = env.write_config(&format!(
        "[profiles.work]\nbase_url = \"{}\"\napi_key = \"{}\"\n\n\
         [profiles.client]\nbase_url = \"{}\"\napi_key = \"{}\"\n",
        work.base_url(),
        work.keys[0].key,
        client_sb.base_url(),
        client_sb.keys[1].key,
    ));
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    // The first walks learn what there is (reminders only).
    let first = env.run(&["inbox", "--all-profiles", "--json"]).await;
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    // News on each service: a task of another user given to each profile's user.
    for (sb, me, other) in [(&work, 0usize, 1usize), (&client_sb, 1, 0)] {
        let mine = client(sb, &sb.keys[me].key);
        let theirs = client(sb, &sb.keys[other].key);
        let my_id = mine.me().await.unwrap().user_id;
        let their_id = theirs.me().await.unwrap().user_id;
        let t = first_page(
            &theirs,
            TaskQuery {
                assigned_to: Some(their_id),
                ..Default::default()
            },
        )
        .await
        .into_iter()
        .next()
        .expect("a task of the other user");
        theirs
            .patch_task(
                &t.id,
                &TaskPatch {
                    assigned_to: Field::Set(my_id),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
    }
    work.clear_requests();
    client_sb.clear_requests();
    let got = json_items(&env.run(&["inbox", "--all-profiles", "--json"]).await);
    let assigned = |p: &str| {
        got.iter()
            .filter(|i| i["profile"] == p && i["reason"] == "assigned")
            .count()
    };
    assert!(assigned("work") >= 1 && assigned("client") >= 1, "{got:#?}");
    assert!(got
        .iter()
        .all(|i| i["profile"] == "work" || i["profile"] == "client"));
    // Nothing of one is sent under the other: each service was asked,
    // and only with its own profile's key.
    for (sb, who) in [(&work, 0usize), (&client_sb, 1)] {
        let reqs = sb.requests();
        assert!(!reqs.is_empty());
        let email = sb.keys[who].user_email.clone();
        assert!(
            reqs.iter()
                .all(|r| r.caller.as_deref() == Some(email.as_str())),
            "a request with another profile's key: {reqs:?}"
        );
    }
    // The table has a profile column.
    let table = env.run(&["inbox", "--all-profiles"]).await;
    let out = stdout(&table);
    assert!(out.starts_with("PROFILE"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("work ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("client ")), "{out}");

    // The client's service goes down: named, the other printed, exit 6.
    client_sb.set_faults("down=1".parse().unwrap());
    let o = env.run(&["inbox", "--all-profiles", "--json"]).await;
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    assert!(stderr(&o).contains("profile client:"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("profile work:"), "{}", stderr(&o));
    let v: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.iter().any(|i| i["profile"] == "work"));
}

/// What `taskdeck inbox` read is searchable offline (#36 §2): a comment
/// Bob wrote on Alice's task, read by the walk, is found by
/// `taskdeck search WORD --offline`, saying where.
#[tokio::test]
async fn a_comment_the_inbox_read_is_found_offline_by_search() {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 60,
        ..Default::default()
    })
    .await
    .unwrap();
    let alice_key = &sb.keys[0].key;
    let env = Env::for_sandbox(&sb, alice_key);
    let (alice, bob) = (client(&sb, alice_key), client(&sb, &sb.keys[1].key));
    let alice_id = alice.me().await.unwrap().user_id;
    let _ = json_items(&env.run(&["inbox", "--json"]).await);
    let theirs = first_page(
        &alice,
        TaskQuery {
            assigned_to: Some(alice_id),
            status: vec!["in_progress".into()],
            ..Default::default()
        },
    )
    .await;
    let mut on = None;
    for t in &theirs {
        if bob.get_task(&t.id).await.is_ok() {
            on = Some(t.clone());
            break;
        }
    }
    let t = on.expect("a task of Alice's Bob sees");
    bob.add_comment(&t.id, "Where is the okapi memo?", &[])
        .await
        .unwrap();
    // Within two walks (the comment may wait for its half of the rotation).
    let _ = env.run(&["inbox"]).await;
    let _ = env.run(&["inbox"]).await;
    let o = env.run(&["search", "okapi", "--offline", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["stored"][0]["id"], t.id.as_str(), "{v:#}");
    assert_eq!(v["stored"][0]["matched"][0]["where"], "comment");
    assert_eq!(
        v["stored"][0]["matched"][0]["who"],
        sb.keys[1].user_name.as_str()
    );
}

/// Issue 42, point 11: profiles naming the same service and user are one
/// inbox — its items once (as the first profile's), the others said on
/// stderr; not counted once per profile.
#[tokio::test]
async fn profiles_of_one_service_and_user_are_one_inbox() {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 60,
        ..Default::default()
    })
    .await
    .unwrap();
    let env = Env::new();
    let mut config = String::new();
    for name in ["a", "b", "c"] {
        config.push_str(&format!(
            "[profiles.{name}]\nbase_url = \"{}\"\napi_key = \"{}\"\n\n",
            sb.base_url(),
            sb.keys[0].key
        ));
    }
    let path = env.write_config(&config);
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let first = env.run(&["inbox", "--all-profiles", "--json"]).await;
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    // News: a task of another user given to this one.
    let mine = client(&sb, &sb.keys[0].key);
    let theirs = client(&sb, &sb.keys[1].key);
    let my_id = mine.me().await.unwrap().user_id;
    let their_id = theirs.me().await.unwrap().user_id;
    let t = first_page(
        &theirs,
        TaskQuery {
            assigned_to: Some(their_id),
            ..Default::default()
        },
    )
    .await
    .into_iter()
    .next()
    .expect("a task of the other user");
    theirs
        .patch_task(
            &t.id,
            &TaskPatch {
                assigned_to: Field::Set(my_id),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let o = env.run(&["inbox", "--all-profiles", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let got: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    let alone = json_items(
        &env.run(&["--profile", "a", "inbox", "--json", "--all"])
            .await,
    );
    assert!(!got.is_empty());
    assert!(got.iter().all(|i| i["profile"] == "a"), "{got:#?}");
    assert!(got.len() <= alone.len(), "{} > {}", got.len(), alone.len());
    // The news itself: once (not once a profile), as profile a's, with
    // what it is — the task given to this user, its title as the service
    // has it.
    let news: Vec<&Value> = got
        .iter()
        .filter(|i| i["task"]["id"] == t.id.as_str())
        .collect();
    assert_eq!(news.len(), 1, "the item once: {got:#?}");
    let it = news[0];
    assert_eq!(it["profile"], "a");
    assert_eq!(it["reason"], "assigned", "{it:#?}");
    assert_eq!(it["task"]["title"], t.title.raw(), "{it:#?}");
    let err = stderr(&o);
    for p in ["b", "c"] {
        assert!(
            err.contains(&format!(
                "profile {p}: the same service and user as profile a"
            )),
            "{err}"
        );
    }
}
