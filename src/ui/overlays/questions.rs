//! The popups that ask: a confirmation (y / n) and the picker for a name
//! that matches more than one person or team.

use crate::app::popups::sharing::Picker;
use crate::ui::clear::{centered, popup};
use crate::ui::metrics::Metrics;
use crate::ui::Theme;
use ratatui::layout::Rect;
use ratatui::text::Line;
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

/// Which one the typed reference meant: one row per candidate.
pub(super) fn picker(f: &mut Frame, area: Rect, p: &Picker, theme: &Theme, m: &mut Metrics) {
    let r = centered(area, 80, p.candidates.len() as u16 + 4);
    let inner = popup(f, r, "Which one? (Enter chooses, Esc cancels)", theme);
    let mut ls = vec![Line::raw(format!(
        "{:?} matches more than one {}:",
        crate::text::clean(&p.reference),
        if p.team { "team" } else { "person" }
    ))];
    // Each once, told apart by what differs (`domain::names::told_apart`).
    let shown = crate::domain::names::told_apart(&p.candidates);
    for (i, label) in shown.iter().enumerate() {
        m.row(inner, inner.y + 1 + i as u16, i, i == p.selected);
        ls.push(Line::styled(
            theme.point(format!("  {}", crate::text::clean(label)), i == p.selected),
            if i == p.selected {
                theme.selected
            } else {
                theme.base
            },
        ));
    }
    f.render_widget(Paragraph::new(ls), inner);
}
