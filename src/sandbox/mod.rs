//! The sandbox service: an in-memory implementation of the Task Collaboration
//! Service API (see `docs/sandbox.md`), used by `taskdeck demo`,
//! `taskdeck sandbox` and the tests.

mod collab;
mod index;
mod layout;
mod list;
mod listing;
mod odd;
mod request;
mod routes;
mod seed;
mod shared;
mod sharing;
mod store;
mod tasks;

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::str::FromStr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

pub use listing::ListingShape;
pub use odd::faults::Faults;
pub use shared::{DemoKey, RecordedRequest, LOG_KEPT};

use shared::{AppState, Shared};

/// Options of a sandbox instance.
#[derive(Debug, Clone)]
pub struct SandboxOptions {
    /// Number of seeded tasks in total (the hand-written fixtures included).
    pub tasks: usize,
    /// Fault injection settings.
    pub faults: Faults,
    /// Add a few malformed / forward-compatibility tasks for the main user,
    /// and list comments and thread messages in the envelope shape
    /// ([`ListingShape::Envelope`]) instead of a bare array.
    pub quirks: bool,
    /// Serve HTTP/1.1 only, like many services over plain http (by
    /// default HTTP/2 with prior knowledge is served too).
    pub http1_only: bool,
    /// This many more people in the first organisation (`Staff 001`…,
    /// key `demo-staff-acme` acts as the first): each is involved in a
    /// small share of what they see (the inbox benchmark).
    pub staff: usize,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        SandboxOptions {
            tasks: 300,
            faults: Faults::default(),
            quirks: false,
            http1_only: false,
            staff: 0,
        }
    }
}

/// Handle on a running sandbox.
#[derive(Clone)]
pub struct Sandbox {
    pub addr: SocketAddr,
    pub keys: Vec<DemoKey>,
    shared: AppState,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("addr", &self.addr)
            .field("keys", &self.keys)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// Seed the data, spawn the axum server on the current tokio runtime
    /// using `listener`, and return at once.
    /// Start on 127.0.0.1 with a port the system picks (demo and tests).
    pub async fn start_local(opts: SandboxOptions) -> std::io::Result<Sandbox> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        Sandbox::start(listener, opts).await
    }

    pub async fn start(
        listener: tokio::net::TcpListener,
        opts: SandboxOptions,
    ) -> std::io::Result<Sandbox> {
        let addr = listener.local_addr()?;
        let (store, demo_keys) = seed::seed(opts.tasks, opts.quirks, opts.staff);
        let keys = demo_keys
            .iter()
            .map(|(k, u)| (k.key.clone(), *u))
            .collect::<HashMap<_, _>>();
        let shared = Arc::new(Shared {
            store: Mutex::new(store),
            log: Mutex::new(VecDeque::new()),
            faults: Mutex::new(opts.faults),
            listing: Mutex::new(if opts.quirks {
                ListingShape::Envelope
            } else {
                ListingShape::Array
            }),
            counter: AtomicU64::new(0),
            keys: Mutex::new(keys.clone()),
            seeded: keys,
            callers: Mutex::new(
                demo_keys
                    .iter()
                    .map(|(k, _)| (k.key.clone(), k.user_email.clone()))
                    .collect(),
            ),
        });
        let app = routes::router(shared.clone());
        if opts.http1_only {
            tokio::spawn(serve_http1(listener, app));
        } else {
            // axum's server tells HTTP/2 (its preface) from HTTP/1.1 by the
            // first bytes of each connection.
            // TCP_NODELAY: an HTTP/2 answer goes out as several frames;
            // with Nagle each waited for the client's delayed ACK (~40 ms a
            // request: a 10,000-task walk took 7 s over HTTP/2 against
            // 2.5 s over HTTP/1.1).
            use axum::serve::ListenerExt;
            let listener = listener.tap_io(|tcp| {
                if let Err(e) = tcp.set_nodelay(true) {
                    tracing::trace!("TCP_NODELAY not set: {e}");
                }
            });
            tokio::spawn(async move {
                if let Err(e) = axum::serve(listener, app).await {
                    tracing::error!("sandbox server stopped: {e}");
                }
            });
        }
        Ok(Sandbox {
            addr,
            keys: demo_keys.into_iter().map(|(k, _)| k).collect(),
            shared,
        })
    }

    /// A client of this sandbox acting with its `i`th demo key, with the
    /// client's default settings (tests and benchmarks).
    pub fn client(&self, i: usize) -> crate::api::Client {
        crate::api::Client::new(crate::api::ClientConfig::new(
            self.base_url(),
            crate::api::ApiKey::new(self.keys[i].key.clone()),
        ))
        .expect("a client of the sandbox")
    }

    /// `http://127.0.0.1:PORT` (or the bound address when it is not a wildcard).
    pub fn base_url(&self) -> String {
        if self.addr.ip().is_unspecified() {
            format!("http://127.0.0.1:{}", self.addr.port())
        } else {
            format!("http://{}", self.addr)
        }
    }

    /// The requests received so far, in order (the last [`LOG_KEPT`]).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.log.lock().unwrap().iter().cloned().collect()
    }

    /// How many requests were received since the start, whatever the
    /// record kept or [`Sandbox::clear_requests`] forgot.
    pub fn requests_received(&self) -> u64 {
        self.shared
            .counter
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Forget the recorded requests.
    pub fn clear_requests(&self) {
        self.shared.log.lock().unwrap().clear();
    }

    /// Make `key` act as the user demo key `as_key` was made for, from
    /// now on (a key reissued to another user, or an administrator's
    /// mistake; `reissue_key(k, k)` gives it back): `GET /me` and every
    /// request with `key` are that user's, and the request record names
    /// that user as the caller. `false` when either key is unknown.
    pub fn reissue_key(&self, key: &str, as_key: &str) -> bool {
        let user = self.shared.seeded.get(as_key).copied();
        let email = self.keys.iter().find(|k| k.key == as_key);
        let (Some(user), Some(email)) = (user, email.map(|k| k.user_email.clone())) else {
            return false;
        };
        let mut keys = self.shared.keys.lock().unwrap();
        let mut callers = self.shared.callers.lock().unwrap();
        if !keys.contains_key(key) {
            return false;
        }
        keys.insert(key.to_string(), user);
        callers.insert(key.to_string(), email);
        true
    }

    /// Replace the fault settings (the request counter keeps running).
    pub fn set_faults(&self, f: Faults) {
        *self.shared.faults.lock().unwrap() = f;
    }

    /// How comment and thread listings are answered from now on (default:
    /// a bare array; the envelope with `quirks`).
    pub fn set_listing_shape(&self, shape: ListingShape) {
        *self.shared.listing.lock().unwrap() = shape;
    }

    pub fn listing_shape(&self) -> ListingShape {
        *self.shared.listing.lock().unwrap()
    }

    /// A task as the API renders it in single-task responses, regardless of
    /// scope. `id` is the uuid or the display id (`#12`).
    pub fn task_json(&self, id: &str) -> Option<serde_json::Value> {
        let store = self.shared.store.lock().unwrap();
        let idx = if let Some(n) = id.strip_prefix('#') {
            let n: u64 = n.parse().ok()?;
            store
                .tasks
                .iter()
                .position(|t| t.number == n && !t.deleted)?
        } else {
            store.task_index(&uuid::Uuid::from_str(id).ok()?)?
        };
        Some(store.render_task(idx, true))
    }
}

