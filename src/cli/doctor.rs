//! `taskdeck doctor`: what a bug report needs and what is wrong, one line a
//! check — the version, the terminal and what stands between taskdeck and
//! it, where copying and notifications go, the config file, where the key
//! comes from (never the key), the store, and the service. Exit 0 when
//! every check holds, 1 when one does not; `--json` prints
//! `{"checks": [{"name", "ok", "detail"}…]}`.
//!
//! It changes nothing: the store is opened read-only, the service is only
//! read (`/me`, one task, that task's requester thread) and asked to check
//! an empty layout (which stores nothing). Every detail is cleaned of
//! control characters and scrubbed of the key before it is printed.

use super::commands::{emit, Failure, Outcome, EXIT_FAILED, EXIT_OK};
use super::connect;
use crate::api::{ApiError, Client, TaskQuery};
use crate::config::{self, Config, KeySource, Severity};
use crate::text::clean;
use serde::Serialize;
use std::path::Path;
use std::time::Duration;

/// One check: its name, whether it holds, and what was found (or the
/// problem and its fix).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    pub detail: String,
}

fn check(name: &'static str, ok: bool, detail: impl Into<String>) -> Check {
    Check {
        name,
        ok,
        detail: detail.into(),
    }
}

/// The environment as doctor reads it (a function, so that tests give
/// their own).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

fn process_env(k: &str) -> Option<String> {
    std::env::var(k).ok().filter(|v| !v.trim().is_empty())
}

/// `taskdeck doctor [--json] [--profile NAME]`.
pub async fn run(profile: Option<&str>, json: bool, limit: Duration) -> Outcome {
    let c = config::load(profile);
    let env = process_env;
    let mut checks = vec![version()];
    checks.extend(terminal(&c, &env));
    checks.push(theme(&c, &env, &|tmux| {
        crate::tui::background::ask_now(tmux)
    }));
    checks.push(clipboard(&c, &env));
    checks.push(notifications(&c, &env));
    checks.extend(configuration(&c));
    checks.push(key_source(&c));
    let connected = match c.fatal() {
        Some(fatal) => Err(Failure::usage(fatal)),
        None => connect::quietly(profile, c.clone()),
    };
    checks.push(match &connected {
        Ok(k) => store(k.store.as_deref(), k.client.base_url()),
        Err(_) => store(None, ""),
    });
    match connected {
        Ok(k) => match tokio::time::timeout(limit, service(&k.client, &env)).await {
            Ok(found) => checks.extend(found),
            Err(_) => checks.push(check(
                "service",
                false,
                format!(
                    "no complete answer within {} s (--timeout sets the limit)",
                    limit.as_secs()
                ),
            )),
        },
        Err(f) => checks.push(check("service", false, f.message)),
    }
    print(&checks, json)?;
    Ok(if checks.iter().all(|c| c.ok) {
        EXIT_OK
    } else {
        EXIT_FAILED
    })
}

fn print(checks: &[Check], json: bool) -> Result<(), Failure> {
    let checks: Vec<Check> = checks
        .iter()
        .map(|c| Check {
            detail: clean(&c.detail),
            ..c.clone()
        })
        .collect();
    if json {
        let v = serde_json::json!({ "checks": checks });
        return emit(&format!("{v:#}\n"));
    }
    let width = checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for c in &checks {
        let mark = if c.ok { "ok     " } else { "PROBLEM" };
        out.push_str(&format!(
            "{mark} {:width$}  {}\n",
            c.name,
            c.detail,
            width = width
        ));
    }
    let bad = checks.iter().filter(|c| !c.ok).count();
    out.push_str(&match bad {
        0 => "every check holds\n".to_string(),
        1 => "1 problem: see the line marked PROBLEM\n".to_string(),
        n => format!("{n} problems: see the lines marked PROBLEM\n"),
    });
    emit(&out)
}

/// The version, and the commit it was built from when the build knew it.
fn version() -> Check {
    let commit = option_env!("TASKDECK_GIT_COMMIT").unwrap_or("unknown");
    check(
        "version",
        true,
        format!("taskdeck {} (commit {commit})", env!("CARGO_PKG_VERSION")),
    )
}

