//! The all-profile inbox's other profiles with the real binary in a
//! pseudo-terminal: they connect in the background, quietly, once per
//! process (the TUI is on screen while another profile's
//! `api_key_command` still waits; their config warnings are not printed
//! over the terminal again; a `:profile` switch there and back runs no key
//! command a second time), and a profile whose service is down shows its
//! inbox as stored.

mod support;

use support::*;
use taskdeck::api::{ApiKey, Client, ClientConfig, Field, TaskPatch, TaskQuery};

fn client(svc: &Service, key: &str) -> Client {
    Client::new(ClientConfig::new(
        svc.sb.base_url(),
        ApiKey::new(key.to_string()),
    ))
    .unwrap()
}

fn private(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

/// The bytes written before the TUI took the screen (the alternate
/// screen's switch), as text.
fn before_first_frame(raw: &[u8]) -> String {
    let switch = b"\x1b[?1049h";
    let end = raw
        .windows(switch.len())
        .position(|w| w == switch)
        .unwrap_or(raw.len());
    String::from_utf8_lossy(&raw[..end]).into_owned()
}

/// Give the `client` profile's user a task of another user: news in that
/// profile's inbox. Its label.
fn news_for(svc: &Service, key: &str) -> String {
    let theirs = client(svc, &svc.sb.keys[0].key);
    let my_id = svc.user_id(key);
    let their_id = svc.user_id(&svc.sb.keys[0].key);
    let q = TaskQuery {
        assigned_to: Some(their_id),
        ..Default::default()
    };
    let t = svc
        .rt
        .block_on(theirs.list_tasks(&q, 100, None))
        .unwrap()
        .items
        .iter()
        .filter_map(|i| i.task().cloned())
        .find(|t| !t.title.line().is_empty())
        .expect("a task of the other user");
    svc.rt
        .block_on(theirs.patch_task(
            &t.id,
            &TaskPatch {
                assigned_to: Field::Set(my_id),
                ..Default::default()
            },
        ))
        .unwrap();
    t.display_id.line().into_owned()
}

/// Started as `work`, with the `client` profile's `api_key_command`
/// waiting (until the test lets it print its key): the first frame is on
/// screen all the same, and the client's config warning was said once
/// before it (by the current profile's reading of the file), not once more
/// per other profile. Once let go, the client's news is shown; then
/// `:profile client` and `:profile work` again: the client's key command
/// ran once in all. A profile added to the file then is one to switch to.
#[test]
fn other_profiles_connect_in_the_background_once_and_quietly() {
    let work = Service::small();
    let client_svc = Service::small();
    let home = Home::new();
    let work_key = work.sb.keys[0].key.clone();
    let client_key = client_svc.sb.keys[1].key.clone();
    let go = home.root().join("go");
    let runs = home.root().join("runs");
    let config = home.root().join("profiles.toml");
    // It waits for `go` (a minute at most: without it, a process left
    // behind by a failed run ends by itself). `api_key` beside it: a
    // warning naming the profile.
    let command = format!(
        "echo run ${{GPG_TTY:-none}} >> {}; i=0; while [ ! -e {} ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; echo {client_key}",
        runs.display(),
        go.display()
    );
    std::fs::write(
        &config,
        format!(
            "inbox_refresh_secs = 600\napi_key_command_timeout_secs = 600\n\n\
             [profiles.work]\nbase_url = \"{}\"\napi_key = \"{work_key}\"\n\n\
             [profiles.client]\nbase_url = \"{}\"\napi_key = \"unused\"\n\
             api_key_command = \"{command}\"\n",
            work.sb.base_url(),
            client_svc.sb.base_url(),
        ),
    )
    .unwrap();
    private(&config);
    let env = vec![("TASKDECK_CONFIG".to_string(), config.display().to_string())];
    let label = news_for(&client_svc, &client_key);
    // A first walk of both (the CLI's, its key command let go): what there
    // is is stored, so the TUI's walks have only to catch up.
    std::fs::write(&go, "").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_taskdeck"))
        .args(["inbox", "--all-profiles", "--json"])
        .env_clear()
        .envs(home.env().into_iter().chain(env.clone()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    std::fs::remove_file(&go).unwrap();
    std::fs::remove_file(&runs).unwrap();

    // The terminal's name for gpg: a key command run in the background
    // must not get it (its pinentry would draw over the TUI).
    let mut tui_env = env.clone();
    tui_env.push(("GPG_TTY".into(), "/dev/pts/taskdeck-test".into()));
    let mut tui = Tui::spawn(&home, &["--profile", "work"], &tui_env, 140, 40);
    // On screen while the client's key command still waits.
    tui.wait_for("┌#", WAIT);
    assert!(!go.exists());
    let said = before_first_frame(&tui.raw());
    // As said on stderr (the TUI shows the file's warnings itself too).
    let warning = "taskdeck: warning: ";
    assert_eq!(
        said.matches(warning).count(),
        1,
        "the file's warnings once, by the current profile's reading:\n{said}"
    );
    std::fs::write(&go, "").unwrap();
    tui.send("i");
    tui.wait_for(&format!("[client] {label}"), WAIT);
    // Nor said over the screen once the client profile was connected.
    let said = String::from_utf8_lossy(&tui.raw()).into_owned();
    assert_eq!(said.matches(warning).count(), 1, "{said}");
    tui.send("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(300));
    // There and back: each profile's connection is the one made before.
    tui.send(":profile client\r");
    tui.wait_for("profile client", WAIT);
    tui.wait_for("┌#", WAIT);
    tui.send(":profile work\r");
    tui.wait_for("profile work", WAIT);
    tui.send("i");
    tui.wait_for(&format!("[client] {label}"), WAIT);
    // The terminal was asked its background once (theme = "auto"): a
    // switch keeps what it said, without another wait.
    let raw = tui.raw();
    let asked = raw.windows(7).filter(|w| w == b"\x1b]11;?\x07").count();
    assert_eq!(asked, 1, "the terminal's background asked {asked} times");
    let ran = std::fs::read_to_string(&runs).unwrap();
    assert_eq!(
        ran.lines().collect::<Vec<_>>(),
        ["run none"],
        "the client's key command ran once, without GPG_TTY: {ran:?}"
    );
    // A profile added to the file meanwhile is one `:profile` knows: the
    // names are those of the file as it is, not of the first reading.
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "\n[profiles.extra]\nbase_url = \"{}\"\napi_key = \"{work_key}\"\n",
        work.sb.base_url()
    ));
    std::fs::write(&config, text).unwrap();
    tui.send("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(300));
    tui.send(":profile extra\r");
    tui.wait_for("profile extra", WAIT);
    // The log names where a key comes from, never the key command.
    tui.send("q");
    tui.wait_exit(WAIT);
    let logs: Vec<String> = home
        .files()
        .into_iter()
        .filter(|f| {
            f.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("taskdeck.log")
        })
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let log = logs.concat();
    assert!(
        log.contains("api_key_command"),
        "the source is logged: {logs:?}"
    );
    // (The key itself is redacted in any case; the rest of a command may
    // hold other secrets: a password option, a token file's path.)
    assert!(!log.contains(&client_key), "{log}");
    assert!(
        !log.contains("GPG_TTY:-none"),
        "the command's text is not logged: {log}"
    );
}

/// The client profile's inbox is walked (and stored) while its service is
/// up; then, its service stopped, the TUI started as `work` shows the
/// client's stored item, labelled, with the line saying the service
/// cannot be reached and the items are as stored.
#[test]
fn a_down_profile_shows_its_inbox_as_stored() {
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
             [profiles.client]\nbase_url = \"{}\"\napi_key = \"{client_key}\"\n",
            work.sb.base_url(),
            client_svc.sb.base_url(),
        ),
    )
    .unwrap();
    private(&config);
    let env = vec![("TASKDECK_CONFIG".to_string(), config.display().to_string())];
    let walk = || all_profiles_json(&home, &env);
    // The first walk learns what there is; the second stores the news.
    walk();
    let label = news_for(&client_svc, &client_key);
    assert!(walk().contains(&label));
    drop(client_svc);

    let tui = Tui::spawn(&home, &["--profile", "work"], &env, 140, 40);
    tui.wait_for("┌#", WAIT);
    tui.send("i");
    tui.wait_for("Inbox", WAIT);
    tui.wait_until("the client's stored item and its line", WAIT, |s| {
        s.contains(&format!("[client] {label}"))
            && s.contains("[client] its service cannot be reached")
            && s.contains("(its inbox as stored is shown)")
    });
}

/// `:profile client` while the client's key command still runs for its
/// inbox walker in the background (here: it sleeps unless it has a
/// terminal): the switch stops it and asks the key in the foreground, at
/// once — not after the background command's time limit, on a blank
/// screen.
#[test]
fn a_switch_does_not_wait_for_a_key_command_left_running_in_the_background() {
    let work = Service::small();
    let client_svc = Service::small();
    let home = Home::new();
    let work_key = work.sb.keys[0].key.clone();
    let client_key = client_svc.sb.keys[1].key.clone();
    let config = home.root().join("profiles.toml");
    let command = format!("if [ -t 0 ]; then echo {client_key}; else sleep 60; fi");
    std::fs::write(
        &config,
        format!(
            "inbox_refresh_secs = 600\napi_key_command_timeout_secs = 600\n\n\
             [profiles.work]\nbase_url = \"{}\"\napi_key = \"{work_key}\"\n\n\
             [profiles.client]\nbase_url = \"{}\"\napi_key_command = \"{command}\"\n",
            work.sb.base_url(),
            client_svc.sb.base_url(),
        ),
    )
    .unwrap();
    private(&config);
    let env = vec![("TASKDECK_CONFIG".to_string(), config.display().to_string())];
    let mut tui = Tui::spawn(&home, &["--profile", "work"], &env, 140, 40);
    tui.wait_for("┌#", WAIT);
    tui.send(":profile client\r");
    tui.wait_for("profile client", WAIT);
    tui.wait_for("┌#", WAIT);
    // The run after the switch listens to signals (the first run's
    // listening was closed with it): SIGTERM ends it, 128 + 15.
    // SAFETY: kill(2) on the process this test started.
    unsafe { libc::kill(tui.pid(), libc::SIGTERM) };
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 128 + 15);
}

