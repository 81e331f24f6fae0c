//! The binary as a process against services that misbehave: one that
//! repeats the credentials in its error bodies, one whose cursors never
//! end, and text with control, bidi and zero-width characters. Small fake
//! services (axum on 127.0.0.1:0) are started inside the test.

mod cli_env;

use axum::extract::Query;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use cli_env::*;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use taskdeck::sandbox::{Sandbox, SandboxOptions};

/// Serve `router` on 127.0.0.1:0; returns the base URL.
async fn serve(router: Router) -> String {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, router).await.unwrap() });
    format!("http://{addr}")
}

fn auth(h: &HeaderMap) -> String {
    h.get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

const KEY: &str = "tdk_live_Q2hhbmdlTWUhIQ/sekret+42";

#[tokio::test]
async fn a_key_echoed_by_the_service_is_written_nowhere() {
    // Each endpoint repeats the Authorization header in its error body, as
    // a careless service or proxy does: JSON on /me, HTML on /tasks (a 500,
    // retried), plain JSON with a 401 elsewhere.
    let router = Router::new()
        .route(
            "/api/v1/me",
            get(|h: HeaderMap| async move {
                (
                    StatusCode::BAD_REQUEST,
                    Json(json!({"error": format!("malformed header Authorization: {}", auth(&h))})),
                )
            }),
        )
        .route(
            "/api/v1/tasks",
            get(|h: HeaderMap| async move {
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("<html><pre>upstream rejected {}</pre></html>", auth(&h)),
                )
            }),
        )
        .fallback(|h: HeaderMap| async move {
            (
                StatusCode::UNAUTHORIZED,
                Json(json!({"message": format!("key {} is not valid", auth(&h))})),
            )
        });
    let base = serve(router).await;
    let mut env = Env::new();
    env.set("TASKDECK_BASE_URL", &base);
    env.set("TASKDECK_API_KEY", KEY);
    env.set("TASKDECK_LOG", "trace");

    for (args, code) in [
        (&["me"][..], 1),
        (&["me", "--json"], 1),
        (&["tasks"], 1),
        (&["tasks", "--json"], 1),
        (&["validate-layout", "-"], 4),
    ] {
        let o = env
            .run_with_stdin(args, Some(r#"{"type":"report","blocks":[]}"#))
            .await;
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(
            !out.contains(KEY) && !err.contains(KEY),
            "{args:?}: key shown: {out}{err}"
        );
        assert!(
            !err.contains("Q2hhbmdlTWUhIQ"),
            "{args:?}: part of the key: {err}"
        );
        // The message is still there, with the key redacted.
        assert!(err.contains("Bearer [redacted]"), "{args:?}: {err}");
    }

    let log = std::fs::read_to_string(env.dir.path().join("state/taskdeck/taskdeck.log"))
        .expect("a log file");
    assert!(
        log.contains("listing tasks failed"),
        "the log has the events: {log}"
    );
    assert!(!log.contains(KEY), "the key is in the log file");
    assert!(
        !log.contains("Q2hhbmdlTWUhIQ"),
        "part of the key is in the log file"
    );
}

#[tokio::test]
async fn a_cursor_that_comes_back_ends_the_walk() {
    // The same cursor every time, and a cycle a -> b -> a.
    let same = Router::new().route(
        "/api/v1/tasks",
        get(|| async { Json(json!({"items": [{"id": "t1", "title": "x"}], "cursor": "again"})) }),
    );
    let cycle = Router::new().route(
        "/api/v1/tasks",
        get(|Query(q): Query<HashMap<String, String>>| async move {
            let next = match q.get("cursor").map(String::as_str) {
                None => "a",
                Some("a") => "b",
                _ => "a",
            };
            Json(json!({"items": [{"id": next, "title": "x"}], "cursor": next})).into_response()
        }),
    );
    for (router, pages) in [(same, 2), (cycle, 3)] {
        let base = serve(router).await;
        let mut env = Env::new();
        env.set("TASKDECK_BASE_URL", &base);
        env.set("TASKDECK_API_KEY", KEY);
        for json in [false, true] {
            let mut args = vec!["tasks", "--all"];
            if json {
                args.push("--json");
            }
            let started = Instant::now();
            let o = env.run(&args).await;
            assert!(started.elapsed() < Duration::from_secs(10));
            assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
            let err = stderr(&o);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.contains(&format!(
                    "after {pages} pages the service sent a cursor it had already sent"
                )),
                "{err}"
            );
            assert!(
                o.stdout.is_empty(),
                "nothing printed from a walk that failed"
            );
        }
    }
}

fn has_raw_controls(s: &str) -> bool {
    s.chars()
        .any(|c| c != '\n' && (taskdeck::text::is_dangerous(c) || taskdeck::text::is_invisible(c)))
}

const NASTY: &str = "Pay \u{9b}31minvoice\u{9d}0;pwned\u{7} \u{202e}fdp.exe \u{2066}x\u{2069} zero\u{200b}width\u{feff} del\u{7f} esc\u{1b}[2J";

#[tokio::test]
async fn json_output_never_carries_raw_controls_and_stays_lossless() {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 30,
        ..Default::default()
    })
    .await
    .unwrap();
    let key = &sb.keys[0].key;
    let client = taskdeck::api::Client::new(taskdeck::api::ClientConfig::new(
        sb.base_url(),
        taskdeck::api::ApiKey::new(key.clone()),
    ))
    .unwrap();
    let id = sb.task_json("#2").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let patch = taskdeck::api::TaskPatch {
        title: Some(NASTY.into()),
        ..Default::default()
    };
    client.patch_task(&id, &patch).await.unwrap();
    let mut env = Env::for_sandbox(&sb, key);

    // tasks --json: no raw control, bidi or zero-width character in the
    // bytes, and the same value as the service sent.
    let o = env
        .run(&["tasks", "--all", "--limit", "100", "--json"])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!has_raw_controls(&out), "raw controls in tasks --json");
    assert!(
        out.contains(r"Pay \u009b31minvoice\u009d0;pwned\u0007 \u202efdp.exe"),
        "{out}"
    );
    let items: Vec<Value> = serde_json::from_str(&out).unwrap();
    let t = items.iter().find(|t| t["id"] == id.as_str()).unwrap();
    assert_eq!(t["title"], NASTY, "lossless");

    // The human table shows stand-ins, and drops zero-width characters.
    env.set("COLUMNS", "400");
    let o = env.run(&["tasks", "--all", "--limit", "100"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!has_raw_controls(&out), "raw controls in the table");
    assert!(out.contains("zerowidth"), "{out}");

    // validate-layout --json echoes the layout's text back.
    let layout =
        json!({"type": "report", "blocks": [{"type": "heading", "text": NASTY, "level": 1}]});
    let o = env
        .run_with_stdin(
            &["validate-layout", "-", "--json"],
            Some(&layout.to_string()),
        )
        .await;
    let out = stdout(&o);
    assert!(
        !has_raw_controls(&out),
        "raw controls in validate-layout --json: {out}"
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["layout"]["blocks"][0]["text"], NASTY, "lossless: {v}");

    // me --json: the identity as sent, same rule.
    let o = env.run(&["me", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!has_raw_controls(&stdout(&o)));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["user_email"], sb.keys[0].user_email.as_str());
}

