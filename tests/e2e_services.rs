//! Two services on one host and port, told apart by their base paths
//! (`http://h:p/a` and `http://h:p/b`): a proxy in front of two sandboxes
//! seeded alike (same users, same task ids). An edit queued offline for
//! `/a` is never sent to `/b`, and reaches `/a` once it is back. No
//! assertion depends on how fast anything is.

mod support;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use support::*;

#[derive(Clone)]
struct Upstreams {
    a: String,
    b: String,
    http: reqwest::Client,
}

/// `/a/…` to sandbox A, `/b/…` to sandbox B; anything else 404.
async fn forward(
    State(up): State<Upstreams>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path();
    let (base, rest) = if let Some(r) = path.strip_prefix("/a/") {
        (&up.a, r)
    } else if let Some(r) = path.strip_prefix("/b/") {
        (&up.b, r)
    } else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let mut url = format!("{}/{rest}", base.trim_end_matches('/'));
    if let Some(q) = uri.query() {
        url.push('?');
        url.push_str(q);
    }
    let mut req = up.http.request(method, url).body(body);
    for name in ["authorization", "content-type", "accept"] {
        if let Some(v) = headers.get(name) {
            req = req.header(name, v.clone());
        }
    }
    match req.send().await {
        Ok(r) => {
            let status = r.status();
            let ctype = r.headers().get("content-type").cloned();
            let bytes = r.bytes().await.unwrap_or_default();
            let mut resp = (status, bytes).into_response();
            if let Some(c) = ctype {
                resp.headers_mut().insert("content-type", c);
            }
            resp
        }
        // The service is away: so is it through the proxy (the
        // connection fails before any answer, as the sandbox's `down`).
        Err(_) => {
            let stream = futures::stream::once(async {
                Err::<Bytes, std::io::Error>(std::io::Error::new(
                    std::io::ErrorKind::ConnectionReset,
                    "upstream away",
                ))
            });
            let mut resp = Response::new(axum::body::Body::from_stream(stream));
            resp.headers_mut().remove("content-length");
            resp
        }
    }
}

fn env_for(svc: &Service, base: &str) -> Vec<(String, String)> {
    env_with(svc.env(), "TASKDECK_BASE_URL", base)
}

#[test]
fn two_base_paths_on_one_host_never_share_an_outbox() {
    let a = Service::small();
    let b = Service::small();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let host = listener.local_addr().unwrap();
    let up = Upstreams {
        a: a.sb.base_url(),
        b: b.sb.base_url(),
        http: reqwest::Client::builder().http1_only().build().unwrap(),
    };
    let app = axum::Router::new().fallback(forward).with_state(up);
    rt.spawn(async move { axum::serve(listener, app).await });
    let base_a = format!("http://{host}/a");
    let base_b = format!("http://{host}/b");
    let home = Home::new();

    // A first session on /a: its store learns the list and a task.
    let tui = Tui::spawn(&home, &[], &env_for(&a, &base_a), 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    let screen = tui.screen();
    let current = current_row(&screen);
    tui.wait_for(&format!("┌{current} "), WAIT);
    let mut tui = tui;
    tui.send("q");
    tui.wait_exit(WAIT);
    let id = a.task_id(&current);
    assert_eq!(b.task_id(&current), id, "the two services are seeded alike");
    let before = a.sb.task_json(&current).unwrap()["priority"].clone();
    let wanted = if before == "low" { "high" } else { "low" };

    // /a is away: the edit is queued for /a.
    a.set_faults("down=1");
    let mut tui = Tui::spawn(&home, &[], &env_for(&a, &base_a), 120, 40);
    tui.wait_for("OFFLINE", WAIT);
    tui.wait_for(&format!("┌{current} "), WAIT);
    tui.send(&format!(":priority {wanted}\r"));
    tui.wait_for("outbox 1", WAIT);
    tui.signal(libc::SIGTERM);
    tui.wait_exit(WAIT);

    // /b, same host and port, same user: nothing of /a's outbox goes there.
    let mut tui = Tui::spawn(&home, &[], &env_for(&b, &base_b), 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    tui.send("r");
    tui.wait_until("the reload", WAIT, |s| s.contains("(more below)"));
    let screen = tui.screen();
    assert!(
        !screen.contains("outbox 1"),
        "/a's outbox is not /b's: {screen}"
    );
    assert!(
        b.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"))
            .is_empty(),
        "an edit made for /a reached /b"
    );
    tui.send("q");
    tui.wait_exit(WAIT);

    // /a is back: the edit goes there, once.
    a.set_faults("");
    let mut tui = Tui::spawn(&home, &[], &env_for(&a, &base_a), 120, 40);
    tui.wait_until("the edit on /a", WAIT, |_| {
        a.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"))
            .len()
            == 1
    });
    assert_eq!(a.sb.task_json(&current).unwrap()["priority"], wanted);
    assert!(b
        .requests_matching("PATCH", &format!("/api/v1/tasks/{id}"))
        .is_empty());
    tui.signal(libc::SIGTERM);
    tui.wait_exit(WAIT);
}
