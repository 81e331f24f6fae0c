//! A transport failure in plain words: one line naming the host (or the
//! proxy) and the cause, with what to do. Read from the error's source
//! chain (the TLS library's, the connector's and the OS's errors), so no
//! raw library message reaches the user; the raw chain goes to the log.
//!
//! A certificate refused or a proxy refusing is a setting to fix
//! ([`ApiError::Tls`], [`ApiError::Proxy`]), not the network being down:
//! never retried, never "offline".

use super::error::ApiError;
use super::tls::Names;
use rustls::CertificateError;
use std::error::Error as StdError;
use std::io;

/// Where a request goes: the service's host, and the proxy in between if
/// the environment names one for it (shown without its credentials).
#[derive(Clone, Debug)]
pub(super) struct Route {
    pub host: String,
    pub proxy: Option<String>,
}

impl Route {
    pub(super) fn of(base: &reqwest::Url) -> Route {
        let host = match (base.host_str(), base.port()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            (None, _) => "?".to_string(),
        };
        // The same reading of ALL_PROXY/HTTPS_PROXY/HTTP_PROXY/NO_PROXY as
        // reqwest's own.
        let proxy = base
            .as_str()
            .parse::<hyper::Uri>()
            .ok()
            .and_then(|u| hyper_util::client::proxy::matcher::Matcher::from_system().intercept(&u))
            .map(|i| {
                let u = i.uri();
                let scheme = u.scheme_str().unwrap_or("http");
                let host = u.host().unwrap_or("?");
                match u.port_u16() {
                    Some(p) => format!("{scheme}://{host}:{p}"),
                    None => format!("{scheme}://{host}"),
                }
            });
        Route { host, proxy }
    }

    fn via(&self) -> String {
        match &self.proxy {
            Some(p) => format!(" (through the proxy {p})"),
            None => String::new(),
        }
    }
}

