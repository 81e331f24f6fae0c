//! What the simulator may throw at the client (`--faults LIST`), and the
//! switches that break a rule on purpose so that the simulator's own tests
//! show it catches each (`--break NAME`).

/// The faults a run may inject; all by default.
#[derive(Clone, Debug, PartialEq)]
pub struct Faults {
    /// Answers of 500/502/503.
    pub e5xx: bool,
    /// 429 with a `Retry-After`.
    pub e429: bool,
    /// A body that is not what was asked (a decode error with its excerpt).
    pub garbage: bool,
    /// The connection dropped after the service applied the write.
    pub dropped: bool,
    /// Another user edits fields, comments, archives and deletes tasks.
    pub others: bool,
    /// The requester thread turned off on the service.
    pub thread_off: bool,
    /// The service cannot be reached for a while.
    pub outage: bool,
    /// The process dies (and the user quits and restarts).
    pub crash: bool,
    /// The terminal changes size, down to 1×1.
    pub resize: bool,
    /// The service's text carries control characters, escape sequences,
    /// bidi overrides.
    pub hostile: bool,
    /// The service's clock is set back (its `updated_at` and comments'
    /// times go back by seconds to a day).
    pub clock_back: bool,
    /// The key is reissued to another user between two runs of the
    /// client (it acts as Eve after a start, then as the user again).
    pub reissue: bool,
    /// The model disk: the store's file full, or locked by another
    /// program (`disk.rs`).
    pub disk: bool,
    /// The terminal goes away (a hang-up) and the client starts again.
    pub hangup: bool,
    /// The key is reissued to another user while the client runs.
    pub key_live: bool,
}

/// The names `--faults` takes, in the order of [`Faults`].
pub const NAMES: &[&str] = &[
    "5xx",
    "429",
    "garbage",
    "dropped",
    "others",
    "thread-off",
    "outage",
    "crash",
    "resize",
    "hostile",
    "clock-back",
    "reissue",
    "disk",
    "hangup",
    "key-live",
];

impl Faults {
    pub fn all() -> Faults {
        Faults::parse("all").expect("all")
    }

    pub fn none() -> Faults {
        Faults::parse("none").expect("none")
    }

    /// `all`, `none`, or names separated by commas (`-name` leaves one out
    /// of all).
    pub fn parse(list: &str) -> Result<Faults, String> {
        let words: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .collect();
        let start_all = words
            .first()
            .is_none_or(|w| *w == "all" || w.starts_with('-'));
        let mut on: Vec<bool> = vec![start_all; NAMES.len()];
        for w in words {
            match w {
                "all" => on.iter_mut().for_each(|b| *b = true),
                "none" => on.iter_mut().for_each(|b| *b = false),
                _ => {
                    let (name, value) = match w.strip_prefix('-') {
                        Some(n) => (n, false),
                        None => (w, true),
                    };
                    let i = NAMES.iter().position(|n| *n == name).ok_or_else(|| {
                        format!("unknown fault {name:?}; faults: {}", NAMES.join(", "))
                    })?;
                    on[i] = value;
                }
            }
        }
        Ok(Faults {
            e5xx: on[0],
            e429: on[1],
            garbage: on[2],
            dropped: on[3],
            others: on[4],
            thread_off: on[5],
            outage: on[6],
            crash: on[7],
            resize: on[8],
            hostile: on[9],
            clock_back: on[10],
            reissue: on[11],
            disk: on[12],
            hangup: on[13],
            key_live: on[14],
        })
    }
}

