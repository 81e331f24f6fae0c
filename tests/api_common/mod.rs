//! Helpers of the typed-client tests: a sandbox, clients for its demo keys, walks.
#![allow(dead_code, unused_imports)]
pub use serde_json::{json, Value};
pub use std::time::{Duration, Instant};
pub use taskdeck::api::*;
pub use taskdeck::sandbox::{Sandbox, SandboxOptions};

pub async fn sandbox(quirks: bool) -> Sandbox {
    Sandbox::start_local(SandboxOptions {
        tasks: 300,
        quirks,
        ..Default::default()
    })
    .await
    .unwrap()
}

pub fn client_with(sb: &Sandbox, key: &str) -> Client {
    let mut cfg = ClientConfig::new(sb.base_url(), ApiKey::new(key));
    cfg.backoff_base = Duration::from_millis(1);
    Client::new(cfg).unwrap()
}

pub fn alice(sb: &Sandbox) -> Client {
    client_with(sb, &sb.keys[0].key)
}

/// The key of a user in an organisation without the requester thread and
/// the Visual Builder.
pub fn no_features_key(sb: &Sandbox) -> String {
    sb.keys
        .iter()
        .find(|k| k.org_name != sb.keys[0].org_name && k.note.contains("no requester thread"))
        .expect("a key of an organisation without the features")
        .key
        .clone()
}

pub async fn find(c: &Client, query: &str) -> Task {
    let q = TaskQuery {
        query: Some(query.into()),
        ..Default::default()
    };
    let page = c.list_tasks(&q, 100, None).await.unwrap();
    page.items
        .iter()
        .filter_map(|i| i.task())
        .find(|t| t.title.raw().contains(query))
        .unwrap_or_else(|| panic!("no task matching {query:?}"))
        .clone()
}

pub async fn walk(c: &Client, q: &TaskQuery, limit: u32) -> Vec<TaskItem> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = c.list_tasks(q, limit, cursor.as_deref()).await.unwrap();
        out.extend(page.items);
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => return out,
        }
    }
}

/// Walk a filtered list; every item must satisfy `ok`; returns the count.
pub async fn check(c: &Client, q: TaskQuery, ok: impl Fn(&Task) -> bool) -> usize {
    let got = walk(c, &q, 100).await;
    assert!(!got.is_empty(), "{q:?} matched nothing");
    for t in got.iter().filter_map(|i| i.task()) {
        assert!(ok(t), "{q:?} returned {}", t.label());
    }
    got.len()
}

pub fn people_ids(t: &Task) -> Vec<String> {
    let mut ids: Vec<String> = t
        .involved_people
        .iter()
        .map(|m| m.id.as_str().to_string())
        .collect();
    ids.extend(t.creator.iter().map(|p| p.id.as_str().to_string()));
    ids.extend(t.assigned_to.iter().map(|p| p.id.as_str().to_string()));
    ids
}
