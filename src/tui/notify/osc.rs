//! The bytes of a notification (pure): which desktop notification the
//! terminal understands (OSC 9, OSC 777, kitty's OSC 99), the wrapping that
//! gets it through tmux or GNU screen, the title, and the sanitising of
//! what the service wrote before any of it goes inside an escape sequence.

/// A desktop notification through the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Osc {
    /// `ESC ] 9 ; text BEL`: iTerm2, WezTerm, Ghostty, Windows Terminal.
    Nine,
    /// `ESC ] 777 ; notify ; title ; body BEL`: foot, VTE terminals, urxvt.
    SevenSevenSeven,
    /// kitty's `ESC ] 99 ; metadata ; payload`.
    Kitty,
}

impl Osc {
    pub fn number(self) -> u16 {
        match self {
            Osc::Nine => 9,
            Osc::SevenSevenSeven => 777,
            Osc::Kitty => 99,
        }
    }
    pub fn of(n: u16) -> Option<Osc> {
        match n {
            9 => Some(Osc::Nine),
            777 => Some(Osc::SevenSevenSeven),
            99 => Some(Osc::Kitty),
            _ => None,
        }
    }
}

/// What stands between taskdeck and the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mux {
    None,
    /// `$TMUX`: `ESC P tmux; … ESC \` with every ESC doubled (tmux needs
    /// `set -g allow-passthrough on`).
    Tmux,
    /// `$STY`: `ESC P … ESC \`.
    Screen,
}

/// The multiplexer, from the environment.
pub fn mux(env: &dyn Fn(&str) -> Option<String>) -> Mux {
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    if set("TMUX") {
        Mux::Tmux
    } else if set("STY") {
        Mux::Screen
    } else {
        Mux::None
    }
}

/// The notification the terminal understands, from its own variables
/// (`notify_osc` forces one). Inside tmux `TERM_PROGRAM` names tmux, so
/// the variables the outer terminal left (`KITTY_WINDOW_ID`,
/// `VTE_VERSION`, `WT_SESSION`, `LC_TERMINAL`) decide. OSC 9 when nothing
/// says otherwise: the most terminals show it.
pub fn choose(forced: Option<u16>, env: &dyn Fn(&str) -> Option<String>) -> Osc {
    if let Some(o) = forced.and_then(Osc::of) {
        return o;
    }
    let get = |k: &str| env(k).filter(|v| !v.is_empty());
    let term = get("TERM").unwrap_or_default();
    let program = get("TERM_PROGRAM").unwrap_or_default().to_ascii_lowercase();
    if get("KITTY_WINDOW_ID").is_some() || term == "xterm-kitty" || program == "kitty" {
        return Osc::Kitty;
    }
    let nine = ["iterm.app", "wezterm", "ghostty"];
    if nine.contains(&program.as_str())
        || get("WT_SESSION").is_some()
        || get("LC_TERMINAL").is_some_and(|t| t == "iTerm2")
        || term == "xterm-ghostty"
    {
        return Osc::Nine;
    }
    if term.starts_with("foot") || term.starts_with("rxvt") || get("VTE_VERSION").is_some() {
        return Osc::SevenSevenSeven;
    }
    Osc::Nine
}

pub use crate::ui::osc::{payload, title, title_text, FIELD_MAX, POP_TITLE, PUSH_TITLE};

/// The desktop notification's bytes, wrapped for the multiplexer. Every
/// sequence ends with BEL (never `ESC \`, which would end screen's DCS).
pub fn desktop(osc: Osc, mux: Mux, title: &str, body: &str) -> Vec<u8> {
    let seq = match osc {
        Osc::Nine => {
            let text = if title.is_empty() {
                payload(body, &[])
            } else {
                format!("{}: {}", payload(title, &[]), payload(body, &[]))
            };
            format!("\x1b]9;{text}\x07")
        }
        Osc::SevenSevenSeven => format!(
            "\x1b]777;notify;{};{}\x07",
            payload(title, &[';']),
            payload(body, &[';'])
        ),
        Osc::Kitty => format!(
            "\x1b]99;i=taskdeck:d=0;{}\x07\x1b]99;i=taskdeck:p=body;{}\x07",
            payload(title, &[]),
            payload(body, &[])
        ),
    };
    wrap(&seq, mux)
}

