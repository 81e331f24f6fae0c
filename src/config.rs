//! Configuration: the config file, profiles, environment and the API key.
//!
//! Loading and validation are filled in by the CLI work; the shape below is
//! what the TUI consumes.

use std::collections::BTreeMap;

/// Effective settings for one run (after profile selection and env overrides).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Base URL of the service, e.g. `https://tasks.example.com`.
    pub base_url: Option<String>,
    /// Page size for the task list (1..=100).
    pub page_size: u32,
    /// Periodic refresh of the list, in seconds (0 = off).
    pub refresh_secs: u64,
    /// Theme name: `dark`, `light` or `high-contrast`.
    pub theme: String,
    /// Mouse support (off by default so terminal selection keeps working).
    pub mouse: bool,
    /// Keymap overrides: context -> (key -> action name).
    pub keys: BTreeMap<String, BTreeMap<String, String>>,
    /// Problems found while loading (shown on screen, never fatal).
    pub warnings: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            base_url: None,
            page_size: 50,
            refresh_secs: 60,
            theme: "dark".into(),
            mouse: false,
            keys: BTreeMap::new(),
            warnings: Vec::new(),
        }
    }
}

/// The XDG state dir for logs, drafts and editor files.
pub fn state_dir() -> std::path::PathBuf {
    std::env::var_os("XDG_STATE_HOME")
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| dirs::home_dir().map(|h| h.join(".local").join("state")))
        .unwrap_or_else(std::env::temp_dir)
        .join("taskdeck")
}
