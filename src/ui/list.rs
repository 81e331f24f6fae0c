//! The task list: only the visible rows are built, whatever the list size.

use super::metrics::Metrics;
use super::Theme;
use crate::api::{Priority, Task, TaskItem};
use crate::app::dates;
use crate::app::state::{Focus, Hit, State};
use crate::cut::{cell, fit, Piece};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use unicode_width::UnicodeWidthStr;

/// The widest priority the spec names, as the list says it (`urgent`).
static PRIORITY_WIDTH: std::sync::LazyLock<usize> = std::sync::LazyLock::new(|| {
    Priority::KNOWN
        .iter()
        .map(|p| p.label().width())
        .max()
        .unwrap_or(0)
});

/// The widest status the spec names, as the list says it (`not started`).
static STATUS_WIDTH: std::sync::LazyLock<usize> = std::sync::LazyLock::new(|| {
    crate::api::Status::KNOWN
        .iter()
        .map(|p| p.label().width())
        .max()
        .unwrap_or(0)
});

fn priority_style(p: &Priority, theme: &Theme) -> Style {
    match p {
        Priority::Urgent => theme.error,
        Priority::High => theme.warn,
        _ => theme.base,
    }
}

pub fn title_line(s: &State) -> String {
    let mut parts = vec![format!("Tasks: {}", s.view_title())];
    // The view's filter is written out too: the title, the filter form and
    // the request read the same filters.
    let f = crate::app::state::fields::filter_string(&s.filters, s.my_id(), &s.directory);
    if !f.is_empty() {
        parts.push(format!("filter {f}"));
    }
    if !s.search.is_empty() {
        // Cleaned as every other text on screen (a control or bidi
        // character shown by its stand-in, not as a `\u{..}` escape).
        parts.push(format!("search \"{}\"", crate::text::clean(&s.search)));
    }
    let count = s.list.items.len();
    if let Some(at) = s.list.cached_at {
        let now = crate::store::now_secs();
        parts.push(format!("cached {}", crate::domain::words::age(at, now)));
    }
    if s.list.local_search {
        parts.push(if s.offline.is_some() {
            "stored matches only (offline)".into()
        } else {
            "stored matches, searching the service…".into()
        });
    }
    // Narrowed rows are what was on screen, not what the service has.
    let tail = if s.list.narrowed.is_some() {
        "of those on screen"
    } else if s.list.loading {
        "loading…"
    } else if s.list.error.is_some() {
        "error"
    } else if s.list.cached_at.is_some() {
        // The rows stored at the last run: the service may hold more (a
        // second taskdeck offline said "50 (all)" of a list with pages
        // more).
        "as stored"
    } else if s.list.end_reached {
        "all"
    } else {
        "more below"
    };
    parts.push(format!("{count} ({tail})"));
    if let Some(m) = s.marks_text() {
        parts.push(m);
    }
    crate::text::clean(&parts.join(" | "))
}

