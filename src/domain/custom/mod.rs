//! Custom commands' words: the command-line template with its safe
//! placeholders, and the environment variables that carry the rest.

pub mod template;
pub mod vars;
