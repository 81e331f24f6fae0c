//! What makes the sandbox odd on purpose: injected faults (`faults`, applied
//! by the `middleware` around every route) and the quirks a real service may
//! have where the spec says "not shown" (`quirks`).

pub mod faults;
pub mod middleware;
pub mod quirks;
