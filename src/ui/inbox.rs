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
    // The foot: when the inbox last walked, then its keys; both on one
    // line when they fit, else the keys on a line of their own (at 80
    // columns the last ones were cut away).
    let foot_width = centered(area, 120, h).width.saturating_sub(2) as usize;
    let foot = foot_lines(s, now, foot_width);
    let h = h + foot.len().saturating_sub(1) as u16;
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
    let foot = foot_lines(s, now, width);
    let foot_rows = (foot.len() as u16).min(inner.height);
    // Cut by display width, saying it cut (issue 40 §3).
    let fit = |t: String| -> String { crate::cut::cut(&crate::text::clean(&t), width) };
    let mut lines: Vec<Line> = Vec::new();
    for d in &down {
        lines.push(Line::styled(fit(d.clone()), theme.error));
    }
    let body_rows = (inner.height.saturating_sub(foot_rows) as usize).saturating_sub(lines.len());
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
        height: inner.height.saturating_sub(foot_rows),
        ..inner
    };
    f.render_widget(Paragraph::new(lines), body);
    let foot_area = Rect {
        y: inner.y + inner.height - foot_rows,
        height: foot_rows,
        ..inner
    };
    let foot: Vec<Line> = foot
        .into_iter()
        .map(|(text, tone)| {
            let style = match tone {
                Tone::Error => theme.error,
                Tone::Warn => theme.warn,
                Tone::Dim => theme.dim,
            };
            Line::styled(text, style)
        })
        .collect();
    f.render_widget(Paragraph::new(foot), foot_area);
}

/// How a line of the inbox's foot is drawn.
#[derive(Clone, Copy)]
enum Tone {
    Error,
    Warn,
    Dim,
}

/// The inbox popup's foot in `width` columns: what the last walk said
/// (when, how many requests, or why it could not), then the inbox's keys
/// from the keymap in effect (issue 40 §4). One line when both fit; else
/// the keys on lines of their own, wrapped between entries
/// (`wrap::wrap_hints`).
fn foot_lines(s: &State, now: i64, width: usize) -> Vec<(String, Tone)> {
    let v = &s.inbox;
    let fit = |t: String| -> String { crate::cut::cut(&crate::text::clean(&t), width) };
    let parts = s.keymap.hints(
        &[crate::app::keymap::Context::Inbox],
        &super::hints::INBOX_KEYS,
    );
    let keys = parts.join("  ");
    let keys_lines = || {
        super::wrap::wrap_hints(&parts, width)
            .into_iter()
            .map(|l| (l, Tone::Dim))
    };
    let (said, tone) = match (&v.last.error, v.last.walked_at, &v.last.report) {
        (Some(e), ..) => (e.clone(), Tone::Error),
        (None, _, Some(r)) if r.partial().is_some() => (
            format!(
                "inbox partly refreshed: {}",
                r.partial().unwrap_or_default()
            ),
            Tone::Warn,
        ),
        (None, _, Some(r)) if r.comments_unavailable => (
            "this service does not list comments: new comments and mentions are not in the inbox"
                .into(),
            Tone::Warn,
        ),
        (None, Some(at), Some(r)) => {
            let read = format!(
                "read {} · {} request{}",
                crate::domain::words::age(at, now),
                r.requests(),
                if r.requests() == 1 { "" } else { "s" }
            );
            let one = format!("{read} · {keys}");
            if crate::cut::width(&one) <= width {
                return vec![(one, Tone::Dim)];
            }
            return std::iter::once((fit(read), Tone::Dim))
                .chain(keys_lines())
                .collect();
        }
        _ => return keys_lines().collect(),
    };
    // A warning or an error was the whole foot, the keys out of sight:
    // now they follow on their own line.
    std::iter::once((fit(said), tone))
        .chain(keys_lines())
        .collect()
}

/// A queued edit three ways (`:outbox`, enter on one that waits): a row per
/// field — what you saw, what you want, what the service has — and which
/// is kept.
pub fn draw_conflict(
    f: &mut Frame,
    area: Rect,
    v: &crate::app::popups::conflict::ConflictView,
    keymap: &crate::app::keymap::Keymap,
    theme: &Theme,
    m: &mut Metrics,
) {
    // The lines above and below the rows, wrapped to the popup's width:
    // what else is true of the task, and the view's keys from the keymap
    // in effect (its line was written by hand, and cut at 80 columns).
    let width = centered(area, 110, 5).width.saturating_sub(2) as usize;
    let about: Vec<Line> = v
        .about
        .iter()
        .flat_map(|a| {
            super::wrap::wrap_words(
                &[(crate::text::clean(a), theme.warn)],
                width,
                vec![],
                vec![Span::raw("  ")],
            )
        })
        .collect();
    let keys = keymap.hints(
        &[crate::app::keymap::Context::Conflict],
        &super::hints::CONFLICT_KEYS,
    );
    let keys = super::wrap::wrap_hints(&keys, width);
    let h = (v.rows.len() + about.len() + keys.len()) as u16 + 4;
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
    let mut lines: Vec<Line> = about;
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
    lines.extend(keys.into_iter().map(|k| Line::styled(k, theme.dim)));
    f.render_widget(Paragraph::new(lines), inner);
}
