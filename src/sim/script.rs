//! A run written down (issue 43): a seed, its faults and a list of steps
//! in a text a person can read and edit — what a failure shrinks to, kept
//! in `tests/simulate/*.steps` so that CI runs each bug the simulator
//! found in its few steps rather than in the thousands its seed took to
//! reach it. `simulate --script FILE` runs one.
//!
//! ```text
//! # lines after a # are notes
//! seed 4578940496896613642
//! faults all
//! key down
//! key /
//! palette "status completed"
//! paste "line one\nline two \u{1b}[2J"
//! resize 80 24
//! mouse down-left 10 5
//! deliver 1234
//! tick 1000
//! other 99
//! outage on
//! crash 7
//! restart
//! clock-back 3600
//! reissue
//! disk 42
//! hang-up
//! key-live
//! ```
//!
//! Keys are written as the keymap writes them (`ctrl-u`, `enter`, `G`);
//! text between quotes with `\\`, `\"`, `\n`, `\r`, `\t` and `\u{…}` for
//! every control, bidi or invisible character, so that a file never holds
//! one raw.

use super::faults::Faults;
use super::step::Step;
use crate::domain::keymap::Key;
use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

/// A seed, the faults it runs with (as `--faults` takes them) and its
/// steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    pub seed: u64,
    pub faults: String,
    pub steps: Vec<Step>,
}

impl Script {
    /// The faults, read.
    pub fn faults(&self) -> Faults {
        Faults::parse(&self.faults).expect("checked when read")
    }

    /// The script as text, every step on a line of its own; `None` when
    /// a step cannot be written (a key the keymap has no name for).
    pub fn write(&self) -> Option<String> {
        let mut out = format!("seed {}\nfaults {}\n", self.seed, self.faults);
        for s in &self.steps {
            out.push_str(&write_step(s)?);
            out.push('\n');
        }
        Some(out)
    }

    /// Read a script; the error names the line.
    pub fn parse(text: &str) -> Result<Script, String> {
        let (mut seed, mut faults, mut steps) = (None, None, Vec::new());
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("line {}: {e}: {line:?}", i + 1);
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            match word {
                "seed" => seed = Some(rest.parse::<u64>().map_err(|e| at(e.to_string()))?),
                "faults" => {
                    Faults::parse(rest).map_err(at)?;
                    faults = Some(rest.to_string());
                }
                _ => steps.push(read_step(word, rest).map_err(at)?),
            }
        }
        Ok(Script {
            seed: seed.ok_or("no `seed` line")?,
            faults: faults.unwrap_or_else(|| "all".into()),
            steps,
        })
    }
}

/// One step as a line.
pub fn write_step(s: &Step) -> Option<String> {
    Some(match s {
        Step::Key(ev) => {
            let key = Key::from_event(ev)?;
            // Only what the keymap's name says: a key that carries more
            // (shift on a named key, a release) has no line.
            (key.event().as_ref() == Some(ev)).then_some(())?;
            format!("key {}", key.label())
        }
        Step::Palette(t) => format!("palette {}", quote(t)),
        Step::Paste(t) => format!("paste {}", quote(t)),
        Step::Resize(w, h) => format!("resize {w} {h}"),
        Step::Mouse(m) => {
            let mut line = format!("mouse {} {} {}", mouse_kind(m.kind)?, m.column, m.row);
            for (flag, name) in MODIFIERS {
                if m.modifiers.contains(*flag) {
                    line.push(' ');
                    line.push_str(name);
                }
            }
            line
        }
        Step::Deliver(n) => format!("deliver {n}"),
        Step::Tick(ms) => format!("tick {ms}"),
        Step::Other(n) => format!("other {n}"),
        Step::Outage(on) => format!("outage {}", if *on { "on" } else { "off" }),
        Step::Crash(n) => format!("crash {n}"),
        Step::Restart => "restart".into(),
        Step::ServiceClockBack(s) => format!("clock-back {s}"),
        Step::Reissue => "reissue".into(),
        Step::Disk(n) => format!("disk {n}"),
        Step::HangUp => "hang-up".into(),
        Step::KeyReissuedLive => "key-live".into(),
    })
}

