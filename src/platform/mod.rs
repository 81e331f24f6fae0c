//! The operating system, below everything else (a leaf: it names no other
//! module of the crate).
//!
//! - `ffi`: every `unsafe` call of the crate (libc, SQLite's C library),
//!   each behind a safe function that states its safety argument; the
//!   only module `#![deny(unsafe_code)]` lets through.
//! - `child`: the one way to run a child with a time limit, in a process
//!   group of its own, tracked in the one registry of running groups that
//!   taskdeck's exit (a second signal too) ends.

pub mod child;
#[allow(unsafe_code)]
pub mod ffi;
