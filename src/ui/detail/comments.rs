//! Comments: the internal thread, replies under their parent.

use super::files::attached;
use super::parts::*;
use serde_json::Value;

pub(super) fn comments<'a>(t: &Task, d: &Detail, cx: &Cx<'_>) -> (Vec<Line<'a>>, Option<usize>) {
    let (s, theme, width) = (cx.s, cx.theme, cx.width);
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
        out.push(Line::styled(
            empty_line(
                s,
                "no comments yet",
                crate::app::keymap::Action::Comment,
                "writes one",
            ),
            theme.dim,
        ));
    } else if !rows.is_empty() {
        out.push(Line::styled(
            count(rows.len(), "comment", "comments"),
            theme.dim,
        ));
    }
    let mut selected_line = None;
    let me = s.my_id();
    for (i, (depth, c)) in rows.iter().enumerate() {
        let selected = i == d.cursor && s.focus == Focus::Detail;
        if selected {
            selected_line = Some(out.len());
        }
        let indent = "  ".repeat((*depth).min(8));
        // An unreadable time is shown as received, sanitised.
        let when = c
            .created_at
            .as_deref()
            .map(|raw| crate::domain::dates::when(Some(raw)))
            .unwrap_or_default();
        let mut head = format!(
            "{indent}{} {}  {when}",
            match (*depth > 0, theme.accessible) {
                // Words, not a line drawn to be read aloud.
                (true, true) => "reply from",
                (false, true) => "from",
                (true, false) => "└",
                (false, false) => "●",
            },
            c.author.label()
        );
        if c.edited() {
            head.push_str("  (edited)");
        }
        if Some(c.author.id.as_str()) == me {
            head.push_str("  [you]");
        }
        if s.is_new_comment(c.id.as_str()) {
            head.push_str("  NEW");
        }
        out.push(Line::styled(
            fit(&head, width),
            row_style(selected, theme).add_modifier(Modifier::BOLD),
        ));
        let body = format!("{indent}  ");
        out.extend(cx.text(Some(&c.content), &body));
        out.extend(attached(t, &c.file_ids, &body, theme));
        let names = mentions(&c.mentioned_users, s);
        if !names.is_empty() {
            out.push(Line::styled(
                format!("{body}mentions: {}", names.join(", ")),
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

/// The people a comment mentions, as `@Name`: from the person objects the
/// service sends, or from ids of people seen elsewhere.
pub(super) fn mentions(v: &Value, s: &State) -> Vec<String> {
    // A person the directory knows, by id: their name, else their e-mail.
    let known = |id: &str| {
        s.directory.people.get(id).and_then(|p| {
            Some(crate::text::name_or_email(&p.name, &p.email))
                .filter(|x| !x.trim().is_empty())
                .map(crate::text::clean)
        })
    };
    let one = |v: &Value| -> String {
        let text = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .filter(|x| !x.trim().is_empty())
                .map(crate::text::clean)
        };
        match v {
            Value::Object(_) => Some(crate::text::name_or_email(
                v.get("name").and_then(Value::as_str).unwrap_or(""),
                v.get("email").and_then(Value::as_str).unwrap_or(""),
            ))
            .filter(|x| !x.trim().is_empty())
            .map(crate::text::clean)
            .or_else(|| {
                let id = text("id")?;
                Some(known(&id).unwrap_or_else(|| short_id(&id)))
            })
            .unwrap_or_else(|| json_summary(v)),
            Value::String(id) => known(id).unwrap_or_else(|| short_id(&crate::text::clean(id))),
            other => json_summary(other),
        }
    };
    match v {
        Value::Null => vec![],
        Value::Array(a) => a.iter().map(|m| format!("@{}", one(m))).collect(),
        other => vec![format!("@{}", one(other))],
    }
}
