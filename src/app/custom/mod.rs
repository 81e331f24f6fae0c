//! Custom commands: `[[commands]]` in the config file, each a shell command
//! run for the command's targets — the current task, or the marked tasks
//! (see `State::command_targets`) — by its key, by `:run NAME` or from the
//! palette. The task's values reach it as `TASKDECK_*` environment
//! variables (`vars`); only identifiers may also be placeholders (`{id}`,
//! `template`). The output comes back in a text overlay; a failure shows
//! its exit status and stderr.

pub mod run;
pub use crate::domain::custom::{template, vars};

mod handle;

use super::keymap::Key;
use crate::config::CommandEntry;
use std::time::Duration;
use template::Template;

#[derive(Clone, Debug, PartialEq)]
pub struct CustomCommand {
    pub name: String,
    pub key: Option<Key>,
    pub description: String,
    /// As written in the config (shown in help).
    pub run: String,
    pub template: Template,
    pub interactive: bool,
    /// Once for all targets (`{ids}`), not once per task.
    pub once: bool,
    pub timeout: Duration,
}

#[derive(Clone, Debug, Default)]
pub struct Custom {
    pub commands: Vec<CustomCommand>,
    /// The last output shown (or kept while a popup was open): `:output`.
    pub last_output: Option<(String, Vec<String>)>,
}

impl Custom {
    /// The entries the config parser accepted (their templates are valid).
    pub fn from_entries(entries: &[CommandEntry]) -> Custom {
        let commands = entries
            .iter()
            .filter_map(|e| {
                // A template the parser refused (a free-text placeholder
                // of an old config included) was already left out with
                // its message; this is the same check.
                let (template, _) = Template::parse(&e.run, e.once).ok()?;
                Some(CustomCommand {
                    name: e.name.clone(),
                    key: e.key.as_deref().and_then(|k| Key::parse(k).ok()),
                    description: e.description.clone(),
                    run: e.run.clone(),
                    template,
                    interactive: e.interactive,
                    once: e.once,
                    timeout: Duration::from_secs(e.timeout_secs),
                })
            })
            .collect();
        Custom {
            commands,
            last_output: None,
        }
    }

    pub fn find(&self, name: &str) -> Option<&CustomCommand> {
        let name = name.trim();
        self.commands.iter().find(|c| c.name == name).or_else(|| {
            self.commands
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
        })
    }

    pub fn by_key(&self, key: &Key) -> Option<String> {
        self.commands
            .iter()
            .find(|c| c.key.as_ref() == Some(key))
            .map(|c| c.name.clone())
    }

    /// (name, description) for the palette.
    pub fn palette(&self) -> Vec<(String, String)> {
        self.commands
            .iter()
            .map(|c| (c.name.clone(), c.description.clone()))
            .collect()
    }
}
