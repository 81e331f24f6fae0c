//! The outbox's bookkeeping around the store and the user: whether each
//! queued edit is kept (what quitting says, and its exit status), whose
//! edit it is, and the version each is checked against.

use super::super::outbox::{Cancel, Kept, Made, OutItem, OutState};
use crate::app::state::{ApiResult, Level, Reply, State};
use crate::store::worker::StoreCmd;

impl State {
    /// The version of a task the user sees (the detail, else the row,
    /// else the copy kept): what an edit made now is made against.
    pub(crate) fn shown_version(&self, id: &str) -> Option<String> {
        self.shown_copy(id)
            .and_then(|t| t.updated_at.map(String::from))
    }

    /// The task as the user sees it (the detail, else the row, else the
    /// copy kept): what an edit made now is made on.
    pub(crate) fn shown_copy(&self, id: &str) -> Option<crate::api::Task> {
        self.known_task(id).cloned().or_else(|| self.best_copy(id))
    }

    /// The user the service said this key belongs to (`None` until known).
    pub(crate) fn my_user(&self) -> Option<String> {
        self.my_id().filter(|u| !u.is_empty()).map(str::to_string)
    }

    /// An edit made by another user is never sent with this key: it leaves
    /// the outbox of this session (it stays in its store), said once.
    pub(crate) fn drop_other_users_edits(&mut self) {
        let Some(me) = self.my_user() else { return };
        let (theirs, ours): (Vec<OutItem>, Vec<OutItem>) =
            std::mem::take(&mut self.outbox).into_iter().partition(|i| {
                i.user_id
                    .as_deref()
                    .is_some_and(|u| !u.is_empty() && u != me)
                    && matches!(i.state, OutState::Queued | OutState::Waiting(_))
            });
        self.outbox = ours;
        if !theirs.is_empty() {
            let what: Vec<String> = theirs
                .iter()
                .map(|i| format!("{} {}", i.label, i.what))
                .collect();
            self.say(
                Level::Warn,
                format!(
                    "{} made by another user: never sent with this key ({})",
                    crate::domain::words::plural(theirs.len(), "queued edit", "queued edits"),
                    what.join("; ")
                ),
            );
        }
    }

    /// Our queued edit of a task was answered with `version`: the later
    /// queued edits of the task made against the version its check
    /// accepted are checked against our answer (our own change holds
    /// nothing); any other version still holds them.
    pub(crate) fn rebase_after(&mut self, sent: &OutItem, version: Option<&str>) {
        let (Some(accepted), Some(version)) = (&sent.checked, version) else {
            return;
        };
        let mut cmds = Vec::new();
        for i in self.outbox.iter_mut().filter(|i| {
            i.task_id == sent.task_id
                && i.state == OutState::Queued
                && super::super::freshness::same_version(
                    i.base_updated_at.as_deref(),
                    Some(accepted.as_str()),
                )
        }) {
            i.base_updated_at = Some(version.to_string());
            cmds.push(StoreCmd::OutboxRebase {
                seq: i.seq,
                base: i.base_updated_at.clone(),
            });
        }
        for c in cmds {
            self.local.store(c);
        }
    }

    /// An answer came: the base of its write (`None`: not a queueable
    /// write of this session), taken from `edit_bases`. A write of a task
    /// answered with a new version carries the writes of that task still
    /// in flight behind it (chained: made against the same version,
    /// before this answer) onto its answer: queued later (the connection
    /// lost, the session ended before they went out), they are checked
    /// against our own change, not the version before it — which would
    /// show the user's own first edit as someone else's. Only a change
    /// after our answer holds them.
    pub(crate) fn take_edit_base(&mut self, r: &ApiResult) -> Option<Made> {
        let (id, base, saw) = self.edit_bases.remove(&r.ticket)?;
        if let (Some(made_on), Ok(Reply::Task(t))) = (&base, &r.result) {
            if let Some(version) = t.updated_at.as_deref() {
                for (task, b, seen) in self.edit_bases.values_mut() {
                    if *task == id
                        && super::super::freshness::same_version(b.as_deref(), Some(made_on))
                    {
                        *b = Some(version.to_string());
                        *seen = Some(t.clone());
                    }
                }
            }
        }
        Some(Made { version: base, saw })
    }

    /// A queued edit left the outbox for good (sent and answered, found
    /// landed, refused): the store drops it too — even when the store
    /// failed this session, as a cancel does (`outbox_cancel`): its row
    /// would bring it back at the next start as if never sent, to be
    /// read back and, the task looking as when it was made (a service
    /// whose clock went back), sent again (simulator seed
    /// 13400517069403342923). The store's thread removes it, or marks
    /// it beside the store for the next start (`Server::serve`).
    pub(crate) fn outbox_forget_stored(&mut self, item: &OutItem) {
        if !matches!(item.kept, Kept::Not(_)) {
            self.local.out.push(StoreCmd::OutboxRemove(item.seq));
        }
    }

    /// The store wrote a queued edit.
    pub(crate) fn outbox_kept(&mut self, seq: u64) {
        if let Some(i) = self.outbox.iter_mut().find(|i| i.seq as u64 == seq) {
            if i.kept == Kept::Writing {
                i.kept = Kept::Kept;
            }
        }
    }

