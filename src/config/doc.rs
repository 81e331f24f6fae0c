//! Every setting of the config file with its meaning and default: the
//! table `docs/config.md` carries (generated from here, see
//! `tests/docs.rs`). A test below fails when a key the parser reads has no
//! row here, when a row names a key the parser does not read, and when a
//! stated default is not what the code uses.

/// One setting of the config file, as documented.
#[derive(Clone, Copy, Debug)]
pub struct SettingDoc {
    /// The key as written in the file (`[keys.CONTEXT]` for a table).
    pub key: &'static str,
    /// What it does (Markdown, links relative to `docs/`).
    pub meaning: &'static str,
    /// The default, as shown.
    pub default: &'static str,
    /// The default as TOML, when writing it changes nothing: the test
    /// checks that `key = <this>` gives exactly the default settings.
    pub toml: Option<&'static str>,
    /// What values it takes: the parser reads its ranges and choices from
    /// here, and `taskdeck config schema` describes it from here.
    pub kind: Kind,
}

/// The values a setting takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A string that is not blank.
    Str,
    /// An http or https URL.
    Url,
    Bool,
    /// An integer from `min` to `max`.
    Int {
        min: i64,
        max: i64,
    },
    /// One of these strings.
    Choice(&'static [&'static str]),
    /// `true`, `false`, or one of these strings (`http2 = "always"`).
    BoolOr(&'static [&'static str]),
    /// A list of these strings (`notify`).
    Words(&'static [&'static str]),
    /// A list of strings, each not blank (a macro's `tags`).
    Strs,
    /// One of these integers (`notify_osc`).
    Number(&'static [u16]),
    /// `[keys.CONTEXT]` tables of `"key" = "action"`.
    Keys,
    /// `[[NAME]]` entries taking these fields.
    Entries(&'static [Field]),
    /// `[profiles.NAME]` tables taking [`PROFILE_SETTINGS`].
    Profiles,
}

/// One field of a `[[views]]` or `[[commands]]` entry.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    /// Only [`Kind::Str`], [`Kind::Bool`], [`Kind::Int`], [`Kind::Choice`],
    /// [`Kind::Words`] and [`Kind::Strs`].
    pub kind: Kind,
    pub meaning: &'static str,
    /// A value the parser accepts, as TOML (the schema test writes it).
    pub example: &'static str,
}

const fn field(
    name: &'static str,
    kind: Kind,
    meaning: &'static str,
    example: &'static str,
) -> Field {
    Field {
        name,
        kind,
        meaning,
        example,
    }
}

impl SettingDoc {
    const fn is(self, kind: Kind) -> SettingDoc {
        SettingDoc { kind, ..self }
    }
}

/// The row of `key` (a top-level key the parser reads).
pub fn setting(key: &str) -> &'static SettingDoc {
    SETTINGS
        .iter()
        .find(|s| s.key == key)
        .unwrap_or_else(|| panic!("no row for `{key}` in config::doc::SETTINGS"))
}

/// The range of an integer setting, as the parser checks it.
pub fn range(key: &str) -> (i64, i64) {
    match setting(key).kind {
        Kind::Int { min, max } => (min, max),
        other => panic!("`{key}` is {other:?}, not an integer"),
    }
}

/// The strings a choice setting takes, as the parser checks them.
pub fn choices(key: &str) -> &'static [&'static str] {
    match setting(key).kind {
        Kind::Choice(c) | Kind::BoolOr(c) | Kind::Words(c) => c,
        other => panic!("`{key}` is {other:?}, not a choice"),
    }
}

/// What `colors` takes (`24bit` is `truecolor`).
pub const COLORS: &[&str] = &["auto", "truecolor", "24bit", "256", "16"];

/// The fields of `[[views]]`.
pub const VIEW_FIELDS: &[Field] = &[
    field(
        "name",
        Kind::Str,
        "the view's name (`:view NAME`)",
        "\"mine\"",
    ),
    field(
        "filter",
        Kind::Str,
        "the filter as `:filter` words, read again each time the view is chosen",
        "\"assigned=me\"",
    ),
    field("key", Kind::Str, "a key that chooses the view", "\"7\""),
];

/// The longest a custom command may run (`timeout_secs`), in seconds.
pub const COMMAND_TIMEOUT_MAX_SECS: i64 = 3600;

