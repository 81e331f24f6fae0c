//! The composer: a comment, a reply to the requester or a long text
//! field, with its banner, the editor, the file ids and the send state.

use crate::app::state::{Compose, ComposeKind, SendState};
use crate::ui::clear::{centered, clear_popup};
use crate::ui::metrics::Metrics;
use crate::ui::Theme;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

/// The status line's first words when the text is too long to wrap.
pub const LONG_TEXT_NOT_WRAPPED: &str = "long text: lines not wrapped  ";

pub(super) fn draw(f: &mut Frame, area: Rect, c: &Compose, theme: &Theme, m: &mut Metrics) {
    let r = centered(area, 100, area.height.saturating_sub(6).max(10));
    let title = format!("{} — {}", c.kind.title(), crate::text::clean(&c.task_label));
    clear_popup(f, r, theme);
    let b = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focus)
        .title(Span::styled(
            match theme.accessible {
                true => theme.popup_top(&title),
                false => title.clone(),
            },
            theme.accent,
        ));
    let b = theme.popup_end(b, &title);
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
        // A huge text is not wrapped (composer::WRAP_LIMIT): said first.
        SendState::Editing if c.editor.wrap_mode() == ratatui_textarea::WrapMode::None => {
            Line::from(vec![
                Span::styled(LONG_TEXT_NOT_WRAPPED, theme.warn),
                Span::styled(
                    crate::ui::hints::fit_popup_hint(
                        &crate::app::popups::compose::composer_hint(c, "  "),
                        usize::from(status.width)
                            .saturating_sub(LONG_TEXT_NOT_WRAPPED.chars().count()),
                    ),
                    theme.dim,
                ),
            ])
        }
        SendState::Editing => Line::styled(
            crate::ui::hints::fit_popup_hint(
                &crate::app::popups::compose::composer_hint(c, "  "),
                usize::from(status.width),
            ),
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