fn read_step(word: &str, rest: &str) -> Result<Step, String> {
    let number = |s: &str| s.parse::<u64>().map_err(|e| format!("{e}"));
    Ok(match word {
        "key" => Step::Key(
            Key::parse(rest)?
                .event()
                .ok_or_else(|| format!("no terminal key for {rest:?}"))?,
        ),
        "palette" => Step::Palette(unquote(rest)?),
        "paste" => Step::Paste(unquote(rest)?),
        "resize" => {
            let (w, h) = rest.split_once(' ').ok_or("resize W H")?;
            Step::Resize(number(w.trim())? as u16, number(h.trim())? as u16)
        }
        "mouse" => {
            let mut words = rest.split_whitespace();
            let kind = words.next().ok_or("mouse KIND COLUMN ROW")?;
            let kind = MOUSE
                .iter()
                .find(|(_, n)| *n == kind)
                .map(|(k, _)| *k)
                .ok_or_else(|| format!("unknown mouse {kind:?}"))?;
            let column = number(words.next().ok_or("no column")?)? as u16;
            let row = number(words.next().ok_or("no row")?)? as u16;
            let mut modifiers = KeyModifiers::NONE;
            for w in words {
                let (flag, _) = MODIFIERS
                    .iter()
                    .find(|(_, n)| *n == w)
                    .ok_or_else(|| format!("unknown modifier {w:?}"))?;
                modifiers |= *flag;
            }
            Step::Mouse(MouseEvent {
                kind,
                column,
                row,
                modifiers,
            })
        }
        "deliver" => Step::Deliver(number(rest)?),
        "tick" => Step::Tick(number(rest)? as u32),
        "other" => Step::Other(number(rest)?),
        "outage" => Step::Outage(match rest {
            "on" => true,
            "off" => false,
            _ => return Err("outage on|off".into()),
        }),
        "crash" => Step::Crash(number(rest)?),
        "restart" => Step::Restart,
        "clock-back" => Step::ServiceClockBack(number(rest)? as u32),
        "reissue" => Step::Reissue,
        "disk" => Step::Disk(number(rest)?),
        "hang-up" => Step::HangUp,
        "key-live" => Step::KeyReissuedLive,
        _ => return Err(format!("unknown step {word:?}")),
    })
}

const MODIFIERS: &[(KeyModifiers, &str)] = &[
    (KeyModifiers::SHIFT, "shift"),
    (KeyModifiers::CONTROL, "ctrl"),
    (KeyModifiers::ALT, "alt"),
];

const MOUSE: &[(MouseEventKind, &str)] = &[
    (MouseEventKind::Down(MouseButton::Left), "down-left"),
    (MouseEventKind::Down(MouseButton::Right), "down-right"),
    (MouseEventKind::Down(MouseButton::Middle), "down-middle"),
    (MouseEventKind::Up(MouseButton::Left), "up-left"),
    (MouseEventKind::Up(MouseButton::Right), "up-right"),
    (MouseEventKind::Up(MouseButton::Middle), "up-middle"),
    (MouseEventKind::Drag(MouseButton::Left), "drag-left"),
    (MouseEventKind::Drag(MouseButton::Right), "drag-right"),
    (MouseEventKind::Drag(MouseButton::Middle), "drag-middle"),
    (MouseEventKind::Moved, "moved"),
    (MouseEventKind::ScrollDown, "scroll-down"),
    (MouseEventKind::ScrollUp, "scroll-up"),
    (MouseEventKind::ScrollLeft, "scroll-left"),
    (MouseEventKind::ScrollRight, "scroll-right"),
];

fn mouse_kind(k: MouseEventKind) -> Option<&'static str> {
    MOUSE.iter().find(|(m, _)| *m == k).map(|(_, n)| *n)
}

/// Text between quotes, every character a file should not hold raw
/// written as `\u{…}`.
fn quote(t: &str) -> String {
    let mut out = String::from("\"");
    for c in t.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if crate::text::is_dangerous(c)
                || crate::text::is_invisible(c)
                || matches!(c, '\u{2028}' | '\u{2029}') =>
            {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn unquote(s: &str) -> Result<String, String> {
    let inner = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or("text goes between quotes")?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let rest: String = chars.by_ref().take_while(|c| *c != '}').collect();
                let hex = rest.strip_prefix('{').ok_or("\\u{…}")?;
                let n = u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                out.push(char::from_u32(n).ok_or("not a character")?);
            }
            other => return Err(format!("unknown escape \\{}", other.unwrap_or(' '))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step a seed makes — keys, palette commands, hostile pastes,
    /// the mouse, every fault — reads back as it was written.
    #[test]
    fn every_planned_step_reads_back_as_written() {
        let keymap = crate::app::new_state("sim.test".into(), &Default::default(), false).keymap;
        for seed in 1..=6 {
            let steps = super::super::step::plan(seed, 3000, &keymap, &Faults::all());
            let script = Script {
                seed,
                faults: "all".into(),
                steps,
            };
            let text = script.write().expect("every planned step has a line");
            assert!(
                !text.chars().any(|c| c.is_control() && c != '\n'),
                "a script holds no raw control character"
            );
            assert_eq!(Script::parse(&text).unwrap(), script, "seed {seed}");
        }
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = Script::parse("seed 1\nkey down\nwarp 9\n").unwrap_err();
        assert!(e.starts_with("line 3: unknown step"), "{e}");
        let e = Script::parse("seed 1\nfaults nope\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("unknown fault"), "{e}");
        assert_eq!(Script::parse("key down\n").unwrap_err(), "no `seed` line");
        let e = Script::parse("seed 1\npaste \"a\\q\"\n").unwrap_err();
        assert!(e.contains("unknown escape"), "{e}");
    }

    #[test]
    fn text_with_controls_and_bidi_is_escaped_and_read_back() {
        let t = "a\u{1b}[2J\u{9b}\u{202e}\"\\\n\té🙂";
        let q = quote(t);
        assert_eq!(q, "\"a\\u{1b}[2J\\u{9b}\\u{202e}\\\"\\\\\\n\\té🙂\"");
        assert_eq!(unquote(&q).unwrap(), t);
    }
}
