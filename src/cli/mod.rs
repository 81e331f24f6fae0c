//! The command line: argument parsing, logging, and the dispatch to the
//! four faces (TUI, demo, sandbox, scriptable commands).

pub mod args;
pub mod commands;
mod connect;
#[cfg(feature = "sandbox")]
mod demo;
#[cfg(feature = "sandbox")]
mod demo_inbox;
mod docs;
mod doctor;
mod inbox;
pub mod init;
mod macros;
mod output;
pub mod pages;
mod profiles;
pub mod query;
mod search;
pub mod stream;
pub mod table;

use crate::config;
use crate::tui::LaunchInfo;
use args::{CacheCommand, Cli, Command, ConfigCommand};
use clap::Parser;
use commands::{emit, say, Failure, Outcome, EXIT_FAILED, EXIT_OK};
use connect::{connect, connect_as};
#[cfg(feature = "sandbox")]
use connect::{terminal_ready, TerminalFacts};
use std::time::Duration;

/// Entry point of the binary; returns the process exit code.
pub fn main() -> i32 {
    // First thing, before any thread allocates: a bounded number of malloc
    // arenas (`MALLOC_ARENAS`).
    bound_memory();
    // Before anything holds the key: no core dumps (unless opted out).
    let protection = crate::secret::protect_process();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // --help and --version land here too (exit 0); usage errors exit 2.
            let _ = e.print();
            return e.exit_code();
        }
    };
    // Commands that only print text need neither logging nor a runtime.
    let quick = match &cli.command {
        Some(Command::Completions { shell }) => Some(docs::completions(*shell)),
        Some(Command::Man) => Some(docs::man()),
        Some(Command::Config {
            command: ConfigCommand::Path,
        }) => Some(commands::config_path()),
        Some(Command::Config {
            command: ConfigCommand::Check,
        }) => Some(commands::config_check(cli.profile.as_deref())),
        Some(Command::Config {
            command: ConfigCommand::Schema,
        }) => Some(emit(&config::schema::schema_text()).map(|_| EXIT_OK)),
        Some(Command::Cache { command }) => Some(cache(cli.profile.as_deref(), command)),
        _ => None,
    };
    if let Some(outcome) = quick {
        return finish(outcome);
    }

    // Where every run logs, the demo's included (read before the demo
    // points the state folder at its own).
    let log_dir = config::state_dir();
    // The demo writes nothing of the user's: its own config, store and
    // drafts, in a folder removed when it ends (before any thread starts).
    #[cfg(feature = "sandbox")]
    let _demo_home = match &cli.command {
        Some(Command::Demo { .. }) => match demo::DemoHome::enter() {
            Ok(home) => Some(home),
            Err(e) => {
                say(&format!(
                    "taskdeck: cannot make the demo's own folder in {}: {e}",
                    std::env::temp_dir().display()
                ));
                return EXIT_FAILED;
            }
        },
        _ => None,
    };
    let _log_guard = init_logging(cli.log_level.as_deref(), &log_dir);
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "taskdeck starting");
    match protection {
        Ok(what) => tracing::info!("{what}"),
        Err(e) => tracing::warn!(error = %e, "cannot disable core dumps"),
    }
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            say(&format!("taskdeck: cannot start the async runtime: {e}"));
            return EXIT_FAILED;
        }
    };
    let code = finish(rt.block_on(dispatch(cli)));
    end_runtime(rt);
    // … nor for another profile's key command still asked for its key.
    config::stop_detached_key_commands();
    tracing::info!(code, "taskdeck exiting");
    code
}

/// glibc's malloc arenas taskdeck allows (issue 42 §2). One arena a
/// thread (glibc's default, up to eight a core) kept what each of the
/// runtime's workers, the store's thread and the walks' threads had freed
/// in its own heap; the loop, the decoding and the store take turns, so
/// two arenas lose nothing to contention and share their free memory.
pub const MALLOC_ARENAS: i32 = 2;

/// Bound malloc's arenas ([`MALLOC_ARENAS`]); glibc's `MALLOC_ARENA_MAX`
/// in the environment still wins, for measuring.
fn bound_memory() {
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        crate::platform::ffi::bound_malloc_arenas(MALLOC_ARENAS);
    }
}

/// The run is over and its exit status known: drop the background tasks
/// still going (the demo sandbox, an inbox walk, a request), waiting for
/// them 200 ms at most. A task the end catches in the middle of store work
/// (`inbox::cycle::off_runtime`, on a thread of its own for a moment) goes
/// on once that work returns, finds the runtime's timers gone and panics
/// in tokio ("being shutdown"). It changes nothing — its results have no
/// one to go to — but its report would reach the terminal just restored
/// (CI met it after a SIGHUP). From here a panic is logged, not printed.
pub fn end_runtime(rt: tokio::runtime::Runtime) {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info.location().map(|l| l.to_string()).unwrap_or_default();
        tracing::warn!(
            what = %crate::text::clean(&what),
            at = %at,
            "a background task panicked after the run ended"
        );
    }));
    rt.shutdown_timeout(Duration::from_millis(200));
}

