//! How many colours the terminal shows, and a writer that speaks to it in
//! those. The themes use the 16 named colours only, but crossterm writes
//! each as a 256-colour code (`ESC[38;5;9m`), which a 16-colour terminal
//! (the Linux console, `TERM=xterm`, `vt100`, `screen`) shows wrongly or
//! not at all. Under 16 colours every such code is written as the classic
//! SGR code (`ESC[91m`) instead.

use std::io::{self, Write};

/// What the terminal can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    TrueColor,
    Ansi256,
    Ansi16,
}

/// `colors` from the config (`truecolor`, `256`, `16`, `auto`), else what
/// the environment says: `COLORTERM=truecolor|24bit`, a `TERM` naming
/// 256 colours (`xterm-256color`, `tmux-256color`…) or a direct-colour
/// one, else 16.
pub fn depth(setting: Option<&str>, env: &dyn Fn(&str) -> Option<String>) -> Depth {
    match setting.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("truecolor" | "24bit") => return Depth::TrueColor,
        Some("256") => return Depth::Ansi256,
        Some("16") => return Depth::Ansi16,
        _ => {}
    }
    let colorterm = env("COLORTERM").unwrap_or_default().to_ascii_lowercase();
    if colorterm == "truecolor" || colorterm == "24bit" {
        return Depth::TrueColor;
    }
    let term = env("TERM").unwrap_or_default().to_ascii_lowercase();
    if term.contains("direct") {
        Depth::TrueColor
    } else if term.contains("256") {
        Depth::Ansi256
    } else {
        Depth::Ansi16
    }
}

/// Standard output, with 256-colour codes of the 16 named colours
/// rewritten as classic SGR codes under [`Depth::Ansi16`]. What is
/// written is held until `flush` (ratatui flushes once a frame), so a
/// code is never split between two rewrites.
pub struct ColorOut {
    out: io::Stdout,
    sixteen: bool,
    held: Vec<u8>,
}

impl ColorOut {
    pub fn new(depth: Depth) -> ColorOut {
        ColorOut {
            out: io::stdout(),
            sixteen: depth == Depth::Ansi16,
            held: Vec::new(),
        }
    }
}

impl Write for ColorOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.sixteen {
            self.held.extend_from_slice(buf);
            Ok(buf.len())
        } else {
            self.out.write(buf)
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.held.is_empty() {
            let bytes = to_sixteen(&std::mem::take(&mut self.held));
            self.out.write_all(&bytes)?;
        }
        self.out.flush()
    }
}

/// In every SGR sequence (`ESC[…m`), `38;5;N` / `48;5;N` with N < 16 as
/// `3X`/`9X` and `4X`/`10X` (crossterm writes `ESC[38;5;9m`, and ratatui
/// `ESC[38;5;6;49m` for a foreground and background together); everything
/// else as it is.
pub fn to_sixteen(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\x1b[") {
            let body_start = i + 2;
            let len = bytes[body_start..]
                .iter()
                .take_while(|b| b.is_ascii_digit() || **b == b';')
                .count();
            let end = body_start + len;
            if bytes.get(end) == Some(&b'm') {
                let params = std::str::from_utf8(&bytes[body_start..end]).unwrap_or("");
                out.extend_from_slice(b"\x1b[");
                out.extend_from_slice(sgr_sixteen(params).as_bytes());
                out.push(b'm');
                i = end + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// One SGR parameter list with its 256-colour codes of the first 16
/// colours made classic.
fn sgr_sixteen(params: &str) -> String {
    let p: Vec<&str> = params.split(';').collect();
    let mut out: Vec<String> = Vec::with_capacity(p.len());
    let mut k = 0;
    while k < p.len() {
        let n = p.get(k + 2).and_then(|n| n.parse::<u16>().ok());
        match (p[k], p.get(k + 1), n) {
            ("38", Some(&"5"), Some(n @ 0..=7)) => out.push((30 + n).to_string()),
            ("38", Some(&"5"), Some(n @ 8..=15)) => out.push((90 + n - 8).to_string()),
            ("48", Some(&"5"), Some(n @ 0..=7)) => out.push((40 + n).to_string()),
            ("48", Some(&"5"), Some(n @ 8..=15)) => out.push((100 + n - 8).to_string()),
            // Another extended colour (256 or RGB) passes whole.
            ("38" | "48", Some(&"5"), _) => {
                out.extend(p[k..(k + 3).min(p.len())].iter().map(|s| s.to_string()));
            }
            ("38" | "48", Some(&"2"), _) => {
                out.extend(p[k..(k + 5).min(p.len())].iter().map(|s| s.to_string()));
                k += 5;
                continue;
            }
            (other, _, _) => {
                out.push(other.to_string());
                k += 1;
                continue;
            }
        }
        k += 3;
    }
    out.join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::style::{Color, SetBackgroundColor, SetForegroundColor};

    #[test]
    fn the_depth_follows_the_setting_then_colorterm_then_term() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let e = env(&[("TERM", "xterm-256color")]);
        assert_eq!(depth(None, &e), Depth::Ansi256);
        assert_eq!(depth(Some("16"), &e), Depth::Ansi16);
        assert_eq!(depth(Some("auto"), &e), Depth::Ansi256);
        let e = env(&[("TERM", "xterm"), ("COLORTERM", "truecolor")]);
        assert_eq!(depth(None, &e), Depth::TrueColor);
        for t in ["xterm", "linux", "vt100", "screen"] {
            let vars: &'static [(&str, &str)] = Box::leak(Box::new([("TERM", t)]));
            assert_eq!(depth(None, &env(vars)), Depth::Ansi16, "{t}");
        }
        let c = crate::config::from_str("colors = \"16\"\n", None);
        assert_eq!(c.settings.colors.as_deref(), Some("16"));
        let c = crate::config::from_str("colors = \"88\"\n", None);
        assert_eq!(c.settings.colors, None);
        assert_eq!(c.diagnostics.len(), 1, "{:?}", c.diagnostics);
    }

    #[test]
    fn sixteen_colours_are_written_as_classic_codes() {
        // What crossterm writes for the theme's colours.
        let mut seq = String::new();
        for c in [Color::DarkRed, Color::Red, Color::Cyan, Color::Grey] {
            crossterm::Command::write_ansi(&SetForegroundColor(c), &mut seq).unwrap();
        }
        crossterm::Command::write_ansi(&SetBackgroundColor(Color::DarkYellow), &mut seq).unwrap();
        crossterm::Command::write_ansi(&SetForegroundColor(Color::AnsiValue(200)), &mut seq)
            .unwrap();
        seq.push_str("text\x1b[38;5;6;49mratatui\x1b[1;38;2;1;2;3;48;5;9mrgb");
        assert!(seq.contains("38;5;"), "{seq:?}");
        let out = String::from_utf8(to_sixteen(seq.as_bytes())).unwrap();
        assert_eq!(
            out,
            "\x1b[31m\x1b[91m\x1b[96m\x1b[37m\x1b[43m\x1b[38;5;200mtext\x1b[36;49mratatui\x1b[1;38;2;1;2;3;101mrgb",
            "a colour beyond 16 is left as it is"
        );
    }
}
