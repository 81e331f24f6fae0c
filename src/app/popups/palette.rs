//! The command palette (`:`): every command by name, completion ranked
//! fuzzily, Enter runs the highlighted suggestion. A palette opened for a
//! task remembers which one: it never runs on another.

use crate::app::command::{self, Complete, COMMANDS};
use crate::app::input::LineInput;
use crate::app::state::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub struct Palette {
    pub input: LineInput,
    pub selected: usize,
    /// The current task when the palette opened: (id, label).
    pub target: Option<(String, String)>,
}

/// Completions for the text typed so far (without the leading `:`), best
/// first. `people` are offered for `assign`, `teams` for `team`.
pub fn complete(input: &str, people: &[String]) -> Vec<String> {
    complete_with(input, people, &[])
}

pub fn complete_with(input: &str, people: &[String], teams: &[String]) -> Vec<String> {
    let trimmed = input.trim_start();
    match trimmed.split_once(' ') {
        None => {
            let names: Vec<&str> = COMMANDS.iter().map(|s| s.name).collect();
            crate::app::fuzzy::rank(trimmed, &names)
                .into_iter()
                .map(|i| names[i].to_string())
                .collect()
        }
        Some((cmd, arg)) => {
            let Some(spec) = command::spec(cmd) else {
                return vec![];
            };
            let values: Vec<String> = match spec.complete {
                Complete::Nothing => vec![],
                Complete::Values(v) => v.iter().map(|s| s.to_string()).collect(),
                Complete::LinkTypes if !arg.contains(' ') => {
                    command::LINK_TYPES.iter().map(|s| s.to_string()).collect()
                }
                Complete::LinkTypes => vec![],
                Complete::People => {
                    let mut v = vec!["me".to_string()];
                    v.extend(people.iter().cloned());
                    v
                }
                Complete::Teams => {
                    let mut v = teams.to_vec();
                    v.push("none".into());
                    v
                }
            };
            crate::app::fuzzy::rank(arg, &values)
                .into_iter()
                .map(|i| format!("{cmd} {}", values[i]))
                .collect()
        }
    }
}

/// Length in chars of a leading known command and its space (`title `).
fn command_word_len(text: &str) -> usize {
    match text.split_once(' ') {
        Some((cmd, _)) if command::spec(cmd).is_some() => cmd.chars().count() + 1,
        _ => 0,
    }
}

impl State {
    pub fn open_palette(&mut self, prefill: &str) -> Vec<Effect> {
        let target = self.target().ok();
        self.overlay = Overlay::Palette(Palette {
            input: LineInput::with(prefill),
            selected: 0,
            target,
        });
        vec![]
    }

    pub(super) fn palette_key(&mut self, mut p: Palette, ev: KeyEvent) -> Vec<Effect> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let people: Vec<String> = self.people_labels();
        let teams = self.directory.team_labels();
        let completions = complete_with(&p.input.text, &people, &teams);
        let highlighted = completions
            .get(p.selected.min(completions.len().saturating_sub(1)))
            .cloned();
        match ev.code {
            KeyCode::Esc => return vec![],
            KeyCode::Enter => {
                // The highlighted suggestion is what runs; a bare command
                // name that takes arguments is completed instead.
                let text = match highlighted {
                    Some(c) if !c.contains(' ') && takes_args(&c) => {
                        p.input = LineInput::with(&format!("{c} "));
                        p.selected = 0;
                        self.overlay = Overlay::Palette(p);
                        return vec![];
                    }
                    Some(c) => c,
                    None => p.input.text.clone(),
                };
                return self.run_palette(&text, p.target);
            }
            KeyCode::Tab => {
                if let Some(c) = highlighted {
                    let space = if takes_args(&c) && !c.contains(' ') {
                        " "
                    } else {
                        ""
                    };
                    p.input = LineInput::with(&format!("{c}{space}"));
                    p.selected = 0;
                }
            }
            KeyCode::Down => p.selected = (p.selected + 1).min(completions.len().saturating_sub(1)),
            KeyCode::Up => p.selected = p.selected.saturating_sub(1),
            // ctrl-u clears the argument, not the command word that a key
            // like `e` or `s` put there.
            KeyCode::Char('u') if ctrl && command_word_len(&p.input.text) > 0 => {
                let keep = command_word_len(&p.input.text);
                if p.input.cursor > keep {
                    let head: String = p.input.text.chars().take(keep).collect();
                    let tail: String = p.input.text.chars().skip(p.input.cursor).collect();
                    p.input = LineInput::with(&head);
                    p.input.insert_str(&tail);
                    p.input.cursor = keep;
                } else {
                    p.input.handle(&ev);
                }
                p.selected = 0;
            }
            _ => {
                if p.input.handle(&ev) {
                    p.selected = 0;
                }
            }
        }
        self.overlay = Overlay::Palette(p);
        vec![]
    }

    /// Run palette text; a task command runs only on the task the palette
    /// was opened for.
    fn run_palette(&mut self, text: &str, target: Option<(String, String)>) -> Vec<Effect> {
        let (word, _) = command::split(text);
        let is_task = command::spec(word).is_some_and(|s| s.task);
        if is_task {
            let now = self.target().ok();
            if let (Some((was, was_label)), Some((id, label))) = (&target, &now) {
                if was != id {
                    self.say(
                        Level::Error,
                        format!(
                            "the current task changed while the palette was open ({was_label} → {label}): nothing sent"
                        ),
                    );
                    return vec![];
                }
            }
        }
        self.command(text)
    }
}

/// The command cannot run without an argument (Enter completes it first).
fn takes_args(name: &str) -> bool {
    command::spec(name).is_some_and(|s| (s.parse)("").is_err())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_names_and_values() {
        assert_eq!(complete("pri", &[])[0], "priority");
        assert_eq!(complete("status in", &[])[0], "status in_progress");
        assert_eq!(
            complete("status waiting_on", &[]),
            vec!["status waiting_on_external"]
        );
        let people = vec!["bob@acme.test".to_string()];
        assert_eq!(complete("assign bo", &people), vec!["assign bob@acme.test"]);
        assert!(complete("", &[]).len() == COMMANDS.len());
    }
}
