//! Connecting a profile: its configuration, its API key and a client for
//! its service; and whether the TUI can run here at all (a terminal that
//! can draw, checked before any key command asks for anything).
//!
//! A connection with a key fingerprint (the TUI's, `taskdeck inbox`'s) is
//! made once per process and profile, then reused: a `:profile` switch
//! back and forth, or another profile's inbox walker, takes the one made
//! before rather than running `api_key_command` again. It is kept in
//! memory only (the key inside the client; never on disk, in argv or in
//! the log), and made again only when the configuration would connect
//! otherwise (`Config::connection_recipe`: another base URL, key source,
//! certificate…). While one is being made, another wanting the same
//! profile's waits for it rather than running the key command a second
//! time.
//!
//! The current profile is connected in the foreground: its warnings go to
//! stderr and its `api_key_command` may ask on the terminal, before the
//! TUI takes the screen. Another profile (the TUI's all-profile inbox) is
//! connected quietly in the background ([`connect_quietly`]): its warnings
//! go to the log, and its `api_key_command` runs without a terminal.

use super::commands::{say, Failure};
use crate::api::{Client, ClientConfig};
use crate::config::{self, Config, Severity};
use crate::store::identity::KeyPrint;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub(super) struct Connected {
    pub client: Client,
    pub config: Config,
    pub store: Option<std::path::PathBuf>,
    pub key_print: Option<KeyPrint>,
}

/// Load the configuration and build a client, or explain what is missing.
///
/// Also the local store of the user this key was last seen to belong to
/// on this service (what the CLI completes names with), if any.
/// With `tui`, the key's fingerprint in the service's store folder (made
/// there if need be) instead: which user's store the TUI may open.
pub(super) fn connect(profile: Option<&str>, tui: bool) -> Result<Connected, Failure> {
    connect_as(profile, tui, tui)
}

/// [`connect`]; `print`: the key's fingerprint is made too (what the TUI
/// and `taskdeck inbox` open the user's store with), and the connection is
/// the one made before in this process, if any (see the module's text).
pub(super) fn connect_as(
    profile: Option<&str>,
    tui: bool,
    print: bool,
) -> Result<Connected, Failure> {
    let c = config::load(profile);
    if let Some(fatal) = c.fatal() {
        return Err(Failure::usage(fatal));
    }
    for d in c.diagnostics.iter() {
        say(&format!(
            "taskdeck: {}: {}: {d}",
            severity(d),
            c.path.display()
        ));
    }
    // The TUI without a terminal fails here, before the key command asks
    // for anything; without a base URL the instructions come first.
    if tui && c.settings.base_url.is_some() {
        terminal_ready(&TerminalFacts::now())?;
    }
    // By the profile it is (the top level's name is no profile of its
    // own: `--profile default` is the connection made without a name).
    let profile = c.settings.profile.clone();
    let profile = profile.as_deref();
    if print {
        once(profile, c, true)
    } else {
        make(profile, c, false, true)
    }
}

/// Another profile, for the TUI's all-profile inbox while the TUI holds
/// the screen (blocking: run it on a blocking thread): nothing reaches the
/// terminal. Its configuration's warnings go to the log; its
/// `api_key_command` runs without a terminal, within its time limit
/// (`api_key_command_timeout_secs`); the connection is the one made
/// before in this process, if any. Why it could not be connected, in
/// words for the inbox's line.
pub(super) fn connect_quietly(profile: &str) -> Result<(Client, Option<KeyPrint>), String> {
    let c = config::load(Some(profile));
    if let Some(fatal) = c.fatal() {
        return Err(fatal);
    }
    for d in c.diagnostics.iter() {
        tracing::warn!(profile, "{}: {}: {d}", severity(d), c.path.display());
    }
    let profile = c.settings.profile.clone();
    once(profile.as_deref(), c, false)
        .map(|c| (c.client, c.key_print))
        .map_err(|f| f.message)
}

fn severity(d: &config::Diagnostic) -> &'static str {
    if d.severity == Severity::Error {
        "ignored"
    } else {
        "warning"
    }
}

/// A connection made in this process: the recipe it was made from, its
/// client (which holds the key) and the key's fingerprint.
type Made = (String, Client, Option<KeyPrint>);

/// A profile's connection, locked while it is being made.
type Slot = Arc<Mutex<Option<Made>>>;

/// One slot per profile (`None`: the top level's, by any name).
fn slot(profile: Option<&str>) -> Slot {
    static SLOTS: OnceLock<Mutex<HashMap<Option<String>, Slot>>> = OnceLock::new();
    let mut slots = SLOTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    slots
        .entry(profile.map(str::to_string))
        .or_default()
        .clone()
}

/// The connection made before for `profile` from the same recipe, else a
/// new one (kept for the next time; a failure is not kept).
fn once(profile: Option<&str>, c: Config, attached: bool) -> Result<Connected, Failure> {
    let slot = slot(profile);
    let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
    let recipe = c.connection_recipe();
    if let Some((r, client, key_print)) = held.as_ref() {
        if *r == recipe {
            tracing::info!(profile = ?profile, "connection made before, reused");
            return Ok(Connected {
                client: client.clone(),
                key_print: key_print.clone(),
                config: c,
                store: None,
            });
        }
    }
    let made = make(profile, c, true, attached)?;
    *held = Some((recipe, made.client.clone(), made.key_print.clone()));
    Ok(made)
}

