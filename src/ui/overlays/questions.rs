//! The popups that ask: a confirmation (y / n) and the picker for a name
//! that matches more than one person or team.

use crate::app::keymap::{Action, Context};
use crate::app::popups::sharing::Picker;
use crate::app::state::State;
use crate::ui::clear::{centered, popup};
use crate::ui::metrics::Metrics;
use crate::ui::wrap::wrap_lines;
use crate::ui::Theme;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

/// What will happen (a line starting `!!` in the error style), then the
/// answers. Lines taller than the screen (a macro's review of 100 tasks)
/// show from `scroll` (clamped so the last page fills the popup), with
/// which lines are shown and the scroll keys on a line of their own, and
/// the answers always on the last row.
pub(super) fn confirm(
    f: &mut Frame,
    area: Rect,
    s: &State,
    lines: &[String],
    scroll: u16,
    theme: &Theme,
    m: &mut Metrics,
) {
    let styled: Vec<Line> = lines
        .iter()
        .map(|l| {
            if l.starts_with("!!") {
                Line::styled(l.clone(), theme.error)
            } else {
                Line::raw(l.clone())
            }
        })
        .collect();
    // The answers as the bottom line names them: the keys in effect.
    let answers = Line::styled(
        s.keymap
            .hints(&[Context::Confirm], &crate::ui::hints::CONFIRM_KEYS)
            .join(" · "),
        theme.accent,
    );
    // The rows each line takes at the popup's width.
    let width = centered(area, 80, 0).width.saturating_sub(2) as usize;
    let (rows, starts) = wrap_lines(styled, width);
    let h = (rows.len() as u16).saturating_add(4);
    let r = centered(area, 80, h);
    let inner = popup(f, r, "Confirm", theme);
    m.focus_at(inner.x, inner.y);
    if rows.len() + 2 <= inner.height as usize || inner.height < 3 {
        // The rows as measured, each wrapped line going on under its
        // value (`reply: …`), as when it scrolls: Paragraph's own wrap
        // went back to the frame's edge.
        let mut ls = rows;
        ls.push(Line::raw(""));
        ls.push(answers);
        f.render_widget(Paragraph::new(ls).wrap(Wrap { trim: false }), inner);
        return;
    }
    // Taller than the popup: the rows from the line scrolled to, then
    // where that is, then the answers.
    let body = inner.height as usize - 2;
    let row_end = |i: usize| starts.get(i + 1).copied().unwrap_or(rows.len());
    // The last page starts at the first line whose rows to the end fit.
    let last_page = (0..lines.len())
        .find(|&i| rows.len() - starts[i] <= body)
        .unwrap_or(lines.len().saturating_sub(1));
    let first = (scroll as usize).min(last_page);
    let top = starts[first];
    let shown_to = (first..lines.len())
        .take_while(|&i| row_end(i) - top <= body)
        .last()
        .map_or(first + 1, |i| i + 1);
    let mut ls: Vec<Line> = rows.into_iter().skip(top).take(body).collect();
    ls.resize(body, Line::raw(""));
    let keys = s.keymap.hints(
        &[Context::View],
        &[
            (&[Action::Down, Action::Up], "scroll"),
            (&[Action::HalfPageDown, Action::HalfPageUp], "page"),
            (&[Action::Top, Action::Bottom], "top/bottom"),
        ],
    );
    ls.push(Line::styled(
        format!(
            "lines {}–{} of {} · {}",
            first + 1,
            shown_to,
            lines.len(),
            keys.join(" · ")
        ),
        theme.dim,
    ));
    ls.push(answers);
    f.render_widget(Paragraph::new(ls), inner);
}

/// Which one the typed reference meant: what is typed to narrow them,
/// then the candidates left (each told apart once) as every picker draws
/// its rows (`chooser::rows`: the row Enter takes marked `>` and kept in
/// sight, each cut to the width); nothing left says so.
pub(super) fn picker(f: &mut Frame, area: Rect, p: &Picker, theme: &Theme, m: &mut Metrics) {
    let r = centered(area, 80, p.candidates.len() as u16 + 5);
    let inner = popup(
        f,
        r,
        "Which one? (type to narrow; Enter chooses the > row, Esc cancels)",
        theme,
    );
    let [head, rows_area] =
        Layout::vertical([Constraint::Length(2), Constraint::Min(0)]).areas(inner);
    let head_lines = vec![
        Line::raw(format!(
            "\"{}\" matches more than one {}:",
            crate::text::clean(&p.reference),
            if p.team { "team" } else { "person" }
        )),
        // What is typed, around the cursor (after `find: `).
        crate::ui::typed::find_line(&p.find, inner.width, theme),
    ];
    f.render_widget(Paragraph::new(head_lines), head);
    let labels: Vec<String> = p
        .rows()
        .into_iter()
        .map(|c| crate::text::clean(&p.listed[c].shown))
        .collect();
    let (mut ls, offset) = crate::ui::chooser::rows(
        labels.iter().map(String::as_str),
        p.selected,
        p.offset,
        rows_area,
        theme,
        m,
    );
    m.chooser_offset = Some(offset);
    if labels.is_empty() {
        ls.push(Line::styled(
            format!(
                "no {} matches what is typed (Backspace widens, Esc cancels)",
                if p.team { "team" } else { "person" }
            ),
            theme.dim,
        ));
    }
    let inner = rows_area;
    f.render_widget(Paragraph::new(ls), inner);
}
