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
    let lines = c.rows.iter().map(|(_, line)| line.as_str());
    let (ls, offset) = rows(lines, c.selected, c.offset, inner, theme, m);
    m.chooser_offset = Some(offset);
    let ls: Vec<Line> = if c.rows.is_empty() && c.waiting() {
        vec![]
    } else if c.rows.is_empty() {
        vec![Line::styled(c.empty_text(), theme.dim)]
    } else {
        ls
    };
    let p = Paragraph::new(ls);
    let p = if empty {
        p.wrap(ratatui::widgets::Wrap { trim: true })
    } else {
        p
    };
    f.render_widget(p, inner);
}

/// Every picker's rows in `area` (a chooser's, the sharing editor's
/// candidates): the window that keeps the row Enter takes in sight
/// (`sticky_offset` from the last frame's `prev`), that row marked `>`
/// (not only coloured), each row cut to the width (`…`) and a click
/// target. Returns the lines and the window's first row.
pub(super) fn rows<'a>(
    lines: impl ExactSizeIterator<Item = &'a str>,
    selected: usize,
    prev: usize,
    area: Rect,
    theme: &Theme,
    m: &mut Metrics,
) -> (Vec<Line<'static>>, usize) {
    let shown = area.height as usize;
    let offset = super::metrics::sticky_offset(prev, selected, shown, lines.len());
    let ls = lines
        .enumerate()
        .skip(offset)
        .take(shown)
        .map(|(i, line)| {
            let here = i == selected;
            m.row(area, area.y + (i - offset) as u16, i, here);
            // What Enter takes: marked, not only coloured.
            let text = if theme.accessible {
                theme.point(format!(" {line}"), here)
            } else {
                format!("{}{line}", if here { "> " } else { "  " })
            };
            // A row wider than the popup says it was cut (`…`).
            Line::styled(
                crate::cut::cut(&text, area.width as usize),
                if here { theme.selected } else { theme.base },
            )
        })
        .collect();
    (ls, offset)
}
