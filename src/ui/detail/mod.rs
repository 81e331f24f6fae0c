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

use super::metrics::Metrics;
use super::Theme;
use crate::api::*;
use crate::app::state::{Focus, Hit, Origin, State, Tab};
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
pub fn draw(
    f: &mut Frame,
    area: Rect,
    s: &State,
    theme: &Theme,
    m: &mut Metrics,
) -> (usize, usize) {
    let mode = if s.markdown_raw {
        TextMode::Raw
    } else {
        TextMode::Rendered
    };
    draw_as(f, area, s, theme, mode, m)
}

/// [`draw`] with the text mode given.
pub fn draw_as(
    f: &mut Frame,
    area: Rect,
    s: &State,
    theme: &Theme,
    mode: TextMode,
    m: &mut Metrics,
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
    // The tabs' width as drawn: each name with a space either side, one
    // divider between two (as ratatui's `Tabs` and accessible mode lay
    // them out); whole names whenever they fit (at 160 columns they were
    // shortened with a column to spare).
    let width_of = |short: bool| -> usize {
        let names = Tab::ALL
            .iter()
            .map(|t| if short { t.short() } else { t.title() });
        names.map(|n| crate::cut::width(n) + 2).sum::<usize>() + Tab::ALL.len() - 1
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
        if focused {
            m.focus_at(tabs_area.x, tabs_area.y);
        }
    } else {
        let narrow = width_of(false) > room;
        // Where each tab is (as ratatui's `Tabs` lays them out: a space,
        // the title, a space, the divider), for clicks and the cursor.
        let mut x = tabs_area.x;
        for (i, t) in Tab::ALL.iter().enumerate() {
            let w = if narrow { t.short() } else { t.title() }.len() as u16 + 2;
            let r = Rect::new(x, tabs_area.y, w, 1).intersection(tabs_area);
            m.hit(r, Hit::DetailTab(i));
            if i == selected && focused {
                m.focus_at(r.x, r.y);
            }
            x += w + 1;
        }
        if theme.accessible {
            // The current tab in brackets, not by style alone; spaces
            // between, no bar to read aloud.
            let spans: Vec<Span> = Tab::ALL
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let name = if narrow { t.short() } else { t.title() };
                    if i == selected {
                        Span::styled(format!("[{name}] "), theme.accent)
                    } else {
                        Span::styled(format!(" {name}  "), theme.dim)
                    }
                })
                .collect();
            f.render_widget(Paragraph::new(Line::from(spans)), tabs_area);
        }
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
        if !theme.accessible {
            f.render_widget(tabs, tabs_area);
        }
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
        Tab::Links => links::links(t, d, &cx),
        Tab::Sharing => (sharing::sharing(d, theme), None),
        Tab::Files => files::files(t, d, &cx),
        Tab::Subtasks => subtasks::subtasks(d, &cx),
    };
    // Accessible mode: `>` on the selected row, in the text.
    let mut lines = lines;
    if let Some(line) = selected_line
        .filter(|_| theme.accessible)
        .and_then(|l| lines.get_mut(l))
    {
        if let Some(first) = line.spans.first_mut() {
            first.content = theme.point(first.content.to_string(), true).into();
        }
    }
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
    // The cursor on the selected row (a comment, a link, a file), when
    // the detail has focus.
    if let Some(&row) = selected_line.and_then(|l| starts.get(l)) {
        let row = row.saturating_sub(scroll as usize);
        if focused && row < height {
            m.focus_at(body.x, body.y + row as u16);
        }
    }
    f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), body);
    (height, content)
}
