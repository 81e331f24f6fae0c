//! One test per rule of the sandbox service, over raw HTTP.

use std::collections::HashSet;
use std::time::Instant;

use reqwest::Method;
use serde_json::{json, Value};
use taskdeck::sandbox::{Faults, Sandbox, SandboxOptions};

const ALICE: &str = "demo-alice-acme";
const BOB: &str = "demo-bob-acme";
const CAROL: &str = "demo-carol-acme";
const SAM: &str = "demo-sam-acme";
const GINA: &str = "demo-gina-globex";

async fn start_with(opts: SandboxOptions) -> Sandbox {
    Sandbox::start_local(opts).await.unwrap()
}

async fn start() -> Sandbox {
    start_with(SandboxOptions::default()).await
}

async fn raw(
    sb: &Sandbox,
    key: Option<&str>,
    m: Method,
    path: &str,
    body: Option<Value>,
) -> reqwest::Response {
    let c = reqwest::Client::new();
    let mut rb = c.request(m, format!("{}{}", sb.base_url(), path));
    if let Some(k) = key {
        rb = rb.bearer_auth(k);
    }
    if let Some(b) = body {
        rb = rb.json(&b);
    }
    rb.send().await.unwrap()
}

async fn call(sb: &Sandbox, key: &str, m: Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let r = raw(sb, Some(key), m, path, body).await;
    let st = r.status().as_u16();
    let text = r.text().await.unwrap();
    let v = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap()
    };
    (st, v)
}

async fn get(sb: &Sandbox, key: &str, path: &str) -> (u16, Value) {
    call(sb, key, Method::GET, path, None).await
}

fn id_of(sb: &Sandbox, display: &str) -> String {
    sb.task_json(display).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn user_id(sb: &Sandbox, key: &str) -> String {
    get(sb, key, "/api/v1/me").await.1["user_id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Walks the whole list with `query` (which may be empty) and a fixed limit.
async fn walk(sb: &Sandbox, key: &str, query: &str, limit: u32) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut p = format!("/api/v1/tasks?limit={limit}");
        if !query.is_empty() {
            p.push('&');
            p.push_str(query);
        }
        if let Some(c) = &cursor {
            p.push_str(&format!("&cursor={c}"));
        }
        let (st, v) = get(sb, key, &p).await;
        assert_eq!(st, 200, "{p}: {v}");
        out.extend(v["items"].as_array().unwrap().iter().cloned());
        match v["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    out
}

fn displays(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|t| t["display_id"].as_str().unwrap().to_string())
        .collect()
}

fn error_shape(v: &Value, status: u64) {
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert_eq!(v["status"], status, "{v}");
}

#[tokio::test]
async fn unauthenticated_requests_get_401_body() {
    let sb = start().await;
    let r = raw(&sb, None, Method::GET, "/api/v1/me", None).await;
    assert_eq!(r.status(), 401);
    error_shape(&r.json().await.unwrap(), 401);
    let (st, v) = get(&sb, "not-a-key", "/api/v1/tasks").await;
    assert_eq!(st, 401);
    error_shape(&v, 401);
}

#[tokio::test]
async fn me_returns_identity_and_keys_are_deterministic() {
    let sb = start().await;
    assert_eq!(sb.keys[0].key, ALICE);
    assert_eq!(sb.keys[0].org_name, "Acme Legal LLP");
    let (st, v) = get(&sb, ALICE, "/api/v1/me").await;
    assert_eq!(st, 200);
    assert_eq!(v["user_name"], "Alice Martin");
    assert_eq!(v["user_email"], "alice@acme.test");
    assert_eq!(v["customer_name"], "Acme Legal LLP");
    let sb2 = start().await;
    assert_eq!(user_id(&sb2, ALICE).await, v["user_id"].as_str().unwrap());
    assert_eq!(id_of(&sb, "#3"), id_of(&sb2, "#3"));
}

fn rank(p: &str) -> usize {
    ["urgent", "high", "medium", "low", "no_priority"]
        .iter()
        .position(|x| *x == p)
        .unwrap()
}

#[tokio::test]
async fn list_is_ordered_by_priority_due_created_id() {
    let sb = start().await;
    let items = walk(&sb, ALICE, "", 100).await;
    assert!(items.len() > 100, "alice sees {} tasks", items.len());
    for w in items.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let (ra, rb) = (
            rank(a["priority"].as_str().unwrap()),
            rank(b["priority"].as_str().unwrap()),
        );
        assert!(ra <= rb, "priority order {a} {b}");
        if ra < rb {
            continue;
        }
        let (da, db) = (a["complete_by"].as_str(), b["complete_by"].as_str());
        match (da, db) {
            (Some(x), Some(y)) => {
                assert!(x <= y, "due order");
                if x < y {
                    continue;
                }
            }
            (None, Some(_)) => panic!("null due date before a set one"),
            (Some(_), None) => continue,
            (None, None) => {}
        }
        let (ca, cb) = (
            a["created_at"].as_str().unwrap(),
            b["created_at"].as_str().unwrap(),
        );
        assert!(ca >= cb, "created_at descending");
        if ca == cb {
            assert!(a["id"].as_str().unwrap() < b["id"].as_str().unwrap());
        }
    }
    // source_channel appears in single-task responses only.
    assert!(items[0].get("source_channel").is_none());
    let (_, one) = get(
        &sb,
        ALICE,
        &format!("/api/v1/tasks/{}", items[0]["id"].as_str().unwrap()),
    )
    .await;
    assert!(one["source_channel"].is_string());
}

#[tokio::test]
async fn full_cursor_walk_returns_each_visible_task_once() {
    let sb = start().await;
    let small = walk(&sb, ALICE, "", 7).await;
    let big = walk(&sb, ALICE, "", 100).await;
    let ids: HashSet<_> = small.iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), small.len(), "no duplicates");
    assert_eq!(displays(&small), displays(&big));
    // default limit 20 and null cursor on the last page
    let (_, p) = get(&sb, ALICE, "/api/v1/tasks").await;
    assert_eq!(p["items"].as_array().unwrap().len(), 20);
    assert!(p["cursor"].is_string());
}

