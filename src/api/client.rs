//! The HTTP client: connection settings, sending with retries, and the
//! mapping of answers to [`ApiError`]. The endpoints, one async function
//! each, are in `endpoints/` by subject.

use super::error::{message_from_body, ApiError};
use super::failure::{self, Route as Via};
use super::protocol::{Attempt, Decision, Mode, Next, Protocol, Route};
use crate::cut::excerpt;
use crate::text::clean;
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, PROXY_AUTHENTICATE, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long the first read of a session waits for an answer over HTTP/2
/// with prior knowledge before it is sent again over HTTP/1.1.
pub const H2C_PROBE_WAIT: Duration = Duration::from_secs(3);

/// The API key. It has no `Display`, its `Debug` is redacted, and it is only
/// ever read to build the (sensitive-marked) Authorization header.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(k: impl Into<String>) -> Self {
        ApiKey(k.into().trim().to_string())
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The secret itself. Call sites: the Authorization header and the
    /// redaction of text we are about to write somewhere.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// Why a base URL with a user name or password is refused (never naming
/// them).
pub const CREDENTIALS_IN_URL: &str = "the base URL carries a user name or password \
     (`https://user:password@host/…`): remove them — the key goes in api_key or \
     api_key_command, and nothing of the URL's credentials is used or kept";

/// `s` without what stands between `://` and an `@` in its authority: an
/// unparsable URL is shown in errors without its credentials.
fn without_userinfo(s: &str) -> String {
    let Some(start) = s.find("://").map(|i| i + 3) else {
        return s.to_string();
    };
    let auth_end = s[start..]
        .find(['/', '?', '#'])
        .map_or(s.len(), |i| start + i);
    match s[start..auth_end].rfind('@') {
        Some(at) => format!("{}…@{}", &s[..start], &s[start + at + 1..]),
        None => s.to_string(),
    }
}

/// Default page size sent on every request of a listing (constant over a
/// walk: a cursor is tied to the page size it was issued with).
pub const LISTING_LIMIT: u32 = 100;

#[derive(Clone, Debug)]
pub struct ClientConfig {
    pub base_url: String,
    pub api_key: ApiKey,
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
    pub total_timeout: Duration,
    pub max_body_bytes: usize,
    /// Retries of a GET after the first attempt.
    pub get_retries: u32,
    pub backoff_base: Duration,
    pub retry_after_cap: Duration,
    /// `limit` sent on every page of a comment or thread listing (a service
    /// that answers with a bare array ignores it).
    pub listing_limit: u32,
    /// `http2` in the config file: `false` speaks HTTP/1.1 only, over http
    /// and https alike (see [`super::protocol`]).
    pub http2: bool,
    /// `http2 = "always"`: over plain http too, HTTP/2 with prior knowledge
    /// (h2c), probed at the first read. Off: plain http is HTTP/1.1, since
    /// nothing negotiates there and a proxy may not know the preface.
    pub h2c: bool,
    /// `ca_file`: PEM certificates (one or several) trusted besides the
    /// system's roots, for a service behind an organisation's own CA.
    pub ca_file: Option<PathBuf>,
}

impl ClientConfig {
    pub fn new(base_url: impl Into<String>, api_key: ApiKey) -> Self {
        ClientConfig {
            base_url: base_url.into(),
            api_key,
            connect_timeout: Duration::from_secs(5),
            read_timeout: Duration::from_secs(20),
            total_timeout: Duration::from_secs(30),
            max_body_bytes: 32 * 1024 * 1024,
            get_retries: 3,
            backoff_base: Duration::from_millis(250),
            retry_after_cap: Duration::from_secs(10),
            listing_limit: LISTING_LIMIT,
            http2: true,
            h2c: false,
            ca_file: None,
        }
    }
}

/// What one attempt came to, as far as trying again goes: a status (and
/// its Retry-After), or no answer.
#[derive(Debug)]
pub enum Tried<'a> {
    Status(u16, Option<Duration>),
    Failed(&'a ApiError),
}

