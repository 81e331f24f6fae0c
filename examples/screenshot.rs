//! The README's picture, made from the real screen (issue 34 §2): runs
//! `BIN demo` in a pseudo-terminal of COLS×ROWS, waits until the demo's
//! first page and identity are on screen and the screen stops changing,
//! and writes the vt100 screen — characters, colours, bold, inverse — as
//! an SVG. `scripts/screenshot.sh` runs it; running it again renews the
//! picture.
//!
//! screenshot BIN OUT.svg [COLS ROWS]
//!
//! The demo runs in a home of its own (a temp folder for config, state and
//! cache): nothing of the user's is read or written.

use portable_pty::{native_pty_system, CommandBuilder, PtySize};
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (bin, out) = match (args.get(1), args.get(2)) {
        (Some(b), Some(o)) => (b.clone(), o.clone()),
        _ => {
            eprintln!("usage: screenshot BIN OUT.svg [COLS ROWS]");
            std::process::exit(2);
        }
    };
    let cols: u16 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(120);
    let rows: u16 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(32);
    let screen = capture(&bin, cols, rows);
    let svg = render_svg(&screen);
    std::fs::write(&out, &svg).expect("write the picture");
    eprintln!("{out}: {cols}×{rows}, {} bytes", svg.len());
}

/// Run the demo and return its settled screen.
fn capture(bin: &str, cols: u16, rows: u16) -> vt100::Screen {
    let home = std::env::temp_dir().join(format!("taskdeck-screenshot-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let bin = std::fs::canonicalize(bin).expect("the binary");
    let mut cmd = CommandBuilder::new(bin);
    cmd.arg("demo");
    cmd.cwd(&home);
    cmd.env_clear();
    for (k, v) in [
        ("HOME", home.join("home")),
        ("XDG_CONFIG_HOME", home.join("config")),
        ("XDG_STATE_HOME", home.join("state")),
        ("XDG_CACHE_HOME", home.join("cache")),
        ("TMPDIR", home.clone()),
    ] {
        cmd.env(k, v);
    }
    cmd.env("TERM", "xterm-256color");
    cmd.env("COLORTERM", "truecolor");
    cmd.env("TZ", "UTC");
    cmd.env("PATH", std::env::var("PATH").unwrap_or_default());
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut writer = pair.master.take_writer().unwrap();
    let mut reader = pair.master.try_clone_reader().unwrap();
    let (tx, rx) = channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut parser = vt100::Parser::new(rows, cols, 0);
    let pump = |parser: &mut vt100::Parser, writer: &mut Box<dyn Write + Send>, wait| {
        if let Ok(chunk) = rx.recv_timeout(wait) {
            // Answer a cursor position query, as a terminal would.
            if chunk.windows(4).any(|w| w == b"\x1b[6n") {
                let _ = writer.write_all(b"\x1b[1;1R");
            }
            parser.process(&chunk);
            true
        } else {
            false
        }
    };
    let ready = |s: &vt100::Screen| {
        let t = s.contents();
        t.contains("Alice Martin") && t.contains("(more below)")
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ready(parser.screen()) {
        assert!(
            Instant::now() < deadline,
            "the demo did not show its first page:\n{}",
            parser.screen().contents()
        );
        pump(&mut parser, &mut writer, Duration::from_millis(100));
    }
    // The first start's hint goes with the first key: one row down, so
    // the picture shows the key line a user works with.
    writer.write_all(b"j").unwrap();
    // Settled: nothing drawn for a second (the detail's tabs have loaded).
    let mut quiet = Instant::now();
    while quiet.elapsed() < Duration::from_secs(1) && Instant::now() < deadline {
        if pump(&mut parser, &mut writer, Duration::from_millis(100)) {
            quiet = Instant::now();
        }
    }
    let screen = parser.screen().clone();
    let _ = writer.write_all(b"q");
    let end = Instant::now() + Duration::from_secs(5);
    while child.try_wait().ok().flatten().is_none() && Instant::now() < end {
        pump(&mut parser, &mut writer, Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = std::fs::remove_dir_all(&home);
    screen
}

const CELL_W: f64 = 8.4;
const CELL_H: f64 = 18.0;
const FONT: f64 = 14.0;
const FG: (u8, u8, u8) = (0xd0, 0xd0, 0xd0);
const BG: (u8, u8, u8) = (0x1c, 0x1c, 0x1c);

/// xterm's 256 colours.
fn indexed(i: u8) -> (u8, u8, u8) {
    const BASE: [(u8, u8, u8); 16] = [
        (0x00, 0x00, 0x00),
        (0xcd, 0x00, 0x00),
        (0x00, 0xcd, 0x00),
        (0xcd, 0xcd, 0x00),
        (0x24, 0x72, 0xc8),
        (0xcd, 0x00, 0xcd),
        (0x00, 0xcd, 0xcd),
        (0xe5, 0xe5, 0xe5),
        (0x7f, 0x7f, 0x7f),
        (0xff, 0x00, 0x00),
        (0x00, 0xff, 0x00),
        (0xff, 0xff, 0x00),
        (0x5c, 0x5c, 0xff),
        (0xff, 0x00, 0xff),
        (0x00, 0xff, 0xff),
        (0xff, 0xff, 0xff),
    ];
    match i {
        0..=15 => BASE[i as usize],
        16..=231 => {
            let i = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
        _ => {
            let v = 8 + (i - 232) * 10;
            (v, v, v)
        }
    }
}

fn rgb(c: vt100::Color, default: (u8, u8, u8)) -> (u8, u8, u8) {
    match c {
        vt100::Color::Default => default,
        vt100::Color::Idx(i) => indexed(i),
        vt100::Color::Rgb(r, g, b) => (r, g, b),
    }
}

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One cell's look: foreground, background, bold, italic, underline.
#[derive(Clone, PartialEq)]
struct Look {
    fg: (u8, u8, u8),
    bg: (u8, u8, u8),
    bold: bool,
    italic: bool,
    underline: bool,
}

fn look(c: &vt100::Cell) -> Look {
    let (mut fg, mut bg) = (rgb(c.fgcolor(), FG), rgb(c.bgcolor(), BG));
    if c.inverse() {
        std::mem::swap(&mut fg, &mut bg);
    }
    Look {
        fg,
        bg,
        bold: c.bold(),
        italic: c.italic(),
        underline: c.underline(),
    }
}

/// The screen as SVG: a rectangle per run of one background, a text per
/// run of one look, each stretched to its cells (so any monospace font
/// keeps the columns).
fn render_svg(screen: &vt100::Screen) -> String {
    let (rows, cols) = screen.size();
    let (w, h) = (cols as f64 * CELL_W, rows as f64 * CELL_H);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}" font-family="'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="{FONT}">"#
    );
    let _ = writeln!(
        out,
        r#"<title>taskdeck demo at {cols}×{rows} (made by scripts/screenshot.sh)</title>"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="100%" height="100%" fill="{}"/>"#,
        hex(BG)
    );
    for row in 0..rows {
        let y = row as f64 * CELL_H;
        // Runs of one look.
        let mut col = 0;
        while col < cols {
            let Some(cell) = screen.cell(row, col) else {
                break;
            };
            let l = look(cell);
            let start = col;
            let mut text = String::new();
            while col < cols {
                let Some(c) = screen.cell(row, col) else {
                    break;
                };
                if look(c) != l {
                    break;
                }
                if !c.is_wide_continuation() {
                    let s = c.contents();
                    text.push_str(if s.is_empty() { " " } else { s });
                }
                col += 1;
            }
            let x = start as f64 * CELL_W;
            let width = (col - start) as f64 * CELL_W;
            if l.bg != BG {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x:.1}" y="{y:.1}" width="{width:.1}" height="{CELL_H}" fill="{}"/>"#,
                    hex(l.bg)
                );
            }
            if !text.trim().is_empty() {
                let mut attrs = format!(r#" fill="{}""#, hex(l.fg));
                if l.bold {
                    attrs.push_str(r#" font-weight="bold""#);
                }
                if l.italic {
                    attrs.push_str(r#" font-style="italic""#);
                }
                if l.underline {
                    attrs.push_str(r#" text-decoration="underline""#);
                }
                let _ = writeln!(
                    out,
                    r#"<text x="{x:.1}" y="{:.1}" textLength="{width:.1}" lengthAdjust="spacingAndGlyphs" xml:space="preserve"{attrs}>{}</text>"#,
                    y + CELL_H * 0.75,
                    escape(&text)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}
