//! Secrets that must never leave taskdeck, and the process hardening that
//! keeps them out of core dumps.
//!
//! When the API key is loaded ([`crate::config::Config::api_key`]) it is
//! [`register`]ed here. Every string that leaves the program — the screen
//! (through [`crate::text::sanitize`], which `text::Untrusted` and
//! `text::clean` use), error messages, CLI stdout and stderr, the log file
//! ([`Scrubbing`]) and the clipboard — goes through [`scrub`], which
//! replaces each registered secret with [`REDACTED`]. A service or proxy
//! that repeats the credentials in an error body therefore shows
//! `[redacted]`, not the key.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

/// What a secret is replaced with.
pub const REDACTED: &str = "[redacted]";

/// Shorter "secrets" are not registered: scrubbing a two-letter key would
/// mangle every line while protecting nothing a guess could not find.
pub const MIN_SECRET_CHARS: usize = 6;

/// Env variable that keeps core dumps enabled (`1`), e.g. to debug a crash.
pub const ENV_ALLOW_CORE_DUMPS: &str = "TASKDECK_ALLOW_CORE_DUMPS";

/// Every form of every registered secret, longest first (so that a form
/// containing another is replaced whole).
static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());
/// Fast path: nothing registered, nothing to scan for.
static ANY: AtomicBool = AtomicBool::new(false);

/// Remember `secret` (trimmed) so that [`scrub`] removes it from every
/// string that leaves the program. Also registers the forms the secret
/// takes when a service echoes it back: JSON-escaped and percent-encoded
/// (`Bearer <key>` is covered by the key itself and reads
/// `Bearer [redacted]`).
pub fn register(secret: &str) {
    let s = secret.trim();
    if s.chars().count() < MIN_SECRET_CHARS {
        return;
    }
    let mut forms = vec![s.to_string()];
    if let Ok(json) = serde_json::to_string(s) {
        let inner = &json[1..json.len() - 1];
        forms.push(inner.to_string());
        // Some encoders (PHP's, for one) also escape the slash.
        forms.push(inner.replace('/', "\\/"));
    }
    forms.push(percent_encode(s));
    let mut list = SECRETS.write().unwrap_or_else(|e| e.into_inner());
    for f in forms {
        if !list.contains(&f) {
            list.push(f);
        }
    }
    list.sort_by_key(|f| std::cmp::Reverse(f.len()));
    ANY.store(true, Ordering::Release);
}

/// Percent-encoding of every byte but RFC 3986's unreserved ones: the form
/// a secret takes when echoed inside a URL, and the client's path segments
/// (`api::client::seg`). The one encoder of the crate; it lives here, the
/// lowest module, since `secret` may import nothing.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `s` with every registered secret replaced by [`REDACTED`]. Borrowed (no
/// copy) when there is nothing to replace.
pub fn scrub(s: &str) -> Cow<'_, str> {
    if !ANY.load(Ordering::Acquire) {
        return Cow::Borrowed(s);
    }
    let list = SECRETS.read().unwrap_or_else(|e| e.into_inner());
    if !list.iter().any(|k| s.contains(k.as_str())) {
        return Cow::Borrowed(s);
    }
    let mut out = s.to_string();
    for k in list.iter() {
        if out.contains(k.as_str()) {
            out = out.replace(k.as_str(), REDACTED);
        }
    }
    Cow::Owned(out)
}

/// A writer that scrubs each write before passing it on (the log file).
/// Each `write` is scrubbed whole: a tracing event is written in one call.
pub struct Scrubbing<W>(pub W);

impl<W: Write> Write for Scrubbing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        match scrub(&text) {
            Cow::Borrowed(_) => self.0.write_all(buf)?,
            Cow::Owned(clean) => self.0.write_all(clean.as_bytes())?,
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Whether the user asked to keep core dumps (`TASKDECK_ALLOW_CORE_DUMPS=1`).
pub fn core_dumps_allowed(value: Option<&str>) -> bool {
    matches!(value.map(str::trim), Some("1" | "true" | "yes"))
}

/// Make sure a crash never writes the key to disk in a core dump: the core
/// size limit becomes 0 (soft and hard, inherited by children) and, on
/// Linux, the process is marked not dumpable (which also keeps other
/// processes of the same user from attaching a debugger or reading
/// `/proc/PID/mem`). Only system calls: safe to call anywhere.
pub fn disable_core_dumps() -> io::Result<()> {
    crate::platform::ffi::disable_core_dumps()
}

/// At start: disable core dumps unless the user opted out. Returns what to
/// log once logging is set up.
pub fn protect_process() -> Result<&'static str, io::Error> {
    let allow = std::env::var(ENV_ALLOW_CORE_DUMPS).ok();
    if core_dumps_allowed(allow.as_deref()) {
        return Ok("core dumps left enabled (TASKDECK_ALLOW_CORE_DUMPS)");
    }
    disable_core_dumps().map(|()| "core dumps disabled")
}

#[cfg(test)]
mod tests {
    use super::*;

    // The registry is process-wide: each test uses secrets of its own.

    #[test]
    fn scrub_replaces_every_form_of_a_registered_secret() {
        let key = "sk-test-Zq8/+u=9";
        assert_eq!(scrub(&format!("x {key} y")), format!("x {key} y"));
        register(key);
        assert_eq!(
            scrub(&format!("Authorization: Bearer {key}, again {key}")),
            "Authorization: Bearer [redacted], again [redacted]"
        );
        // As a service would echo it inside JSON or a URL.
        assert_eq!(
            scrub(r#"{"h":"sk-test-Zq8\/+u=9"}"#),
            r#"{"h":"[redacted]"}"#
        );
        assert_eq!(scrub("?k=sk-test-Zq8%2F%2Bu%3D9&"), "?k=[redacted]&");
        // Nothing to replace: no copy.
        assert!(matches!(scrub("nothing here"), Cow::Borrowed(_)));
        assert!(matches!(scrub("sk-test-Zq8"), Cow::Borrowed(_)));
    }

    #[test]
    fn short_values_are_not_secrets() {
        register(" ab ");
        assert_eq!(scrub("a cab stand"), "a cab stand");
    }

    #[test]
    fn the_writer_scrubs_each_write() {
        register("log-secret-123456");
        let mut w = Scrubbing(Vec::new());
        w.write_all(b"event: answer {\"error\":\"bad Bearer log-secret-123456\"}\n")
            .unwrap();
        w.write_all(b"plain\n").unwrap();
        let out = String::from_utf8(w.0).unwrap();
        assert_eq!(
            out,
            "event: answer {\"error\":\"bad Bearer [redacted]\"}\nplain\n"
        );
    }

    #[test]
    fn core_dump_opt_out() {
        assert!(core_dumps_allowed(Some("1")));
        assert!(core_dumps_allowed(Some(" true ")));
        assert!(!core_dumps_allowed(Some("0")));
        assert!(!core_dumps_allowed(Some("")));
        assert!(!core_dumps_allowed(None));
    }
    // The forked check that core dumps are off: `platform::ffi`'s tests.
}