/// The fields of `[[commands]]`.
pub const COMMAND_FIELDS: &[Field] = &[
    field(
        "name",
        Kind::Str,
        "`:run NAME` (default: the description in lower case with dashes)",
        "\"open-it\"",
    ),
    field("key", Kind::Str, "a key that runs it", "\"O\""),
    field(
        "description",
        Kind::Str,
        "shown in help and the palette",
        "\"Open it\"",
    ),
    field(
        "run",
        Kind::Str,
        "the command (`sh -c`), with placeholders such as `{id}`",
        "\"echo {id}\"",
    ),
    field(
        "interactive",
        Kind::Bool,
        "hand the terminal to the command",
        "false",
    ),
    field(
        "for",
        Kind::Choice(&["each", "all"]),
        "once per task (`each`) or once for all the targets (`all`, `{ids}`)",
        "\"each\"",
    ),
    field(
        "timeout_secs",
        Kind::Int {
            min: 1,
            max: COMMAND_TIMEOUT_MAX_SECS,
        },
        "seconds it may run",
        "30",
    ),
];

/// The fields of a `[[macros]]` entry: the schema describes them and the
/// macros' parser (`config::macros`) names them from here.
pub const MACRO_FIELDS: &[Field] = &[
    field("name", Kind::Str, "one word: `:macro NAME`", "\"ack\""),
    field(
        "key",
        Kind::Str,
        "a key that runs it where a task is current",
        "\"f9\"",
    ),
    field(
        "description",
        Kind::Str,
        "what it does, in the picker and the review",
        "\"Acknowledge and wait\"",
    ),
    field(
        "reply",
        Kind::Str,
        "a reply on the requester thread; `{number}`, `{title}`, `{requester}`, `{assignee}`, `{me}`, `{due}` filled in",
        "\"Hello {requester}, noted: {title}\"",
    ),
    field(
        "comment",
        Kind::Str,
        "an internal comment; the same variables",
        "\"Acknowledged for {requester}.\"",
    ),
    field(
        "status",
        Kind::Str,
        "a status, as `:status` takes it",
        "\"waiting_on_external\"",
    ),
    field(
        "priority",
        Kind::Str,
        "a priority, as `:priority` takes it",
        "\"high\"",
    ),
    field(
        "due",
        Kind::Str,
        "a due date in the one time grammar (`fri 17:00`)",
        "\"fri 17:00\"",
    ),
    field(
        "tags",
        Kind::Strs,
        "tags added (`+t`) and removed (`-t`)",
        "[\"+awaiting\", \"-new\"]",
    ),
    field("assign", Kind::Str, "`me` or a name", "\"me\""),
    field(
        "follow_up",
        Kind::Str,
        "a follow-up, as `:follow-up` takes it",
        "\"in 3 days\"",
    ),
    field(
        "snooze",
        Kind::Str,
        "a snooze, as `:snooze` takes it",
        "\"tomorrow 9:00\"",
    ),
];

const fn row(
    key: &'static str,
    meaning: &'static str,
    default: &'static str,
    toml: Option<&'static str>,
) -> SettingDoc {
    SettingDoc {
        key,
        meaning,
        default,
        toml,
        kind: Kind::Str,
    }
}

