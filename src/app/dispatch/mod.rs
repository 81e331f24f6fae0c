//! From a key or an answer to the handler that owns it: the reducer (keys
//! become commands and navigation; time passes), the one vocabulary of
//! commands and its exhaustive handler, the answers of the service, where
//! the panes are, and what quitting leaves to say.

pub mod commands;
pub mod layout;
pub mod quit;
pub mod reducer;
pub mod results;
