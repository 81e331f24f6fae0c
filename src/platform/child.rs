//! The one way taskdeck runs a child process with a time limit (a custom
//! command, `notify_command`, `copy_command`, `api_key_command`, doctor's
//! look at tmux): in a process group of its own, so that ending it ends
//! everything it started; tracked in one registry of running groups, so
//! that taskdeck's exit — also a second signal, from the signal handler —
//! ends them all.
//!
//! A group is ended (SIGKILL, so one that ignores SIGTERM goes too) when
//! its time limit passes, when what holds it is dropped, and at exit
//! ([`end_all_groups`]). Waiting polls: no thread is started per child;
//! what a finished command left running until its deadline is watched by
//! one shared thread, started the first time something needs watching.

use super::ffi;
use std::io;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// What a group was started for; [`end_groups_of`] ends one kind only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A command the config names (custom, `notify_command`,
    /// `copy_command`, `api_key_command` on the terminal) or a tool
    /// taskdeck asks (`tmux`, `xclip`…).
    Command = 1,
    /// `api_key_command` run in the background for another profile: a
    /// profile switch ends those still running.
    Key = 2,
}

/// How many groups are tracked at once: more than ever run together
/// (each ends at its time limit).
const SLOTS: usize = 64;

/// The groups that may still hold a process, each `kind << 32 | pgid` (0
/// is a free slot): plain atomics, so a signal handler may read them.
static GROUPS: [AtomicI64; SLOTS] = [const { AtomicI64::new(0) }; SLOTS];

fn slot_value(pgid: i32, kind: Kind) -> i64 {
    ((kind as i64) << 32) | pgid as i64
}

/// A child's process group (the group it leads), tracked while it may hold
/// a process. Dropped, the whole group is ended.
pub struct Group {
    pgid: i32,
    kind: Kind,
}

