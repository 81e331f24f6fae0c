//! The view switcher: one row per saved view with its key, its
//! first-page count and its filter, the selected view's filter whole.

use crate::app::popups::switcher::Switcher;
use crate::app::state::State;
use crate::app::views::{Count, View};
use crate::cut::fit;
use crate::ui::clear::{centered, popup};
use crate::ui::metrics::Metrics;
use crate::ui::Theme;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

pub(super) fn draw(
    f: &mut Frame,
    area: Rect,
    s: &State,
    sw: &Switcher,
    theme: &Theme,
    m: &mut Metrics,
) {
    let n = s.views.list.len();
    let r = centered(area, 100, n as u16 + 6);
    let inner = popup(
        f,
        r,
        "Views — first-page counts (Enter switches, Esc closes)",
        theme,
    );
    let width = inner.width as usize;
    let name_w = s
        .views
        .list
        .iter()
        .map(|v| crate::cut::width(&crate::text::clean(&v.name)))
        .max()
        .unwrap_or(0)
        .clamp(4, 24);
    let filter_text = |v: &View| {
        if v.filter.is_empty() {
            "every task".to_string()
        } else {
            crate::text::clean(&v.filter)
        }
    };
    let mut ls = Vec::new();
    for (i, v) in s.views.list.iter().enumerate() {
        let current = if s.view == Some(i) { "*" } else { " " };
        let key = v.key.map(|k| k.label()).unwrap_or_default();
        let count = s.views.counts.get(&i).map(|c| c.text()).unwrap_or_default();
        let sel = if i == sw.selected { ">" } else { " " };
        m.row(inner, inner.y + i as u16, i, i == sw.selected);
        let head = format!(
            "{sel}{current} {key:<6} {} {count:>5}  ",
            fit(&crate::text::clean(&v.name), name_w)
        );
        // One row per view: the filter is cut here and shown whole below.
        let rest = width.saturating_sub(crate::cut::width(&head));
        let text = format!("{head}{}", fit(&filter_text(v), rest));
        let style = if i == sw.selected {
            theme.selected
        } else {
            theme.base
        };
        ls.push(Line::styled(text, style));
    }
    ls.push(Line::raw(""));
    if let Some(v) = s.views.list.get(sw.selected) {
        ls.push(Line::styled(
            format!("{}: {}", crate::text::clean(&v.name), filter_text(v)),
            theme.accent,
        ));
    }
    let note = match s.views.counts.get(&sw.selected) {
        Some(Count::Failed(e)) => Line::styled(
            format!("counting failed: {}", crate::text::clean(e)),
            theme.error,
        ),
        Some(Count::NeedsIdentity) => {
            Line::styled("it names `me`: it waits for the identity lookup", theme.dim)
        }
        _ => Line::styled(
            "> selected · * current · N+ more than the first page · a view's key switches",
            theme.dim,
        ),
    };
    ls.push(note);
    f.render_widget(Paragraph::new(ls).wrap(Wrap { trim: false }), inner);
}
