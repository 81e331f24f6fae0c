//! Custom commands: `[[commands]]` in the config file, each a shell command
//! with placeholders (`{id}`, `{title}`…) run for the command's targets.

pub mod run;
pub mod template;
