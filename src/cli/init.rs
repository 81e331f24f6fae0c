//! `taskdeck config init`: the first setup. Asks for the base URL and how
//! to get the key, tests them with `GET /me` (who, which organisation),
//! then writes the config file — keeping whatever it already holds
//! (comments, other keys, other profiles), mode 0600.
//!
//! Questions are read line by line from standard input, so the answers
//! can also be piped in (`printf '%s\n' URL 1 'pass show work/tasks' |
//! taskdeck config init`).

use super::output::{emit, say, Failure, Outcome, EXIT_OK};
use crate::api::{ApiKey, Client, ClientConfig};
use crate::platform::ffi;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use toml_edit::{value, DocumentMut, Item, Table};

/// How the key is given.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyAnswer {
    /// `api_key_command`: a command that prints the key.
    Command(String),
    /// `$TASKDECK_API_KEY`, set by the user (nothing written).
    Env,
    /// `api_key` in the file.
    InFile(String),
}

/// A base URL as typed, made usable: trimmed, http or https, no
/// credentials; a final `/api/v1` (taskdeck adds it itself) is taken off,
/// and the note says so.
pub fn base_url_answer(typed: &str) -> Result<(String, Option<String>), String> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err("a base URL is needed (e.g. https://tasks.example.com)".into());
    }
    let with_scheme = if typed.contains("://") {
        typed.to_string()
    } else {
        format!("https://{typed}")
    };
    let url = reqwest::Url::parse(&with_scheme).map_err(|e| format!("not a URL: {e}"))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(crate::api::CREDENTIALS_IN_URL.into());
    }
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("must be http or https, not {}", url.scheme()));
    }
    let mut base = with_scheme.trim_end_matches('/').to_string();
    let mut note = None;
    if let Some(stripped) = base.strip_suffix("/api/v1") {
        base = stripped.to_string();
        note = Some(format!(
            "taskdeck adds /api/v1 itself: the base URL is {base}"
        ));
    }
    if url.scheme() == "http" && note.is_none() {
        note = Some("plain http: the key travels unencrypted; prefer https".into());
    }
    Ok((base, note))
}

/// The config text with the answers set (in `[profiles.NAME]` with a
/// profile): everything else in `text` — comments, keys, other profiles —
/// kept as it was.
pub fn write_answers(
    text: &str,
    profile: Option<&str>,
    base: &str,
    key: &KeyAnswer,
) -> Result<String, String> {
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        format!(
            "the config file is not valid TOML, nothing written: {}",
            e.to_string().lines().next().unwrap_or_default()
        )
    })?;
    let table: &mut Table = match profile {
        None => doc.as_table_mut(),
        Some(name) => {
            let profiles = doc
                .entry("profiles")
                .or_insert(Item::Table(Table::new()))
                .as_table_mut()
                .ok_or("`profiles` in the config file is not a table, nothing written")?;
            profiles.set_implicit(true);
            profiles
                .entry(name)
                .or_insert(Item::Table(Table::new()))
                .as_table_mut()
                .ok_or_else(|| format!("profile `{name}` is not a table, nothing written"))?
        }
    };
    table["base_url"] = value(base);
    match key {
        KeyAnswer::Command(c) => {
            table.remove("api_key");
            table["api_key_command"] = value(c.as_str());
        }
        KeyAnswer::InFile(k) => {
            table.remove("api_key_command");
            table["api_key"] = value(k.as_str());
        }
        KeyAnswer::Env => {}
    }
    Ok(doc.to_string())
}

/// The answer to "how should taskdeck tell you": any of `bell`,
/// `desktop`, `title` (spaces or commas between), `none` for nothing,
/// empty for the default (`title`).
pub fn notify_answer(typed: &str) -> Result<Vec<&'static str>, String> {
    let words: Vec<&str> = typed
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        [] => return Ok(vec!["title"]),
        ["none"] => return Ok(vec![]),
        _ => {}
    }
    let (bell, desktop, title) = crate::config::Notify::ways(&words)?;
    Ok([("bell", bell), ("desktop", desktop), ("title", title)]
        .into_iter()
        .filter_map(|(w, on)| on.then_some(w))
        .collect())
}

/// The config text with `notify = [...]` set at the top level (the rest
/// kept as it was).
pub fn write_notify(text: &str, ways: &[&str]) -> Result<String, String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| format!("the config file is not valid TOML: {e}"))?;
    let list: toml_edit::Array = ways.iter().copied().collect();
    // Before the first table: a top-level key must not land in a profile.
    doc.as_table_mut()["notify"] = value(list);
    Ok(doc.to_string())
}

