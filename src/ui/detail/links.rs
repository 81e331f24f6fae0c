//! Links: chats, reviews, reports and tasks linked to the task.

use super::parts::*;

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

pub(super) fn links<'a>(t: &Task, d: &Detail, cx: &Cx) -> (Vec<Line<'a>>, Option<usize>) {
    use crate::app::keymap::Action as A;
    let theme = cx.theme;
    let mut out = Vec::new();
    if t.linked_items.is_empty() {
        out.push(Line::styled(
            empty_line(cx.s, "no links", A::AddLink, "adds one (type + id)"),
            theme.dim,
        ));
    }
    for (i, l) in t.linked_items.iter().enumerate() {
        out.push(Line::styled(
            format!("  {}", link_text(l)),
            row_style(i == d.cursor, theme),
        ));
    }
    out.push(Line::raw(""));
    // From the keymap in effect: `C check ids` (it read `i`, the inbox's key).
    out.push(Line::styled(
        key_line(
            cx.s,
            &[
                (&[A::AddLink], "add"),
                (&[A::ChangeRole], "role"),
                (&[A::EditCheckIds], "check ids (reviews)"),
                (&[A::RemoveItem], "remove"),
                (&[A::Open], "opens a task link"),
            ],
        ),
        theme.dim,
    ));
    (out, Some(d.cursor))
}
