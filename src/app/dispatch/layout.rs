//! Where the panes are, for drawing and for mouse hit-testing alike.

use crate::app::state::{Focus, State};
use ratatui::layout::{Constraint, Layout, Rect};

/// Below this body width list and detail cannot both be read: the focused
/// one fills the screen (measured: at 120 columns the list keeps ~23
/// columns of title beside a detail of 54).
pub const SIDE_BY_SIDE_MIN: u16 = 120;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Panes {
    pub header: Rect,
    /// The views as tabs (`ui/list.rs::draw_tabs`), over the list.
    pub tabs: Rect,
    pub list: Option<Rect>,
    pub detail: Option<Rect>,
    pub status: Rect,
    pub hints: Rect,
}

pub fn panes(area: Rect, s: &State) -> Panes {
    let [header, tabs, body, status, hints] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let one = s.zoom || body.width < SIDE_BY_SIDE_MIN;
    let (list, detail) = if one {
        if s.focus == Focus::Detail && s.detail.is_some() {
            (None, Some(body))
        } else {
            (Some(body), None)
        }
    } else {
        let [l, r] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
            .areas(body);
        (Some(l), Some(r))
    };
    Panes {
        header,
        tabs,
        list,
        detail,
        status,
        hints,
    }
}

fn inside(r: Option<Rect>, col: u16, row: u16) -> Option<Rect> {
    r.filter(|r| col >= r.x && col < r.right() && row >= r.y && row < r.bottom())
}

impl State {
    /// Mouse (when enabled): the wheel scrolls the pane under the pointer,
    /// a click in the list selects that row (the current task follows), a
    /// click in the detail focuses it. Ignored while a popup is open: a
    /// popup was opened for a task and nothing may change it.
    pub fn on_mouse(
        &mut self,
        m: crossterm::event::MouseEvent,
        area: Rect,
    ) -> Vec<crate::app::state::Effect> {
        use crossterm::event::MouseEventKind;
        // The board has no mouse support (its cards are keys only).
        if !matches!(self.overlay, crate::app::state::Overlay::None) || self.board.is_some() {
            return vec![];
        }
        let p = panes(area, self);
        let in_list = inside(p.list, m.column, m.row);
        let in_detail = inside(p.detail, m.column, m.row);
        match m.kind {
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let d = if m.kind == MouseEventKind::ScrollDown {
                    1
                } else {
                    -1
                };
                if in_list.is_some() {
                    self.focus = Focus::List;
                    self.move_by(d)
                } else if in_detail.is_some() {
                    self.focus = Focus::Detail;
                    self.move_by(d)
                } else {
                    vec![]
                }
            }
            MouseEventKind::Down(_) => {
                if let Some(r) = in_list {
                    // The border, then the column titles.
                    let first = r.y + 2;
                    if m.row >= first && m.row < r.bottom().saturating_sub(1) {
                        let i = self.list.offset + (m.row - first) as usize;
                        return self.select_row(i);
                    }
                } else if in_detail.is_some() && self.detail.is_some() {
                    self.focus = Focus::Detail;
                }
                vec![]
            }
            _ => vec![],
        }
    }
}