impl Group {
    fn track(pgid: i32, kind: Kind) -> Group {
        let v = slot_value(pgid, kind);
        let tracked = GROUPS.iter().any(|s| {
            s.compare_exchange(0, v, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        if !tracked {
            tracing::warn!(pgid, "too many children running to track them all");
        }
        Group { pgid, kind }
    }

    /// The group's id (its leader's pid).
    pub fn id(&self) -> i32 {
        self.pgid
    }

    /// Whether any process of the group is still there.
    pub fn alive(&self) -> bool {
        ffi::group_alive(self.pgid)
    }

    /// Forget the group: its processes all gone, or left to live (a
    /// copying tool that stays to serve the selection).
    pub fn forget(self) {
        self.untrack();
        std::mem::forget(self);
    }

    /// Leave what the child left running until `deadline` (its time
    /// limit), then end it. Nothing to watch (the group is empty): nothing
    /// is started; otherwise the one watcher thread takes it.
    pub fn end_at(self, deadline: Instant) {
        if !self.alive() {
            return self.forget();
        }
        if Instant::now() >= deadline {
            return drop(self);
        }
        Watcher::get().add(self, deadline);
    }

    fn untrack(&self) {
        let v = slot_value(self.pgid, self.kind);
        if let Some(slot) = GROUPS.iter().find(|s| s.load(Ordering::SeqCst) == v) {
            let _ = slot.compare_exchange(v, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        ffi::kill_group(self.pgid, libc::SIGKILL);
        self.untrack();
    }
}

/// End every group still tracked (at exit; from the second signal's
/// handler too). Only atomics and kill(2): async-signal-safe.
pub fn end_all_groups() {
    for slot in &GROUPS {
        let v = slot.swap(0, Ordering::SeqCst);
        if v != 0 {
            ffi::kill_group(v as i32, libc::SIGKILL);
        }
    }
}

/// End the groups of one kind still tracked (the key commands at a
/// profile switch). Async-signal-safe.
pub fn end_groups_of(kind: Kind) {
    for slot in &GROUPS {
        let v = slot.load(Ordering::SeqCst);
        if v != 0
            && v >> 32 == kind as i64
            && slot
                .compare_exchange(v, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        {
            ffi::kill_group(v as i32, libc::SIGKILL);
        }
    }
}

/// The one thread that ends what finished commands left running, at their
/// deadlines.
struct Watcher {
    groups: Mutex<Vec<(Group, Instant)>>,
    more: Condvar,
}

impl Watcher {
    fn get() -> &'static Watcher {
        static W: std::sync::OnceLock<&'static Watcher> = std::sync::OnceLock::new();
        W.get_or_init(|| {
            let w: &'static Watcher = Box::leak(Box::new(Watcher {
                groups: Mutex::new(Vec::new()),
                more: Condvar::new(),
            }));
            let _ = std::thread::Builder::new()
                .name("child-groups".into())
                .spawn(move || w.run());
            w
        })
    }

    fn add(&self, g: Group, deadline: Instant) {
        self.groups
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((g, deadline));
        self.more.notify_one();
    }

    fn run(&self) {
        let mut groups = self.groups.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let now = Instant::now();
            let mut i = 0;
            while i < groups.len() {
                let (g, deadline) = &groups[i];
                if !g.alive() {
                    groups.swap_remove(i).0.forget();
                } else if now >= *deadline {
                    drop(groups.swap_remove(i));
                } else {
                    i += 1;
                }
            }
            groups = if groups.is_empty() {
                self.more.wait(groups).unwrap_or_else(|e| e.into_inner())
            } else {
                // A group may empty before its deadline: looked at again
                // within 100 ms.
                let next = groups.iter().map(|(_, d)| *d).min().unwrap_or(now);
                let wait = next
                    .saturating_duration_since(now)
                    .min(Duration::from_millis(100));
                self.more
                    .wait_timeout(groups, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0
            };
        }
    }
}

/// Where the child's group stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A process group of its own, in taskdeck's session.
    Group,
    /// A process group of its own that takes the terminal on `fd` (its
    /// foreground) before exec: a command that asks on the terminal.
    Foreground(i32),
    /// A session of its own: no controlling terminal at all.
    Session,
}

/// Why a child did not end by itself in time.
#[derive(Debug)]
pub enum Waited {
    /// The time limit passed: its whole group was ended.
    TimedOut(Duration),
    /// Waiting failed (its group was ended).
    Failed(io::Error),
}

/// A child started with a time limit, leading its own process group.
/// Dropped, the group is ended and the child reaped.
pub struct Limited {
    pub child: std::process::Child,
    group: Option<Group>,
    deadline: Instant,
    limit: Duration,
}

impl Limited {
    /// Start `cmd` in a group of its own (placed as `place`), to be done
    /// within `limit` from now.
    pub fn spawn(
        cmd: &mut std::process::Command,
        place: Place,
        kind: Kind,
        limit: Duration,
    ) -> io::Result<Limited> {
        use std::os::unix::process::CommandExt;
        let deadline = Instant::now() + limit;
        match place {
            Place::Group => {
                cmd.process_group(0);
            }
            Place::Foreground(fd) => {
                cmd.process_group(0);
                ffi::take_terminal_at_exec(cmd, fd);
            }
            Place::Session => ffi::new_session_at_exec(cmd),
        }
        let child = cmd.spawn()?;
        let group = Group::track(child.id() as i32, kind);
        if let Place::Foreground(fd) = place {
            ffi::set_foreground(fd, group.id());
        }
        Ok(Limited {
            child,
            group: Some(group),
            deadline,
            limit,
        })
    }

    /// The group's id (the child's pid).
    pub fn group_id(&self) -> i32 {
        self.child.id() as i32
    }

    /// Whether the time limit has passed.
    pub fn past_deadline(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// The time limit it was given.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// Wait for the child to exit, within its time limit; past it, its
    /// whole group is ended and reaped.
    pub fn wait(&mut self) -> Result<ExitStatus, Waited> {
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => return Ok(st),
                Ok(None) if self.past_deadline() => {
                    self.end();
                    return Err(Waited::TimedOut(self.limit));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(e) => {
                    self.end();
                    return Err(Waited::Failed(e));
                }
            }
        }
    }

    /// End the whole group now and reap the child.
    pub fn end(&mut self) {
        drop(self.group.take());
        let _ = self.child.wait();
    }