/// Whether [`Client::send`] tries a request again after this attempt (the
/// `attempt`th, from 0), and after how long: a GET only (a write is never
/// sent twice: the service has no idempotency key, so a write whose
/// answer was lost may have been applied), on 429, a 5xx, a lost
/// connection, a timeout or a refusal, at most `get_retries` times; after
/// its Retry-After (capped), else an exponential backoff with jitter.
/// Pure but for the jitter: the simulator runs it (`sim::world`'s
/// delivery).
pub fn again(get: bool, tried: &Tried, attempt: u32, cfg: &ClientConfig) -> Option<Duration> {
    let get = get || crate::broken::on(crate::broken::Rule::RetryWrites);
    let retries = if get { cfg.get_retries } else { 0 };
    let (retryable, retry_after) = match tried {
        Tried::Status(s, ra) => (*s == 429 || (500..600).contains(s), *ra),
        Tried::Failed(
            ApiError::Network { .. } | ApiError::Timeout { .. } | ApiError::Unreachable { .. },
        ) => (true, None),
        Tried::Failed(_) => (false, None),
    };
    if !(retryable && attempt < retries) {
        return None;
    }
    Some(
        retry_after
            .map(|d| d.min(cfg.retry_after_cap))
            .unwrap_or_else(|| backoff(cfg.backoff_base, attempt)),
    )
}

/// What a 404 on a given endpoint means.
#[derive(Clone, Copy)]
pub(super) enum On404 {
    Thing(&'static str),
    Feature(&'static str),
    Endpoint(&'static str),
}

#[derive(Clone)]
pub struct Client {
    /// HTTP/1.1 over http; over https whatever ALPN negotiates.
    http: reqwest::Client,
    /// HTTP/2 with prior knowledge, over plain http with `http2 = "always"`
    /// only.
    h2c: Option<reqwest::Client>,
    /// Shared by the clones: one decision per session.
    decision: Arc<Decision>,
    /// The host and proxy that transport failures name.
    pub(super) via: Arc<Via>,
    pub(super) base: reqwest::Url,
    pub(super) cfg: ClientConfig,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.base.as_str())
            .field("protocol", &self.protocol())
            .finish()
    }
}

impl Client {
    pub fn new(cfg: ClientConfig) -> Result<Client, String> {
        let mut base = reqwest::Url::parse(cfg.base_url.trim()).map_err(|e| {
            format!(
                "base URL {:?} is not a URL: {e}",
                without_userinfo(&cfg.base_url)
            )
        })?;
        if !base.username().is_empty() || base.password().is_some() {
            return Err(CREDENTIALS_IN_URL.to_string());
        }
        if !matches!(base.scheme(), "http" | "https") {
            return Err(format!(
                "base URL must be http or https, not {}",
                base.scheme()
            ));
        }
        if !base.path().ends_with('/') {
            let p = format!("{}/", base.path());
            base.set_path(&p);
        }
        let mut headers = HeaderMap::new();
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", cfg.api_key.expose()))
            .map_err(|_| "the API key contains characters not allowed in a header".to_string())?;
        auth.set_sensitive(true);
        headers.insert(AUTHORIZATION, auth);
        let probe = base.scheme() == "http" && cfg.http2 && cfg.h2c;
        let roots = match &cfg.ca_file {
            Some(path) => super::tls::ca_certificates(path)?,
            None => Vec::new(),
        };
        let build = |b: reqwest::ClientBuilder| {
            b.default_headers(headers.clone())
                .tls_certs_merge(roots.clone())
                .user_agent(concat!("taskdeck/", env!("CARGO_PKG_VERSION")))
                .connect_timeout(cfg.connect_timeout)
                .read_timeout(cfg.read_timeout)
                .timeout(cfg.total_timeout)
                .redirect(same_origin_redirects())
                // An h2 connection dropped silently (NAT, a suspended
                // laptop, SSH) is noticed by its unanswered ping, not by the
                // next request waiting out its timeout.
                .http2_keep_alive_interval(Duration::from_secs(30))
                .http2_keep_alive_timeout(Duration::from_secs(10))
                .http2_keep_alive_while_idle(true)
                .build()
                .map_err(|e| format!("cannot build the HTTP client: {e}"))
        };
        // HTTP/1.1 keep-alive connections are dropped after 90 s idle (before
        // most services drop them, so a reused one is rarely half closed).
        let main = reqwest::Client::builder().pool_idle_timeout(Duration::from_secs(90));
        let main = if cfg.http2 { main } else { main.http1_only() };
        let http = build(main)?;
        // The pinged h2 connection is kept for a pause in reading.
        let h2c = probe
            .then(|| {
                build(
                    reqwest::Client::builder()
                        .http2_prior_knowledge()
                        .pool_idle_timeout(Duration::from_secs(300)),
                )
            })
            .transpose()?;
        let mode = if probe { Mode::Probe } else { Mode::Fixed };
        Ok(Client {
            http,
            h2c,
            decision: Arc::new(Decision::new(mode)),
            via: Arc::new(Via::of(&base)),
            base,
            cfg,
        })
    }

