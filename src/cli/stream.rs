//! `tasks` output written as the pages arrive: memory stays bounded
//! whatever the walk's length. The first rows are held (up to
//! [`HOLD_ITEMS`] items or [`HOLD_BYTES`] of JSON) so that a short list —
//! the usual case — prints exactly as a whole (nothing at all when its walk
//! fails, the table's widths fitted to every row); past that, each page is
//! written as it comes, the table keeping the widths of the held rows.

use super::output::{emit, emit_json, Failure, STDOUT_GONE};
use super::table::{self, Layout};
use crate::api::TaskItem;
use serde_json::value::RawValue;
use std::sync::atomic::Ordering;

/// Items held before output starts.
pub const HOLD_ITEMS: usize = 1_000;
/// JSON held before output starts.
pub const HOLD_BYTES: usize = 4 << 20;

pub struct TaskOutput {
    json: bool,
    held: Vec<Box<RawValue>>,
    held_bytes: usize,
    /// The table's widths, once output started (`[` for JSON).
    started: Option<Option<Layout>>,
    /// Items written so far (a JSON comma goes before all but the first).
    written: usize,
}

impl TaskOutput {
    pub fn new(json: bool) -> Self {
        TaskOutput {
            json,
            held: Vec::new(),
            held_bytes: 0,
            started: None,
            written: 0,
        }
    }

    /// A page arrived; `false`: nobody reads the output any more.
    pub fn page(&mut self, items: Vec<Box<RawValue>>) -> Result<bool, Failure> {
        if self.started.is_some() {
            self.write(&items)?;
        } else {
            self.held_bytes += items.iter().map(|i| i.get().len()).sum::<usize>();
            self.held.extend(items);
            if self.held.len() >= HOLD_ITEMS || self.held_bytes >= HOLD_BYTES {
                self.start()?;
            }
        }
        Ok(!STDOUT_GONE.load(Ordering::Relaxed))
    }

    /// The walk ended: what is held, then the end of the output.
    pub fn finish(mut self) -> Result<(), Failure> {
        if self.started.is_none() {
            self.start()?;
        }
        if self.json {
            emit_json("]\n")?;
        }
        Ok(())
    }

    /// Output starts: the table's header (widths fitted to the held rows)
    /// or `[`, then the held rows.
    fn start(&mut self) -> Result<(), Failure> {
        let held = std::mem::take(&mut self.held);
        self.held_bytes = 0;
        if self.json {
            self.started = Some(None);
            emit_json("[")?;
        } else {
            let parsed: Vec<TaskItem> = held.iter().map(|r| TaskItem::from_json(r.get())).collect();
            let layout = Layout::fit(
                &parsed,
                table::output_width(),
                table::use_colour(),
                jiff::Timestamp::now(),
            )
            .whole_titles(table::cut_width().is_none());
            emit(&format!("{}\n", layout.header()))?;
            self.started = Some(Some(layout));
        }
        self.write(&held)
    }

    fn write(&mut self, items: &[Box<RawValue>]) -> Result<(), Failure> {
        if items.is_empty() {
            return Ok(());
        }
        let mut out = String::new();
        match &self.started {
            Some(Some(layout)) => {
                let parsed: Vec<TaskItem> =
                    items.iter().map(|r| TaskItem::from_json(r.get())).collect();
                for line in layout.lines(&parsed) {
                    out.push_str(&line);
                    out.push('\n');
                }
                emit(&out)?;
            }
            _ => {
                out.reserve(items.iter().map(|i| i.get().len() + 1).sum());
                for (i, item) in items.iter().enumerate() {
                    if self.written + i > 0 {
                        out.push(',');
                    }
                    // Each item exactly as received: lossless, unknown
                    // fields kept.
                    out.push_str(item.get());
                }
                emit_json(&out)?;
            }
        }
        self.written += items.len();
        Ok(())
    }
}
