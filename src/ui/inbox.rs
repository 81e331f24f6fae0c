//! The inbox popup: one task per two lines — its number, how long ago, its
//! title; then why, in words — and a line saying when the inbox last
//! walked (or why it could not).

use super::clear::{centered, popup};
use super::metrics::Metrics;
use super::Theme;
use crate::app::popups::inbox::InboxList;
use crate::app::state::State;
use crate::cut::Piece;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Where a row's reasons start, under its title.
const WHY_INDENT: &str = "        ";

pub fn draw(
    f: &mut Frame,
    area: Rect,
    s: &State,
    list: &InboxList,
    theme: &Theme,
    m: &mut Metrics,
) {
    let v = &s.inbox;
    let now = crate::clock::timestamp().as_second();
    let rows = v.rows();
    // Another profile whose service is down or unread: a line each, the
    // others' rows still shown (issue 36).
    let down: Vec<String> = v
        .others
        .iter()
        .filter_map(|o| match &o.same_as {
            // One service and user is one inbox (issue 42 §11).
            Some(first) => Some(format!(
                "[{}] the same service and user as [{first}]: its inbox is shown once, as [{first}]'s",
                o.profile
            )),
            None => o
                .last
                .error
                .as_ref()
                .map(|e| format!("[{}] {e}", o.profile)),
        })
        .collect();
    let h = (rows.len() as u16 * 2 + down.len() as u16).clamp(1, 40) + 3;
    let r = centered(area, 120, h);
    let title = match (v.last.all, v.count()) {
        (true, _) => "Inbox — read items too (a: unread only)".to_string(),
        (false, 0) => "Inbox — what needs you".to_string(),
        (false, n) => format!("Inbox — {n} need{} you", if n == 1 { "s" } else { "" }),
    };
    let inner = popup(f, r, &title, theme);
    if inner.height == 0 {
        return;
    }
    let width = inner.width as usize;
    // Cut by display width, saying it cut (issue 40 §3).
    let fit = |t: String| -> String { crate::cut::cut(&crate::text::clean(&t), width) };
    let mut lines: Vec<Line> = Vec::new();
    for d in &down {
        lines.push(Line::styled(fit(d.clone()), theme.error));
    }
    let body_rows = (inner.height.saturating_sub(1) as usize).saturating_sub(lines.len());
    if rows.is_empty() {
        let empty = if !v.running {
            v.off
                .clone()
                .unwrap_or_else(|| "the inbox starts once the service has said who you are".into())
        } else if !v.loaded {
            "reading the tasks that involve you…".to_string()
        } else {
            "Nothing needs you.".to_string()
        };
        lines.push(Line::styled(fit(empty), theme.dim));
    } else {
        // Two lines a row; the window follows the selection.
        let per = 2;
        let shown = (body_rows / per).max(1);
        let offset = super::metrics::sticky_offset(list.offset, list.selected, shown, rows.len());
        m.inbox_offset = Some(offset);
        for (i, shown_row) in rows.iter().enumerate().skip(offset).take(shown) {
            let row = shown_row.row;
            let whose = v
                .label(shown_row)
                .map(|l| format!("{l} "))
                .unwrap_or_default();
            let sel = i == list.selected;
            let base = if sel { theme.selected } else { theme.base };
            // A click on either of its two lines chooses it.
            let y = inner.y + lines.len() as u16;
            let r = Rect::new(inner.x, y, inner.width, 2).intersection(inner);
            m.hit(r, crate::app::state::Hit::Row(i));
            if sel {
                m.focus_at(inner.x, y);
            }
            // The title gives way; the number and the age stay whole.
            let head = theme.point(
                format!(
                    "{whose}{:<7} {:>9}  ",
                    row.label,
                    crate::domain::words::age(row.at, now),
                ),
                sel,
            );
            let head = crate::cut::line(
                &[Piece::whole(head), Piece::cut(row.title.as_str(), 0, 1)],
                width,
            );
            lines.push(Line::styled(
                head,
                if row.read {
                    base
                } else {
                    base.add_modifier(Modifier::BOLD)
                },
            ));
            let why_style = match row.top() {
                Some(crate::inbox::Kind::Mention | crate::inbox::Kind::Reply) => theme.warn,
                _ if sel => theme.selected,
                _ => theme.accent,
            };
            // The reasons: a quote gives way before a change, each at a
            // word's end with `…`; `priority medium → high` stays whole.
            let why =
                crate::cut::line(&row.why_pieces(now), width.saturating_sub(WHY_INDENT.len()));
            lines.push(Line::from(vec![
                Span::styled(WHY_INDENT, base),
                Span::styled(why, why_style),
            ]));
        }
    }
    let body = Rect {
        height: inner.height.saturating_sub(1),
        ..inner
    };
    f.render_widget(Paragraph::new(lines), body);
    // The inbox's keys, from the keymap in effect (issue 40 §4).
    let keys = s
        .keymap
        .hints(
            &[crate::app::keymap::Context::Inbox],
            &super::hints::INBOX_KEYS,
        )
        .join("  ");
    let status = match (&v.last.error, v.last.walked_at, &v.last.report) {
        (Some(e), ..) => Span::styled(fit(e.clone()), theme.error),
        (None, _, Some(r)) if r.partial().is_some() => Span::styled(
            fit(format!(
                "inbox partly refreshed: {}",
                r.partial().unwrap_or_default()
            )),
            theme.warn,
        ),
        (None, _, Some(r)) if r.comments_unavailable => Span::styled(
            fit("this service does not list comments: new comments and mentions are not in the inbox".into()),
            theme.warn,
        ),
        (None, Some(at), Some(r)) => Span::styled(
            fit(format!(
                "read {} · {} request{} · {keys}",
                crate::domain::words::age(at, now),
                r.requests(),
                if r.requests() == 1 { "" } else { "s" }
            )),
            theme.dim,
        ),
        _ => Span::styled(fit(keys), theme.dim),
    };
    let foot = Rect {
        y: inner.y + inner.height - 1,
        height: 1,
        ..inner
    };
    f.render_widget(Paragraph::new(Line::from(status)), foot);
}

