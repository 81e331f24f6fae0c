//! `theme = "auto"`: is the terminal light or dark? It is asked its
//! background with OSC 11 (`ESC ] 11 ; ? BEL`, wrapped for tmux's
//! passthrough inside tmux) and given [`WAIT`] to answer; without an
//! answer `COLORFGBG` (set by rxvt, Konsole and others) is read; without
//! either the terminal is taken as dark.
//!
//! The answer comes back on the terminal's input, between whatever keys
//! are typed meanwhile. crossterm reads it as keys (Alt-`]`, `1`, `1`,
//! `;`, `r`, `g`, `b`, …, ctrl-g): [`read_answer`] takes such a run of
//! events, when it is an answer, out of the input (the input thread asks
//! it at each Alt-`]`); anything else is given back as the keys it was.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::io;
use std::time::Duration;

/// How long the terminal is given to answer before the first frame.
pub const WAIT: Duration = Duration::from_millis(100);

/// How long the rest of an answer may take once it has begun (it comes in
/// one write of the terminal; over SSH in a packet or two).
pub const GAP: Duration = Duration::from_millis(50);

/// The longest answer read (`11;rgba:ffff/ffff/ffff/ffff` and more).
const MAX: usize = 64;

/// The query: the plain one, and inside tmux the same through tmux's
/// passthrough to the outer terminal too (tmux 3.3 and later answer the
/// plain one themselves; the first answer wins, a later one is dropped).
pub fn query(in_tmux: bool) -> Vec<u8> {
    let mut q = b"\x1b]11;?\x07".to_vec();
    if in_tmux {
        q.extend_from_slice(b"\x1bPtmux;\x1b\x1b]11;?\x07\x1b\\");
    }
    q
}

/// A colour as the terminal gave it, 0–255 a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// WCAG relative luminance, 0 (black) to 1 (white).
    pub fn luminance(self) -> f64 {
        crate::ui::luminance((self.0, self.1, self.2))
    }

    /// Light: black text reads better on it than white (relative
    /// luminance above 0.179, where the two contrast ratios meet).
    pub fn is_light(self) -> bool {
        self.luminance() > 0.179
    }
}

impl std::fmt::Display for Rgb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// The body of an OSC 11 answer (`11;rgb:RRRR/GGGG/BBBB`, 1 to 4 hex
/// digits a channel; `rgba:` too), as a colour.
pub fn parse_answer(body: &str) -> Option<Rgb> {
    let spec = body.strip_prefix("11;")?;
    let channels = spec
        .strip_prefix("rgb:")
        .or_else(|| spec.strip_prefix("rgba:"))?;
    let mut it = channels.split('/').map(|h| {
        if h.is_empty() || h.len() > 4 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(h, 16).ok()?;
        let max = (1u32 << (4 * h.len())) - 1;
        Some(((v * 255 + max / 2) / max) as u8)
    });
    let (r, g, b) = (it.next()??, it.next()??, it.next()??);
    Some(Rgb(r, g, b))
}

/// `COLORFGBG` (`15;0`, `0;default;15`): its last field is the
/// background's colour number; 0–6 and 8 are dark, 7 and 9–15 light.
pub fn from_colorfgbg(v: &str) -> Option<bool> {
    let bg: u8 = v.rsplit(';').next()?.trim().parse().ok()?;
    match bg {
        0..=6 | 8 => Some(false),
        7 | 9..=15 => Some(true),
        _ => None,
    }
}

/// Which theme `auto` takes, and why (for the log and `doctor`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub light: bool,
    pub why: String,
}

impl Choice {
    pub fn theme(&self) -> &'static str {
        if self.light {
            "light"
        } else {
            "dark"
        }
    }
}

/// The terminal's answer first, then `COLORFGBG`, then dark. `asked`:
/// the terminal was asked (`false`: it could not be, not a terminal).
pub fn choose(asked: bool, answer: Option<Rgb>, colorfgbg: Option<&str>) -> Choice {
    if let Some(c) = answer {
        return Choice {
            light: c.is_light(),
            why: format!("the terminal's background is {c} (it answered OSC 11)"),
        };
    }
    let no_answer = if asked {
        format!("no answer to OSC 11 within {} ms", WAIT.as_millis())
    } else {
        "not asked (not a terminal)".to_string()
    };
    match colorfgbg.map(|v| (v, from_colorfgbg(v))) {
        Some((v, Some(light))) => Choice {
            light,
            why: format!(
                "{no_answer}; COLORFGBG={} says {}",
                crate::text::clean(v),
                if light { "light" } else { "dark" }
            ),
        },
        _ => Choice {
            light: false,
            why: format!("{no_answer} and no COLORFGBG"),
        },
    }
}

