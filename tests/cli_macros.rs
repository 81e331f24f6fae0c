//! `taskdeck macro NAME N… [--json] [--yes]` (issue 44 §2) against a
//! sandbox: the review printed (every step, the reply rendered), refused
//! without --yes when stdin is not a terminal (nothing sent), run with
//! --yes (the reply posted once, the status changed), per-step outcomes in
//! --json, an unknown macro and a macro with a fault refused.

mod cli_env;

use cli_env::*;
use serde_json::Value;
use taskdeck::api::{Task, TaskQuery};
use taskdeck::sandbox::{Sandbox, SandboxOptions};

const CONFIG: &str = r#"
[[macros]]
name = "ack"
description = "Thank the requester and wait on them"
reply = "Hello {requester}, thanks: {number} is with us."
status = "waiting_on_external"

[[macros]]
name = "broken"
description = "a typo"
reply = "Hi {requestor}"
"#;

async fn setup() -> (Sandbox, Env, Vec<Task>) {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 30,
        ..Default::default()
    })
    .await
    .unwrap();
    let key = sb.keys[0].key.clone();
    let env = Env::for_sandbox(&sb, &key);
    env.write_config(CONFIG);
    let c = client(&sb, &key);
    let tasks: Vec<Task> = c
        .list_tasks(&TaskQuery::default(), 100, None)
        .await
        .unwrap()
        .items
        .iter()
        .filter_map(|i| i.task().cloned())
        .filter(|t| t.task_number.is_some() && t.status.as_wire() != "waiting_on_external")
        .collect();
    assert!(tasks.len() >= 2, "two tasks to run on");
    (sb, env, tasks)
}

fn num(t: &Task) -> String {
    t.task_number.unwrap().to_string()
}

fn posts(sb: &Sandbox) -> Vec<String> {
    sb.requests()
        .iter()
        .filter(|r| r.method == "POST" || r.method == "PATCH")
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

#[tokio::test]
async fn cli_macro_prints_the_review_and_refuses_without_yes_when_stdin_is_not_a_terminal() {
    let (sb, env, tasks) = setup().await;
    sb.clear_requests();
    let o = env.run(&["macro", "ack", &num(&tasks[0])]).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = stdout(&o);
    let label = tasks[0].label();
    assert!(out.contains(&format!("macro ack on {label}:")), "{out}");
    assert!(out.contains("  reply: Hello "), "{out}");
    assert!(
        out.contains(&format!("thanks: {label} is with us.")),
        "{out}"
    );
    assert!(out.contains("status → waiting"), "{out}");
    assert!(
        stderr(&o).contains("stdin is not a terminal"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--yes"), "{}", stderr(&o));
    assert!(posts(&sb).is_empty(), "nothing sent: {:?}", posts(&sb));
}

#[tokio::test]
async fn cli_macro_with_yes_sends_each_step_once_and_json_says_each_outcome() {
    let (sb, env, tasks) = setup().await;
    sb.clear_requests();
    let o = env.run(&["macro", "ack", &num(&tasks[0]), "--yes"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("reply sent") || out.contains("reply DRAFT"),
        "{out}"
    );
    let id = tasks[0].id.as_str().to_string();
    let sent = posts(&sb);
    assert_eq!(
        sent,
        vec![
            format!("POST /api/v1/tasks/{id}/thread"),
            format!("PATCH /api/v1/tasks/{id}")
        ],
        "the reply, then the status, once each"
    );
    assert_eq!(sb.task_json(&id).unwrap()["status"], "waiting_on_external");

    // --json: two tasks, per step.
    sb.clear_requests();
    let o = env
        .run(&[
            "macro",
            "ack",
            &num(&tasks[1]),
            &format!("#{}", num(&tasks[2])),
            "--yes",
            "--json",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 2, "{v}");
    for (item, t) in items.iter().zip(&tasks[1..]) {
        assert_eq!(item["task"], t.label());
        assert_eq!(item["task_id"], t.id.as_str());
        let steps = item["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 2, "{item}");
        assert_eq!(steps[0]["step"], "reply");
        assert_eq!(steps[0]["outcome"], "done");
        let said = steps[0]["delivery_status"].as_str().unwrap();
        assert!(["Sent", "DRAFT"].contains(&said), "{said}");
        assert_eq!(steps[1]["step"], "status");
        assert_eq!(steps[1]["outcome"], "done");
        assert!(steps[1].get("delivery_status").is_none());
    }
    assert_eq!(posts(&sb).len(), 4, "{:?}", posts(&sb));
}

#[tokio::test]
async fn cli_macro_a_task_not_found_is_refused_before_anything_is_sent() {
    let (sb, env, _) = setup().await;
    sb.clear_requests();
    let o = env.run(&["macro", "ack", "999999", "--yes"]).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("#999999: not found"), "{}", stderr(&o));
    assert!(posts(&sb).is_empty());
}

#[tokio::test]
async fn cli_macro_unknown_or_with_a_fault_is_refused_and_nothing_sent() {
    let (sb, env, tasks) = setup().await;
    sb.clear_requests();
    let o = env.run(&["macro", "nope", &num(&tasks[0]), "--yes"]).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("no macro nope"), "{err}");
    assert!(err.contains("known: ack"), "{err}");

    let o = env
        .run(&["macro", "broken", &num(&tasks[0]), "--yes"])
        .await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("macro broken has a fault"), "{err}");
    assert!(err.contains("unknown variable {requestor}"), "{err}");
    assert!(posts(&sb).is_empty(), "{:?}", posts(&sb));
}

#[tokio::test]
async fn cli_macro_a_failing_step_is_named_with_what_was_and_was_not_done() {
    let (sb, _, _) = setup().await;
    // Gina's organisation has no requester thread: the reply answers 404.
    let gina = sb
        .keys
        .iter()
        .find(|k| k.key.contains("gina"))
        .expect("the sandbox's Globex key")
        .key
        .clone();
    let env = Env::for_sandbox(&sb, &gina);
    env.write_config(CONFIG);
    let t = client(&sb, &gina)
        .list_tasks(&TaskQuery::default(), 10, None)
        .await
        .unwrap()
        .items
        .iter()
        .find_map(|i| i.task().cloned())
        .unwrap();
    sb.clear_requests();
    let o = env.run(&["macro", "ack", &num(&t), "--yes"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("macro ack: 1 of 1 task failed:"), "{out}");
    assert!(
        out.contains(&format!("{}: reply failed: ", t.label()))
            && out.contains("done: nothing; not done: status"),
        "{out}"
    );
    let o = env
        .run(&["macro", "ack", &num(&t), "--yes", "--json"])
        .await;
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let steps = &v[0]["steps"];
    assert_eq!(steps[0]["step"], "reply");
    assert_eq!(steps[0]["outcome"], "failed");
    assert!(
        steps[0]["reason"].as_str().unwrap().contains("not enabled"),
        "{v}"
    );
    assert_eq!(steps[1]["step"], "status");
    assert_eq!(steps[1]["outcome"], "not_run");
    assert!(
        sb.requests().iter().all(|r| r.method != "PATCH"),
        "the status not sent after the failed reply"
    );
}
