//! What the state does for `inbox` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::super::popups::inbox::{InboxList, InboxOutcome};
use super::super::state::{Effect, Focus, Level, Overlay, State, Tab};
use crate::inbox::{InboxCmd, InboxRow, InboxUpdate};
use crate::store::{InboxMark, MarkKind};

impl State {
    pub fn open_inbox(&mut self) -> Vec<Effect> {
        self.overlay = Overlay::Inbox(InboxList::default());
        // Walking only when asked: opening it asks, the first time.
        let mut fx = vec![];
        if !self.inbox.periodic && self.inbox.last.walked_at.is_none() && self.me.is_some() {
            fx = self.inbox_cmd(InboxCmd::Refresh);
        }
        // … and each other profile's that has not walked yet.
        if !self.inbox.periodic {
            for o in self
                .inbox
                .others
                .iter()
                .filter(|o| o.last.walked_at.is_none())
            {
                fx.push(Effect::ProfileInbox(o.profile.clone(), InboxCmd::Refresh));
            }
        }
        fx
    }

    /// The inbox as it now stands; what in it is new (never what was there
    /// at start, each item once) is a notification.
    pub fn on_inbox(&mut self, mut u: InboxUpdate) -> Vec<Effect> {
        // Until the first walk the inbox shows what was there already; an
        // inbox that walks only when asked has nothing to catch up with.
        let walked = u.walked_at.is_some() || !self.inbox.periodic;
        let notice = self.inbox.watch.observe(&u.items, &u.hidden, walked);
        let back = self.took_read(None, &mut u);
        // A walk that could not read everything says so, once per walk.
        let new_walk = u.walked_at.is_some() && u.walked_at != self.inbox.last.walked_at;
        if let Some(why) = u
            .report
            .as_ref()
            .and_then(|r| r.partial())
            .filter(|_| new_walk)
        {
            self.say(
                Level::Warn,
                format!("inbox partly refreshed: {}", crate::text::clean(&why)),
            );
        }
        let v = &mut self.inbox;
        v.last = InboxUpdate {
            error: u.error.map(|e| crate::text::clean(&e)),
            read: None,
            ..u
        };
        v.loaded = true;
        let mut fx: Vec<Effect> = notice.map(Effect::Notify).into_iter().collect();
        fx.extend(back);
        fx.extend(self.one_inbox_a_store());
        self.clamp_inbox();
        fx
    }

    /// One service and user is one inbox (issue 42 §11): another profile
    /// reading the store this profile's inbox reads, or one another
    /// profile already shows, is shown once, as that one's — its rows and
    /// counts dropped, its walker stopped.
    fn one_inbox_a_store(&mut self) -> Vec<Effect> {
        let v = &mut self.inbox;
        let mut shown: Vec<(std::path::PathBuf, String)> = Vec::new();
        if let Some(p) = &v.last.store {
            shown.push((p.clone(), v.here.clone()));
        }
        let mut fx = Vec::new();
        for o in v.others.iter_mut().filter(|o| o.same_as.is_none()) {
            let Some(store) = o.last.store.clone() else {
                continue;
            };
            match shown.iter().find(|(p, _)| *p == store) {
                Some((_, first)) => {
                    o.same_as = Some(first.clone());
                    o.last = InboxUpdate {
                        store: Some(store),
                        ..Default::default()
                    };
                    fx.push(Effect::ProfileStop(o.profile.clone()));
                }
                None => shown.push((store, o.profile.clone())),
            }
        }
        fx
    }