/// What followed an Alt-`]`: the terminal's answer, or keys.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    Answer(Rgb),
    /// Not an answer: these events, as they came (the Alt-`]` first).
    Keys(Vec<Event>),
}

/// The event starts an OSC answer as crossterm reads one (`ESC ]`:
/// Alt-`]`).
pub fn starts_answer(ev: &Event) -> bool {
    matches!(ev, Event::Key(k) if k.kind != KeyEventKind::Release
        && k.code == KeyCode::Char(']') && k.modifiers.contains(KeyModifiers::ALT))
}

/// After `first` (Alt-`]`, or the `]` after a lone Esc), the events
/// `next` gives (`None`: nothing more within [`GAP`]) up to the answer's
/// end (BEL: ctrl-g; ST: Alt-`\`). An answer to OSC 11 is taken out;
/// anything else is given back whole, in order.
pub fn read_answer(
    first: Vec<Event>,
    mut next: impl FnMut() -> io::Result<Option<Event>>,
) -> io::Result<Read> {
    let mut seen = first;
    let mut body = String::new();
    while body.len() < MAX {
        let Some(ev) = next()? else { break };
        let key = match &ev {
            Event::Key(k) if k.kind != KeyEventKind::Release => Some(*k),
            _ => None,
        };
        seen.push(ev);
        match key {
            Some(KeyEvent {
                code: KeyCode::Char(c),
                modifiers,
                ..
            }) if is_end(c, modifiers) => {
                return Ok(match parse_answer(&body) {
                    Some(rgb) => Read::Answer(rgb),
                    None => Read::Keys(seen),
                });
            }
            Some(KeyEvent {
                code: KeyCode::Char(c),
                modifiers,
                ..
            }) if (modifiers - KeyModifiers::SHIFT).is_empty() && (' '..='~').contains(&c) => {
                body.push(c);
                // Not an OSC 11 answer once its start differs.
                if !"11;rgb".starts_with(&body[..body.len().min(6)]) {
                    break;
                }
            }
            _ => break,
        }
    }
    Ok(Read::Keys(seen))
}

/// BEL (ctrl-g) or ST (Alt-`\`): the end of an OSC string.
fn is_end(c: char, m: KeyModifiers) -> bool {
    (c == 'g' && m == KeyModifiers::CONTROL) || (c == '\\' && m == KeyModifiers::ALT)
}

