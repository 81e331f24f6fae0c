//! The command palette (`:`): every command by name, completion ranked
//! fuzzily, Enter runs the highlighted suggestion. A palette opened for a
//! task remembers which one: it never runs on another.

use crate::app::keymap::Action;
use crate::app::state::command::{self, Complete, COMMANDS};
use crate::app::state::input::LineInput;
use crate::domain::filter_complete;
use crate::domain::names::Label;
use crossterm::event::KeyEvent;

pub struct Palette {
    pub input: LineInput,
    pub selected: usize,
    /// The user moved through the suggestions since the text last changed:
    /// Enter runs the one chosen.
    pub chose: bool,
    /// The current task when the palette opened: (id, label).
    pub target: Option<(String, String)>,
}

/// What completion offers besides the commands: people for `assign`,
/// teams for `team`, views for `view`, custom commands for `run` (they
/// are offered by name at the top level too, as `run NAME`).
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// People and teams as suggestions list them, folded already
    /// (`names::Label`, made when the directory learnt them).
    pub people: Vec<Label>,
    pub teams: Vec<Label>,
    pub views: Vec<String>,
    /// (name, description) of each custom command.
    pub commands: Vec<(String, String)>,
    /// (name, description) of each macro.
    pub macros: Vec<(String, String)>,
    /// The tags seen on the loaded tasks (`:filter tags=`).
    pub tags: Vec<String>,
}

impl Sources {
    /// What a completion does, when it is a custom command's.
    pub fn describe(&self, completion: &str) -> Option<&str> {
        let (list, name) = match completion.strip_prefix("macro ") {
            Some(name) => (&self.macros, name),
            None => (&self.commands, completion.strip_prefix("run ")?),
        };
        list.iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| d.as_str())
    }
}

/// Completions for the text typed so far (without the leading `:`), best
/// first.
pub fn complete(input: &str, src: &Sources) -> Vec<String> {
    let (people, teams) = (&src.people, &src.teams);
    let trimmed = input.trim_start();
    match trimmed.split_once(' ') {
        None => {
            let mut names: Vec<String> = COMMANDS.iter().map(|s| s.name.to_string()).collect();
            names.extend(src.commands.iter().map(|(n, _)| format!("run {n}")));
            names.extend(src.macros.iter().map(|(n, _)| format!("macro {n}")));
            // A custom command is found by its name or its description.
            let texts: Vec<String> = names
                .iter()
                .map(|n| match src.describe(n) {
                    Some(d) => format!("{n} {d}"),
                    None => n.clone(),
                })
                .collect();
            crate::app::fuzzy::rank(trimmed, &texts)
                .into_iter()
                .map(|i| names[i].clone())
                .collect()
        }
        Some((cmd, arg)) => {
            let Some(spec) = command::spec(cmd) else {
                return vec![];
            };
            if spec.complete == Complete::Filter {
                // Only the word being typed is completed: `arg` is kept as
                // typed before it.
                let known = filter_complete::Known {
                    people,
                    teams,
                    tags: &src.tags,
                };
                return filter_complete::complete(arg, &known)
                    .into_iter()
                    .map(|c| format!("{cmd} {c}"))
                    .collect();
            }
            let values: Vec<String> = match spec.complete {
                Complete::Nothing => vec![],
                Complete::Values(v) => v.iter().map(|s| s.to_string()).collect(),
                Complete::LinkTypes if !arg.contains(' ') => {
                    command::LINK_TYPES.iter().map(|s| s.to_string()).collect()
                }
                Complete::LinkTypes => vec![],
                Complete::Profiles => crate::config::profile_names(),
                Complete::People | Complete::Teams | Complete::Share => {
                    return names_completions(cmd, spec.complete, arg, src);
                }
                Complete::Views => {
                    let mut v = src.views.clone();
                    v.push("save ".into());
                    v
                }
                Complete::CustomCommands => src.commands.iter().map(|(n, _)| n.clone()).collect(),
                Complete::Macros => src.macros.iter().map(|(n, _)| n.clone()).collect(),
                Complete::Filter => vec![],
            };
            crate::app::fuzzy::rank(arg, &values)
                .into_iter()
                .map(|i| format!("{cmd} {}", values[i]))
                .collect()
        }
    }
}

