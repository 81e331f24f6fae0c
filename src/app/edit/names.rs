//! People and teams as the user types them: resolved through the
//! directory, several matches open a picker.

use crate::app::state::directory::Resolved;
use crate::app::state::{Effect, Level, Overlay, State};
impl State {
    /// A person as typed (`me`, an e-mail, a name, an id): their id and
    /// label, or the candidates when several match (`Err(Ok(..))`).
    pub(crate) fn resolve_person(&self, arg: &str) -> Result<(String, String), NameError> {
        if arg == "me" {
            let me = self
                .me
                .as_ref()
                .ok_or(Err("who you are is not known yet".to_string()))?;
            return Ok((me.user_id.clone(), me.user_name.line().into_owned()));
        }
        match self.directory.resolve_person(arg) {
            Resolved::One(id, label) => Ok((id, label)),
            Resolved::Many(c) => Err(Ok(c)),
            Resolved::None if uuid::Uuid::parse_str(arg).is_ok() => Ok((arg.to_string(), arg.to_string())),
            Resolved::None => Err(Err(format!(
                "no known person {arg:?}: type a name or e-mail seen on a task, or their user id (nothing sent)"
            ))),
        }
    }

    /// Several people or teams match: the user picks one, and the command
    /// runs again with the chosen id in place of the name.
    pub(crate) fn pick(
        &mut self,
        reference: &str,
        team: bool,
        candidates: Vec<(String, String)>,
        template: String,
    ) -> Vec<Effect> {
        self.say(
            Level::Info,
            format!(
                "{reference:?} matches {} — pick one",
                crate::domain::words::plural(
                    candidates.len(),
                    if team { "team" } else { "person" },
                    if team { "teams" } else { "people" }
                )
            ),
        );
        self.overlay = Overlay::Picker(crate::app::popups::sharing::Picker::new(
            reference.to_string(),
            team,
            candidates,
            crate::app::popups::sharing::PickThen::Command {
                template,
                target: self.target().ok(),
            },
        ));
        vec![]
    }
}

/// Several candidates `(id, label)`, or why nobody matches.
pub(crate) type NameError = Result<Vec<(String, String)>, String>;

/// `filter` words with the ambiguous `key=reference` made `key={}`.
/// Words are read as the filter reads them: a quoted name (`assigned="Sam
/// Taylor"`) is one word, and stays quoted.
pub(crate) fn filter_template(words: &str, key: &str, reference: &str) -> String {
    let read = crate::domain::filters::filter_words(words)
        .unwrap_or_else(|_| words.split_whitespace().map(str::to_string).collect());
    let replaced: Vec<String> = read
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if v == reference && filter_key(k) == key => {
                format!("{k}={{}}")
            }
            Some((k, v)) if v.contains(char::is_whitespace) => format!("{k}=\"{v}\""),
            _ => w.to_string(),
        })
        .collect();
    format!("filter {}", replaced.join(" "))
}

/// A filter word's key as `resolve_names` names it (aliases included).
fn filter_key(k: &str) -> &str {
    match k {
        "assigned" | "assigned_to" | "assignee" => "assigned",
        "team" | "team_id" => "team",
        other => other,
    }
}