    /// The HTTP version the session speaks, once a request was answered.
    pub fn protocol(&self) -> Protocol {
        self.decision.known()
    }

    pub fn base_url(&self) -> &str {
        self.base.as_str()
    }

    /// The host (and port) of the service, for the header.
    pub fn host(&self) -> String {
        let h = self.base.host_str().unwrap_or("?");
        match self.base.port() {
            Some(p) => format!("{h}:{p}"),
            None => h.to_string(),
        }
    }

    fn url(&self, path: &str) -> reqwest::Url {
        // `path` is built from our own constants and ids that we escape.
        self.base
            .join(path.trim_start_matches('/'))
            .unwrap_or_else(|_| self.base.clone())
    }

    /// Send one request; GETs are retried on 429, 5xx and connection
    /// failures with exponential backoff, jitter and Retry-After. Writes are
    /// never retried.
    async fn send(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<&Value>,
    ) -> Result<(StatusCode, String), ApiError> {
        let mut attempt = 0u32;
        loop {
            let started = std::time::Instant::now();
            let result = self.send_once(method.clone(), path, query, body).await;
            tracing::debug!(
                method = %method, path, attempt,
                status = result.as_ref().map(|r| r.0.as_u16()).unwrap_or(0),
                elapsed_ms = started.elapsed().as_millis() as u64,
                "request"
            );
            let tried = match &result {
                Ok((s, _, ra)) => Tried::Status(s.as_u16(), *ra),
                Err(e) => Tried::Failed(e),
            };
            if let Some(wait) = again(method == Method::GET, &tried, attempt, &self.cfg) {
                tracing::info!(
                    path,
                    attempt,
                    wait_ms = wait.as_millis() as u64,
                    "retrying GET"
                );
                tokio::time::sleep(wait).await;
                attempt += 1;
                continue;
            }
            return result.map(|(s, b, _)| (s, b));
        }
    }

    /// One attempt (see [`super::protocol`] for the route it takes): the
    /// status, the body and a Retry-After.
    async fn send_once(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<&Value>,
    ) -> Result<(StatusCode, String, Option<Duration>), ApiError> {
        let is_get = method == Method::GET;
        let resp = match (self.decision.route(is_get), &self.h2c) {
            (Route::H2c, Some(h2c)) => {
                // While nothing is decided, an h2c attempt with no answer
                // after H2C_PROBE_WAIT counts as refused: a service that
                // neither answers nor closes on the HTTP/2 preface must not
                // hold the first read for its whole timeout.
                let probing = self.decision.known() == Protocol::Undecided;
                let sent = self.start(h2c, method.clone(), path, query, body);
                let first = if probing {
                    tokio::time::timeout(H2C_PROBE_WAIT, sent).await.ok()
                } else {
                    Some(sent.await)
                };
                let attempt = match &first {
                    Some(Ok(_)) => Attempt::Answered,
                    Some(Err(e)) if e.is_connect() => Attempt::ConnectFailed,
                    _ => Attempt::Failed,
                };
                match self.decision.after_h2c(attempt) {
                    // A write is never sent twice (and never goes over a
                    // guess: this is a GET).
                    Next::FallBack if is_get => {
                        let why = match &first {
                            Some(Err(e)) => e.to_string(),
                            _ => format!("no answer in {H2C_PROBE_WAIT:?}"),
                        };
                        tracing::debug!(path, error = %why, "h2c attempt failed; once more over HTTP/1.1");
                        let again = self.start(&self.http, method, path, query, body).await;
                        self.decision.after_fallback(again.is_ok());
                        self.answered(again, path).await
                    }
                    _ => match first {
                        Some(r) => self.answered(r, path).await,
                        None => Err(ApiError::Timeout {
                            what: format!("waiting for /{}", path.trim_start_matches('/')),
                        }),
                    },
                }
            }
            _ => {
                let resp = self.start(&self.http, method, path, query, body).await;
                if let Ok(r) = &resp {
                    self.decision.answered_in(Protocol::of(r.version()));
                }
                self.answered(resp, path).await
            }
        };
        let mut resp = resp?;
        let status = resp.status();
        // 407 is only ever a proxy's; a 401 with Proxy-Authenticate is a
        // proxy asking for itself. Neither is the service refusing the key.
        if status == StatusCode::PROXY_AUTHENTICATION_REQUIRED
            || (status == StatusCode::UNAUTHORIZED
                && resp.headers().contains_key(PROXY_AUTHENTICATE))
        {
            let proxy = self.via.proxy.as_deref().unwrap_or("in between");
            return Err(ApiError::Proxy {
                status: Some(status.as_u16()),
                message: failure::proxy_refused(proxy, status.as_u16(), &self.via.host),
            });
        }
        let retry_after = resp
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let mut buf: Vec<u8> = Vec::new();
        loop {
            match resp.chunk().await {
                Ok(Some(c)) => {
                    if buf.len() + c.len() > self.cfg.max_body_bytes {
                        return Err(ApiError::BodyTooLarge {
                            limit: self.cfg.max_body_bytes,
                        });
                    }
                    buf.extend_from_slice(&c);
                }
                Ok(None) => break,
                Err(e) => {
                    let mut err = self.transport(&e, path).await;
                    if let ApiError::Network { message } = &mut err {
                        *message = format!("connection lost while reading the answer: {message}");
                    }
                    return Err(err);
                }
            }
        }
        let text = String::from_utf8_lossy(&buf).into_owned();
        Ok((status, text, retry_after))
    }