/// Serve `app` over HTTP/1.1 only: a connection that opens with the HTTP/2
/// preface is closed unanswered (hyper's HTTP/1.1 server does that).
async fn serve_http1(listener: tokio::net::TcpListener, app: axum::Router) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::error!("sandbox server: accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            if let Err(e) = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await
            {
                tracing::trace!("sandbox connection ended: {e}");
            }
        });
    }
}

/// For `taskdeck sandbox`: print the base URL and the demo keys, then serve
/// until Ctrl-C.
pub async fn run_cli(addr: SocketAddr, opts: SandboxOptions) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let sandbox = Sandbox::start(listener, opts).await?;
    println!("taskdeck sandbox listening on {}", sandbox.base_url());
    println!();
    let w_key = sandbox.keys.iter().map(|k| k.key.len()).max().unwrap_or(3);
    let w_user = sandbox
        .keys
        .iter()
        .map(|k| k.user_name.len() + k.user_email.len() + 3)
        .max()
        .unwrap_or(4);
    let w_org = sandbox
        .keys
        .iter()
        .map(|k| k.org_name.len())
        .max()
        .unwrap_or(3);
    println!(
        "{:<w_key$}  {:<w_user$}  {:<w_org$}  NOTE",
        "API KEY", "USER", "ORGANISATION"
    );
    for k in &sandbox.keys {
        let user = format!("{} <{}>", k.user_name, k.user_email);
        println!(
            "{:<w_key$}  {:<w_user$}  {:<w_org$}  {}",
            k.key, user, k.org_name, k.note
        );
    }
    println!();
    if let Some(k) = sandbox.keys.first() {
        println!(
            "try: TASKDECK_BASE_URL={} TASKDECK_API_KEY={} taskdeck tasks",
            sandbox.base_url(),
            k.key
        );
    }
    println!("Press Ctrl-C to stop.");
    tokio::signal::ctrl_c().await?;
    Ok(())
}
