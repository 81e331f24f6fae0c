//! Wide graphemes under a popup's edge: the border is drawn whole.

use crate::ui::clear::clear_area;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::{Frame, Terminal};

/// What the terminal shows after a frame of wide graphemes, then the
/// same frame with a bordered popup over it.
fn shown_with_popup(text: &str, popup_x: u16) -> ratatui::buffer::Buffer {
    let mut t = Terminal::new(TestBackend::new(30, 6)).unwrap();
    let fill = |f: &mut Frame| {
        let lines: Vec<Line> = (0..6).map(|_| Line::raw(text.to_string())).collect();
        f.render_widget(Paragraph::new(lines), f.area());
    };
    t.draw(fill).unwrap();
    t.draw(|f| {
        fill(f);
        let r = Rect::new(popup_x, 1, 12, 4);
        clear_area(f.buffer_mut(), r);
        f.render_widget(Block::default().borders(Borders::ALL), r);
    })
    .unwrap();
    t.backend().buffer().clone()
}

#[test]
fn a_wide_grapheme_under_the_popups_edge_leaves_the_border_whole() {
    // CJK, flags (two regional indicators) and a ZWJ family, each two
    // cells wide, laid so one starts just left of the popup.
    for text in [
        "漢字漢字漢字漢字漢字漢字漢字漢字",
        "🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷",
        "👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧",
    ] {
        let buf = shown_with_popup(text, 5);
        for y in 1..5 {
            let border = buf[(5, y)].symbol();
            assert!(
                matches!(border, "┌" | "│" | "└"),
                "{text}: row {y} shows {border:?} where the border is"
            );
            use unicode_width::UnicodeWidthStr;
            assert!(buf[(4, y)].symbol().width() <= 1, "{text}: row {y}");
        }
    }
}
