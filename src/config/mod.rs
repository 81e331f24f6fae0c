//! Configuration: the config file, profiles, environment and the API key.
//!
//! Precedence, lowest first: built-in defaults, the top level of the config
//! file, the selected `[profiles.NAME]` table (connection keys only), then the
//! environment (`TASKDECK_BASE_URL`, `TASKDECK_API_KEY`). Problems never stop
//! loading: they become [`Diagnostic`]s (with line numbers) and
//! `Settings.warnings`. The API key is kept apart from [`Settings`] and is
//! only produced by [`Config::api_key`].

pub mod doc;
mod entries;
mod key_command;
mod macros;
mod notify;
mod parse;
mod paths;
mod reader;
mod save;
pub mod schema;
mod settings;

pub use entries::{builtin_views, name_key};
pub use key_command::{
    run_key_command, run_key_command_detached, run_key_command_within, stop_detached_key_commands,
    KeyError, KEY_COMMAND_OUTPUT_MAX, KEY_COMMAND_TIMEOUT,
};
pub use parse::from_str;
pub use paths::{
    config_path, ensure_private_dir, log_file, read_regular_file, resolve_links, set_log_dir,
    state_dir, write_private_file, CONFIG_MAX_BYTES,
};
pub use save::save_view;
pub use settings::*;

use std::path::Path;

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

