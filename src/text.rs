//! Untrusted text: everything the service sends is shown only through here.
//!
//! Control characters (C0 except newline, DEL, C1 including the 8-bit CSI
//! U+009B) are replaced by visible stand-ins, bidi overrides and isolates are
//! made visible, zero-width spaces and byte-order marks (U+200B, U+FEFF) are
//! dropped, and tabs become spaces. Registered secrets (the API key, see
//! [`crate::secret`]) are replaced with `[redacted]`. The raw text is still
//! there, behind the explicit [`Untrusted::raw`] call, for lossless output
//! such as `--json` (which [`escape_json_controls`] makes inert).

use arcstr::ArcStr;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// A string that came from the service (or any other untrusted source).
///
/// `Display` shows the sanitised text; there is deliberately no `Deref<str>`.
/// Short strings (names, e-mails, tags, roles…) are shared: the same person
/// on ten thousand tasks is stored once. A thin pointer (`ArcStr`: its
/// length lives with the text), 8 bytes where `Arc<str>` takes 16: a task
/// holds some thirty of them, a loaded list a hundred thousand tasks.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Untrusted(ArcStr);

/// Strings up to this length are interned (a description said on many
/// tasks is stored once too).
const INTERN_MAX: usize = 256;

/// The shared strings, and when to next let go of those nothing else holds.
struct Pool {
    set: HashSet<ArcStr>,
    prune_at: usize,
}

/// The pool is pruned when it has doubled since the last pruning: strings
/// only the pool holds (their tasks are gone) are dropped, so it follows
/// what is loaded instead of growing all session; amortised O(1).
const PRUNE_FLOOR: usize = 4096;

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    POOL.get_or_init(|| {
        Mutex::new(Pool {
            set: HashSet::new(),
            prune_at: PRUNE_FLOOR,
        })
    })
    .lock()
    .unwrap_or_else(|e| e.into_inner())
}

fn intern(s: &str) -> ArcStr {
    if s.is_empty() {
        return ArcStr::new();
    }
    if s.len() > INTERN_MAX {
        return ArcStr::from(s);
    }
    let mut pool = pool();
    if let Some(a) = pool.set.get(s) {
        return a.clone();
    }
    if pool.set.len() >= pool.prune_at {
        prune(&mut pool);
    }
    let a = ArcStr::from(s);
    pool.set.insert(a.clone());
    a
}

fn prune(pool: &mut Pool) {
    // Under the lock: a string held by the pool alone cannot be handed out
    // meanwhile.
    pool.set
        .retain(|a| ArcStr::strong_count(a).is_none_or(|n| n > 1));
    pool.set.shrink_to_fit();
    pool.prune_at = (pool.set.len() * 2).max(PRUNE_FLOOR);
}

impl Default for Untrusted {
    fn default() -> Self {
        Untrusted::new("")
    }
}

impl Serialize for Untrusted {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Untrusted {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Untrusted;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Untrusted, E> {
                Ok(Untrusted::new(v))
            }
        }
        d.deserialize_str(V)
    }
}

impl Untrusted {
    pub fn new(s: impl AsRef<str>) -> Self {
        Untrusted(intern(s.as_ref()))
    }
    /// The text exactly as received. Only for lossless output (e.g. `--json`)
    /// and for sending back to the service, never for the terminal.
    pub fn raw(&self) -> &str {
        &self.0
    }
    /// Sanitised for a multi-line area (newlines kept).
    pub fn text(&self) -> Cow<'_, str> {
        sanitize(&self.0, true)
    }
    /// Sanitised for one line (newlines shown as spaces).
    pub fn line(&self) -> Cow<'_, str> {
        sanitize(&self.0, false)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Untrusted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

impl fmt::Debug for Untrusted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.line())
    }
}

impl From<&str> for Untrusted {
    fn from(s: &str) -> Self {
        Untrusted::new(s)
    }
}
impl From<String> for Untrusted {
    fn from(s: String) -> Self {
        Untrusted::new(s)
    }
}

const TAB_WIDTH: usize = 4;