#[tokio::test]
async fn changing_limit_mid_walk_skips_or_repeats() {
    let sb = start().await;
    let all = displays(&walk(&sb, ALICE, "", 100).await);
    let (_, p1) = get(&sb, ALICE, "/api/v1/tasks?limit=10").await;
    let c = p1["cursor"].as_str().unwrap();
    assert_eq!(displays(p1["items"].as_array().unwrap()), all[0..10]);
    // Same cursor (page 1) with limit 5 → offset 5: repeats rows 5..10.
    let (_, rep) = get(&sb, ALICE, &format!("/api/v1/tasks?limit=5&cursor={c}")).await;
    assert_eq!(displays(rep["items"].as_array().unwrap()), all[5..10]);
    // With limit 20 → offset 20: rows 10..20 are skipped.
    let (_, skip) = get(&sb, ALICE, &format!("/api/v1/tasks?limit=20&cursor={c}")).await;
    assert_eq!(displays(skip["items"].as_array().unwrap()), all[20..40]);
}

#[tokio::test]
async fn limit_and_cursor_validation() {
    let sb = start().await;
    for bad in ["0", "101", "abc", "-1", "2.5"] {
        let (st, v) = get(&sb, ALICE, &format!("/api/v1/tasks?limit={bad}")).await;
        assert_eq!(st, 400, "limit={bad}");
        error_shape(&v, 400);
    }
    for ok in ["1", "100"] {
        let (st, v) = get(&sb, ALICE, &format!("/api/v1/tasks?limit={ok}")).await;
        assert_eq!(st, 200);
        assert_eq!(
            v["items"].as_array().unwrap().len(),
            ok.parse::<usize>().unwrap()
        );
    }
    let (st, v) = get(&sb, ALICE, "/api/v1/tasks?cursor=garbage!!").await;
    assert_eq!(st, 400);
    error_shape(&v, 400);
}

