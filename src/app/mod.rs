//! The TUI: state, actions, reducer and event loop.

use crate::api::Client;
use crate::config::Settings;

/// How the TUI was started.
#[derive(Clone, Debug, Default)]
pub struct LaunchInfo {
    /// Set in `taskdeck demo`: shown as a DEMO badge.
    pub demo: bool,
}

/// Run the TUI until the user quits; returns the process exit code.
pub async fn run(
    client: Client,
    settings: Settings,
    launch: LaunchInfo,
) -> color_eyre::Result<i32> {
    let _ = (client, settings, launch);
    eprintln!("taskdeck: the TUI is not built yet");
    Ok(1)
}
