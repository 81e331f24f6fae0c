//! The config file's parser: every key checked, problems as diagnostics
//! with their line, never a failure.

use super::doc::choices;
use super::key_command::KEY_COMMAND_TIMEOUT;
use super::reader::Parser;
use super::settings::*;
use crate::api::ApiKey;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// Connection keys, as found at one level (top or profile).
#[derive(Default)]
struct Conn {
    base_url: Option<String>,
    api_key: Option<String>,
    api_key_command: Option<String>,
    ca_file: Option<PathBuf>,
}

impl Parser<'_> {
    /// A connection key at either level; returns true when `key` is one.
    fn conn_key(&mut self, conn: &mut Conn, key: &str, v: &Spanned<DeValue<'_>>) -> bool {
        match key {
            "base_url" => {
                if let Some(s) = self.string(key, v) {
                    match reqwest::Url::parse(s.trim()) {
                        // Credentials in the URL would replace the key
                        // (HTTP basic auth) and be written wherever the
                        // URL is: refused, and nothing of them is kept.
                        Ok(u) if !u.username().is_empty() || u.password().is_some() => {
                            self.error(v.span().start, crate::api::CREDENTIALS_IN_URL.into())
                        }
                        Ok(u) if matches!(u.scheme(), "http" | "https") => {
                            if u.path().trim_end_matches('/').ends_with("/api/v1") {
                                self.warn(
                                    v.span().start,
                                    "`base_url` ends with /api/v1, which taskdeck adds itself: \
                                     write the URL without it"
                                        .into(),
                                );
                            }
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
            "ca_file" => {
                if let Some(s) = self.string(key, v) {
                    if s.trim().is_empty() {
                        self.error(v.span().start, "`ca_file` is empty".into());
                    } else {
                        conn.ca_file = Some(expand_home(s.trim()));
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
    let mut p = Parser::new(src);
    let mut settings = Settings::default();
    let mut top = Conn::default();
    let mut prof = Conn::default();
    let mut file_unusable = false;
    let mut profile_found = false;
    // The `[profiles.NAME]` tables: name, connection, where. The one
    // selected is chosen once the whole file is read (`default_profile`
    // may name the top level after them).
    let mut named: Vec<(String, Conn, usize)> = Vec::new();
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
                        if let Some(n) = p.integer_of(key, v) {
                            settings.page_size = n as u32;
                        }
                    }
                    "colors" => {
                        if let Some(s) = p.string(key, v) {
                            let depth = s.trim().to_ascii_lowercase();
                            if choices(key).contains(&depth.as_str()) {
                                settings.colors = Some(s.trim().to_ascii_lowercase());
                            } else {
                                p.error(
                                    v.span().start,
                                    format!(
                                        "`colors` must be auto, truecolor, 256 or 16, not {s:?}"
                                    ),
                                );
                            }
                        }
                    }
                    "copy_command" => {
                        if let Some(s) = p.string(key, v) {
                            if s.trim().is_empty() {
                                p.error(v.span().start, "`copy_command` is empty".into());
                            } else {
                                settings.copy_command = Some(s.trim().to_string());
                            }
                        }
                    }
                    "api_key_command_timeout_secs" => {
                        if let Some(n) = p.integer_of(key, v) {
                            key_command_timeout = Duration::from_secs(n as u64);
                        }
                    }
                    "refresh_secs" => {
                        if let Some(n) = p.integer_of(key, v) {
                            settings.refresh_secs = n as u64;
                        }
                    }
                    "inbox_refresh_secs" => {
                        // At least a minute: each walk costs a bounded but
                        // real number of requests (docs/inbox.md).
                        if let Some(n) = p.integer_of(key, v) {
                            settings.inbox_refresh_secs =
                                if n == 0 { 0 } else { (n as u64).max(30) };
                        }
                    }
                    "default_profile" => {
                        if let Some(s) = p.string(key, v) {
                            if s.trim().is_empty() {
                                p.error(v.span().start, "`default_profile` is empty".into());
                            } else {
                                settings.default_profile = s.trim().to_string();
                            }
                        }
                    }
                    "inbox_profiles" => {
                        if let Some(s) = p.string(key, v) {
                            match choices(key).iter().position(|c| *c == s.trim()) {
                                Some(i) => settings.inbox_all_profiles = i == 0,
                                None => p.error(
                                    v.span().start,
                                    format!(
                                        "`inbox_profiles` must be {}, not {s:?}",
                                        choices(key).join(" or ")
                                    ),
                                ),
                            }
                        }
                    }
                    "theme" => {
                        if let Some(s) = p.string(key, v) {
                            if choices(key).contains(&s.as_str()) {
                                settings.theme = s;
                            } else {
                                p.error(
                                    v.span().start,
                                    format!(
                                        "`theme` must be one of {}, not {s:?}",
                                        choices(key).join(", ")
                                    ),
                                );
                            }
                        }
                    }
                    "time_zone" => {
                        if let Some(s) = p.string(key, v) {
                            match crate::domain::dates::resolve_zone(&s) {
                                Ok(_) => settings.time_zone = Some(s.trim().to_string()),
                                Err(e) => p.error(v.span().start, format!("`time_zone`: {e}")),
                            }
                        }
                    }
                    // HTTP/2 with prior knowledge over plain http too.
                    "http2"
                        if v.get_ref()
                            .as_str()
                            .is_some_and(|s| choices(key).contains(&s)) =>
                    {
                        settings.http2 = true;
                        settings.http2_always = true;
                    }
                    "mouse" | "accessible" | "cache" | "prefetch" | "http2" => {
                        match v.get_ref().as_bool() {
                            Some(b) => match key {
                                "mouse" => settings.mouse = b,
                                "accessible" => settings.accessible = b,
                                "cache" => settings.cache = b,
                                "http2" => (settings.http2, settings.http2_always) = (b, false),
                                _ => settings.prefetch = b,
                            },
                            None => p.error(
                                v.span().start,
                                format!(
                                    "`{key}` must be true or false{}, not {}",
                                    if key == "http2" { " or \"always\"" } else { "" },
                                    v.get_ref().type_str()
                                ),
                            ),
                        }
                    }
                    "notify" | "notify_command" | "notify_osc" => {
                        super::notify::parse(&mut p, key, v, &mut settings.notify)
                    }
                    "keys" => parse_keys(&mut p, v, &mut settings.keys, &mut key_lines),
                    "views" => super::entries::parse_views(&mut p, v, &mut settings.views),
                    "commands" => super::entries::parse_commands(&mut p, v, &mut settings.commands),
                    "macros" => super::macros::parse_macros(&mut p, v, &mut settings.macros),
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
                                let mut local = Conn::default();
                                for (k2, v2) in body_t.iter() {
                                    let key2: &str = k2.get_ref();
                                    if !p.conn_key(&mut local, key2, v2) {
                                        p.error(
                                            k2.span().start,
                                            format!(
                                                "unknown key `{}` in profile `{name}`{} (profiles \
                                                 take {})",
                                                crate::text::clean(key2),
                                                did_you_mean(key2, CONN_KEYS),
                                                CONN_KEYS.join(", ")
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
                                named.push((name.to_string(), local, body.span().start));
                            }
                        }
                        None => p.error(at, "`profiles` must be a table".into()),
                    },
                    other => p.error(
                        at,
                        format!(
                            "unknown key `{}`{}",
                            crate::text::clean(other),
                            did_you_mean(other, TOP_KEYS)
                        ),
                    ),
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

    // The top level's connection is a profile too, by the name
    // `default_profile` gives it: selecting that name selects the top
    // level, and a table of that name is a mistake (never used; asked for
    // by that name, fatal). Without a connection at the top level, such a
    // table is still said, and used for that name (as it was before the
    // top level had a name).
    let top_named =
        top.base_url.is_some() || top.api_key.is_some() || top.api_key_command.is_some();
    let default_name = settings.default_profile.clone();
    let asked_default = profile == Some(default_name.as_str());
    let table_named_default = named.iter().any(|(n, ..)| *n == default_name);
    let profile = if top_named || !table_named_default {
        profile.filter(|p| *p != default_name)
    } else {
        profile
    };
    let mut profiles: Vec<String> = Vec::new();
    let mut clash = false;
    for (name, local, at) in named {
        if name == default_name {
            let what = if top_named {
                format!(
                    "`--profile {}` is the top level, and this table is never used",
                    crate::text::clean(&name)
                )
            } else {
                "with no connection at the top level, this table is used for that name".into()
            };
            p.error(
                at,
                format!(
                    "profile `{}` has the name of the top level's connection \
                     (default_profile = {:?}): rename the table, or set \
                     default_profile to another name; {what}",
                    crate::text::clean(&name),
                    crate::text::clean(&default_name),
                ),
            );
            if top_named {
                clash = true;
                continue;
            }
        }
        if profile == Some(name.as_str()) {
            profile_found = true;
            prof = local;
        }
        profiles.push(name);
    }
    // A table named as the top level beside a top-level connection, and
    // that name asked for: which service is meant cannot be told, so
    // nothing is used (fatal) rather than the top level in silence.
    let unknown_profile = (clash && asked_default)
        || match profile {
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
    settings.ca_file = prof.ca_file.or(top.ca_file);

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
        profiles: {
            profiles.sort();
            profiles.dedup();
            top_named
                .then_some(default_name)
                .into_iter()
                .chain(profiles)
                .collect()
        },
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

/// A path as written in the config file, `~/` being the home directory.
fn expand_home(s: &str) -> PathBuf {
    match (s.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(s),
    }
}

/// The keys of the file's top level (for "did you mean").
pub(super) const TOP_KEYS: &[&str] = &[
    "base_url",
    "api_key",
    "api_key_command",
    "api_key_command_timeout_secs",
    "ca_file",
    "colors",
    "copy_command",
    "page_size",
    "refresh_secs",
    "inbox_refresh_secs",
    "inbox_profiles",
    "default_profile",
    "theme",
    "time_zone",
    "mouse",
    "notify",
    "notify_command",
    "notify_osc",
    "accessible",
    "cache",
    "prefetch",
    "http2",
    "keys",
    "views",
    "commands",
    "macros",
    "profiles",
];

/// The keys a profile takes.
pub(super) const CONN_KEYS: &[&str] = &["base_url", "api_key", "api_key_command", "ca_file"];

/// ` — did you mean `x`?` for the known key nearest to `typed`, when it is
/// near enough to be a slip (a third of its letters at most); else nothing.
fn did_you_mean(typed: &str, known: &[&str]) -> String {
    let typed_l = typed.to_ascii_lowercase().replace('-', "_");
    let best = known
        .iter()
        .map(|k| (edit_distance(&typed_l, k), *k))
        .min_by_key(|(d, _)| *d);
    match best {
        Some((d, k)) if d <= (k.len() / 3).max(1) => format!(" — did you mean `{k}`?"),
        _ => String::new(),
    }
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod did_you_mean_tests {
    use super::*;

    #[test]
    fn a_slip_gets_the_nearest_key_and_a_stranger_gets_nothing() {
        assert_eq!(
            did_you_mean("base-url", TOP_KEYS),
            " — did you mean `base_url`?"
        );
        assert_eq!(
            did_you_mean("refresh_sec", TOP_KEYS),
            " — did you mean `refresh_secs`?"
        );
        assert_eq!(did_you_mean("them", TOP_KEYS), " — did you mean `theme`?");
        assert_eq!(
            did_you_mean("colour", TOP_KEYS),
            " — did you mean `colors`?"
        );
        assert_eq!(did_you_mean("wallpaper", TOP_KEYS), "");
        assert_eq!(
            did_you_mean("apikey", CONN_KEYS),
            " — did you mean `api_key`?"
        );
        let c = from_str(
            "refrsh_secs = 5\nbase_url = \"https://h.example/api/v1/\"\n",
            None,
        );
        let msgs: Vec<String> = c.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert!(
            msgs.iter()
                .any(|m| m == "unknown key `refrsh_secs` — did you mean `refresh_secs`?"),
            "{msgs:?}"
        );
        assert!(
            msgs.iter().any(|m| m.contains("ends with /api/v1")),
            "{msgs:?}"
        );
    }
}
