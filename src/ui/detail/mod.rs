//! The task detail with its tabs: the frame and the tab bar here, one
//! module per tab below, and the small pieces they share.

mod comments;
mod files;
mod links;
mod overview;
mod parts;
mod requester;
mod sharing;
mod subtasks;

use parts::Cx;
pub use parts::TextMode;

use super::Theme;
use crate::api::*;
use crate::app::state::{Focus, Origin, State, Tab};
use crate::text::Untrusted;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Tabs};
use ratatui::Frame;

/// The pane's title: the current task's number and title, and whether it
/// is the row under the list cursor.
pub fn header(s: &State) -> String {
    let Some(d) = &s.detail else {
        return "Task".into();
    };
    let label = match &d.task {
        Some(t) => format!("{} {}", t.label(), t.title.line()),
        None if d.task_id.starts_with('#') && d.error.is_some() => {
            format!("{} (not found)", d.task_id)
        }
        None if d.task_id.starts_with('#') => format!("{} (looking for it…)", d.task_id),
        None if d.task_id.is_empty() => "unreadable item".into(),
        // Opened through the number index: its label and title as last
        // seen, until the task arrives.
        None if d.by_number.is_some() => {
            let b = d.by_number.as_ref().expect("checked");
            format!("{} {}", b.label, Untrusted::new(&b.title).line())
        }
        None => short_id(&d.task_id),
    };
    let mut out = label;
    if d.origin == Origin::Elsewhere {
        out.push_str(" — not in this list");
    }
    if let Some(t) = &d.task {
        if t.archived {
            out.push_str(" [ARCHIVED]");
        }
        if t.draft {
            out.push_str(" [DRAFT]");
        }
    }
    if let Some(at) = d.cached_at {
        let now = crate::store::now_secs();
        out.push_str(&format!(" — stored {}", crate::domain::words::age(at, now)));
    }
    crate::text::clean(&out)
}

/// Draw the detail; returns (visible height, content height) of the body.
pub fn draw(f: &mut Frame, area: Rect, s: &State, theme: &Theme) -> (usize, usize) {
    let mode = if s.markdown_raw {
        TextMode::Raw
    } else {
        TextMode::Rendered
    };
    draw_as(f, area, s, theme, mode)
}

/// [`draw`] with the text mode given.
pub fn draw_as(
    f: &mut Frame,
    area: Rect,
    s: &State,
    theme: &Theme,
    mode: TextMode,
) -> (usize, usize) {
    let focused = s.focus == Focus::Detail;
    let mut title = header(s);
    if mode == TextMode::Raw {
        title.push_str(" — text as written");
    }
    let block = theme.pane(title, focused);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(d) = &s.detail else {
        let hint = Paragraph::new(vec![
            Line::raw(""),
            Line::styled("  No task: the list is empty or still loading.", theme.dim),
        ]);
        f.render_widget(hint, inner);
        return (0, 0);
    };
    if inner.height < 3 {
        return (0, 0);
    }
    let [tabs_area, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(inner);
    let selected = Tab::ALL.iter().position(|t| *t == d.tab).unwrap_or(0);
    let width_of = |short: bool| -> usize {
        Tab::ALL
            .iter()
            .map(|t| if short { t.short() } else { t.title() }.len() + 3)
            .sum()
    };
    let room = tabs_area.width as usize;
    if width_of(true) > room {
        // Too narrow for every tab: name the current one and its place.
        let line = format!(
            "[ {} ({}/{}) ]",
            d.tab.title(),
            selected + 1,
            Tab::ALL.len()
        );
        f.render_widget(Paragraph::new(Span::styled(line, theme.accent)), tabs_area);
    } else {
        let narrow = width_of(false) > room;
        let tabs = Tabs::new(
            Tab::ALL
                .iter()
                .map(|t| if narrow { t.short() } else { t.title() }),
        )
        .select(selected)
        .style(theme.dim)
        .highlight_style(
            theme
                .accent
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        )
        .divider("|");
        f.render_widget(tabs, tabs_area);
    }

    let Some(t) = &d.task else {
        let text = match &d.error {
            Some(e) => Line::styled(format!("ERROR: {e}"), theme.error),
            None => Line::styled("loading…", theme.pending),
        };
        // Wrapped: an error names its cause in full.
        f.render_widget(
            Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: false }),
            body,
        );
        return (body.height as usize, 0);
    };
    let width = body.width as usize;
    let cx = Cx {
        s,
        theme,
        width,
        mode,
    };
    let (lines, selected_line): (Vec<Line>, Option<usize>) = match d.tab {
        Tab::Overview => (overview::overview(t, &cx), None),
        Tab::Comments => comments::comments(t, d, &cx),
        Tab::Requester => (requester::requester(t, &cx), None),
        Tab::Links => links::links(t, d, theme),
        Tab::Sharing => (sharing::sharing(d, theme), None),
        Tab::Files => files::files(t, d, theme),
        Tab::Subtasks => subtasks::subtasks(d, theme, width),
    };
    let (lines, starts) = super::wrap::wrap_lines(lines, width);
    let height = body.height as usize;
    let content = lines.len();
    // Keep the selected row in view; otherwise scroll by the user's offset,
    // never past the end (the pane is never blank).
    let max = content.saturating_sub(height).min(u16::MAX as usize) as u16;
    let scroll = match selected_line.and_then(|l| starts.get(l)) {
        Some(l) => (l.saturating_sub(height / 2) as u16).min(max),
        None => d.scroll.min(max),
    };
    f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), body);
    (height, content)
}
