//! What a run is configured with: the settings, the diagnostics of the
//! file, where the key comes from, and the key itself on demand.

use super::key_command::{run_key_command_detached, run_key_command_within, KeyError};
use crate::api::ApiKey;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub const ENV_CONFIG: &str = "TASKDECK_CONFIG";
pub const ENV_BASE_URL: &str = "TASKDECK_BASE_URL";
pub const ENV_API_KEY: &str = "TASKDECK_API_KEY";

/// The top level's connection as a profile, unless `default_profile`
/// names it otherwise.
pub const DEFAULT_PROFILE: &str = "default";

/// Effective settings for one run (after profile selection and env overrides).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Base URL of the service, e.g. `https://tasks.example.com`.
    pub base_url: Option<String>,
    /// `colors`: `truecolor`, `256`, `16` or `auto` (`None`: auto, from
    /// `COLORTERM` and `TERM`).
    pub colors: Option<String>,
    /// `copy_command`: copying pipes the text into it (`sh -c`), before
    /// any other way (`wl-copy`, `xclip -sel clip`, `pbcopy`).
    pub copy_command: Option<String>,
    /// Page size for the task list (1..=100).
    pub page_size: u32,
    /// Periodic refresh of the list, in seconds (0 = off).
    pub refresh_secs: u64,
    /// The inbox's walk, every N seconds (0 = only when asked, `r` in the
    /// inbox); at least 30.
    pub inbox_refresh_secs: u64,
    /// `inbox_profiles = "all" | "current"`: the TUI's inbox shows every
    /// configured profile's items (each walked with its own connection
    /// and store) or the current profile's only. Default all.
    pub inbox_all_profiles: bool,
    /// Theme name: `auto` (the default), `dark`, `light` or `high-contrast`.
    pub theme: String,
    /// Mouse support (off by default so terminal selection keeps working).
    pub mouse: bool,
    /// `accessible`: the screen reader's and braille display's view (the
    /// terminal's cursor on the focus, no box drawing, nothing redrawn
    /// while idle); also `--accessible` and `TASKDECK_ACCESSIBLE=1`.
    pub accessible: bool,
    /// Keymap overrides: context -> (key -> action name).
    pub keys: BTreeMap<String, BTreeMap<String, String>>,
    /// Problems found while loading (shown on screen, never fatal).
    pub warnings: Vec<String>,
    /// The named profile in use (`[profiles.NAME]`); `None`: the top
    /// level's connection, the profile [`Settings::default_profile`]
    /// names (`--profile default` selects it too, and is `None` here).
    pub profile: Option<String>,
    /// `default_profile`: the name of the top level's connection as a
    /// profile (`--profile`, `:profile`, the inbox's labels, `doctor`).
    /// Default `default`.
    pub default_profile: String,
    /// `time_zone`: an IANA name, `utc` or `system` (checked when loaded);
    /// `None` means `TZ`, else the system's zone.
    pub time_zone: Option<String>,
    /// `cache`: keep a local store (`false`: nothing is written).
    pub cache: bool,
    /// `prefetch`: fetch the tabs of the tasks around the cursor.
    pub prefetch: bool,
    /// `http2`: HTTP/2 where the service offers it (`false`: HTTP/1.1 only).
    pub http2: bool,
    /// `http2 = "always"`: HTTP/2 with prior knowledge over plain http too.
    pub http2_always: bool,
    /// `ca_file` (top level or the profile's): PEM certificates trusted
    /// besides the system's roots.
    pub ca_file: Option<PathBuf>,
    /// `[[views]]`: saved views (a name like a built-in one replaces it).
    pub views: Vec<ViewEntry>,
    /// `[[commands]]`: custom commands.
    pub commands: Vec<CommandEntry>,
    /// `[[macros]]`: reply, comment, field changes and reminders in one
    /// go (issue 44); only those without a fault (`domain::macros::faults`).
    pub macros: Vec<crate::domain::macros::Macro>,
    /// `notify`, `notify_command`, `notify_osc`: how something new is told.
    pub notify: Notify,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            base_url: None,
            copy_command: None,
            colors: None,
            page_size: 50,
            refresh_secs: 60,
            inbox_refresh_secs: 120,
            inbox_all_profiles: true,
            theme: "auto".into(),
            mouse: false,
            accessible: false,
            keys: BTreeMap::new(),
            warnings: Vec::new(),
            profile: None,
            default_profile: DEFAULT_PROFILE.into(),
            time_zone: None,
            cache: true,
            prefetch: true,
            http2: true,
            http2_always: false,
            ca_file: None,
            views: Vec::new(),
            commands: Vec::new(),
            macros: Vec::new(),
            notify: Notify::default(),
        }
    }
}

