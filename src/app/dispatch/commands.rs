//! The handler of every `Command`: one exhaustive match, a table whose
//! arms hand each command to the feature that owns it. Task commands act
//! on the current task (`State::target`) and name it.

use crate::app::popups::chooser::ChooserKind;
use crate::app::state::command::Command;
use crate::app::state::{ComposeKind, Effect, Level, State};
use crate::store::MarkKind;

impl State {
    /// Run palette text. Errors go to the status line.
    pub fn command(&mut self, line: &str) -> Vec<Effect> {
        match Command::parse(line) {
            Ok(c) => self.run_or_say(c),
            Err(msg) => {
                self.say(Level::Error, msg);
                vec![]
            }
        }
    }

    pub fn run_or_say(&mut self, c: Command) -> Vec<Effect> {
        let name = command_name(&c);
        match self.run(c) {
            Ok(fx) => fx,
            Err(msg) => {
                self.say(Level::Error, format!(":{name}: {msg}"));
                vec![]
            }
        }
    }

    /// One command, handed to the feature that owns it: a table, one arm
    /// each. With tasks marked, a task edit acts on every marked task
    /// (`bulk`).
    pub fn run(&mut self, c: Command) -> Result<Vec<Effect>, String> {
        if let Some(outcome) = self.run_marked(&c) {
            return outcome;
        }
        Ok(match c {
            // The current task's fields (`edit/task.rs`).
            Command::Status(s) => self.set_status(s)?,
            Command::Priority(p) => self.set_priority(p)?,
            Command::Assign(who) => self.assign(&who)?,
            Command::Unassign => self.unassign()?,
            Command::Due(arg) => self.set_due(&arg)?,
            Command::Tags(arg) => self.set_tags(&arg)?,
            Command::Title(title) => self.set_title(title)?,
            Command::Description(how) => self.edit_text("description", how)?,
            Command::Context(how) => self.edit_text("additional_context", how)?,
            Command::Agent(f) => self.set_agent(f)?,
            Command::Team(f) => self.set_team(f)?,
            Command::Matter(f) => self.set_matter(f)?,
            Command::Archive => self.set_archived(true)?,
            Command::Restore => self.set_archived(false)?,
            Command::Accept => self.accept_draft()?,
            Command::Reject => self.reject_draft()?,
            Command::Subtask(title) => self.add_subtask(title)?,
            // Operations made from taskdeck (`bulk/`).
            Command::Undo => self.undo_last()?,
            Command::Redo => self.redo_last()?,
            Command::History => self.show_history(),
            // Writing to people (`popups/compose.rs`).
            Command::Comment => self.open_compose(ComposeKind::Comment)?,
            Command::Reply => self.open_compose(ComposeKind::Requester)?,
            // Links and files (`edit/links.rs`), sharing and the pickers.
            Command::Link(pairs) => self.add_links(pairs)?,
            Command::Role(role) => self.set_link_role(role)?,
            Command::Checks(context) => self.set_link_checks(context)?,
            Command::Unlink => self.unlink()?,
            Command::Attach(file_ids) => self.attach(file_ids)?,
            Command::Detach => self.detach()?,
            Command::Share => self.open_sharing()?,
            Command::ShareAdd(add) => self.share_add_current(&add)?,
            Command::AttachPick => self.open_attach_picker()?,
            Command::LinkPick(query) => self.open_link_picker(&query)?,
            Command::Drafts => self.open_drafts(),
            // Views, filters and the board (`views/`).
            Command::Filter(words) => self.filter_by(&words)?,
            Command::View(name) => self.choose_view(&name)?,
            Command::SaveView(name) => self.save_view(&name)?,
            Command::Board => self.toggle_board(),
            // Custom commands (`custom/`).
            Command::Run(name) => self.run_custom(&name)?,
            Command::Output => self.show_output()?,
            // Macros (`bulk/macros.rs`).
            Command::Macro(name) => self.run_macro(&name)?,
            // Moving and what the pane shows (`list/`).
            Command::Parent => self.open_parent()?,
            Command::Open(arg) => self.open_by_ref(&arg)?,
            Command::Copy { id } => self.copy_current(id)?,
            Command::Back => self.history_back(),
            Command::Forward => self.history_forward(),
            Command::Zoom => self.toggle_zoom(),
            Command::Raw => self.toggle_raw(),
            Command::Refresh => self.refresh(),
            // Choosers, the inbox and the profile.
            Command::Recent => self.choose(ChooserKind::Recent),
            Command::Changed => self.choose(ChooserKind::Changed),
            Command::Outbox => self.choose(ChooserKind::Outbox),
            Command::Snoozed => self.choose(ChooserKind::Snoozed),
            Command::Inbox => self.open_inbox(),
            Command::Snooze(when) => self.inbox_mark(MarkKind::Snooze, &when)?,
            Command::FollowUp(when) => self.inbox_mark(MarkKind::FollowUp, &when)?,
            Command::Profile(name) => self.switch_profile(&name)?,
            // What the loop carries out, and the screen's own.
            Command::Validate(path) => vec![Effect::ReadLayout { path }],
            Command::Log => vec![Effect::ShowLog],
            Command::Help => self.open_help(),
            Command::Quit => self.quit_now(),
        })
    }
}

/// The command's name, for messages.
fn command_name(c: &Command) -> String {
    if matches!(c, Command::ShareAdd(_)) {
        return "share".into();
    }
    if matches!(c, Command::FollowUp(_)) {
        return "follow-up".into();
    }
    let dbg = format!("{c:?}");
    let word: String = dbg.chars().take_while(|ch| ch.is_alphanumeric()).collect();
    word.to_lowercase()
}