/// Draw the list; returns (visible rows, first row shown) for the state.
pub fn draw(
    f: &mut Frame,
    area: Rect,
    s: &State,
    theme: &Theme,
    m: &mut Metrics,
) -> (usize, usize) {
    let focused = s.focus == Focus::List;
    // The frame's inside does not depend on its title: the rows shown, and
    // so how many sit above them, are known before the title is written.
    let inner = theme.pane(String::new(), focused).inner(area);
    let rows = (inner.height as usize).saturating_sub(1);
    let offset = s.list.first_shown(rows.max(1));
    let mut title = title_line(s);
    if offset > 0 && inner.height >= 2 {
        // Rows scrolled out of sight above are said, as those below are.
        title.push_str(&format!(" | {offset} above"));
    }
    let block = theme.pane(title, focused);
    f.render_widget(block, area);
    if inner.height < 2 {
        return (s.list_height, s.list.offset);
    }
    let width = inner.width as usize;

    let wide = width >= 100;
    // The title always keeps room: narrow lists drop the priority column.
    // A value's column holds its longest known value and a blank column
    // (`cut::cell`); a value the service added is cut (`criti…`).
    let w_pri = if width < 62 {
        0
    } else {
        (*PRIORITY_WIDTH).max(4) + 1
    };
    let (w_id, w_status, w_due, w_who) = (7, *STATUS_WIDTH + 1, 13, if wide { 16 } else { 0 });
    // With marks, a mark column: `●` marked, `✗` its bulk edit failed.
    let w_mark = usize::from(!s.marks.is_empty());
    let fixed = 2 + w_mark + w_id + w_pri + w_status + w_due + w_who;
    let w_rest = width.saturating_sub(fixed);
    let mut lines: Vec<Line> = Vec::with_capacity(rows + 1);
    let mut header = format!(
        "  {}{}{}{}{}",
        " ".repeat(w_mark),
        fit("#", w_id),
        if w_pri > 0 {
            fit("PRIO", w_pri)
        } else {
            String::new()
        },
        fit("STATUS", w_status),
        fit("DUE", w_due)
    );
    if wide {
        header.push_str(&fit("ASSIGNEE", w_who));
    }
    header.push_str(&fit("TITLE  [tags]", w_rest));
    lines.push(Line::styled(header, theme.dim.add_modifier(Modifier::BOLD)));

    let now = crate::clock::timestamp();
    let on_current = s.cursor_on_current();
    let end = (offset + rows).min(s.list.items.len());
    for i in offset..end {
        let item = &s.list.items[i];
        let selected = i == s.list.selected;
        let y = inner.y + 1 + (i - offset) as u16;
        m.hit(Rect::new(inner.x, y, inner.width, 1), Hit::ListRow(i));
        if selected {
            m.focus_at(inner.x, y);
        }
        let mut line = match item {
            TaskItem::Task(t) => task_row(
                t,
                s,
                theme,
                now,
                (w_id, w_pri, w_status, w_due, w_who, w_rest),
            ),
            TaskItem::Unreadable(u) => Line::from(Span::styled(
                fit(
                    &format!(
                        "  ? unreadable item {}: {}",
                        u.id.as_deref()
                            .map(crate::api::short_id)
                            .unwrap_or_default(),
                        u.reason
                    ),
                    width,
                ),
                theme.error,
            )),
        };
        if selected {
            // The cursor is inactive (`-`, not highlighted) while the
            // current task was opened from elsewhere.
            let (style, mark) = if !on_current {
                (theme.dim.add_modifier(Modifier::UNDERLINED), "-")
            } else if focused {
                (theme.selected, theme.current_mark())
            } else {
                (
                    theme.selected.remove_modifier(Modifier::BOLD),
                    theme.current_mark(),
                )
            };
            line = line.patch_style(style);
            if let Some(first) = line.spans.first_mut() {
                let rest: String = first.content.chars().skip(1).collect();
                first.content = format!("{mark}{rest}").into();
            }
        }
        lines.push(line);
    }
    if lines.len() <= rows {
        if s.list.loading {
            lines.push(Line::styled("  loading…", theme.pending));
        } else if let Some(e) = &s.list.error {
            lines.push(Line::styled(
                format!("  ERROR: {e} (r retries)"),
                theme.error,
            ));
        } else if s.list.items.is_empty() {
            lines.push(Line::styled("  no tasks match", theme.dim));
        } else if s.list.end_reached {
            lines.push(Line::styled("  — end of list —", theme.dim));
        }
    }
    f.render_widget(Paragraph::new(lines), inner);
    (rows, offset)
}

fn task_row<'a>(
    t: &'a Task,
    s: &State,
    theme: &Theme,
    now: jiff::Timestamp,
    (w_id, w_pri, w_status, w_due, w_who, w_rest): (usize, usize, usize, usize, usize, usize),
) -> Line<'a> {
    let pending = s.pending.iter().any(|p| p.task_id == t.id);
    // Changed on the service since the last refresh, or since the user
    // last opened it.
    let changed = s.list.changed.contains(t.id.as_str()) || s.changed_since_seen(t);
    let (mark, mark_style) = if pending {
        ("…", theme.pending)
    } else if changed {
        ("*", theme.pending)
    } else if s.inbox.last.unread.contains(t.id.as_str()) {
        // In the inbox (and not changed since seen: `*` says more).
        ("»", theme.accent)
    } else if s.row_unchecked(t.id.as_str(), crate::clock::instant()) {
        // Its page was not asked again for a while (a long list's rows
        // far from the screen): asked when it comes into view.
        ("·", theme.dim)
    } else {
        (" ", theme.pending)
    };
    let failed = s.marks.error(t.id.as_str());
    let marked = match (s.marks.is_empty(), s.marks.contains(t.id.as_str()), failed) {
        (true, ..) => "",
        // `✗`, not `!`: `!` means overdue in the list and on the board.
        (false, true, Some(_)) => "✗",
        (false, true, None) => "●",
        (false, false, _) => " ",
    };
    let (due, overdue) = match t.due() {
        Some(d) => dates::due_text(d, now, t.status == crate::api::Status::Completed),
        None => ("-".into(), false),
    };
    let mut spans = vec![
        Span::styled(mark, mark_style),
        Span::styled(
            format!("{marked} "),
            theme.accent.add_modifier(Modifier::BOLD),
        ),
        Span::styled(cell(&t.label(), w_id), theme.accent),
        Span::styled(
            if w_pri > 0 {
                cell(&t.priority.label(), w_pri)
            } else {
                String::new()
            },
            priority_style(&t.priority, theme),
        ),
        Span::raw(cell(&t.status.label(), w_status)),
        Span::styled(
            cell(&due, w_due),
            if overdue { theme.overdue } else { theme.base },
        ),
    ];
    if w_who > 0 {
        let who = t
            .assigned_to
            .as_ref()
            .map(|p| p.label())
            .unwrap_or_else(|| "-".into());
        spans.push(Span::styled(cell(&who, w_who), theme.dim));
    }
    let mut title = String::new();
    if let Some(e) = failed {
        title.push_str(&format!("[FAILED: {}] ", crate::text::clean(e)));
    }
    if t.draft {
        title.push_str("[DRAFT] ");
    }
    if t.archived {
        title.push_str("[ARCHIVED] ");
    }
    title.push_str(&t.title.line());
    if !t.tags.is_empty() {
        let tags: Vec<String> = t.tags.iter().map(|t| t.line().into_owned()).collect();
        title.push_str(&format!("  [{}]", tags.join(",")));
    }
    // Found by `/` in the store where the row does not show it: the
    // title gives way first (down to 12 columns), so the words it matched
    // stay whole; only one of the two is cut, unless the column is too
    // narrow for even that (issue 40 §3).
    let found = (!s.search.is_empty() && s.list.found_for == s.search)
        .then(|| s.list.found.get(t.id.as_str()))
        .flatten();
    let text = match found {
        Some(w) => {
            let words = crate::text::clean(w);
            let row = crate::cut::line(
                &[
                    Piece::cut(title.as_str(), 0, 12),
                    Piece::whole(" · "),
                    Piece::cut(words.as_str(), 1, 1),
                ],
                w_rest,
            );
            fit(&row, w_rest)
        }
        None => fit(&title, w_rest),
    };
    spans.push(Span::styled(
        text,
        if t.draft { theme.draft } else { theme.base },
    ));
    Line::from(spans)
}