/// A queued edit three ways (`:outbox`, enter on one that waits): a row per
/// field — what you saw, what you want, what the service has — and which
/// is kept.
pub fn draw_conflict(
    f: &mut Frame,
    area: Rect,
    v: &crate::app::popups::conflict::ConflictView,
    theme: &Theme,
    m: &mut Metrics,
) {
    let h = v.rows.len() as u16 + v.about.len() as u16 + 5;
    let r = centered(area, 110, h);
    let inner = popup(
        f,
        r,
        &format!("{}: changed on the service since your edit", v.label),
        theme,
    );
    if inner.height == 0 {
        return;
    }
    let width = inner.width as usize;
    // Columns: the field, three equal ones, the choice.
    let col = width.saturating_sub(10 + 7 + 4) / 3;
    let cell = |s: &str, w: usize| -> String {
        format!("{} ", crate::cut::fit(&crate::text::clean(s), w))
    };
    // Archived, a draft, access lost: said before the fields.
    let mut lines: Vec<Line> = v
        .about
        .iter()
        .map(|a| Line::styled(crate::text::clean(a), theme.warn))
        .collect();
    lines.push(Line::styled(
        format!(
            "{}{}{}{}{}",
            cell("field", 10),
            cell("you saw", col),
            cell("you want", col),
            cell("the service has", col),
            "kept"
        ),
        theme.dim,
    ));
    for (i, row) in v.rows.iter().enumerate() {
        let sel = i == v.selected;
        let base = if sel { theme.selected } else { theme.base };
        if sel {
            m.focus_at(inner.x, inner.y + lines.len() as u16);
        }
        // Accessible mode: `>` on the current row, in the field's column.
        let field = if theme.accessible {
            format!("{}{}", if sel { "> " } else { "  " }, cell(&row.field, 8))
        } else {
            cell(&row.field, 10)
        };
        let (choice, cstyle) = if row.keep_mine {
            ("mine", theme.warn)
        } else {
            ("theirs", theme.accent)
        };
        lines.push(Line::from(vec![
            Span::styled(field, base),
            Span::styled(cell(&row.saw, col), if sel { base } else { theme.dim }),
            Span::styled(cell(&row.mine, col), base),
            Span::styled(cell(&row.theirs, col), base),
            Span::styled(choice, if sel { base } else { cstyle }),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "m keep mine · t take theirs · space switch · enter send what is kept · esc back (nothing sent)"
            .chars()
            .take(width)
            .collect::<String>(),
        theme.dim,
    ));
    f.render_widget(Paragraph::new(lines), inner);
}
