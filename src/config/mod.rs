//! Configuration: the config file, profiles, environment and the API key.
//!
//! Precedence, lowest first: built-in defaults, the top level of the config
//! file, the selected `[profiles.NAME]` table (connection keys only), then the
//! environment (`TASKDECK_BASE_URL`, `TASKDECK_API_KEY`). Problems never stop
//! loading: they become [`Diagnostic`]s (with line numbers) and
//! `Settings.warnings`. The API key is kept apart from [`Settings`] and is
//! only produced by [`Config::api_key`].

mod entries;
mod key_command;
mod parse;
mod paths;
mod save;

pub use entries::{builtin_views, name_key, CommandEntry, ViewEntry};
use key_command::KEY_COMMAND_TIMEOUT_MAX_SECS;
pub use key_command::{
    run_key_command, run_key_command_within, KeyError, KEY_COMMAND_OUTPUT_MAX, KEY_COMMAND_TIMEOUT,
};
pub use parse::from_str;
pub use paths::{
    config_path, ensure_private_dir, read_regular_file, state_dir, write_private_file,
    CONFIG_MAX_BYTES,
};
pub use save::save_view;

use crate::api::ApiKey;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

pub const ENV_CONFIG: &str = "TASKDECK_CONFIG";
pub const ENV_BASE_URL: &str = "TASKDECK_BASE_URL";
pub const ENV_API_KEY: &str = "TASKDECK_API_KEY";

/// Effective settings for one run (after profile selection and env overrides).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Base URL of the service, e.g. `https://tasks.example.com`.
    pub base_url: Option<String>,
    /// `copy_command`: copying pipes the text into it (`sh -c`), before
    /// any other way (`wl-copy`, `xclip -sel clip`, `pbcopy`).
    pub copy_command: Option<String>,
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
    /// The profile in use, if any.
    pub profile: Option<String>,
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
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            base_url: None,
            copy_command: None,
            page_size: 50,
            refresh_secs: 60,
            theme: "dark".into(),
            mouse: false,
            keys: BTreeMap::new(),
            warnings: Vec::new(),
            profile: None,
            time_zone: None,
            cache: true,
            prefetch: true,
            http2: true,
            http2_always: false,
            ca_file: None,
            views: Vec::new(),
            commands: Vec::new(),
        }
    }
}

pub const THEMES: &[&str] = &["dark", "light", "high-contrast"];

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
    key_source: KeySource,
    file_key: Option<ApiKey>,
    env_key: Option<ApiKey>,
    /// How long `api_key_command` may run.
    pub key_command_timeout: Duration,
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
            pick(|d| d.line.is_none() && d.message.starts_with("profile `"))
        } else {
            None
        }
    }

    /// The API key: from the environment, the file, or by running
    /// `api_key_command`. `Ok(None)` when none is configured. The key is
    /// registered with [`crate::secret`], so that no string leaving the
    /// program (screen, errors, stdout/stderr, log file, clipboard) holds it.
    pub fn api_key(&self) -> Result<Option<ApiKey>, KeyError> {
        let key = match &self.key_source {
            KeySource::None => None,
            KeySource::Env => self.env_key.clone(),
            KeySource::File => self.file_key.clone(),
            KeySource::Command(cmd) => Some(run_key_command_within(cmd, self.key_command_timeout)?),
        };
        if let Some(k) = &key {
            crate::secret::register(k.expose());
        }
        Ok(key)
    }
}

fn env_nonempty(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Load the configuration from [`config_path`] and the environment.
/// Never fails: problems are in `diagnostics`.
pub fn load(profile: Option<&str>) -> Config {
    let path = config_path();
    let text = match read_regular_file(&path, CONFIG_MAX_BYTES) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            let mut c = from_str("", profile);
            c.path = path;
            c.file_exists = true;
            c.file_unusable = true;
            c.diagnostics.insert(
                0,
                Diagnostic {
                    severity: Severity::Error,
                    line: None,
                    message: format!("cannot read the file: {e}"),
                },
            );
            c.settings.warnings = c.diagnostics.iter().map(|d| d.to_string()).collect();
            return c;
        }
    };
    let mut c = from_str(text.as_deref().unwrap_or(""), profile);
    c.path = path.clone();
    c.file_exists = text.is_some();
    if c.file_key.is_some() && group_or_other_readable(&path) {
        c.diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            line: None,
            message: format!(
                "the file holds api_key and is readable by other users; run `chmod 600 {}` \
                 or use api_key_command",
                path.display()
            ),
        });
    }
    c.settings.warnings = c.diagnostics.iter().map(|d| d.to_string()).collect();
    c
}