#[tokio::test]
async fn archived_and_draft_tasks_are_excluded_from_lists() {
    let sb = start().await;
    let all = walk(&sb, ALICE, "", 100).await;
    assert!(all
        .iter()
        .all(|t| t["archived"] == false && t["draft"] == false));
    let d = displays(&all);
    assert!(!d.contains(&"#4".to_string()) && !d.contains(&"#5".to_string()));
    let (st, v) = get(&sb, ALICE, &format!("/api/v1/tasks/{}", id_of(&sb, "#4"))).await;
    assert_eq!(st, 200);
    assert_eq!(v["archived"], true);
    assert_eq!(v["status"], "completed");
    let (_, v) = get(&sb, ALICE, &format!("/api/v1/tasks/{}", id_of(&sb, "#5"))).await;
    assert_eq!(v["draft"], true);
    // restoring brings it back, status unchanged
    let (st, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("/api/v1/tasks/{}", id_of(&sb, "#4")),
        Some(json!({"archived": false})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["status"], "completed");
    assert!(displays(&walk(&sb, ALICE, "", 100).await).contains(&"#4".to_string()));
}

#[tokio::test]
async fn every_filter_works() {
    let sb = start().await;
    let alice = user_id(&sb, ALICE).await;
    let all = walk(&sb, ALICE, "", 100).await;

    // query: case-insensitive, over title and comment text
    let q = walk(&sb, ALICE, "query=NORTHWIND", 100).await;
    assert!(!q.is_empty());
    for t in &q {
        if !serde_json::to_string(t)
            .unwrap()
            .to_lowercase()
            .contains("northwind")
        {
            let (_, cs) = get(
                &sb,
                ALICE,
                &format!("/api/v1/tasks/{}/comments", t["id"].as_str().unwrap()),
            )
            .await;
            assert!(cs.to_string().to_lowercase().contains("northwind"), "{t}");
        }
    }
    assert!(displays(&q).contains(&"#1".to_string()));
    let c = walk(&sb, ALICE, "query=carve-out", 100).await;
    assert_eq!(displays(&c), vec!["#1"], "comment text is searched");

    let s = walk(&sb, ALICE, "status=in_progress,completed", 100).await;
    assert!(!s.is_empty());
    assert!(s
        .iter()
        .all(|t| t["status"] == "in_progress" || t["status"] == "completed"));
    assert_eq!(
        s.len(),
        all.iter()
            .filter(|t| t["status"] == "in_progress" || t["status"] == "completed")
            .count()
    );

    let p = walk(&sb, ALICE, "priority=urgent", 100).await;
    assert_eq!(
        p.len(),
        all.iter().filter(|t| t["priority"] == "urgent").count()
    );
    assert!(!p.is_empty());

    let a = walk(&sb, ALICE, &format!("assigned_to={alice}"), 100).await;
    assert!(a.len() >= 5);
    assert!(a.iter().all(|t| t["assigned_to"]["id"] == alice.as_str()));

    let inv = walk(&sb, ALICE, &format!("involving={alice}"), 100).await;
    assert!(inv.len() > a.len());
    assert!(inv.iter().all(|t| t["creator"]["id"] == alice.as_str()
        || t["involved_people"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == alice.as_str())));

    let team = all[0]["team"]["id"].as_str().unwrap().to_string();
    let tm = walk(&sb, ALICE, &format!("team_id={team}"), 100).await;
    assert_eq!(
        tm.len(),
        all.iter()
            .filter(|t| t["team"]["id"] == team.as_str())
            .count()
    );

    let tags = walk(&sb, ALICE, "tags=nda,contract", 100).await;
    assert!(displays(&tags).contains(&"#1".to_string()));
    assert!(tags.iter().all(|t| {
        let tg: Vec<_> = t["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        tg.contains(&"nda") && tg.contains(&"contract")
    }));

    let due1 = sb.task_json("#1").unwrap()["complete_by"]
        .as_str()
        .unwrap()
        .to_string();
    let day = &due1[..10];
    let d = walk(
        &sb,
        ALICE,
        &format!("complete_by_from={day}&complete_by_to={day}"),
        100,
    )
    .await;
    assert!(displays(&d).contains(&"#1".to_string()));
    assert!(d
        .iter()
        .all(|t| t["complete_by"].as_str().unwrap().starts_with(day)));
    let d2 = walk(
        &sb,
        ALICE,
        &format!("complete_by_from={due1}&complete_by_to={due1}"),
        100,
    )
    .await;
    assert!(d2.iter().all(|t| t["complete_by"] == due1.as_str()) && !d2.is_empty());

    for bad in [
        "status=blocked",
        "priority=critical",
        "assigned_to=bob",
        "complete_by_from=yesterday",
    ] {
        let (st, _) = get(&sb, ALICE, &format!("/api/v1/tasks?{bad}")).await;
        assert_eq!(st, 400, "{bad}");
    }
}

#[tokio::test]
async fn scoping_across_users_and_organisations() {
    let sb = start().await;
    let hr = id_of(&sb, "#13");
    assert_eq!(get(&sb, ALICE, &format!("/api/v1/tasks/{hr}")).await.0, 404);
    assert!(!displays(&walk(&sb, ALICE, "", 100).await).contains(&"#13".to_string()));
    // team share: #14 is private, shared with alice's Litigation team, not with Bob's... Bob is in it too.
    let hold = id_of(&sb, "#14");
    assert_eq!(
        get(&sb, ALICE, &format!("/api/v1/tasks/{hold}")).await.0,
        200
    );
    assert_eq!(get(&sb, SAM, &format!("/api/v1/tasks/{hold}")).await.0, 200);
    // another organisation: 404 everywhere
    let t1 = id_of(&sb, "#1");
    assert_eq!(get(&sb, GINA, &format!("/api/v1/tasks/{t1}")).await.0, 404);
    assert_eq!(
        get(&sb, GINA, &format!("/api/v1/tasks/{t1}/comments"))
            .await
            .0,
        404
    );
    assert_eq!(
        call(
            &sb,
            GINA,
            Method::PATCH,
            &format!("/api/v1/tasks/{t1}"),
            Some(json!({"title": "x"}))
        )
        .await
        .0,
        404
    );
    let g = walk(&sb, GINA, "", 100).await;
    assert!(!g.is_empty());
    assert!(g.iter().all(|t| t["creator"]["email"]
        .as_str()
        .unwrap()
        .ends_with("@globex.test")));
}

#[tokio::test]
async fn patch_null_rules_and_validation() {
    let sb = start().await;
    let id = id_of(&sb, "#2");
    let before = sb.task_json("#2").unwrap();
    let path = format!("/api/v1/tasks/{id}");
    let (st, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &path,
        Some(json!({
            "title": null, "status": null, "tags": null, "complete_by": null, "description": null
        })),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["title"], before["title"]);
    assert_eq!(v["status"], before["status"]);
    assert_eq!(v["tags"], before["tags"]);
    assert!(v["complete_by"].is_null());
    assert!(v["description"].is_null());
    assert_ne!(v["updated_at"], before["updated_at"]);

    let (_, v) = call(&sb, ALICE, Method::PATCH, &path, Some(json!({}))).await;
    assert_eq!(v["title"], before["title"]);

    let bob = user_id(&sb, BOB).await;
    let (_, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &path,
        Some(json!({
            "assigned_to": bob, "complete_by": "2026-12-01", "priority": "low", "tags": ["a", "b"]
        })),
    )
    .await;
    assert_eq!(v["assigned_to"]["id"], bob.as_str());
    assert_eq!(v["complete_by"], "2026-12-01T00:00:00Z");
    assert_eq!(v["tags"], json!(["a", "b"]));
    let assignees: Vec<_> = v["involved_people"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["role"] == "assignee")
        .collect();
    assert_eq!(assignees.len(), 1);
    assert_eq!(assignees[0]["id"], bob.as_str());
    let (_, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &path,
        Some(json!({"assigned_to": null})),
    )
    .await;
    assert!(v["assigned_to"].is_null());
    assert!(!v["involved_people"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["role"] == "assignee"));

    for bad in [
        json!({"status": "blocked"}),
        json!({"priority": "critical"}),
        json!({"assigned_to": "not-a-uuid"}),
        json!({"assigned_to": "00000000-0000-4000-8000-000000000000"}),
        json!({"complete_by": "tomorrow"}),
        json!({"archived": "yes"}),
    ] {
        let (st, e) = call(&sb, ALICE, Method::PATCH, &path, Some(bad.clone())).await;
        assert_eq!(st, 400, "{bad}");
        error_shape(&e, 400);
    }
}

#[tokio::test]
async fn comments_edit_by_author_only_and_replies() {
    let sb = start().await;
    let id = id_of(&sb, "#3");
    let base = format!("/api/v1/tasks/{id}/comments");
    let (st, list) = get(&sb, ALICE, &base).await;
    assert_eq!(st, 200);
    let list = list.as_array().unwrap().clone();
    assert_eq!(list.len(), 3);
    assert_eq!(list[1]["parent_comment_id"], list[0]["id"]);
    let bobs = list[0]["id"].as_str().unwrap();
    let (st, e) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{base}/{bobs}"),
        Some(json!({"content": "hijack"})),
    )
    .await;
    assert_eq!(st, 403);
    error_shape(&e, 403);

    let (st, c) = call(
        &sb,
        ALICE,
        Method::POST,
        &base,
        Some(json!({"content": "Ping @bob@acme.test"})),
    )
    .await;
    assert_eq!(st, 201);
    assert!(c["parent_comment_id"].is_null());
    assert_eq!(c["mentioned_users"][0]["email"], "bob@acme.test");
    let cid = c["id"].as_str().unwrap();
    let (st, e) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{base}/{cid}"),
        Some(json!({"content": "edited"})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(e["content"], "edited");
    assert_ne!(e["updated_at"], e["created_at"]);
    assert_eq!(
        call(
            &sb,
            BOB,
            Method::PATCH,
            &format!("{base}/{cid}"),
            Some(json!({"content": "x"}))
        )
        .await
        .0,
        403
    );

    let (st, r) = call(
        &sb,
        BOB,
        Method::POST,
        &format!("{base}/{cid}/replies"),
        Some(json!({"content": "reply"})),
    )
    .await;
    assert_eq!(st, 201);
    assert_eq!(r["parent_comment_id"], cid);
    assert_eq!(r["author"]["email"], "bob@acme.test");
    let missing = "00000000-0000-4000-8000-000000000000";
    let (st, e) = call(
        &sb,
        BOB,
        Method::POST,
        &format!("{base}/{missing}/replies"),
        Some(json!({"content": "x"})),
    )
    .await;
    assert_eq!(st, 404);
    error_shape(&e, 404);
    // a comment of another task is not a parent here
    let other = id_of(&sb, "#1");
    assert_eq!(
        call(
            &sb,
            BOB,
            Method::POST,
            &format!("/api/v1/tasks/{other}/comments/{cid}/replies"),
            Some(json!({"content": "x"}))
        )
        .await
        .0,
        404
    );
    assert_eq!(get(&sb, ALICE, &base).await.1.as_array().unwrap().len(), 5);
    assert_eq!(
        call(&sb, ALICE, Method::POST, &base, Some(json!({})))
            .await
            .0,
        400
    );
}

#[tokio::test]
async fn requester_thread_draft_sent_and_feature_flag() {
    let sb = start().await;
    let (st, m) = call(
        &sb,
        ALICE,
        Method::POST,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#1")),
        Some(json!({"content": "Agreed on clause 7."})),
    )
    .await;
    assert_eq!(st, 201);
    assert_eq!(m["delivery_status"], "draft");
    assert_eq!(m["direction"], "outbound");
    assert_eq!(m["sender"]["email"], "alice@acme.test");
    let (_, m) = call(
        &sb,
        ALICE,
        Method::POST,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#2")),
        Some(json!({"content": "Confirmed."})),
    )
    .await;
    assert_eq!(m["delivery_status"], "sent");
    let (st, th) = get(
        &sb,
        ALICE,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#1")),
    )
    .await;
    assert_eq!(st, 200);
    let th = th.as_array().unwrap();
    assert_eq!(th.len(), 2);
    assert_eq!(th[0]["direction"], "inbound");
    assert_eq!(th[1]["content"], "Agreed on clause 7.");

    let (st, e) = call(
        &sb,
        GINA,
        Method::POST,
        &format!("/api/v1/tasks/{}/thread", id_of(&sb, "#16")),
        Some(json!({"content": "hi"})),
    )
    .await;
    assert_eq!(st, 404);
    assert_eq!(
        e,
        json!({"error": "requester thread is not enabled for this organisation", "status": 404})
    );
}

#[tokio::test]
async fn link_rules() {
    let sb = start().await;
    let id = id_of(&sb, "#3");
    let t = sb.task_json("#3").unwrap();
    let review = t["linked_items"][0].clone();
    assert_eq!(review["type"], "review");
    assert_eq!(
        review["context"],
        json!({"check_ids": ["chk-104", "chk-221"]})
    );
    let chat = t["linked_items"][1]["id"].as_str().unwrap().to_string();
    let rid = review["id"].as_str().unwrap();
    let links = format!("/api/v1/tasks/{id}/links");

    for bad in [
        json!({"linked_items": []}),
        json!({}),
        json!({"linked_items": [{"type": "doc", "id": rid}]}),
        json!({"linked_items": [{"type": "chat", "id": "nope"}]}),
    ] {
        let (st, e) = call(&sb, ALICE, Method::POST, &links, Some(bad.clone())).await;
        assert_eq!(st, 400, "{bad}");
        error_shape(&e, 400);
    }
    // link task #2 with defaults
    let t2 = id_of(&sb, "#2");
    let (st, v) = call(
        &sb,
        ALICE,
        Method::POST,
        &links,
        Some(json!({"linked_items": [{"type": "task", "id": t2}]})),
    )
    .await;
    assert_eq!(st, 200);
    let l = v["linked_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == t2.as_str())
        .unwrap()
        .clone();
    assert_eq!(l["role"], "reference");
    assert!(l["context"].is_null());
    assert_eq!(l["is_output"], false);
    assert_eq!(
        l["display_name"],
        "#2 Confirm engagement letter with Contoso"
    );

    // PATCH: unknown link 404, context on a chat 400, role change, context edit
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/report/{rid}"),
        Some(json!({"role": "output"})),
    )
    .await;
    assert_eq!(st, 404);
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/chat/{chat}"),
        Some(json!({"context": {"check_ids": ["a"]}})),
    )
    .await;
    assert_eq!(st, 400);
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/review/{rid}"),
        Some(json!({})),
    )
    .await;
    assert_eq!(st, 400);
    let (st, _) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/review/{rid}"),
        Some(json!({"context": {"checks": 1}})),
    )
    .await;
    assert_eq!(st, 400);
    let (st, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/chat/{chat}"),
        Some(json!({"role": "output"})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["source_channel"], "web");
    let l = &v["linked_items"][1];
    assert_eq!(
        (l["role"].as_str(), l["is_output"].as_bool()),
        (Some("output"), Some(true))
    );
    let (_, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/review/{rid}"),
        Some(json!({"context": {"check_ids": ["chk-104"]}})),
    )
    .await;
    assert_eq!(
        v["linked_items"][0]["context"],
        json!({"check_ids": ["chk-104"]})
    );
    assert_eq!(v["linked_items"][0]["role"], "subject");
    let (_, v) = call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("{links}/review/{rid}"),
        Some(json!({"context": null})),
    )
    .await;
    assert!(v["linked_items"][0]["context"].is_null());
    // DELETE
    let (st, v) = call(
        &sb,
        ALICE,
        Method::DELETE,
        &format!("{links}/chat/{chat}"),
        None,
    )
    .await;
    assert_eq!(st, 200);
    assert!(!v["linked_items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["id"] == chat.as_str()));
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::DELETE,
            &format!("{links}/chat/{chat}"),
            None
        )
        .await
        .0,
        404
    );
}