/// A configuration already loaded (and its warnings already said, or not
/// wanted): its key (a key command may use the terminal) and a client,
/// with the CLI's store. What `taskdeck doctor` connects with.
pub(super) fn quietly(profile: Option<&str>, c: Config) -> Result<Connected, Failure> {
    make(profile, c, false, true)
}

/// The key (`attached`: a key command may use the terminal), then the
/// client; `print`: the key's fingerprint, else the CLI's store.
fn make(
    profile: Option<&str>,
    c: Config,
    print: bool,
    attached: bool,
) -> Result<Connected, Failure> {
    let key = if attached {
        c.api_key()
    } else {
        c.api_key_detached()
    }
    .map_err(|e| Failure::usage(format!("cannot get the API key: {e}")))?;
    let (base, key) = match (c.settings.base_url.clone(), key) {
        (Some(b), Some(k)) => (b, k),
        (None, None) => return Err(not_configured(&c, "base URL and no API key")),
        (None, _) => return Err(not_configured(&c, "base URL")),
        (_, None) => return Err(not_configured(&c, "API key")),
    };
    tracing::info!(key_source = c.key_source().kind(), profile = ?profile, "configuration loaded");
    let (mut store, mut key_print) = (None, None);
    if c.settings.cache && print {
        let dir = crate::store::service_dir(&base, false);
        key_print = KeyPrint::of(&dir, key.expose());
    } else if c.settings.cache {
        let dir = crate::store::existing_service_dir(&base);
        store = crate::store::db_path_for_key(&dir, key.expose());
    }
    let mut cfg = ClientConfig::new(base, key);
    cfg.http2 = c.settings.http2;
    cfg.h2c = c.settings.http2_always;
    cfg.ca_file = c.settings.ca_file.clone();
    let client = Client::new(cfg).map_err(Failure::usage)?;
    tracing::info!(base = client.base_url(), "connecting");
    Ok(Connected {
        client,
        config: c,
        store,
        key_print,
    })
}

fn not_configured(c: &Config, missing: &str) -> Failure {
    let mut f = Failure::usage(format!("not configured: no {missing}"));
    f.hint = Some(format!(
        "Set TASKDECK_BASE_URL and TASKDECK_API_KEY, or write {}:\n\n\
         \x20   base_url = \"https://tasks.example.com\"\n\
         \x20   api_key_command = \"pass show work/tasks\"   # prints the key\n\n\
         (`taskdeck config init` asks and writes it; `taskdeck config check` checks it.)\n\
         To try taskdeck without a service: taskdeck demo",
        c.path.display()
    ));
    f
}

/// What decides whether the TUI can run here.
pub(super) struct TerminalFacts {
    stdout_tty: bool,
    /// `/dev/tty` opens: the process has a controlling terminal (`ssh host
    /// cmd` without `-t` has none).
    controlling: bool,
    term: Option<String>,
}

impl TerminalFacts {
    pub(super) fn now() -> TerminalFacts {
        use std::io::IsTerminal;
        TerminalFacts {
            stdout_tty: std::io::stdout().is_terminal(),
            controlling: std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/tty")
                .is_ok(),
            term: std::env::var("TERM").ok(),
        }
    }
}

/// The TUI needs a terminal that can draw: one line and exit 2 otherwise.
pub(super) fn terminal_ready(f: &TerminalFacts) -> Result<(), Failure> {
    if !f.stdout_tty || !f.controlling {
        let mut e = Failure::usage(
            "the TUI needs a terminal, and none is attached (over SSH, run `ssh -t host taskdeck`)",
        );
        e.hint = Some(
            "Without a terminal, the scriptable commands work: taskdeck me, taskdeck tasks --json …"
                .into(),
        );
        return Err(e);
    }
    if f.term.as_deref().map(str::trim) == Some("dumb") {
        let mut e = Failure::usage(
            "TERM=dumb: this terminal cannot draw the TUI (it moves the cursor and uses colour)",
        );
        e.hint = Some(
            "Run it in a terminal such as xterm-256color (TERM=xterm-256color), or use the \
             scriptable commands: taskdeck me, taskdeck tasks --json …"
                .into(),
        );
        return Err(e);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(stdout_tty: bool, controlling: bool, term: Option<&str>) -> TerminalFacts {
        TerminalFacts {
            stdout_tty,
            controlling,
            term: term.map(str::to_string),
        }
    }

    #[test]
    fn the_tui_refuses_no_terminal_and_term_dumb_with_one_line() {
        assert!(terminal_ready(&facts(true, true, Some("xterm-256color"))).is_ok());
        assert!(terminal_ready(&facts(true, true, None)).is_ok());
        for f in [facts(false, true, None), facts(true, false, Some("xterm"))] {
            let e = terminal_ready(&f).unwrap_err();
            assert_eq!(e.code, crate::cli::commands::EXIT_USAGE);
            assert!(e.message.contains("ssh -t"), "{}", e.message);
        }
        let e = terminal_ready(&facts(true, true, Some("dumb"))).unwrap_err();
        assert_eq!(e.code, crate::cli::commands::EXIT_USAGE);
        assert!(e.message.starts_with("TERM=dumb"), "{}", e.message);
    }
}