#[tokio::test]
async fn a_walk_stops_at_the_page_bound() {
    // Always a new cursor: only the bound ends the walk.
    let endless = Router::new().route(
        "/api/v1/tasks",
        get(|Query(q): Query<HashMap<String, String>>| async move {
            let n: u64 = q.get("cursor").and_then(|c| c.parse().ok()).unwrap_or(0);
            Json(json!({"items": [{"id": n.to_string()}], "cursor": (n + 1).to_string()}))
        }),
    );
    let base = serve(endless).await;
    let client = taskdeck::api::Client::new(taskdeck::api::ClientConfig::new(
        base,
        taskdeck::api::ApiKey::new(KEY),
    ))
    .unwrap();
    let q = taskdeck::api::TaskQuery::default();
    let e = taskdeck::cli::commands::walk_pages(&client, &q, 10, true, 5)
        .await
        .unwrap_err();
    assert_eq!(e.code, 1);
    assert!(
        e.message.contains("stopped after 5 pages (5 tasks)"),
        "{}",
        e.message
    );
    // Without --all: the first page, and "more" available.
    let (items, more) = taskdeck::cli::commands::walk_pages(&client, &q, 10, false, 5)
        .await
        .unwrap();
    assert_eq!((items.len(), more), (1, true));
}

#[tokio::test]
async fn a_422_is_reported_with_its_real_status() {
    let router = Router::new().fallback(|| async {
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Json(json!({"detail": "complete_by_from must be a timestamp"})),
        )
    });
    let base = serve(router).await;
    let mut env = Env::new();
    env.set("TASKDECK_BASE_URL", &base);
    env.set("TASKDECK_API_KEY", KEY);
    let o = env.run(&["tasks"]).await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("422"), "{err}");
    assert!(!err.contains("(400)"), "{err}");
    assert!(
        err.contains("complete_by_from must be a timestamp"),
        "{err}"
    );
}

/// Issue 42, point 4: a profile's name holding ESC]2;…BEL (the window's
/// title), ESC[2J (clear the screen) and C1 bytes reaches stderr only as
/// visible stand-ins — through `config check`, the warnings said at a
/// start and `inbox --all-profiles` naming a profile that failed.
#[tokio::test]
async fn a_profiles_name_never_reaches_stderr_raw() {
    let env = Env::new();
    // The name, as TOML escapes; its profile names a service that does
    // not answer and a key it does not know, and a key taskdeck does not.
    let name = r#"ev\u001b]2;PWNED\u0007il\u001b[2J\u009b31m\u0085"#;
    let config = env.write_config(&format!(
        "[profiles.\"{name}\"]\nbase_url = \"http://127.0.0.1:9\"\napi_key = \"k-{name}\"\nmystery = 1\n"
    ));
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let raw = "ev\u{1b}]2;PWNED\u{7}il\u{1b}[2J\u{9b}31m\u{85}";
    for args in [
        vec!["config", "check"],
        vec!["--profile", raw, "config", "check"],
        vec!["--profile", raw, "tasks"],
        vec!["inbox", "--all-profiles"],
    ] {
        let o = env.run(&args).await;
        let (out, err) = (stdout(&o), stderr(&o));
        assert!(
            err.contains("PWNED") || out.contains("PWNED"),
            "{args:?}: the profile is named: {out:?} {err:?}"
        );
        assert!(!has_raw_controls(&err), "{args:?}: stderr {err:?}");
        assert!(!has_raw_controls(&out), "{args:?}: stdout {out:?}");
    }
    // The start-up warning (the unknown key) and the failed profile are
    // said on stderr, cleaned.
    let o = env.run(&["inbox", "--all-profiles"]).await;
    let err = stderr(&o);
    assert!(err.contains("unknown key"), "{err:?}");
    assert!(err.contains("profile ev"), "{err:?}");
}
