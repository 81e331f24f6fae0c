//! Reaching the service through real-world networks (#27 §1–2): TLS with
//! a private CA (a TLS front in front of the sandbox, certificates in
//! tests/tls), a proxy refusing (407, its own 401), a SOCKS5 proxy, a port
//! nobody listens on and a name that does not exist. Each failure is one
//! line naming the host and the cause; TLS and proxy failures are not
//! "unreachable" (not offline) and exit 5 from the CLI, not 4.

mod api_common;
mod cli_env;

use api_common::*;
use cli_env::{stderr, stdout, Env};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

fn tls_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tls")
        .join(name)
}

/// A TLS front for `target` (the sandbox) serving `cert`, offering h2 and
/// http/1.1 by ALPN; counts the connections it accepts.
struct Front {
    url: String,
    conns: Arc<AtomicUsize>,
}

async fn tls_front(target: SocketAddr, cert: &str) -> Front {
    tls_front_keyed(target, cert, "localhost.key").await
}

async fn tls_front_keyed(target: SocketAddr, cert: &str, key: &str) -> Front {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(tls_file(cert))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(tls_file(key)).unwrap();
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut cfg = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    cfg.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(cfg));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("https://{}", listener.local_addr().unwrap());
    let conns = Arc::new(AtomicUsize::new(0));
    let seen = conns.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            seen.fetch_add(1, Ordering::SeqCst);
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                // The sandbox reads either version on one port.
                let Ok(mut out) = TcpStream::connect(target).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut out).await;
            });
        }
    });
    Front { url, conns }
}

fn client_for(url: &str, ca_file: Option<PathBuf>) -> Client {
    let mut cfg = ClientConfig::new(url, ApiKey::new("demo-alice-acme"));
    cfg.backoff_base = Duration::from_millis(1);
    cfg.ca_file = ca_file;
    Client::new(cfg).unwrap()
}

#[tokio::test]
async fn an_untrusted_certificate_is_named_not_offline_and_not_retried() {
    let sb = sandbox(false).await;
    let front = tls_front(sb.addr, "localhost.pem").await;
    let host = front.url.trim_start_matches("https://").to_string();
    let e = client_for(&front.url, None).me().await.unwrap_err();
    assert!(matches!(e, ApiError::Tls { .. }), "{e:?}");
    assert!(!e.unreachable() && e.is_setup(), "{e:?}");
    let m = e.to_string();
    assert!(m.starts_with(&format!("{host}: ")), "{m}");
    assert!(
        m.contains("certificate is not trusted") && m.contains("ca_file"),
        "{m}"
    );
    // Who it is for and who issued it, read from the certificate.
    assert!(
        m.contains(r#"it is for "localhost", issued by "Taskdeck Test CA" (Taskdeck Test)"#),
        "{m}"
    );
    assert!(
        !m.contains('\n') && !m.to_lowercase().contains("invalid peer"),
        "{m}"
    );
    // The request's, and one that only read the certificate: not retried.
    assert_eq!(
        front.conns.load(Ordering::SeqCst),
        2,
        "a TLS failure is not retried"
    );
}

#[tokio::test]
async fn ca_file_trusts_a_private_ca_and_tls_negotiates_http2() {
    let sb = sandbox(false).await;
    let front = tls_front(sb.addr, "localhost.pem").await;
    let c = client_for(&front.url, Some(tls_file("ca.pem")));
    assert_eq!(c.me().await.unwrap().user_name.raw(), "Alice Martin");
    c.list_tasks(&TaskQuery::default(), 20, None).await.unwrap();
    assert_eq!(c.protocol(), Protocol::Http2, "ALPN chose h2");
    assert_eq!(front.conns.load(Ordering::SeqCst), 1, "one connection");
}

#[tokio::test]
async fn an_expired_or_misnamed_certificate_says_so() {
    let sb = sandbox(false).await;
    let expired = tls_front(sb.addr, "expired.pem").await;
    let e = client_for(&expired.url, Some(tls_file("ca.pem")))
        .me()
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("certificate has expired (on 2021-01-01)"),
        "{e}"
    );
    let other = tls_front(sb.addr, "other.pem").await;
    let e = client_for(&other.url, Some(tls_file("ca.pem")))
        .me()
        .await
        .unwrap_err();
    let m = e.to_string();
    assert!(m.contains("is for another name (other.example)"), "{m}");
    assert!(!e.unreachable(), "{e:?}");
}

#[tokio::test]
async fn a_ca_file_that_is_missing_or_not_pem_is_named() {
    let e = Client::new({
        let mut c = ClientConfig::new("https://127.0.0.1:9", ApiKey::new("k-123456"));
        c.ca_file = Some(PathBuf::from("/nonexistent/ca.pem"));
        c
    })
    .unwrap_err();
    assert!(
        e.contains("ca_file /nonexistent/ca.pem: cannot read it"),
        "{e}"
    );
    let e = Client::new({
        let mut c = ClientConfig::new("https://127.0.0.1:9", ApiKey::new("k-123456"));
        c.ca_file = Some(tls_file("README.md"));
        c
    })
    .unwrap_err();
    assert!(
        e.contains("no certificate in it") || e.contains("not PEM"),
        "{e}"
    );
}

