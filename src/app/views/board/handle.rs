//! What the state does for `board` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::api::Status;
use crate::app::keymap::Action;
use crate::app::state::command::Command;
use crate::app::state::{Effect, Focus, Level, State};

impl State {
    /// `:board` / `b`: show the board, or the list again.
    pub fn toggle_board(&mut self) -> Vec<Effect> {
        if self.board.take().is_some() {
            return vec![];
        }
        self.board = Some(Board::default());
        self.focus = Focus::List;
        if let Some((col, _)) = self.board_cursor() {
            self.board = Some(Board {
                col,
                first: 0,
                offsets: Vec::new(),
            });
        }
        vec![]
    }

    /// The current task's place on the board: (column, row), when it is
    /// one of the loaded rows.
    pub fn board_cursor(&self) -> Option<(usize, usize)> {
        let d = self.detail.as_ref()?;
        let i = self.list.position(&d.task_id)?;
        let cols = columns(&self.list.items);
        let cards = cards(&self.list.items, &cols);
        cards
            .iter()
            .enumerate()
            .find_map(|(c, rows)| rows.iter().position(|r| *r == i).map(|r| (c, r)))
    }

    /// Board keys; `None` when the board is not shown or the action is not
    /// one of the board's (then it does what it does everywhere).
    pub fn board_act(&mut self, a: Action) -> Option<Vec<Effect>> {
        self.board.as_ref()?;
        Some(match a {
            Action::Down => self.board_vertical(1),
            Action::Up => self.board_vertical(-1),
            Action::Top => self.board_vertical(i64::MIN / 2),
            Action::Bottom => self.board_vertical(i64::MAX / 2),
            Action::ColumnLeft => self.board_horizontal(-1),
            Action::ColumnRight => self.board_horizontal(1),
            Action::MoveLeft => self.board_move(-1),
            Action::MoveRight => self.board_move(1),
            Action::Open => {
                // The card's detail, in full.
                self.board = None;
                if self.detail.is_some() {
                    self.focus = Focus::Detail;
                }
                vec![]
            }
            _ => return None,
        })
    }

    fn board_select(&mut self, col: usize, row: usize) -> Vec<Effect> {
        if let Some(b) = &mut self.board {
            b.col = col;
        }
        let cols = columns(&self.list.items);
        let cards = cards(&self.list.items, &cols);
        match cards.get(col).and_then(|r| r.get(row)) {
            Some(i) => self.select_row(*i),
            None => vec![],
        }
    }

    fn board_vertical(&mut self, delta: i64) -> Vec<Effect> {
        let cols = columns(&self.list.items);
        let cards = cards(&self.list.items, &cols);
        let (col, row) = match self.board_cursor() {
            Some(p) => p,
            // Not on the board: the first move lands on the column's top.
            None => {
                let col = self.board.as_ref().map_or(0, |b| b.col);
                return self.board_select(col.min(cols.len() - 1), 0);
            }
        };
        let n = cards[col].len() as i64;
        let row = (row as i64).saturating_add(delta).clamp(0, n - 1) as usize;
        self.board_select(col, row)
    }

    fn board_horizontal(&mut self, delta: i64) -> Vec<Effect> {
        let cols = columns(&self.list.items);
        let cards = cards(&self.list.items, &cols);
        let (col, row) = self
            .board_cursor()
            .unwrap_or((self.board.as_ref().map_or(0, |b| b.col), 0));
        // The nearest column that way with a card in it.
        let mut c = col as i64 + delta;
        while c >= 0 && (c as usize) < cols.len() {
            let rows = &cards[c as usize];
            if !rows.is_empty() {
                return self.board_select(c as usize, row.min(rows.len() - 1));
            }
            c += delta;
        }
        vec![]
    }

    /// `H`/`L`: the current card to the status before/after its own (the
    /// one it is being moved to, while that PATCH is in flight).
    fn board_move(&mut self, delta: i64) -> Vec<Effect> {
        let Some(t) = self.current_task() else {
            return self.no_task();
        };
        let id = t.id.as_str().to_string();
        let label = t.label();
        let from = self
            .pending_for(&id, crate::domain::task_field::TaskField::Status.wire())
            .and_then(|p| Status::KNOWN.iter().find(|s| s.label() == p.value))
            .unwrap_or(&t.status)
            .clone();
        let Some(i) = Status::KNOWN.iter().position(|s| *s == from) else {
            self.say(
                Level::Warn,
                format!(
                    "{label} has the status {:?}, which is not one of the API's: :status sets one",
                    from.label()
                ),
            );
            return vec![];
        };
        let to = i as i64 + delta;
        if to < 0 || to as usize >= Status::KNOWN.len() {
            self.say(
                Level::Info,
                format!("{label} is in the {} column already", from.label()),
            );
            return vec![];
        }
        self.run_or_say(Command::Status(Status::KNOWN[to as usize].clone()))
    }
}
