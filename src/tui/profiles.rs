//! The inboxes: the current profile's (`start_inbox`: its store's user's)
//! and the other profiles' beside it (issue 36,
//! `inbox_profiles = "all"`): one walker per other profile, each with its
//! own client (its own key and service), its own store (the store of the
//! user its key names, in its service's folder) and its own identity
//! rules. Nothing of one profile goes to another: commands for a profile
//! go to its walker only.
//!
//! A walker connects its profile itself, in the background (the TUI is on
//! screen at once): the CLI hands it how ([`Connect`]: the configuration
//! read, the key got — without a terminal — once per process; blocking, so
//! on a blocking thread). A profile that cannot be connected is a line
//! saying why. Then, before its service answers, the walker opens the
//! store of the user its key last named (its key fingerprint, as the
//! current profile does) and shows that inbox as stored; it asks the
//! service who the user is, and runs an [`InboxLink`] on that user's store
//! (another user than the fingerprint said: that user's store instead) at
//! the same cadence as the current profile's. What it sends arrives as
//! `Msg::ProfileInbox(name, update)`. A service that cannot be reached is
//! said (the update's `error`, with the stored items when there are any)
//! and asked again at the same cadence, or at `r`.

use super::Msg;
use crate::api::Client;
use crate::inbox::{InboxCmd, InboxLink, InboxUpdate, Me};
use crate::store::identity::KeyPrint;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// A profile's own client and key fingerprint, or why it could not be
/// connected.
pub type Connection = Result<(Client, Option<KeyPrint>), String>;

/// How a profile is connected: blocking (it may read the config file and
/// run `api_key_command`), so the walker runs it on a blocking thread.
pub type Connect = Arc<dyn Fn() -> Connection + Send + Sync>;

/// Another profile, and how to connect it.
#[derive(Clone)]
pub struct OtherProfile {
    pub name: String,
    pub connect: Connect,
}

impl std::fmt::Debug for OtherProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The name only.
        f.debug_struct("OtherProfile")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Start the inbox of the user the service named, in their store.
pub(super) fn start_inbox(
    state: &crate::app::state::State,
    client: &Client,
    service_dir: &std::path::Path,
    settings: &crate::config::Settings,
    tx: &mpsc::UnboundedSender<Msg>,
) -> Option<InboxLink> {
    if !settings.cache {
        return None;
    }
    // Only the user whose store is open (never another's).
    let user = state.local.user.as_ref()?;
    let me = match &state.me {
        Some(me) if me.user_id == *user => Me::of(me),
        Some(_) => return None,
        None => Me {
            id: user.clone(),
            ..Default::default()
        },
    };
    let path = crate::store::db_path(service_dir, user);
    let every =
        (settings.inbox_refresh_secs > 0).then(|| Duration::from_secs(settings.inbox_refresh_secs));
    let tx = tx.clone();
    Some(InboxLink::start(
        client.clone(),
        path,
        me,
        every,
        move |u| tx.send(Msg::Inbox(Box::new(u))).is_ok(),
    ))
}

/// The running walkers; dropping them stops them.
#[derive(Default)]
pub struct Walkers {
    senders: HashMap<String, mpsc::UnboundedSender<InboxCmd>>,
    tasks: Vec<(String, tokio::task::JoinHandle<()>)>,
}

impl Walkers {
    /// Start one walker per profile; `every`: the walk's period (`None`:
    /// only when asked). Nothing waits here: each connects by itself.
    pub fn start(
        others: Vec<OtherProfile>,
        every: Option<Duration>,
        tx: &mpsc::UnboundedSender<Msg>,
    ) -> Walkers {
        let mut w = Walkers::default();
        for o in others {
            let (ctx, crx) = mpsc::unbounded_channel();
            w.senders.insert(o.name.clone(), ctx);
            let name = o.name.clone();
            w.tasks
                .push((name, tokio::spawn(walk(o, every, crx, tx.clone()))));
        }
        w
    }

    /// A command for profile `name`'s inbox (none other's).
    pub fn send(&self, name: &str, cmd: InboxCmd) {
        if let Some(s) = self.senders.get(name) {
            let _ = s.send(cmd);
        }
    }

    /// Stop profile `name`'s walker (its inbox is another's shown: one
    /// service and user is one inbox, issue 42 §11); its inbox link ends
    /// with it.
    pub fn stop(&self, name: &str) {
        for (n, t) in &self.tasks {
            if n == name {
                t.abort();
            }
        }
    }
}

impl Drop for Walkers {
    fn drop(&mut self) {
        for (_, t) in &self.tasks {
            t.abort();
        }
    }
}

