//! The one picker (`:recent`, `:outbox`, `:drafts`, the files picker…):
//! what is typed (`find:`), what its rows still wait for, the rows each
//! cut to the popup's width (`cut::cut`, `…`), the row Enter takes marked
//! `>`, and a line when nothing matches.

use super::clear::{centered, popup};
use super::metrics::Metrics;
use super::Theme;
use crate::app::popups::chooser::Chooser;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

pub fn draw(f: &mut Frame, area: Rect, c: &Chooser, theme: &Theme, m: &mut Metrics) {
    let shown = c.shown_note();
    let note = shown.iter().count() as u16;
    // What is typed, above all.
    let typed = 1;
    // Nothing to choose: the reason, wrapped to the popup's width
    // (at 80 columns it takes two lines).
    let empty = c.rows.is_empty() && !c.waiting();
    let inner_w = area
        .width
        .saturating_sub(2)
        .min(100)
        .saturating_sub(2)
        .max(1) as usize;
    let body = if empty {
        c.empty_text().chars().count().div_ceil(inner_w) as u16
    } else {
        c.rows.len() as u16
    };
    let r = centered(area, 100, body.clamp(1, 30) + note + typed + 2);
    let inner = popup(f, r, c.title(), theme);
    // What the rows still wait for, or why some may be missing.
    let [typed_area, note_area, inner] = Layout::vertical([
        Constraint::Length(typed),
        Constraint::Length(note),
        Constraint::Min(0),
    ])
    .areas(inner);
    // What is typed, around the cursor (after `find: `).
    f.render_widget(
        Paragraph::new(super::typed::find_line(
            &c.typed.input,
            typed_area.width,
            theme,
        )),
        typed_area,
    );
    if let Some(n) = &shown {
        f.render_widget(
            Paragraph::new(Line::styled(crate::text::clean(n), theme.dim)),
            note_area,
        );
    }
    let rows = inner.height as usize;
    let offset = super::metrics::sticky_offset(c.offset, c.selected, rows, c.rows.len());
    m.chooser_offset = Some(offset);
    let ls: Vec<Line> = if c.rows.is_empty() && c.waiting() {
        vec![]
    } else if c.rows.is_empty() {
        vec![Line::styled(c.empty_text(), theme.dim)]
    } else {
        c.rows
            .iter()
            .enumerate()
            .skip(offset)
            .take(rows)
            .map(|(i, (_, line))| {
                let y = inner.y + (i - offset) as u16;
                m.row(inner, y, i, i == c.selected);
                // What Enter takes: marked, not only coloured.
                let mark = if i == c.selected { "> " } else { "  " };
                let text = if theme.accessible {
                    theme.point(format!(" {line}"), i == c.selected)
                } else {
                    format!("{mark}{line}")
                };
                // A row wider than the popup says it was cut (`…`).
                Line::styled(
                    crate::cut::cut(&text, inner.width as usize),
                    if i == c.selected {
                        theme.selected
                    } else {
                        theme.base
                    },
                )
            })
            .collect()
    };
    let p = Paragraph::new(ls);
    let p = if empty {
        p.wrap(ratatui::widgets::Wrap { trim: true })
    } else {
        p
    };
    f.render_widget(p, inner);
}