/// The whole source chain as one line, for the log only.
pub(super) fn chain(e: &(dyn StdError + 'static)) -> String {
    let mut msg = e.to_string();
    let mut src = e.source();
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    msg
}

/// Every error of the chain, an `io::Error`'s wrapped error included
/// (`io::Error::source` skips it, and tokio-rustls wraps the TLS error so).
fn errors<'a>(e: &'a (dyn StdError + 'static)) -> Vec<&'a (dyn StdError + 'static)> {
    let mut out = Vec::new();
    let mut next = Some(e);
    while let Some(s) = next {
        out.push(s);
        next = match s.downcast_ref::<io::Error>().and_then(|io| io.get_ref()) {
            Some(inner) => Some(inner as &(dyn StdError + 'static)),
            None => s.source(),
        };
    }
    out
}

/// A refusal about whom to trust (an unknown issuer; a bad signature or
/// encoding, as some verifiers call a self-signed leaf that is no CA; a
/// reason without a name) — not the certificate's dates, name or
/// revocation. One list for both uses: reading who the certificate is for
/// and who issued it, and naming a self-signed one.
fn about_trust(c: &CertificateError) -> bool {
    !matches!(
        c,
        CertificateError::Expired
            | CertificateError::ExpiredContext { .. }
            | CertificateError::NotValidYet
            | CertificateError::NotValidYetContext { .. }
            | CertificateError::NotValidForName
            | CertificateError::NotValidForNameContext { .. }
            | CertificateError::Revoked
    )
}

/// Whether TLS refused the certificate for whom to trust ([`about_trust`]):
/// then who it is for and who issued it are worth reading
/// ([`super::tls`]) to name them.
pub(super) fn unknown_issuer(e: &reqwest::Error) -> bool {
    errors(e).iter().any(|s| {
        matches!(
            s.downcast_ref::<rustls::Error>(),
            Some(rustls::Error::InvalidCertificate(c)) if about_trust(c)
        )
    })
}

/// What a failed attempt to reach the service was, if it is one we can
/// name; `None` for anything else (the caller keeps its own reading).
/// `names`: the subject and issuer of the certificate, when read.
pub(super) fn classify(
    e: &reqwest::Error,
    route: &Route,
    names: Option<&Names>,
) -> Option<ApiError> {
    let all = errors(e);
    let host = &route.host;
    for s in &all {
        if let Some(t) = s.downcast_ref::<rustls::Error>() {
            return Some(ApiError::Tls {
                message: tls(t, host, names),
            });
        }
    }
    let text: Vec<String> = all.iter().map(|s| s.to_string()).collect();
    let has = |needle: &str| text.iter().any(|t| t.contains(needle));
    let proxy = route.proxy.as_deref().unwrap_or("in HTTPS_PROXY/ALL_PROXY");
    // hyper-util's tunnel and SOCKS errors are not exported types: their
    // fixed messages are what there is to read.
    if has("tunnel error: proxy authorization required") {
        return Some(ApiError::Proxy {
            status: Some(407),
            message: proxy_refused(proxy, 407, host),
        });
    }
    if has("tunnel error") {
        return Some(ApiError::Proxy {
            status: None,
            message: format!(
                "the proxy {proxy} refused to open a connection to {host} — check that the \
                 proxy allows it (and base_url's host and port), or set NO_PROXY={}",
                host.split(':').next().unwrap_or(host)
            ),
        });
    }
    if has("SOCKS error") {
        let cause = if has("failed to create underlying connection") {
            "cannot be reached"
        } else {
            "refused or failed"
        };
        let why = text
            .iter()
            .find_map(|t| t.strip_prefix("SOCKS error: "))
            .unwrap_or("");
        return Some(ApiError::Proxy {
            status: None,
            message: format!(
                "the SOCKS proxy {proxy} {cause} on the way to {host} ({}) — check the proxy in \
                 ALL_PROXY/HTTPS_PROXY (socks5:// or socks5h://)",
                crate::text::clean(why)
            ),
        });
    }
    if !e.is_connect() {
        return None;
    }
    let to = match &route.proxy {
        Some(p) => format!("the proxy {p}"),
        None => host.clone(),
    };
    let cause = if has("dns error") || has("failed to lookup address") {
        match &route.proxy {
            Some(_) => format!("{to}: its name was not found — check the proxy setting or your network"),
            None => format!(
                "{host}: the name was not found — check base_url's host name, or your network (DNS, VPN)"
            ),
        }
    } else if let Some(kind) = all
        .iter()
        .find_map(|s| s.downcast_ref::<io::Error>().map(io::Error::kind))
    {
        match kind {
            io::ErrorKind::ConnectionRefused if route.proxy.is_some() => format!(
                "{to} refused the connection — is the proxy running? (check HTTPS_PROXY/HTTP_PROXY/ALL_PROXY)"
            ),
            io::ErrorKind::ConnectionRefused => format!(
                "{to} refused the connection — is the service running there? (check base_url's port)"
            ),
            io::ErrorKind::TimedOut => format!(
                "{to}: no answer (timed out connecting) — check the network, a firewall or the proxy"
            ),
            io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted => {
                format!("{to} dropped the connection as it opened — check the network or the proxy")
            }
            io::ErrorKind::HostUnreachable | io::ErrorKind::NetworkUnreachable => {
                format!("{to}: no route to it — check the network (VPN?)")
            }
            _ => format!("{to}: the connection failed ({kind})"),
        }
    } else if e.is_timeout() || has("timed out") {
        format!(
            "{to}: no answer (timed out connecting) — check the network, a firewall or the proxy"
        )
    } else {
        format!("{to}: the connection failed{}", route.via())
    };
    Some(ApiError::Unreachable { message: cause })
}

/// A connection that failed after it was made (dropped, reset, an HTTP/2
/// error), in words: the host and the cause, never the URL or a library's
/// type names.
pub(super) fn lost(e: &reqwest::Error, route: &Route) -> String {
    let all = errors(e);
    let to = &route.host;
    let via = route.via();
    let kind = all
        .iter()
        .find_map(|s| s.downcast_ref::<io::Error>().map(io::Error::kind));
    let text: Vec<String> = all.iter().map(|s| s.to_string()).collect();
    let has = |needle: &str| text.iter().any(|t| t.contains(needle));
    match kind {
        Some(io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted) => {
            format!("the connection to {to}{via} was reset")
        }
        _ if matches!(
            kind,
            Some(io::ErrorKind::BrokenPipe | io::ErrorKind::UnexpectedEof)
        ) || has("connection closed")
            || has("before message completed") =>
        {
            format!("the connection to {to}{via} was closed before the answer came")
        }
        _ => {
            // The innermost cause is the most specific (an HTTP/2 reset's
            // reason, a body's decoding); the outer ones repeat the URL.
            let cause = text.last().map(String::as_str).unwrap_or("failed");
            format!(
                "the connection to {to}{via} failed: {}",
                crate::text::clean(cause)
            )
        }
    }
}

/// The proxy's refusal of our request, by its status.
pub(super) fn proxy_refused(proxy: &str, status: u16, host: &str) -> String {
    let what = match status {
        407 => "407 proxy authentication required",
        401 => "401 authentication required (by the proxy itself)",
        _ => "refused",
    };
    format!(
        "the proxy {proxy} refused the request to {host}: {what} — give the proxy's user and \
         password in the proxy variable (e.g. HTTPS_PROXY=http://user:password@proxy:port), or set \
         NO_PROXY if {host} should not go through it"
    )
}

/// A TLS failure, by what the library says of the certificate.
fn tls(e: &rustls::Error, host: &str, names: Option<&Names>) -> String {
    let cert = |why: &str, todo: &str| format!("{host}: the service's certificate {why} — {todo}");
    // Self-signed: whatever the verifier called it (unknown issuer, a bad
    // signature for a leaf that is no CA, a refusal without a name).
    if let (rustls::Error::InvalidCertificate(c), Some(n)) = (e, names) {
        if n.self_signed && about_trust(c) {
            return cert(
                &format!(
                    "is self-signed and not trusted: it is for {}, and vouches for itself",
                    n.subject
                ),
                &format!(
                    "if it is your service's own, trust it: save it as PEM (openssl s_client \
                     -connect {host} -showcerts </dev/null | openssl x509 > service.pem) and set \
                     ca_file to that file"
                ),
            );
        }
    }
    match e {
        rustls::Error::InvalidCertificate(c) => match c {
            CertificateError::UnknownIssuer => cert(
                &match names {
                    Some(n) => format!(
                        "is not trusted: it is for {}, issued by {}, an authority this system \
                         does not know",
                        n.subject, n.issuer
                    ),
                    None => "is not trusted (issued by an authority this system does not know)"
                        .into(),
                },
                "if your organisation has its own CA, set ca_file to its certificate (PEM)",
            ),
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                let when = match c {
                    CertificateError::ExpiredContext { not_after, .. } => {
                        format!(" (on {})", date(not_after.as_secs()))
                    }
                    _ => String::new(),
                };
                cert(
                    &format!("has expired{when}"),
                    "the service's administrators must renew it (or this computer's clock is wrong)",
                )
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => cert(
                "is not valid yet",
                "check this computer's clock and time zone",
            ),
            CertificateError::NotValidForName
            | CertificateError::NotValidForNameContext { .. } => {
                let names = match c {
                    CertificateError::NotValidForNameContext { presented, .. }
                        if !presented.is_empty() =>
                    {
                        let shown: Vec<String> = presented
                            .iter()
                            .take(3)
                            .map(|n| crate::text::clean(bare_name(n)))
                            .collect();
                        format!(" ({})", shown.join(", "))
                    }
                    _ => String::new(),
                };
                cert(
                    &format!("is for another name{names}"),
                    "check base_url's host name (the name the certificate was made for)",
                )
            }
            CertificateError::Revoked => cert("has been revoked", "tell the service's administrators"),
            CertificateError::BadSignature | CertificateError::BadEncoding => cert(
                "is damaged (bad signature or encoding)",
                "tell the service's administrators",
            ),
            _ => cert(
                "was refused",
                "if your organisation has its own CA, set ca_file to its certificate (PEM)",
            ),
        },
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => format!(
            "{host}: the service does not answer in TLS — is it plain http? (check base_url's scheme and port)"
        ),
        rustls::Error::AlertReceived(a) => format!(
            "{host}: the service refused the TLS connection ({}) — a proxy or firewall may be in the way, or the service wants a client certificate",
            crate::text::clean(&format!("{a:?}"))
        ),
        _ => format!(
            "{host}: the secure (TLS) connection failed — check base_url, and any proxy or firewall in between"
        ),
    }
}

/// `other.example` from the `DnsName("other.example")` rustls presents.
fn bare_name(n: &str) -> &str {
    match (n.find("(\""), n.rfind("\")")) {
        (Some(a), Some(b)) if a + 2 <= b => &n[a + 2..b],
        _ => n,
    }
}

/// A day from Unix seconds, for an expiry date.
fn date(secs: u64) -> String {
    // Counted in days on the calendar: a certificate "without expiry"
    // ends 9999-12-31T23:59:59Z, past jiff's last instant.
    let days = i64::try_from(secs / 86_400).ok();
    days.and_then(|d| jiff::Span::new().try_days(d).ok())
        .and_then(|d| jiff::civil::date(1970, 1, 1).checked_add(d).ok())
        .map(crate::api::ymd)
        .unwrap_or_else(|| "an unknown date".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_signed_certificate_is_named_so_whatever_the_verifier_called_it() {
        use super::super::tls::Names;
        let me = Names {
            subject: r#""tasks.internal" (Acme)"#.into(),
            issuer: r#""tasks.internal" (Acme)"#.into(),
            self_signed: true,
        };
        for c in [
            CertificateError::UnknownIssuer,
            CertificateError::BadSignature,
            CertificateError::BadEncoding,
            CertificateError::InvalidPurpose,
        ] {
            let m = tls(
                &rustls::Error::InvalidCertificate(c.clone()),
                "h:443",
                Some(&me),
            );
            assert!(m.contains("is self-signed and not trusted"), "{c:?}: {m}");
            assert!(m.contains(r#"for "tasks.internal" (Acme)"#), "{c:?}: {m}");
            assert!(
                m.contains("ca_file") && !m.contains("damaged"),
                "{c:?}: {m}"
            );
        }
        // Expired is expired, self-signed or not.
        let m = tls(
            &rustls::Error::InvalidCertificate(CertificateError::Expired),
            "h",
            Some(&me),
        );
        assert!(m.contains("has expired"), "{m}");
    }

    #[test]
    fn a_tls_error_wrapped_in_io_is_found_and_named_in_plain_words() {
        let wrapped = io::Error::new(
            io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer),
        );
        let found = errors(&wrapped)
            .into_iter()
            .find_map(|s| s.downcast_ref::<rustls::Error>().cloned());
        let t = found.expect("the TLS error is reached through io::Error");
        let m = tls(&t, "tasks.example", None);
        assert!(m.starts_with("tasks.example: "), "{m}");
        assert!(
            m.contains("certificate is not trusted") && m.contains("ca_file"),
            "{m}"
        );
        let m = tls(
            &rustls::Error::InvalidCertificate(CertificateError::Expired),
            "h",
            None,
        );
        assert!(m.contains("has expired"), "{m}");
        assert_eq!(bare_name("DnsName(\"other.example\")"), "other.example");
        assert_eq!(bare_name("10.0.0.1"), "10.0.0.1");
        for m in [m, proxy_refused("http://p:3128", 407, "h")] {
            assert!(!m.contains('\n'), "{m}");
        }
    }
}