#[tokio::test]
async fn sharing_ambiguity_resolution_and_loss_of_access() {
    let sb = start().await;
    let id = id_of(&sb, "#10");
    let path = format!("/api/v1/tasks/{id}/sharing");
    let (st, s) = get(&sb, CAROL, &path).await;
    assert_eq!(st, 200);
    assert_eq!(s["visibility"], "private");
    assert_eq!(s["users"].as_array().unwrap().len(), 3);
    assert_eq!(get(&sb, BOB, &format!("/api/v1/tasks/{id}")).await.0, 200);

    let (st, e) = call(&sb, CAROL, Method::PUT, &path, Some(json!({"visibility": "private", "users": [{"user_id": "sam taylor", "access_level": "read"}]}))).await;
    assert_eq!(st, 400);
    error_shape(&e, 400);
    let cands = e["candidates"].as_array().unwrap();
    assert_eq!(cands.len(), 2);
    let emails: HashSet<_> = cands.iter().map(|c| c["email"].as_str().unwrap()).collect();
    assert_eq!(
        emails,
        HashSet::from(["sam.taylor@acme.test", "samuel.taylor@acme.test"])
    );
    let sam_id = cands
        .iter()
        .find(|c| c["email"] == "sam.taylor@acme.test")
        .unwrap()["id"]
        .clone();

    let (st, e) = call(
        &sb,
        CAROL,
        Method::PUT,
        &path,
        Some(json!({"visibility": "private", "teams": [{"team_id": "Litigation"}]})),
    )
    .await;
    assert_eq!(st, 400);
    assert_eq!(e["candidates"].as_array().unwrap().len(), 2);
    assert!(e["candidates"][0]["email"].is_null() && e["candidates"][0]["name"] == "Litigation");

    let (st, e) = call(
        &sb,
        CAROL,
        Method::PUT,
        &path,
        Some(json!({"visibility": "private", "users": [{"user_id": "nobody@nowhere"}]})),
    )
    .await;
    assert_eq!(st, 400);
    assert!(e["error"].as_str().unwrap().contains("nobody@nowhere"));

    // Resolve by id and e-mail; Bob is omitted and loses access.
    let (st, s) = call(
        &sb,
        CAROL,
        Method::PUT,
        &path,
        Some(json!({"visibility": "private", "users": [
        {"user_id": sam_id, "access_level": "write"},
        {"user_id": "ALICE@acme.test", "access_level": "read"}
    ], "teams": [{"team_id": "Corporate", "access_level": "read"}]})),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    let emails: Vec<_> = s["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["email"].as_str().unwrap())
        .collect();
    assert_eq!(
        emails,
        vec!["carol@acme.test", "sam.taylor@acme.test", "alice@acme.test"]
    );
    assert_eq!(s["teams"][0]["name"], "Corporate");
    assert_eq!(get(&sb, BOB, &format!("/api/v1/tasks/{id}")).await.0, 404);
    assert_eq!(get(&sb, SAM, &format!("/api/v1/tasks/{id}")).await.0, 200);
    let t = sb.task_json("#10").unwrap();
    assert_eq!(t["involved_people"].as_array().unwrap().len(), 3);
    assert_eq!(t["shared_teams"][0]["access_level"], "read");
    // customer visibility lets Bob in again
    call(
        &sb,
        CAROL,
        Method::PUT,
        &path,
        Some(json!({"visibility": "customer"})),
    )
    .await;
    assert_eq!(get(&sb, BOB, &format!("/api/v1/tasks/{id}")).await.0, 200);
}

#[tokio::test]
async fn attach_and_detach_files() {
    let sb = start().await;
    let (_, files) = get(&sb, ALICE, "/api/v1/files").await;
    let files = files.as_array().unwrap().clone();
    assert!(files.len() >= 5);
    let f = files[2]["id"].as_str().unwrap();
    let id = id_of(&sb, "#2");
    let (st, v) = call(
        &sb,
        ALICE,
        Method::POST,
        &format!("/api/v1/tasks/{id}/files"),
        Some(json!({"file_ids": [f]})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["input_files"][0], files[2]);
    let (st, v) = call(
        &sb,
        ALICE,
        Method::DELETE,
        &format!("/api/v1/tasks/{id}/files/{f}"),
        None,
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["input_files"], json!([]));
    assert_eq!(
        get(&sb, ALICE, "/api/v1/files")
            .await
            .1
            .as_array()
            .unwrap()
            .len(),
        files.len()
    );
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::DELETE,
            &format!("/api/v1/tasks/{id}/files/{f}"),
            None
        )
        .await
        .0,
        404
    );
    let (st, e) = call(
        &sb,
        ALICE,
        Method::POST,
        &format!("/api/v1/tasks/{id}/files"),
        Some(json!({"file_ids": ["00000000-0000-4000-8000-000000000000"]})),
    )
    .await;
    assert_eq!(st, 404);
    error_shape(&e, 404);
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::POST,
            &format!("/api/v1/tasks/{id}/files"),
            Some(json!({"file_ids": []}))
        )
        .await
        .0,
        400
    );
}