fn finish(outcome: Outcome) -> i32 {
    match outcome {
        Ok(code) => code,
        Err(f) => {
            // One line; every part is already sanitised (and scrubbed here).
            say(&format!("taskdeck: {}", f.message.replace('\n', " ")));
            if let Some(h) = f.hint {
                say(&h);
            }
            f.code
        }
    }
}

/// Run one scriptable command against the service within `limit`, all of
/// it: every request, retry and page. The client's own time-outs bound one
/// request; retries and pages add up, so a service that trickles its answers
/// would otherwise hold a script for minutes.
async fn within(
    limit: Duration,
    what: &str,
    command: impl std::future::Future<Output = Outcome>,
) -> Outcome {
    tokio::time::timeout(limit, command)
        .await
        .unwrap_or_else(|_| {
            tracing::warn!(what, secs = limit.as_secs(), "command timed out");
            Err(Failure::failed(format!(
                "{what}: timed out: no complete answer from the service within {} s \
             (--timeout or TASKDECK_TIMEOUT sets the limit)",
                limit.as_secs()
            )))
        })
}

/// What `demo` and `sandbox` say in a build without the sandbox.
#[cfg(not(feature = "sandbox"))]
const NO_SANDBOX: &str = "this build of taskdeck has no sandbox (built without the `sandbox` \
     feature): `taskdeck demo` and `taskdeck sandbox` need it; build with default features";

async fn dispatch(cli: Cli) -> Outcome {
    let profile = cli.profile.as_deref();
    apply_time_zone(profile);
    let limit = Duration::from_secs(cli.timeout);
    match cli.command {
        None => tui(profile, cli.accessible).await,
        #[cfg(feature = "sandbox")]
        Some(Command::Demo { tasks }) => {
            terminal_ready(&TerminalFacts::now())?;
            demo::demo(tasks, cli.accessible).await
        }
        #[cfg(not(feature = "sandbox"))]
        Some(Command::Demo { .. } | Command::Sandbox(_)) => Err(Failure::failed(NO_SANDBOX)),
        #[cfg(feature = "sandbox")]
        Some(Command::Sandbox(a)) => {
            let mut opts = crate::sandbox::SandboxOptions::default();
            if let Some(n) = a.tasks {
                opts.tasks = n;
            }
            if let Some(f) = a.faults {
                opts.faults = f;
            }
            opts.quirks = a.quirks;
            opts.http1_only = a.http1_only;
            crate::sandbox::run_cli(a.addr, opts)
                .await
                .map_err(|e| Failure::failed(format!("sandbox on {} failed: {e}", a.addr)))?;
            Ok(EXIT_OK)
        }
        Some(Command::Config {
            command: ConfigCommand::Init,
        }) => init::run(profile).await,
        Some(Command::Inbox {
            json,
            all,
            all_profiles: true,
        }) => inbox_all_profiles(limit, json, all).await,
        Some(Command::Inbox { json, all, .. }) => {
            let c = connect_as(profile, false, true)?;
            let cache = c.config.settings.cache;
            within(
                limit,
                "inbox",
                inbox::run(&c.client, cache, c.key_print, json, all),
            )
            .await
        }
        Some(Command::Me { json }) => {
            let c = connect(profile, false)?;
            within(limit, "me", commands::me(&c.client, json)).await
        }
        Some(Command::Tasks(a)) => {
            // Bad filter values are reported before the configuration is used.
            let q = commands::task_query(&a, jiff::Timestamp::now())?;
            let c = connect(profile, false)?;
            within(
                limit,
                "tasks",
                commands::tasks(&c.client, c.store.as_deref(), &a, q),
            )
            .await
        }
        Some(Command::Search {
            words,
            json,
            offline,
            limit: most,
        }) => {
            let c = connect(profile, false)?;
            let ask = search::Ask {
                words: words.join(" "),
                json,
                offline,
                limit: most as usize,
            };
            within(
                limit,
                "search",
                search::run(&c.client, c.store.as_deref(), &ask),
            )
            .await
        }
        Some(Command::Macro {
            name,
            numbers,
            json,
            yes,
        }) => {
            let c = connect(profile, false)?;
            let ask = macros::Ask {
                name,
                numbers,
                json,
                yes,
            };
            // The limit bounds the service's parts, never the question.
            macros::run(&c.client, &c.config, &ask, limit).await
        }
        Some(Command::Doctor { json }) => doctor::run(profile, json, limit).await,
        Some(Command::ValidateLayout { file, json }) => {
            let c = connect(profile, false)?;
            within(
                limit,
                "validate-layout",
                commands::validate_layout(&c.client, &file, json),
            )
            .await
        }
        // Handled before the runtime starts.
        Some(
            Command::Config { .. }
            | Command::Cache { .. }
            | Command::Completions { .. }
            | Command::Man,
        ) => Ok(EXIT_OK),
    }
}

