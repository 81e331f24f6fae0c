//! Clearing under a popup, by grapheme width.

use ratatui::layout::Rect;
use ratatui::widgets::Clear;

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
