//! Configuration: the config file, profiles, environment and the API key.
//!
//! Precedence, lowest first: built-in defaults, the top level of the config
//! file, the selected `[profiles.NAME]` table (connection keys only), then the
//! environment (`TASKDECK_BASE_URL`, `TASKDECK_API_KEY`). Problems never stop
//! loading: they become [`Diagnostic`]s (with line numbers) and
//! `Settings.warnings`. The API key is kept apart from [`Settings`] and is
//! only produced by [`Config::api_key`].

mod key_command;
mod paths;

use key_command::KEY_COMMAND_TIMEOUT_MAX_SECS;
pub use key_command::{run_key_command, run_key_command_within, KeyError, KEY_COMMAND_TIMEOUT};
pub use paths::{config_path, ensure_private_dir, state_dir, write_private_file};

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
            profile: None,
            time_zone: None,
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
    let text = match std::fs::read_to_string(&path) {
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

/// Connection keys, as found at one level (top or profile).
#[derive(Default)]
struct Conn {
    base_url: Option<String>,
    api_key: Option<String>,
    api_key_command: Option<String>,
}

struct Parser<'a> {
    src: &'a str,
    diags: Vec<Diagnostic>,
}

impl Parser<'_> {
    fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.src.len());
        self.src.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }
    fn error(&mut self, offset: usize, message: String) {
        let line = Some(self.line(offset));
        self.diags.push(Diagnostic {
            severity: Severity::Error,
            line,
            message,
        });
    }
    fn warn(&mut self, offset: usize, message: String) {
        let line = Some(self.line(offset));
        self.diags.push(Diagnostic {
            severity: Severity::Warning,
            line,
            message,
        });
    }

    fn string(&mut self, key: &str, v: &Spanned<DeValue<'_>>) -> Option<String> {
        match v.get_ref().as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                self.error(
                    v.span().start,
                    format!("`{key}` must be a string, not {}", v.get_ref().type_str()),
                );
                None
            }
        }
    }

    fn integer(&mut self, key: &str, v: &Spanned<DeValue<'_>>, min: i64, max: i64) -> Option<i64> {
        let n = v
            .get_ref()
            .as_integer()
            .and_then(|i| i64::from_str_radix(i.as_str(), i.radix()).ok());
        match n {
            Some(n) if (min..=max).contains(&n) => Some(n),
            _ => {
                let shown = match v.get_ref() {
                    DeValue::Integer(i) => i.to_string(),
                    other => other.type_str().to_string(),
                };
                self.error(
                    v.span().start,
                    format!("`{key}` must be an integer from {min} to {max}, not {shown}"),
                );
                None
            }
        }
    }

    /// A connection key at either level; returns true when `key` is one.
    fn conn_key(&mut self, conn: &mut Conn, key: &str, v: &Spanned<DeValue<'_>>) -> bool {
        match key {
            "base_url" => {
                if let Some(s) = self.string(key, v) {
                    match reqwest::Url::parse(s.trim()) {
                        Ok(u) if matches!(u.scheme(), "http" | "https") => {
                            conn.base_url = Some(s.trim().to_string())
                        }
                        Ok(u) => self.error(
                            v.span().start,
                            format!("`base_url` must be http or https, not {}", u.scheme()),
                        ),
                        Err(e) => {
                            self.error(v.span().start, format!("`base_url` is not a URL: {e}"))
                        }
                    }
                }
            }
            "api_key" => {
                if let Some(s) = self.string(key, v) {
                    if s.trim().is_empty() {
                        self.error(v.span().start, "`api_key` is empty".into());
                    } else {
                        conn.api_key = Some(s);
                    }
                }
            }
            "api_key_command" => {
                if let Some(s) = self.string(key, v) {
                    if s.trim().is_empty() {
                        self.error(v.span().start, "`api_key_command` is empty".into());
                    } else {
                        conn.api_key_command = Some(s);
                    }
                }
            }
            _ => return false,
        }
        true
    }
}

