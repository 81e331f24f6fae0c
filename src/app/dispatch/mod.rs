//! From a key or an answer to the handler that owns it: the reducer (keys
//! become commands and navigation; time passes), the exhaustive handler of
//! the commands (`state/command.rs`), the answers of the service, where
//! the panes are, and what quitting leaves to say.

pub mod commands;
pub mod layout;
pub mod quit;
pub mod reducer;
pub mod results;