/// The terminal, what stands between taskdeck and it, and SSH.
fn terminal(c: &Config, env: Env) -> Vec<Check> {
    use std::io::IsTerminal;
    let term = env("TERM");
    let depth = crate::tui::colors::depth(c.settings.colors.as_deref(), env);
    let colours = match depth {
        crate::tui::colors::Depth::TrueColor => "true colour",
        crate::tui::colors::Depth::Ansi256 => "256 colours",
        crate::tui::colors::Depth::Ansi16 => "16 colours",
    };
    let mut out = Vec::new();
    let size = if std::io::stdout().is_terminal() {
        crossterm::terminal::size()
            .map(|(w, h)| format!("{w}×{h}"))
            .unwrap_or_else(|_| "size unknown".into())
    } else {
        "standard output is not a terminal here (the size is not known)".into()
    };
    let t = term.as_deref().unwrap_or("unset");
    let (ok, fix) = match term.as_deref().map(str::trim) {
        None => (
            false,
            " — TERM is not set: the TUI cannot know what the terminal draws (set TERM=xterm-256color)",
        ),
        Some("dumb") => (
            false,
            " — TERM=dumb cannot draw the TUI (run it in a terminal such as xterm-256color)",
        ),
        _ => (true, ""),
    };
    out.push(check(
        "terminal",
        ok,
        format!(
            "TERM={t}, {colours}{}, {size}{fix}",
            match c.settings.colors.as_deref() {
                Some(s) if !s.eq_ignore_ascii_case("auto") => " (colors in the config)",
                _ => " (from TERM and COLORTERM)",
            }
        ),
    ));
    out.push(check("keyboard", true, keyboard(env)));
    out.push(multiplexer(c, env));
    out.push(check(
        "ssh",
        true,
        if env("SSH_CONNECTION").is_some() || env("SSH_TTY").is_some() {
            "over SSH: copying and notifications go through the terminal".to_string()
        } else {
            "not over SSH".to_string()
        },
    ));
    out
}

/// How the terminal is asked its background (a function, so that tests
/// answer for it): `None` not asked, `Some(None)` no answer.
type AskBackground<'a> = &'a dyn Fn(bool) -> Option<Option<crate::tui::background::Rgb>>;

/// The theme the TUI takes and why: `auto` asks the terminal its
/// background (OSC 11) as the TUI does, then reads `COLORFGBG`.
fn theme(c: &Config, env: Env, ask: AskBackground) -> Check {
    use crate::tui::background::choose;
    let set = c.settings.theme.as_str();
    let detail = if env("NO_COLOR").is_some() {
        "no colours: NO_COLOR is set (modifiers only)".to_string()
    } else if set != "auto" {
        format!("{set} (theme in the config)")
    } else {
        let answer = ask(env("TMUX").is_some());
        let choice = choose(
            answer.is_some(),
            answer.flatten(),
            env("COLORFGBG").as_deref(),
        );
        format!("auto: {}, {}", choice.theme(), choice.why)
    };
    check("theme", true, detail)
}

/// The kitty keyboard protocol, as far as the environment tells (taskdeck
/// does not need it; it is what a bug report about keys needs).
fn keyboard(env: Env) -> String {
    let term = env("TERM").unwrap_or_default();
    let program = env("TERM_PROGRAM").unwrap_or_default().to_ascii_lowercase();
    if env("KITTY_WINDOW_ID").is_some() || term == "xterm-kitty" {
        "kitty keyboard protocol: supported (kitty)".into()
    } else if ["wezterm", "ghostty"].contains(&program.as_str())
        || term == "xterm-ghostty"
        || term.starts_with("foot")
    {
        let who = if program.is_empty() { term } else { program };
        format!("kitty keyboard protocol: likely supported ({who})")
    } else {
        "kitty keyboard protocol: not known here (plain keys are read either way)".into()
    }
}

/// tmux or GNU screen, and whether what taskdeck writes for the outer
/// terminal (desktop notifications, OSC 52) gets through.
fn multiplexer(c: &Config, env: Env) -> Check {
    use crate::tui::notify::osc::{mux, Mux};
    match mux(env) {
        Mux::None => check("multiplexer", true, "none"),
        Mux::Screen => check(
            "multiplexer",
            true,
            "GNU screen: sequences for the outer terminal are wrapped for it",
        ),
        Mux::Tmux => {
            let passthrough = tmux_option("allow-passthrough");
            let clipboard = tmux_option("set-clipboard");
            let version = tmux(&["-V"]).unwrap_or_else(|| "tmux (version unknown)".into());
            let needs = c.settings.notify.desktop;
            let through = matches!(passthrough.as_deref(), Some("on" | "all"));
            let mut detail = format!(
                "{version}; allow-passthrough {}, set-clipboard {}",
                passthrough.as_deref().unwrap_or("unknown"),
                clipboard.as_deref().unwrap_or("unknown")
            );
            let ok = through || !needs;
            if !through {
                detail.push_str(if needs {
                    " — desktop notifications cannot reach the outer terminal: \
                     tmux set -g allow-passthrough on"
                } else {
                    " (desktop notifications would need allow-passthrough on)"
                });
            }
            check("multiplexer", ok, detail)
        }
    }
}

