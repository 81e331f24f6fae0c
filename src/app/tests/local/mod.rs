//! Reducer tests of what is known locally and what waits (`app/local`).

// The helpers of `tests/mod.rs` for the tests below (each `use super::*`).
#[allow(unused_imports)]
use super::*;

mod backoff;
mod connection;
mod known;
mod outbox;
mod outbox_behind;
mod outbox_cancel;
mod outbox_chain;
mod outbox_order;
mod owner;
pub(crate) mod store;