    /// The child exited: leave what it started to live on (`xclip` stays
    /// to serve the selection), untracked.
    pub fn leave(mut self) {
        if let Some(g) = self.group.take() {
            g.forget();
        }
    }
}

impl Drop for Limited {
    fn drop(&mut self) {
        if self.group.is_some() {
            self.end();
        }
    }
}

/// [`Limited`] for the async runtime (a custom command run off the loop).
pub struct LimitedAsync {
    pub child: tokio::process::Child,
    group: Option<Group>,
    deadline: Instant,
    limit: Duration,
}

impl LimitedAsync {
    /// Start `cmd` in a process group of its own, to be done within
    /// `limit` from now; the child is killed if this is dropped.
    pub fn spawn(
        cmd: &mut tokio::process::Command,
        kind: Kind,
        limit: Duration,
    ) -> io::Result<LimitedAsync> {
        let deadline = Instant::now() + limit;
        cmd.process_group(0).kill_on_drop(true);
        let child = cmd.spawn()?;
        let group = child.id().map(|p| Group::track(p as i32, kind));
        Ok(LimitedAsync {
            child,
            group,
            deadline,
            limit,
        })
    }

    /// Wait for the child to exit within its time limit; past it, its
    /// whole group is ended (what it started too) and it is reaped.
    pub async fn wait(&mut self) -> Result<ExitStatus, Waited> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, self.child.wait()).await {
            Ok(Ok(st)) => Ok(st),
            Ok(Err(e)) => {
                drop(self.group.take());
                Err(Waited::Failed(e))
            }
            Err(_) => {
                drop(self.group.take());
                let _ = self.child.wait().await;
                Err(Waited::TimedOut(self.limit))
            }
        }
    }

    /// What the child left running goes on until its deadline, then is
    /// ended (at once when taskdeck exits).
    pub fn end_at_deadline(mut self) {
        if let Some(g) = self.group.take() {
            g.end_at(self.deadline);
        }
    }
}

impl Drop for LimitedAsync {
    fn drop(&mut self) {
        drop(self.group.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// The group `pgid` has no process left within 5 s (SIGKILL is
    /// delivered at once; reaping may take a moment).
    fn wait_gone(pgid: i32) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while ffi::group_alive(pgid) {
            assert!(Instant::now() < deadline, "group {pgid} outlived its end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn tracked(pgid: i32) -> bool {
        GROUPS
            .iter()
            .any(|s| s.load(Ordering::SeqCst) as i32 == pgid)
    }

    #[test]
    fn the_time_limit_kills_a_sleeping_child_and_its_group() {
        let started = Instant::now();
        let mut c = Limited::spawn(
            Command::new("sh").args(["-c", "sleep 30 & sleep 30"]),
            Place::Group,
            Kind::Command,
            Duration::from_millis(300),
        )
        .unwrap();
        let pgid = c.group_id();
        assert!(tracked(pgid));
        let e = c.wait().unwrap_err();
        assert!(matches!(e, Waited::TimedOut(d) if d == Duration::from_millis(300)));
        assert!(started.elapsed() < Duration::from_secs(10));
        wait_gone(pgid);
        assert!(!tracked(pgid), "an ended group leaves the registry");
    }

    #[test]
    fn dropped_the_group_is_ended_and_a_quick_child_is_waited_for() {
        let c = Limited::spawn(
            Command::new("sleep").arg("30"),
            Place::Group,
            Kind::Command,
            Duration::from_secs(60),
        )
        .unwrap();
        let pgid = c.group_id();
        drop(c);
        wait_gone(pgid);

        let mut c = Limited::spawn(
            Command::new("sh").args(["-c", "exit 4"]),
            Place::Group,
            Kind::Command,
            Duration::from_secs(60),
        )
        .unwrap();
        assert_eq!(c.wait().unwrap().code(), Some(4));
    }

    /// What a finished command left running is ended at its deadline by
    /// the shared watcher; a group with nothing left is not watched.
    #[test]
    fn what_a_finished_async_child_left_is_ended_at_its_deadline() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let _in_runtime = rt.enter();
        let mut cmd = tokio::process::Command::new("sh");
        cmd.args(["-c", "sleep 30 & echo started"])
            .stdout(std::process::Stdio::null());
        let mut c =
            LimitedAsync::spawn(&mut cmd, Kind::Command, Duration::from_millis(400)).unwrap();
        let pgid = c.child.id().unwrap() as i32;
        let st = rt.block_on(c.wait()).unwrap();
        assert!(st.success());
        assert!(ffi::group_alive(pgid), "the background sleep still runs");
        c.end_at_deadline();
        wait_gone(pgid);
    }
}
