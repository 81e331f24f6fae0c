//! The state machine of the TUI: `State` (`state.rs`), the reducer, the
//! commands, and one module per feature. The loop that owns it, with the
//! terminal, the worker and the other side effects, is `crate::tui`.

pub mod board;
pub mod boot;
pub mod bulk;
pub mod cache;
pub mod changes;
pub mod command;
pub mod commands;
pub mod composer;
mod conflict;
pub mod custom;
pub use crate::domain::dates;
pub mod directory;
pub mod drafts;
pub mod fields;
pub mod freshness;
pub use crate::domain::fuzzy;
pub mod history;
pub mod inbox;
pub mod input;
pub use crate::domain::keymap;
pub mod known;
pub mod layout;
pub mod list_refresh;
pub mod marks;
pub mod names;
pub mod narrow;
pub mod navigation;
pub mod numbers;
pub mod offline;
pub mod outbox;
pub mod panes;
pub mod pickers;
mod quit;
pub use quit::{quit_lines, WritesInFlight};
pub mod popups;
pub mod prefetch;
pub mod reducer;
pub mod requests;
pub mod results;
pub mod screen;
pub mod seen;
mod sends;
pub mod settle;
pub mod share;
pub mod state;
pub mod views;

#[cfg(test)]
pub(crate) mod tests;

use crate::config::Settings;
use state::{Level, State};

/// Build the state for a run (also used by tests and benchmarks).
pub fn new_state(client_host: String, settings: &Settings, demo: bool) -> State {
    let (keymap, key_warnings) = keymap::Keymap::load(&settings.keys);
    let mut s = State::new(
        keymap,
        client_host,
        demo,
        settings.page_size,
        settings.refresh_secs,
    );
    s.prefetch.on = settings.prefetch;
    let data_warnings = s.install_config(settings);
    for w in settings
        .warnings
        .iter()
        .chain(key_warnings.iter())
        .chain(data_warnings.iter())
    {
        s.say(Level::Warn, w.clone());
    }
    let n = settings.warnings.len() + key_warnings.len() + data_warnings.len();
    if n > 1 {
        s.say(
            Level::Warn,
            format!("{n} configuration warnings — ctrl-l lists them"),
        );
    }
    s
}
