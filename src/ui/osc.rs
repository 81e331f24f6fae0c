//! The bytes taskdeck writes to the terminal outside the frame, pure:
//! the window title (OSC 2) and the clipboard's OSC 52, and what may go
//! into them — the sanitising of the service's text inside an escape
//! sequence, the only texts copied (ids). The loop writes them
//! (`tui/notify/`, `tui/clipboard.rs`); the simulator checks them
//! (`sim/term.rs`), so they live below both. A leaf.

use crate::app::state::State;

/// The most characters of service text put in one field.
pub const FIELD_MAX: usize = 200;

/// Service text made safe inside an escape sequence's payload: no control
/// character (C0, DEL, C1: nothing can end the sequence or start another),
/// no bidi control, no secret; `extra` characters (a field separator)
/// become `,`; at most [`FIELD_MAX`] characters.
pub fn payload(text: &str, extra: &[char]) -> String {
    let text = crate::secret::scrub(text);
    if crate::broken::on(crate::broken::Rule::RawTitle) {
        return text.into_owned();
    }
    let mut out = String::new();
    for c in text.chars().take(FIELD_MAX) {
        if crate::text::is_dangerous(c) || crate::text::is_invisible(c) {
            out.push(' ');
        } else if extra.contains(&c) {
            out.push(',');
        } else {
            out.push(c);
        }
    }
    out
}

/// The window title (OSC 2), the text sanitised. Not wrapped: tmux and
/// screen take the title for their own (`set-titles`).
pub fn title(text: &str) -> Vec<u8> {
    format!("\x1b]2;{}\x07", payload(text, &[])).into_bytes()
}

/// The title as it is, pushed on the terminal's stack (`CSI 22;0 t`) …
pub const PUSH_TITLE: &[u8] = b"\x1b[22;0t";
/// … and popped back (`CSI 23;0 t`).
pub const POP_TITLE: &[u8] = b"\x1b[23;0t";

/// `(3) taskdeck — Alice Martin @ Acme`; no count at 0; `taskdeck` alone
/// before the service has said who the user is.
pub fn title_text(count: usize, who: Option<(&str, &str)>) -> String {
    let mut t = String::new();
    if count > 0 {
        t.push_str(&format!("({count}) "));
    }
    t.push_str("taskdeck");
    if let Some((name, org)) = who {
        t.push_str(&format!(" — {name} @ {org}"));
    }
    t
}

/// The title for the state as it stands (`Notifier::title` writes it
/// when it changed): the inbox's count and who the user is.
pub fn title_of(state: &State) -> String {
    let raw = crate::broken::on(crate::broken::Rule::RawTitle);
    let who = state.me.as_ref().map(|m| {
        if raw {
            return (
                m.user_name.raw().to_string(),
                m.customer_name.raw().to_string(),
            );
        }
        (
            m.user_name.line().into_owned(),
            m.customer_name.line().into_owned(),
        )
    });
    title_text(
        state.inbox.count(),
        who.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
    )
}

/// Bytes that copy `text` to the clipboard with OSC 52. Inside tmux the
/// plain sequence is what tmux itself takes (`set-clipboard on`, the
/// default `external` passes it on); the passthrough-wrapped copy follows for
/// setups with `allow-passthrough on` — tmux drops whichever it does not use.
/// Registered secrets (the API key) are scrubbed first.
pub fn osc52(text: &str, in_tmux: bool, in_screen: bool) -> String {
    use base64::Engine;
    let text = crate::secret::scrub(text);
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let seq = format!("\x1b]52;c;{b64}\x07");
    if in_tmux {
        format!("{seq}\x1bPtmux;{}\x1b\\", seq.replace('\x1b', "\x1b\x1b"))
    } else if in_screen {
        // GNU screen passes a DCS string through to the outer terminal.
        format!("\x1bP{seq}\x1b\\")
    } else {
        seq
    }
}

/// The largest text we put on the clipboard through the terminal.
pub const OSC52_MAX: usize = 74_994;

/// Copy only what an id can be: the text is pasted into shells, where a
/// line break or a `;` in a value from the service would run what follows.
/// A task's id is a uuid; its display id is `#` and digits, or a short word
/// of letters, digits, `#`, `_` and `-` (not starting with `-`, which a
/// command would read as an option). Anything else is refused, with why.
pub fn copyable_id(text: &str) -> Result<(), String> {
    if crate::broken::on(crate::broken::Rule::CopyAnything) {
        return Ok(());
    }
    let is_uuid = text.len() == 36
        && text.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
        && uuid::Uuid::try_parse(text).is_ok();
    if is_uuid {
        return Ok(());
    }
    let short_word = !text.is_empty()
        && text.len() <= 32
        && !text.starts_with('-')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '#' | '_' | '-'));
    if short_word {
        return Ok(());
    }
    let why = if text.is_empty() {
        "the service gave an empty id".to_string()
    } else if text.chars().any(|c| c.is_control()) {
        "the service's id holds control characters (a line break would run the rest as a command if pasted into a shell)".to_string()
    } else if text.len() > 32 {
        format!("the service's id is {} bytes long: not an id", text.len())
    } else {
        "the service's id holds characters an id does not have (only letters, digits, #, _ and -, or a uuid)".to_string()
    };
    Err(format!("{why}: {}", crate::text::clean(text)))
}
