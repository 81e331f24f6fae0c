//! Every theme's text stands out from its background: a contrast ratio
//! (WCAG 2 relative luminance) of 4.5:1 at least, 7:1 for
//! `high-contrast`; borders, which are not text, 3:1. Colours are taken
//! as xterm's default palette shows them, the terminal's own foreground
//! and background as `#e5e5e5` on black for the dark themes and black on
//! white for the light one.

use super::Theme;
use ratatui::style::{Color, Modifier, Style};

/// xterm's default palette.
fn rgb(c: Color) -> Option<(u8, u8, u8)> {
    Some(match c {
        Color::Black => (0, 0, 0),
        Color::Red => (0xcd, 0, 0),
        Color::Green => (0, 0xcd, 0),
        Color::Yellow => (0xcd, 0xcd, 0),
        Color::Blue => (0, 0, 0xee),
        Color::Magenta => (0xcd, 0, 0xcd),
        Color::Cyan => (0, 0xcd, 0xcd),
        Color::Gray => (0xe5, 0xe5, 0xe5),
        Color::DarkGray => (0x7f, 0x7f, 0x7f),
        Color::LightRed => (0xff, 0, 0),
        Color::LightGreen => (0, 0xff, 0),
        Color::LightYellow => (0xff, 0xff, 0),
        Color::LightBlue => (0x5c, 0x5c, 0xff),
        Color::LightMagenta => (0xff, 0, 0xff),
        Color::LightCyan => (0, 0xff, 0xff),
        Color::White => (0xff, 0xff, 0xff),
        Color::Rgb(r, g, b) => (r, g, b),
        _ => return None,
    })
}

/// The contrast ratio of two colours, 1 to 21.
fn ratio(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (la, lb) = (super::luminance(a), super::luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The text's colour and its background's, as the terminal shows `style`
/// (`reversed` swaps them) over its default `fg` on `bg`.
fn shown(style: Style, fg: (u8, u8, u8), bg: (u8, u8, u8)) -> ((u8, u8, u8), (u8, u8, u8)) {
    let f = style.fg.and_then(rgb).unwrap_or(fg);
    let b = style.bg.and_then(rgb).unwrap_or(bg);
    if style.add_modifier.contains(Modifier::REVERSED) {
        (b, f)
    } else {
        (f, b)
    }
}

/// Each theme's pairs below its minimum, as `theme style ratio`.
fn failures(name: &str, text_min: f64, light: bool) -> Vec<String> {
    let (t, warnings) = Theme::load(name, false);
    assert!(warnings.is_empty(), "{warnings:?}");
    let (fg, bg) = if light {
        ((0, 0, 0), (0xff, 0xff, 0xff))
    } else {
        ((0xe5, 0xe5, 0xe5), (0, 0, 0))
    };
    let text = [
        ("base", t.base),
        ("dim", t.dim),
        ("accent", t.accent),
        ("selected", t.selected),
        ("overdue", t.overdue),
        ("draft", t.draft),
        ("pending", t.pending),
        ("error", t.error),
        ("success", t.success),
        ("warn", t.warn),
        ("badge", t.badge),
        // A selected file's dim parts (ui/detail/files.rs).
        ("selected+dim", t.selected.patch(t.dim)),
    ];
    let borders = [("border", t.border), ("border_focus", t.border_focus)];
    let mut out = vec![];
    for (min, pairs) in [(text_min, &text[..]), (3.0, &borders[..])] {
        for (what, style) in pairs {
            assert!(
                !style.add_modifier.contains(Modifier::DIM),
                "{name} {what}: `dim` has no measurable colour"
            );
            let (f, b) = shown(*style, fg, bg);
            let r = ratio(f, b);
            if r < min {
                out.push(format!("{name} {what} {r:.2}:1 < {min}:1"));
            }
        }
    }
    out
}

#[test]
fn every_theme_reads_at_4_5_to_1_and_high_contrast_at_7() {
    // The ratio itself: black on white is 21:1, a colour on itself 1:1.
    assert!((ratio((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-9);
    assert!((ratio((0x7f, 0x7f, 0x7f), (0x7f, 0x7f, 0x7f)) - 1.0).abs() < 1e-9);
    let mut all = failures("dark", 4.5, false);
    all.extend(failures("light", 4.5, true));
    all.extend(failures("high-contrast", 7.0, false));
    assert!(all.is_empty(), "{all:#?}");
}