/// Answers read from `input`, questions written to standard error.
struct Asker<R> {
    input: R,
}

impl<R: BufRead> Asker<R> {
    fn ask(&mut self, question: &str) -> Result<String, Failure> {
        eprint!("{}", crate::text::sanitize(question, true));
        let mut line = String::new();
        let n = self
            .input
            .read_line(&mut line)
            .map_err(|e| Failure::failed(format!("cannot read the answer: {e}")))?;
        if n == 0 {
            return Err(Failure::usage("no answer (end of input): nothing written"));
        }
        Ok(line.trim_end_matches(['\n', '\r']).to_string())
    }

    /// A question that may go unanswered (end of input: `None`).
    fn ask_optional(&mut self, question: &str) -> Result<Option<String>, Failure> {
        match self.ask(question) {
            Ok(a) => Ok(Some(a)),
            Err(_) => Ok(None),
        }
    }
}

/// Hide what is typed while the key is read from a terminal.
struct NoEcho(Option<ffi::TermMode>);

impl NoEcho {
    fn start() -> NoEcho {
        use std::io::IsTerminal;
        if !std::io::stdin().is_terminal() {
            return NoEcho(None);
        }
        // The old settings are put back on drop.
        let Some(old) = ffi::terminal_mode(0) else {
            return NoEcho(None);
        };
        ffi::set_terminal_mode(0, &old.without_echo());
        NoEcho(Some(old))
    }
}

impl Drop for NoEcho {
    fn drop(&mut self) {
        if let Some(old) = self.0 {
            ffi::set_terminal_mode(0, &old);
            say("");
        }
    }
}

/// `taskdeck [--profile NAME] config init`.
pub async fn run(profile: Option<&str>) -> Outcome {
    let stdin = std::io::stdin();
    let mut a = Asker {
        input: stdin.lock(),
    };
    // A link is written through; a FIFO, a device or a folder at the path
    // stops here, before any question (reading a FIFO would hang).
    let path = crate::config::resolve_links(&crate::config::config_path());
    existing_text(&path)?;
    // The top level's connection is the profile `default_profile` names:
    // `--profile default` sets the top level, not a table of that name.
    let default_name = crate::config::load(None).settings.default_profile;
    let profile = profile.filter(|p| *p != default_name);
    say(&format!(
        "Setting up taskdeck{} — the answers go to {}",
        profile
            .map(|p| format!(" (profile {})", crate::text::clean(p)))
            .unwrap_or_default(),
        path.display()
    ));
    let (base, note) = loop {
        let typed = a.ask("Base URL of the task service (e.g. https://tasks.example.com): ")?;
        match base_url_answer(&typed) {
            Ok(b) => break b,
            Err(e) => say(&format!("  {e}")),
        }
    };
    if let Some(n) = note {
        say(&format!("  {n}"));
    }
    say(&format!(
        "How should taskdeck get the API key?\n  \
         1) a command that prints it (recommended), e.g.\n       \
         pass show work/tasks\n       \
         op read op://Work/Tasks/api-key\n       \
         security find-generic-password -s tasks -w\n  \
         2) the environment variable {} (you set it; nothing is written)\n  \
         3) in the config file itself (mode 0600)",
        crate::config::ENV_API_KEY
    ));
    let key = loop {
        let choice = a.ask("Choice [1]: ")?;
        match choice.trim() {
            "" | "1" => {
                let c = a.ask("Command that prints the key: ")?;
                if c.trim().is_empty() {
                    say("  a command is needed");
                    continue;
                }
                break KeyAnswer::Command(c.trim().to_string());
            }
            "2" => break KeyAnswer::Env,
            "3" => {
                let k = {
                    let _hidden = NoEcho::start();
                    a.ask("API key (not shown): ")?
                };
                if k.trim().is_empty() {
                    say("  the key is empty");
                    continue;
                }
                break KeyAnswer::InFile(k.trim().to_string());
            }
            other => say(&format!("  1, 2 or 3, not {:?}", crate::text::clean(other))),
        }
    };
    let write = match test_answers(&base, &key).await {
        Ok(who) => {
            say(&format!("  {who}"));
            true
        }
        Err(e) => {
            say(&format!("  the test failed: {e}"));
            let yes = a.ask("Write the config anyway? [y/N]: ")?;
            matches!(yes.trim(), "y" | "Y" | "yes")
        }
    };
    if !write {
        return Err(Failure::failed("nothing written"));
    }
    say(
        "How should taskdeck tell you when something new needs you (a mention, an assignment)?\n  \
         any of: bell, desktop (a notification through the terminal), title (the count in the \
         window's title)\n  none for nothing; see docs/notifications.md",
    );
    let notify = loop {
        let Some(typed) = a.ask_optional("Notify [title]: ")? else {
            break None;
        };
        match notify_answer(&typed) {
            Ok(w) => break Some(w),
            Err(e) => say(&format!("  {e}")),
        }
    };
    let written = write_file(&path, profile, &base, &key, notify.as_deref())?;
    emit(&format!(
        "wrote {} (and its schema, {}, beside it)\nstart with: taskdeck{}\n{}",
        written.display(),
        crate::config::schema::SCHEMA_FILE,
        profile
            .map(|p| format!(" --profile {}", crate::text::clean(p)))
            .unwrap_or_default(),
        profiles_note(profile, &default_name),
    ))?;
    Ok(EXIT_OK)
}

