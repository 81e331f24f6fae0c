//! The filter form: the statuses to tick, the priority, the text fields.

use crate::app::popups::filter_form::{FilterForm, ROWS, TEXT_LABELS};
use crate::app::state::command;
use crate::ui::clear::{centered, popup};
use crate::ui::metrics::Metrics;
use crate::ui::Theme;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

pub(super) fn draw(f: &mut Frame, area: Rect, form: &FilterForm, theme: &Theme, m: &mut Metrics) {
    let r = centered(area, 76, ROWS as u16 + 7);
    let inner = popup(f, r, "Filters (Enter applies, Esc cancels)", theme);
    let sel = |i: usize| {
        if i == form.row {
            theme.selected
        } else {
            theme.base
        }
    };
    let mut ls = Vec::new();
    for (i, name) in command::STATUS_VALUES.iter().enumerate() {
        let mark = if form.status[i] { "[x]" } else { "[ ]" };
        ls.push(Line::styled(
            theme.point(format!("  status     {mark} {name}"), form.row == i),
            sel(i),
        ));
    }
    let p = form
        .priority
        .map(|i| command::PRIORITY_VALUES[i])
        .unwrap_or("(any)");
    ls.push(Line::styled(
        theme.point(format!("  priority   < {p} >"), form.row == 4),
        sel(4),
    ));
    for (i, label) in TEXT_LABELS.iter().enumerate() {
        // After the field's label (padded to 22 columns), what is typed,
        // around the cursor: one row, however long.
        let label_w = 3 + label.chars().count().max(22);
        let typed =
            crate::ui::typed::shown(&form.text[i], inner.width.saturating_sub(label_w as u16));
        let here = form.row == 5 + i;
        let cursor = if here && typed.end { "_" } else { "" };
        if here {
            let left = label_w + typed.cursor;
            m.focus_at(inner.x + left as u16, inner.y + ls.len() as u16);
        }
        ls.push(Line::styled(
            theme.point(format!("  {label:<22} {}{cursor}", typed.text), here),
            sel(5 + i),
        ));
    }
    if form.row < 5 {
        m.focus_at(inner.x, inner.y + form.row as u16);
    }
    ls.push(Line::raw(""));
    match &form.error {
        Some(e) => ls.push(Line::styled(format!("ERROR: {e}"), theme.error)),
        None => ls.push(Line::styled(
            "up/down/tab move · space toggles · left/right priority · ctrl-r clears all",
            theme.dim,
        )),
    }
    f.render_widget(Paragraph::new(ls).wrap(Wrap { trim: false }), inner);
}