/// `inbox --all-profiles`: every profile connected, then every profile's
/// walk at once, each within `limit`, with its own connection and store.
async fn inbox_all_profiles(limit: Duration, json: bool, all: bool) -> Outcome {
    let names = config::profile_names();
    if names.is_empty() {
        return Err(Failure::usage(
            "--all-profiles: the config file defines no profile (no connection at its top level, no [profiles.NAME] table)",
        ));
    }
    let now = jiff::Timestamp::now();
    // Every profile connected first, one after another (a key command may
    // ask on the terminal, and it blocks): no walk's time limit runs while
    // another profile is still being connected.
    let connected: Vec<_> = names
        .into_iter()
        .map(|name| {
            let c = connect_as(Some(&name), false, true);
            (name, c)
        })
        .collect();
    let walks = connected.into_iter().map(|(name, c)| async move {
        let got = match c {
            Err(f) => Err(f),
            Ok(c) => {
                let cache = c.config.settings.cache;
                let what = format!("inbox of profile {name}");
                let g = inbox::gather(&c.client, cache, c.key_print, all, now, Some(&name));
                match tokio::time::timeout(limit, g).await {
                    Ok(r) => r,
                    Err(_) => Err(Failure::failed(format!(
                        "{what}: timed out: no complete answer within {} s",
                        limit.as_secs()
                    ))),
                }
            }
        };
        profiles::Walk { profile: name, got }
    });
    let walks = futures::future::join_all(walks).await;
    profiles::print(walks, json, now)
}

async fn tui(profile: Option<&str>, accessible: bool) -> Outcome {
    let mut profile = profile.map(str::to_string);
    let mut open = None;
    offer_init(profile.as_deref()).await?;
    loop {
        // Without configuration this fails at once (exit 2) with instructions.
        let mut c = connect(profile.as_deref(), true)?;
        c.config.settings.accessible |= accessible;
        // The top level's connection by its name (`--profile default`) is
        // the top level: no profile of its own.
        profile = c.config.settings.profile.clone();
        // Connected by their walkers, in the background, once per process.
        let others = profiles::others(&c.config);
        let end = crate::tui::run(
            c.client,
            c.config.settings,
            LaunchInfo {
                demo: false,
                profile: profile.clone(),
                key_print: c.key_print,
                others,
                open: open.take(),
            },
        )
        .await
        .map_err(|e| Failure::failed(format!("{e:#}").replace('\n', " ")))?;
        match end.switch_to {
            // `:profile NAME`: the same terminal, another service or user.
            Some(next) => {
                tracing::info!(profile = %next, "switching profile");
                // The old session's walkers are gone: a key command one of
                // them still runs would hold that profile's connection and
                // keep the switch waiting on a blank screen.
                config::stop_detached_key_commands();
                profile = Some(next);
                open = end.open;
            }
            None => return Ok(end.code),
        }
    }
}

/// `time_zone` from the config file, for everything this process reads or
/// shows (before any date is); a bad name is reported by the config's own
/// checks, and the default (`TZ`, else the system's) applies. The default is
/// read here, once, bounded (`system_zone`: a `TZ` naming a FIFO or
/// `/dev/zero` is refused at once), and what could not be read is said on
/// stderr, before the TUI takes the screen: times are then in UTC.
fn apply_time_zone(profile: Option<&str>) {
    let configured = config::load(profile).settings.time_zone;
    let named = configured
        .as_deref()
        .filter(|n| !matches!(n.trim().to_ascii_lowercase().as_str(), "system" | "local"))
        .and_then(|n| crate::domain::dates::resolve_zone(n).ok());
    let tz = match named {
        Some(tz) => tz,
        None => {
            let (tz, problem) = crate::domain::dates::system_zone();
            if let Some(p) = problem {
                tracing::warn!("{p}");
                say(&format!("taskdeck: warning: {p}"));
            }
            tz
        }
    };
    crate::domain::dates::set_zone(tz);
}

