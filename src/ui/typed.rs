//! What is typed into a one-line input, as drawn: the palette's `:`
//! line, the search line, the pickers' `find:` lines and the filter
//! form's fields all show it through [`shown`], one way — cleaned as any
//! text on screen, then the part around the cursor in the room there is
//! (`cut::around`): the cursor stays in sight and the line one row,
//! however long the text typed or pasted. A leaf.

use crate::app::state::input::LineInput;
use crate::cut::Around;
use crate::ui::theme::Theme;
use ratatui::text::{Line, Span};

/// `input` in `w` columns, around its cursor.
pub fn shown(input: &LineInput, w: u16) -> Around {
    let at = input
        .text
        .char_indices()
        .nth(input.cursor)
        .map_or(input.text.len(), |(b, _)| b);
    let (before, after) = input.text.split_at(at);
    let before = crate::text::clean(before);
    let text = before.clone() + &crate::text::clean(after);
    crate::cut::around(&text, before.len(), w as usize)
}

/// A picker's `find:` line in `w` columns: the words, what is typed
/// around its cursor, and the caret when the text's end is in sight (no
/// drawing glyph in accessible mode). The chooser and the name picker
/// draw it through here.
pub fn find_line(input: &LineInput, w: u16, theme: &Theme) -> Line<'static> {
    const WORDS: &str = "find: ";
    let find = shown(input, w.saturating_sub(WORDS.len() as u16));
    let caret = if theme.accessible || !find.end {
        ""
    } else {
        "▏"
    };
    Line::from(vec![
        Span::styled(WORDS, theme.accent),
        Span::raw(find.text),
        Span::styled(caret, theme.accent),
    ])
}