#[tokio::test]
async fn layout_validation_caps_and_normalises() {
    let sb = start().await;
    let mut blocks: Vec<Value> = (0..60)
        .map(|_| json!({"type": "heading", "text": "T", "level": 9}))
        .collect();
    for _ in 0..55 {
        blocks.push(json!({"type": "paragraph", "text": "p", "colour": "red"}));
    }
    blocks.push(json!({"type": "image", "file_id": "8b9f1c2e-1111-4222-8333-444455556666", "alt_text": "Chart"}));
    blocks.push(json!({"type": "sparkline"}));
    let (st, v) = call(
        &sb,
        ALICE,
        Method::POST,
        "/api/v1/artifacts/validate",
        Some(json!({"layout": {"type": "report", "version": "1", "blocks": blocks}})),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["valid"], false);
    assert_eq!(v["errors"].as_array().unwrap().len(), 50);
    assert_eq!(v["omitted_errors"], 11);
    assert_eq!(
        v["errors"][3],
        json!({"path": "blocks[3].level", "code": "out_of_range", "message": "level must be from 1 to 6, got 9"})
    );
    assert_eq!(v["warnings"].as_array().unwrap().len(), 50);
    assert_eq!(v["omitted_warnings"], 5);
    assert_eq!(v["warnings"][0]["code"], "unknown_field");
    assert_eq!(v["warnings"][0]["path"], "blocks[60].colour");
    let img = &v["layout"]["blocks"][115];
    assert_eq!(
        img,
        &json!({"type": "image", "fileId": "8b9f1c2e-1111-4222-8333-444455556666", "altText": "Chart"})
    );
    assert_eq!(
        v["layout"]["blocks"].as_array().unwrap().len(),
        116,
        "unknown block type dropped"
    );
    assert_eq!(
        v["layout"]["blocks"][60],
        json!({"type": "paragraph", "text": "p"})
    );

    let (_, ok) = call(&sb, ALICE, Method::POST, "/api/v1/artifacts/validate", Some(json!({"layout": {"type": "dashboard", "blocks": [{"type": "table", "columns": ["a", "b"], "rows": [[1, "x"]]}]}}))).await;
    assert_eq!(ok["valid"], true);
    assert_eq!(
        (
            ok["omitted_errors"].as_u64(),
            ok["layout"]["version"].as_str()
        ),
        (Some(0), Some("1"))
    );

    let (st, nl) = call(
        &sb,
        ALICE,
        Method::POST,
        "/api/v1/artifacts/validate",
        Some(json!({"layout": "not an object"})),
    )
    .await;
    assert_eq!(st, 200);
    assert!(nl["layout"].is_null());
    assert_eq!(nl["valid"], false);

    let r = raw(
        &sb,
        Some(GINA),
        Method::POST,
        "/api/v1/artifacts/validate",
        Some(json!({"layout": {}})),
    )
    .await;
    assert_eq!(r.status(), 404);
    assert_eq!(r.bytes().await.unwrap().len(), 0);
    for (m, path) in [
        (Method::GET, "/api/v1/artifacts/validate"),
        (Method::GET, "/api/v1/artifacts"),
    ] {
        let r = raw(&sb, Some(GINA), m, path, None).await;
        assert_eq!(r.status(), 404);
        assert_eq!(r.bytes().await.unwrap().len(), 0);
    }
    assert_eq!(get(&sb, ALICE, "/api/v1/artifacts").await.1["status"], 404);
}

