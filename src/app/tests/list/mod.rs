//! Reducer tests of the list and moving through it (`app/list`).

// The helpers of `tests/mod.rs` for the tests below (each `use super::*`).
#[allow(unused_imports)]
use super::*;

mod keys;
mod live_filter;
mod navigation;
mod numbers;
mod prefetch;
mod refresh;
mod settle;
mod walk;
