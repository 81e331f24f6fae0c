//! The scrolled pages: the help (filtered as one types) and a text popup
//! of given lines, both one row below the panes' titles.

use crate::app::state::input::LineInput;
use crate::app::state::State;
use crate::ui::clear::{centered, popup};
use crate::ui::help::{help_rows, HelpRow};
use crate::ui::metrics::Metrics;
use crate::ui::wrap::wrap_words;
use crate::ui::Theme;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

/// A tall popup one row lower: the panes' titles (which task) stay in
/// sight under the views' tabs.
fn below_titles(r: Rect) -> Rect {
    let down = u16::from(r.height > 3);
    Rect::new(r.x, r.y + down, r.width, r.height - down)
}

/// The help: a filter line, then the commands and keys it keeps.
pub(super) fn help(
    f: &mut Frame,
    area: Rect,
    s: &State,
    filter: &LineInput,
    scroll: u16,
    theme: &Theme,
    m: &mut Metrics,
) {
    let r = below_titles(centered(area, 100, area.height.saturating_sub(4)));
    let inner = popup(f, r, "Help — type to filter, Esc closes", theme);
    let [input, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(inner);
    f.render_widget(Paragraph::new(format!("filter: {}_", filter.text)), input);
    m.focus_at(input.x + 8 + filter.cursor as u16, input.y);
    // A row too long goes on under its description (under the words
    // after its key), not at the frame's edge where the keys are read.
    let width = body.width as usize;
    let lines: Vec<Line> = help_rows(s, &filter.text)
        .into_iter()
        .flat_map(|row| {
            let style = if matches!(row, HelpRow::Heading(_)) {
                theme.accent.add_modifier(Modifier::BOLD)
            } else {
                theme.base
            };
            let hang = " ".repeat(row.hang(width));
            wrap_words(&[(row.line(), style)], width, vec![], vec![Span::raw(hang)])
        })
        .collect();
    f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), body);
}

/// A titled page of lines (sanitised), scrolled.
pub(super) fn text(
    f: &mut Frame,
    area: Rect,
    title: &str,
    lines: &[String],
    scroll: u16,
    theme: &Theme,
    m: &mut Metrics,
) {
    let r = below_titles(centered(area, 110, area.height.saturating_sub(4)));
    let inner = popup(f, r, title, theme);
    m.focus_at(inner.x, inner.y);
    let ls: Vec<Line> = lines
        .iter()
        .map(|l| Line::raw(crate::text::clean(l)))
        .collect();
    f.render_widget(
        Paragraph::new(ls)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        inner,
    );
}
