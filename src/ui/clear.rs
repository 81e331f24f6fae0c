//! A popup's frame: where it goes (`centered`), its cleared area (by
//! grapheme width) and its bordered, titled box (`popup`). A leaf the
//! overlays and the inbox draw with.

use super::theme::Theme;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear};
use ratatui::Frame;

/// Clear the area a popup takes, by grapheme width: a wide grapheme (CJK,
/// a flag or another multi-codepoint emoji) that starts just left of the
/// popup and spans into it is blanked too. Left there, it would cover the
/// popup's left border in the terminal (its right half sits in the
/// border's column, so the border cell is never drawn) and leave
/// fragments when the popup closes.
pub(crate) fn clear_area(buf: &mut ratatui::buffer::Buffer, r: Rect) {
    use unicode_width::UnicodeWidthStr;
    ratatui::widgets::Widget::render(Clear, r, buf);
    let edge = buf.area.intersection(r);
    if edge.is_empty() || edge.x == 0 {
        return;
    }
    for y in edge.top()..edge.bottom() {
        // The widest grapheme is two cells: only the cell just left can
        // reach in.
        let cell = &mut buf[(edge.x - 1, y)];
        if cell.symbol().width() > 1 {
            cell.set_symbol(" ");
        }
    }
}

/// Clear the area a popup takes ([`clear_area`]); in accessible mode the
/// whole of its rows: a screen reader reads the screen row by row, and
/// the pane's text beside the popup read on with the popup's line as one.
pub(crate) fn clear_popup(f: &mut Frame, r: Rect, theme: &Theme) {
    let buf = f.buffer_mut();
    let r = match theme.accessible {
        true => Rect {
            x: buf.area.x,
            width: buf.area.width,
            ..r
        }
        .intersection(buf.area),
        false => r,
    };
    clear_area(buf, r);
}

pub(super) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width.saturating_sub(2)).max(10.min(area.width));
    let h = h.min(area.height.saturating_sub(2)).max(3.min(area.height));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

pub(super) fn popup(f: &mut Frame, r: Rect, title: &str, theme: &Theme) -> Rect {
    clear_popup(f, r, theme);
    // Titles may carry service text (a task label, a path): sanitised
    // here like every line below them.
    let name = crate::text::clean(title);
    let b = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focus)
        .title(Span::styled(
            theme.popup_top(name.trim()),
            theme.accent.add_modifier(Modifier::BOLD),
        ));
    let b = theme.popup_end(b, name.trim());
    let b = theme.frame(b);
    let inner = b.inner(r);
    f.render_widget(b, r);
    inner
}