/// A task of `from`'s user given to `to`'s user (the `nth` such task with
/// a title): news in `to`'s inbox. Its label.
fn give(svc: &Service, from: &str, to: &str, nth: usize) -> String {
    let theirs = client(svc, from);
    let to_id = svc.user_id(to);
    let q = TaskQuery {
        assigned_to: Some(svc.user_id(from)),
        ..Default::default()
    };
    let t = svc
        .rt
        .block_on(theirs.list_tasks(&q, 100, None))
        .unwrap()
        .items
        .iter()
        .filter_map(|i| i.task().cloned())
        .filter(|t| !t.title.line().is_empty())
        .nth(nth)
        .expect("a task to give");
    svc.rt
        .block_on(theirs.patch_task(
            &t.id,
            &TaskPatch {
                assigned_to: Field::Set(to_id),
                ..Default::default()
            },
        ))
        .unwrap();
    t.display_id.line().into_owned()
}

/// `taskdeck inbox --all-profiles --json` with the home's environment and
/// `env`: its output, the exit code 0 (every profile read).
fn all_profiles_json(home: &Home, env: &[(String, String)]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_taskdeck"))
        .args(["inbox", "--all-profiles", "--json"])
        .env_clear()
        .envs(home.env().into_iter().chain(env.iter().cloned()))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The inbox's rows as shown, in order: each row's first line, from its
/// profile's label on.
fn inbox_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter_map(|l| {
            let at = l.find("[default] #").or_else(|| l.find("[bob] #"))?;
            Some(l[at..].to_string())
        })
        .collect()
}