/// Why the service is not answering, added to what the stored inbox sends
/// (`None`: it answers, or has not been asked yet).
type Offline = Arc<Mutex<Option<String>>>;

async fn walk(
    o: OtherProfile,
    every: Option<Duration>,
    mut rx: mpsc::UnboundedReceiver<InboxCmd>,
    tx: mpsc::UnboundedSender<Msg>,
) {
    let name = o.name;
    let say = |u: InboxUpdate| {
        tx.send(Msg::ProfileInbox(name.clone(), Box::new(u)))
            .is_ok()
    };
    let down = |why: String| InboxUpdate {
        error: Some(why),
        ..Default::default()
    };
    // Connected here, in the background; the key command is bounded in
    // time by its own limit (`api_key_command_timeout_secs`).
    let connect = o.connect;
    let connected = tokio::task::spawn_blocking(move || connect())
        .await
        .unwrap_or_else(|e| Err(format!("could not be connected: {e}")));
    let (client, key_print) = match connected {
        Ok(c) => c,
        Err(why) => {
            say(down(why));
            return;
        }
    };
    let dir = crate::store::service_dir(client.base_url(), false);
    let offline: Offline = Arc::default();
    let open = |me: Me| open_inbox(&client, &dir, me, every, &tx, &name, &offline);
    // Before the service answers: the inbox as stored for the user its
    // key last named (never another's).
    let mut link = key_print
        .as_ref()
        .and_then(|p| crate::store::identity::user_for(&dir, p))
        .map(|id| {
            open(Me {
                id,
                ..Default::default()
            })
        });
    let retry = every.unwrap_or(Duration::from_secs(120));
    // Who the key is, on its own service: until then, said and asked again.
    loop {
        match client.me().await {
            Ok(me) => {
                if let Some(print) = &key_print {
                    let _ = crate::store::identity::remember(&dir, print, &me.user_id);
                }
                *offline.lock().unwrap_or_else(|e| e.into_inner()) = None;
                match &link {
                    // The user the fingerprint said: now with their name.
                    Some(l) if l.user() == me.user_id => l.send(InboxCmd::SetMe(Me::of(&me))),
                    // None yet, or another user: that user's store.
                    _ => link = Some(open(Me::of(&me))),
                }
                break;
            }
            Err(e) => {
                let what = if e.is_auth() {
                    "its key is refused"
                } else {
                    "its service cannot be reached"
                };
                let why = format!("{what}: {e}");
                match &link {
                    Some(l) => {
                        // Said first: the line is cut at the inbox's width.
                        *offline.lock().unwrap_or_else(|e| e.into_inner()) =
                            Some(format!("{what} (its inbox as stored is shown): {e}"));
                        // Sent again, with the line.
                        l.send(InboxCmd::Refresh);
                    }
                    None => {
                        if !say(down(why)) {
                            return;
                        }
                    }
                }
                if e.is_auth() {
                    // The key is refused: not asked again; the stored
                    // inbox, if any, stays (marks read, snoozes…).
                    break;
                }
                // Asked again at the cadence, or at `r` in the inbox; what
                // else is asked meanwhile goes to the stored inbox.
                let wait = tokio::time::sleep(retry);
                tokio::pin!(wait);
                loop {
                    tokio::select! {
                        _ = &mut wait => break,
                        cmd = rx.recv() => match cmd {
                            None => return,
                            Some(InboxCmd::Refresh) => break,
                            Some(cmd) => {
                                if let Some(l) = &link {
                                    l.send(cmd);
                                }
                            }
                        },
                    }
                }
            }
        }
    }
    let Some(link) = link else { return };
    while let Some(cmd) = rx.recv().await {
        link.send(cmd);
    }
}

/// The inbox of `me` in their store of the service folder `dir`, sending
/// as profile `name`, with why the service is not answering, if it is not.
fn open_inbox(
    client: &Client,
    dir: &Path,
    me: Me,
    every: Option<Duration>,
    tx: &mpsc::UnboundedSender<Msg>,
    name: &str,
    offline: &Offline,
) -> InboxLink {
    let path = crate::store::db_path(dir, &me.id);
    let (tx, name, offline) = (tx.clone(), name.to_string(), offline.clone());
    InboxLink::start(client.clone(), path, me, every, move |mut u| {
        if u.error.is_none() {
            u.error = offline.lock().unwrap_or_else(|e| e.into_inner()).clone();
        }
        tx.send(Msg::ProfileInbox(name.clone(), Box::new(u)))
            .is_ok()
    })
}
