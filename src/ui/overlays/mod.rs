//! Popups: help, palette, search, confirmations, composer, pickers.

use super::clear::{centered, clear_area, popup};
use super::help::help_lines;
use super::metrics::Metrics;
use super::Theme;
use crate::app::popups::palette;
use crate::app::state::command;
use crate::app::state::{Compose, ComposeKind, Overlay, SendState, State};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

/// A tall popup one row lower: the panes' titles (which task) stay in
/// sight under the views' tabs.
fn below_titles(r: Rect) -> Rect {
    let down = u16::from(r.height > 3);
    Rect::new(r.x, r.y + down, r.width, r.height - down)
}

pub fn draw(f: &mut Frame, area: Rect, s: &State, theme: &Theme, m: &mut Metrics) {
    if !matches!(s.overlay, Overlay::None) {
        // Under a popup, the panes take no click.
        m.hits.clear();
    }
    match &s.overlay {
        Overlay::None => {}
        Overlay::Help { filter, scroll } => {
            let r = below_titles(centered(area, 100, area.height.saturating_sub(4)));
            let inner = popup(f, r, "Help — type to filter, Esc closes", theme);
            let [input, body] =
                Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(inner);
            f.render_widget(Paragraph::new(format!("filter: {}_", filter.text)), input);
            m.focus_at(input.x + 8 + filter.cursor as u16, input.y);
            let lines: Vec<Line> = help_lines(s, &filter.text)
                .into_iter()
                .map(|l| {
                    if l.starts_with("  ") {
                        Line::raw(l)
                    } else {
                        Line::styled(l, theme.accent.add_modifier(Modifier::BOLD))
                    }
                })
                .collect();
            f.render_widget(
                Paragraph::new(lines)
                    .wrap(Wrap { trim: false })
                    .scroll((*scroll, 0)),
                body,
            );
        }
        Overlay::Palette(p) => {
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
            let mut lines = vec![Line::from(vec![
                Span::styled(":", theme.accent),
                Span::raw(crate::text::clean(&p.input.text)),
                Span::styled("_", theme.dim),
            ])];
            let hint = completions.iter().enumerate().take(12).map(|(i, c)| {
                let name = c.split(' ').next().unwrap_or("");
                let desc = command::spec(name)
                    .map(|c| format!("{}  — {}", c.args, c.help))
                    .unwrap_or_default();
                let text = if let Some(d) = sources.describe(c) {
                    format!("  {}  — {}", crate::text::clean(c), crate::text::clean(d))
                } else if c.contains(' ') {
                    format!("  {}", crate::text::clean(c))
                } else {
                    format!("  {c} {desc}")
                };
                Line::styled(
                    theme.point(text, i == p.selected),
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
            let x = inner.x + 1 + p.input.cursor as u16;
            if x < inner.right() {
                m.caret_at(x, inner.y);
            }
        }
        Overlay::Search(b) => {
            // On the status line, not over the list: the first rows it
            // narrows stay in sight (#26 §2).
            let r = Rect::new(area.x, area.bottom().saturating_sub(2), area.width, 1);
            let about = match s.list.narrowed {
                Some(of) => format!("  {} of {of} rows match · ", s.list.items.len()),
                None => "  ".into(),
            };
            let line = Line::from(vec![
                Span::styled(
                    format!("/{}_", crate::text::clean(&b.input.text)),
                    theme.accent,
                ),
                Span::styled(
                    about + "title, #number, tags, assignee, then the service",
                    theme.dim,
                ),
            ]);
            f.render_widget(ratatui::widgets::Clear, r);
            f.render_widget(Paragraph::new(line), r);
            m.focus_at(r.x + 1 + b.input.cursor as u16, r.y);
        }
        Overlay::Confirm { lines, .. } => {
            let h = lines.len() as u16 + 4;
            let r = centered(area, 80, h);
            let inner = popup(f, r, "Confirm", theme);
            m.focus_at(inner.x, inner.y);
            let mut ls: Vec<Line> = lines
                .iter()
                .map(|l| {
                    if l.starts_with("!!") {
                        Line::styled(l.clone(), theme.error)
                    } else {
                        Line::raw(l.clone())
                    }
                })
                .collect();
            ls.push(Line::raw(""));
            ls.push(Line::styled("y yes · n / Esc no", theme.accent));
            f.render_widget(Paragraph::new(ls).wrap(Wrap { trim: false }), inner);
        }
        Overlay::Compose(c) => draw_compose(f, area, c, theme, m),
        Overlay::Text {
            title,
            lines,
            scroll,
        } => {
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
                    .scroll((*scroll, 0)),
                inner,
            );
        }
        Overlay::Picker(p) => {
            let r = centered(area, 80, p.candidates.len() as u16 + 4);
            let inner = popup(f, r, "Which one? (Enter chooses, Esc cancels)", theme);
            let mut ls = vec![Line::raw(format!(
                "{:?} matches more than one {}:",
                crate::text::clean(&p.reference),
                if p.team { "team" } else { "person" }
            ))];
            for (i, (id, label)) in p.candidates.iter().enumerate() {
                m.row(inner, inner.y + 1 + i as u16, i, i == p.selected);
                ls.push(Line::styled(
                    theme.point(
                        format!("  {label}  ({})", crate::text::clean(id)),
                        i == p.selected,
                    ),
                    if i == p.selected {
                        theme.selected
                    } else {
                        theme.base
                    },
                ));
            }
            f.render_widget(Paragraph::new(ls), inner);
        }
        Overlay::Filter(form) => draw_filter(f, area, form, theme, m),
        Overlay::Chooser(c) => super::chooser::draw(f, area, c, theme, m),
        Overlay::Views(sw) => draw_switcher(f, area, s, sw, theme, m),
        Overlay::Inbox(list) => super::inbox::draw(f, area, s, list, theme, m),
        Overlay::Conflict(v) => super::inbox::draw_conflict(f, area, v, theme, m),
        Overlay::Sharing(ed) => {
            let r = centered(area, 90, ed.rows() as u16 + 9);
            let inner = popup(
                f,
                r,
                &format!(
                    "Sharing of {} (edits a copy; Enter reviews before saving)",
                    crate::text::clean(&ed.task_label)
                ),
                theme,
            );
            let sel = |i: usize| {
                if i == ed.cursor {
                    theme.selected
                } else {
                    theme.base
                }
            };
            // Row `i` of the editor is drawn on line `at(i)` of the popup.
            let at = |i: usize| match i {
                0 => 0,
                i if i <= ed.users.len() => i + 1,
                i => i + 2,
            };
            for i in 0..ed.rows() {
                m.row(inner, inner.y + at(i) as u16, i, i == ed.cursor);
            }
            let mut ls = vec![Line::styled(
                if theme.accessible {
                    theme.point(format!("visibility: {}", ed.visibility), ed.cursor == 0)
                } else {
                    format!("visibility: {}", ed.visibility)
                },
                sel(0),
            )];
            ls.push(Line::styled("people:", theme.accent));
            for (i, g) in ed.users.iter().enumerate() {
                ls.push(Line::styled(
                    theme.point(
                        format!("  {}  {}", crate::text::clean(&g.label), g.access),
                        ed.cursor == i + 1,
                    ),
                    sel(i + 1),
                ));
            }
            ls.push(Line::styled("teams:", theme.accent));
            for (i, g) in ed.teams.iter().enumerate() {
                ls.push(Line::styled(
                    theme.point(
                        format!("  {}  {}", crate::text::clean(&g.label), g.access),
                        ed.cursor == i + 1 + ed.users.len(),
                    ),
                    sel(i + 1 + ed.users.len()),
                ));
            }
            ls.push(Line::raw(""));
            if let Some(n) = &ed.note {
                ls.push(Line::styled(
                    format!("not saved: {}", crate::text::clean(n)),
                    theme.error,
                ));
            }
            if let Some((kind, input)) = &ed.adding {
                let label = if *kind == crate::app::popups::sharing::Adding::Team {
                    "add team: "
                } else {
                    "add person: "
                };
                let y = inner.y + ls.len() as u16;
                m.focus_at(inner.x + (label.len() + input.cursor) as u16, y);
            }
            match &ed.adding {
                Some((kind, input)) => ls.push(Line::raw(format!(
                    "add {}: {}_   (id, e-mail or name, then optional read|write; Enter adds)",
                    if *kind == crate::app::popups::sharing::Adding::Team { "team" } else { "person" },
                    crate::text::clean(&input.text)
                ))),
                None => ls.push(Line::styled("j/k move · v visibility · space read/write · a add person · t add team · d remove · Enter review · Esc cancel", theme.dim)),
            }
            f.render_widget(Paragraph::new(ls).wrap(Wrap { trim: false }), inner);
        }
    }
}

fn draw_compose(f: &mut Frame, area: Rect, c: &Compose, theme: &Theme, m: &mut Metrics) {
    let r = centered(area, 100, area.height.saturating_sub(6).max(10));
    let title = format!("{} — {}", c.kind.title(), crate::text::clean(&c.task_label));
    clear_area(f.buffer_mut(), r);
    let b = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focus)
        .title(Span::styled(title, theme.accent));
    let b = theme.frame(b);
    let inner = b.inner(r);
    f.render_widget(b, r);
    let banner_rows = if c.note.is_some() { 2 } else { 1 };
    let [banner, body, files, status] = Layout::vertical([
        Constraint::Length(banner_rows),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let banner_text = match c.kind {
        ComposeKind::Requester if c.note.is_some() => Line::styled(
            format!(
                "To the REQUESTER. {}",
                c.note.as_deref().unwrap_or_default()
            ),
            theme.warn,
        ),
        ComposeKind::TextField { .. } => Line::styled(
            "Saved to the task with ctrl-s (an empty text clears it).",
            theme.dim,
        ),
        ComposeKind::Requester => Line::styled(
            "This reply goes to the REQUESTER over the task's channel.",
            theme.warn,
        ),
        _ => Line::styled(
            "Internal comment: only people in the organisation see it.",
            theme.dim,
        ),
    };
    f.render_widget(
        Paragraph::new(banner_text).wrap(Wrap { trim: true }),
        banner,
    );
    f.render_widget(&c.editor, body);
    // The caret where the editor drew it: its display line and column
    // less its scroll, under the banner's title row when there is one.
    let at = c.editor.screen_cursor();
    let (top, left) = c.editor.scroll_offset();
    let (row, col) = (
        at.row.saturating_sub(top as usize),
        at.col.saturating_sub(left as usize),
    );
    let row = row + usize::from(c.banner.is_some());
    m.focus_at(
        body.x + (col as u16).min(body.width.saturating_sub(1)),
        body.y + (row as u16).min(body.height.saturating_sub(1)),
    );
    let files_line = if !c.kind.takes_files() {
        Line::styled("(no file ids here)", theme.dim)
    } else {
        Line::from(vec![
            Span::styled(
                "file ids: ",
                if c.files_focus {
                    theme.accent
                } else {
                    theme.dim
                },
            ),
            Span::raw(crate::text::clean(&c.file_ids.text)),
            Span::styled(if c.files_focus { "_" } else { "" }, theme.dim),
        ])
    };
    f.render_widget(Paragraph::new(files_line), files);
    if c.files_focus {
        m.focus_at(files.x + 10 + c.file_ids.cursor as u16, files.y);
    }
    let st = match &c.state {
        SendState::Editing if c.mention.is_some() => Line::styled(
            format!(
                "tab mentions: {}",
                crate::text::clean(c.mention.as_deref().unwrap_or(""))
            ),
            theme.accent,
        ),
        SendState::Editing => Line::styled(
            "ctrl-s send · ctrl-e $EDITOR · tab file ids (after @name: mention) · esc close (draft kept)",
            theme.dim,
        ),
        SendState::Sending(_) => Line::styled("sending…", theme.pending),
        // A 5xx, a timeout or a dropped connection may have reached the
        // service: never claim it was not sent.
        SendState::Failed {
            message,
            outcome_unknown: true,
        } => Line::styled(format!("OUTCOME UNKNOWN: {message}"), theme.error),
        SendState::Failed { message, .. } => {
            Line::styled(format!("NOT SENT: {message}"), theme.error)
        }
    };
    f.render_widget(Paragraph::new(st), status);
}

fn draw_filter(
    f: &mut Frame,
    area: Rect,
    form: &crate::app::popups::filter_form::FilterForm,
    theme: &Theme,
    m: &mut Metrics,
) {
    use crate::app::popups::filter_form::{ROWS, TEXT_LABELS};
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
        let cursor = if form.row == 5 + i { "_" } else { "" };
        let text = crate::text::clean(&form.text[i].text);
        if form.row == 5 + i {
            // The caret after the field's label (padded to 22 columns).
            let left = 3 + label.chars().count().max(22) + form.text[i].cursor;
            m.focus_at(inner.x + left as u16, inner.y + ls.len() as u16);
        }
        ls.push(Line::styled(
            theme.point(format!("  {label:<22} {text}{cursor}"), form.row == 5 + i),
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

fn draw_switcher(
    f: &mut Frame,
    area: Rect,
    s: &State,
    sw: &crate::app::popups::switcher::Switcher,
    theme: &Theme,
    m: &mut Metrics,
) {
    use crate::app::views::Count;
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
        .map(|v| v.name.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(4, 24);
    let filter_text = |v: &crate::app::views::View| {
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
            super::list::fit(&crate::text::clean(&v.name), name_w)
        );
        // One row per view: the filter is cut here and shown whole below.
        let rest = width.saturating_sub(head.chars().count());
        let text = format!("{head}{}", super::list::fit(&filter_text(v), rest));
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