/// Nothing configured at all, in a terminal: offer `config init` rather
/// than an error (answering no gives the usual instructions).
async fn offer_init(profile: Option<&str>) -> Result<(), Failure> {
    use std::io::IsTerminal;
    let c = config::load(profile);
    let nothing = !c.file_exists
        && c.settings.base_url.is_none()
        && matches!(c.key_source(), config::KeySource::None);
    if !nothing || !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Ok(());
    }
    eprint!("taskdeck is not configured yet. Set it up now? [Y/n] ");
    let mut line = String::new();
    if std::io::stdin().read_line(&mut line).is_err() {
        return Ok(());
    }
    if matches!(line.trim(), "" | "y" | "Y" | "yes") {
        init::run(profile).await?;
    }
    Ok(())
}

/// Log to `state_dir()/taskdeck.log` (never the terminal), with registered
/// secrets scrubbed from every line. Without a usable state dir, logging is
/// off.
/// Log lines waiting for the writing thread, at most.
const LOG_LINES_QUEUED: usize = 8192;

fn init_logging(
    level: Option<&str>,
    dir: &std::path::Path,
) -> Option<tracing_appender::non_blocking::WorkerGuard> {
    use tracing_appender::rolling::{RollingFileAppender, Rotation};
    config::ensure_private_dir(dir).ok()?;
    config::set_log_dir(dir);
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::NEVER)
        .filename_prefix("taskdeck.log")
        .build(dir)
        .ok()?;
    // The queue to the writing thread is allocated whole at start: the
    // default of 128,000 lines takes 4 MB. The thread writes as lines come;
    // a burst beyond this many lines unwritten is dropped (as before, only
    // later).
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_LINES_QUEUED)
        .finish(appender);
    let filter = tracing_subscriber::EnvFilter::try_new(level.unwrap_or("info"))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_writer(move || crate::secret::Scrubbing(writer.clone()))
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
        .ok()?;
    Some(guard)
}

/// `taskdeck cache path|clear`.
fn cache(profile: Option<&str>, command: &CacheCommand) -> Outcome {
    let c = config::load(profile);
    let dir = c
        .settings
        .base_url
        .as_deref()
        .map(|b| crate::store::service_dir(b, false));
    match command {
        CacheCommand::Path => {
            let Some(dir) = dir else {
                emit(&format!("{}\n", crate::store::cache_root().display()))?;
                say("taskdeck: no base URL configured: that is the folder of every store");
                return Ok(EXIT_OK);
            };
            // The service's folder: one database per user inside (which
            // one is this key's is known only with the key).
            emit(&format!("{}\n", dir.display()))?;
            if !c.settings.cache {
                say("taskdeck: `cache = false` in the config: nothing is written there");
            }
            Ok(EXIT_OK)
        }
        CacheCommand::Clear { all } => {
            let target = if *all {
                crate::store::cache_root()
            } else {
                match dir {
                    Some(d) => d,
                    None => {
                        return Err(Failure::usage(
                            "no base URL configured: give --all to clear every store",
                        ))
                    }
                }
            };
            match std::fs::remove_dir_all(&target) {
                Ok(()) => {
                    say(&format!("taskdeck: removed {}", target.display()));
                    Ok(EXIT_OK)
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    say(&format!("taskdeck: nothing stored at {}", target.display()));
                    Ok(EXIT_OK)
                }
                Err(e) => Err(Failure::failed(format!(
                    "cannot remove {}: {e}",
                    target.display()
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::platform::ffi::malloc_arenas;

    const CHILD: &str = "TASKDECK_TEST_ARENAS_CHILD";
    const NAME: &str = "cli::tests::malloc_keeps_to_its_arenas_however_many_threads_allocate";

    /// glibc settles its arena limit once it has made more than eight: a
    /// test process has made them long before, so the check runs in a
    /// fresh process of this test binary running this test alone.
    #[test]
    fn malloc_keeps_to_its_arenas_however_many_threads_allocate() {
        if std::env::var_os(CHILD).is_none() {
            if malloc_arenas().is_none() {
                return; // not glibc's malloc: nothing to bound
            }
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([NAME, "--exact", "--test-threads=1", "--nocapture"])
                .env(CHILD, "1")
                .env_remove("MALLOC_ARENA_MAX")
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && said.contains("1 passed"),
                "{said}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            return;
        }
        super::bound_memory();
        let before = malloc_arenas().unwrap();
        // Sixteen threads allocating at once, each alive until all have.
        let all = std::sync::Arc::new(std::sync::Barrier::new(16));
        let threads: Vec<_> = (0..16)
            .map(|i| {
                let all = all.clone();
                std::thread::spawn(move || {
                    let held: Vec<Box<[u8; 64]>> = (0..1000).map(|_| Box::new([i; 64])).collect();
                    all.wait();
                    held.len()
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), 1000);
        }
        let after = malloc_arenas().unwrap();
        println!("arenas: {before} before, {after} after 16 threads");
        assert!(
            after <= before.max(super::MALLOC_ARENAS as usize),
            "{after} arenas after 16 threads, {before} before"
        );
    }
}
