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
    /// The inbox as it now stands (see `crate::inbox::link`).
    Inbox(Box<crate::inbox::InboxUpdate>),
    /// `notify_command` ended: `Some(why)` when it failed.
    NotifyDone(Option<String>),
}