/// Parse config text (as if read from the config file) and apply the
/// environment. `path` is left empty.
pub fn from_str(src: &str, profile: Option<&str>) -> Config {
    let mut p = Parser {
        src,
        diags: Vec::new(),
    };
    let mut settings = Settings::default();
    let mut top = Conn::default();
    let mut prof = Conn::default();
    let mut file_unusable = false;
    let mut profile_found = false;
    let mut key_lines = KeyLines::default();
    let mut key_command_timeout = KEY_COMMAND_TIMEOUT;

    match DeTable::parse(src) {
        Err(e) => {
            file_unusable = true;
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            let msg = e.message().trim().to_string();
            p.error(offset, format!("not valid TOML: {msg}"));
        }
        Ok(doc) => {
            for (k, v) in doc.get_ref().iter() {
                let key: &str = k.get_ref();
                let at = k.span().start;
                if p.conn_key(&mut top, key, v) {
                    continue;
                }
                match key {
                    "page_size" => {
                        if let Some(n) = p.integer(key, v, 1, 100) {
                            settings.page_size = n as u32;
                        }
                    }
                    "api_key_command_timeout_secs" => {
                        if let Some(n) = p.integer(key, v, 1, KEY_COMMAND_TIMEOUT_MAX_SECS) {
                            key_command_timeout = Duration::from_secs(n as u64);
                        }
                    }
                    "refresh_secs" => {
                        if let Some(n) = p.integer(key, v, 0, 86_400) {
                            settings.refresh_secs = n as u64;
                        }
                    }
                    "theme" => {
                        if let Some(s) = p.string(key, v) {
                            if THEMES.contains(&s.as_str()) {
                                settings.theme = s;
                            } else {
                                p.error(
                                    v.span().start,
                                    format!(
                                        "`theme` must be one of {}, not {s:?}",
                                        THEMES.join(", ")
                                    ),
                                );
                            }
                        }
                    }
                    "time_zone" => {
                        if let Some(s) = p.string(key, v) {
                            match crate::app::dates::resolve_zone(&s) {
                                Ok(_) => settings.time_zone = Some(s.trim().to_string()),
                                Err(e) => p.error(v.span().start, format!("`time_zone`: {e}")),
                            }
                        }
                    }
                    "mouse" => match v.get_ref().as_bool() {
                        Some(b) => settings.mouse = b,
                        None => p.error(
                            v.span().start,
                            format!(
                                "`mouse` must be true or false, not {}",
                                v.get_ref().type_str()
                            ),
                        ),
                    },
                    "keys" => parse_keys(&mut p, v, &mut settings.keys, &mut key_lines),
                    "profiles" => match v.get_ref().as_table() {
                        Some(t) => {
                            for (name, body) in t.iter() {
                                let name: &str = name.get_ref();
                                let Some(body_t) = body.get_ref().as_table() else {
                                    p.error(
                                        body.span().start,
                                        format!("profile `{name}` must be a table"),
                                    );
                                    continue;
                                };
                                let selected = profile == Some(name);
                                profile_found |= selected;
                                let mut local = Conn::default();
                                for (k2, v2) in body_t.iter() {
                                    let key2: &str = k2.get_ref();
                                    if !p.conn_key(&mut local, key2, v2) {
                                        p.error(
                                            k2.span().start,
                                            format!(
                                                "unknown key `{}` in profile `{name}` (profiles \
                                                 take base_url, api_key, api_key_command)",
                                                crate::text::clean(key2)
                                            ),
                                        );
                                    }
                                }
                                if local.api_key.is_some() && local.api_key_command.is_some() {
                                    p.warn(
                                        body.span().start,
                                        format!(
                                            "profile `{name}` sets both api_key and \
                                             api_key_command; api_key_command is used"
                                        ),
                                    );
                                }
                                if selected {
                                    prof = local;
                                }
                            }
                        }
                        None => p.error(at, "`profiles` must be a table".into()),
                    },
                    other => p.error(at, format!("unknown key `{}`", crate::text::clean(other))),
                }
            }
            if top.api_key.is_some() && top.api_key_command.is_some() {
                p.warn(
                    0,
                    "both api_key and api_key_command are set; api_key_command is used".into(),
                );
            }
        }
    }

    let unknown_profile = match profile {
        Some(name) if !profile_found => {
            p.diags.push(Diagnostic {
                severity: Severity::Error,
                line: None,
                message: format!(
                    "profile `{}` is not defined (add a [profiles.{}] table)",
                    crate::text::clean(name),
                    crate::text::clean(name)
                ),
            });
            true
        }
        _ => false,
    };
    settings.profile = profile.map(str::to_string);

    // The most specific level that names a key source wins as a whole.
    let level = if prof.api_key.is_some() || prof.api_key_command.is_some() {
        &prof
    } else {
        &top
    };
    let mut file_key = level.api_key.as_deref().map(ApiKey::new);
    let mut key_source = match (&level.api_key_command, &file_key) {
        (Some(cmd), _) => KeySource::Command(cmd.clone()),
        (None, Some(_)) => KeySource::File,
        (None, None) => KeySource::None,
    };
    if matches!(key_source, KeySource::Command(_)) {
        file_key = None;
    }
    let env_key = env_nonempty(ENV_API_KEY).map(ApiKey::new);
    if env_key.is_some() {
        key_source = KeySource::Env;
    }

    settings.base_url = env_nonempty(ENV_BASE_URL)
        .or(prof.base_url)
        .or(top.base_url);

    // Report in file order (tables iterate in key order).
    p.diags.sort_by_key(|d| d.line.unwrap_or(usize::MAX));
    settings.warnings = p.diags.iter().map(|d| d.to_string()).collect();
    Config {
        path: PathBuf::new(),
        file_exists: true,
        settings,
        diagnostics: p.diags,
        file_unusable,
        unknown_profile,
        key_lines,
        key_source,
        file_key,
        env_key,
        key_command_timeout,
    }
}

fn parse_keys(
    p: &mut Parser<'_>,
    v: &Spanned<DeValue<'_>>,
    out: &mut BTreeMap<String, BTreeMap<String, String>>,
    lines: &mut KeyLines,
) {
    let Some(t) = v.get_ref().as_table() else {
        p.error(
            v.span().start,
            "`keys` must be a table of [keys.CONTEXT] tables".into(),
        );
        return;
    };
    for (ctx_k, body) in t.iter() {
        let ctx: &str = ctx_k.get_ref();
        let ctx_line = p.line(ctx_k.span().start);
        lines.contexts.entry(ctx.to_string()).or_insert(ctx_line);
        let Some(bt) = body.get_ref().as_table() else {
            p.error(
                body.span().start,
                format!("`keys.{ctx}` must be a table mapping keys to action names"),
            );
            continue;
        };
        let entry = out.entry(ctx.to_string()).or_default();
        for (k, a) in bt.iter() {
            let key: &str = k.get_ref();
            lines
                .keys
                .insert((ctx.to_string(), key.to_string()), p.line(k.span().start));
            match a.get_ref().as_str() {
                Some(action) => {
                    entry.insert(key.to_string(), action.to_string());
                }
                None => p.error(
                    a.span().start,
                    format!(
                        "`keys.{ctx}.{key}` must be an action name (a string), not {}",
                        a.get_ref().type_str()
                    ),
                ),
            }
        }
    }
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