#[tokio::test]
async fn faults_fail_every_with_retry_after_and_garbage() {
    let sb = start_with(SandboxOptions {
        faults: "fail_every=2,status=503,retry_after=7".parse().unwrap(),
        ..Default::default()
    })
    .await;
    let r1 = raw(&sb, Some(ALICE), Method::GET, "/api/v1/me", None).await;
    assert_eq!(r1.status(), 200);
    let r2 = raw(&sb, Some(ALICE), Method::GET, "/api/v1/me", None).await;
    assert_eq!(r2.status(), 503);
    assert_eq!(r2.headers()["retry-after"], "7");
    error_shape(&r2.json().await.unwrap(), 503);

    sb.set_faults(Faults {
        garbage_every: 1,
        ..Default::default()
    });
    let r = raw(&sb, Some(ALICE), Method::GET, "/api/v1/tasks", None).await;
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");

    sb.set_faults(Faults {
        reset_every: 1,
        ..Default::default()
    });
    let r = reqwest::Client::new()
        .get(format!("{}/api/v1/tasks", sb.base_url()))
        .bearer_auth(ALICE)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.text().await.is_err(), "the body must fail mid-stream");

    sb.set_faults(Faults {
        delay_ms: 150,
        ..Default::default()
    });
    let t = Instant::now();
    assert_eq!(
        raw(&sb, Some(ALICE), Method::GET, "/api/v1/me", None)
            .await
            .status(),
        200
    );
    assert!(t.elapsed().as_millis() >= 150);

    assert!("fail_every=x".parse::<Faults>().is_err());
    assert!("bogus=1".parse::<Faults>().is_err());
    assert_eq!(
        "delay=5,reset_every=3".parse::<Faults>().unwrap(),
        Faults {
            delay_ms: 5,
            reset_every: 3,
            ..Default::default()
        }
    );
}