impl Settings {
    /// The profile in use, by its name: the named one, else the top
    /// level's ([`Settings::default_profile`]).
    pub fn profile_name(&self) -> &str {
        self.profile.as_deref().unwrap_or(&self.default_profile)
    }
}

/// What `theme` takes: `auto` (light or dark as the terminal's background
/// is: `tui::background`) and the built-in themes.
pub const THEMES: &[&str] = &["auto", "dark", "light", "high-contrast"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem in the configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// 1-based line in the config file, when the problem is in the file.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "config line {l}: {}", self.message),
            None => write!(f, "config: {}", self.message),
        }
    }
}

/// 1-based lines of the `[keys.CONTEXT]` tables and of each key in them,
/// so that problems found later (e.g. by the keymap) can point at the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyLines {
    /// Context name -> line of its table header (or first mention).
    pub contexts: BTreeMap<String, usize>,
    /// (context, key) -> line of the key.
    pub keys: BTreeMap<(String, String), usize>,
}

impl KeyLines {
    pub fn context(&self, ctx: &str) -> Option<usize> {
        self.contexts.get(ctx).copied()
    }
    pub fn key(&self, ctx: &str, key: &str) -> Option<usize> {
        self.keys.get(&(ctx.to_string(), key.to_string())).copied()
    }
}

/// Where the API key would come from (nothing is run or read to know this).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeySource {
    None,
    Env,
    /// `api_key` in the file (top level or the profile).
    File,
    /// `api_key_command` (top level or the profile).
    Command(String),
}

impl KeySource {
    /// Where the key comes from, in one word, for the log: never the
    /// command itself, which may hold a secret (`printf %s sk-…`).
    pub fn kind(&self) -> &'static str {
        match self {
            KeySource::None => "none",
            KeySource::Env => "environment",
            KeySource::File => "config file",
            KeySource::Command(_) => "api_key_command",
        }
    }
}

impl fmt::Display for KeySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeySource::None => f.write_str("not configured"),
            KeySource::Env => write!(f, "from ${ENV_API_KEY}"),
            KeySource::File => f.write_str("from api_key in the config file"),
            KeySource::Command(c) => write!(f, "from api_key_command `{}`", crate::text::clean(c)),
        }
    }
}

/// Everything loaded from the config file and the environment.
#[derive(Clone, Debug)]
pub struct Config {
    pub path: PathBuf,
    pub file_exists: bool,
    pub settings: Settings,
    pub diagnostics: Vec<Diagnostic>,
    /// The file could not be used at all (unreadable or not TOML).
    pub file_unusable: bool,
    /// `--profile` named a profile the file does not define.
    pub unknown_profile: bool,
    /// Where the `[keys.CONTEXT]` tables and their keys are in the file.
    pub key_lines: KeyLines,
    pub(super) key_source: KeySource,
    pub(super) file_key: Option<ApiKey>,
    pub(super) env_key: Option<ApiKey>,
    /// How long `api_key_command` may run.
    pub key_command_timeout: Duration,
    /// Every profile, by name, read in the same pass as everything else:
    /// the top level's connection first (named by `default_profile`) when
    /// the file's top level names one (`base_url`, `api_key` or
    /// `api_key_command`), then the `[profiles.NAME]` tables, sorted.
    pub profiles: Vec<String>,
}

impl Config {
    pub fn key_source(&self) -> &KeySource {
        &self.key_source
    }

