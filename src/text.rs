//! Untrusted text: everything the service sends is shown only through here.
//!
//! Control characters (C0 except newline, DEL, C1 including the 8-bit CSI
//! U+009B) are replaced by visible stand-ins, bidi overrides and isolates are
//! made visible, and tabs become spaces. The raw text is still there, behind
//! the explicit [`Untrusted::raw`] call, for lossless output such as `--json`.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// A string that came from the service (or any other untrusted source).
///
/// `Display` shows the sanitised text; there is deliberately no `Deref<str>`.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Untrusted(String);

impl Untrusted {
    pub fn new(s: impl Into<String>) -> Self {
        Untrusted(s.into())
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
        Untrusted(s.to_string())
    }
}
impl From<String> for Untrusted {
    fn from(s: String) -> Self {
        Untrusted(s)
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

fn stand_in(c: char) -> char {
    match c {
        // C0 controls have a visible "control picture" in U+2400..U+241F.
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        _ => '\u{fffd}',
    }
}

/// Sanitise `s` for display. With `multiline`, `\n` is kept (and `\r\n`
/// folded to `\n`); otherwise line breaks become a single space.
pub fn sanitize(s: &str, multiline: bool) -> Cow<'_, str> {
    if !s.chars().any(is_dangerous) {
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
            '\r' if chars.peek() == Some(&'\n') => continue,
            '\n' | '\r' if !multiline => out.push(' '),
            '\t' => {
                let n = TAB_WIDTH - (col % TAB_WIDTH);
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
                continue;
            }
            c if is_dangerous(c) => out.push(stand_in(c)),
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

/// A short, sanitised excerpt of a body, for error messages.
pub fn excerpt(s: &str, max_chars: usize) -> String {
    let cleaned = clean(s.trim());
    if cleaned.chars().count() <= max_chars {
        cleaned
    } else {
        let mut e: String = cleaned.chars().take(max_chars).collect();
        e.push('…');
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
