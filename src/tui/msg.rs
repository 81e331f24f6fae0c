//! What the loop reacts to, as one type: the loop (`mod.rs`) receives it,
//! the worker, the store link, the custom-command runner and the inbox
//! send it. A leaf of the loop: senders import it, not the loop.

use crossterm::event::Event;

/// Everything the loop reacts to.
pub enum Msg {
    Term(Event),
    Api(Box<crate::app::state::ApiResult>),
    Store(crate::store::worker::StoreAnswer),
    Signal(i32),
    InputClosed(String),
    /// A custom command finished (see `custom/`).
    CommandDone(Box<crate::app::custom::run::Done>),
    /// A store that was busy at start opened in the background (or could
    /// not be opened after all): for this user.
    StoreRetried(String, Box<Result<Opened, String>>),
    /// The inbox as it now stands (see `crate::inbox::link`).
    Inbox(Box<crate::inbox::InboxUpdate>),
    /// Another profile's inbox as it now stands (`tui/profiles.rs`).
    ProfileInbox(String, Box<crate::inbox::InboxUpdate>),
    /// `notify_command` ended: `Some(why)` when it failed.
    NotifyDone(Option<String>),
    /// Copying off the loop came to this (`tui/clipboard.rs`).
    Copied(Copied),
}

/// What copying off the loop came to (`tui/clipboard.rs`).
pub enum Copied {
    /// Done or failed: what to say.
    Said(crate::app::state::Level, String),
    /// No command took it: offer it to the terminal (OSC 52) from the
    /// loop; `tmux`: tmux's paste buffer took it.
    Terminal { text: String, tmux: bool },
}

/// A store as `Db::open_for` gives it: the database, what to say, and
/// what the first frame needs.
pub type Opened = (crate::store::Db, Option<String>, Option<crate::store::Boot>);
