//! What is known locally and what waits for the service: the memory and
//! the store's side of it (`cache`, `known`, `boot`), what the user saw
//! (`seen`), the one staleness rule (`freshness`), offline (`offline`) and
//! the outbox (`outbox`).

pub mod boot;
pub mod cache;
pub mod freshness;
pub mod known;
pub mod offline;
pub mod outbox;
pub mod seen;