/// What `config init` says of profiles once it has written one: the top
/// level's connection is a profile too, by `default_profile`'s name, and
/// `:profile` goes either way (issue 46 §1).
fn profiles_note(profile: Option<&str>, default_name: &str) -> String {
    let d = crate::text::clean(default_name);
    match profile {
        Some(p) => {
            let p = crate::text::clean(p);
            format!(
                "the connection at the file's top level is the profile {d}: \
                 in the TUI, `:profile {p}` and `:profile {d}` switch between them, \
                 and the inbox shows both profiles' items (`taskdeck --profile {d}` \
                 or no --profile starts with the top level)\n"
            )
        }
        None => format!(
            "this connection is the profile {d} (`--profile {d}`, `:profile {d}`); \
             `taskdeck config init --profile NAME` adds another\n"
        ),
    }
}

/// `GET /me` with the answers: who and which organisation, in one line.
async fn test_answers(base: &str, key: &KeyAnswer) -> Result<String, String> {
    let key = match key {
        KeyAnswer::Command(c) => {
            crate::config::run_key_command(c).map_err(|e| format!("the key command: {e}"))?
        }
        KeyAnswer::InFile(k) => ApiKey::new(k.as_str()),
        KeyAnswer::Env => match std::env::var(crate::config::ENV_API_KEY) {
            Ok(k) if !k.trim().is_empty() => ApiKey::new(k),
            _ => {
                return Err(format!(
                    "${} is not set in this shell, so the key could not be tested",
                    crate::config::ENV_API_KEY
                ))
            }
        },
    };
    crate::secret::register(key.expose());
    let client = Client::new(ClientConfig::new(base, key))?;
    let me = client.me().await.map_err(|e| e.to_string())?;
    Ok(format!(
        "connected: {} <{}> at {}",
        me.user_name, me.user_email, me.customer_name
    ))
}

