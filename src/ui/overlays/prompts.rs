//! The typed prompts: the command palette (`:`, with its completions) and
//! the search line (`/`).

use crate::app::popups::palette::{self, Palette};
use crate::app::state::{command, SearchBox, State};
use crate::ui::clear::popup;
use crate::ui::metrics::Metrics;
use crate::ui::Theme;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// The palette: full width under the tabs, the typed line, then up to 12
/// completions with what each does.
pub(super) fn palette(
    f: &mut Frame,
    area: Rect,
    s: &State,
    p: &Palette,
    theme: &Theme,
    m: &mut Metrics,
) {
    let sources = s.palette_sources();
    let completions = palette::complete(&p.input.text, &sources);
    let h = (completions.len().min(12) + 3) as u16;
    // Full width, so nothing of the list shows beside it.
    let r = Rect {
        x: area.x,
        y: area.y + 1,
        width: area.width,
        height: h.min(area.height.saturating_sub(1)),
    };
    let title = match &p.target {
        _ if !s.marks.is_empty() => format!(
            "Command — {} marked (Tab completes, Enter runs, Esc cancels)",
            crate::domain::words::plural(s.marks.len(), "task", "tasks")
        ),
        Some((_, label)) => format!(
            "Command — current task {} (Tab completes, Enter runs, Esc cancels)",
            crate::text::clean(label)
        ),
        None => "Command (Tab completes, Enter runs, Esc cancels)".into(),
    };
    let inner = popup(f, r, &title, theme);
    // What is typed, around the cursor (after the `:`).
    let typed = crate::ui::typed::shown(&p.input, inner.width.saturating_sub(1));
    let mut typed_line = vec![Span::styled(":", theme.accent), Span::raw(typed.text)];
    if typed.end {
        typed_line.push(Span::styled("_", theme.dim));
    }
    let mut lines = vec![Line::from(typed_line)];
    // A filter's words typed before the one completed are not repeated
    // in every suggestion (they would push it off a narrow screen).
    let kept = filter_head(&p.input.text);
    let hint = completions.iter().enumerate().take(12).map(|(i, c)| {
        let name = c.split(' ').next().unwrap_or("");
        let desc = command::spec(name)
            .map(|c| format!("{}  — {}", c.args, c.help))
            .unwrap_or_default();
        let text = if let Some(rest) = kept.as_deref().and_then(|k| c.strip_prefix(k)) {
            format!("  {name} …{}", crate::text::clean(rest))
        } else if let Some(d) = sources.describe(c) {
            format!("  {}  — {}", crate::text::clean(c), crate::text::clean(d))
        } else if c.contains(' ') {
            format!("  {}", crate::text::clean(c))
        } else {
            format!("  {c} {desc}")
        };
        // Longer than the popup: cut, and the cut says so (`…`); at 80
        // columns a command's help ended mid-word ("set the stat").
        Line::styled(
            crate::cut::cut(
                &theme.point(text, i == p.selected),
                usize::from(inner.width),
            ),
            if i == p.selected {
                theme.selected
            } else {
                theme.dim
            },
        )
    });
    lines.extend(hint);
    f.render_widget(Paragraph::new(lines), inner);
    for i in 0..completions.len().min(12) {
        m.row(inner, inner.y + 1 + i as u16, i, false);
    }
    let x = inner.x + 1 + typed.cursor as u16;
    if x < inner.right() {
        m.caret_at(x, inner.y);
    }
}

/// `filter WORDS `: the text of a `:filter` line before the word being
/// completed, when words come before it.
fn filter_head(input: &str) -> Option<String> {
    let text = input.trim_start();
    let (cmd, arg) = text.split_once(' ')?;
    if command::spec(cmd)?.complete != command::Complete::Filter {
        return None;
    }
    let before = &arg[..crate::domain::filter_complete::typing(arg).word];
    (!before.trim().is_empty()).then(|| format!("{cmd} {before}"))
}

/// The search line: on the status line, not over the list, so the first
/// rows it narrows stay in sight (#26 §2).
pub(super) fn search(
    f: &mut Frame,
    area: Rect,
    s: &State,
    b: &SearchBox,
    theme: &Theme,
    m: &mut Metrics,
) {
    let r = Rect::new(area.x, area.bottom().saturating_sub(2), area.width, 1);
    let about = match s.list.narrowed {
        Some(of) => format!("  {} of {of} rows match · ", s.list.items.len()),
        None => "  ".into(),
    };
    // What is typed, around the cursor (after the `/`).
    let typed = crate::ui::typed::shown(&b.input, r.width.saturating_sub(1));
    let line = Line::from(vec![
        Span::styled(
            format!("/{}{}", typed.text, if typed.end { "_" } else { "" }),
            theme.accent,
        ),
        Span::styled(
            about + "title, #number, tags, assignee, then the service",
            theme.dim,
        ),
    ]);
    f.render_widget(ratatui::widgets::Clear, r);
    f.render_widget(Paragraph::new(line), r);
    m.focus_at(r.x + 1 + typed.cursor as u16, r.y);
}