#[tokio::test]
async fn refused_and_name_not_found_are_named_in_plain_words() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let mut cfg = ClientConfig::new(format!("http://{addr}"), ApiKey::new("k-123456"));
    cfg.get_retries = 0;
    let e = Client::new(cfg).unwrap().me().await.unwrap_err();
    assert!(e.unreachable(), "{e:?}");
    let m = e.to_string();
    assert!(m.contains(&format!("{addr} refused the connection")), "{m}");
    let mut cfg = ClientConfig::new("http://tasks.nonexistent.invalid", ApiKey::new("k-123456"));
    cfg.get_retries = 0;
    let e = Client::new(cfg).unwrap().me().await.unwrap_err();
    let m = e.to_string();
    assert!(e.unreachable(), "{e:?}");
    assert!(
        m.contains("tasks.nonexistent.invalid: the name was not found"),
        "{m}"
    );
}

#[tokio::test]
async fn a_connection_dropped_before_the_answer_is_named_without_the_url() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            let mut b = [0u8; 64];
            let _ = s.read(&mut b).await;
            drop(s);
        }
    });
    let mut cfg = ClientConfig::new(format!("http://{addr}"), ApiKey::new("k-123456"));
    cfg.get_retries = 0;
    let e = Client::new(cfg).unwrap().me().await.unwrap_err();
    assert!(matches!(e, ApiError::Network { .. }), "{e:?}");
    let m = e.to_string();
    assert!(m.contains(&format!("the connection to {addr} was")), "{m}");
    assert!(!m.contains("/api/v1/me") && !m.contains("for url"), "{m}");
}

/// The CLI: an untrusted certificate is one line and exit 5; with
/// `ca_file` in the config the same service works.
#[tokio::test]
async fn cli_untrusted_certificate_exits_5_and_ca_file_fixes_it() {
    let sb = sandbox(false).await;
    let front = tls_front(sb.addr, "localhost.pem").await;
    let mut env = Env::new();
    env.set("TASKDECK_BASE_URL", &front.url);
    env.set("TASKDECK_API_KEY", &sb.keys[0].key);
    no_proxy(&mut env);
    let out = env.run(&["me"]).await;
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("certificate is not trusted"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    env.write_config(&format!(
        "ca_file = {:?}\n",
        tls_file("ca.pem").display().to_string()
    ));
    let out = env.run(&["me"]).await;
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("Alice"), "{}", stdout(&out));
}

/// No proxy from the caller's environment.
fn no_proxy(env: &mut Env) {
    for k in [
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
        "ALL_PROXY",
        "all_proxy",
        "NO_PROXY",
        "no_proxy",
    ] {
        env.set(k, "");
    }
}

/// A proxy that answers every request (a CONNECT or a forwarded one) with
/// `status` and Proxy-Authenticate; counts them.
async fn refusing_proxy(status: &'static str) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let asked = Arc::new(AtomicUsize::new(0));
    let seen = asked.clone();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut b = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match s.read(&mut b).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&b[..n]),
                    }
                }
                seen.fetch_add(1, Ordering::SeqCst);
                let answer = format!(
                    "HTTP/1.1 {status}\r\nProxy-Authenticate: Basic realm=\"corp\"\r\n\
                     Content-Length: 0\r\nConnection: close\r\n\r\n"
                );
                let _ = s.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, asked)
}

#[tokio::test]
async fn a_proxy_refusing_exits_5_not_4_and_says_proxy() {
    let sb = sandbox(false).await;
    for (status, base, var) in [
        // A plain-http service: the proxy answers the request itself.
        (
            "407 Proxy Authentication Required",
            sb.base_url(),
            "HTTP_PROXY",
        ),
        ("401 Unauthorized", sb.base_url(), "HTTP_PROXY"),
        // An https service: the proxy refuses the CONNECT.
        (
            "407 Proxy Authentication Required",
            "https://tasks.example".to_string(),
            "HTTPS_PROXY",
        ),
    ] {
        let (proxy, asked) = refusing_proxy(status).await;
        let mut env = Env::new();
        env.set("TASKDECK_BASE_URL", &base);
        env.set("TASKDECK_API_KEY", &sb.keys[0].key);
        no_proxy(&mut env);
        env.set(var, &proxy);
        let out = env.run(&["me"]).await;
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(5), "{status} {base}: {err}");
        assert!(err.contains(&format!("the proxy {proxy} refused")), "{err}");
        assert!(err.contains(&status[..3]), "{err}");
        assert!(!err.contains("authentication failed (401)"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert_eq!(asked.load(Ordering::SeqCst), 1, "not retried: {err}");
    }
    // A key the service itself refuses is still 4.
    let mut env = Env::for_sandbox(&sb, "wrong-key");
    no_proxy(&mut env);
    assert_eq!(env.run(&["me"]).await.status.code(), Some(4));
}

/// A SOCKS5 server (no authentication, CONNECT only) that records the
/// address each connection asked for.
async fn socks5() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = asked.clone();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                let _ = socks5_conn(&mut s, &seen).await;
            });
        }
    });
    (addr.to_string(), asked)
}

