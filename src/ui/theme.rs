//! Colours by meaning: the themes (`assets/themes/*.toml`), a user's
//! overrides, and the styles every part of the drawing uses. A leaf: the
//! drawing imports it, it imports no drawing.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;

#[cfg(test)]
mod contrast;

/// WCAG 2 relative luminance of an sRGB colour, 0 (black) to 1 (white):
/// the one computation the contrast test and `theme = "auto"` (is the
/// terminal's background light?) both use.
pub fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// Colours by meaning. Every meaning also has a text mark or a modifier, so
/// nothing is lost with `NO_COLOR`.
#[derive(Clone, Debug)]
pub struct Theme {
    pub base: Style,
    pub dim: Style,
    pub accent: Style,
    pub selected: Style,
    pub overdue: Style,
    pub draft: Style,
    pub pending: Style,
    pub error: Style,
    pub success: Style,
    pub warn: Style,
    pub badge: Style,
    pub border: Style,
    pub border_focus: Style,
    /// Accessible mode, drawing the panes under an open popup: only the
    /// popup marks its row (`>`), so there is one focus (issue 46 §4).
    pub under_popup: bool,
    /// Accessible mode (`accessible = true`): blank space for borders,
    /// selection and tabs marked in the text, nothing that moves alone.
    pub accessible: bool,
}

/// Borders of blank space: the layout of the lines, nothing read aloud.
const BLANK: ratatui::symbols::border::Set = ratatui::symbols::border::Set {
    top_left: " ",
    top_right: " ",
    bottom_left: " ",
    bottom_right: " ",
    vertical_left: " ",
    vertical_right: " ",
    horizontal_top: " ",
    horizontal_bottom: " ",
};

const THEMES: &[(&str, &str)] = &[
    ("dark", include_str!("../../assets/themes/dark.toml")),
    ("light", include_str!("../../assets/themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../assets/themes/high-contrast.toml"),
    ),
];

/// Parse one style: named colours, `on COLOUR`, modifiers.
pub fn parse_style(spec: &str) -> Result<Style, String> {
    let mut style = Style::default();
    let mut words = spec.split_whitespace().peekable();
    while let Some(w) = words.next() {
        let w = w.to_ascii_lowercase();
        let modifier = match w.as_str() {
            "bold" => Some(Modifier::BOLD),
            "dim" => Some(Modifier::DIM),
            "italic" => Some(Modifier::ITALIC),
            "underlined" => Some(Modifier::UNDERLINED),
            "reversed" => Some(Modifier::REVERSED),
            _ => None,
        };
        if let Some(m) = modifier {
            style = style.add_modifier(m);
        } else if w == "on" {
            let c = words.next().ok_or("\"on\" needs a colour")?;
            style = style.bg(named_color(c)?);
        } else {
            style = style.fg(named_color(&w)?);
        }
    }
    Ok(style)
}

fn named_color(s: &str) -> Result<Color, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" => Color::Magenta,
        "cyan" => Color::Cyan,
        "gray" | "grey" => Color::Gray,
        "darkgray" | "darkgrey" => Color::DarkGray,
        "lightred" => Color::LightRed,
        "lightgreen" => Color::LightGreen,
        "lightyellow" => Color::LightYellow,
        "lightblue" => Color::LightBlue,
        "lightmagenta" => Color::LightMagenta,
        "lightcyan" => Color::LightCyan,
        "white" => Color::White,
        other => {
            return Err(format!(
                "unknown colour {other:?} (use one of the 16 named colours)"
            ))
        }
    })
}