    /// Another profile's inbox as its own walker now has it (issue 36);
    /// what in it is new is a notification naming that profile.
    pub fn on_profile_inbox(&mut self, profile: String, mut u: InboxUpdate) -> Vec<Effect> {
        let back = self.took_read(Some(&profile), &mut u);
        let u = InboxUpdate {
            error: u.error.map(|e| crate::text::clean(&e)),
            read: None,
            ..u
        };
        let periodic = self.inbox.periodic;
        let others = &mut self.inbox.others;
        let i = match others.iter().position(|o| o.profile == profile) {
            Some(i) => i,
            None => {
                others.push(super::OtherInbox {
                    profile: profile.clone(),
                    ..Default::default()
                });
                others.len() - 1
            }
        };
        let o = &mut others[i];
        if o.same_as.is_some() {
            // Shown as another's: what its walker sent before it stopped
            // (a read `u` asked back still goes back).
            return back;
        }
        o.last = u;
        o.loaded = true;
        let mut fx = back;
        fx.extend(self.one_inbox_a_store());
        let o = &mut self.inbox.others[i];
        if o.same_as.is_none() {
            let walked = o.last.walked_at.is_some() || !periodic;
            let notice = o.watch.observe(&o.last.items, &o.last.hidden, walked);
            // Its words name it (the bell, the desktop, the title); its
            // `notify_command` gets the profile too.
            fx.extend(notice.map(|mut n| {
                n.words = format!("[{}] {}", crate::text::clean(&profile), n.words);
                Effect::ProfileNotify(profile, n)
            }));
        }
        self.clamp_inbox();
        fx
    }

    /// A read's answer: what it marked goes on the `u` stack — or, when
    /// `u` asked for it back before the answer came, back at once.
    fn took_read(&mut self, profile: Option<&str>, u: &mut InboxUpdate) -> Vec<Effect> {
        let Some((id, keys)) = u.read.take() else {
            return vec![];
        };
        let whose = profile.map(str::to_string);
        let reading = &mut self.inbox.reading;
        let undo = match reading.iter().position(|(p, t, _)| *p == whose && *t == id) {
            Some(i) => reading.remove(i).2,
            None => false,
        };
        if keys.is_empty() {
            return vec![];
        }
        if undo {
            return self.inbox_of(whose, InboxCmd::Unread(id, keys));
        }
        let done = &mut self.inbox.done;
        done.push((whose, id, keys));
        if done.len() > 50 {
            done.remove(0);
        }
        vec![]
    }

    /// Mark a task's items read in its inbox, the answer awaited.
    fn send_read(&mut self, profile: Option<String>, id: String) -> Vec<Effect> {
        let fx = self.inbox_of(profile.clone(), InboxCmd::Read(id.clone()));
        if !fx.is_empty() {
            self.inbox.reading.push((profile, id, false));
        }
        fx
    }

    fn clamp_inbox(&mut self) {
        let n = self.inbox.row_count();
        if let Overlay::Inbox(list) = &mut self.overlay {
            list.selected = list.selected.min(n.saturating_sub(1));
        }
    }

    /// Every profile's inbox is asked the same (`a`, `r`).
    fn every_inbox(&self, cmd: InboxCmd) -> Vec<Effect> {
        let mut fx = self.inbox_cmd(cmd.clone());
        for o in &self.inbox.others {
            fx.push(Effect::ProfileInbox(o.profile.clone(), cmd.clone()));
        }
        fx
    }

    /// A row's inbox is asked: the current profile's, or its own profile's
    /// (never the current one's for another profile's row).
    fn inbox_of(&self, profile: Option<String>, cmd: InboxCmd) -> Vec<Effect> {
        match profile {
            None => self.inbox_cmd(cmd),
            Some(p) => vec![Effect::ProfileInbox(p, cmd)],
        }
    }

    /// Enter on another profile's row: switch to it (as `:profile` does:
    /// drafts saved, the store written), then open the row there.
    fn open_in_profile(&mut self, list: InboxList, profile: &str, r: InboxRow) -> Vec<Effect> {
        match self.switch_to_known(profile) {
            Ok(fx) => {
                self.say(
                    Level::Info,
                    format!("switching to profile {profile} to open {}", r.label),
                );
                self.inbox.open_next = Some(r);
                fx
            }
            Err(e) => {
                self.overlay = Overlay::Inbox(list);
                self.say(Level::Warn, e);
                vec![]
            }
        }
    }

    /// After a switch made by Enter on another profile's row: that row,
    /// now the current profile's, is read and opened where it matters.
    pub fn open_switched(&mut self, r: InboxRow) -> Vec<Effect> {
        self.overlay = Overlay::None;
        let mut fx = self.send_read(None, r.task_id.clone());
        fx.extend(self.open_at(&r));
        fx
    }

    fn inbox_cmd(&self, cmd: InboxCmd) -> Vec<Effect> {
        if self.inbox.running {
            vec![Effect::Inbox(cmd)]
        } else {
            vec![]
        }
    }