#[tokio::test]
async fn requests_are_recorded() {
    let sb = start().await;
    sb.clear_requests();
    let id = id_of(&sb, "#2");
    call(
        &sb,
        ALICE,
        Method::PATCH,
        &format!("/api/v1/tasks/{id}"),
        Some(json!({"priority": "low"})),
    )
    .await;
    get(&sb, ALICE, "/api/v1/tasks?limit=5&status=completed").await;
    let r = sb.requests();
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].method, "PATCH");
    assert_eq!(r[0].path, format!("/api/v1/tasks/{id}"));
    assert_eq!(r[0].body, Some(json!({"priority": "low"})));
    assert_eq!(r[1].query.as_deref(), Some("limit=5&status=completed"));
    assert_eq!(r[1].body, None);
}

#[tokio::test]
async fn create_subtasks_and_delete_draft() {
    let sb = start().await;
    let parent = id_of(&sb, "#6");
    let (st, subs) = get(&sb, ALICE, &format!("/api/v1/tasks/{parent}/subtasks")).await;
    assert_eq!(st, 200);
    assert_eq!(displays(subs.as_array().unwrap()), vec!["#7", "#8", "#9"]);
    let (st, t) = call(
        &sb,
        ALICE,
        Method::POST,
        "/api/v1/tasks",
        Some(json!({"title": "Check slide numbers", "parent_task_id": parent, "priority": "high"})),
    )
    .await;
    assert_eq!(st, 201, "{t}");
    assert_eq!(t["parent_task_id"], parent.as_str());
    assert_eq!(t["creator"]["email"], "alice@acme.test");
    let (_, subs) = get(&sb, ALICE, &format!("/api/v1/tasks/{parent}/subtasks")).await;
    assert_eq!(subs.as_array().unwrap().len(), 4);
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::POST,
            "/api/v1/tasks",
            Some(json!({"description": "x"}))
        )
        .await
        .0,
        400
    );

    let draft = id_of(&sb, "#5");
    assert_eq!(
        call(
            &sb,
            ALICE,
            Method::DELETE,
            &format!("/api/v1/tasks/{draft}"),
            None
        )
        .await
        .0,
        204
    );
    assert_eq!(
        get(&sb, ALICE, &format!("/api/v1/tasks/{draft}")).await.0,
        404
    );
}