/// The inbox's first row is the given profile's: the current profile's
/// rows come first (issue 46 §1).
fn first_is(screen: &str, label: &str) -> bool {
    inbox_rows(screen)
        .first()
        .is_some_and(|r| r.starts_with(label))
}

/// Issue 46 §1: the connection at the config's top level (Alice's) is the
/// profile `default`, beside `[profiles.bob]`. Started with `--profile
/// default`, the inbox shows both profiles' items, labelled; enter on a
/// `[bob]` row switches to Bob (the header names him) and opens it, and the
/// inbox there still holds Alice's item as `[default]`; `:profile default`
/// goes back to Alice with the inbox whole again; then to Bob once more.
/// `taskdeck inbox --all-profiles` names the top level `default` too.
#[test]
fn the_top_level_is_the_profile_default_and_switching_goes_both_ways_with_the_inbox_whole() {
    let svc = Service::small();
    let home = Home::new();
    let alice_key = svc.sb.keys[0].key.clone();
    let bob_key = svc.sb.keys[1].key.clone();
    let config = home.root().join("profiles.toml");
    std::fs::write(
        &config,
        format!(
            "inbox_refresh_secs = 600\nbase_url = \"{url}\"\napi_key = \"{alice_key}\"\n\n\
             [profiles.bob]\nbase_url = \"{url}\"\napi_key = \"{bob_key}\"\n",
            url = svc.sb.base_url(),
        ),
    )
    .unwrap();
    private(&config);
    let env = vec![("TASKDECK_CONFIG".to_string(), config.display().to_string())];
    let all_profiles =
        || serde_json::from_str::<Vec<serde_json::Value>>(&all_profiles_json(&home, &env)).unwrap();
    // The first walk learns what there is; then news for each.
    all_profiles();
    let alices = give(&svc, &bob_key, &alice_key, 0);
    let bobs = [
        give(&svc, &alice_key, &bob_key, 0),
        give(&svc, &alice_key, &bob_key, 1),
    ];
    let items = all_profiles();
    let has = |p: &str, label: &str| {
        items
            .iter()
            .any(|i| i["profile"] == p && i["task"]["display_id"] == label)
    };
    assert!(
        has("default", &alices) && bobs.iter().all(|b| has("bob", b)),
        "{items:#?}"
    );

    let host = format!("[{}]", svc.sb.base_url().trim_start_matches("http://"));
    let bob_header = format!(
        "[{} · profile bob]",
        svc.sb.base_url().trim_start_matches("http://")
    );
    let whole = |s: &str, opened: Option<&str>| {
        s.contains(&format!("[default] {alices} "))
            && bobs
                .iter()
                .filter(|b| Some(b.as_str()) != opened)
                .all(|b| s.contains(&format!("[bob] {b} ")))
    };
    let mut tui = Tui::spawn(&home, &["--profile", "default"], &env, 140, 40);
    tui.wait_until("Alice's session, the top level", WAIT, |s| {
        s.contains(&host) && s.contains("┌#")
    });
    tui.send("i");
    tui.wait_until("both profiles' items", WAIT, |s| whole(s, None));
    // Down to the first of Bob's rows, then enter.
    let rows = inbox_rows(&tui.screen());
    let at = rows
        .iter()
        .position(|r| r.starts_with("[bob] "))
        .unwrap_or_else(|| panic!("a [bob] row: {rows:?}"));
    let opened = rows[at]
        .trim_start_matches("[bob] ")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    tui.send(&"j".repeat(at));
    tui.send("\r");
    tui.wait_until("Bob's session, the row opened", WAIT, |s| {
        s.contains(&bob_header) && s.contains(&format!("▶ {opened} "))
    });
    tui.send("i");
    tui.wait_until("Alice's item beside Bob's other one", WAIT, |s| {
        whole(s, Some(&opened))
    });
    tui.send("\x1b");
    tui.wait_until("the inbox closed", WAIT, |s| !s.contains("Inbox —"));
    // Back to the top level by its name.
    tui.send(":profile default\r");
    tui.wait_until("Alice's session again", WAIT, |s| {
        s.contains(&host) && !s.contains(&bob_header) && s.contains("┌#")
    });
    tui.send("i");
    tui.wait_until("the inbox whole again, Alice's rows first", WAIT, |s| {
        whole(s, Some(&opened)) && first_is(s, "[default] ")
    });
    tui.send("\x1b");
    tui.wait_until("the inbox closed", WAIT, |s| !s.contains("Inbox —"));
    // And the same way once more.
    tui.send(":profile bob\r");
    tui.wait_until("Bob's session again", WAIT, |s| {
        s.contains(&bob_header) && s.contains("┌#")
    });
    tui.send("i");
    tui.wait_until("the inbox whole there too, Bob's rows first", WAIT, |s| {
        whole(s, Some(&opened)) && first_is(s, "[bob] ")
    });
    tui.send("\x1b");
    tui.wait_until("the inbox closed", WAIT, |s| !s.contains("Inbox —"));
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
    // Nothing it started is left running: no process carries its config.
    let mark = format!("TASKDECK_CONFIG={}", config.display());
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter(|e| {
            std::fs::read(e.path().join("environ"))
                .map(|env| env.split(|b| *b == 0).any(|v| v == mark.as_bytes()))
                .unwrap_or(false)
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.is_empty(), "processes left behind: {left:?}");
}
