//! Subtasks: open one, create one.

use super::parts::*;

pub(super) fn subtasks<'a>(d: &Detail, cx: &Cx) -> (Vec<Line<'a>>, Option<usize>) {
    let (theme, width) = (cx.theme, cx.width);
    let mut out = Vec::new();
    match &d.subtasks {
        Load::Loaded(v) => {
            if v.is_empty() {
                out.push(Line::styled(
                    empty_line(
                        cx.s,
                        "no subtasks",
                        crate::app::keymap::Action::NewSubtask,
                        "creates one",
                    ),
                    theme.dim,
                ));
            }
            for (i, item) in v.iter().enumerate() {
                let text = match item {
                    TaskItem::Task(t) => format!(
                        "  {:<7} {:<12} {}",
                        t.label(),
                        t.status.label(),
                        t.title.line()
                    ),
                    TaskItem::Unreadable(u) => {
                        format!("  ? unreadable subtask: {}", u.reason)
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