/// The top level's settings, in the order the docs list them. Adding a key
/// to the parser (`TOP_KEYS`) without a row here fails
/// `every_key_read_is_documented`.
pub const SETTINGS: &[SettingDoc] = &[
    row("base_url", "the service (http or https)", "—", None)
    .is(Kind::Url),
    row(
        "api_key_command",
        "command (run with `sh -c`, before the screen is taken) whose first line of output that is not blank, trimmed, is the key, e.g. `pass show work/tasks`; it is done when its shell has exited and its output is closed or that line complete, and what it left running in its process group is then ended; its output is never shown and may be at most 64 KiB; its stderr and stdin are the terminal's, so a passphrase prompt shows; run once per process (another profile's, for the all-profile inbox, in the background without the terminal: see [the inbox](inbox.md))",
        "—",
        None,
    )
    .is(Kind::Str),
    row(
        "api_key_command_timeout_secs",
        "seconds `api_key_command` may run, 1–600",
        "30",
        Some("30"),
    )
    .is(Kind::Int { min: 1, max: super::key_command::KEY_COMMAND_TIMEOUT_MAX_SECS }),
    row(
        "api_key",
        "the key itself (discouraged; warned about when the file is readable by others)",
        "—",
        None,
    )
    .is(Kind::Str),
    row("page_size", "task list page size in the TUI, 1–100", "50", Some("50"))
    .is(Kind::Int { min: 1, max: 100 }),
    row("refresh_secs", "periodic list refresh, 0 = off", "60", Some("60"))
    .is(Kind::Int { min: 0, max: 86_400 }),
    row(
        "inbox_refresh_secs",
        "the inbox's walk of the tasks involving you, 0 = only when asked (`r` in the inbox); at least 30 (see [the inbox](inbox.md))",
        "120",
        Some("120"),
    )
    .is(Kind::Int { min: 0, max: 86_400 }),
    row(
        "inbox_profiles",
        "with several profiles, the TUI's inbox shows every profile's items, each walked with its own key and store and labelled with its profile (`all`), or the current profile's only (`current`) (see [the inbox](inbox.md))",
        "`all`",
        Some("\"all\""),
    )
    .is(Kind::Choice(&["all", "current"])),
    row(
        "theme",
        "`auto`: light or dark as the terminal's background is (asked with OSC 11 at start, 100 ms at most; then `COLORFGBG`; else dark; `taskdeck doctor` says which and why); or `dark`, `light`, `high-contrast`",
        "`auto`",
        Some("\"auto\""),
    )
    .is(Kind::Choice(super::settings::THEMES)),
    row(
        "time_zone",
        "the zone dates are shown and typed in: an IANA name (`America/New_York`), `utc` or `system`",
        "`$TZ`, else the system's",
        None,
    )
    .is(Kind::Str),
row(
        "mouse",
        "mouse support (wheel scrolls, click selects, see [mouse](mouse.md)); off so that terminal selection keeps working over SSH",
        "false",
        Some("false"),
    )
    .is(Kind::Bool),
    row(
        "accessible",
        "accessible mode for screen readers and braille displays: the terminal's cursor on the focus, no box drawing, nothing redrawn while idle; also `--accessible` and `TASKDECK_ACCESSIBLE=1` (see [accessibility](accessibility.md))",
        "false",
        Some("false"),
    )
    .is(Kind::Bool),
    row(
        "notify",
        "how something new that needs you is told while taskdeck runs: any of `bell`, `desktop` (a notification through the terminal: OSC 9, 777 or 99; tmux needs `allow-passthrough on`), `title` (the count in the window's title); `[]` for nothing (see [notifications](notifications.md))",
        "`[\"title\"]`",
        None,
    )
    .is(Kind::Words(super::settings::NOTIFY_WAYS)),
    row(
        "notify_command",
        "run once per notification (`sh -c`), the notice in its environment (`TASKDECK_WORDS`, `TASKDECK_REASON`, …; see [notifications](notifications.md))",
        "none",
        None,
    )
    .is(Kind::Str),
    row(
        "notify_osc",
        "force the desktop notification's kind: `9`, `777` or `99`",
        "chosen from the terminal",
        None,
    )
    .is(Kind::Number(super::settings::NOTIFY_OSCS)),
    row(
        "colors",
        "the colours the terminal shows: `truecolor`, `256`, `16` or `auto` (from `COLORTERM`, then `TERM`: a `…256color` one is 256, plain `xterm`, `linux`, `screen` are 16); under 16 every colour is written as a classic code (`ESC[31m`), not a 256-colour one",
        "`auto`",
        None,
    )
    .is(Kind::Choice(COLORS)),
    row(
        "copy_command",
        "copying (`y`, `Y`) pipes the text into this command (`sh -c`), e.g. `wl-copy`, `xclip -sel clip`, `pbcopy`",
        "the desktop's tool, tmux's buffer, OSC 52",
        None,
    )
    .is(Kind::Str),
    row(
        "prefetch",
        "read ahead the detail of the tasks around the cursor (see [read-ahead](read-ahead.md))",
        "true",
        Some("true"),
    )
    .is(Kind::Bool),
    row(
        "http2",
        "HTTP/2 where TLS negotiates it (https), one connection for the session; plain http stays HTTP/1.1 (see [read-ahead](read-ahead.md#one-connection)); `\"always\"`: plain http tries HTTP/2 with prior knowledge too; `false`: HTTP/1.1 only",
        "true",
        Some("true"),
    )
    .is(Kind::BoolOr(&["always"])),
    row(
        "ca_file",
        "PEM file of one or more CA certificates trusted besides the system's, for a service behind your organisation's own CA (`~/` is your home; also per profile; see [troubleshooting](troubleshooting.md#proxies-and-certificates))",
        "—",
        None,
    )
    .is(Kind::Str),
    row(
        "cache",
        "keep the local store (`false`: nothing is written; no instant start, no offline reading, no outbox; see [offline](offline.md))",
        "true",
        Some("true"),
    )
    .is(Kind::Bool),
    row(
        "keys",
        "`[keys.CONTEXT]`: key overrides, `\"key\" = \"action\"` (see [keys](keys.md))",
        "—",
        None,
    )
    .is(Kind::Keys),
    row(
        "views",
        "`[[views]]`: saved views: `name`, `filter`, `key` (see [views](views.md))",
        "the built-in ones",
        None,
    )
    .is(Kind::Entries(VIEW_FIELDS)),
    row(
        "commands",
        "`[[commands]]`: custom commands: `key`, `description`, `run`, `name`, `for`, `interactive`, `timeout_secs` (see [custom commands](custom-commands.md))",
        "—",
        None,
    )
    .is(Kind::Entries(COMMAND_FIELDS)),
    row(
        "macros",
        "`[[macros]]`: a reply, a comment, field changes and reminders in one key: `name`, `key`, `description`, `reply`, `comment`, `status`, `priority`, `due`, `tags`, `assign`, `follow_up`, `snooze` (see [macros](macros.md))",
        "—",
        None,
    )
    .is(Kind::Entries(MACRO_FIELDS)),
    row(
        "default_profile",
        "the name of the top level's connection as a profile: `--profile NAME`, `TASKDECK_PROFILE`, `:profile NAME` (back to it from another profile), the inbox's labels, `inbox --all-profiles` and `doctor` use it; a `[profiles.NAME]` table of that name is an error (see [profiles](offline.md#profiles-several-services-or-users))",
        "`default`",
        Some("\"default\""),
    )
    .is(Kind::Str),
    row(
        "profiles",
        "`[profiles.NAME]`: the keys of the table below, for `--profile NAME` / `TASKDECK_PROFILE` (the top level's connection is the profile `default`, see `default_profile`)",
        "—",
        None,
    )
    .is(Kind::Profiles),
];

