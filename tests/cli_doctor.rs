//! `taskdeck doctor` as a user runs it: against the sandbox up, down, with
//! a certificate file that is not there, and with a refused key. Exit 0
//! only when every check holds; the key never in what it prints; `--json`
//! parses.

mod cli_env;

use cli_env::*;
use serde_json::Value;
use std::process::Output;
use taskdeck::sandbox::{Sandbox, SandboxOptions};

async fn sandbox() -> Sandbox {
    Sandbox::start_local(SandboxOptions {
        tasks: 50,
        ..Default::default()
    })
    .await
    .unwrap()
}

/// An environment that would pass every terminal-side check: a TERM that
/// draws, and no multiplexer of the caller's leaking in.
fn env_for(sb_url: &str, key: &str) -> Env {
    let mut env = Env::new();
    env.set("TASKDECK_BASE_URL", sb_url);
    env.set("TASKDECK_API_KEY", key);
    env.set("TERM", "xterm-256color");
    env.set("TMUX", "");
    env.set("STY", "");
    env
}

fn checks(o: &Output) -> Vec<Value> {
    let v: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)));
    v["checks"].as_array().expect("a checks array").clone()
}

fn check<'a>(all: &'a [Value], name: &str) -> &'a Value {
    all.iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no check {name} in {all:?}"))
}

fn assert_no_key(o: &Output, key: &str) {
    assert!(!stdout(o).contains(key), "the key in stdout: {}", stdout(o));
    assert!(!stderr(o).contains(key), "the key in stderr: {}", stderr(o));
}