/// A rule broken on purpose, to show the simulator catches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Break {
    /// `text::clean` returns its input (the switch `text::broken`).
    Clean,
    /// The disk forgets the outbox's rows at a crash: queued edits that
    /// were confirmed written vanish.
    ForgetOutbox,
    /// What the client creates (a comment, a reply, a subtask) reaches
    /// the service twice, as from a client that sent it twice.
    DoubleSend,
    /// The store switch's "as the user" guard broken: when the key acts
    /// as another user, every edit queued as the last one is taken as the
    /// new user's (`State::leave_store_of`) and goes out as them.
    AsAnyone,
    /// An answer about any task lands in the detail, whatever task it
    /// shows (`State::replace_task`'s check of the task broken).
    OtherTask,
    /// An undo's task that failed, was skipped or whose outcome is
    /// unknown is recorded as undone, and nothing says why not.
    UndoClaimed,
    /// The title's guards off (`broken::Rule::RawTitle`: the names read
    /// raw, the escape sequences' sanitiser keeping every character): the
    /// title carries what the user's name holds.
    RawTitle,
    /// Any text is taken as an id to copy (`ui::osc::copyable_id`): a
    /// display id the service wrote reaches the clipboard as it is.
    CopyAnything,
    /// The HTTP client tries a write again as it does a read
    /// (`api::client::again`): a write applied whose answer was lost is
    /// applied again.
    RetryWrites,
    /// The store refuses a write (the disk full, locked) and says nothing
    /// of it: a queued edit neither kept nor said not kept.
    SilentStore,
    /// The inbox's walk loses the comments that mention the user
    /// (`broken::Rule::LoseMentions`): they never reach the inbox.
    LoseMentions,
    /// The notifications forget what they told
    /// (`broken::Rule::NotifyAgain`): an item is notified again.
    NotifyAgain,
    /// The inbox's walk keeps a task's old base whole when its comments'
    /// read failed, though it said what changed on the task
    /// (`broken::Rule::OldBaseOnFailedRead`): an assignment is said again
    /// by the next walk once the task changed in between. Only a failed
    /// read of the walk's own (`--faults` 5xx, 429, garbage, dropped;
    /// not a task deleted as the walk runs, `others`: it is gone) shows
    /// it; random runs seldom do (`--faults others,garbage`: seed 36
    /// of 1–60, at step 1127), steps written down do
    /// (`tests/simulate.rs`, `reassigned_then_changed`).
    OldBase,
    /// A first walk of the inbox that stopped early is taken as whole
    /// (`broken::Rule::PartialFirstWalk`): the tasks it never read say
    /// "assigned to you" at the next walk though they were the user's all
    /// along. Only a page of the first walk failing (`--faults` 5xx, 429,
    /// garbage, dropped) shows it.
    PartialFirst,
}

/// Each switch by the name `--break` takes, the one table the parser
/// and the help read.
pub const BREAKS: &[(&str, Break)] = &[
    ("clean", Break::Clean),
    ("forget-outbox", Break::ForgetOutbox),
    ("double-send", Break::DoubleSend),
    ("as-anyone", Break::AsAnyone),
    ("other-task", Break::OtherTask),
    ("undo-claimed", Break::UndoClaimed),
    ("raw-title", Break::RawTitle),
    ("copy-anything", Break::CopyAnything),
    ("retry-writes", Break::RetryWrites),
    ("silent-store", Break::SilentStore),
    ("lose-mentions", Break::LoseMentions),
    ("notify-again", Break::NotifyAgain),
    ("old-base", Break::OldBase),
    ("partial-first", Break::PartialFirst),
];

impl Break {
    pub fn parse(s: &str) -> Result<Break, String> {
        BREAKS
            .iter()
            .find(|(name, _)| *name == s)
            .map(|(_, b)| *b)
            .ok_or_else(|| format!("unknown break {s:?}; breaks: {}", Break::names(", ")))
    }

    /// The names `--break` takes, joined by `sep`.
    pub fn names(sep: &str) -> String {
        BREAKS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(sep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_written() {
        assert_eq!(Faults::parse("").unwrap(), Faults::all());
        assert!(!Faults::parse("none").unwrap().crash);
        let f = Faults::parse("crash,outage").unwrap();
        assert!(f.crash && f.outage && !f.e5xx);
        let f = Faults::parse("-crash").unwrap();
        assert!(!f.crash && f.outage);
        assert!(Faults::parse("nope").is_err());
    }

    #[test]
    fn every_break_is_named_once_and_reads_back() {
        let names: Vec<&str> = BREAKS.iter().map(|(n, _)| *n).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "a name twice: {names:?}");
        for (name, b) in BREAKS {
            assert_eq!(Break::parse(name), Ok(*b));
        }
        let e = Break::parse("nope").unwrap_err();
        assert!(e.contains("old-base") && e.contains("clean"), "{e}");
    }
}
