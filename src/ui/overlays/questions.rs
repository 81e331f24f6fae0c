//! The popups that ask: a confirmation (y / n) and the picker for a name
//! that matches more than one person or team.

use crate::app::popups::sharing::Picker;
use crate::ui::clear::{centered, popup};
use crate::ui::metrics::Metrics;
use crate::ui::Theme;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

/// What will happen (a line starting `!!` in the error style), then the
/// answers.
pub(super) fn confirm(f: &mut Frame, area: Rect, lines: &[String], theme: &Theme, m: &mut Metrics) {
    let h = lines.len() as u16 + 4;
    let r = centered(area, 80, h);
    let inner = popup(f, r, "Confirm", theme);
    m.focus_at(inner.x, inner.y);
    let mut ls: Vec<Line> = lines
        .iter()
        .map(|l| {
            if l.starts_with("!!") {
                Line::styled(l.clone(), theme.error)
            } else {
                Line::raw(l.clone())
            }
        })
        .collect();
    ls.push(Line::raw(""));
    ls.push(Line::styled("y yes · n / Esc no", theme.accent));
    f.render_widget(Paragraph::new(ls).wrap(Wrap { trim: false }), inner);
}

/// Which one the typed reference meant: what is typed to narrow them,
/// then one row per candidate left (each told apart once), the row Enter
/// takes marked `>`; nothing left says so.
pub(super) fn picker(f: &mut Frame, area: Rect, p: &Picker, theme: &Theme, m: &mut Metrics) {
    let r = centered(area, 80, p.candidates.len() as u16 + 5);
    let inner = popup(
        f,
        r,
        "Which one? (type to narrow; Enter chooses the > row, Esc cancels)",
        theme,
    );
    let mut ls = vec![
        Line::raw(format!(
            "{:?} matches more than one {}:",
            crate::text::clean(&p.reference),
            if p.team { "team" } else { "person" }
        )),
        Line::from(vec![
            Span::styled("find: ", theme.accent),
            Span::raw(crate::text::clean(&p.find.text)),
            Span::styled(if theme.accessible { "" } else { "▏" }, theme.accent),
        ]),
    ];
    let labels = p.labels();
    let rows = p.rows();
    if rows.is_empty() {
        ls.push(Line::styled(
            format!(
                "no {} matches what is typed (Backspace widens, Esc cancels)",
                if p.team { "team" } else { "person" }
            ),
            theme.dim,
        ));
    }
    for (i, &c) in rows.iter().enumerate() {
        let here = i == p.selected;
        m.row(inner, inner.y + 2 + i as u16, i, here);
        let label = crate::text::clean(&labels[c]);
        ls.push(Line::styled(
            if theme.accessible {
                theme.point(format!("  {label}"), here)
            } else {
                format!("{}{label}", if here { "> " } else { "  " })
            },
            if here { theme.selected } else { theme.base },
        ));
    }
    f.render_widget(Paragraph::new(ls), inner);
}
