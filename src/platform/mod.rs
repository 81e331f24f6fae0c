//! The operating system, below everything else (a leaf: it names no other
//! module of the crate).
//!
//! - `ffi`: every `unsafe` call of the crate (libc, SQLite's C library),
//!   each behind a safe function that states its safety argument; the
//!   only module `#![deny(unsafe_code)]` lets through.
//! - `child`: the one way to run a child with a time limit, in a process
//!   group of its own, tracked in the one registry of running groups that
//!   taskdeck's exit (a second signal too) ends.
//! - `spill`: the last place for the composer's text that no draft could
//!   keep at a quit or hang-up (`$XDG_RUNTIME_DIR/taskdeck/`, else
//!   `$TMPDIR/taskdeck-$UID/`, else `/tmp/taskdeck-$UID/`), and the files
//!   found there at the next start.

pub mod child;
#[allow(unsafe_code)]
pub mod ffi;
pub mod spill;
