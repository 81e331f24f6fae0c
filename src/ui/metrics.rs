//! What a frame measured (`Metrics`): the list's and the detail's sizes
//! for scrolling, the cell of what has focus (the terminal's cursor goes
//! there) and where each click target was drawn. A leaf the drawing
//! fills in; the loop keeps it in the state.

use crate::app::state::{Hit, State};
use ratatui::layout::{Position, Rect};

/// What the last frame measured, for scrolling: the list's visible rows and
/// first row, the detail's (visible, content) height; where the focus is
/// (the terminal's cursor goes there) and what a click can land on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    pub list: Option<(usize, usize)>,
    pub detail: Option<(usize, usize)>,
    /// The cell of what has focus: the current row, the input's caret.
    pub cursor: Option<Position>,
    /// The focus is the palette's input: the cursor is shown in every
    /// mode, as it always was. Elsewhere it is shown only in accessible
    /// mode (and placed, hidden, by the loop: braille displays and input
    /// methods follow it).
    pub caret: bool,
    /// Where this frame drew what a click can land on; the last drawn
    /// (a popup) first when looked up.
    pub hits: Vec<(Rect, Hit)>,
    /// The board's first shown column.
    pub board_first: Option<usize>,
    /// The board's first shown card of each column drawn: (column, card).
    pub board_offsets: Vec<(usize, usize)>,
    /// The inbox popup's first shown row.
    pub inbox_offset: Option<usize>,
    /// A picker's first shown row (a chooser: `:recent`, `:drafts`, …;
    /// the sharing editor's candidates).
    pub chooser_offset: Option<usize>,
}

impl Metrics {
    /// Keep what the frame measured (the loop calls this after drawing).
    pub fn apply(self, s: &mut State) {
        if let Some((rows, offset)) = self.list {
            s.list_height = rows;
            s.list.offset = offset;
        }
        if let Some(d) = self.detail {
            s.detail_view = d;
        }
        s.hits = self.hits;
        if let (Some(first), Some(b)) = (self.board_first, s.board.as_mut()) {
            b.first = first;
        }
        if let Some(b) = s.board.as_mut() {
            for (c, o) in self.board_offsets {
                if b.offsets.len() <= c {
                    b.offsets.resize(c + 1, 0);
                }
                b.offsets[c] = o;
            }
        }
        if let (Some(o), crate::app::state::Overlay::Inbox(l)) = (self.inbox_offset, &mut s.overlay)
        {
            l.offset = o;
        }
        match (self.chooser_offset, &mut s.overlay) {
            (Some(o), crate::app::state::Overlay::Chooser(c)) => c.offset = o,
            (Some(o), crate::app::state::Overlay::Picker(p)) => p.offset = o,
            _ => {}
        }
    }

    /// The focus is at `(x, y)`; a later call (a popup over the panes)
    /// takes it.
    pub(crate) fn focus_at(&mut self, x: u16, y: u16) {
        self.cursor = Some(Position::new(x, y));
        self.caret = false;
    }

    /// The palette's caret at `(x, y)`, shown in every mode.
    pub(crate) fn caret_at(&mut self, x: u16, y: u16) {
        self.cursor = Some(Position::new(x, y));
        self.caret = true;
    }

    pub(crate) fn hit(&mut self, r: Rect, h: Hit) {
        self.hits.push((r, h));
    }
}

impl Metrics {
    /// A popup's row `i` is drawn at `y` inside `inner`: a click there
    /// chooses it, and the current one has the cursor.
    pub(crate) fn row(&mut self, inner: Rect, y: u16, i: usize, current: bool) {
        if y < inner.bottom() {
            self.hit(Rect::new(inner.x, y, inner.width, 1), Hit::Row(i));
            if current {
                self.focus_at(inner.x, y);
            }
        }
    }
}

/// The first of `shown` rows (or columns) out of `len` to draw, the current
/// one `sel` among them: the window the last frame drew (`prev`) stays
/// while `sel` is in it, else moves just enough. A click on a shown row
/// then never slides the rows under the pointer.
pub(crate) fn sticky_offset(prev: usize, sel: usize, shown: usize, len: usize) -> usize {
    let shown = shown.max(1);
    if sel < prev {
        sel
    } else if sel >= prev + shown {
        sel + 1 - shown
    } else {
        prev
    }
    .min(len.saturating_sub(shown))
}