/// Ask the terminal now, outside the TUI (`taskdeck doctor`): raw mode
/// for the question, given back after. `None`: not asked, standard input
/// or output is not a terminal; `Some(None)`: nothing answered within
/// [`WAIT`]. Keys typed meanwhile are dropped (doctor reads none).
pub fn ask_now(in_tmux: bool) -> Option<Option<Rgb>> {
    use crossterm::event;
    use std::io::{IsTerminal, Write};
    if !io::stdin().is_terminal() || !io::stdout().is_terminal() {
        return None;
    }
    crossterm::terminal::enable_raw_mode().ok()?;
    let found = (|| -> io::Result<Option<Rgb>> {
        let mut out = io::stdout();
        out.write_all(&query(in_tmux))?;
        out.flush()?;
        let until = std::time::Instant::now() + WAIT;
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() || !event::poll(left)? {
                return Ok(None);
            }
            let ev = event::read()?;
            if starts_answer(&ev) {
                let next = || -> io::Result<Option<Event>> {
                    Ok(if event::poll(GAP)? {
                        Some(event::read()?)
                    } else {
                        None
                    })
                };
                if let Read::Answer(rgb) = read_answer(vec![ev], next)? {
                    return Ok(Some(rgb));
                }
            }
        }
    })();
    let _ = crossterm::terminal::disable_raw_mode();
    Some(found.ok().flatten())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: char, m: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(KeyCode::Char(c), m))
    }

    /// The events crossterm makes of `bytes` typed after `ESC ]`.
    fn typed(s: &str) -> Vec<Event> {
        s.chars()
            .map(|c| match c {
                '\x07' => key('g', KeyModifiers::CONTROL),
                '\\' => key('\\', KeyModifiers::ALT),
                c => key(c, KeyModifiers::NONE),
            })
            .collect()
    }

    fn run(after: &str) -> Read {
        let mut rest = typed(after).into_iter();
        read_answer(vec![key(']', KeyModifiers::ALT)], || Ok(rest.next())).unwrap()
    }

    #[test]
    fn answers_are_read_in_every_form() {
        assert_eq!(
            parse_answer("11;rgb:ffff/ffff/ffff"),
            Some(Rgb(255, 255, 255))
        );
        assert_eq!(parse_answer("11;rgb:0000/0000/0000"), Some(Rgb(0, 0, 0)));
        assert_eq!(parse_answer("11;rgb:fd/f6/e3"), Some(Rgb(0xfd, 0xf6, 0xe3)));
        assert_eq!(parse_answer("11;rgb:f/0/8"), Some(Rgb(255, 0, 0x88)));
        assert_eq!(
            parse_answer("11;rgba:2828/2c2c/3434/ffff"),
            Some(Rgb(0x28, 0x2c, 0x34))
        );
        for bad in [
            "10;rgb:ffff/ffff/ffff",
            "11;rgb:ffff/ffff",
            "11;#ffffff",
            "11;rgb:g/0/0",
        ] {
            assert_eq!(parse_answer(bad), None, "{bad}");
        }
        assert!(Rgb(0xfd, 0xf6, 0xe3).is_light(), "solarized light");
        assert!(!Rgb(0x00, 0x2b, 0x36).is_light(), "solarized dark");
        assert!(!Rgb(0x28, 0x2c, 0x34).is_light());
    }

    #[test]
    fn an_answer_is_taken_out_and_keys_are_given_back() {
        assert_eq!(
            run("11;rgb:ffff/ffff/ffff\x07"),
            Read::Answer(Rgb(255, 255, 255))
        );
        assert_eq!(
            run("11;rgb:1e1e/1e1e/1e1e\\"),
            Read::Answer(Rgb(30, 30, 30))
        );
        // Alt-] then keys: all given back, in order, the first that is
        // not an answer's included.
        let Read::Keys(k) = run("jk") else { panic!() };
        assert_eq!(k.len(), 2, "{k:?}");
        assert_eq!(k[1], key('j', KeyModifiers::NONE));
        // Alt-] alone.
        assert_eq!(run(""), Read::Keys(vec![key(']', KeyModifiers::ALT)]));
        // An answer to another question is not taken.
        let Read::Keys(k) = run("10;rgb:0/0/0\x07") else {
            panic!()
        };
        assert_eq!(k.len(), 3);
        // Cut short: given back.
        let Read::Keys(k) = run("11;rgb:ff") else {
            panic!()
        };
        assert_eq!(k.len(), 10);
    }

    #[test]
    fn the_answer_then_colorfgbg_then_dark() {
        let c = choose(true, Some(Rgb(250, 250, 250)), Some("15;0"));
        assert!(c.light && c.why.contains("#fafafa"), "{c:?}");
        let c = choose(true, None, Some("0;15"));
        assert!(c.light && c.why.contains("COLORFGBG=0;15"), "{c:?}");
        assert!(!choose(true, None, Some("15;default;0")).light);
        let c = choose(true, None, Some("junk"));
        assert!(!c.light && c.why.contains("no COLORFGBG"), "{c:?}");
        assert!(
            c.why.starts_with("no answer to OSC 11 within 100 ms"),
            "{c:?}"
        );
        assert_eq!(choose(true, None, None).theme(), "dark");
        let c = choose(false, None, None);
        assert!(c.why.starts_with("not asked (not a terminal)"), "{c:?}");
        assert_eq!(from_colorfgbg("0;7"), Some(true));
        assert_eq!(from_colorfgbg("7;8"), Some(false));
        assert_eq!(from_colorfgbg("7;default"), None);
    }

    #[test]
    fn inside_tmux_the_query_also_goes_through_passthrough() {
        assert_eq!(query(false), b"\x1b]11;?\x07");
        assert_eq!(
            query(true),
            b"\x1b]11;?\x07\x1bPtmux;\x1b\x1b]11;?\x07\x1b\\".to_vec()
        );
    }
}