fn tmux_option(name: &str) -> Option<String> {
    tmux(&["show-options", "-gv", name])
}

/// A tmux command's first line, within a second (a server that does not
/// answer is no answer, never a wait).
fn tmux(args: &[&str]) -> Option<String> {
    use crate::platform::child::{Kind, Limited, Place};
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Limited::spawn(
        Command::new("tmux")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
        Place::Group,
        Kind::Command,
        Duration::from_secs(1),
    )
    .ok()?;
    child.wait().ok()?;
    let mut out = String::new();
    child.child.stdout.take()?.read_to_string(&mut out).ok()?;
    let line = out.lines().next()?.trim().to_string();
    (!line.is_empty()).then_some(line)
}

/// Where `y` copies to.
fn clipboard(c: &Config, env: Env) -> Check {
    let detail = if let Some(cmd) = c.settings.copy_command.as_deref() {
        format!(
            "copy_command `{}` (from the config)",
            cmd.split_whitespace().next().unwrap_or(cmd)
        )
    } else if let Some(native) =
        crate::tui::clipboard::native_command(env, &crate::tui::clipboard::on_path)
    {
        format!("the system clipboard ({})", native[0])
    } else if env("TMUX").is_some() {
        "tmux's paste buffer, and the terminal's clipboard through OSC 52".into()
    } else {
        "the terminal's clipboard through OSC 52 (if nothing arrives, set copy_command)".into()
    };
    check("clipboard", true, detail)
}

/// How a notification will be delivered.
fn notifications(c: &Config, env: Env) -> Check {
    use crate::tui::notify::osc::{choose, mux, Mux};
    let n = &c.settings.notify;
    let mut ways = Vec::new();
    if n.bell {
        ways.push("the bell".to_string());
    }
    if n.desktop {
        let osc = choose(n.osc, env).number();
        let wrapped = match mux(env) {
            Mux::Tmux => ", wrapped for tmux",
            Mux::Screen => ", wrapped for screen",
            Mux::None => "",
        };
        ways.push(format!("a desktop notice (OSC {osc}{wrapped})"));
    }
    if n.title {
        ways.push("the count in the terminal's title".into());
    }
    if let Some(cmd) = n.command.as_deref() {
        ways.push(format!(
            "notify_command `{}`",
            cmd.split_whitespace().next().unwrap_or(cmd)
        ));
    }
    let detail = if ways.is_empty() {
        "none (notify = [] in the config)".to_string()
    } else {
        ways.join(", ")
    };
    check("notifications", true, detail)
}

/// The config file and its problems (as `config check` finds them), and
/// the profiles.
fn configuration(c: &Config) -> Vec<Check> {
    let path = c.path.display().to_string();
    let problems = super::commands::config_problems(c);
    let errors: Vec<_> = problems
        .iter()
        .filter(|(_, s, _)| *s == Severity::Error)
        .collect();
    let warnings = problems.len() - errors.len();
    let detail = if !c.file_exists {
        format!("{path}: no config file (taskdeck config init writes one)")
    } else if let Some((line, _, first)) = errors.first() {
        format!(
            "{path}: {} error{}, {warnings} warning{} (first{}: {first}) — taskdeck config check lists them",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
            line.map(|l| format!(", line {l}")).unwrap_or_default()
        )
    } else if warnings > 0 {
        format!(
            "{path}: {warnings} warning{} — taskdeck config check lists them",
            if warnings == 1 { "" } else { "s" }
        )
    } else {
        format!("{path}: no problem found")
    };
    let mut out = vec![check("config", errors.is_empty(), detail)];
    let names = config::profile_names();
    // The top level's connection by its name (`default_profile`).
    let current = c.settings.profile_name();
    let top = if c.settings.profile.is_none() {
        " (the top level)"
    } else {
        ""
    };
    out.push(check(
        "profiles",
        true,
        if names.is_empty() {
            format!("in use: {current}{top}; none defined (no connection at the top level, no [profiles.NAME] tables)")
        } else {
            format!("in use: {current}{top}; defined: {}", names.join(", "))
        },
    ));
    out
}

