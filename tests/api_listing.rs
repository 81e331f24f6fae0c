//! Comment and requester-thread listings in either shape a service of this
//! family may use — a bare array, or `{items, cursor}` pages — read by our
//! client over real HTTP (sandbox on 127.0.0.1:0), and any other shape
//! refused in one clear line.

use std::time::Duration;
use taskdeck::api::*;
use taskdeck::sandbox::{ListingShape, RecordedRequest, Sandbox, SandboxOptions};

async fn sandbox(quirks: bool) -> Sandbox {
    Sandbox::start_local(SandboxOptions {
        tasks: 60,
        quirks,
        ..Default::default()
    })
    .await
    .unwrap()
}

/// Alice's client, asking for `limit` items per listing page.
fn alice(base_url: &str, limit: u32) -> Client {
    let mut cfg = ClientConfig::new(base_url, ApiKey::new("demo-alice-acme"));
    cfg.backoff_base = Duration::from_millis(1);
    cfg.get_retries = 0;
    cfg.listing_limit = limit;
    Client::new(cfg).unwrap()
}

fn id_of(sb: &Sandbox, display: &str) -> String {
    sb.task_json(display).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn gets(sb: &Sandbox, suffix: &str) -> Vec<RecordedRequest> {
    sb.requests()
        .into_iter()
        .filter(|r| r.method == "GET" && r.path.ends_with(suffix))
        .collect()
}

fn query_value(r: &RecordedRequest, key: &str) -> Option<String> {
    r.query.as_deref().unwrap_or("").split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == key).then(|| v.to_string())
    })
}

/// Fixture #3 (3 seeded comments) with `extra` more added: its id.
async fn task_with_comments(sb: &Sandbox, c: &Client, extra: usize) -> String {
    let id = id_of(sb, "#3");
    for i in 0..extra {
        c.add_comment(&id, &format!("paging comment {i}"), &[])
            .await
            .unwrap();
    }
    id
}

#[tokio::test]
async fn comments_are_read_from_a_bare_array_and_from_envelope_pages() {
    let sb = sandbox(false).await;
    assert_eq!(sb.listing_shape(), ListingShape::Array);
    let c = alice(&sb.base_url(), 3);
    let id = task_with_comments(&sb, &c, 7).await;

    sb.clear_requests();
    let from_array = c.list_comments(&id).await.unwrap();
    assert_eq!(from_array.len(), 10, "3 seeded + 7 added");
    assert_eq!(gets(&sb, "/comments").len(), 1, "an array is one request");

    sb.set_listing_shape(ListingShape::Envelope);
    sb.clear_requests();
    let from_pages = c.list_comments(&id).await.unwrap();
    let reqs = gets(&sb, "/comments");
    assert_eq!(reqs.len(), 4, "10 comments in pages of 3: {reqs:?}");
    for (i, r) in reqs.iter().enumerate() {
        assert_eq!(
            query_value(r, "limit").as_deref(),
            Some("3"),
            "same limit on page {i}"
        );
        assert_eq!(
            query_value(r, "cursor").is_some(),
            i > 0,
            "cursor on page {i}"
        );
    }
    // The same comments in the same (creation) order, none repeated.
    let ids = |v: &[Comment]| v.iter().map(|c| c.id.to_string()).collect::<Vec<_>>();
    assert_eq!(ids(&from_pages), ids(&from_array));
    assert_eq!(from_pages.last().unwrap().content.raw(), "paging comment 6");
    assert_eq!(from_pages, from_array);
}

#[tokio::test]
async fn the_requester_thread_is_read_in_both_shapes() {
    let sb = sandbox(false).await;
    let c = alice(&sb.base_url(), 2);
    let id = id_of(&sb, "#2");
    for i in 0..4 {
        c.reply_to_requester(&id, &format!("reply {i}"), &[])
            .await
            .unwrap();
    }
    let from_array = c.list_thread(&id).await.unwrap();
    assert!(from_array.len() >= 4, "{}", from_array.len());
    assert_eq!(from_array.last().unwrap().content.raw(), "reply 3");

    sb.set_listing_shape(ListingShape::Envelope);
    sb.clear_requests();
    let from_pages = c.list_thread(&id).await.unwrap();
    assert_eq!(from_pages, from_array);
    assert_eq!(
        gets(&sb, "/thread").len(),
        from_array.len().div_ceil(2),
        "pages of 2"
    );

    // "Not available" is unchanged by the shape.
    let gina = {
        let mut cfg = ClientConfig::new(sb.base_url(), ApiKey::new("demo-gina-globex"));
        cfg.get_retries = 0;
        Client::new(cfg).unwrap()
    };
    let globex = id_of(&sb, "#16");
    let e = gina.list_thread(&globex).await.unwrap_err();
    assert!(matches!(e, ApiError::NotAvailable { .. }), "{e:?}");
}