/// People (`me` first) or teams (`none` last) for a command that names
/// them, through the one name matcher (`domain::names`: case and accents
/// folded, the e-mail, any beginning of words) — the rule that resolves
/// them, so what is suggested is what runs. `:share` completes `add ` or
/// `team ` first, then a person or a team.
fn names_completions(cmd: &str, kind: Complete, arg: &str, src: &Sources) -> Vec<String> {
    let (head, team, typed) = match kind {
        Complete::Share => match arg.trim_start().split_once(' ') {
            Some((k @ ("add" | "person" | "+"), rest)) => (format!("{cmd} {k} "), false, rest),
            Some(("team", rest)) => (format!("{cmd} team "), true, rest),
            Some(_) => return vec![],
            None if arg.trim().is_empty() => return vec![],
            None => {
                let words = ["add ", "team "];
                return crate::app::fuzzy::rank(arg, &words)
                    .into_iter()
                    .map(|i| format!("{cmd} {}", words[i]))
                    .collect();
            }
        },
        Complete::Teams => (format!("{cmd} "), true, arg),
        _ => (format!("{cmd} "), false, arg),
    };
    let (me, none) = (Label::new("me"), Label::new("none"));
    let mut labels: Vec<&Label> = Vec::new();
    if team {
        labels.extend(src.teams.iter());
        if kind == Complete::Teams {
            labels.push(&none);
        }
    } else {
        labels.push(&me);
        labels.extend(src.people.iter());
    }
    crate::domain::names::suggest(typed, &labels)
        .into_iter()
        .map(|i| format!("{head}{}", labels[i].shown))
        .collect()
}

/// Length in chars of a leading known command and its space (`title `).
fn command_word_len(text: &str) -> usize {
    match text.split_once(' ') {
        Some((cmd, _)) if command::spec(cmd).is_some() => cmd.chars().count() + 1,
        _ => 0,
    }
}

/// What a key did in the palette.
#[derive(Debug, PartialEq)]
pub enum PaletteOutcome {
    Stay,
    Close,
    /// Run this text (the highlighted suggestion, or what was typed) on
    /// the palette's `target`.
    Run(String),
    /// Stay open and say this: what is missing before anything can run.
    Ask(String),
}

impl Palette {
    pub fn new(prefill: &str, target: Option<(String, String)>) -> Palette {
        Palette {
            input: LineInput::with(prefill),
            selected: 0,
            chose: false,
            target,
        }
    }