impl Theme {
    /// The named built-in theme (`assets/themes/`), or `mono` under
    /// `NO_COLOR`. An unknown name falls back to dark with a warning.
    pub fn load(name: &str, no_color: bool) -> (Theme, Vec<String>) {
        if no_color {
            return (Theme::mono(), vec![]);
        }
        let mut warnings = Vec::new();
        let src = THEMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| *s)
            .unwrap_or_else(|| {
                warnings.push(format!(
                    "theme {name:?} is unknown (dark, light, high-contrast); using dark"
                ));
                THEMES[0].1
            });
        let table: std::collections::BTreeMap<String, String> =
            toml::from_str(src).unwrap_or_default();
        let get = |k: &str, warnings: &mut Vec<String>| -> Style {
            let spec = table.get(k).map(String::as_str).unwrap_or("");
            parse_style(spec).unwrap_or_else(|e| {
                warnings.push(format!("theme {name}: {k}: {e}"));
                Style::default()
            })
        };
        let theme = Theme {
            base: get("base", &mut warnings),
            dim: get("dim", &mut warnings),
            accent: get("accent", &mut warnings),
            selected: get("selected", &mut warnings),
            overdue: get("overdue", &mut warnings),
            draft: get("draft", &mut warnings),
            pending: get("pending", &mut warnings),
            error: get("error", &mut warnings),
            success: get("success", &mut warnings),
            warn: get("warn", &mut warnings),
            badge: get("badge", &mut warnings),
            border: get("border", &mut warnings),
            border_focus: get("border_focus", &mut warnings),
            accessible: false,
            under_popup: false,
        };
        (theme, warnings)
    }

    pub fn dark() -> Theme {
        Theme::load("dark", false).0
    }

    /// No colour at all: modifiers only.
    pub fn mono() -> Theme {
        let plain = Style::default();
        Theme {
            base: plain,
            dim: plain,
            accent: plain.add_modifier(Modifier::BOLD),
            selected: plain.add_modifier(Modifier::REVERSED),
            overdue: plain.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            draft: plain.add_modifier(Modifier::BOLD),
            pending: plain.add_modifier(Modifier::ITALIC),
            error: plain.add_modifier(Modifier::BOLD),
            success: plain,
            warn: plain.add_modifier(Modifier::BOLD),
            badge: plain.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            border: plain,
            border_focus: plain.add_modifier(Modifier::BOLD),
            accessible: false,
            under_popup: false,
        }
    }
}

impl Theme {
    /// A bordered pane whose border and title say whether it has focus.
    /// Focus shows without colour too: a `▶` before the title and a
    /// thick border.
    pub fn pane<'a>(&self, title: String, focused: bool) -> ratatui::widgets::Block<'a> {
        let (title, border) = if self.accessible {
            // Focus in words, no arrow or line to read aloud.
            let t = if focused {
                format!("focus: {title}")
            } else {
                title
            };
            (t, ratatui::widgets::BorderType::Plain)
        } else if focused {
            (format!("▶ {title}"), ratatui::widgets::BorderType::Thick)
        } else {
            (title, ratatui::widgets::BorderType::Plain)
        };
        let b = ratatui::widgets::Block::default()
            .borders(ratatui::widgets::Borders::ALL)
            .border_type(border)
            .border_style(if focused {
                self.border_focus
            } else {
                self.border
            })
            .title(Span::styled(
                title,
                if focused { self.accent } else { self.dim },
            ));
        self.frame(b)
    }

    /// A popup's first line: its name; in accessible mode saying it is a
    /// popup (no box drawing tells it from the pane behind, issue 46 §4).
    pub fn popup_top(&self, name: &str) -> String {
        if self.accessible {
            format!(" popup: {name} ")
        } else {
            format!(" {name} ")
        }
    }

    /// A popup's last line in accessible mode: where it ends, in words.
    pub fn popup_end<'a>(
        &self,
        b: ratatui::widgets::Block<'a>,
        name: &str,
    ) -> ratatui::widgets::Block<'a> {
        if !self.accessible {
            return b;
        }
        b.title_bottom(Span::styled(format!(" end of {name} "), self.dim))
    }

    /// A block's borders as lines, or in accessible mode as blank space
    /// (the same cells: the layout does not move).
    pub fn frame<'a>(&self, b: ratatui::widgets::Block<'a>) -> ratatui::widgets::Block<'a> {
        if self.accessible {
            b.border_set(BLANK)
        } else {
            b
        }
    }

    /// The mark of a pane's current row (`>`), or a blank under a popup
    /// in accessible mode (the popup's row is the one focus).
    pub fn current_mark(&self) -> &'static str {
        if self.under_popup {
            " "
        } else {
            ">"
        }
    }

    /// A row's text with the first column marking the current one: `>` in
    /// accessible mode (never style alone), the text as it is otherwise.
    pub fn point(&self, text: String, current: bool) -> String {
        if !self.accessible {
            return text;
        }
        let mark = if current && !self.under_popup {
            '>'
        } else {
            ' '
        };
        match text.strip_prefix(' ') {
            Some(rest) => format!("{mark}{rest}"),
            None => format!("{mark} {text}"),
        }
    }
}
