//! The task detail with its tabs.

use super::list::fit;
use super::Theme;
use crate::api::*;
use crate::app::fields::file_entries;
use crate::app::results::delivery_text;
use crate::app::state::*;
use crate::text::Untrusted;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
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
        None if d.task_id.starts_with('#') => format!("{} (looking for it…)", d.task_id),
        None if d.task_id.is_empty() => "unreadable item".into(),
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
    crate::text::clean(&out)
}

/// Draw the detail; returns (visible height, content height) of the body.
pub fn draw(f: &mut Frame, area: Rect, s: &State, theme: &Theme) -> (usize, usize) {
    let focused = s.focus == Focus::Detail;
    let block = theme.pane(header(s), focused);
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
        f.render_widget(Paragraph::new(text), body);
        return (body.height as usize, 0);
    };
    let width = body.width as usize;
    let (lines, selected_line): (Vec<Line>, Option<usize>) = match d.tab {
        Tab::Overview => (overview(t, s, theme), None),
        Tab::Comments => comments(s, d, theme, width),
        Tab::Requester => (requester(s, t, theme), None),
        Tab::Links => links(t, d, theme),
        Tab::Sharing => (sharing(d, theme), None),
        Tab::Files => files(t, d, theme),
        Tab::Subtasks => subtasks(d, theme, width),
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

fn kv<'a>(k: &str, v: impl Into<String>, theme: &Theme) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{k:>13}: "), theme.dim),
        Span::styled(v.into(), theme.base),
    ])
}

fn pending_suffix(s: &State, t: &Task, field: &str) -> Option<String> {
    s.pending_for(&t.id, field)
        .map(|p| format!("  … saving: {}", crate::text::clean(&p.value)))
}

fn field_line<'a>(
    k: &str,
    v: String,
    s: &State,
    t: &Task,
    field: &str,
    theme: &Theme,
    style: Style,
) -> Line<'a> {
    let mut spans = vec![
        Span::styled(format!("{k:>13}: "), theme.dim),
        Span::styled(v, style),
    ];
    if let Some(p) = pending_suffix(s, t, field) {
        spans.push(Span::styled(p, theme.pending));
    }
    Line::from(spans)
}

