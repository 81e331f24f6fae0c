//! One async function per endpoint of the service, as methods of
//! [`Client`](super::Client), grouped by subject.

mod artifacts;
mod conversation;
mod identity;
mod links;
mod sharing;
mod tasks;

pub use tasks::{RawPage, TaskPage};