/// Where the key comes from — never the key itself.
fn key_source(c: &Config) -> Check {
    match c.key_source() {
        KeySource::None => check(
            "key",
            false,
            "no API key: set api_key_command in the config (taskdeck config init) or TASKDECK_API_KEY",
        ),
        source => check("key", true, format!("from {}", source.kind())),
    }
}

/// The store of the user this key was last seen as, read-only, and the
/// drafts kept for that user (where the TUI keeps them: the state folder's
/// `drafts/`, the service's folder, the user's, named as the store is).
fn store(path: Option<&Path>, base_url: &str) -> Check {
    let Some(path) = path else {
        return check(
            "store",
            true,
            "none yet for this key (made at the first run of the TUI), or cache = false",
        );
    };
    let drafts = crate::config::state_dir()
        .join("drafts")
        .join(crate::store::identity::service_key(base_url, false))
        .join(path.file_stem().unwrap_or_default());
    match crate::store::inspect(path, &drafts) {
        Ok(i) => {
            let ok = i.integrity == "ok" && i.schema_version <= crate::store::SCHEMA_VERSION;
            let mut detail = format!(
                "{} ({}), schema {}, integrity {}, {} edit{} waiting in the outbox, {} draft{} kept",
                path.display(),
                bytes(i.bytes),
                i.schema_version,
                i.integrity,
                i.outbox,
                if i.outbox == 1 { "" } else { "s" },
                i.drafts,
                if i.drafts == 1 { "" } else { "s" },
            );
            if i.schema_version > crate::store::SCHEMA_VERSION {
                detail.push_str(" — written by a newer taskdeck: this one reads it read-only");
            } else if i.integrity != "ok" {
                detail.push_str(" — damaged: taskdeck sets it aside at the next start");
            }
            check("store", ok, detail)
        }
        Err(e) => check("store", false, format!("{}: {e}", path.display())),
    }
}

fn bytes(n: u64) -> String {
    if n >= 1 << 20 {
        format!("{:.1} MB", n as f64 / (1 << 20) as f64)
    } else {
        format!("{} kB", n.div_ceil(1024))
    }
}

/// The service: reachable, over what, who the key acts as, and the two
/// features an organisation may lack.
async fn service(client: &Client, env: Env<'_>) -> Vec<Check> {
    let base = client.base_url().to_string();
    let tls = if base.starts_with("https:") {
        "TLS"
    } else {
        "plain HTTP (no TLS)"
    };
    let proxy = proxy_in_use(&base, env);
    let me = match client.me().await {
        Ok(me) => me,
        Err(e) => {
            let fix = if e.is_auth() {
                " — the key was refused: check api_key_command or TASKDECK_API_KEY"
            } else if e.is_setup() {
                " — a certificate or proxy problem: see ca_file and the proxy variables"
            } else {
                ""
            };
            return vec![check(
                "service",
                false,
                format!("{base} over {tls}{proxy}: {e}{fix}"),
            )];
        }
    };
    let mut out = vec![check(
        "service",
        true,
        format!(
            "{base} over {tls}{proxy}: reachable; the key acts as {} <{}> of {}",
            me.user_name, me.user_email, me.customer_name
        ),
    )];
    out.push(requester_thread(client).await);
    out.push(visual_builder(client).await);
    out
}

/// The proxy reqwest takes from the environment for this URL, its
/// credentials left out.
fn proxy_in_use(base: &str, env: Env) -> String {
    let scheme_var = if base.starts_with("https:") {
        ["HTTPS_PROXY", "https_proxy"]
    } else {
        ["HTTP_PROXY", "http_proxy"]
    };
    let found = scheme_var
        .iter()
        .chain(["ALL_PROXY", "all_proxy"].iter())
        .find_map(|k| env(k));
    match found {
        None => String::new(),
        Some(p) => {
            let shown = match p.split_once("://") {
                Some((scheme, rest)) => {
                    let host = rest.rsplit_once('@').map(|(_, h)| h).unwrap_or(rest);
                    format!("{scheme}://{host}")
                }
                None => p.rsplit_once('@').map(|(_, h)| h).unwrap_or(&p).to_string(),
            };
            format!(" through the proxy {shown} (unless NO_PROXY names the host)")
        }
    }
}