    /// Send the request over `http`; the response head.
    async fn start(
        &self,
        http: &reqwest::Client,
        method: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<&Value>,
    ) -> Result<reqwest::Response, reqwest::Error> {
        let mut req = http.request(method, self.url(path));
        if !query.is_empty() {
            req = req.query(query);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        req.send().await
    }

    pub(super) async fn call(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<&Value>,
        on404: On404,
    ) -> Result<String, ApiError> {
        let (status, text) = self.send(method, path, query, body).await?;
        if status.is_success() {
            return Ok(text);
        }
        let message = message_from_body(&text);
        Err(match status.as_u16() {
            401 => ApiError::Unauthorized { message },
            403 => ApiError::Forbidden { message },
            404 => match on404 {
                On404::Thing(what) => ApiError::NotFound {
                    what: what.to_string(),
                    message,
                },
                On404::Feature(feature) => ApiError::FeatureDisabled { feature },
                On404::Endpoint(endpoint) => ApiError::NotAvailable { endpoint },
            },
            405 | 501 if matches!(on404, On404::Endpoint(_)) => match on404 {
                On404::Endpoint(endpoint) => ApiError::NotAvailable { endpoint },
                _ => unreachable!(),
            },
            300..=399 => ApiError::Status {
                status: status.as_u16(),
                message: "the service redirected to another origin; not followed, so the API key was not sent there".into(),
            },
            s @ (400 | 422) => ApiError::refused(
                s,
                message,
                serde_json::from_str(&text).unwrap_or(Value::String(excerpt(&clean(&text), 2000))),
            ),
            s => ApiError::Status { status: s, message },
        })
    }

    pub(super) async fn json<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<&Value>,
        on404: On404,
    ) -> Result<T, ApiError> {
        let text = self.call(method, path, query, body, on404).await?;
        decode(&text)
    }
}

/// Never carry the key to another origin: stop at a cross-origin redirect.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let same = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if !same {
            attempt.stop()
        } else if attempt.previous().len() > 5 {
            attempt.error("too many redirects")
        } else {
            attempt.follow()
        }
    })
}

/// Percent-escape one path segment (ids come from the service or the user).
pub(super) fn seg(s: &str) -> String {
    crate::secret::percent_encode(s)
}

pub(super) fn decode<T: DeserializeOwned>(text: &str) -> Result<T, ApiError> {
    serde_json::from_str(text).map_err(|e| ApiError::Decode {
        message: e.to_string(),
        excerpt: excerpt(&clean(text), 120),
    })
}

fn parse_retry_after(v: &str) -> Option<Duration> {
    let v = v.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    // An HTTP-date (RFC 9110: `Sun, 06 Nov 1994 08:49:37 GMT`) is an RFC
    // 2822 date-time.
    static PARSER: jiff::fmt::rfc2822::DateTimeParser = jiff::fmt::rfc2822::DateTimeParser::new();
    let when = PARSER.parse_timestamp(v).ok()?;
    let ahead = when.duration_since(jiff::Timestamp::now());
    Some(Duration::try_from(ahead).unwrap_or(Duration::ZERO))
}

/// A number in [0, 1) from the system's random source (0 when it fails:
/// the backoff is then its lower half, never a failure).
fn unit_random() -> f64 {
    getrandom::u64().map_or(0.0, |r| (r >> 11) as f64 / (1u64 << 53) as f64)
}

