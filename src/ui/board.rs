//! The board: one column per status over the loaded tasks of the view.
//! Each card is one line: number, mark (`●` marked, `✗` its bulk edit
//! failed), priority (`↑↑` urgent, `↑` high), `!` when overdue (as in the
//! list), title; `→ status…` while a move is in flight. The current task's card
//! is marked `>` and highlighted. (Marks, once they exist, are drawn on
//! the cards here as the list draws them.)

use super::Theme;
use crate::api::{Priority, TaskItem};
use crate::app::state::State;
use crate::app::views::board::{cards, columns};
use crate::cut::fit;
use crate::domain::task_field::TaskField;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph};
use ratatui::Frame;

/// Narrower than this a column is not readable: the board scrolls
/// sideways to keep the cursor's column in view.
const MIN_COLUMN: u16 = 26;

pub fn draw(f: &mut Frame, area: Rect, s: &State, theme: &Theme, m: &mut super::metrics::Metrics) {
    let items = &s.list.items;
    let now = crate::clock::timestamp();
    let cols = columns(items);
    let cards = cards(items, &cols);
    let cursor = s.board_cursor();
    let cur_col = cursor
        .map(|(c, _)| c)
        .or(s.board.as_ref().map(|b| b.col))
        .unwrap_or(0)
        .min(cols.len() - 1);
    // As many columns as fit, the cursor's among them.
    let fit_n = ((area.width.saturating_sub(2) / MIN_COLUMN) as usize).clamp(1, cols.len());
    // The window the last frame showed stays while the cursor's column is
    // in it (a click on a shown column leaves the columns where they are).
    let prev = s.board.as_ref().map_or(0, |b| b.first);
    let first = super::metrics::sticky_offset(prev, cur_col, fit_n, cols.len());
    m.board_first = Some(first);
    let shown: Vec<usize> = (first..(first + fit_n).min(cols.len())).collect();
    let mut title = super::list::title_line(s).replacen("Tasks", "Board", 1);
    if shown.len() < cols.len() {
        title.push_str(&format!(
            " | columns {}-{} of {} (h/l)",
            first + 1,
            first + shown.len(),
            cols.len()
        ));
    }
    let block = theme.pane(title, true);
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height < 3 || inner.width < MIN_COLUMN {
        return;
    }
    let areas = Layout::horizontal(vec![Constraint::Ratio(1, shown.len() as u32); shown.len()])
        .split(inner);
    for (slot, &c) in shown.iter().enumerate() {
        let here = c == cur_col;
        let unknown = !cols[c].is_known();
        let mut name = cols[c].label();
        if unknown {
            name = format!("{name}?");
        }
        let name = if here && theme.accessible {
            format!("focus: {name}")
        } else {
            name
        };
        let col_block = Block::default()
            .borders(Borders::ALL)
            .border_type(if here && !theme.accessible {
                BorderType::Thick
            } else {
                BorderType::Plain
            })
            .border_style(if here {
                theme.border_focus
            } else {
                theme.border
            })
            .title(Span::styled(
                crate::text::clean(&format!("{name} ({})", cards[c].len())),
                if here { theme.accent } else { theme.dim },
            ));
        let col_block = theme.frame(col_block);
        let col_area = col_block.inner(areas[slot]);
        f.render_widget(col_block, areas[slot]);
        let rows = col_area.height as usize;
        if rows == 0 {
            continue;
        }
        let sel = cursor.filter(|(cc, _)| *cc == c).map(|(_, r)| r);
        let n = cards[c].len();
        // Keep the selected card in view; say how many are below.
        let visible = if n > rows { rows - 1 } else { rows };
        // The cards the last frame showed stay while the selected one is
        // among them (a click never slides the cards under the pointer).
        let prev = s
            .board
            .as_ref()
            .and_then(|b| b.offsets.get(c).copied())
            .unwrap_or(0);
        let offset = match sel {
            Some(r) => super::metrics::sticky_offset(prev, r, visible, n),
            None => prev.min(n.saturating_sub(visible)),
        };
        m.board_offsets.push((c, offset));
        let w = col_area.width as usize;
        // Numbers padded to the column's widest, so titles line up.
        let label_w = cards[c]
            .iter()
            .filter_map(|i| items.get(*i).and_then(TaskItem::task))
            .map(|t| t.label().chars().count())
            .max()
            .unwrap_or(0);
        let mut lines: Vec<Line> = Vec::with_capacity(rows);
        for (r, &i) in cards[c].iter().enumerate().skip(offset).take(visible) {
            let Some(TaskItem::Task(t)) = items.get(i) else {
                continue;
            };
            let selected = sel == Some(r);
            let y = col_area.y + lines.len() as u16;
            m.hit(
                Rect::new(col_area.x, y, col_area.width, 1),
                crate::app::state::Hit::ListRow(i),
            );
            if selected {
                m.focus_at(col_area.x, y);
            }
            // `!` means overdue here as in the list's due column (#26 §9);
            // priority is `↑↑` urgent, `↑` high.
            let mark = match t.priority {
                Priority::Urgent => "↑↑",
                Priority::High => "↑ ",
                _ => "  ",
            };
            let overdue = t.due().is_some_and(|d| {
                crate::app::dates::due_text(d, now, t.status == crate::api::Status::Completed).1
            });
            let late = if overdue { "!" } else { "" };
            let pending = s.pending_for(t.id.as_str(), TaskField::Status.wire());
            let text = match pending {
                Some(p) => format!("{} → {}…", t.label(), p.value),
                // Marked cards (bulk edits act on them) carry `●`.
                None => format!(
                    "{:<label_w$}{}{mark}{late}{}",
                    t.label(),
                    match (
                        s.marks.contains(t.id.as_str()),
                        s.marks.error(t.id.as_str())
                    ) {
                        (true, Some(_)) => "✗",
                        (true, None) => "●",
                        (false, _) => " ",
                    },
                    t.title.line()
                ),
            };
            let style = if selected {
                theme.selected
            } else if pending.is_some() {
                theme.pending
            } else {
                match t.priority {
                    Priority::Urgent => theme.error,
                    Priority::High => theme.warn,
                    _ => theme.base,
                }
            };
            let cursor_mark = if selected { theme.current_mark() } else { " " };
            lines.push(Line::styled(
                fit(&crate::text::clean(&format!("{cursor_mark}{text}")), w),
                style,
            ));
        }
        if n > offset + visible {
            lines.push(Line::styled(
                format!(" ↓ {} more", n - offset - visible),
                theme.dim,
            ));
        }
        if n == 0 {
            let hint = if s.list.end_reached {
                " (none)"
            } else {
                " (none loaded)"
            };
            lines.push(Line::styled(hint, theme.dim));
        }
        f.render_widget(Paragraph::new(lines), col_area);
    }
}
