//! Issue 40 with the real binary in a pseudo-terminal: at 80 columns an
//! inbox reason too wide for the line stops at a word's end and says it
//! was cut (`…`); a rebinding in the config is what the hints say (the
//! Links tab names `K`, not `C`, for the check ids).

mod support;

use support::*;
use taskdeck::api::{ApiKey, Client, ClientConfig, TaskQuery};

const BOB: &str = "demo-bob-acme";

fn client(svc: &Service, key: &str) -> Client {
    Client::new(ClientConfig::new(
        svc.sb.base_url(),
        ApiKey::new(key.to_string()),
    ))
    .unwrap()
}

#[test]
fn at_80_columns_an_inbox_reason_is_cut_at_a_word_with_the_mark() {
    let svc = Service::small();
    let home = Home::new();
    let alice = client(&svc, KEY);
    let bob = client(&svc, BOB);
    let alice_id = svc.user_id(KEY);

    let mut tui = Tui::spawn(&home, &[], &svc.env(), 80, 24);
    tui.wait_for("Alice Martin", WAIT);
    // The first walk learns what there is.
    tui.send("i");
    tui.wait_for("read just now", WAIT);
    // Every key the popup lists is readable at 80 columns (its foot was
    // cut at the frame: `… f follo…`): the keys wrap onto a line of their own.
    let screen = tui.screen();
    for k in [
        "enter open",
        "d done",
        "u undo",
        "f follow-up",
        "a all",
        "r now",
    ] {
        assert!(screen.contains(k), "{k:?} in the inbox's foot:\n{screen}");
    }
    tui.send("\x1b");
    tui.wait_until("the inbox closed", WAIT, |s| !s.contains("read just now"));

    // Bob mentions Alice in a long comment on a task of hers.
    // One Bob can read too.
    let mine = svc
        .rt
        .block_on(bob.list_tasks(
            &TaskQuery {
                assigned_to: Some(alice_id),
                ..Default::default()
            },
            100,
            None,
        ))
        .unwrap();
    let task = mine
        .items
        .iter()
        .find_map(|i| i.task().cloned())
        .expect("a task of Alice's");
    let email = svc.rt.block_on(alice.me()).unwrap().user_email;
    let text = format!(
        "@{} the counterparty has sent a revised draft of the agreement overnight",
        email.raw()
    );
    svc.rt
        .block_on(bob.add_comment(&task.id, &text, &[]))
        .unwrap();

    tui.send("i");
    tui.send("r");
    tui.wait_until("the mention", WAIT, |s| s.contains("mentioned you"));
    let screen = tui.screen();
    let why = screen
        .lines()
        .find(|l| l.contains("mentioned you"))
        .unwrap()
        .trim_matches(|c: char| c == '┃' || c == '│' || c == ' ')
        .to_string();
    let full = format!("Bob Okafor mentioned you: “{text}”");
    assert!(why.ends_with('…'), "the cut says so: {why:?}\n{screen}");
    let kept = why.trim_end_matches('…');
    assert!(full.starts_with(kept), "{why:?} is the start of {full:?}");
    assert!(
        full[kept.len()..].starts_with(' '),
        "cut at a word's end: {why:?}\n{screen}"
    );
    tui.send("\x1b");
    // Wait for the inbox to close (not a fixed pause): a `q` sent while the
    // Esc is still being read as the start of a sequence would be lost.
    tui.wait_until("the inbox closed", WAIT, |s| !s.contains("mentioned you"));
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

#[test]
fn a_rebinding_in_the_config_is_what_the_links_tab_says() {
    let svc = Service::small();
    let home = Home::new();
    let cfg = home.root().join("config.toml");
    std::fs::write(
        &cfg,
        "[keys.task]\n\"K\" = \"edit_check_ids\"\n\"C\" = \"none\"\n",
    )
    .unwrap();
    let env = env_with(svc.env(), "TASKDECK_CONFIG", &cfg.display().to_string());
    let mut tui = Tui::spawn(&home, &[], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_for("┌#", WAIT);
    tui.send("]]]");
    tui.wait_for("check ids (reviews)", WAIT);
    let screen = tui.screen();
    assert!(screen.contains("K check ids (reviews)"), "{screen}");
    assert!(!screen.contains("C check ids"), "{screen}");
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}
