//! What the state does for `custom` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::super::state::{Effect, Level, Overlay, State};
use super::*;
use crate::domain::custom::vars;
use vars::Vars;

impl State {
    /// `:run NAME` (or its key): the command for its targets, off the UI
    /// loop (or with the terminal, for an interactive one).
    pub fn run_custom(&mut self, name: &str) -> Result<Vec<Effect>, String> {
        let c = self.custom.find(name).cloned().ok_or_else(|| {
            let names: Vec<String> = self
                .custom
                .commands
                .iter()
                .map(|c| c.name.clone())
                .collect();
            if names.is_empty() {
                format!("no custom command {name:?}: add [[commands]] to the config file")
            } else {
                format!(
                    "no custom command {name:?} (commands: {})",
                    names.join(", ")
                )
            }
        })?;
        let targets = self.command_targets()?;
        let mut vars = Vec::new();
        let mut labels = Vec::new();
        for (id, label) in &targets {
            // Marked tasks no longer in the list still run (their mark
            // keeps a copy).
            let t = self
                .best_copy(id)
                .ok_or_else(|| format!("{label} is not loaded yet"))?;
            labels.push(t.label());
            vars.push(Vars::of(&t));
        }
        // Every run is checked before any starts: a value that cannot go
        // into the command line stops the whole command, not half of it.
        let runs = if c.once {
            let script = c
                .template
                .render(&vars)
                .map_err(|e| format!("{} not run: {e}", c.name))?;
            vec![run::Run {
                label: labels.join(" "),
                script,
                env: vars::env(&vars, true),
            }]
        } else {
            vars.iter()
                .zip(&labels)
                .map(|(v, l)| {
                    let one = std::slice::from_ref(v);
                    let script = c
                        .template
                        .render(one)
                        .map_err(|e| format!("{} not run on {l}: {e}", c.name))?;
                    Ok(run::Run {
                        label: l.clone(),
                        script,
                        env: vars::env(one, false),
                    })
                })
                .collect::<Result<Vec<_>, String>>()?
        };
        if !c.interactive {
            self.say(
                Level::Info,
                format!("running {} on {}…", c.name, labels.join(" ")),
            );
        }
        Ok(vec![Effect::RunCommand(Box::new(run::Job {
            name: c.name,
            description: c.description,
            runs,
            interactive: c.interactive,
            timeout: c.timeout,
        }))])
    }

    /// A custom command finished: its output in an overlay (when there is
    /// any, or it failed), and a line in the status bar either way.
    pub fn custom_done(&mut self, d: run::Done) -> Vec<Effect> {
        let labels: Vec<&str> = d.outcomes.iter().map(|o| o.label.as_str()).collect();
        let on = labels.join(" ");
        let failed = d.outcomes.iter().find(|o| !o.exit.success());
        let has_output = d
            .outcomes
            .iter()
            .any(|o| !o.stdout.is_empty() || !o.stderr.is_empty());
        let mut lines = Vec::new();
        for o in &d.outcomes {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.push(format!("{}: {}", o.label, o.exit.describe()));
            lines.extend(
                String::from_utf8_lossy(&o.stdout)
                    .lines()
                    .map(crate::text::clean),
            );
            if !o.stderr.is_empty() {
                lines.push("stderr:".into());
                lines.extend(
                    String::from_utf8_lossy(&o.stderr)
                        .lines()
                        .map(|l| format!("  {}", crate::text::clean(l))),
                );
            }
            if o.truncated {
                lines.push(format!(
                    "… output cut at {} KiB per stream",
                    run::OUTPUT_CAP / 1024
                ));
            }
        }
        let title = format!("Output of {} — {}", d.name, d.description);
        let show = !d.interactive && (has_output || failed.is_some());
        let mut kept = false;
        if show {
            self.custom.last_output = Some((title.clone(), lines.clone()));
            if matches!(self.overlay, Overlay::None) {
                self.overlay = Overlay::Text {
                    title,
                    lines,
                    scroll: 0,
                };
            } else {
                kept = true;
            }
        }
        let tail = if kept { " — :output shows it" } else { "" };
        match failed {
            Some(o) => self.say(
                Level::Error,
                format!("{} on {}: {}{tail}", d.name, o.label, o.exit.describe()),
            ),
            None => self.say(Level::Success, format!("{} on {on}: done{tail}", d.name)),
        }
        vec![]
    }

    /// `:output`: the last custom command's output again.
    pub fn show_output(&mut self) -> Result<Vec<Effect>, String> {
        let (title, lines) = self
            .custom
            .last_output
            .clone()
            .ok_or("no custom command has shown output yet")?;
        self.overlay = Overlay::Text {
            title,
            lines,
            scroll: 0,
        };
        Ok(vec![])
    }
}
