//! The simulator's switches (issue 43): each breaks one rule of the
//! product on purpose, on the thread that throws it, so that the
//! simulator's own tests show that a run with the rule broken is caught —
//! the simulator can never silently check nothing (docs/testing.md). One
//! switch on at a time. Only with the `sim` feature: without it, [`on`]
//! is a constant `false` and nothing can throw a switch (the shipped
//! library and binary have none).

/// A rule a switch breaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rule {
    /// `text::clean` returns its input (read only when a text holds
    /// something to clean).
    Clean,
    /// The "as the user" guard: the store switch
    /// (`State::leave_store_of`) takes every queued edit of the user whose
    /// store closes as made by the key's new user, so that an edit made as
    /// one user goes out as another — every later guard (`may_send`, the
    /// outbox's confirmed identity) sees it as the new user's.
    AsAnyone,
    /// An answer about any task (one read ahead, one the outbox checked)
    /// lands in the detail whatever task it shows (`State::replace_task`).
    OtherTask,
    /// An undo's task that failed, was skipped or whose outcome is unknown
    /// is recorded as undone, without a word of why (`bulk/finish.rs`).
    UndoClaimed,
    /// The title is written from the user's and the organisation's names
    /// as the service wrote them: `ui::osc::title_of` reads them `raw`
    /// and `ui::osc::payload` keeps every character. Both guards at once:
    /// either alone still holds the title clean.
    RawTitle,
    /// `ui::osc::copyable_id` takes any text as an id: what the service
    /// wrote in a display id reaches the clipboard.
    CopyAnything,
    /// The HTTP client tries a write again as it does a read
    /// (`api::client::again`): a write whose answer was lost, applied
    /// already, is applied again.
    RetryWrites,
    /// The inbox's walk loses what names the user: a comment that
    /// mentions them becomes no item (`inbox::derive::comment_items`).
    LoseMentions,
    /// Notifications forget what they told (`inbox::notify::Watch`): every
    /// unread item is news again at each update.
    NotifyAgain,
    /// A task whose comments' read failed keeps its old base whole
    /// (`inbox::cycle`) though the walk said what changed on it: the next
    /// walk, the task changed again, says an assignment a second time.
    OldBaseOnFailedRead,
    /// A first walk that stopped early (a page failed) is taken as whole
    /// (`inbox::cycle`): the tasks on the pages it never read are news to
    /// the next walk ("assigned to you" of a task the user had all along).
    PartialFirstWalk,
}

#[cfg(feature = "sim")]
mod switch {
    use super::Rule;
    use std::cell::Cell;

    thread_local! {
        static ON: Cell<Option<Rule>> = const { Cell::new(None) };
    }

    /// Whether `rule` is broken on this thread.
    pub fn on(rule: Rule) -> bool {
        ON.with(|c| c.get() == Some(rule))
    }

    /// Break `rule` on this thread (`None`: mend every one).
    pub fn set(rule: Option<Rule>) {
        ON.with(|c| c.set(rule));
    }
}

#[cfg(feature = "sim")]
pub use switch::{on, set};

/// Without the `sim` feature no rule can be broken.
#[cfg(not(feature = "sim"))]
pub const fn on(_: Rule) -> bool {
    false
}

#[cfg(all(test, feature = "sim"))]
mod tests {
    use super::*;

    #[test]
    fn a_switch_breaks_its_own_rule_on_its_own_thread_until_mended() {
        assert!(!on(Rule::Clean));
        set(Some(Rule::Clean));
        assert!(on(Rule::Clean));
        assert!(!on(Rule::AsAnyone), "one rule at a time");
        std::thread::spawn(|| assert!(!on(Rule::Clean), "another thread"))
            .join()
            .unwrap();
        set(None);
        assert!(!on(Rule::Clean));
    }
}