#[tokio::test]
async fn the_default_page_size_reads_a_long_listing_in_few_requests() {
    let sb = sandbox(false).await;
    sb.set_listing_shape(ListingShape::Envelope);
    let c = alice(&sb.base_url(), 100);
    let id = task_with_comments(&sb, &c, 25).await;
    sb.clear_requests();
    assert_eq!(c.list_comments(&id).await.unwrap().len(), 28);
    let reqs = gets(&sb, "/comments");
    assert_eq!(reqs.len(), 1, "{reqs:?}");
    assert_eq!(query_value(&reqs[0], "limit").as_deref(), Some("100"));
}

#[tokio::test]
async fn quirks_serve_envelopes_and_an_unreadable_comment_is_skipped() {
    let sb = sandbox(true).await;
    assert_eq!(sb.listing_shape(), ListingShape::Envelope);
    let c = alice(&sb.base_url(), 50);
    let page = c
        .list_tasks(
            &TaskQuery {
                query: Some("Malformed task".into()),
                ..Default::default()
            },
            10,
            None,
        )
        .await
        .unwrap();
    let id = page.items[0].id().unwrap().to_string();
    let comments = c.list_comments(&id).await.unwrap();
    let texts: Vec<&str> = comments.iter().map(|c| c.content.raw()).collect();
    assert_eq!(
        texts,
        [
            "Readable comment before the odd one",
            "Readable comment after the odd one"
        ],
        "the malformed comment is skipped, the others kept"
    );
}

/// A service stub answering every request with `body` (200, JSON); counts
/// the requests it received.
async fn stub(body: &'static str) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let hits = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let app = axum::Router::new().fallback(move || {
        let counter = counter.clone();
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            (
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                body,
            )
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}"), hits)
}

#[tokio::test]
async fn any_other_shape_is_refused_in_one_clear_line() {
    let (url, _) = stub(r#"{"data": [{"id": "c1", "content": "hi"}], "total": 1}"#).await;
    let c = alice(&url, 50);
    for e in [
        c.list_comments("t1").await.unwrap_err(),
        c.list_thread("t1").await.unwrap_err(),
    ] {
        assert!(matches!(e, ApiError::Decode { .. }), "{e:?}");
        let line = e.to_string();
        assert!(line.contains("in a shape taskdeck does not read"), "{line}");
        assert!(line.contains("an object with keys data, total"), "{line}");
        assert!(!line.contains('\n'), "{line}");
    }
    let e = c.list_comments("t1").await.unwrap_err().to_string();
    assert!(e.contains("lists comments"), "{e}");
    let e = c.list_thread("t1").await.unwrap_err().to_string();
    assert!(e.contains("lists requester messages"), "{e}");
}

#[tokio::test]
async fn a_repeated_cursor_stops_the_walk_with_an_error() {
    let (url, hits) =
        stub(r#"{"items": [{"id": "c1", "content": "hi"}], "cursor": "again"}"#).await;
    let c = alice(&url, 50);
    let e = c.list_comments("t1").await.unwrap_err();
    assert!(matches!(e, ApiError::Decode { .. }), "{e:?}");
    assert!(e.to_string().contains("same cursor twice"), "{e}");
    assert_eq!(
        hits.load(std::sync::atomic::Ordering::SeqCst),
        2,
        "stopped at the first repeat"
    );
}

/// Tasks and comments whose times are odd in every way the spec leaves
/// open: each one is still read, its time kept as received.
const ODD_TIMES: &str = r#"{"items": [
  {"id": "t1", "title": "no times"},
  {"id": "t2", "title": "empty", "created_at": "", "updated_at": "", "complete_by": ""},
  {"id": "t3", "title": "numbers", "created_at": 1732000000, "updated_at": 1.5, "complete_by": 0},
  {"id": "t4", "title": "null and bool", "created_at": null, "updated_at": true, "complete_by": null},
  {"id": "t5", "title": "odd forms", "created_at": "2026-11-10T18:18:19.1234567890123+05:30",
   "updated_at": "2026-11-10", "complete_by": "9999-12-31T23:59:59Z"},
  {"id": "t6", "title": "garbage", "created_at": "soon\u001b[31m", "updated_at": "+99999-01-01T00:00:00Z",
   "complete_by": "2026-13-45"}
], "cursor": null}"#;

#[tokio::test]
async fn odd_times_never_make_a_task_or_comment_unreadable() {
    let (url, _) = stub(ODD_TIMES).await;
    let c = alice(&url, 50);
    let page = c.list_tasks(&TaskQuery::default(), 50, None).await.unwrap();
    let tasks: Vec<&Task> = page.items.iter().filter_map(|i| i.task()).collect();
    assert_eq!(tasks.len(), 6, "{:?}", page.items);
    assert_eq!(tasks[2].created_at.as_deref(), Some("1732000000"));
    assert_eq!(tasks[3].updated_at.as_deref(), Some("true"));
    assert!(tasks.iter().all(|t| t.id != "t5" || t.due().is_none()));
    // The same page as comments (the envelope's items): none skipped.
    let comments = c.list_comments("t1").await.unwrap();
    assert_eq!(comments.len(), 6, "{comments:?}");
    assert_eq!(comments[2].created_at.as_deref(), Some("1732000000"));
}