/// True for every character that must never reach the terminal as is.
pub fn is_dangerous(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}' | '\u{80}'..='\u{9f}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// Characters that take no room and are dropped from displayed text: they
/// only serve to make two different strings look the same (and they throw
/// terminals' idea of the width off).
pub fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}' | '\u{feff}')
}

fn stand_in(c: char) -> char {
    match c {
        // C0 controls have a visible "control picture" in U+2400..U+241F.
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        _ => '\u{fffd}',
    }
}

/// Sanitise `s` for display. With `multiline`, `\n` is kept (and `\r\n`
/// folded to `\n`); otherwise line breaks become a single space. Secrets
/// are scrubbed first.
pub fn sanitize(s: &str, multiline: bool) -> Cow<'_, str> {
    match crate::secret::scrub(s) {
        Cow::Borrowed(s) => sanitize_controls(s, multiline),
        Cow::Owned(s) => Cow::Owned(sanitize_controls(&s, multiline).into_owned()),
    }
}

/// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: line breaks that
/// terminals draw as nothing while the width tables count a column (the
/// rest of the row shifts and leaves stale cells), and that break a row in
/// a pipe for the tools that honour them. Shown as the line breaks they are.
fn is_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

fn sanitize_controls(s: &str, multiline: bool) -> Cow<'_, str> {
    if !s
        .chars()
        .any(|c| is_dangerous(c) || is_invisible(c) || is_separator(c))
        || crate::broken::on(crate::broken::Rule::Clean)
    {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut col = 0usize;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' if multiline => {
                out.push('\n');
                col = 0;
                continue;
            }
            c if is_separator(c) && multiline => {
                out.push('\n');
                col = 0;
                continue;
            }
            '\r' if chars.peek() == Some(&'\n') => continue,
            '\n' | '\r' if !multiline => out.push(' '),
            c if is_separator(c) => out.push(' '),
            '\t' => {
                let n = TAB_WIDTH - (col % TAB_WIDTH);
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
                continue;
            }
            c if is_dangerous(c) => out.push(stand_in(c)),
            c if is_invisible(c) => continue,
            c => out.push(c),
        }
        col += 1;
    }
    Cow::Owned(out)
}

/// Sanitise any displayable error or message (service error bodies included).
pub fn clean(s: &str) -> String {
    sanitize(s, false).into_owned()
}

/// A person as words: their name, else their e-mail (a name of spaces
/// alone is none; both may be empty: the caller decides what that
/// means). The one definition: people in the inbox, the outbox, search,
/// mentions, labels.
pub fn name_or_email<'a>(name: &'a str, email: &'a str) -> &'a str {
    if name.trim().is_empty() {
        email
    } else {
        name
    }
}