/// `seq` through the multiplexer to the terminal.
pub fn wrap(seq: &str, mux: Mux) -> Vec<u8> {
    match mux {
        Mux::None => seq.as_bytes().to_vec(),
        Mux::Tmux => format!("\x1bPtmux;{}\x1b\\", seq.replace('\x1b', "\x1b\x1b")).into_bytes(),
        Mux::Screen => format!("\x1bP{seq}\x1b\\").into_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_terminal_chooses_the_notification() {
        let cases: &[(&[(&str, &str)], Osc)] = &[
            (&[("TERM_PROGRAM", "iTerm.app")], Osc::Nine),
            (&[("TERM_PROGRAM", "WezTerm")], Osc::Nine),
            (&[("TERM_PROGRAM", "ghostty")], Osc::Nine),
            (&[("TERM", "xterm-ghostty")], Osc::Nine),
            (&[("WT_SESSION", "abc")], Osc::Nine),
            (&[("KITTY_WINDOW_ID", "1")], Osc::Kitty),
            (&[("TERM", "xterm-kitty")], Osc::Kitty),
            (&[("TERM", "foot")], Osc::SevenSevenSeven),
            (&[("TERM", "foot-extra")], Osc::SevenSevenSeven),
            (&[("TERM", "rxvt-unicode-256color")], Osc::SevenSevenSeven),
            (&[("VTE_VERSION", "7600")], Osc::SevenSevenSeven),
            (&[("TERM", "xterm-256color")], Osc::Nine),
            (&[], Osc::Nine),
            // Inside tmux: what the outer terminal left.
            (
                &[
                    ("TERM_PROGRAM", "tmux"),
                    ("TERM", "tmux-256color"),
                    ("KITTY_WINDOW_ID", "3"),
                ],
                Osc::Kitty,
            ),
            (
                &[
                    ("TERM_PROGRAM", "tmux"),
                    ("TERM", "screen-256color"),
                    ("VTE_VERSION", "6003"),
                ],
                Osc::SevenSevenSeven,
            ),
            (&[("LC_TERMINAL", "iTerm2"), ("TERM", "screen")], Osc::Nine),
            (&[("KITTY_WINDOW_ID", "")], Osc::Nine),
        ];
        for (vars, want) in cases {
            assert_eq!(choose(None, &env(vars)), *want, "{vars:?}");
        }
        // notify_osc forces it.
        let kitty = [("KITTY_WINDOW_ID", "1")];
        assert_eq!(choose(Some(777), &env(&kitty)), Osc::SevenSevenSeven);
        assert_eq!(choose(Some(9), &env(&kitty)), Osc::Nine);
        assert_eq!(choose(Some(99), &env(&[])), Osc::Kitty);
    }

    #[test]
    fn the_multiplexer_is_read_from_tmux_and_sty() {
        assert_eq!(mux(&env(&[("TMUX", "/tmp/tmux-1/default,1,0")])), Mux::Tmux);
        assert_eq!(mux(&env(&[("STY", "123.pts-0.host")])), Mux::Screen);
        assert_eq!(mux(&env(&[("TMUX", ""), ("STY", "")])), Mux::None);
        assert_eq!(mux(&env(&[("TMUX", "x"), ("STY", "y")])), Mux::Tmux);
    }

    #[test]
    fn each_notification_in_bytes() {
        assert_eq!(
            desktop(Osc::Nine, Mux::None, "taskdeck", "Bob mentioned you on #12"),
            b"\x1b]9;taskdeck: Bob mentioned you on #12\x07"
        );
        assert_eq!(
            desktop(Osc::SevenSevenSeven, Mux::None, "#12 Fix; it", "a;b"),
            b"\x1b]777;notify;#12 Fix, it;a,b\x07"
        );
        assert_eq!(
            desktop(Osc::Kitty, Mux::None, "#12", "Bob"),
            b"\x1b]99;i=taskdeck:d=0;#12\x07\x1b]99;i=taskdeck:p=body;Bob\x07"
        );
    }

    #[test]
    fn tmux_doubles_every_escape_and_screen_wraps_in_a_dcs() {
        let seq = desktop(Osc::Kitty, Mux::None, "t", "b");
        let seq = String::from_utf8(seq).unwrap();
        let tmux = String::from_utf8(desktop(Osc::Kitty, Mux::Tmux, "t", "b")).unwrap();
        assert_eq!(
            tmux,
            "\x1bPtmux;\x1b\x1b]99;i=taskdeck:d=0;t\x07\x1b\x1b]99;i=taskdeck:p=body;b\x07\x1b\\"
        );
        // Unwrapped, it is the sequence again.
        let inner = tmux
            .strip_prefix("\x1bPtmux;")
            .and_then(|s| s.strip_suffix("\x1b\\"))
            .unwrap()
            .replace("\x1b\x1b", "\x1b");
        assert_eq!(inner, seq);
        assert_eq!(
            desktop(Osc::Nine, Mux::Screen, "", "x"),
            b"\x1bP\x1b]9;x\x07\x1b\\"
        );
        // Nothing inside screen's DCS can end it early.
        let s = desktop(Osc::Nine, Mux::Screen, "\x1b\\", "\x1b\\\x07");
        assert_eq!(s.iter().filter(|b| **b == 0x1b).count(), 3, "{s:?}");
    }

    #[test]
    fn service_text_carries_no_control_character_into_a_payload() {
        let hostile = "x\x1b]0;pwned\x07\x1b\\y\u{9c}\u{9b}2J\r\n\u{202e}z";
        for osc in [Osc::Nine, Osc::SevenSevenSeven, Osc::Kitty] {
            for m in [Mux::None, Mux::Tmux, Mux::Screen] {
                let b = desktop(osc, m, hostile, hostile);
                let s = String::from_utf8(b.clone()).unwrap();
                // Only the escapes and BELs of the frame itself.
                let frame = String::from_utf8(desktop(osc, m, "x", "x")).unwrap();
                let controls = |s: &str| {
                    s.chars()
                        .filter(|c| crate::text::is_dangerous(*c))
                        .collect::<String>()
                };
                assert_eq!(controls(&s), controls(&frame), "{osc:?} {m:?}: {s:?}");
                assert!(!s.contains("\x1b]0;"), "{s:?}");
            }
        }
        let t = title(hostile);
        assert_eq!(
            t,
            "\x1b]2;x ]0;pwned  \\y  2J   z\x07".as_bytes(),
            "{:?}",
            String::from_utf8_lossy(&t)
        );
        assert_eq!(payload(&"é".repeat(500), &[]).chars().count(), FIELD_MAX);
    }

    #[test]
    fn the_secret_never_goes_into_a_notification() {
        crate::secret::register("notify-secret-key-123");
        let b = desktop(Osc::Nine, Mux::None, "", "see notify-secret-key-123");
        assert!(!String::from_utf8_lossy(&b).contains("notify-secret"));
    }

    #[test]
    fn the_title_counts_the_inbox() {
        assert_eq!(
            title_text(3, Some(("Alice", "Acme"))),
            "(3) taskdeck — Alice @ Acme"
        );
        assert_eq!(
            title_text(0, Some(("Alice", "Acme"))),
            "taskdeck — Alice @ Acme"
        );
        assert_eq!(title_text(2, None), "(2) taskdeck");
    }
}
