//! Reducer tests of views, tabs and the board (`app/views`).

// The helpers of `tests/mod.rs` for the tests below (each `use super::*`).
#[allow(unused_imports)]
use super::*;

pub(crate) mod board;
mod filters;
pub(crate) mod saved;
mod tabs;