fn overview<'a>(t: &Task, s: &State, theme: &Theme) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    let mut badges = Vec::new();
    if t.draft {
        badges.push(Span::styled(" DRAFT (A accept, D reject) ", theme.badge));
        badges.push(Span::raw(" "));
    }
    if t.archived {
        badges.push(Span::styled(" ARCHIVED (x restores) ", theme.badge));
    }
    if !badges.is_empty() {
        out.push(Line::from(badges));
    }
    out.push(field_line(
        "title",
        t.title.line().into_owned(),
        s,
        t,
        "title",
        theme,
        theme.base.add_modifier(Modifier::BOLD),
    ));
    out.push(field_line(
        "status",
        t.status.label(),
        s,
        t,
        "status",
        theme,
        theme.base,
    ));
    out.push(field_line(
        "priority",
        if t.priority == Priority::NoPriority {
            "none".to_string()
        } else {
            t.priority.to_string()
        },
        s,
        t,
        "priority",
        theme,
        theme.base,
    ));
    let now = chrono::Utc::now();
    let due = match (t.due(), &t.complete_by) {
        (Some(d), _) => {
            // A completed task is not late, whatever its date.
            let (rel, late) = crate::app::dates::due_text(d, now, t.status == Status::Completed);
            let rel = rel.trim_start_matches('!').to_string();
            (
                format!("{} ({rel})", crate::app::dates::local_time(d)),
                late,
            )
        }
        (None, Some(raw)) => (
            format!("{} (unreadable date)", crate::text::clean(raw)),
            false,
        ),
        (None, None) => ("none".into(), false),
    };
    out.push(field_line(
        "due",
        if due.1 { format!("! {}", due.0) } else { due.0 },
        s,
        t,
        "complete_by",
        theme,
        if due.1 { theme.overdue } else { theme.base },
    ));
    out.push(field_line(
        "assigned to",
        t.assigned_to
            .as_ref()
            .map(person)
            .unwrap_or_else(|| "nobody".into()),
        s,
        t,
        "assigned_to",
        theme,
        theme.base,
    ));
    out.push(kv(
        "creator",
        t.creator.as_ref().map(person).unwrap_or_else(|| "?".into()),
        theme,
    ));
    out.push(kv(
        "team",
        t.team
            .as_ref()
            .map(|t| t.name.line().into_owned())
            .unwrap_or_else(|| "none".into()),
        theme,
    ));
    let tags = if t.tags.is_empty() {
        "none".into()
    } else {
        t.tags
            .iter()
            .map(|x| x.line().into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    out.push(field_line("tags", tags, s, t, "tags", theme, theme.base));
    out.push(kv(
        "visibility",
        t.visibility
            .as_ref()
            .map(|v| v.to_string())
            .unwrap_or_else(|| "?".into()),
        theme,
    ));
    if let Some(c) = &t.source_channel {
        out.push(kv("channel", c.line().into_owned(), theme));
    }
    for (label, field, v) in [
        ("agent", "assigned_agent", &t.assigned_agent),
        ("assigned team", "assigned_team", &t.assigned_team),
        ("matter", "matter", &t.matter),
    ] {
        let lines = json_lines(v);
        let mut first = field_line(
            label,
            lines.first().cloned().unwrap_or_else(|| "none".into()),
            s,
            t,
            field,
            theme,
            theme.base,
        );
        if lines.len() <= 1 {
            out.push(first);
        } else {
            first = kv(label, String::new(), theme);
            out.push(first);
            out.extend(
                lines
                    .into_iter()
                    .map(|l| Line::styled(format!("{:>15}{l}", ""), theme.base)),
            );
        }
    }
    out.push(kv("created", when(t.created_at.as_deref()), theme));
    out.push(kv("updated", when(t.updated_at.as_deref()), theme));
    out.push(kv("id", t.id.to_string(), theme));
    out.push(Line::raw(""));
    out.push(section(
        "Description",
        s.pending_for(&t.id, "description").is_some(),
        theme,
    ));
    out.extend(multiline(t.description.as_ref(), theme));
    out.push(Line::raw(""));
    out.push(section(
        "Additional context",
        s.pending_for(&t.id, "additional_context").is_some(),
        theme,
    ));
    out.extend(multiline(t.additional_context.as_ref(), theme));
    out.push(Line::raw(""));
    out.push(section(
        &format!("People ({})", t.involved_people.len()),
        false,
        theme,
    ));
    for m in &t.involved_people {
        out.push(Line::raw(format!(
            "  {} <{}>  {}  {}",
            m.name.line(),
            m.email.line(),
            m.role
                .as_ref()
                .map(|r| r.line().into_owned())
                .unwrap_or_else(|| "-".into()),
            m.access_level
                .as_ref()
                .map(|a| a.to_string())
                .unwrap_or_else(|| "-".into())
        )));
    }
    if !t.shared_teams.is_null() && *t.shared_teams != serde_json::json!([]) {
        out.push(section("Shared teams", false, theme));
        out.extend(
            json_lines(&t.shared_teams)
                .into_iter()
                .map(|l| Line::raw(format!("  {l}"))),
        );
    }
    out.push(Line::raw(""));
    out.push(section(
        &format!("Links ({})", t.linked_items.len()),
        false,
        theme,
    ));
    out.extend(
        t.linked_items
            .iter()
            .map(|l| Line::raw(format!("  {}", link_text(l)))),
    );
    let files = file_entries(t);
    out.push(Line::raw(""));
    out.push(section(&format!("Files ({})", files.len()), false, theme));
    out.extend(
        files
            .iter()
            .map(|(dir, v)| Line::raw(format!("  {dir:<6} {}", file_text(v)))),
    );
    if !t.extra.is_empty() {
        out.push(Line::raw(""));
        out.push(section(
            "Other fields (unknown to this client)",
            false,
            theme,
        ));
        for (k, v) in t.extra.iter() {
            for l in json_lines(v) {
                out.push(Line::raw(format!("  {}: {l}", crate::text::clean(k))));
            }
        }
    }
    out
}

/// One style for every timestamp: the local time with its zone,
/// `2026-11-22 09:05 EST`.
fn when(ts: Option<&str>) -> String {
    crate::app::dates::when(ts)
}

fn section<'a>(title: &str, pending: bool, theme: &Theme) -> Line<'a> {
    let mut spans = vec![Span::styled(
        title.to_string(),
        theme.accent.add_modifier(Modifier::BOLD),
    )];
    if pending {
        spans.push(Span::styled("  … saving", theme.pending));
    }
    Line::from(spans)
}

fn multiline<'a>(t: Option<&Untrusted>, theme: &Theme) -> Vec<Line<'a>> {
    match t {
        Some(t) if !t.is_empty() => t
            .text()
            .lines()
            .map(|l| Line::raw(format!("  {l}")))
            .collect(),
        _ => vec![Line::styled("  (none)", theme.dim)],
    }
}

fn person(p: &Person) -> String {
    if p.email.is_empty() {
        p.label()
    } else {
        format!("{} <{}>", p.label(), p.email.line())
    }
}

pub fn link_text(l: &LinkedItem) -> String {
    let role = l
        .role
        .as_ref()
        .map(|r| r.to_string())
        .unwrap_or_else(|| "-".into());
    let mut s = format!(
        "{:<7} {:<10} {}",
        l.kind.to_string(),
        role,
        l.display_name.line()
    );
    if l.is_output && l.role != Some(LinkRole::Output) {
        s.push_str("  (output)");
    }
    if let Some(c) = &l.context {
        let ids: Vec<String> = c.check_ids.iter().map(|i| i.line().into_owned()).collect();
        s.push_str(&format!(
            "  checks: {}",
            if ids.is_empty() {
                "none".into()
            } else {
                ids.join(", ")
            }
        ));
    }
    s
}

pub fn file_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(m) => {
            let get = |k: &str| {
                m.get(k).map(|v| match v {
                    serde_json::Value::String(s) => crate::text::clean(s),
                    other => other.to_string(),
                })
            };
            let name = get("name")
                .or_else(|| get("filename"))
                .or_else(|| get("file_name"));
            let size = get("size_bytes").or_else(|| get("size"));
            let kind = get("content_type")
                .or_else(|| get("mime_type"))
                .or_else(|| get("type"));
            let id = get("id").or_else(|| get("file_id")).unwrap_or_default();
            match name {
                Some(n) => {
                    let mut s = n;
                    if let Some(sz) = size {
                        s.push_str(&format!("  {sz} bytes"));
                    }
                    if let Some(k) = kind {
                        s.push_str(&format!("  {k}"));
                    }
                    s.push_str(&format!("  id {id}"));
                    s
                }
                None => json_lines(v).join(", "),
            }
        }
        other => json_summary(other),
    }
}

