//! `taskdeck inbox [--json] [--all]`: one walk of the inbox (see
//! `crate::inbox`), then what needs the user, from the same store the TUI
//! uses — so the two agree. Without the service, what was stored is shown
//! and the exit status says the service was not reached; a walk that
//! could not read everything says which part on stderr and exits 3.
//! `--json` carries the service's text exactly; the lines sanitise it, and
//! cut it to the terminal's width only on a terminal.

use super::output::{
    emit, emit_json, say, Failure, Outcome, EXIT_CONNECTION, EXIT_OK, EXIT_PARTIAL,
};
use crate::api::Client;
use crate::inbox::{self, Me, Plan};
use crate::store::{self, Db};

pub async fn run(
    client: &Client,
    cache: bool,
    key_print: Option<store::identity::KeyPrint>,
    json: bool,
    all: bool,
) -> Outcome {
    let now = jiff::Timestamp::now();
    let g = gather(client, cache, key_print, all, now, None).await?;
    let code = match &g.reached {
        Ok(None) => EXIT_OK,
        Ok(Some(part)) => {
            say(&format!(
                "taskdeck: the inbox walk was partial: {} — what was read is shown; the next run reads the rest",
                crate::text::clean(part)
            ));
            EXIT_PARTIAL
        }
        Err(f) => {
            say(&format!(
                "taskdeck: {} — the inbox as stored is shown",
                f.message
            ));
            f.code
        }
    };
    if json {
        let text = serde_json::to_string_pretty(&g.json).unwrap_or_else(|_| "[]".into());
        emit_json(&format!("{text}\n"))?;
        return Ok(code);
    }
    if g.rows.is_empty() {
        emit("Nothing needs you.\n")?;
        return Ok(code);
    }
    let now_s = now.as_second();
    // Cut to the width on a terminal only: into a pipe, whole lines.
    let width = super::table::cut_width();
    let mut text = String::new();
    for r in &g.rows {
        let when = crate::domain::words::age(r.at, now_s);
        let head = format!("{:<8} {:>8}  ", r.label, when);
        super::table::push_line(&mut text, &r.line_pieces(head, now_s), width);
    }
    emit(&text)?;
    Ok(code)
}

/// One profile's inbox: its rows, its `--json` items, and whether its
/// service was reached (else what is stored, and why not; `Some`: the
/// walk was partial, which part is missing).
pub struct Gathered {
    pub rows: Vec<inbox::InboxRow>,
    pub json: Vec<serde_json::Value>,
    pub reached: Result<Option<String>, Failure>,
    /// The store read: one service and user (issue 42, point 11).
    pub store: std::path::PathBuf,
}

/// One walk, then the inbox from the user's store. `profile`: said in
/// the notes (one of several walks).
pub async fn gather(
    client: &Client,
    cache: bool,
    key_print: Option<store::identity::KeyPrint>,
    all: bool,
    now: jiff::Timestamp,
    profile: Option<&str>,
) -> Result<Gathered, Failure> {
    let who = profile
        .map(|p| format!("profile {p}: "))
        .unwrap_or_default();
    if !cache {
        return Err(Failure::usage(
            "the inbox is kept in the local store, and `cache = false` in the config turns it off",
        ));
    }
    let base = client.base_url().to_string();
    let (db, reached, path) = match client.me().await {
        Ok(me) => {
            let dir = store::service_dir(&base, false);
            if let Some(print) = &key_print {
                let _ = store::identity::remember(&dir, print, &me.user_id);
            }
            let path = store::db_path(&dir, &me.user_id);
            let (mut db, note) = Db::open(&path).map_err(Failure::failed)?;
            if let Some(n) = note {
                say(&format!("taskdeck: {who}{n}"));
            }
            db.set_owner(&me.user_id);
            let me = Me::of(&me);
            let r = inbox::cycle(client, &mut db, &me, &Plan::default(), now).await;
            let reached = match r {
                Ok(report) => {
                    if report.first {
                        say(&format!("taskdeck: {who}the inbox has just started following your tasks: changes from now on will show here"));
                    }
                    if report.comments_unavailable {
                        say(&format!("taskdeck: {who}this service does not list comments: new comments are not in the inbox"));
                    }
                    Ok(report.partial())
                }
                Err(inbox::CycleError::Service(e)) => {
                    Err(offline_or(Failure::api("reading the inbox", &e), &e))
                }
                Err(e) => return Err(Failure::failed(format!("reading the inbox failed: {e}"))),
            };
            (db, reached, path)
        }
        Err(e) => {
            // Offline: the key's own user's store, if it was ever seen.
            let failure = offline_or(Failure::api("reaching the service", &e), &e);
            if e.is_auth() {
                return Err(failure);
            }
            let dir = store::existing_service_dir(&base);
            let user = key_print
                .as_ref()
                .and_then(|p| store::identity::user_for(&dir, p));
            let Some(user) = user else {
                return Err(failure);
            };
            let path = store::db_path(&dir, &user);
            let (db, _) = Db::open(&path).map_err(Failure::failed)?;
            (db, Err(failure), path)
        }
    };
    let items = db
        .inbox_items(all)
        .map_err(|e| Failure::failed(e.to_string()))?;
    let marks = db
        .inbox_marks()
        .map_err(|e| Failure::failed(e.to_string()))?;
    let now_s = now.as_second();
    let rows = inbox::group(&items, &marks, now_s);
    let json = inbox::json_items(&rows, &items, &marks)
        .iter()
        .map(|i| serde_json::to_value(i).unwrap_or_default())
        .collect();
    Ok(Gathered {
        rows,
        json,
        reached,
        store: path,
    })
}

/// The service could not be reached at all (or the connection broke):
/// exit 5, like a TLS or proxy failure; any other failure keeps its code
/// (a refused key 4, an odd answer 1).
fn offline_or(mut f: Failure, e: &crate::api::ApiError) -> Failure {
    use crate::api::ApiError;
    if e.unreachable() || matches!(e, ApiError::Network { .. } | ApiError::Timeout { .. }) {
        f.code = EXIT_CONNECTION;
    }
    f
}