/// The requester thread, read on the first task the key sees: a 404 says
/// the organisation has it off.
async fn requester_thread(client: &Client) -> Check {
    let page = match client.list_tasks(&TaskQuery::default(), 1, None).await {
        Ok(p) => p,
        Err(e) => {
            return check(
                "requester thread",
                false,
                format!("cannot list a task: {e}"),
            )
        }
    };
    let Some(id) = page.items.iter().find_map(|t| t.id().map(str::to_string)) else {
        return check(
            "requester thread",
            true,
            "not known: the key sees no task to ask about",
        );
    };
    match client.list_thread(&id).await {
        Ok(_) => check("requester thread", true, "available"),
        Err(ApiError::FeatureDisabled { .. } | ApiError::NotAvailable { .. }) => check(
            "requester thread",
            true,
            "not enabled for this organisation (replies to requesters are refused)",
        ),
        Err(e) => check("requester thread", false, format!("cannot be read: {e}")),
    }
}

/// The Visual Builder, asked to check an empty layout (nothing is stored).
async fn visual_builder(client: &Client) -> Check {
    let empty = serde_json::json!({"type": "report", "version": "1", "blocks": []});
    match client.validate_layout(&empty).await {
        Ok(_) | Err(ApiError::BadRequest { .. } | ApiError::Refused { .. }) => check(
            "visual builder",
            true,
            "available (:validate checks layouts)",
        ),
        Err(ApiError::FeatureDisabled { .. } | ApiError::NotAvailable { .. }) => check(
            "visual builder",
            true,
            "not enabled for this organisation (:validate is refused)",
        ),
        Err(e) => check("visual builder", false, format!("cannot be asked: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn a_proxy_is_named_without_its_credentials() {
        let env = env_of(&[("HTTPS_PROXY", "http://user:s3cret@proxy.corp:3128")]);
        let said = proxy_in_use("https://tasks.example.com", &env);
        assert!(said.contains("http://proxy.corp:3128"), "{said}");
        assert!(!said.contains("s3cret"), "{said}");
        let none = env_of(&[]);
        assert_eq!(proxy_in_use("https://tasks.example.com", &none), "");
        // A plain-http service does not go through an HTTPS proxy.
        assert_eq!(proxy_in_use("http://127.0.0.1:1", &env), "");
    }

    #[test]
    fn the_theme_line_says_which_and_why() {
        use crate::tui::background::Rgb;
        let c = crate::config::from_str("", None);
        let white = |_: bool| Some(Some(Rgb(255, 255, 255)));
        let silent = |_: bool| Some(None);
        let unasked = |_: bool| None;
        let none = env_of(&[]);
        let said = theme(&c, &none, &white).detail;
        assert_eq!(
            said,
            "auto: light, the terminal's background is #ffffff (it answered OSC 11)"
        );
        let light_bg = env_of(&[("COLORFGBG", "0;15")]);
        let said = theme(&c, &light_bg, &silent).detail;
        assert!(
            said.starts_with("auto: light, no answer to OSC 11 within 100 ms; COLORFGBG=0;15"),
            "{said}"
        );
        let said = theme(&c, &none, &unasked).detail;
        assert_eq!(
            said,
            "auto: dark, not asked (not a terminal) and no COLORFGBG"
        );
        let set = crate::config::from_str("theme = \"high-contrast\"\n", None);
        assert_eq!(
            theme(&set, &none, &white).detail,
            "high-contrast (theme in the config)"
        );
        // Inside tmux the question goes through its passthrough too.
        let tmux = env_of(&[("TMUX", "/tmp/tmux-1/default,1,0")]);
        let asked_in_tmux = std::cell::Cell::new(false);
        let spy = |t: bool| {
            asked_in_tmux.set(t);
            Some(None)
        };
        theme(&c, &tmux, &spy);
        assert!(asked_in_tmux.get());
    }

    #[test]
    fn the_keyboard_line_names_what_the_environment_tells() {
        assert!(keyboard(&env_of(&[("TERM", "xterm-kitty")])).contains("supported (kitty)"));
        assert!(keyboard(&env_of(&[("TERM", "xterm-256color")])).contains("not known"));
    }

    #[test]
    fn a_store_that_is_not_there_is_said() {
        let dir = std::env::temp_dir().join(format!("td-doctor-{}", std::process::id()));
        let missing = dir.join("nothing.db");
        let s = store(Some(&missing), "http://127.0.0.1:1");
        assert!(!s.ok, "{s:?}");
        assert!(s.detail.contains("nothing.db"), "the store is named: {s:?}");
        assert!(store(None, "").ok);
    }
}
