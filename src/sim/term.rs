//! What the client writes to the terminal outside the frame: the window
//! title (OSC 2) the loop writes between frames (`Notifier::title`), and
//! what a copy puts on the clipboard (`tui/clipboard.rs`: an id refused
//! with a word, or offered through OSC 52). Both are built by the
//! product's own code (`ui::osc`), captured here and checked: no control
//! character that came from the service reaches them.

use super::check::{no_controls, Broke};
use crate::app::state::{Level, State};
use crate::ui::osc;

/// The title the loop would write now, as its bytes, and what is wrong
/// with them: the text between `ESC ] 2 ;` and `BEL` holds no control
/// character (nothing can end the sequence early or start another).
pub fn title(state: &State) -> (Vec<u8>, Option<Broke>) {
    let bytes = osc::title(&osc::title_of(state));
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let inner = text
        .strip_prefix("\u{1b}]2;")
        .and_then(|t| t.strip_suffix('\u{7}'));
    let found = match inner {
        Some(inner) => no_controls("the title", inner),
        None => Some(("control character", format!("the title's bytes {text:?}"))),
    };
    (bytes, found)
}

/// `Effect::Copy` as the loop carries it out where neither a copying
/// command nor a system clipboard nor tmux is there (over SSH): an id is
/// offered to the terminal's clipboard with OSC 52 and said; anything
/// else is refused with why. Returns the clipboard's new text, if any,
/// and what is wrong with it: it holds no control character (it is
/// pasted into shells) and nothing invisible.
pub fn copy(state: &mut State, text: &str) -> (Option<String>, Option<Broke>) {
    if let Err(why) = osc::copyable_id(text) {
        state.say(Level::Error, format!("not copied: {why}"));
        return (None, None);
    }
    let seq = osc::osc52(text, false, false);
    if text.len() > osc::OSC52_MAX {
        state.say(Level::Error, "too large to copy through the terminal");
        return (None, None);
    }
    let shown = crate::text::clean(text);
    state.say(
        Level::Success,
        format!(
            "offered {shown} to the terminal's clipboard (OSC 52) — if it does \
             not arrive, set copy_command in the config"
        ),
    );
    let clip = clipboard_of(&seq);
    let found = match &clip {
        Some(c) => no_controls("the clipboard", c).or_else(|| {
            c.chars().find(|c| c.is_control()).map(|ch| {
                (
                    "control character",
                    format!("{ch:?} in the clipboard: {c:?}"),
                )
            })
        }),
        None => Some(("control character", format!("the OSC 52 bytes {seq:?}"))),
    };
    (clip, found)
}

/// The text an OSC 52 sequence puts on the clipboard (`None`: not one
/// sequence of base64 ending with BEL).
fn clipboard_of(seq: &str) -> Option<String> {
    use base64::Engine;
    let b64 = seq.strip_prefix("\u{1b}]52;c;")?.strip_suffix('\u{7}')?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(b64).ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        crate::app::new_state("sim.test".into(), &Default::default(), false)
    }

    #[test]
    fn an_id_is_offered_and_read_back_from_its_osc52_bytes() {
        let mut s = state();
        let (clip, found) = copy(&mut s, "#12");
        assert_eq!(clip.as_deref(), Some("#12"));
        assert!(found.is_none(), "{found:?}");
        let (clip, found) = copy(&mut s, "#1\u{1b}]0;x\u{7}\n rm");
        assert!(clip.is_none() && found.is_none(), "refused, said");
        let said = s.messages.back().unwrap().text.clone();
        assert!(said.starts_with("not copied"), "{said}");
    }

    #[test]
    fn the_title_before_anyone_is_known_is_taskdecks() {
        let (bytes, found) = title(&state());
        assert_eq!(bytes, b"\x1b]2;taskdeck\x07");
        assert!(found.is_none());
    }
}
