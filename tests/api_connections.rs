//! Connections: with `http2 = "always"`, one HTTP/2 connection carries a
//! session over plain http where the service speaks it (prior knowledge),
//! HTTP/1.1 keep-alive where it does not, and a service away at first
//! decides nothing; by default plain http is HTTP/1.1 and never sends the
//! HTTP/2 preface. A proxy in
//! front of the sandbox counts the connections the client opens and tells
//! them apart by their first bytes (the HTTP/2 preface starts `PRI`).

mod api_common;

use api_common::*;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use taskdeck::sandbox::Faults;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How each connection through the proxy began: `h2`, `h1`, or `dropped`
/// (accepted and closed at once while the proxy plays a service away).
struct Proxy {
    url: String,
    conns: Arc<Mutex<Vec<&'static str>>>,
    away: Arc<AtomicBool>,
}

impl Proxy {
    async fn start(target: SocketAddr) -> Proxy {
        Proxy::on(TcpListener::bind("127.0.0.1:0").await.unwrap(), target)
    }

    fn on(listener: TcpListener, target: SocketAddr) -> Proxy {
        let url = format!("http://{}", listener.local_addr().unwrap());
        let conns = Arc::new(Mutex::new(Vec::new()));
        let away = Arc::new(AtomicBool::new(false));
        let (seen, gone) = (conns.clone(), away.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let at = {
                    let mut c = seen.lock().unwrap();
                    c.push("?");
                    c.len() - 1
                };
                if gone.load(Ordering::SeqCst) {
                    seen.lock().unwrap()[at] = "dropped";
                    drop(inbound);
                    continue;
                }
                let seen = seen.clone();
                tokio::spawn(async move {
                    let mut head = [0u8; 3];
                    if inbound.read_exact(&mut head).await.is_err() {
                        return;
                    }
                    seen.lock().unwrap()[at] = if &head == b"PRI" { "h2" } else { "h1" };
                    let Ok(mut out) = TcpStream::connect(target).await else {
                        return;
                    };
                    if out.write_all(&head).await.is_ok() {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut out).await;
                    }
                });
            }
        });
        Proxy { url, conns, away }
    }

    fn conns(&self) -> Vec<&'static str> {
        self.conns.lock().unwrap().clone()
    }
}

/// A client with `http2 = "always"`: the h2c probe these tests are about.
fn client(url: &str) -> Client {
    let mut cfg = ClientConfig::new(url, ApiKey::new("demo-alice-acme"));
    cfg.backoff_base = Duration::from_millis(1);
    cfg.h2c = true;
    Client::new(cfg).unwrap()
}

async fn start(http1_only: bool) -> (Sandbox, Proxy) {
    let sb = Sandbox::start_local(SandboxOptions {
        tasks: 300,
        http1_only,
        ..Default::default()
    })
    .await
    .unwrap();
    let proxy = Proxy::start(sb.addr).await;
    (sb, proxy)
}

/// Ten reads sent together, the way the TUI sends a task's tabs and its
/// read-ahead; every one must be answered.
async fn ten_reads(c: &Client, id: &str) {
    let q = TaskQuery::default();
    let (a, b, d, e, f) = tokio::join!(
        c.me(),
        c.list_tasks(&q, 50, None),
        c.get_task(id),
        c.list_comments(id),
        c.subtasks(id),
    );
    a.unwrap();
    b.unwrap();
    d.unwrap();
    e.unwrap();
    f.unwrap();
    let (a, b, d, e, f) = tokio::join!(
        c.get_task(id),
        c.list_comments(id),
        c.list_thread(id),
        c.get_sharing(id),
        c.list_tasks(&q, 20, None),
    );
    a.unwrap();
    b.unwrap();
    d.unwrap();
    e.unwrap();
    f.unwrap();
}