    /// The store could not write a queued edit: it says so, with why.
    pub(crate) fn outbox_not_kept(&mut self, seq: u64, why: &str) {
        let Some(i) = self.outbox.iter_mut().find(|i| i.seq as u64 == seq) else {
            return;
        };
        i.kept = Kept::Not(why.to_string());
        let text = format!(
            "{}: {} could NOT be kept ({why}): it is in memory only — lost if you quit before the service is back",
            i.label, i.what
        );
        self.say(Level::Error, text);
    }

    /// The store answered a cancel: kept (the edit will not come back),
    /// or not (why: the store still holds the edit, and tries again).
    pub(crate) fn outbox_cancel_answered(&mut self, seq: i64, kept: Result<(), String>) {
        let Some(i) = self.cancels.iter().position(|c| c.seq == seq) else {
            return;
        };
        match kept {
            Ok(()) => {
                let c = self.cancels.remove(i);
                if c.not_kept.is_some() {
                    self.say(
                        Level::Success,
                        format!(
                            "{}: {} — the cancel is kept now (the local store took it): it will not be sent",
                            c.label, c.what
                        ),
                    );
                }
            }
            Err(why) => {
                let c = &mut self.cancels[i];
                let first = c.not_kept.is_none();
                c.not_kept = Some(why.clone());
                if first {
                    let text = crate::text::clean(&format!(
                        "{}: {} — cancel NOT KEPT ({why}): the local store still holds the edit; tried again while taskdeck runs — quit now and it comes back at the next start, to be sent",
                        c.label, c.what
                    ));
                    self.say(Level::Error, text);
                }
            }
        }
    }

    /// Cancels the store has not kept: quitting now brings their edits
    /// back at the next start (named at quit, exit status 1).
    pub fn cancels_not_kept(&self) -> &[Cancel] {
        &self.cancels
    }

    /// The store stopped: edits it had not confirmed are not kept.
    pub(crate) fn outbox_store_failed(&mut self, why: &str) {
        let mut named = Vec::new();
        for i in self.outbox.iter_mut().filter(|i| i.kept == Kept::Writing) {
            i.kept = Kept::Not(why.to_string());
            named.push(format!("{} {}", i.label, i.what));
        }
        if !named.is_empty() {
            self.say(
                Level::Error,
                format!(
                    "{} could NOT be kept ({why}): in memory only — lost if you quit before the service is back",
                    named.join("; ")
                ),
            );
        }
    }

    /// Queued edits the store does not hold: quitting now loses them.
    /// (A write left in flight at the end that the store did not confirm
    /// is not one: quitting names it as in flight, its outcome unknown.)
    pub fn outbox_lost(&self) -> Vec<&OutItem> {
        self.outbox
            .iter()
            .filter(|i| i.kept != Kept::Kept && !i.left_in_flight)
            .collect()
    }

    /// What quitting says of the outbox: edits lost (not kept: the exit
    /// status says so too), and edits kept for the next start.
    pub fn outbox_quit_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let lost = self.outbox_lost();
        if !lost.is_empty() {
            let why = lost
                .iter()
                .find_map(|i| match &i.kept {
                    Kept::Not(w) => Some(w.as_str()),
                    _ => None,
                })
                .unwrap_or("the store never confirmed writing them");
            let names: Vec<String> = lost
                .iter()
                .map(|i| format!("{} {}", i.label, i.what))
                .collect();
            out.push(crate::text::clean(&format!(
                "taskdeck: {} NOT sent and NOT kept ({why}) — lost: {}",
                crate::domain::words::plural(lost.len(), "queued edit was", "queued edits were"),
                names.join("; ")
            )));
        }
        if !self.cancels.is_empty() {
            let why = self
                .cancels
                .iter()
                .find_map(|c| c.not_kept.as_deref())
                .unwrap_or("the store never confirmed it");
            let names: Vec<String> = self
                .cancels
                .iter()
                .map(|c| format!("{} {}", c.label, c.what))
                .collect();
            out.push(crate::text::clean(&format!(
                "taskdeck: {} NOT KEPT ({why}) — still in the local store, sent at the next start as soon as the service answers, which cannot tell it was cancelled (nothing could record it); cancel it again there while the service cannot be reached: {}",
                crate::domain::words::plural(self.cancels.len(), "cancel was", "cancels were"),
                names.join("; ")
            )));
        }
        let kept = |in_flight: bool| -> Vec<String> {
            self.outbox
                .iter()
                .filter(|i| i.kept == Kept::Kept && i.left_in_flight == in_flight)
                .map(|i| format!("{} {}", i.label, i.what))
                .collect()
        };
        let queued = kept(false);
        if !queued.is_empty() {
            out.push(crate::text::clean(&format!(
                "taskdeck: {} not sent yet, kept in the local store (sent at the next start): {}",
                crate::domain::words::plural(queued.len(), "queued edit", "queued edits"),
                queued.join("; ")
            )));
        }
        let unknown = kept(true);
        if !unknown.is_empty() {
            out.push(crate::text::clean(&format!(
                "taskdeck: {} still in flight when you quit, outcome unknown: {} — kept in the local store: the next start reads the task back and sends it only if it did not arrive",
                crate::domain::words::plural(unknown.len(), "change was", "changes were"),
                unknown.join("; ")
            )));
        }
        out
    }
}