/// The views as tabs over the list (#26 §3): `key name count` each, the
/// current one highlighted (reversed without colour). Too many for the
/// width: the strip scrolls to keep the current tab in sight, `‹` `›`
/// saying more are off to that side.
pub fn draw_tabs(f: &mut Frame, area: Rect, s: &State, theme: &Theme, m: &mut Metrics) {
    let tabs = s.tabs();
    if tabs.is_empty() || area.width == 0 {
        return;
    }
    let labels: Vec<String> = tabs
        .iter()
        .map(|t| {
            let mut l = String::from(" ");
            if let Some(k) = &t.key {
                l.push_str(&format!("{k} "));
            }
            let name = crate::text::clean(&t.name);
            l.push_str(fit(&name, name.width().min(18)).trim_end());
            if let Some(c) = &t.count {
                l.push_str(&format!(" {c}"));
            }
            l.push(' ');
            l
        })
        .collect();
    // The inbox first: a built-in view of its own kind (what needs you,
    // not a filter), opened with `i`.
    let inbox_open = matches!(s.overlay, crate::app::state::Overlay::Inbox(_));
    let mut labels = labels;
    labels.insert(
        0,
        match s.inbox.count() {
            0 => " i Inbox ".to_string(),
            n => format!(" i Inbox {n} "),
        },
    );
    let current: Vec<bool> = std::iter::once(inbox_open)
        .chain(tabs.iter().map(|t| t.current && !inbox_open))
        .collect();
    let (a, b) = tab_window(
        &labels,
        current.iter().position(|c| *c),
        area.width as usize,
    );
    let mut spans = vec![Span::styled(if a > 0 { "‹" } else { " " }, theme.dim)];
    let mut x = area.x + 1;
    for i in a..b {
        if i > a {
            spans.push(Span::styled(
                if theme.accessible { " " } else { "│" },
                theme.dim,
            ));
            x += 1;
        }
        let w = labels[i].width() as u16;
        m.hit(
            Rect::new(x, area.y, w, 1).intersection(area),
            Hit::ViewTab(i),
        );
        x += w;
        // Accessible mode: the current tab in brackets, not by style alone.
        if theme.accessible && current[i] {
            let inside = labels[i].trim();
            spans.push(Span::styled(format!("[{inside}]"), theme.selected));
            continue;
        }
        let style = if current[i] {
            theme.selected
        } else if i == 0 && s.inbox.count() > 0 {
            theme.accent.add_modifier(ratatui::style::Modifier::BOLD)
        } else {
            theme.base
        };
        spans.push(Span::styled(labels[i].clone(), style));
    }
    if b < labels.len() {
        spans.push(Span::styled("›", theme.dim));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The tabs `a..b` shown in `width` columns: from the first (the inbox
/// and the first views stay in sight while they can), moved right only as
/// far as the current one (and the next) needs (a column each side is kept for `‹` `›`,
/// and one between tabs).
fn tab_window(labels: &[String], current: Option<usize>, width: usize) -> (usize, usize) {
    let w = |i: usize| labels[i].width() + 1;
    let room = width.saturating_sub(2);
    let cur = current.unwrap_or(0).min(labels.len() - 1);
    let (mut a, mut b, mut used) = (0, 0, 0);
    while b < labels.len() && (b == 0 || used + w(b) <= room) {
        used += w(b);
        b += 1;
    }
    // Scrolled: the tab after the current one shows too (what `→` of
    // the digits reaches next).
    let last = if cur >= b {
        (cur + 1).min(labels.len() - 1)
    } else {
        cur
    };
    while last >= b {
        used += w(b);
        b += 1;
        while used > room && a + 1 < b {
            used -= w(a);
            a += 1;
        }
    }
    (a, b)
}
