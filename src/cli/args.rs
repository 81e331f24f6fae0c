//! The command line (clap derive). There is deliberately no option for the
//! API key: it comes from the environment or the config file only.

#[cfg(feature = "sandbox")]
use crate::sandbox::Faults;
/// Without the sandbox (`--no-default-features`) the fault spec is only
/// text: `taskdeck sandbox` says this build has none.
#[cfg(not(feature = "sandbox"))]
type Faults = String;
use clap::{Args, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "taskdeck",
    version,
    about = "A keyboard-first terminal client for the Task Collaboration Service",
    long_about = "A keyboard-first terminal client for the Task Collaboration Service.\n\n\
        Without a subcommand, opens the TUI against the configured service.\n\
        Connection: TASKDECK_BASE_URL and TASKDECK_API_KEY, or the config file \
        (see `taskdeck config path`), where the key may come from `api_key_command`.\n\
        Try it without any configuration: `taskdeck demo`.",
    after_help = "Exit codes: 0 success, 1 the service refused or failed (or an invalid \
        layout), 2 bad usage or configuration, 3 `inbox`: the walk was partial (what was \
        read is shown; stderr says which part), 4 authentication failed, 5 the connection's \
        setup failed (a certificate, a proxy), or the service could not be reached (`inbox`, \
        `search`), 6 `inbox --all-profiles`: some profiles failed (each named on stderr)."
)]
pub struct Cli {
    /// Use profile NAME: a [profiles.NAME] table of the config file, or
    /// `default` (the connection at its top level; renamed by
    /// `default_profile`).
    #[arg(long, global = true, env = "TASKDECK_PROFILE", value_name = "NAME")]
    pub profile: Option<String>,

