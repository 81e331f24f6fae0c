//! The state machine of the TUI: `State` (`state/mod.rs`), the reducer, the
//! commands, and one module per feature. The loop that owns it, with the
//! terminal, the worker and the other side effects, is `crate::tui`.

pub mod bulk;
pub mod custom;
pub use crate::domain::dates;
pub mod dispatch;
pub mod edit;
pub use crate::domain::fuzzy;
pub mod inbox;
pub use crate::domain::keymap;
pub mod list;
pub mod local;
pub mod popups;
pub use dispatch::quit::{quit_lines, WritesInFlight};
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
    s.accessible = settings.accessible;
    s.default_profile = settings.default_profile.clone();
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