/// What the config file at `path` holds now (nothing if it is missing);
/// anything but a regular file of a sane size is refused with its name.
fn existing_text(path: &Path) -> Result<String, Failure> {
    match crate::config::read_regular_file(path, crate::config::CONFIG_MAX_BYTES) {
        Ok(t) => Ok(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(Failure::failed(format!(
            "cannot use {}: {e}; nothing written",
            path.display()
        ))),
    }
}

fn write_file(
    path: &Path,
    profile: Option<&str>,
    base: &str,
    key: &KeyAnswer,
    notify: Option<&[&str]>,
) -> Result<PathBuf, Failure> {
    let text = existing_text(path)?;
    let out = config_text(&text, profile, base, key, notify).map_err(Failure::failed)?;
    crate::config::write_private_file(path, out.as_bytes())
        .map_err(|e| Failure::failed(format!("cannot write {}: {e}", path.display())))?;
    // The schema the first line points at, beside the file: editors
    // (taplo, tombi) complete and check the file with it.
    let schema = path.with_file_name(crate::config::schema::SCHEMA_FILE);
    crate::config::write_private_file(&schema, crate::config::schema::schema_text().as_bytes())
        .map_err(|e| Failure::failed(format!("cannot write {}: {e}", schema.display())))?;
    Ok(path.to_path_buf())
}

/// The config file as `config init` writes it: the answers set in `text`
/// (the rest kept), its first line pointing at the schema beside it.
pub fn config_text(
    text: &str,
    profile: Option<&str>,
    base: &str,
    key: &KeyAnswer,
    notify: Option<&[&str]>,
) -> Result<String, String> {
    let mut out = write_answers(text, profile, base, key)?;
    if let Some(ways) = notify {
        out = write_notify(&out, ways)?;
    }
    Ok(crate::config::schema::with_schema_line(&out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_url_ending_in_api_v1_is_taken_as_the_service_and_said() {
        let (b, n) = base_url_answer(" https://tasks.example.com/api/v1/ ").unwrap();
        assert_eq!(b, "https://tasks.example.com");
        assert!(n.unwrap().contains("adds /api/v1 itself"));
        let (b, n) = base_url_answer("tasks.example.com/team").unwrap();
        assert_eq!(b, "https://tasks.example.com/team");
        assert_eq!(n, None);
        assert!(base_url_answer("ftp://x").is_err());
        assert!(base_url_answer("").is_err());
        let e = base_url_answer("https://u:secret-pw@h.example").unwrap_err();
        assert!(!e.contains("secret-pw"));
    }

    #[test]
    fn answers_keep_comments_other_keys_and_profiles() {
        let text = "# my settings\ntheme = \"light\"   # I like it\napi_key = \"old\"\n\n[profiles.work]\nbase_url = \"https://work.example\"\n";
        let out = write_answers(
            text,
            None,
            "https://tasks.example.com",
            &KeyAnswer::Command("pass show tasks".into()),
        )
        .unwrap();
        assert!(out.contains("# my settings"), "{out}");
        assert!(out.contains("theme = \"light\"   # I like it"), "{out}");
        assert!(
            out.contains("base_url = \"https://tasks.example.com\""),
            "{out}"
        );
        assert!(
            out.contains("api_key_command = \"pass show tasks\""),
            "{out}"
        );
        assert!(
            !out.contains("api_key = \"old\""),
            "the old key goes: {out}"
        );
        assert!(
            out.contains("[profiles.work]\nbase_url = \"https://work.example\""),
            "{out}"
        );
        let c = crate::config::from_str(&out, None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);

        let out = write_answers(text, Some("home"), "https://h.example", &KeyAnswer::Env).unwrap();
        assert!(
            out.contains("api_key = \"old\""),
            "top level untouched: {out}"
        );
        let c = crate::config::from_str(&out, Some("home"));
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        if std::env::var_os(crate::config::ENV_BASE_URL).is_none() {
            assert_eq!(c.settings.base_url.as_deref(), Some("https://h.example"));
        }
    }

    #[test]
    fn the_notify_answer_is_checked_and_written_at_the_top_level() {
        assert_eq!(notify_answer("").unwrap(), vec!["title"]);
        assert_eq!(notify_answer(" none ").unwrap(), Vec::<&str>::new());
        assert_eq!(
            notify_answer("title, bell desktop").unwrap(),
            vec!["bell", "desktop", "title"]
        );
        assert!(notify_answer("beep")
            .unwrap_err()
            .contains("bell, desktop, title"));
        let text = "theme = \"light\"\n\n[profiles.work]\nbase_url = \"https://w.example\"\n";
        let out = write_notify(text, &["bell", "desktop"]).unwrap();
        let c = crate::config::from_str(&out, Some("work"));
        assert!(c.diagnostics.is_empty(), "{:?}\n{out}", c.diagnostics);
        let n = &c.settings.notify;
        assert!(n.bell && n.desktop && !n.title, "{out}");
        assert!(out.starts_with("theme = \"light\"\nnotify = "), "{out}");
        let out = write_notify(&out, &[]).unwrap();
        let c = crate::config::from_str(&out, None);
        assert!(!c.settings.notify.title, "{out}");
    }

    /// What `config init` writes starts with the `#:schema` line, and it
    /// and the sample config validate against the schema, which is
    /// written beside the file.
    #[test]
    fn config_init_writes_the_schema_line_and_the_schema_and_both_validate() {
        use crate::config::schema::validate::check;
        let written = config_text(
            "# mine\ntheme = \"light\"\n",
            Some("work"),
            "https://tasks.example.com",
            &KeyAnswer::Command("pass show tasks".into()),
            Some(&["bell", "title"]),
        )
        .unwrap();
        assert!(
            written.starts_with("#:schema ./taskdeck.schema.json\n# mine\n"),
            "{written}"
        );
        assert_eq!(check(&written), Vec::<String>::new(), "{written}");
        let c = crate::config::from_str(&written, Some("work"));
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        let again =
            config_text(&written, None, "https://t.example", &KeyAnswer::Env, None).unwrap();
        assert_eq!(again.matches("#:schema").count(), 1, "{again}");
        let example = include_str!("../../assets/config.example.toml");
        assert_eq!(check(example), Vec::<String>::new());

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        write_file(&path, None, "https://t.example", &KeyAnswer::Env, None).unwrap();
        let schema = std::fs::read_to_string(dir.path().join("taskdeck.schema.json")).unwrap();
        assert_eq!(schema, crate::config::schema::schema_text());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("#:schema ./taskdeck.schema.json\n"),
            "{text}"
        );
    }
}
