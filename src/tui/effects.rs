//! The effects the reducer asks for, carried out by the loop: one line
//! each, handing over to the code that owns the case — requests to the
//! worker, the inbox's commands, copying (`clipboard`), the editor
//! (`editor`), custom commands (`runner`), suspending (`terminal`), layouts
//! read from disk (`crate::files`), views saved to the config. Also the
//! inbox's side of our own writes: told when one starts
//! (`EffectCtx::request`) and how it was answered (`own_write_answered`).

use super::{clipboard, editor, notify, profiles, runner, terminal, worker};
use crate::app::state::{ApiRequest, ApiResult, Effect, Level, State};
use crate::app::WritesInFlight;
use crate::inbox::{InboxCmd, InboxLink, Notice};

pub(super) struct EffectCtx<'a> {
    pub(super) worker: &'a mut worker::Worker,
    pub(super) writes: &'a mut WritesInFlight,
    /// `copy_command` from the config: copying goes through it.
    pub(super) copy_command: Option<&'a str>,
    /// The inbox, once it runs.
    pub(super) inbox: Option<&'a InboxLink>,
    /// The other profiles' inboxes (issue 36).
    pub(super) others: &'a profiles::Walkers,
    /// The bell, the desktop notification, the title, `notify_command`.
    pub(super) notifier: &'a mut notify::Notifier,
    /// The terminal: lent, suspended, written to; `hangup` when it went
    /// away during an effect.
    pub(super) screen: &'a mut terminal::Screen,
}

pub(super) fn run_effect(fx: Effect, state: &mut State, ctx: &mut EffectCtx<'_>) {
    match fx {
        Effect::Api { ticket, req } => ctx.request(ticket, req, state),
        Effect::Inbox(cmd) => ctx.to_inbox(cmd),
        Effect::ProfileInbox(profile, cmd) => ctx.others.send(&profile, cmd),
        Effect::Notify(notice) => ctx.notify(&notice, state.profile.as_deref()),
        Effect::ProfileNotify(profile, notice) => ctx.notify(&notice, Some(&profile)),
        Effect::ProfileStop(profile) => ctx.others.stop(&profile),
        Effect::Quit => state.quit = true,
        Effect::Suspend => ctx.screen.suspend(),
        Effect::Cancel { ticket } => ctx.worker.cancel(ticket),
        Effect::ShowLog => state.show_log(editor::log_shown(200)),
        Effect::Copy(text) => clipboard::copy(&text, ctx.copy_command, state, &ctx.worker.sender()),
        Effect::ReadLayout { path } => validate(crate::files::read_layout(path), state, ctx),
        Effect::SaveView { name, filter } => save_view(name, filter, state),
        Effect::RunCommand(job) if job.interactive => {
            run_all(runner::in_terminal(*job, state, ctx.screen), state, ctx)
        }
        Effect::RunCommand(job) => runner::spawn_job(*job, ctx.worker.sender()),
        Effect::Editor { target, initial } => {
            run_all(editor::edit(target, initial, state, ctx.screen), state, ctx)
        }
    }
}

/// What an effect's answer asks for next (the editor's text taken, an
/// interactive command done), carried out at once.
fn run_all(effects: Vec<Effect>, state: &mut State, ctx: &mut EffectCtx<'_>) {
    for fx in effects {
        run_effect(fx, state, ctx);
    }
}

/// `:validate PATH`: the layout read goes to the service; a file that
/// cannot be read, or is not JSON, is said.
fn validate(
    read: Result<(String, serde_json::Value), String>,
    state: &mut State,
    ctx: &mut EffectCtx<'_>,
) {
    match read {
        Ok((path, layout)) => run_effect(
            state.request(ApiRequest::Validate { path, layout }),
            state,
            ctx,
        ),
        Err(e) => state.say(Level::Error, e),
    }
}

/// `:view save NAME`: the view written into the config file; the state is
/// told where (or why not).
fn save_view(name: String, filter: String, state: &mut State) {
    let path = crate::config::config_path();
    let written = crate::config::save_view(&path, &name, &filter).map(|p| p.display().to_string());
    state.view_saved(name, filter, written);
}

impl EffectCtx<'_> {
    /// A request to the worker. A write is counted in flight (the quit
    /// line names what was not answered), and the inbox is told its task is
    /// being written: the change it brings is ours, never news.
    fn request(&mut self, ticket: u64, req: Box<ApiRequest>, state: &mut State) {
        // Older edits of its task wait in the outbox: it joins them.
        if let Some(fx) = state.send_or_hold(ticket, &req) {
            return run_all(fx, state, self);
        }
        self.writes.started(ticket, &req, state);
        if let (Some(link), Some(id)) = (self.inbox, req.written_task()) {
            link.send(InboxCmd::OwnPending(id.to_string()));
        }
        self.worker.spawn(ticket, req)
    }

    /// A command to the inbox, once it runs.
    fn to_inbox(&self, cmd: InboxCmd) {
        if let Some(link) = self.inbox {
            link.send(cmd);
        }
    }

    /// Tell the user something new (of `profile`'s inbox) as the config
    /// says; a terminal gone meanwhile is a hang-up.
    fn notify(&mut self, notice: &Notice, profile: Option<&str>) {
        let tx = self.worker.sender();
        if !self.notifier.notify(notice, profile, &tx) {
            self.screen.hangup = true;
        }
    }
}

/// A write of ours was answered: the inbox takes the task as it now is
/// (nothing of it is news), or forgets the write that failed.
pub(super) fn own_write_answered(link: &InboxLink, r: &ApiResult) {
    if let Some(cmd) = crate::app::inbox::own_answer(link.user(), r) {
        link.send(cmd);
    }
}