    pub(crate) fn inbox_outcome(&mut self, list: InboxList, out: InboxOutcome) -> Vec<Effect> {
        let row = |s: &State, i: usize| {
            s.inbox
                .rows()
                .get(i)
                .map(|r| (r.profile.map(str::to_string), r.row.clone()))
        };
        match out {
            InboxOutcome::Stay => {
                self.overlay = Overlay::Inbox(list);
                vec![]
            }
            InboxOutcome::Close => vec![],
            InboxOutcome::Open(i) => {
                let Some((p, r)) = row(self, i) else {
                    return vec![];
                };
                if let Some(p) = p {
                    return self.open_in_profile(list, &p, r);
                }
                let mut fx = self.send_read(None, r.task_id.clone());
                fx.extend(self.open_at(&r));
                fx
            }
            InboxOutcome::Done(i) => {
                self.overlay = Overlay::Inbox(list);
                let Some((p, r)) = row(self, i) else {
                    return vec![];
                };
                let whose = p.as_ref().map(|p| format!("[{p}] ")).unwrap_or_default();
                self.say(
                    Level::Info,
                    format!("done: {whose}{} (u brings it back)", r.label),
                );
                self.send_read(p, r.task_id)
            }
            InboxOutcome::Undo => {
                self.overlay = Overlay::Inbox(list);
                // The last `d` not answered yet is the one brought back,
                // as soon as its answer says what it marked.
                if let Some((p, id, undo)) = self
                    .inbox
                    .reading
                    .iter_mut()
                    .rev()
                    .find(|(_, _, undo)| !*undo)
                {
                    *undo = true;
                    let whose = p.as_ref().map(|p| format!(" of profile {p}"));
                    let id = id.clone();
                    let label = self.label_of(&id);
                    let whose = whose.unwrap_or_default();
                    self.say(Level::Info, format!("back in the inbox{whose}: {label}"));
                    return vec![];
                }
                match self.inbox.done.pop() {
                    Some((None, id, keys)) => {
                        let label = self.label_of(&id);
                        self.say(Level::Info, format!("back in the inbox: {label}"));
                        self.inbox_cmd(InboxCmd::Unread(id, keys))
                    }
                    Some((Some(p), id, keys)) => {
                        self.say(Level::Info, format!("back in the inbox of profile {p}"));
                        vec![Effect::ProfileInbox(p, InboxCmd::Unread(id, keys))]
                    }
                    None => {
                        self.say(Level::Info, "nothing marked done to bring back");
                        vec![]
                    }
                }
            }
            InboxOutcome::ToggleAll => {
                self.overlay = Overlay::Inbox(list);
                let all = !self.inbox.last.all;
                self.every_inbox(InboxCmd::ShowAll(all))
            }
            InboxOutcome::Refresh => {
                self.overlay = Overlay::Inbox(list);
                if self.me.is_none() {
                    self.say(
                        Level::Warn,
                        "the inbox walks once the service has said who you are (what is stored is shown)",
                    );
                    return vec![];
                }
                self.every_inbox(InboxCmd::Refresh)
            }
            InboxOutcome::Snooze(i) | InboxOutcome::FollowUp(i) => {
                let Some((p, r)) = row(self, i) else {
                    return vec![];
                };
                if let Some(p) = p {
                    // The palette acts on the current profile's task: never
                    // another profile's, nor its mark under this one.
                    self.overlay = Overlay::Inbox(list);
                    self.say(
                        Level::Warn,
                        format!("{} is in profile {p}: enter switches to it, then snooze or follow up there", r.label),
                    );
                    return vec![];
                }
                let word = if matches!(out, InboxOutcome::Snooze(_)) {
                    "snooze "
                } else {
                    "follow-up "
                };
                // The palette acts on the current task: the row's task
                // becomes it, so what is snoozed is on screen.
                let mut fx = self.jump_to(r.task_id.clone(), None);
                fx.extend(self.open_palette(word));
                fx
            }
        }
    }