fn row_style(selected: bool, theme: &Theme) -> Style {
    if selected {
        theme.selected
    } else {
        theme.base
    }
}

fn comments<'a>(
    s: &State,
    d: &Detail,
    theme: &Theme,
    width: usize,
) -> (Vec<Line<'a>>, Option<usize>) {
    let mut out = Vec::new();
    match &d.comments {
        Load::Loading => out.push(Line::styled("loading comments…", theme.pending)),
        Load::Failed(e) => out.push(Line::styled(format!("ERROR: {e}"), theme.error)),
        _ => {}
    }
    if d.comments_local_only {
        out.push(Line::styled(
            "This service cannot list comments: shown are those written or edited here since taskdeck started.",
            theme.warn,
        ));
    }
    let rows = s.comment_rows();
    if rows.is_empty() && matches!(d.comments, Load::Loaded(_)) {
        out.push(Line::styled("no comments yet — c writes one", theme.dim));
    }
    let mut selected_line = None;
    let me = s.my_id();
    for (i, (depth, c)) in rows.iter().enumerate() {
        let selected = i == d.cursor && s.focus == Focus::Detail;
        if selected {
            selected_line = Some(out.len());
        }
        let indent = "  ".repeat((*depth).min(8));
        let when = c
            .created_at
            .as_deref()
            .and_then(parse_timestamp)
            .map(crate::app::dates::local_time)
            .unwrap_or_default();
        let mut head = format!(
            "{indent}{} {}  {when}",
            if *depth > 0 { "└" } else { "●" },
            c.author.label()
        );
        if c.edited() {
            head.push_str("  (edited)");
        }
        if Some(c.author.id.as_str()) == me {
            head.push_str("  [you]");
        }
        out.push(Line::styled(
            fit(&head, width),
            row_style(selected, theme).add_modifier(Modifier::BOLD),
        ));
        for l in c.content.text().lines() {
            out.push(Line::raw(format!("{indent}  {l}")));
        }
        if !c.file_ids.is_empty() {
            let ids: Vec<String> = c.file_ids.iter().map(|f| f.line().into_owned()).collect();
            out.push(Line::styled(
                format!("{indent}  files: {}", ids.join(", ")),
                theme.dim,
            ));
        }
        if !c.mentioned_users.is_null() && *c.mentioned_users != serde_json::json!([]) {
            out.push(Line::styled(
                format!(
                    "{indent}  mentions: {}",
                    json_lines(&c.mentioned_users).join("; ")
                ),
                theme.dim,
            ));
        }
    }
    out.push(Line::raw(""));
    out.push(Line::styled(
        "c comment · u reply to selected · w edit my comment · comments are internal",
        theme.dim,
    ));
    (out, selected_line)
}