    /// Log level or filter for the log file (error, warn, info, debug, trace).
    #[arg(
        long,
        global = true,
        env = "TASKDECK_LOG",
        value_name = "LEVEL",
        value_parser = parse_log_level
    )]
    pub log_level: Option<String>,

    /// Seconds a command that asks the service (`me`, `tasks`, `inbox`,
    /// `search`, `validate-layout`, `doctor`) may take in all, retries and
    /// every page included (1-3600).
    #[arg(
        long,
        global = true,
        env = "TASKDECK_TIMEOUT",
        value_name = "SECS",
        default_value_t = 30,
        value_parser = clap::value_parser!(u64).range(1..=3600)
    )]
    pub timeout: u64,

    /// The screen reader's and braille display's view: the terminal's
    /// cursor on the focus, no box drawing, nothing redrawn while idle
    /// (also `accessible = true` in the config).
    #[arg(
        long,
        global = true,
        env = "TASKDECK_ACCESSIBLE",
        value_parser = clap::builder::FalseyValueParser::new()
    )]
    pub accessible: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the TUI against an embedded sandbox service (no configuration, no network).
    Demo {
        /// Number of seeded tasks.
        #[arg(long, value_name = "N")]
        tasks: Option<usize>,
    },
    /// Run the sandbox service alone and print its demo API keys.
    Sandbox(SandboxArgs),
    /// Show who the API key acts as.
    Me {
        /// Print the service's object as received.
        #[arg(long)]
        json: bool,
    },
    /// What needs you, and why: tasks assigned to you, comments that
    /// mention or answer you, fields changed on your tasks (before →
    /// after), sharing, due dates, drafts, follow-ups. Reads the service
    /// once (a bounded walk), then prints from the local store the TUI
    /// shares. Exit 0 (an empty list when nothing needs you); a walk that
    /// could not read everything, what it read and exit 3 (stderr says
    /// which part); without the service, the stored inbox and exit 5.
    Inbox {
        /// Every item, lossless: reason, task, changes (field, before,
        /// after), at.
        #[arg(long)]
        json: bool,
        /// Items already read too.
        #[arg(long)]
        all: bool,
        /// Every profile of the config file (the top level's connection,
        /// `default`, and each [profiles.NAME]) in one list, each walked
        /// with its own key, service and store, each item naming its
        /// profile (`--profile` is ignored). A profile that
        /// fails is named on stderr; the others are printed and the exit
        /// code is 6.
        #[arg(long)]
        all_profiles: bool,
    },
    /// Run a macro of the config file ([[macros]], docs/macros.md) on the
    /// tasks named by number, through the same steps as the TUI's `:macro`:
    /// the review first (every step per task, the reply and comment
    /// rendered), then y/N on a terminal; without a terminal, only with
    /// --yes. Exit 0 every step done (a field queued or a message kept as a
    /// draft: 5, the service could not be reached); 1 a step failed (named,
    /// with what was and was not done); 2 an unknown macro, one with a
    /// fault in the config, a task not found, or no --yes without a
    /// terminal; 4 the key refused.
    Macro {
        /// The macro's name (`taskdeck config check` lists faults).
        name: String,
        /// Task numbers (`12` or `#12`).
        #[arg(required = true, value_name = "N", value_parser = parse_number)]
        numbers: Vec<i64>,
        /// Per task, per step: done, queued, not_sent, failed (with its
        /// reason), unknown or not_run; the reply's delivery_status (Sent,
        /// DRAFT).
        #[arg(long)]
        json: bool,
        /// Run without asking (the review is still printed, unless --json).
        #[arg(long)]
        yes: bool,
    },
    /// List tasks (one page, or every page with --all).
    Tasks(TasksArgs),
    /// Search everything seen: the local store's matches first (number,
    /// title, description, additional context, tags, people, comments and
    /// requester messages, each saying where it matched), then the
    /// service's own search. Exit 0; without the service (unreachable),
    /// the stored matches and exit 5; a refused key exits 4.
    Search {
        /// The words (each matches as the beginning of a word).
        #[arg(required = true, value_name = "WORDS")]
        words: Vec<String>,
        /// One JSON object: `stored` (each with `matched`: where, who,
        /// snippet) and `service` (the items as received, or null).
        #[arg(long)]
        json: bool,
        /// The store only: the service is not asked.
        #[arg(long)]
        offline: bool,
        /// At most this many of each (1-1000).
        #[arg(long, value_name = "N", default_value_t = 20,
              value_parser = clap::value_parser!(u32).range(1..=1000))]
        limit: u32,
    },
    /// Check an artifact layout (a JSON file holding the layout object, or - for stdin) without saving it.
    #[command(
        name = "validate-layout",
        long_about = "Check an artifact layout without saving it.\n\n\
            FILE holds the layout object itself, e.g.\n\n\
            \x20   {\"type\": \"report\", \"version\": \"1\", \"blocks\": [...]}\n\n\
            not wrapped in {\"layout\": ...}. (A file whose only key is \"layout\" \
            is unwrapped, with a note on standard error.)\n\n\
            Exit codes: 0 valid, 1 invalid or the service refused, 2 the file is \
            unreadable or not JSON (named with line and column)."
    )]
    ValidateLayout {
        /// The layout JSON file (the layout object itself: {"type": "report", "version": "1", "blocks": [...]}), or - to read standard input.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Print the service's result as received.
        #[arg(long)]
        json: bool,
    },
    /// What a bug report needs and what is wrong: the version, the terminal
    /// (colours, size, keyboard), tmux or screen and whether they pass
    /// sequences on, SSH, where copying and notifications go, the config
    /// file's problems, the profiles, where the key comes from (never the
    /// key), the store (size, schema, integrity, outbox, drafts) and the
    /// service (reachable, TLS, proxy, who the key acts as, the requester
    /// thread and the Visual Builder). One line a check: ok, or the
    /// problem and its fix. Exit 0 when every check holds, 1 otherwise.
    Doctor {
        /// One JSON object: {"checks": [{"name", "ok", "detail"}…]}.
        #[arg(long)]
        json: bool,
    },
    /// Inspect the configuration.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// The local store (what taskdeck keeps on disk to open instantly and
    /// read offline).
    Cache {
        #[command(subcommand)]
        command: CacheCommand,
    },
    /// Print a shell completion script.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to standard output.
    Man,
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Print where the store of the configured service lives.
    Path,
    /// Delete the store of the configured service (all its users), or
    /// every store with --all. Drafts are not touched.
    Clear {
        /// Every service's store.
        #[arg(long)]
        all: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Set up the service and the key (asks, tests them with /me, writes
    /// the file keeping what it holds; answers may be piped in).
    Init,
    /// Print the path of the config file.
    Path,
    /// Check the config file: unknown keys and bad values, with line numbers.
    Check,
    /// Print a JSON Schema (draft 2020-12) of the config file, for editors
    /// (taplo, tombi); `config init` writes it beside the file.
    Schema,
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Number of seeded tasks.
    #[arg(long, value_name = "N")]
    pub tasks: Option<usize>,
    /// Fault injection: delay=MS,fail_every=N,status=S,retry_after=SECS,garbage_every=N,reset_every=N,down=1 (down: every connection dropped before it is handled)
    #[arg(long, value_name = "SPEC", value_parser = parse_faults)]
    pub faults: Option<Faults>,
    /// Add tasks with unknown enum values, unknown fields and an unreadable item.
    #[arg(long)]
    pub quirks: bool,
    /// Serve HTTP/1.1 only (by default HTTP/2 with prior knowledge is served too).
    #[arg(long)]
    pub http1_only: bool,
}

/// The service's task statuses and priorities (the values `--status` and
/// `--priority` complete to): the one list the palette and filters use.
pub use crate::domain::filters::{PRIORITY_VALUES, STATUS_VALUES};

/// Values the shell completes, without clap checking them: taskdeck
/// checks them itself, with its own one-line message (exit 2).
#[derive(Clone, Copy)]
pub struct Candidates(pub &'static [&'static str]);