/// Exponential backoff with full jitter in [base·2ⁿ/2, base·2ⁿ].
fn backoff(base: Duration, attempt: u32) -> Duration {
    let ceiling = base.saturating_mul(1u32 << attempt.min(6));
    let half = ceiling / 2;
    let jitter = unit_random();
    half + half.mul_f64(jitter)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The client's rule for trying again (`again`): a read after a 429
    /// (its Retry-After, capped), a 5xx, a lost connection, a timeout, at
    /// most `get_retries` times; never an undecodable body, never a write
    /// (no idempotency key: it may have been applied).
    #[test]
    fn a_read_is_tried_again_a_write_never() {
        let cfg = ClientConfig::new("http://x.test", ApiKey::new(""));
        let lost = ApiError::Network {
            message: "reset".into(),
        };
        let late = ApiError::Timeout {
            what: "the answer".into(),
        };
        for t in [
            Tried::Status(500, None),
            Tried::Status(503, None),
            Tried::Failed(&lost),
            Tried::Failed(&late),
        ] {
            assert!(again(true, &t, 0, &cfg).is_some(), "{t:?}");
            assert!(again(true, &t, cfg.get_retries, &cfg).is_none(), "{t:?}");
            assert!(again(false, &t, 0, &cfg).is_none(), "a write: {t:?}");
        }
        let busy = Tried::Status(429, Some(Duration::from_secs(60)));
        assert_eq!(again(true, &busy, 0, &cfg), Some(cfg.retry_after_cap));
        assert!(again(false, &busy, 0, &cfg).is_none());
        let garbage = ApiError::Decode {
            message: "x".into(),
            excerpt: String::new(),
        };
        assert!(again(true, &Tried::Failed(&garbage), 0, &cfg).is_none());
        assert!(again(true, &Tried::Status(404, None), 0, &cfg).is_none());
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(parse_retry_after("3"), Some(Duration::from_secs(3)));
        static PRINTER: jiff::fmt::rfc2822::DateTimePrinter =
            jiff::fmt::rfc2822::DateTimePrinter::new();
        let future = PRINTER
            .timestamp_to_rfc9110_string(&(jiff::Timestamp::now() + Duration::from_secs(30)))
            .unwrap();
        assert!(future.ends_with(" GMT"), "{future}");
        // The example of RFC 9110 itself, long past: no wait.
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(Duration::ZERO)
        );
        let d = parse_retry_after(&future).unwrap();
        assert!(
            d > Duration::from_secs(25) && d <= Duration::from_secs(30),
            "{d:?}"
        );
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn backoff_grows_within_bounds() {
        let base = Duration::from_millis(100);
        for n in 0..4 {
            let d = backoff(base, n);
            let ceiling = base * (1 << n);
            assert!(d >= ceiling / 2 && d <= ceiling, "{n}: {d:?}");
        }
    }

    #[test]
    fn path_segments_are_escaped() {
        assert_eq!(seg("abc-123"), "abc-123");
        assert_eq!(seg("../x?y"), "..%2Fx%3Fy");
    }

    #[test]
    fn key_debug_is_redacted() {
        let k = ApiKey::new("sekrit-123");
        assert_eq!(format!("{k:?}"), "ApiKey(<redacted>)");
        let c = Client::new(ClientConfig::new("http://127.0.0.1:9", k)).unwrap();
        assert!(!format!("{c:?}").contains("sekrit"));
    }

    #[test]
    fn a_base_url_with_credentials_is_refused_without_naming_them() {
        for url in [
            "https://bob:hunter2-pass@tasks.example/api",
            "https://bob@tasks.example/",
            "http://:hunter2-pass@127.0.0.1:9",
        ] {
            let e = Client::new(ClientConfig::new(url, ApiKey::new("key-123456"))).unwrap_err();
            assert_eq!(e, CREDENTIALS_IN_URL, "{url}");
            assert!(!e.contains("hunter2") && !e.contains("bob"), "{e}");
        }
        // Not a URL: shown, but not its credentials.
        let e = Client::new(ClientConfig::new(
            "https://bob:hunter2-pass@[bad/x",
            ApiKey::new("key-123456"),
        ))
        .unwrap_err();
        assert!(!e.contains("hunter2") && !e.contains("bob"), "{e}");
        assert!(e.contains("https://…@[bad/x"), "{e}");
    }
}
