//! The config file's parser: every key checked, problems as diagnostics
//! with their line, never a failure.

use super::*;

/// Connection keys, as found at one level (top or profile).
#[derive(Default)]
struct Conn {
    base_url: Option<String>,
    api_key: Option<String>,
    api_key_command: Option<String>,
}

pub(super) struct Parser<'a> {
    src: &'a str,
    pub(super) diags: Vec<Diagnostic>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a str) -> Parser<'a> {
        Parser {
            src,
            diags: Vec::new(),
        }
    }
    fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.src.len());
        self.src.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }
    pub(super) fn error(&mut self, offset: usize, message: String) {
        let line = Some(self.line(offset));
        self.diags.push(Diagnostic {
            severity: Severity::Error,
            line,
            message,
        });
    }
    pub(super) fn warn(&mut self, offset: usize, message: String) {
        let line = Some(self.line(offset));
        self.diags.push(Diagnostic {
            severity: Severity::Warning,
            line,
            message,
        });
    }

    pub(super) fn string(&mut self, key: &str, v: &Spanned<DeValue<'_>>) -> Option<String> {
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

    pub(super) fn integer(
        &mut self,
        key: &str,
        v: &Spanned<DeValue<'_>>,
        min: i64,
        max: i64,
    ) -> Option<i64> {
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
                        // Credentials in the URL would replace the key
                        // (HTTP basic auth) and be written wherever the
                        // URL is: refused, and nothing of them is kept.
                        Ok(u) if !u.username().is_empty() || u.password().is_some() => {
                            self.error(v.span().start, crate::api::CREDENTIALS_IN_URL.into())
                        }
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
                    "mouse" | "cache" | "prefetch" | "http2" => match v.get_ref().as_bool() {
                        Some(b) => match key {
                            "mouse" => settings.mouse = b,
                            "cache" => settings.cache = b,
                            "http2" => settings.http2 = b,
                            _ => settings.prefetch = b,
                        },
                        None => p.error(
                            v.span().start,
                            format!(
                                "`{key}` must be true or false, not {}",
                                v.get_ref().type_str()
                            ),
                        ),
                    },
                    "keys" => parse_keys(&mut p, v, &mut settings.keys, &mut key_lines),
                    "views" => super::entries::parse_views(&mut p, v, &mut settings.views),
                    "commands" => super::entries::parse_commands(&mut p, v, &mut settings.commands),
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