/// Every profile of the config file, as the file is now ([`Config::profiles`]:
/// the top level's connection first, by its `default_profile` name, then
/// the `[profiles.NAME]` tables): the names of the configuration a `:profile` switch then loads,
/// never a list kept from an earlier reading. (The file is read again only
/// when it changed — its path, size or time — since the palette asks at
/// each frame while `:profile` is typed.)
pub fn profile_names() -> Vec<String> {
    type Stamp = (std::path::PathBuf, Option<(std::time::SystemTime, u64)>);
    static LAST: std::sync::Mutex<Option<(Stamp, Vec<String>)>> = std::sync::Mutex::new(None);
    let path = config_path();
    let meta = std::fs::metadata(&path).ok();
    let stamp: Stamp = (path, meta.and_then(|m| Some((m.modified().ok()?, m.len()))));
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((s, names)) = last.as_ref() {
        if *s == stamp && stamp.1.is_some() {
            return names.clone();
        }
    }
    let names = load(None).profiles;
    *last = Some((stamp, names.clone()));
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    fn errors(c: &Config) -> Vec<(Option<usize>, String)> {
        c.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.line, d.message.clone()))
            .collect()
    }

    #[test]
    fn inbox_profiles_is_all_or_current() {
        assert!(from_str("", None).settings.inbox_all_profiles);
        let c = from_str("inbox_profiles = \"current\"\n", None);
        assert!(errors(&c).is_empty(), "{:?}", c.diagnostics);
        assert!(!c.settings.inbox_all_profiles);
        let c = from_str("inbox_profiles = \"some\"\n", None);
        assert_eq!(
            errors(&c),
            vec![(
                Some(1),
                "`inbox_profiles` must be all or current, not \"some\"".to_string()
            )]
        );
        assert!(c.settings.inbox_all_profiles);
    }

    /// The profile names come from the same reading as the settings (a
    /// profile that is not a table is none), and a connection is made
    /// again only when the configuration would connect otherwise.
    #[test]
    fn profile_names_and_connection_recipes_come_from_one_reading() {
        let src = "[profiles.b]\nbase_url = \"https://b.example\"\napi_key_command = \"echo k\"\n\
                   [profiles.a]\nbase_url = \"https://a.example\"\napi_key = \"ka\"\n\
                   [profiles]\nbroken = 3\n";
        let c = from_str(src, Some("a"));
        assert_eq!(c.profiles, ["a", "b"]);
        if std::env::var_os(ENV_BASE_URL).is_some() || std::env::var_os(ENV_API_KEY).is_some() {
            return;
        }
        let recipe = |src: &str, p: &str| from_str(src, Some(p)).connection_recipe();
        assert_eq!(recipe(src, "a"), recipe(src, "a"));
        assert_ne!(recipe(src, "a"), recipe(src, "b"));
        // Another key in the file, command, base URL or certificate: anew.
        for (from, to) in [
            ("ka", "kb"),
            ("echo k", "echo j"),
            ("https://b.example", "https://c.example"),
        ] {
            let p = if from == "ka" { "a" } else { "b" };
            assert_ne!(recipe(src, p), recipe(&src.replace(from, to), p), "{to}");
        }
        let ca = src.replace("[profiles.a]\n", "[profiles.a]\nca_file = \"/x.pem\"\n");
        assert_ne!(recipe(src, "a"), recipe(&ca, "a"));
        // The key itself is not in it.
        assert!(!recipe(src, "a").contains("ka"));
    }

    /// Issue 46 §1: the top level's connection is a profile, `default`
    /// unless `default_profile` names it otherwise: listed first among the
    /// profiles, selected by its name as by no name at all (the top level,
    /// `settings.profile` empty), and a table of that name is an error
    /// that is never used.
    #[test]
    fn the_top_level_is_the_default_profile() {
        let src = "base_url = \"https://top.example\"\napi_key = \"top\"\n\n\
                   [profiles.bob]\nbase_url = \"https://bob.example\"\napi_key = \"bob\"\n";
        let c = from_str(src, None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(c.profiles, ["default", "bob"]);
        assert_eq!(c.settings.profile_name(), "default");
        let d = from_str(src, Some("default"));
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
        assert!(!d.unknown_profile && d.fatal().is_none());
        assert_eq!(d.settings.profile, None, "the top level, as without a name");
        assert_eq!(d.settings.profile_name(), "default");
        assert_eq!(from_str(src, Some("bob")).settings.profile_name(), "bob");
        let no_env =
            std::env::var_os(ENV_BASE_URL).is_none() && std::env::var_os(ENV_API_KEY).is_none();
        if no_env {
            assert_eq!(d.settings.base_url.as_deref(), Some("https://top.example"));
            assert_eq!(d.connection_recipe(), c.connection_recipe());
        }
        // Renamed: `work` is the top level, `default` a name like any other.
        let renamed = format!("default_profile = \"work\"\n{src}");
        let w = from_str(&renamed, Some("work"));
        assert!(w.diagnostics.is_empty(), "{:?}", w.diagnostics);
        assert_eq!(w.profiles, ["work", "bob"]);
        assert_eq!(
            (w.settings.profile.as_deref(), w.settings.profile_name()),
            (None, "work")
        );
        assert!(from_str(&renamed, Some("default")).unknown_profile);
        // Without a connection at the top level, no profile of that name
        // is offered (selecting it still means the top level).
        let only = "[profiles.bob]\nbase_url = \"https://bob.example\"\n";
        assert_eq!(from_str(only, None).profiles, ["bob"]);
        assert!(!from_str(only, Some("default")).unknown_profile);
        // A table named as the top level: an error with its line, not used.
        let clash = format!("{src}\n[profiles.default]\nbase_url = \"https://x.example\"\n");
        let x = from_str(&clash, Some("default"));
        let e = errors(&x);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, Some(8), "{e:?}");
        assert!(
            e[0].1
                .contains("profile `default` has the name of the top level"),
            "{e:?}"
        );
        assert_eq!(x.profiles, ["default", "bob"]);
        // Asked for by that name: which service is meant cannot be told,
        // so it is fatal (never the top level in silence); not asked for,
        // the table is only an error and the top level is used.
        let fatal = x.fatal().expect("fatal when `default` is asked for");
        assert!(fatal.contains("has the name of the top level"), "{fatal}");
        let y = from_str(&clash, None);
        assert!(y.fatal().is_none(), "{:?}", y.fatal());
        assert!(from_str(&clash, Some("bob")).fatal().is_none());
        if no_env {
            assert_eq!(y.settings.base_url.as_deref(), Some("https://top.example"));
        }
        // Without a connection at the top level, a `[profiles.default]`
        // table is said, and used when that name is asked for.
        let table = "[profiles.default]\nbase_url = \"https://t.example\"\n";
        let t = from_str(table, Some("default"));
        assert!(t.fatal().is_none(), "{:?}", t.fatal());
        assert!(!t.unknown_profile);
        assert_eq!(t.profiles, ["default"]);
        if no_env {
            assert_eq!(t.settings.base_url.as_deref(), Some("https://t.example"));
        }
        let named = from_str(
            "default_profile = \"bob\"\n[profiles.bob]\napi_key = \"k\"\n",
            None,
        );
        assert_eq!(errors(&named).len(), 1, "{:?}", named.diagnostics);
        assert_eq!(
            errors(&from_str("default_profile = \" \"\n", None)).len(),
            1
        );
    }

    #[test]
    fn values_profiles_and_keys() {
        let src = r#"
base_url = "https://top.example"
api_key = "top-key"
page_size = 30
theme = "light"
mouse = true
accessible = true

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
        assert!(c.settings.accessible);
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
        assert_eq!(
            e[1],
            (
                Some(2),
                "unknown key `colour` — did you mean `colors`?".to_string()
            )
        );
        assert_eq!(e[2].0, Some(3));
        assert_eq!(e[3].0, Some(6));
        assert!(c.unknown_profile);
        assert_eq!(c.settings.theme, "auto", "the default");
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
        assert_eq!(c.settings.theme, "auto");
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
