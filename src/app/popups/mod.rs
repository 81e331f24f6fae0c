//! Overlays, one module each: its state, its keys, its help. `overlay_key`
//! (`handle.rs`) hands a key to the open one.

pub mod chooser;
pub mod compose;
pub mod confirm;
pub mod conflict;
pub mod filter_form;
pub mod help;
pub mod inbox;
pub mod palette;
pub mod search;
pub mod sharing;
pub mod switcher;
pub mod text;

mod handle;
