//! The inboxes: the current profile's (`start_inbox`: its store's user's)
//! and the other profiles' beside it (issue 36,
//! `inbox_profiles = "all"`): one walker per other profile, each with its
//! own client (its own key and service), its own store (the store of the
//! user its key names, in its service's folder) and its own identity
//! rules. A walker asks the service who the user is, then runs an
//! [`InboxLink`] at the same cadence as the current profile's; what it
//! sends arrives as `Msg::ProfileInbox(name, update)`. Nothing of one
//! profile goes to another: commands for a profile go to its walker only.
//! A service that cannot be reached is said (the update's `error`) and
//! asked again at the same cadence.

use super::Msg;
use crate::api::Client;
use crate::inbox::{InboxCmd, InboxLink, InboxUpdate, Me};
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::mpsc;

/// A profile's own client and key fingerprint, or why it could not be
/// connected.
pub type Connection = Result<(Client, Option<crate::store::identity::KeyPrint>), String>;

/// Another profile, as the CLI connected it (or why it could not).
#[derive(Clone)]
pub struct OtherProfile {
    pub name: String,
    pub connected: Connection,
}

impl std::fmt::Debug for OtherProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The name only: the client holds the key.
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
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Walkers {
    /// Start one walker per profile; `every`: the walk's period (`None`:
    /// only when asked).
    pub fn start(
        others: Vec<OtherProfile>,
        every: Option<Duration>,
        tx: &mpsc::UnboundedSender<Msg>,
    ) -> Walkers {
        let mut w = Walkers::default();
        for o in others {
            let (ctx, crx) = mpsc::unbounded_channel();
            w.senders.insert(o.name.clone(), ctx);
            w.tasks.push(tokio::spawn(walk(o, every, crx, tx.clone())));
        }
        w
    }

    /// A command for profile `name`'s inbox (none other's).
    pub fn send(&self, name: &str, cmd: InboxCmd) {
        if let Some(s) = self.senders.get(name) {
            let _ = s.send(cmd);
        }
    }
}

impl Drop for Walkers {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

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
    let (client, key_print) = match o.connected {
        Ok(c) => c,
        Err(why) => {
            say(down(why));
            return;
        }
    };
    let retry = every.unwrap_or(Duration::from_secs(120));
    // Who the key is, on its own service: until then, said and asked again.
    let me = loop {
        match client.me().await {
            Ok(me) => break me,
            Err(e) => {
                if !say(down(format!("its service cannot be reached: {e}"))) {
                    return;
                }
                if e.is_auth() {
                    return;
                }
                // Asked again at the cadence, or at `r` in the inbox.
                tokio::select! {
                    _ = tokio::time::sleep(retry) => {}
                    cmd = rx.recv() => if cmd.is_none() { return },
                }
            }
        }
    };
    let dir = crate::store::service_dir(client.base_url(), false);
    if let Some(print) = &key_print {
        let _ = crate::store::identity::remember(&dir, print, &me.user_id);
    }
    let path = crate::store::db_path(&dir, &me.user_id);
    let send_tx = tx.clone();
    let send_name = name.clone();
    let link = InboxLink::start(client, path, Me::of(&me), every, move |u| {
        send_tx
            .send(Msg::ProfileInbox(send_name.clone(), Box::new(u)))
            .is_ok()
    });
    while let Some(cmd) = rx.recv().await {
        link.send(cmd);
    }
}
