//! Reducer tests of changing the current task and writing (`app/edit`).

// The helpers of `tests/mod.rs` for the tests below (each `use super::*`).
#[allow(unused_imports)]
use super::*;

mod changes;
mod collab;
mod compose;
mod compose_lines;
mod draft_owner;
mod edits;
mod link_pause;
mod name_matcher;
mod names;
mod pickers;
mod review;