    /// Open a row's task at the place that matters: the new comment, the
    /// changed field.
    fn open_at(&mut self, r: &InboxRow) -> Vec<Effect> {
        self.focus = Focus::Detail;
        let mut fx = self.jump_to(r.task_id.clone(), None);
        self.note_recent(&r.task_id, "opened");
        let (tab, comment) = match r.target.as_deref() {
            Some(t) if t.starts_with("comment:") => {
                (Tab::Comments, Some(t["comment:".len()..].to_string()))
            }
            _ => (Tab::Overview, None),
        };
        // The inbox names a change by its words (`due`, `assignee`); the
        // overview by the task's field. Only a change is marked `◀ changed`:
        // a reminder (`overdue: was due …`) points at the due date, which
        // did not change (issue 46 §2).
        let field = r
            .target
            .as_deref()
            .filter(|_| r.top() == Some(crate::inbox::Kind::Fields))
            .and_then(|t| t.strip_prefix("field:"))
            .map(|f| {
                crate::domain::task_field::TaskField::from_inbox(f)
                    .map_or(f, |f| f.wire())
                    .to_string()
            });
        if let Some(d) = &mut self.detail {
            if d.tab != tab {
                d.tab = tab;
                d.cursor = 0;
                d.scroll = 0;
            }
            d.focus_comment = comment;
            d.focus_field = field;
        }
        self.rebuild_comment_tree();
        fx.extend(self.load_tab(tab));
        fx
    }

    /// `:snooze WHEN` / `:follow-up WHEN` on the current task.
    pub(crate) fn inbox_mark(&mut self, kind: MarkKind, when: &str) -> Result<Vec<Effect>, String> {
        if !self.inbox.running {
            return Err(self.inbox_off_reason());
        }
        let (id, label) = self.target()?;
        let now = crate::clock::timestamp();
        let at = crate::domain::later::parse_later(when, now)?;
        let title = self
            .current_task()
            .map(|t| t.title.line().into_owned())
            .unwrap_or_default();
        let shown = crate::domain::dates::local_time(at);
        let m = InboxMark {
            task_id: id,
            kind,
            at: at.as_second(),
            since: now.as_second(),
            label: label.clone(),
            title: crate::text::clean(&title),
        };
        match kind {
            MarkKind::Snooze => self.say(
                Level::Success,
                format!("{label} snoozed until {shown}: it comes back in the inbox then"),
            ),
            MarkKind::FollowUp => self.say(
                Level::Success,
                format!(
                    "follow-up on {label} at {shown}: in the inbox then if nobody else has commented or changed it"
                ),
            ),
        }
        Ok(vec![Effect::Inbox(InboxCmd::Mark(m))])
    }

    fn inbox_off_reason(&self) -> String {
        self.inbox
            .off
            .clone()
            .unwrap_or_else(|| "the inbox starts once the service has said who you are".to_string())
    }

    /// `:snoozed`: the rows of the chooser (key: `kind:task id`; the line;
    /// the task's label; the words typed may find beside it).
    pub(crate) fn snoozed_rows(&self) -> Vec<(String, String, String, String)> {
        let now = crate::clock::timestamp();
        self.inbox
            .last
            .marks
            .iter()
            .map(|m| {
                let at = jiff::Timestamp::from_second(m.at).unwrap_or_default();
                let when = crate::domain::later::short_when(at, now, true);
                let what = match m.kind {
                    MarkKind::Snooze if crate::inbox::snooze::come(m, now.as_second()) => {
                        format!("snooze ended {when}")
                    }
                    MarkKind::Snooze => format!("snoozed until {when}"),
                    MarkKind::FollowUp => format!("follow-up {when}"),
                };
                let key = match m.kind {
                    MarkKind::Snooze => format!("snooze:{}", m.task_id),
                    MarkKind::FollowUp => format!("follow-up:{}", m.task_id),
                };
                let line = format!("{:<7} {:<24} {}", m.label, what, m.title);
                let words = format!("{} {what}", m.title);
                (key, line, m.label.clone(), words)
            })
            .collect()
    }

    /// `x` in `:snoozed`: the snooze or follow-up is cancelled.
    pub(crate) fn cancel_mark(&mut self, key: &str) -> Vec<Effect> {
        let (kind, id) = match key.split_once(':') {
            Some(("snooze", id)) => (MarkKind::Snooze, id),
            Some(("follow-up", id)) => (MarkKind::FollowUp, id),
            _ => return vec![],
        };
        self.inbox
            .last
            .marks
            .retain(|m| !(m.kind == kind && m.task_id == id));
        self.inbox_cmd(InboxCmd::Unmark(id.to_string(), kind))
    }
}
