//! The typed client on the wire: retries, writes never retried, bad bodies, quirks, redirects.

mod api_common;

use api_common::*;

#[tokio::test]
async fn get_retried_on_503_with_retry_after() {
    let sb = sandbox(false).await;
    let mut cfg = ClientConfig::new(sb.base_url(), ApiKey::new(sb.keys[0].key.clone()));
    cfg.get_retries = 2;
    cfg.backoff_base = Duration::from_secs(30); // would fail the test if Retry-After were ignored
    let c = Client::new(cfg).unwrap();
    c.me().await.unwrap();

    // Every request fails: 1 + 2 retries, each after Retry-After: 1.
    // (The log is never cleared here: its length is the fault counter.)
    sb.set_faults("fail_every=1,status=503,retry_after=1".parse().unwrap());
    let before = sb.requests().len();
    let started = Instant::now();
    let e = c.me().await.unwrap_err();
    assert!(matches!(e, ApiError::Status { status: 503, .. }), "{e:?}");
    assert_eq!(sb.requests().len() - before, 3);
    assert!(started.elapsed() >= Duration::from_secs(2));

    // Only the next request fails: the retry succeeds.
    let n = sb.requests().len() as u64;
    sb.set_faults(
        format!("fail_every={},retry_after=0", n + 1)
            .parse()
            .unwrap(),
    );
    let me = c.me().await.unwrap();
    assert!(!me.user_id.is_empty());
    assert_eq!(sb.requests().len() as u64 - n, 2, "one failure, one retry");
}

#[tokio::test]
async fn post_is_not_retried() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    let t = find(&c, "Confirm engagement letter with Contoso").await;
    sb.set_faults("fail_every=1,status=503,retry_after=0".parse().unwrap());
    sb.clear_requests();
    let e = c.add_comment(&t.id, "only once", &[]).await.unwrap_err();
    assert!(matches!(e, ApiError::Status { status: 503, .. }), "{e:?}");
    assert!(e.outcome_unknown());
    let reqs = sb.requests();
    assert_eq!(reqs.len(), 1, "{reqs:?}");
    assert_eq!(reqs[0].method, "POST");
}

#[tokio::test]
async fn garbage_body_is_a_decode_error() {
    let sb = sandbox(false).await;
    let c = alice(&sb);
    c.me().await.unwrap();
    sb.set_faults("garbage_every=1".parse().unwrap());
    let e = c
        .list_tasks(&TaskQuery::default(), 10, None)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Decode { .. }), "{e:?}");
    assert!(!e.to_string().contains('\n'));
}

#[tokio::test]
async fn quirks_are_kept() {
    let sb = sandbox(true).await;
    let c = alice(&sb);
    let items = walk(&c, &TaskQuery::default(), 50).await;
    let unreadable: Vec<_> = items
        .iter()
        .filter(|i| matches!(i, TaskItem::Unreadable(_)))
        .collect();
    assert_eq!(unreadable.len(), 1);
    assert!(unreadable[0].id().is_some());
    let tasks: Vec<&Task> = items.iter().filter_map(|i| i.task()).collect();
    let odd = tasks
        .iter()
        .find(|t| t.status == Status::Other("blocked".into()))
        .expect("a task with an unknown status");
    assert!(!odd.priority.is_known());
    assert!(odd.extra.contains_key("x_sla"));
    assert!(tasks
        .iter()
        .any(|t| t.title.raw().contains('\u{1b}') && !t.title.line().contains('\u{1b}')));
}

#[tokio::test]
async fn cross_origin_redirect_drops_the_key() {
    use axum::http::HeaderMap;
    use axum::response::Redirect;
    use axum::routing::get;
    use std::sync::{Arc, Mutex};

    let seen: Arc<Mutex<Vec<Option<String>>>> = Arc::default();
    let seen_b = seen.clone();
    let b = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let b_addr = b.local_addr().unwrap();
    let app_b = axum::Router::new().fallback(move |h: HeaderMap| {
        let seen = seen_b.clone();
        async move {
            seen.lock().unwrap().push(
                h.get("authorization")
                    .map(|v| v.to_str().unwrap_or("?").to_string()),
            );
            axum::Json(json!({"user_id": "u", "customer_id": "c", "user_name": "B",
                              "user_email": "b@b", "customer_name": "B"}))
        }
    });
    tokio::spawn(async move { axum::serve(b, app_b).await.unwrap() });

    let got_auth: Arc<Mutex<Vec<bool>>> = Arc::default();
    let got_auth_a = got_auth.clone();
    let a = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let a_addr = a.local_addr().unwrap();
    let target = format!("http://{b_addr}/api/v1/me");
    let app_a = axum::Router::new().route(
        "/api/v1/me",
        get(move |h: HeaderMap| {
            got_auth_a
                .lock()
                .unwrap()
                .push(h.get("authorization").is_some());
            let target = target.clone();
            async move { Redirect::temporary(&target) }
        }),
    );
    tokio::spawn(async move { axum::serve(a, app_a).await.unwrap() });

    let c = Client::new(ClientConfig::new(
        format!("http://{a_addr}"),
        ApiKey::new("secret-key-123"),
    ))
    .unwrap();
    let result = c.me().await;
    assert_eq!(
        *got_auth.lock().unwrap(),
        vec![true],
        "the first hop is authenticated"
    );
    for h in seen.lock().unwrap().iter() {
        assert!(
            h.as_deref().is_none_or(|v| !v.contains("secret-key-123")),
            "the key reached another origin: {h:?}"
        );
    }
    // Either stopped at the redirect or followed without the key; never the key.
    if let Ok(me) = result {
        assert_eq!(me.user_name.raw(), "B");
    }
}
