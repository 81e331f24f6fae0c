//! Right person, right service: with the real binary in a pseudo-terminal,
//! a start opens only the store of the user its key belongs to. Bob,
//! starting while the service is away after Alice worked, sees nothing of
//! Alice's; an edit Bob queues offline is sent with Bob's key, never with
//! Alice's. No assertion depends on how fast anything is: the service is
//! down for longer than any wait.

mod support;

use support::*;

const BOB: &str = "demo-bob-acme";

fn env_with_key(svc: &Service, key: &str) -> Vec<(String, String)> {
    env_with(svc.env(), "TASKDECK_API_KEY", key)
}

/// A session as `key`'s user (named `name` in the header): the list loads,
/// `j` makes the second row current and its detail shows; quit. Returns
/// the current task's label.
fn session(svc: &Service, home: &Home, key: &str, name: &str) -> String {
    let tui = Tui::spawn(home, &[], &env_with_key(svc, key), 120, 40);
    tui.wait_for(name, WAIT);
    tui.wait_until("the first page", WAIT, |s| {
        s.contains("(more below)") || s.contains("(all)")
    });
    tui.send("j");
    let screen = tui.screen();
    let second = second_row(&screen);
    tui.wait_for(&format!("┌{second} "), WAIT);
    let mut tui = tui;
    tui.send("q");
    let st = tui.wait_exit(WAIT);
    assert_eq!(st.exit_code(), 0, "q exits with 0");
    second
}

#[test]
fn a_key_never_seen_opens_nothing_of_the_last_user_offline() {
    let svc = Service::small();
    let home = Home::new();
    let alices = session(&svc, &home, KEY, "Alice Martin");
    svc.set_faults("down=1");
    let mut tui = Tui::spawn(&home, &[], &env_with_key(&svc, BOB), 120, 40);
    tui.wait_for("nothing stored for this key yet", WAIT);
    let screen = tui.screen();
    assert!(
        !screen.contains(&format!("{alices} ")),
        "Alice's current task is not shown to Bob: {screen}"
    );
    assert!(!screen.contains("Alice Martin"), "{screen}");
    assert!(!screen.contains("cached "), "no stored rows: {screen}");
    tui.signal(libc::SIGTERM);
    tui.wait_exit(WAIT);
}

#[test]
fn an_edit_queued_offline_is_sent_with_the_key_of_the_user_who_made_it() {
    let svc = Service::small();
    let home = Home::new();
    let bobs = session(&svc, &home, BOB, "Bob Okafor");
    // Alice is the last user on this service.
    session(&svc, &home, KEY, "Alice Martin");
    let id = svc.task_id(&bobs);
    let patches = |who: &str| {
        svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"))
            .into_iter()
            .filter(|r| r.caller.as_deref() == Some(who))
            .count()
    };

    // Bob, offline: his own stored task is current; the edit is queued.
    svc.set_faults("down=1");
    let mut tui = Tui::spawn(&home, &[], &env_with_key(&svc, BOB), 120, 40);
    tui.wait_for("OFFLINE", WAIT);
    tui.wait_for(&format!("┌{bobs} "), WAIT);
    let before = svc.sb.task_json(&bobs).unwrap()["priority"].clone();
    let wanted = if before == "low" { "high" } else { "low" };
    tui.send(&format!(":priority {wanted}\r"));
    tui.wait_for("outbox 1", WAIT);
    tui.wait_for(&format!("priority → {wanted} queued"), WAIT);
    tui.signal(libc::SIGTERM);
    tui.wait_exit(WAIT);

    // Alice, online: nothing of Bob's outbox is hers to send.
    svc.set_faults("");
    let mut tui = Tui::spawn(&home, &[], &env_with_key(&svc, KEY), 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| {
        s.contains("(more below)") || s.contains("(all)")
    });
    tui.send("r");
    tui.wait_until("the reload", WAIT, |s| s.contains("(more below)"));
    assert_eq!(patches("alice@acme.test"), 0, "never with Alice's key");
    assert_eq!(patches("bob@acme.test"), 0);
    tui.send("q");
    tui.wait_exit(WAIT);

    // Bob, online: his edit goes, with his key, once.
    let mut tui = Tui::spawn(&home, &[], &env_with_key(&svc, BOB), 120, 40);
    tui.wait_for("Bob Okafor", WAIT);
    tui.wait_until("Bob's edit", WAIT, |_| patches("bob@acme.test") == 1);
    assert_eq!(patches("alice@acme.test"), 0);
    assert_eq!(svc.sb.task_json(&bobs).unwrap()["priority"], wanted);
    tui.signal(libc::SIGTERM);
    tui.wait_exit(WAIT);
}

/// The store folder's `identities` file (key fingerprint → user id).
fn identities(home: &Home) -> std::path::PathBuf {
    home.files()
        .into_iter()
        .find(|p| p.ends_with("identities"))
        .expect("an identities file")
}

#[test]
fn an_edit_made_before_the_service_names_another_user_moves_to_that_users_store() {
    let svc = Service::small();
    let home = Home::new();
    let alices = session(&svc, &home, KEY, "Alice Martin");
    session(&svc, &home, BOB, "Bob Okafor");
    // A stale map: each key now points at the other user (as if the keys
    // had been reassigned since).
    let path = identities(&home);
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (k1, k2): (Vec<_>, Vec<_>) = map.iter().enumerate().partition(|(i, _)| *i == 0);
    let (a, b) = (k1[0].1, k2[0].1);
    let swapped = serde_json::json!({ a.0.clone(): b.1.clone(), b.0.clone(): a.1.clone() });
    std::fs::write(&path, swapped.to_string()).unwrap();

    // Bob offline: Alice's store opens (the stale map); an edit is queued.
    svc.set_faults("down=1");
    let mut tui = Tui::spawn(&home, &[], &env_with_key(&svc, BOB), 120, 40);
    tui.wait_for("OFFLINE", WAIT);
    tui.wait_for(&format!("┌{alices} "), WAIT);
    let id = svc.task_id(&alices);
    let before = svc.sb.task_json(&alices).unwrap()["priority"].clone();
    let wanted = if before == "low" { "high" } else { "low" };
    tui.send(&format!(":priority {wanted}\r"));
    tui.wait_for("outbox 1", WAIT);
    // The service is back and names Bob: the edit goes with Bob's key,
    // never Alice's, and Bob's own store is now the one shown.
    svc.set_faults("");
    let patches = |who: &str| {
        svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"))
            .into_iter()
            .filter(|r| r.caller.as_deref() == Some(who))
            .count()
    };
    tui.wait_until(
        "the edit, as Bob",
        std::time::Duration::from_secs(60),
        |_| patches("bob@acme.test") == 1,
    );
    tui.wait_for("Bob Okafor", WAIT);
    tui.send("q");
    tui.wait_exit(WAIT);

    // Alice, online: her store holds nothing of it to send.
    let mut tui = Tui::spawn(&home, &[], &env_with_key(&svc, KEY), 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    tui.send("r");
    tui.wait_until("the reload", WAIT, |s| s.contains("(more below)"));
    assert!(!tui.screen().contains("outbox 1"), "{}", tui.screen());
    assert_eq!(patches("alice@acme.test"), 0, "never with Alice's key");
    assert_eq!(patches("bob@acme.test"), 1, "once");
    tui.send("q");
    tui.wait_exit(WAIT);
}