/// What a `[profiles.NAME]` table takes (each as at the top level).
pub const PROFILE_SETTINGS: &[&str] = &["base_url", "api_key", "api_key_command", "ca_file"];

/// The settings as the Markdown table of `docs/config.md`.
pub fn settings_markdown() -> String {
    let mut out = String::from("| key | meaning | default |\n|---|---|---|\n");
    for s in SETTINGS {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            s.key, s.meaning, s.default
        ));
    }
    out.push_str("\nA `[profiles.NAME]` table takes ");
    let keys: Vec<String> = PROFILE_SETTINGS.iter().map(|k| format!("`{k}`")).collect();
    out.push_str(&keys.join(", "));
    out.push_str(", each replacing the top level's.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_key_read_is_documented() {
        let read: BTreeSet<&str> = super::super::parse::TOP_KEYS.iter().copied().collect();
        let documented: BTreeSet<&str> = SETTINGS.iter().map(|s| s.key).collect();
        let missing: Vec<_> = read.difference(&documented).collect();
        assert!(
            missing.is_empty(),
            "the config parser reads {missing:?} but src/config/doc.rs has no row for it: \
             add one to SETTINGS, then regenerate the docs with \
             `UPDATE_DOCS=1 cargo test --test docs`"
        );
        let stale: Vec<_> = documented.difference(&read).collect();
        assert!(
            stale.is_empty(),
            "src/config/doc.rs documents {stale:?}, which the config parser does not read"
        );
        assert_eq!(
            PROFILE_SETTINGS,
            super::super::parse::CONN_KEYS,
            "a profile's keys changed: update PROFILE_SETTINGS"
        );
    }

    /// Writing a stated default changes nothing: the docs' defaults are
    /// the code's.
    #[test]
    fn stated_defaults_are_the_code_defaults() {
        let none = format!("{:?}", super::super::from_str("", None));
        for s in SETTINGS {
            let Some(toml) = s.toml else { continue };
            let c = super::super::from_str(&format!("{} = {toml}\n", s.key), None);
            assert!(c.diagnostics.is_empty(), "{}: {:?}", s.key, c.diagnostics);
            assert_eq!(
                format!("{c:?}"),
                none,
                "docs say `{}` defaults to {toml}, but writing that changes the settings",
                s.key
            );
            assert_eq!(
                s.default.trim_matches('`'),
                toml.trim_matches('"'),
                "{}",
                s.key
            );
        }
    }
}