impl clap::builder::TypedValueParser for Candidates {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            self.0.iter().map(|v| clap::builder::PossibleValue::new(*v)),
        ))
    }
}

#[derive(Debug, Args)]
pub struct TasksArgs {
    /// Free-text search over title, description, context and comments.
    #[arg(long, short = 'q', value_name = "Q")]
    pub query: Option<String>,
    /// Status values, comma-separated (not_started, in_progress, waiting_on_external, completed;
    /// the word the TUI shows, such as waiting, or a unique beginning works too).
    #[arg(long, value_delimiter = ',', value_name = "a,b", value_parser = Candidates(STATUS_VALUES))]
    pub status: Vec<String>,
    /// Priority (no_priority, urgent, high, medium, low; a unique beginning works too).
    #[arg(long, value_name = "P", value_parser = Candidates(PRIORITY_VALUES))]
    pub priority: Option<String>,
    /// Only tasks assigned to this person: an id, `me`, or an e-mail or
    /// name taskdeck has seen (sent as the id; several matches exit 2
    /// listing them).
    #[arg(long, value_name = "WHO")]
    pub assigned_to: Option<String>,
    /// Tasks this person is involved in (an id, `me`, an e-mail or a name,
    /// as --assigned-to).
    #[arg(long, value_name = "WHO")]
    pub involving: Option<String>,
    /// Task team id.
    #[arg(long, value_name = "ID")]
    pub team_id: Option<String>,
    /// Tags, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "a,b")]
    pub tags: Vec<String>,
    /// Only tasks due at or after this date, in your time zone (`time_zone`
    /// in the config, else TZ, else the system's): a day (2026-12-01,
    /// today, tomorrow, fri, next fri, +3d, 2w) means the start of that
    /// local day (00:00); 2026-12-01 09:00, fri 17:00 or 5pm is a local
    /// time; 2026-12-01T09:00:00Z is UTC. The same forms as :due.
    #[arg(long, value_name = "DATE")]
    pub due_from: Option<String>,
    /// Only tasks due at or before this date (same forms as --due-from; a
    /// date or word means the end of that local day, 23:59:59).
    #[arg(long, value_name = "DATE")]
    pub due_to: Option<String>,
    /// Page size, 1 to 100 (kept identical on every page); default 20,
    /// and 100 with --all.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub limit: Option<u32>,
    /// Walk every page with the cursor.
    #[arg(long)]
    pub all: bool,
    /// Print one JSON array of the items exactly as received.
    #[arg(long)]
    pub json: bool,
}

impl TasksArgs {
    /// The page size asked for: `--limit`, else the largest page for a
    /// walk of every page (fewer round trips) and 20 for one page.
    pub fn page_size(&self) -> u32 {
        self.limit.unwrap_or(if self.all { 100 } else { 20 })
    }
}

fn parse_faults(s: &str) -> Result<Faults, String> {
    #[cfg(feature = "sandbox")]
    return s.parse();
    #[cfg(not(feature = "sandbox"))]
    Ok(s.to_string())
}

fn parse_number(s: &str) -> Result<i64, String> {
    s.trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("not a task number: {s:?} (write 12 or #12)"))
}

fn parse_log_level(s: &str) -> Result<String, String> {
    tracing_subscriber::EnvFilter::try_new(s)
        .map(|_| s.to_string())
        .map_err(|e| format!("{s:?} is not a log level or filter: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn limit_is_bounded_and_lists_split() {
        let c =
            Cli::try_parse_from(["taskdeck", "tasks", "--status", "a,b", "--limit", "37"]).unwrap();
        match c.command {
            Some(Command::Tasks(t)) => {
                assert_eq!(t.status, vec!["a", "b"]);
                assert_eq!(t.limit, Some(37));
                assert_eq!(t.page_size(), 37);
            }
            other => panic!("{other:?}"),
        }
        let page = |args: &[&str]| match Cli::try_parse_from(args).unwrap().command {
            Some(Command::Tasks(t)) => t.page_size(),
            other => panic!("{other:?}"),
        };
        assert_eq!(page(&["taskdeck", "tasks"]), 20);
        assert_eq!(page(&["taskdeck", "tasks", "--all"]), 100);
        assert_eq!(page(&["taskdeck", "tasks", "--all", "--limit", "37"]), 37);
        for bad in ["0", "101", "x"] {
            let e = Cli::try_parse_from(["taskdeck", "tasks", "--limit", bad]).unwrap_err();
            assert_eq!(e.exit_code(), 2);
        }
        assert!(Cli::try_parse_from(["taskdeck", "--api-key", "x", "me"]).is_err());
    }
}