    /// Errors that make the configuration unusable for talking to a service.
    pub fn fatal(&self) -> Option<String> {
        let pick = |want: fn(&Diagnostic) -> bool| {
            self.diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error && want(d))
                .map(|d| format!("{}: {d}", self.path.display()))
        };
        if self.file_unusable {
            pick(|_| true)
        } else if self.unknown_profile {
            pick(|d| d.message.starts_with("profile `"))
        } else {
            None
        }
    }

    /// The API key: from the environment, the file, or by running
    /// `api_key_command`. `Ok(None)` when none is configured. The key is
    /// registered with [`crate::secret`], so that no string leaving the
    /// program (screen, errors, stdout/stderr, log file, clipboard) holds it.
    pub fn api_key(&self) -> Result<Option<ApiKey>, KeyError> {
        self.key(true)
    }

    /// [`Config::api_key`] away from the terminal (a profile connected in
    /// the background while the TUI holds the screen):
    /// `api_key_command` runs without a terminal
    /// ([`run_key_command_detached`]).
    pub fn api_key_detached(&self) -> Result<Option<ApiKey>, KeyError> {
        self.key(false)
    }

    /// What a connection made from this configuration is made of, the key
    /// aside: equal for two loads that would connect alike (the base URL,
    /// the connection settings, where the key comes from: the command's
    /// text, or a digest of a key given in the file or the environment).
    /// Compared in memory only; never shown or logged.
    pub fn connection_recipe(&self) -> String {
        use sha2::{Digest, Sha256};
        let digest = |k: &Option<ApiKey>| {
            let k = k.as_ref().map(|k| k.expose()).unwrap_or("");
            format!("{:x}", Sha256::digest(k.as_bytes()))
        };
        let source = match &self.key_source {
            KeySource::None => "none".to_string(),
            KeySource::Env => format!("env {}", digest(&self.env_key)),
            KeySource::File => format!("file {}", digest(&self.file_key)),
            KeySource::Command(cmd) => format!("command {cmd}"),
        };
        let s = &self.settings;
        format!(
            "{:?}\n{}\n{}\n{:?}\n{}\n{source}",
            s.base_url, s.http2, s.http2_always, s.ca_file, s.cache
        )
    }

    fn key(&self, attached: bool) -> Result<Option<ApiKey>, KeyError> {
        let key = match &self.key_source {
            KeySource::None => None,
            KeySource::Env => self.env_key.clone(),
            KeySource::File => self.file_key.clone(),
            KeySource::Command(cmd) if attached => {
                Some(run_key_command_within(cmd, self.key_command_timeout)?)
            }
            KeySource::Command(cmd) => {
                Some(run_key_command_detached(cmd, self.key_command_timeout)?)
            }
        };
        if let Some(k) = &key {
            crate::secret::register(k.expose());
        }
        Ok(key)
    }
}

pub(super) fn env_nonempty(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A saved view: a name, the filter as `:filter` words (kept as written,
/// so `to=today` is read again each time the view is chosen), and an
/// optional key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewEntry {
    pub name: String,
    pub filter: String,
    pub key: Option<String>,
}

/// A custom command (`[[commands]]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandEntry {
    /// `:run NAME`; defaults to the description in lower case with dashes.
    pub name: String,
    pub key: Option<String>,
    pub description: String,
    pub run: String,
    /// Hands the terminal to the command (the TUI is suspended meanwhile).
    pub interactive: bool,
    /// Once for all the targets (`{ids}`) instead of once per task.
    pub once: bool,
    pub timeout_secs: u64,
}

/// The ways a notification reaches the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notify {
    /// One BEL per notification.
    pub bell: bool,
    /// A desktop notification through the terminal (OSC 9, 777 or 99).
    pub desktop: bool,
    /// The terminal's title carries the inbox's count.
    pub title: bool,
    /// `notify_command`: run once per notification (`sh -c`, values in
    /// its environment).
    pub command: Option<String>,
    /// `notify_osc`: 9, 777 or 99 (`None`: chosen from the terminal).
    pub osc: Option<u16>,
}

impl Default for Notify {
    fn default() -> Self {
        Notify {
            bell: false,
            desktop: false,
            title: true,
            command: None,
            osc: None,
        }
    }
}

/// The words `notify` takes.
pub const NOTIFY_WAYS: &[&str] = &["bell", "desktop", "title"];

/// The OSC numbers `notify_osc` takes.
pub const NOTIFY_OSCS: &[u16] = &[9, 777, 99];

impl Notify {
    /// `notify = [...]` as written: any of bell, desktop, title.
    pub fn ways(list: &[&str]) -> Result<(bool, bool, bool), String> {
        let mut out = (false, false, false);
        for w in list {
            match w.trim() {
                "bell" => out.0 = true,
                "desktop" => out.1 = true,
                "title" => out.2 = true,
                other => {
                    return Err(format!(
                        "`notify` takes {}, not {:?}",
                        NOTIFY_WAYS.join(", "),
                        crate::text::clean(other)
                    ))
                }
            }
        }
        Ok(out)
    }
}