#[tokio::test]
async fn quirks_list_is_still_served() {
    let sb = start_with(SandboxOptions {
        quirks: true,
        ..Default::default()
    })
    .await;
    let all = walk(&sb, ALICE, "", 25).await;
    let bad: Vec<_> = all.iter().filter(|t| !t["title"].is_string()).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0]["tags"], "oops");
    assert!(all.iter().any(|t| t["status"] == "blocked"
        && t["priority"] == "critical"
        && t["x_sla"]["tier"] == 2));
    assert!(all.iter().any(|t| t["title"]
        .as_str()
        .is_some_and(|s| s.contains("\u{1b}]52;c;"))));
    assert!(all.iter().any(|t| t["assigned_agent"] == "legacy-agent-7"));
}

#[tokio::test]
async fn fifty_thousand_tasks_seed_and_list() {
    let t = Instant::now();
    let sb = start_with(SandboxOptions {
        tasks: 50_000,
        ..Default::default()
    })
    .await;
    let seeded = t.elapsed();
    assert!(seeded.as_secs() < 20, "seeding took {seeded:?}");
    assert!(sb.task_json("#50000").is_some());
    assert!(sb.task_json("#50001").is_none());
    let t = Instant::now();
    let (st, v) = get(&sb, ALICE, "/api/v1/tasks?limit=100").await;
    assert_eq!(st, 200);
    assert_eq!(v["items"].as_array().unwrap().len(), 100);
    let (_, v) = get(
        &sb,
        ALICE,
        "/api/v1/tasks?limit=100&query=northwind&status=in_progress",
    )
    .await;
    assert!(!v["items"].as_array().unwrap().is_empty());
    assert!(t.elapsed().as_secs() < 10, "listing took {:?}", t.elapsed());
}
