//! What is typed into a one-line input, as drawn: the palette's `:`
//! line, the search line, the pickers' `find:` lines and the filter
//! form's fields all show it through [`shown`], one way — cleaned as any
//! text on screen, then the part around the cursor in the room there is
//! (`cut::around`): the cursor stays in sight and the line one row,
//! however long the text typed or pasted. A leaf.

use crate::app::state::input::LineInput;
use crate::cut::Around;

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
