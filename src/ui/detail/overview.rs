//! Overview: every field of the task, the text as written, and summaries
//! of the other tabs.

use super::files::file_line;
use super::links::link_text;
use super::parts::*;
use crate::app::state::fields::file_entries;
use crate::domain::task_field::TaskField as F;

pub(super) fn overview<'a>(t: &Task, cx: &Cx<'_>) -> Vec<Line<'a>> {
    let (s, theme) = (cx.s, cx.theme);
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
        F::Title.label(),
        t.title.line().into_owned(),
        s,
        t,
        F::Title.wire(),
        theme,
        theme.base.add_modifier(Modifier::BOLD),
    ));
    if let Some(cut) = t.cut.as_deref() {
        // Read from a listing, bounded (issue 42 §2): say what was cut.
        out.push(Line::from(vec![
            Span::styled(format!("{:>LABEL$}: ", "Cut"), theme.dim),
            Span::styled(cut_words(cut), theme.warn),
        ]));
    }
    out.push(field_line(
        F::Status.label(),
        t.status.label(),
        s,
        t,
        F::Status.wire(),
        theme,
        theme.base,
    ));
    out.push(field_line(
        F::Priority.label(),
        if t.priority == Priority::NoPriority {
            "none".to_string()
        } else {
            t.priority.to_string()
        },
        s,
        t,
        F::Priority.wire(),
        theme,
        theme.base,
    ));
    let now = crate::clock::timestamp();
    // An empty due date (`""`) is none, not an unreadable one.
    let raw_due = t.complete_by.as_deref().filter(|r| !r.trim().is_empty());
    let due = match (t.due(), raw_due) {
        (Some(d), _) => {
            // A completed task is not late, whatever its date.
            let (rel, late) = crate::domain::dates::due_text(d, now, t.status == Status::Completed);
            let rel = rel.trim_start_matches('!').to_string();
            (
                format!("{} ({rel})", crate::domain::dates::local_time(d)),
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
        F::Due.label(),
        if due.1 { format!("! {}", due.0) } else { due.0 },
        s,
        t,
        F::Due.wire(),
        theme,
        if due.1 { theme.overdue } else { theme.base },
    ));
    out.push(field_line(
        F::AssignedTo.label(),
        t.assigned_to
            .as_deref()
            .map(person)
            .unwrap_or_else(|| "nobody".into()),
        s,
        t,
        F::AssignedTo.wire(),
        theme,
        theme.base,
    ));
    if let Some(pid) = t.parent_id() {
        // A subtask: its parent, as a link (`:parent` / P opens it).
        let label = s
            .list
            .position(&pid)
            .and_then(|i| s.list.items[i].task())
            .map(|p| format!("{} {}", p.label(), p.title.line()))
            .unwrap_or_else(|| crate::api::short_id(&pid));
        out.push(kv(
            "parent",
            format!("{} (P opens it)", crate::text::clean(&label)),
            theme,
        ));
    }
    out.push(kv(
        "creator",
        t.creator
            .as_deref()
            .map(person)
            .unwrap_or_else(|| "?".into()),
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
    out.push(field_line(
        F::Tags.label(),
        tags,
        s,
        t,
        F::Tags.wire(),
        theme,
        theme.base,
    ));
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
        ("agent", F::AssignedAgent.wire(), &t.assigned_agent),
        (
            F::AssignedTeam.label(),
            F::AssignedTeam.wire(),
            &t.assigned_team,
        ),
        (F::Matter.label(), F::Matter.wire(), &t.matter),
    ] {
        let lines = match crate::api::models::named(v) {
            Some(name) => vec![name],
            None => json_lines(v),
        };
        if lines.len() <= 1 {
            out.push(field_line(
                label,
                lines.first().cloned().unwrap_or_else(|| "none".into()),
                s,
                t,
                field,
                theme,
                theme.base,
            ));
        } else {
            out.push(kv(label, String::new(), theme));
            out.extend(
                lines
                    .into_iter()
                    .map(|l| Line::styled(format!("{:>w$}{l}", "", w = LABEL + 2), theme.base)),
            );
        }
    }
    out.push(kv("created", when(t.created_at.as_deref()), theme));
    out.push(kv("updated", when(t.updated_at.as_deref()), theme));
    out.push(kv("id", t.id.to_string(), theme));
    out.push(Line::raw(""));
    out.push(section(
        "Description",
        s.pending_for(&t.id, F::Description.wire()).is_some(),
        theme,
    ));
    out.extend(cx.text(t.description.as_ref(), "  "));
    out.push(Line::raw(""));
    out.push(section(
        "Additional context",
        s.pending_for(&t.id, F::AdditionalContext.wire()).is_some(),
        theme,
    ));
    out.extend(cx.text(t.additional_context.as_ref(), "  "));
    out.push(Line::raw(""));
    out.push(section(
        &format!("People ({})", t.involved_people.len()),
        false,
        theme,
    ));
    let people: Vec<_> = t
        .involved_people
        .iter()
        .map(|m| {
            (
                m.name.line().into_owned(),
                format!("<{}>", m.email.line()),
                m.role
                    .as_ref()
                    .map(|r| r.line().into_owned())
                    .unwrap_or_else(|| "-".into()),
                m.access_level
                    .as_ref()
                    .map(|a| a.to_string())
                    .unwrap_or_else(|| "-".into()),
            )
        })
        .collect();
    out.extend(member_rows(&people, theme));
    if !t.shared_teams.is_null() && *t.shared_teams != serde_json::json!([]) {
        out.push(section("Shared teams", false, theme));
        out.extend(
            t.shared_teams
                .as_array()
                .and_then(|a| a.iter().map(crate::api::models::named).collect())
                .unwrap_or_else(|| json_lines(&t.shared_teams))
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
    out.extend(files.iter().map(|(dir, v)| file_line(dir, v, theme.base)));
    let unknown = t
        .extra
        .iter()
        .filter(|(k, v)| !(k.as_str() == "parent_task_id" && (v.is_null() || v.is_string())))
        .count();
    if unknown > 0 {
        out.push(Line::raw(""));
        out.push(section(
            "Other fields (unknown to this client)",
            false,
            theme,
        ));
        for (k, v) in t
            .extra
            .iter()
            .filter(|(k, v)| !(k.as_str() == "parent_task_id" && (v.is_null() || v.is_string())))
        {
            for l in json_lines(v) {
                out.push(Line::raw(format!("  {}: {l}", crate::text::clean(k))));
            }
        }
    }
    out
}

/// What a listing cut of a task, one clause a field: `title cut at 4 KB
/// (600 KB received)`.
pub(crate) fn cut_words(cut: &[crate::api::bound::CutField]) -> String {
    use crate::domain::words::human_size;
    let mut parts: Vec<String> = cut
        .iter()
        .map(|c| {
            let field = crate::text::clean(&c.field);
            if c.kept == 0 {
                format!(
                    "{field} left out ({} received)",
                    human_size(c.received as u64)
                )
            } else {
                format!(
                    "{field} cut at {} ({} received)",
                    human_size(c.kept as u64),
                    human_size(c.received as u64)
                )
            }
        })
        .collect();
    parts.push("the whole task when the service answers for it".into());
    parts.join(", ")
}