fn requester<'a>(s: &State, t: &Task, theme: &Theme) -> Vec<Line<'a>> {
    let mut out = vec![
        Line::styled(
            "Replies here reach the person who requested the task, over its origin channel.",
            theme.warn,
        ),
        Line::styled(
            "For a note the requester never sees, use Comments (internal).",
            theme.dim,
        ),
        Line::raw(""),
    ];
    if let Some(c) = &t.source_channel {
        out.push(kv("channel", c.line().into_owned(), theme));
    }
    let d = s.detail.as_ref();
    match d.map(|d| &d.thread) {
        Some(Load::Loading) => out.push(Line::styled("loading the thread…", theme.pending)),
        Some(Load::Failed(e)) => out.push(Line::styled(format!("ERROR: {e}"), theme.error)),
        _ => {}
    }
    if d.is_some_and(|d| d.thread_unavailable) {
        out.push(Line::styled(
            "This service does not list the thread: shown are the replies sent from here since taskdeck started.",
            theme.warn,
        ));
    }
    // The thread as the service lists it, plus this session's replies.
    let mut messages: Vec<&RequesterMessage> = match d.map(|d| &d.thread) {
        Some(Load::Loaded(v)) => v.iter().collect(),
        _ => vec![],
    };
    for m in s.replies.get(t.id.as_str()).into_iter().flatten() {
        if !messages.iter().any(|x| x.id == m.id) {
            messages.push(m);
        }
    }
    messages.sort_by(|a, b| a.created_at.cmp(&b.created_at));
    if messages.is_empty() {
        out.push(Line::styled(
            "No messages yet — R writes a reply.",
            theme.dim,
        ));
    }
    for m in messages {
        let when = m
            .created_at
            .as_deref()
            .and_then(parse_timestamp)
            .map(crate::app::dates::local_time)
            .unwrap_or_default();
        let who = m
            .sender_display_name
            .as_ref()
            .map(|n| n.line().into_owned())
            .or_else(|| m.sender.as_ref().map(|p| p.label()))
            .unwrap_or_else(|| "?".into());
        let outbound = m.direction.as_ref().is_none_or(|d| d.raw() == "outbound");
        let mut head = vec![Span::styled(
            format!("{} {who}  {when}", if outbound { "->" } else { "<-" }),
            theme.base.add_modifier(Modifier::BOLD),
        )];
        if outbound {
            let status = delivery_text(m.delivery_status.as_ref());
            let style = match m.delivery_status {
                Some(DeliveryStatus::Sent) => theme.success.add_modifier(Modifier::BOLD),
                _ => theme.draft,
            };
            head.push(Span::styled(format!("  [{status}]"), style));
        } else if let Some(dir) = &m.direction {
            head.push(Span::styled(format!("  ({})", dir.line()), theme.dim));
        }
        out.push(Line::from(head));
        for l in m.content.text().lines() {
            out.push(Line::raw(format!("   {l}")));
        }
        if !m.file_ids.is_empty() {
            let ids: Vec<String> = m.file_ids.iter().map(|f| f.line().into_owned()).collect();
            out.push(Line::styled(
                format!("   files: {}", ids.join(", ")),
                theme.dim,
            ));
        }
        out.push(Line::raw(""));
    }
    out
}

