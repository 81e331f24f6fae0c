//! Everything seen, searchable offline (#36 §2), with the real binary: a
//! comment Bob wrote is read once in a session (the Comments tab); with
//! the service down, `/` in the TUI finds its task by a word of it and
//! says where (`comment by Bob Okafor: "…"`), and `taskdeck search` finds
//! it too, says the service was not reached and exits 5. No assertion
//! depends on how fast anything is: the service is down for good.

mod support;

use support::*;
use taskdeck::api::{ApiKey, Client, ClientConfig, TaskQuery};

fn quit(tui: &mut Tui) {
    tui.send("q");
    let st = tui.wait_exit(WAIT);
    assert_eq!(st.exit_code(), 0, "q exits with 0");
}

#[test]
fn a_word_of_a_comment_is_found_offline_in_the_tui_and_the_cli() {
    let svc = Service::small();
    let home = Home::new();
    // A task Bob and Alice both see; Bob comments on it.
    let client =
        |key: &str| Client::new(ClientConfig::new(svc.sb.base_url(), ApiKey::new(key))).unwrap();
    let (alice, bob) = (client(KEY), client("demo-bob-acme"));
    let (id, number) = svc.rt.block_on(async {
        let page = bob
            .list_tasks(&TaskQuery::default(), 100, None)
            .await
            .unwrap();
        for t in page.items.iter().filter_map(|i| i.task()) {
            if alice.get_task(&t.id).await.is_ok() {
                return (t.id.to_string(), t.task_number.unwrap());
            }
        }
        panic!("no task both see");
    });
    svc.rt
        .block_on(bob.add_comment(&id, "Have you read the zebra memo yet?", &[]))
        .unwrap();
    let first = format!("#{number}");

    // A session reads it: the task's Comments tab.
    let mut tui = launch_ready(&svc, &home);
    open_number(&tui, number as u32);
    tui.send("]");
    tui.wait_for("zebra memo", WAIT);
    quit(&mut tui);

    // The service goes away.
    svc.set_faults("down=1");
    // Wide: the list's title column has room for where it was found.
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 220, 40);
    tui.wait_for("OFFLINE", WAIT);
    tui.send("/zebra");
    tui.wait_until("the stored match, found through the comment", WAIT, |s| {
        s.contains("comment by Bob Okafor") && s.contains("stored matches only (offline)")
    });
    let screen = tui.screen();
    let row = screen
        .lines()
        .find(|l| l.contains("comment by Bob Okafor"))
        .unwrap();
    assert!(row.contains(&first), "the row of the task: {row}");
    tui.send("\r");
    quit(&mut tui);

    // The CLI, the service still down.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_taskdeck"))
        .args(["search", "zebra"])
        .env_clear()
        .envs(home.env())
        .envs(svc.env())
        .env("COLUMNS", "200")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&first)
            && stdout.contains("comment by Bob Okafor: \"Have you read the zebra memo yet?\""),
        "{stdout}"
    );
    assert!(
        stderr.contains("the stored matches only are shown"),
        "{stderr}"
    );
    // --offline asks nobody and exits 0; --json says where.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_taskdeck"))
        .args(["search", "zebra", "--offline", "--json"])
        .env_clear()
        .envs(home.env())
        .envs(svc.env())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["service"], serde_json::Value::Null);
    assert_eq!(v["stored"][0]["id"], id.as_str());
    assert_eq!(v["stored"][0]["matched"][0]["where"], "comment");
    assert_eq!(v["stored"][0]["matched"][0]["who"], "Bob Okafor");
}