/// JSON text made inert for a terminal: every control character (C0, DEL,
/// C1), bidi control, zero-width space, byte-order mark and line/paragraph
/// separator inside a string is written as a `\uXXXX` escape. The JSON
/// value is the same (valid JSON has these only inside strings, where the
/// escape means the same character; the whitespace `\n`, `\r`, `\t` between
/// tokens is kept), so the output stays lossless while nothing in it can act
/// on the terminal. Borrowed when there is nothing to escape.
pub fn escape_json_controls(json: &str) -> Cow<'_, str> {
    let needs = |c: char| {
        !matches!(c, '\n' | '\r' | '\t')
            && (is_dangerous(c) || is_invisible(c) || matches!(c, '\u{2028}' | '\u{2029}'))
    };
    if !json.chars().any(needs) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if needs(c) {
            // Every such character is in the BMP: one escape.
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_strings_are_stored_once_and_leave_the_pool_with_their_last_holder() {
        let text = format!("a description said on many tasks {}", "x".repeat(100));
        let a = Untrusted::new(&text);
        let b = Untrusted::new(&text);
        assert!(ArcStr::ptr_eq(&a.0, &b.0), "one copy up to INTERN_MAX");
        let long = "y".repeat(INTERN_MAX + 1);
        assert!(!ArcStr::ptr_eq(
            &Untrusted::new(&long).0,
            &Untrusted::new(&long).0
        ));
        let gone = "a tag whose every task was dropped 7f3a";
        let held = Untrusted::new(gone);
        // Under the lock: no other test's pruning in between.
        let mut p = pool();
        drop(held);
        assert!(p.set.contains(gone));
        prune(&mut p);
        assert!(!p.set.contains(gone), "only the pool held it");
        assert!(p.set.contains(text.as_str()), "still held by a task");
        drop(p);
        assert_eq!(std::mem::size_of::<Untrusted>(), 8);
        drop((a, b));
    }

    #[test]
    fn escapes_become_visible() {
        let t = Untrusted::new("a\u{1b}[2Jb\u{9b}31mc\u{7}");
        let shown = t.line();
        assert!(!shown.chars().any(is_dangerous), "{shown:?}");
        assert_eq!(shown, "a\u{241b}[2Jb\u{fffd}31mc\u{2407}");
        assert_eq!(t.raw(), "a\u{1b}[2Jb\u{9b}31mc\u{7}");
    }

    #[test]
    fn bidi_and_cr_neutralised() {
        let s = sanitize("safe\rEVIL \u{202e}txt.exe\u{2066}", false);
        assert!(!s.chars().any(is_dangerous));
        assert_eq!(s, "safe EVIL \u{fffd}txt.exe\u{fffd}");
        assert_eq!(sanitize("a\rb", true), "a\u{240d}b");
    }

    #[test]
    fn tabs_expand_and_newlines_follow_mode() {
        assert_eq!(sanitize("a\tb", true), "a   b");
        assert_eq!(sanitize("a\nb", true), "a\nb");
        assert_eq!(sanitize("a\r\nb", false), "a b");
        assert_eq!(sanitize("plain", false), Cow::Borrowed("plain"));
    }

    #[test]
    fn line_and_paragraph_separators_are_line_breaks() {
        // Drawn as nothing by terminals yet counted as a column: a title
        // holding one shifted its row and left a stale cell at the end.
        assert_eq!(sanitize("a\u{2028}b\u{2029}c", false), "a b c");
        assert_eq!(sanitize("a\u{2028}b\u{2029}c", true), "a\nb\nc");
        assert_eq!(Untrusted::new("x\u{2028}y").line(), "x y");
    }

    #[test]
    fn zero_width_characters_are_dropped() {
        assert_eq!(sanitize("ad\u{200b}min\u{feff}", false), "admin");
        assert_eq!(Untrusted::new("\u{feff}Title").line(), "Title");
    }

    #[test]
    fn registered_secrets_never_show() {
        crate::secret::register("text-rs-secret-key");
        let t = Untrusted::new("key was Bearer text-rs-secret-key\u{1b}[0m");
        assert_eq!(t.line(), "key was Bearer [redacted]\u{241b}[0m");
        assert_eq!(clean("text-rs-secret-key"), "[redacted]");
        // Cut after the secret is scrubbed: the excerpt never shows it.
        assert_eq!(
            crate::cut::excerpt(&clean("xx text-rs-secret-key yy"), 13),
            "xx [redacted…"
        );
        // Sending back and --json still see the raw text.
        assert!(t.raw().contains("text-rs-secret-key"));
    }

    #[test]
    fn json_controls_are_escaped_losslessly() {
        let v = serde_json::json!({
            "t": "a\u{9b}31m\u{9d}0;x\u{7}b\u{202e}c\u{200b}d\u{feff}\u{7f}\u{1b}[2J\u{2028}",
            "n": "tab\tnew\nline é ✓"
        });
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        let safe = escape_json_controls(&pretty);
        assert!(
            !safe
                .chars()
                .any(|c| c != '\n' && (is_dangerous(c) || is_invisible(c))),
            "{safe:?}"
        );
        assert!(
            safe.contains("a\\u009b31m\\u009d0;x\\u0007b\\u202ec\\u200bd\\ufeff\\u007f"),
            "{safe}"
        );
        assert!(safe.contains("é ✓"), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v, "the same JSON value");
        assert!(matches!(
            escape_json_controls("[1, \"x\"]\n"),
            Cow::Borrowed(_)
        ));
    }
}