    /// A key, and the action the `palette` keymap context binds it to;
    /// completion is over `sources` as well as the commands.
    pub fn on_key(
        &mut self,
        ev: &KeyEvent,
        action: Option<Action>,
        sources: &Sources,
    ) -> PaletteOutcome {
        let completions = complete(&self.input.text, sources);
        let highlighted = completions
            .get(self.selected.min(completions.len().saturating_sub(1)))
            .cloned();
        match action {
            Some(Action::Close) => return PaletteOutcome::Close,
            Some(Action::Run) => {
                // `:filter`: its own rule (a key completes, a value runs
                // when chosen or when it completes the word typed).
                if let Some(out) = self.enter_filter(&completions, highlighted.as_deref()) {
                    return out;
                }
                // The highlighted suggestion is what runs; a bare command
                // name that needs an argument is completed instead.
                // A name matching several people or teams runs as typed, so
                // that the picker asks which (the first suggestion is not an
                // answer) — unless the user chose one.
                let typed = self.input.text.trim().to_string();
                if !self.chose && completions.len() > 1 && names_argument(&typed) {
                    return PaletteOutcome::Run(typed);
                }
                if !self.chose {
                    if let Some((cmd, arg)) = self.input.text.trim_start().split_once(' ') {
                        let spec = command::spec(cmd);
                        // An argument left empty is asked for: the first
                        // suggestion (`snooze 1h`, `status not_started`)
                        // is not an answer the user gave.
                        if arg.trim().is_empty() && takes_args(cmd) {
                            let why = spec.and_then(|s| (s.parse)("").err()).unwrap_or_default();
                            return PaletteOutcome::Ask(format!(":{cmd}: {why} (↓/Tab picks one)"));
                        }
                        // A value typed runs as typed unless the highlighted
                        // suggestion only completes it (`tom` → `tomorrow`):
                        // `snooze tomorrow tomorrow` is not `snooze tomorrow`.
                        let free = spec.is_some_and(|s| !names_kind(s.complete));
                        if free && !arg.trim().is_empty() {
                            let completes = highlighted.as_deref().is_some_and(|h| {
                                h.to_lowercase().starts_with(&typed.to_lowercase())
                            });
                            if !completes {
                                return PaletteOutcome::Run(typed);
                            }
                        }
                    }
                }
                return match highlighted {
                    // A word after which more is typed (`share add `):
                    // completed, not run.
                    Some(c) if c.ends_with(' ') && c.trim() != self.input.text.trim() => {
                        self.input = LineInput::with(&c);
                        self.selected = 0;
                        self.chose = false;
                        PaletteOutcome::Stay
                    }
                    Some(c) if !c.contains(' ') && takes_args(&c) => {
                        self.input = LineInput::with(&format!("{c} "));
                        self.selected = 0;
                        self.chose = false;
                        PaletteOutcome::Stay
                    }
                    Some(c) => PaletteOutcome::Run(c),
                    None => PaletteOutcome::Run(self.input.text.clone()),
                };
            }
            Some(Action::Complete) => {
                if let Some(c) = highlighted {
                    // A completed word ends with a space where more may
                    // follow: a command's arguments, a link type's id.
                    let space = if (takes_args(&c) && !c.contains(' ')) || more_follows(&c) {
                        " "
                    } else {
                        ""
                    };
                    self.input = LineInput::with(&format!("{c}{space}"));
                    self.selected = 0;
                    self.chose = false;
                }
            }
            Some(Action::Down) => {
                self.selected = (self.selected + 1).min(completions.len().saturating_sub(1));
                self.chose = true;
            }
            Some(Action::Up) => {
                self.selected = self.selected.saturating_sub(1);
                self.chose = true;
            }
            // ctrl-u clears the argument, not the command word that a key
            // like `e` or `s` put there; again, the whole line.
            Some(Action::ClearArgument) if command_word_len(&self.input.text) > 0 => {
                let keep = command_word_len(&self.input.text);
                if self.input.cursor > keep {
                    let head: String = self.input.text.chars().take(keep).collect();
                    let tail: String = self.input.text.chars().skip(self.input.cursor).collect();
                    self.input = LineInput::with(&head);
                    self.input.insert_str(&tail);
                    self.input.cursor = keep;
                } else {
                    self.input = LineInput::default();
                }
                self.selected = 0;
            }
            Some(Action::ClearArgument) => {
                self.input = LineInput::default();
                self.selected = 0;
            }
            _ => {
                if self.input.handle(ev) {
                    self.selected = 0;
                    self.chose = false;
                }
            }
        }
        PaletteOutcome::Stay
    }
}

impl Palette {
    /// Enter on `:filter …`: the suggestion runs when the user chose it,
    /// or when it is the one suggestion completing the word typed
    /// (`status=w` → `status=waiting_on_external`); else what was typed
    /// runs (the filter words read it the same way, or say why not). A
    /// key (`status=`) is never run: it is completed, for its value.
    /// `None`: not a filter, or nothing typed (asked for as for any
    /// command).
    fn enter_filter(
        &mut self,
        completions: &[String],
        highlighted: Option<&str>,
    ) -> Option<PaletteOutcome> {
        let text = self.input.text.trim_start().to_string();
        let (cmd, arg) = text.split_once(' ')?;
        if command::spec(cmd)?.complete != Complete::Filter {
            return None;
        }
        let fragment = filter_complete::typing(arg)
            .fragment
            .trim_start_matches('"');
        let completing: Vec<&String> = completions
            .iter()
            .filter(|c| c.to_lowercase().starts_with(&text.to_lowercase()))
            .collect();
        let pick = match highlighted {
            Some(h) if self.chose => Some(h),
            Some(h) if !fragment.is_empty() && completing.len() == 1 && completing[0] == h => {
                Some(h)
            }
            _ => None,
        };
        match pick {
            Some(h) if h.ends_with('=') => {
                self.input = LineInput::with(h);
                self.selected = 0;
                self.chose = false;
                Some(PaletteOutcome::Stay)
            }
            Some(h) => Some(PaletteOutcome::Run(h.to_string())),
            None if arg.trim().is_empty() => None,
            None => Some(PaletteOutcome::Run(text.trim_end().to_string())),
        }
    }
}

/// `assign dana`, `team ops`, `share add …`: an argument that names people
/// or teams, typed in full (not a bare command word).
fn names_argument(typed: &str) -> bool {
    match typed.split_once(' ') {
        Some((cmd, arg)) if !arg.trim().is_empty() => {
            command::spec(cmd).is_some_and(|s| names_kind(s.complete))
        }
        _ => false,
    }
}

/// A command whose argument names people or teams.
fn names_kind(c: Complete) -> bool {
    matches!(c, Complete::People | Complete::Teams | Complete::Share)
}

