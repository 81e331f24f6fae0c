//! Helpers of the sandbox rule tests (`tests/sandbox_*.rs`): the sandbox on
//! 127.0.0.1:0, raw HTTP calls with a demo key, list walks.

#![allow(dead_code)]

use reqwest::Method;
use serde_json::Value;
use taskdeck::sandbox::{Sandbox, SandboxOptions};

pub const ALICE: &str = "demo-alice-acme";
pub const BOB: &str = "demo-bob-acme";
pub const CAROL: &str = "demo-carol-acme";
pub const SAM: &str = "demo-sam-acme";
pub const GINA: &str = "demo-gina-globex";

pub async fn start_with(opts: SandboxOptions) -> Sandbox {
    Sandbox::start_local(opts).await.unwrap()
}

pub async fn start() -> Sandbox {
    start_with(SandboxOptions::default()).await
}

pub async fn raw(
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

pub async fn call(
    sb: &Sandbox,
    key: &str,
    m: Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
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

pub async fn get(sb: &Sandbox, key: &str, path: &str) -> (u16, Value) {
    call(sb, key, Method::GET, path, None).await
}

pub fn id_of(sb: &Sandbox, display: &str) -> String {
    sb.task_json(display).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

pub async fn user_id(sb: &Sandbox, key: &str) -> String {
    get(sb, key, "/api/v1/me").await.1["user_id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Walks the whole list with `query` (which may be empty) and a fixed limit.
pub async fn walk(sb: &Sandbox, key: &str, query: &str, limit: u32) -> Vec<Value> {
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

pub fn displays(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|t| t["display_id"].as_str().unwrap().to_string())
        .collect()
}

pub fn error_shape(v: &Value, status: u64) {
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert_eq!(v["status"], status, "{v}");
}
