//! Realistic inputs for the benchmarks: task JSON exactly as the sandbox
//! serves it, walked with the real client, then multiplied with fresh ids.

#![allow(dead_code)]

use taskdeck::api::{ApiKey, Client, ClientConfig, TaskItem, TaskPage, TaskQuery};
use taskdeck::app::state::{ApiRequest, ApiResult, Reply, State};
use taskdeck::config::Settings;
use taskdeck::sandbox::{Sandbox, SandboxOptions};

/// The raw JSON of `n` tasks as served by the sandbox (seeded with `n`
/// tasks, walked 100 at a time as Alice).
pub fn sandbox_items(n: usize) -> Vec<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let sb = Sandbox::start_local(SandboxOptions {
            tasks: n,
            ..Default::default()
        })
        .await
        .unwrap();
        let client = Client::new(ClientConfig::new(
            sb.base_url(),
            ApiKey::new("demo-alice-acme"),
        ))
        .unwrap();
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = client
                .list_tasks_raw(&TaskQuery::default(), 100, cursor.as_deref())
                .await
                .unwrap();
            out.extend(page.items.iter().map(|r| r.get().to_string()));
            match page.cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        out
    })
}

/// `n` task JSON texts: the sandbox's tasks cycled, each with a unique id.
pub fn task_jsons(base: &[String], n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let src = &base[i % base.len()];
            let mut v: serde_json::Value = serde_json::from_str(src).unwrap();
            v["id"] = format!("00000000-0000-4000-8000-{i:012}").into();
            v.to_string()
        })
        .collect()
}

/// A whole list-page body as the service sends it.
pub fn page_body(items: &[String], cursor: Option<&str>) -> String {
    format!(
        "{{\"items\":[{}],\"cursor\":{}}}",
        items.join(","),
        cursor.map_or("null".to_string(), |c| format!("{c:?}"))
    )
}

pub fn page(items: &[String], cursor: Option<String>) -> TaskPage {
    TaskPage {
        items: items.iter().map(|s| TaskItem::from_json(s)).collect(),
        cursor,
    }
}

/// A fresh state with its identity known and the first list walk started.
pub fn fresh_state() -> State {
    let mut s = taskdeck::app::new_state("127.0.0.1:1".into(), &Settings::default(), false);
    let _ = s.start();
    let me = taskdeck::api::Identity {
        user_id: "00000000-0000-4000-8000-00000000a11c".into(),
        user_name: "Alice Martin".into(),
        customer_name: "Acme".into(),
        ..Default::default()
    };
    let _ = s.on_api(ApiResult {
        ticket: 1,
        req: ApiRequest::Me,
        result: Ok(Reply::Me(me)),
    });
    s
}

/// Feed `items` to the state page by page, the way the worker would.
pub fn load(s: &mut State, items: &[String], page_size: usize) {
    let chunks: Vec<&[String]> = items.chunks(page_size).collect();
    for (i, chunk) in chunks.iter().enumerate() {
        let last = i + 1 == chunks.len();
        let cursor = s.list.cursor.clone();
        let p = page(chunk, (!last).then(|| format!("c{}", i + 1)));
        let _ = s.on_api(ApiResult {
            ticket: 0,
            req: ApiRequest::ListPage {
                gen: s.list.gen,
                query: TaskQuery::default(),
                limit: page_size as u32,
                cursor,
            },
            result: Ok(Reply::Page(p)),
        });
    }
    s.list.loading = false;
}