/// A completion after which another word is expected (`link task `).
fn more_follows(completion: &str) -> bool {
    match completion.split_once(' ') {
        Some((cmd, arg)) => {
            command::spec(cmd).is_some_and(|s| matches!(s.complete, Complete::LinkTypes))
                && !arg.contains(' ')
        }
        None => false,
    }
}

fn takes_args(name: &str) -> bool {
    command::spec(name).is_some_and(|s| (s.parse)("").is_err())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_names_and_values() {
        let none = Sources::default();
        assert_eq!(complete("pri", &none)[0], "priority");
        assert_eq!(complete("status in", &none)[0], "status in_progress");
        assert_eq!(
            complete("status waiting_on", &none),
            vec!["status waiting_on_external"]
        );
        let people = Sources {
            people: vec![Label::new("bob@acme.test")],
            ..Default::default()
        };
        assert_eq!(complete("assign bo", &people), vec!["assign bob@acme.test"]);
        assert!(complete("", &none).len() == COMMANDS.len());
        let teams = Sources {
            teams: vec![Label::new("Litigation (t-1…)")],
            ..Default::default()
        };
        assert_eq!(complete("team lit", &teams), vec!["team Litigation (t-1…)"]);
    }

    #[test]
    fn completes_views_and_custom_commands() {
        let src = Sources {
            views: vec!["All".into(), "Mine, open".into()],
            commands: vec![("log-id".into(), "Append the id to a file".into())],
            ..Default::default()
        };
        assert_eq!(complete("view mine", &src)[0], "view Mine, open");
        assert!(complete("view ", &src).contains(&"view save ".to_string()));
        assert_eq!(complete("run lo", &src), vec!["run log-id"]);
        // At the top level, by name or by what it does.
        assert_eq!(complete("log-id", &src)[0], "run log-id");
        assert_eq!(complete("append", &src)[0], "run log-id");
        assert_eq!(complete("", &src).len(), COMMANDS.len() + 1);
        assert_eq!(src.describe("run log-id"), Some("Append the id to a file"));
    }

    fn key(code: crossterm::event::KeyCode) -> KeyEvent {
        KeyEvent::new(code, crossterm::event::KeyModifiers::NONE)
    }

    #[test]
    fn enter_on_a_name_matching_several_runs_it_as_typed_so_the_picker_asks() {
        use crossterm::event::KeyCode;
        let src = Sources {
            people: vec![
                Label::new("Dana Alpha <dana.a@acme.test>"),
                Label::new("Dana Beta <dana.b@acme.test>"),
            ],
            ..Default::default()
        };
        let mut p = Palette::new("assign dana", None);
        let out = p.on_key(&key(KeyCode::Enter), Some(Action::Run), &src);
        assert_eq!(
            out,
            PaletteOutcome::Run("assign dana".into()),
            "not the first Dana"
        );
        // Chosen with the arrows: that one runs.
        let mut p = Palette::new("assign dana", None);
        p.on_key(&key(KeyCode::Down), Some(Action::Down), &src);
        let out = p.on_key(&key(KeyCode::Enter), Some(Action::Run), &src);
        assert_eq!(
            out,
            PaletteOutcome::Run("assign Dana Beta <dana.b@acme.test>".into())
        );
        // One match: it runs.
        let mut p = Palette::new("assign dana.b", None);
        let out = p.on_key(&key(KeyCode::Enter), Some(Action::Run), &src);
        assert_eq!(
            out,
            PaletteOutcome::Run("assign Dana Beta <dana.b@acme.test>".into())
        );
    }

    #[test]
    fn a_partial_filter_completes_and_a_bare_filter_never_clears() {
        use crossterm::event::KeyCode;
        let none = Sources::default();
        let mut p = Palette::new("fil", None);
        let out = p.on_key(&key(KeyCode::Enter), Some(Action::Run), &none);
        assert_eq!(out, PaletteOutcome::Stay);
        assert_eq!(p.input.text, "filter ", "completed, waiting for conditions");
        let e = command::Command::parse("filter").unwrap_err();
        assert!(e.contains("filter clear"), "{e}");
        assert!(command::Command::parse("filter clear").is_ok());
        // Tab: a link type is followed by a space, for its id.
        let mut p = Palette::new("link ta", None);
        p.on_key(&key(KeyCode::Tab), Some(Action::Complete), &none);
        assert_eq!(p.input.text, "link task ");
    }
}