#[cfg(unix)]
fn group_or_other_readable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
}

#[cfg(not(unix))]
fn group_or_other_readable(_path: &Path) -> bool {
    false
}

/// The profiles the config file defines (`[profiles.NAME]`), read once.
pub fn profile_names() -> Vec<String> {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            let Ok(text) = read_regular_file(&config_path(), CONFIG_MAX_BYTES) else {
                return vec![];
            };
            let Ok(v) = text.parse::<toml::Table>() else {
                return vec![];
            };
            v.get("profiles")
                .and_then(|p| p.as_table())
                .map(|t| t.keys().cloned().collect())
                .unwrap_or_default()
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(c: &Config) -> Vec<(Option<usize>, String)> {
        c.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.line, d.message.clone()))
            .collect()
    }

    #[test]
    fn values_profiles_and_keys() {
        let src = r#"
base_url = "https://top.example"
api_key = "top-key"
page_size = 30
theme = "light"
mouse = true

[keys.list]
"ctrl-j" = "down"

[profiles.work]
base_url = "https://work.example"
api_key_command = "echo  work-key "
"#;
        let c = from_str(src, Some("work"));
        assert!(errors(&c).is_empty(), "{:?}", c.diagnostics);
        assert_eq!(c.settings.page_size, 30);
        assert_eq!(c.settings.theme, "light");
        assert!(c.settings.mouse);
        assert_eq!(c.settings.keys["list"]["ctrl-j"], "down");
        if std::env::var_os(ENV_BASE_URL).is_none() && std::env::var_os(ENV_API_KEY).is_none() {
            assert_eq!(c.settings.base_url.as_deref(), Some("https://work.example"));
            assert_eq!(
                c.key_source(),
                &KeySource::Command("echo  work-key ".into())
            );
            assert_eq!(c.api_key().unwrap().unwrap().expose(), "work-key");
            let top = from_str(src, None);
            assert_eq!(top.key_source(), &KeySource::File);
            assert_eq!(top.api_key().unwrap().unwrap().expose(), "top-key");
        }
    }

    #[test]
    fn unknown_keys_and_bad_values_have_lines() {
        let src = "theme = \"neon\"\ncolour = 1\npage_size = 500\n\n[profiles.x]\nmouse = true\n";
        let c = from_str(src, Some("nope"));
        let e = errors(&c);
        assert_eq!(e[0].0, Some(1), "{e:?}");
        assert!(e[0].1.contains("theme"));
        assert_eq!(e[1], (Some(2), "unknown key `colour`".to_string()));
        assert_eq!(e[2].0, Some(3));
        assert_eq!(e[3].0, Some(6));
        assert!(c.unknown_profile);
        assert_eq!(c.settings.theme, "dark");
        assert_eq!(c.settings.page_size, 50);
        assert_eq!(c.settings.warnings.len(), c.diagnostics.len());
    }

    #[test]
    fn a_base_url_with_credentials_is_refused_and_not_kept() {
        let c = from_str(
            "base_url = \"https://bob:hunter2-pass@work.example/api\"\n\n[profiles.p]\nbase_url = \"https://bob@other.example\"\n",
            Some("p"),
        );
        let e = errors(&c);
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[0], (Some(1), crate::api::CREDENTIALS_IN_URL.to_string()));
        assert_eq!(e[1].0, Some(4));
        let all = format!("{:?} {:?}", c.diagnostics, c.settings.warnings);
        assert!(!all.contains("hunter2") && !all.contains("bob"), "{all}");
        if std::env::var_os(ENV_BASE_URL).is_none() {
            assert_eq!(c.settings.base_url, None, "nothing of it is used");
        }
    }

    #[test]
    fn http2_is_on_unless_set_false() {
        assert!(from_str("", None).settings.http2);
        let c = from_str("http2 = false\n", None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert!(!c.settings.http2);
        let c = from_str("http2 = \"no\"\n", None);
        assert!(c.settings.http2);
        assert_eq!(errors(&c)[0].0, Some(1), "{:?}", c.diagnostics);
    }

    #[test]
    fn http2_always_and_ca_file_at_either_level() {
        let c = from_str("http2 = \"always\"\nca_file = \"/etc/ca.pem\"\n", None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert!(c.settings.http2 && c.settings.http2_always);
        assert_eq!(c.settings.ca_file, Some(PathBuf::from("/etc/ca.pem")));
        assert!(!from_str("", None).settings.http2_always);
        let c = from_str(
            "ca_file = \"/top.pem\"\n[profiles.w]\nca_file = \"~/w.pem\"\n",
            Some("w"),
        );
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        let home = dirs::home_dir().unwrap_or_default();
        assert_eq!(c.settings.ca_file, Some(home.join("w.pem")));
        let c = from_str("http2 = \"sometimes\"\n", None);
        assert!(
            c.diagnostics[0].message.contains("\"always\""),
            "{:?}",
            c.diagnostics
        );
    }

    #[test]
    fn example_config_is_clean() {
        let c = from_str(
            include_str!("../../assets/config.example.toml"),
            Some("staging"),
        );
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(c.settings.theme, "dark");
    }

    #[test]
    fn key_tables_and_keys_have_lines() {
        let src = "theme = \"dark\"\n\n[keys.list]\n\"K\" = \"fly\"\n\n[keys.bogus]\nx = \"up\"\n";
        let c = from_str(src, None);
        assert_eq!(c.key_lines.context("list"), Some(3), "{:?}", c.key_lines);
        assert_eq!(c.key_lines.key("list", "K"), Some(4));
        assert_eq!(c.key_lines.context("bogus"), Some(6));
        assert_eq!(c.key_lines.key("bogus", "x"), Some(7));
        assert_eq!(c.key_lines.key("list", "x"), None);
    }

    #[test]
    fn time_zone_is_checked_and_kept() {
        let c = from_str("time_zone = \"America/New_York\"\n", None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(c.settings.time_zone.as_deref(), Some("America/New_York"));
        for ok in ["utc", "system", "Europe/Paris"] {
            let c = from_str(&format!("time_zone = \"{ok}\"\n"), None);
            assert!(c.diagnostics.is_empty(), "{ok}: {:?}", c.diagnostics);
        }
        assert_eq!(from_str("", None).settings.time_zone, None);
        let c = from_str("mouse = true\ntime_zone = \"Atlantis/Capital\"\n", None);
        let e = errors(&c);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, Some(2));
        assert!(
            e[0].1.contains("time_zone") && e[0].1.contains("Atlantis/Capital"),
            "{e:?}"
        );
        assert_eq!(c.settings.time_zone, None);
        assert_eq!(errors(&from_str("time_zone = 5\n", None)).len(), 1);
    }

    #[test]
    fn syntax_error_has_a_line() {
        let c = from_str("a = 1\nb = = 2\n", None);
        assert!(c.file_unusable);
        assert_eq!(errors(&c)[0].0, Some(2), "{:?}", c.diagnostics);
    }

    #[test]
    fn key_command_timeout_is_configurable() {
        let c = from_str("api_key_command_timeout_secs = 5\n", None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(c.key_command_timeout, Duration::from_secs(5));
        assert_eq!(from_str("", None).key_command_timeout, KEY_COMMAND_TIMEOUT);
        for bad in ["0", "601", "\"30\""] {
            let c = from_str(&format!("api_key_command_timeout_secs = {bad}\n"), None);
            assert_eq!(errors(&c).len(), 1, "{bad}: {:?}", c.diagnostics);
            assert_eq!(c.key_command_timeout, KEY_COMMAND_TIMEOUT);
        }
    }

    #[test]
    fn a_loaded_key_is_registered_for_scrubbing() {
        let c = from_str("api_key_command = \"printf config-rs-key-987\"\n", None);
        if std::env::var_os(ENV_API_KEY).is_none() {
            let k = c.api_key().unwrap().unwrap();
            assert_eq!(k.expose(), "config-rs-key-987");
            assert_eq!(
                crate::secret::scrub("echo: config-rs-key-987"),
                "echo: [redacted]"
            );
        }
    }
}