#[tokio::test]
async fn with_the_service_up_every_check_holds_and_says_who_the_key_acts_as() {
    let sb = sandbox().await;
    let k = &sb.keys[0];
    let env = env_for(&sb.base_url(), &k.key);
    let o = env.run(&["doctor"]).await;
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("every check holds"), "{out}");
    assert!(
        out.contains(&k.user_name) && out.contains(&k.org_name),
        "{out}"
    );
    assert!(
        out.contains("from environment"),
        "where the key comes from: {out}"
    );
    assert!(out.contains("over plain HTTP"), "{out}");
    assert!(!out.contains("PROBLEM"), "{out}");
    assert_no_key(&o, &k.key);

    let o = env.run(&["doctor", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let all = checks(&o);
    for name in [
        "version",
        "terminal",
        "theme",
        "keyboard",
        "multiplexer",
        "ssh",
        "clipboard",
        "notifications",
        "config",
        "profiles",
        "key",
        "store",
        "service",
        "requester thread",
        "visual builder",
    ] {
        let c = check(&all, name);
        assert_eq!(c["ok"], true, "{c}");
        assert!(c["detail"].as_str().is_some_and(|d| !d.is_empty()), "{c}");
    }
    // Not in a terminal here: the theme `auto` takes is said, and why.
    assert_eq!(
        check(&all, "theme")["detail"],
        "auto: dark, not asked (not a terminal) and no COLORFGBG"
    );
    assert!(check(&all, "requester thread")["detail"]
        .as_str()
        .unwrap()
        .starts_with("available"));
    assert!(check(&all, "visual builder")["detail"]
        .as_str()
        .unwrap()
        .starts_with("available"));
    assert_no_key(&o, &k.key);
    // Doctor changes nothing: it only read, and checked an empty layout.
    assert!(
        sb.requests()
            .iter()
            .all(|r| r.method == "GET" || r.path == "/api/v1/artifacts/validate"),
        "{:?}",
        sb.requests()
    );
}

#[tokio::test]
async fn an_organisation_without_the_features_is_said_and_is_no_problem() {
    let sb = sandbox().await;
    let k = sb
        .keys
        .iter()
        .find(|k| k.org_name == "Globex Operations")
        .expect("a key of the organisation without the features");
    let env = env_for(&sb.base_url(), &k.key);
    let o = env.run(&["doctor", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let all = checks(&o);
    assert!(check(&all, "visual builder")["detail"]
        .as_str()
        .unwrap()
        .starts_with("not enabled"));
    let thread = check(&all, "requester thread")["detail"].as_str().unwrap();
    assert!(
        thread.starts_with("not enabled") || thread.starts_with("not known"),
        "{thread}"
    );
}

#[tokio::test]
async fn with_the_service_down_it_is_a_problem_and_exit_1() {
    // A port nothing listens on: bound, then let go.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let env = env_for(&format!("http://{addr}"), "some-key-0123456789");
    let o = env.run(&["doctor", "--timeout", "10"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.contains(" service "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.starts_with("PROBLEM"), "{line}");
    // The checks that do not need the service still hold.
    assert!(
        out.lines()
            .any(|l| l.starts_with("ok") && l.contains(" key ")),
        "{out}"
    );
    assert_no_key(&o, "some-key-0123456789");
    let o = env.run(&["doctor", "--json", "--timeout", "10"]).await;
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(check(&checks(&o), "service")["ok"], false);
}

#[tokio::test]
async fn a_refused_key_is_named_without_the_key() {
    let sb = sandbox().await;
    let env = env_for(&sb.base_url(), "refused-key-abcdef123456");
    let o = env.run(&["doctor"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let line = out.lines().find(|l| l.contains(" service ")).unwrap();
    assert!(
        line.starts_with("PROBLEM") && line.contains("refused"),
        "{line}"
    );
    assert_no_key(&o, "refused-key-abcdef123456");
}

#[tokio::test]
async fn a_certificate_file_that_is_not_there_is_a_problem() {
    let env = {
        let mut e = env_for("https://127.0.0.1:9", "tls-key-0123456789");
        e.set("TASKDECK_BASE_URL", "");
        e
    };
    let missing = env.dir.path().join("no-such-ca.pem");
    env.write_config(&format!(
        "base_url = \"https://127.0.0.1:9\"\nca_file = \"{}\"\n",
        missing.display()
    ));
    let o = env.run(&["doctor", "--json", "--timeout", "10"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let all = checks(&o);
    let bad: Vec<_> = all.iter().filter(|c| c["ok"] == false).collect();
    assert!(
        bad.iter()
            .any(|c| c["detail"].as_str().unwrap().contains("no-such-ca.pem")),
        "the certificate file is named: {bad:?}"
    );
    assert_eq!(check(&all, "service")["ok"], false);
    assert_no_key(&o, "tls-key-0123456789");
}

#[tokio::test]
async fn a_store_and_its_drafts_are_read_where_the_tui_keeps_them() {
    let sb = sandbox().await;
    let k = &sb.keys[0];
    let env = env_for(&sb.base_url(), &k.key);
    // `taskdeck inbox` makes the user's store and remembers whose key it is.
    let o = env.run(&["inbox"]).await;
    assert!(matches!(o.status.code(), Some(0 | 3)), "{}", stderr(&o));
    let cache = env.dir.path().join(".cache/taskdeck");
    let db = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten())
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "sqlite3"))
        .expect("the user's store");
    // A draft where the TUI keeps it: state/taskdeck/drafts/SERVICE/USER/.
    let service = db.parent().unwrap().file_name().unwrap();
    let drafts = env
        .dir
        .path()
        .join("state/taskdeck/drafts")
        .join(service)
        .join(db.file_stem().unwrap());
    std::fs::create_dir_all(&drafts).unwrap();
    std::fs::write(drafts.join("some-task.comment.txt"), "half a sentence").unwrap();
    let o = env.run(&["doctor", "--json"]).await;
    let all = checks(&o);
    let store = check(&all, "store");
    assert_eq!(store["ok"], true, "{store}");
    let detail = store["detail"].as_str().unwrap();
    assert!(detail.contains("integrity ok"), "{detail}");
    assert!(detail.contains("1 draft kept"), "{detail}");
}