async fn socks5_conn(s: &mut TcpStream, seen: &Mutex<Vec<String>>) -> std::io::Result<()> {
    let mut hello = [0u8; 2];
    s.read_exact(&mut hello).await?;
    let mut methods = vec![0u8; hello[1] as usize];
    s.read_exact(&mut methods).await?;
    assert_eq!(hello[0], 5);
    assert!(methods.contains(&0), "no authentication offered");
    s.write_all(&[5, 0]).await?;
    let mut req = [0u8; 4];
    s.read_exact(&mut req).await?;
    assert_eq!(&req[..3], &[5, 1, 0], "CONNECT");
    let host = match req[3] {
        1 => {
            let mut a = [0u8; 4];
            s.read_exact(&mut a).await?;
            std::net::Ipv4Addr::from(a).to_string()
        }
        3 => {
            let mut n = [0u8; 1];
            s.read_exact(&mut n).await?;
            let mut name = vec![0u8; n[0] as usize];
            s.read_exact(&mut name).await?;
            String::from_utf8(name).unwrap()
        }
        _ => {
            s.write_all(&[5, 8, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
            return Ok(());
        }
    };
    let mut port = [0u8; 2];
    s.read_exact(&mut port).await?;
    let port = u16::from_be_bytes(port);
    seen.lock().unwrap().push(format!("{host}:{port}"));
    let Ok(mut out) = TcpStream::connect((host.as_str(), port)).await else {
        s.write_all(&[5, 5, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
        return Ok(());
    };
    s.write_all(&[5, 0, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
    tokio::io::copy_bidirectional(s, &mut out).await?;
    Ok(())
}

#[tokio::test]
async fn a_socks5_proxy_carries_the_requests() {
    let sb = sandbox(false).await;
    let port = sb.addr.port();
    // socks5h: the proxy resolves the name; socks5: taskdeck does.
    for (var, scheme, base, expect) in [
        (
            "ALL_PROXY",
            "socks5h",
            format!("http://localhost:{port}"),
            format!("localhost:{port}"),
        ),
        (
            "HTTP_PROXY",
            "socks5",
            format!("http://127.0.0.1:{port}"),
            format!("127.0.0.1:{port}"),
        ),
    ] {
        let (proxy, asked) = socks5().await;
        let mut env = Env::new();
        env.set("TASKDECK_BASE_URL", &base);
        env.set("TASKDECK_API_KEY", &sb.keys[0].key);
        no_proxy(&mut env);
        env.set(var, &format!("{scheme}://{proxy}"));
        let out = env.run(&["tasks", "--limit", "5", "--json"]).await;
        assert_eq!(out.status.code(), Some(0), "{var}: {}", stderr(&out));
        let asked = asked.lock().unwrap().clone();
        assert!(!asked.is_empty(), "{var}: nothing went through the proxy");
        assert!(asked.iter().all(|a| *a == expect), "{var}: {asked:?}");
    }
}

/// A self-signed leaf (the usual private service: `openssl req -x509 …
/// basicConstraints=critical,CA:FALSE`), RSA or EC, is named as one — for
/// whom, not trusted, and how to trust it (`ca_file`) — not as "damaged"
/// or "refused" with no names; trusted with `ca_file`, it works.
#[tokio::test]
async fn a_self_signed_certificate_is_named_as_one() {
    let sb = sandbox(false).await;
    for (cert, key, org) in [
        ("selfsigned.pem", "selfsigned.key", "Self Signed Test"),
        (
            "selfsigned-ec.pem",
            "selfsigned-ec.key",
            "Self Signed EC Test",
        ),
    ] {
        let front = tls_front_keyed(sb.addr, cert, key).await;
        let e = client_for(&front.url, None).me().await.unwrap_err();
        let m = e.to_string();
        eprintln!("{cert}: {m}");
        assert!(matches!(e, ApiError::Tls { .. }), "{e:?}");
        assert!(m.contains("is self-signed"), "{cert}: {m}");
        assert!(
            m.contains(&format!(r#""localhost" ({org})"#)),
            "{cert}: {m}"
        );
        assert!(
            m.contains("not trusted") && m.contains("ca_file"),
            "{cert}: {m}"
        );
        assert!(!m.contains("damaged") && !m.contains('\n'), "{cert}: {m}");
        // Trusted by name, it is what the service is.
        let c = client_for(&front.url, Some(tls_file(cert)));
        assert_eq!(
            c.me().await.unwrap().user_name.raw(),
            "Alice Martin",
            "{cert}"
        );
    }
}
