//! Where the panes are, for drawing and for mouse hit-testing alike.

use crate::app::keymap::Action;
use crate::app::state::command::Command;
use crate::app::state::{Effect, Focus, Hit, Level, Overlay, State, Tab};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
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

/// Two clicks on the same thing within this time are a double click.
pub const DOUBLE_CLICK: std::time::Duration = std::time::Duration::from_millis(400);

impl State {
    /// Mouse (when enabled). What a click lands on is looked up where the
    /// last frame drew it (`hits`, from `ui::Metrics`): a list row, a
    /// board card, an inbox item or a picker's candidate becomes current
    /// (a double click opens it), a tab switches, a pane takes focus. The
    /// wheel scrolls what is under the pointer: the list moves its cursor,
    /// the detail its content, a popup its choice. Returns whether
    /// anything changed: motion and what lands on nothing change nothing,
    /// and nothing is redrawn for them.
    pub fn on_mouse(
        &mut self,
        m: crossterm::event::MouseEvent,
        now: std::time::Instant,
    ) -> (Vec<Effect>, bool) {
        let open = !matches!(self.overlay, Overlay::None);
        let (mut fx, used) = self.mouse_event(m, now);
        // A popup closed by the mouse, as by a key (`key_pressed`).
        if open && matches!(self.overlay, Overlay::None) {
            fx.extend(self.leave_deleted_detail());
        }
        (fx, used)
    }

    fn mouse_event(
        &mut self,
        m: crossterm::event::MouseEvent,
        now: std::time::Instant,
    ) -> (Vec<Effect>, bool) {
        use crossterm::event::{MouseButton, MouseEventKind};
        let hit = self
            .hits
            .iter()
            .rev()
            .find(|(r, _)| {
                m.column >= r.x && m.column < r.right() && m.row >= r.y && m.row < r.bottom()
            })
            .map(|(_, h)| *h);
        let popup = !matches!(self.overlay, Overlay::None);
        match m.kind {
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                // Clicks either side of a turn of the wheel are not a double.
                self.last_click = None;
                let down = m.kind == MouseEventKind::ScrollDown;
                if popup {
                    let code = if down { KeyCode::Down } else { KeyCode::Up };
                    return (
                        self.overlay_key(KeyEvent::new(code, KeyModifiers::NONE)),
                        true,
                    );
                }
                let d = if down { 1 } else { -1 };
                match hit {
                    Some(Hit::ListRow(_) | Hit::Pane(Focus::List)) => {
                        self.focus = Focus::List;
                        if self.board.is_some() {
                            return (self.act(if down { Action::Down } else { Action::Up }), true);
                        }
                        (self.move_by(d), true)
                    }
                    Some(Hit::Pane(Focus::Detail) | Hit::DetailTab(_)) if self.detail.is_some() => {
                        self.focus = Focus::Detail;
                        // Its content scrolls (a tab of rows moves its row).
                        (self.move_by(d), true)
                    }
                    _ => (vec![], false),
                }
            }
            MouseEventKind::Down(MouseButton::Left) => {
                let Some(h) = hit else {
                    return (vec![], false);
                };
                let double = self
                    .last_click
                    .is_some_and(|(at, last)| last == h && now.duration_since(at) <= DOUBLE_CLICK);
                // A double click is two clicks, not the first of a third.
                self.last_click = if double { None } else { Some((now, h)) };
                (self.click(h, double), true)
            }
            _ => (vec![], false),
        }
    }

    fn click(&mut self, h: Hit, double: bool) -> Vec<Effect> {
        let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
        match h {
            Hit::ListRow(i) => {
                let mut fx = self.select_row(i);
                if double {
                    fx.extend(self.act(Action::Open));
                }
                fx
            }
            Hit::Row(i) => {
                match &mut self.overlay {
                    Overlay::Inbox(l) => l.selected = i,
                    Overlay::Picker(p) => p.selected = i,
                    Overlay::Chooser(c) => c.selected = i,
                    Overlay::Views(v) => v.selected = i,
                    // A suggestion clicked is one the user picked: Enter
                    // (or the double click) runs it.
                    Overlay::Palette(p) => {
                        p.selected = i;
                        p.chose = true;
                    }
                    Overlay::Sharing(e) => e.cursor = i,
                    _ => return vec![],
                }
                if double {
                    return self.overlay_key(enter);
                }
                vec![]
            }
            Hit::DetailTab(i) => {
                let Some(d) = &self.detail else { return vec![] };
                let at = Tab::ALL.iter().position(|t| *t == d.tab).unwrap_or(0);
                self.switch_tab(i as i64 - at as i64)
            }
            Hit::ViewTab(0) => self.act(Action::Inbox),
            Hit::ViewTab(i) => {
                let Some(name) = self.views.list.get(i - 1).map(|v| v.name.clone()) else {
                    return vec![];
                };
                self.run(Command::View(name)).unwrap_or_else(|e| {
                    self.say(Level::Error, e);
                    vec![]
                })
            }
            Hit::Pane(Focus::Detail) if self.detail.is_some() => {
                self.focus = Focus::Detail;
                vec![]
            }
            Hit::Pane(f) => {
                self.focus = f;
                vec![]
            }
        }
    }
}