fn links<'a>(t: &Task, d: &Detail, theme: &Theme) -> (Vec<Line<'a>>, Option<usize>) {
    let mut out = Vec::new();
    if t.linked_items.is_empty() {
        out.push(Line::styled("no links — l adds one (type + id)", theme.dim));
    }
    for (i, l) in t.linked_items.iter().enumerate() {
        out.push(Line::styled(
            format!("  {}", link_text(l)),
            row_style(i == d.cursor, theme),
        ));
    }
    out.push(Line::raw(""));
    out.push(Line::styled(
        "l add · o role · i check ids (reviews) · X remove · Enter opens a task link",
        theme.dim,
    ));
    (out, Some(d.cursor))
}

fn sharing<'a>(d: &Detail, theme: &Theme) -> Vec<Line<'a>> {
    match &d.sharing {
        Load::Loaded(sh) => {
            let mut out = vec![
                kv("visibility", sh.visibility.to_string(), theme),
                Line::raw(""),
            ];
            out.push(section(
                &format!("People ({})", sh.users.len()),
                false,
                theme,
            ));
            for u in &sh.users {
                out.push(Line::raw(format!(
                    "  {} <{}>  {}  {}",
                    u.name.line(),
                    u.email.line(),
                    u.role
                        .as_ref()
                        .map(|r| r.line().into_owned())
                        .unwrap_or_default(),
                    u.access_level
                        .as_ref()
                        .map(|a| a.to_string())
                        .unwrap_or_default()
                )));
            }
            out.push(section(
                &format!("Teams ({})", sh.teams.len()),
                false,
                theme,
            ));
            for t in &sh.teams {
                out.push(Line::raw(format!(
                    "  {}  {}",
                    t.name.line(),
                    t.access_level
                        .as_ref()
                        .map(|a| a.to_string())
                        .unwrap_or_default()
                )));
            }
            out.push(Line::raw(""));
            out.push(Line::styled(
                "S edits sharing (you see who gains and loses access before saving)",
                theme.dim,
            ));
            out
        }
        Load::Failed(e) => vec![Line::styled(format!("ERROR: {e}"), theme.error)],
        _ => vec![Line::styled("loading sharing…", theme.pending)],
    }
}

fn files<'a>(t: &Task, d: &Detail, theme: &Theme) -> (Vec<Line<'a>>, Option<usize>) {
    let entries = file_entries(t);
    let mut out = Vec::new();
    if entries.is_empty() {
        out.push(Line::styled(
            "no files — F attaches uploaded files by id",
            theme.dim,
        ));
    }
    for (i, (dir, v)) in entries.iter().enumerate() {
        out.push(Line::styled(
            format!("  {dir:<6} {}", file_text(v)),
            row_style(i == d.cursor, theme),
        ));
    }
    out.push(Line::raw(""));
    out.push(Line::styled(
        "F attach by id · X detach selected (the file itself is not deleted)",
        theme.dim,
    ));
    (out, Some(d.cursor))
}

fn subtasks<'a>(d: &Detail, theme: &Theme, width: usize) -> (Vec<Line<'a>>, Option<usize>) {
    let mut out = Vec::new();
    match &d.subtasks {
        Load::Loaded(v) => {
            if v.is_empty() {
                out.push(Line::styled("no subtasks — n creates one", theme.dim));
            }
            for (i, item) in v.iter().enumerate() {
                let text = match item {
                    TaskItem::Task(t) => format!(
                        "  {:<7} {:<12} {}",
                        t.label(),
                        t.status.label(),
                        t.title.line()
                    ),
                    TaskItem::Unreadable { reason, .. } => {
                        format!("  ? unreadable subtask: {reason}")
                    }
                };
                out.push(Line::styled(
                    fit(&text, width),
                    row_style(i == d.cursor, theme),
                ));
            }
        }
        Load::Failed(e) => out.push(Line::styled(format!("ERROR: {e}"), theme.error)),
        _ => out.push(Line::styled("loading subtasks…", theme.pending)),
    }
    out.push(Line::raw(""));
    out.push(Line::styled(
        "Enter opens · n new subtask · Esc back",
        theme.dim,
    ));
    (out, Some(d.cursor))
}