/// The id of fixture #2 and the PATCH that renames it.
async fn task_two(sb: &Sandbox) -> String {
    sb.task_json("#2").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn rename(c: &Client, id: &str, title: &str) {
    let patch = TaskPatch {
        title: Some(title.into()),
        ..Default::default()
    };
    let t = c.patch_task(id, &patch).await.unwrap();
    assert_eq!(t.title.raw(), title);
}

fn count(sb: &Sandbox, method: &str) -> usize {
    sb.requests().iter().filter(|r| r.method == method).count()
}

#[tokio::test]
async fn one_http2_connection_carries_concurrent_reads_and_writes() {
    let (sb, proxy) = start(false).await;
    let id = task_two(&sb).await;
    let c = client(&proxy.url);
    assert_eq!(c.protocol(), Protocol::Undecided);
    ten_reads(&c, &id).await;
    assert_eq!(c.protocol(), Protocol::Http2);
    rename(&c, &id, "Renamed over h2").await;
    // A clone (the worker's) shares the session and its connection.
    ten_reads(&c.clone(), &id).await;
    assert_eq!(proxy.conns(), vec!["h2"]);
    assert_eq!(count(&sb, "PATCH"), 1);
    assert_eq!(count(&sb, "GET"), 20, "no read was sent twice");
}

#[tokio::test]
async fn a_write_before_anything_is_decided_goes_once_over_http1() {
    let (sb, proxy) = start(false).await;
    let id = task_two(&sb).await;
    let c = client(&proxy.url);
    rename(&c, &id, "Renamed first").await;
    assert_eq!(proxy.conns(), vec!["h1"], "never a write over a guess");
    assert_eq!(c.protocol(), Protocol::Undecided);
    ten_reads(&c, &id).await;
    assert_eq!(c.protocol(), Protocol::Http2);
    assert_eq!(proxy.conns(), vec!["h1", "h2"]);
    assert_eq!(count(&sb, "PATCH"), 1);
}

#[tokio::test]
async fn an_http1_only_service_is_read_over_http1_and_a_write_reaches_it_once() {
    let (sb, proxy) = start(true).await;
    let id = task_two(&sb).await;
    let c = client(&proxy.url);
    ten_reads(&c, &id).await;
    assert_eq!(c.protocol(), Protocol::Http1);
    // The h2c attempts were closed before any request was read.
    assert_eq!(count(&sb, "GET"), 10, "{:?}", sb.requests());
    let tried = proxy.conns();
    assert!(tried.contains(&"h2") && tried.contains(&"h1"), "{tried:?}");
    proxy.conns.lock().unwrap().clear();
    rename(&c, &id, "Renamed over HTTP/1.1").await;
    ten_reads(&c, &id).await;
    assert_eq!(count(&sb, "PATCH"), 1);
    assert_eq!(count(&sb, "GET"), 20);
    let after = proxy.conns();
    assert!(!after.contains(&"h2"), "decided: no h2c again: {after:?}");
    assert_eq!(c.protocol(), Protocol::Http1);
}

#[tokio::test]
async fn http2_false_speaks_http1_only() {
    let (sb, proxy) = start(false).await;
    let id = task_two(&sb).await;
    let mut cfg = ClientConfig::new(proxy.url.as_str(), ApiKey::new("demo-alice-acme"));
    cfg.http2 = false;
    let c = Client::new(cfg).unwrap();
    ten_reads(&c, &id).await;
    assert_eq!(c.protocol(), Protocol::Http1);
    let conns = proxy.conns();
    assert!(conns.iter().all(|k| *k == "h1"), "{conns:?}");
}

/// By default (`http2` true, not "always") plain http is HTTP/1.1: no
/// HTTP/2 preface reaches the service (or a proxy that would not know it),
/// even from a service that speaks HTTP/2; writes go once.
#[tokio::test]
async fn default_plain_http_sends_no_http2_preface() {
    let (sb, proxy) = start(false).await;
    let id = task_two(&sb).await;
    let mut cfg = ClientConfig::new(proxy.url.as_str(), ApiKey::new("demo-alice-acme"));
    cfg.backoff_base = Duration::from_millis(1);
    let c = Client::new(cfg).unwrap();
    ten_reads(&c, &id).await;
    rename(&c, &id, "Renamed over HTTP/1.1").await;
    assert_eq!(c.protocol(), Protocol::Http1);
    let conns = proxy.conns();
    assert!(
        !conns.is_empty() && conns.iter().all(|k| *k == "h1"),
        "{conns:?}"
    );
    assert_eq!(count(&sb, "PATCH"), 1);
}

#[tokio::test]
async fn a_service_refusing_connections_at_first_decides_nothing() {
    let sb = sandbox(false).await;
    let id = task_two(&sb).await;
    // A port nobody listens on yet.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let c = client(&format!("http://{addr}"));
    let e = c.me().await.unwrap_err();
    assert!(matches!(e, ApiError::Unreachable { .. }), "{e:?}");
    assert_eq!(c.protocol(), Protocol::Undecided);
    // The service comes up there.
    let proxy = Proxy::on(TcpListener::bind(addr).await.unwrap(), sb.addr);
    ten_reads(&c, &id).await;
    assert_eq!(c.protocol(), Protocol::Http2);
    assert_eq!(proxy.conns(), vec!["h2"]);
}

#[tokio::test]
async fn a_service_dropping_connections_at_first_does_not_lock_the_session_into_http1() {
    let (sb, proxy) = start(false).await;
    let id = task_two(&sb).await;
    let c = client(&proxy.url);
    proxy.away.store(true, Ordering::SeqCst);
    let e = c.me().await.unwrap_err();
    assert!(matches!(e, ApiError::Network { .. }), "{e:?}");
    assert_eq!(c.protocol(), Protocol::Undecided);
    let tried = proxy.conns();
    assert!(tried.iter().all(|k| *k == "dropped"), "{tried:?}");
    // Each attempt: h2c, then once over HTTP/1.1.
    assert_eq!(tried.len(), 2 * (1 + 3), "{tried:?}");
    // Back.
    proxy.away.store(false, Ordering::SeqCst);
    proxy.conns.lock().unwrap().clear();
    ten_reads(&c, &id).await;
    rename(&c, &id, "Renamed after the outage").await;
    assert_eq!(c.protocol(), Protocol::Http2);
    assert_eq!(proxy.conns(), vec!["h2"]);
    assert_eq!(count(&sb, "PATCH"), 1);
}

#[tokio::test]
async fn a_sandbox_down_at_first_then_back_is_read_over_one_http2_connection() {
    let (sb, proxy) = start(false).await;
    let id = task_two(&sb).await;
    let c = client(&proxy.url);
    sb.set_faults("down=1".parse().unwrap());
    assert!(c.me().await.is_err());
    assert_ne!(c.protocol(), Protocol::Http1);
    let during = proxy.conns().len();
    sb.set_faults(Faults::default());
    ten_reads(&c, &id).await;
    rename(&c, &id, "Renamed after down").await;
    assert_eq!(c.protocol(), Protocol::Http2);
    let conns = proxy.conns();
    assert!(
        !conns[during..].contains(&"h1"),
        "nothing over HTTP/1.1 once back: {conns:?}"
    );
    assert_eq!(conns.iter().filter(|k| **k == "h2").count(), 1, "{conns:?}");
    assert_eq!(count(&sb, "PATCH"), 1);
}

/// A service that neither answers nor closes on the HTTP/2 preface (it
/// holds such a connection open in silence) but speaks HTTP/1.1: the first
/// read does not wait out its timeout; it goes once more over HTTP/1.1
/// after `H2C_PROBE_WAIT`, and the session stays on HTTP/1.1.
#[tokio::test]
async fn a_service_silent_on_the_http2_preface_is_read_over_http1() {
    let (sb, _) = start(false).await;
    let target = sb.addr;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut head = [0u8; 3];
                if inbound.read_exact(&mut head).await.is_err() {
                    return;
                }
                if &head == b"PRI" {
                    // Silence, the connection held open.
                    tokio::time::sleep(Duration::from_secs(600)).await;
                    drop(inbound);
                    return;
                }
                let Ok(mut out) = TcpStream::connect(target).await else {
                    return;
                };
                if out.write_all(&head).await.is_ok() {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut out).await;
                }
            });
        }
    });
    let mut cfg = ClientConfig::new(url.as_str(), ApiKey::new("demo-alice-acme"));
    cfg.h2c = true;
    // Far longer than the guard below, as is the h2 ping's 40 s: only the
    // probe's own wait can end the h2c attempt in time.
    cfg.read_timeout = Duration::from_secs(300);
    cfg.total_timeout = Duration::from_secs(300);
    let c = Client::new(cfg).unwrap();
    let me = tokio::time::timeout(Duration::from_secs(20), c.me())
        .await
        .expect("the first read is not held by the silent HTTP/2 attempt");
    assert_eq!(me.unwrap().user_name.raw(), "Alice Martin");
    assert_eq!(c.protocol(), Protocol::Http1);
    c.list_tasks(&TaskQuery::default(), 20, None).await.unwrap();
}
