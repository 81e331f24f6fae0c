//! Requester: the thread with the person who asked for the task.

use super::files::attached;
use super::parts::*;
use crate::domain::words::delivery_text;

pub(super) fn requester<'a>(t: &Task, cx: &Cx<'_>) -> Vec<Line<'a>> {
    let (s, theme) = (cx.s, cx.theme);
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
    messages.sort_by(|a, b| {
        crate::api::chronological(a.created_at.as_deref(), b.created_at.as_deref())
    });
    if messages.is_empty() {
        out.push(Line::styled(
            empty_line(
                s,
                "No messages yet",
                crate::app::keymap::Action::ReplyRequester,
                "writes a reply.",
            ),
            theme.dim,
        ));
    } else {
        out.push(Line::styled(
            count(messages.len(), "message", "messages"),
            theme.dim,
        ));
    }
    for m in messages {
        // An unreadable time is shown as received, sanitised.
        let when = m
            .created_at
            .as_deref()
            .map(|raw| crate::domain::dates::when(Some(raw)))
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
        if s.is_new_message(m.id.as_str()) {
            head.push(Span::styled(
                "  NEW",
                theme.accent.add_modifier(Modifier::BOLD),
            ));
        }
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
        out.extend(cx.text(Some(&m.content), "   "));
        out.extend(attached(t, &m.file_ids, "   ", theme));
        out.push(Line::raw(""));
    }
    out
}
