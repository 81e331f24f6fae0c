//! `taskdeck macro NAME N [N…] [--json] [--yes]` (issue 44 §2): a macro of
//! the config file run on the tasks named by number, through the TUI's own
//! code — the app's state without a screen: `State::prepare_macro_on`
//! renders and reviews it, the bulk engine (`State::start_run`, answers
//! through `State::on_api`) sends its steps, and `engine.last_macro` says
//! per task and step what became of it. Requests are carried out here one
//! at a time (`tui::worker::execute`); the follow-up and snooze are stored
//! in the user's store (the inbox's marks), and a field change the service
//! could not be reached for goes to the store's outbox, which the TUI
//! sends. Nothing here renders or sends a step itself.

use super::output::{
    emit, emit_json, say, Failure, Outcome, EXIT_CONNECTION, EXIT_FAILED, EXIT_OK, EXIT_USAGE,
};
use crate::api::{ApiError, Client, Task};
use crate::app::state::{ApiRequest, ApiResult, Effect, Reply, State};
use crate::config::Config;
use crate::domain::macros::MacroTask;
use crate::inbox::InboxCmd;
use crate::store::worker::Server;
use crate::store::Db;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::IsTerminal;
use std::time::Duration;

pub struct Ask {
    pub name: String,
    pub numbers: Vec<i64>,
    pub json: bool,
    pub yes: bool,
}

/// The service's part, bounded by `--timeout` (the question is not).
async fn bounded<T>(
    limit: Duration,
    f: impl std::future::Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    tokio::time::timeout(limit, f).await.unwrap_or_else(|_| {
        Err(Failure::failed(format!(
            "macro: timed out: no complete answer from the service within {} s \
             (--timeout or TASKDECK_TIMEOUT sets the limit)",
            limit.as_secs()
        )))
    })
}

pub async fn run(client: &Client, config: &Config, ask: &Ask, limit: Duration) -> Outcome {
    let settings = &config.settings;
    // An unknown macro, or one the config check refused, before anything
    // is asked of the service.
    let s = crate::app::new_state(client.host(), settings, false);
    let m = s.find_macro(&ask.name).map_err(|_| refused(config, ask))?;
    let (mut s, mut store) = bounded(limit, connect(client, config, s)).await?;
    let tasks = bounded(limit, tasks(client, &mut s, &ask.numbers)).await?;
    let now = crate::clock::timestamp();
    let (run, review) = s
        .prepare_macro_on(m, tasks, false, now)
        .map_err(|e| Failure::usage(format!("macro {}: {e}", clean(&ask.name))))?;
    if !ask.json {
        let mut text = format!("{}:\n", clean(&run.title));
        for l in &review {
            text.push_str(&clean(l));
            text.push('\n');
        }
        emit(&text)?;
    }
    if !ask.yes {
        if !std::io::stdin().is_terminal() {
            return Err(Failure::usage(
                "nothing sent: stdin is not a terminal to ask y/N on; add --yes to run it without asking",
            ));
        }
        eprint!("Run it? [y/N] ");
        let mut answer = String::new();
        let _ = std::io::stdin().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            say("taskdeck: nothing sent");
            return Ok(EXIT_FAILED);
        }
    }
    let id = run.id;
    s.engine.prepared = Some(run);
    let fx = s.start_run(id);
    // The limit bounds each request, not the run: a run cut off whole
    // would say nothing of the steps already sent, and a rerun would post
    // their replies again. A request without an answer in time is that
    // step's outcome unknown (never sent again), and the summary says so.
    carry(client, &mut s, &mut store, fx, limit).await?;
    let (outcomes, said) = s
        .engine
        .last_macro
        .take()
        .ok_or_else(|| Failure::failed("the macro run did not end"))?;
    let code = exit_code(&outcomes);
    if ask.json {
        let text = serde_json::to_string_pretty(&outcomes).unwrap_or_else(|_| "[]".into());
        emit_json(&format!("{text}\n"))?;
    } else {
        // The TUI's own summary (kept with the run: the status line may say
        // something else after it): its head, then one task a line.
        let (head, tasks) = said.split_once(" — ").unwrap_or((said.as_str(), ""));
        let mut text = format!("{head}:\n");
        for part in tasks.split(" · ").filter(|p| !p.is_empty()) {
            text.push_str(&format!("  {part}\n"));
        }
        emit(&text)?;
    }
    Ok(code)
}

/// Not offered: a fault the config check names (`config check` fails on
/// it), else no such macro.
fn refused(config: &Config, ask: &Ask) -> Failure {
    let quoted = format!("macro {:?}", ask.name);
    let faults: Vec<String> = config
        .diagnostics
        .iter()
        .filter(|d| d.message.contains(&quoted))
        .map(|d| match d.line {
            Some(l) => format!("{}:{l}: {}", config.path.display(), clean(&d.message)),
            None => clean(&d.message),
        })
        .collect();
    if !faults.is_empty() {
        return Failure {
            code: EXIT_USAGE,
            message: format!(
                "macro {} has a fault in the config and is never run: nothing sent",
                clean(&ask.name)
            ),
            hint: Some(faults.join("\n")),
        };
    }
    let names: Vec<&str> = config
        .settings
        .macros
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    Failure::usage(format!(
        "no macro {} in the config ({}): nothing sent",
        clean(&ask.name),
        if names.is_empty() {
            "it has none: add [[macros]], docs/macros.md".to_string()
        } else {
            format!("known: {}", names.join(", "))
        }
    ))
}

/// Who the key acts as (the state learns it as the TUI's does), and the
/// user's store: its inbox marks (follow-up, snooze) and its outbox.
async fn connect(
    client: &Client,
    config: &Config,
    mut s: State,
) -> Result<(State, Option<(Db, Server)>), Failure> {
    let me = client
        .me()
        .await
        .map_err(|e| api("reaching the service", &e))?;
    let dir = crate::store::service_dir(client.base_url(), false);
    s.drafts = crate::app::state::drafts::Drafts::per_user(crate::store::identity::service_folder(
        &crate::config::state_dir().join("drafts"),
        client.base_url(),
        false,
    ));
    let mut store = None;
    if config.settings.cache {
        let path = crate::store::db_path(&dir, &me.user_id);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        match Db::open_for(&path, &me.user_id) {
            Ok((db, note, _)) => {
                if let Some(n) = note {
                    say(&format!("taskdeck: {n}"));
                }
                s.inbox.last.marks = db.inbox_marks().unwrap_or_default();
                s.inbox.running = true;
                s.local.on = true;
                s.local.busy = false;
                s.local.user = Some(me.user_id.clone());
                store = Some((db, Server::new(crate::store::DEFAULT_MAX_TASKS, None)));
            }
            Err(e) => say(&format!("taskdeck: the local store did not open: {e}")),
        }
    } else {
        s.inbox.off = Some(
            "the inbox is kept in the local store, and `cache = false` in the config turns it off"
                .into(),
        );
    }
    let fx = s.request(ApiRequest::Me);
    if let Effect::Api { ticket, req } = fx {
        let _ = s.on_api(ApiResult {
            ticket,
            req: *req,
            result: Ok(Reply::Me(me)),
        });
    }
    s.local.out.clear();
    Ok((s, store))
}

/// The tasks by number, each with its requester thread (`{requester}`).
async fn tasks(client: &Client, s: &mut State, numbers: &[i64]) -> Result<Vec<Task>, Failure> {
    let mut out: Vec<Task> = Vec::new();
    for &n in numbers {
        let req = ApiRequest::FindByNumber {
            number: n,
            limit: 100,
        };
        let t = match crate::tui::worker::execute(client, &req).await {
            Ok(Reply::Found(Some(t), _)) => *t,
            Ok(_) => {
                return Err(Failure::usage(format!(
                    "task #{n}: not found: nothing sent"
                )))
            }
            Err(e) => return Err(api(&format!("reading task #{n}"), &e)),
        };
        if out.iter().any(|o| o.id == t.id) {
            continue;
        }
        let thread = ApiRequest::Thread {
            id: t.id.as_str().to_string(),
        };
        // No requester thread (404: the feature is off, none for this task,
        // or no listing of it): `{requester}` is the creator. Any other failure to read it
        // refuses the run: a reply addressed to the creator in place of a
        // requester the service could not name now would be wrong.
        match crate::tui::worker::execute(client, &thread).await {
            Ok(Reply::Messages(m)) => {
                s.replies.insert(t.id.as_str().to_string(), m);
            }
            Ok(_)
            | Err(
                ApiError::NotFound { .. }
                | ApiError::FeatureDisabled { .. }
                | ApiError::NotAvailable { .. },
            ) => {}
            Err(e) => {
                return Err(api(
                    &format!("reading the requester thread of task #{n} (nothing sent)"),
                    &e,
                ))
            }
        }
        out.push(t);
    }
    Ok(out)
}

/// Carry out the run's effects until nothing more comes of them: each
/// request sent and answered to the state, the store's commands served,
/// the inbox's marks stored.
async fn carry(
    client: &Client,
    s: &mut State,
    store: &mut Option<(Db, Server)>,
    fx: Vec<Effect>,
    limit: Duration,
) -> Result<(), Failure> {
    let mut queue: VecDeque<Effect> = fx.into();
    loop {
        while let Some(e) = queue.pop_front() {
            match e {
                Effect::Api { ticket, req } => {
                    // Older edits of its task wait in the outbox: it joins them.
                    if let Some(fx) = s.send_or_hold(ticket, &req) {
                        queue.extend(fx);
                        continue;
                    }
                    let result =
                        tokio::time::timeout(limit, crate::tui::worker::execute(client, &req))
                            .await
                            .unwrap_or_else(|_| {
                                Err(ApiError::Timeout {
                                    what: format!("no answer within {} s", limit.as_secs()),
                                })
                            });
                    queue.extend(s.on_api(ApiResult {
                        ticket,
                        req: *req,
                        result,
                    }));
                }
                Effect::Inbox(cmd) => {
                    if let Some((db, _)) = store.as_mut() {
                        let r = match &cmd {
                            InboxCmd::Mark(m) => db.inbox_mark(m),
                            InboxCmd::Unmark(id, kind) => db.inbox_unmark(id, *kind).map(|_| ()),
                            _ => Ok(()),
                        };
                        if let Err(e) = r {
                            say(&format!(
                                "taskdeck: a follow-up or snooze was not stored: {e}"
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
        let answers = RefCell::new(Vec::new());
        match store.as_mut() {
            Some((db, server)) => {
                for cmd in std::mem::take(&mut s.local.out) {
                    server.serve(db, cmd, &|a| answers.borrow_mut().push(a));
                }
            }
            None => s.local.out.clear(),
        }
        let answers = answers.into_inner();
        if answers.is_empty() && queue.is_empty() {
            return Ok(());
        }
        for a in answers {
            queue.extend(s.on_store(a));
        }
    }
}

/// 0 every step done; 1 a step failed (or its outcome is unknown); 5 a
/// step waits for the service (queued, or kept as a draft).
fn exit_code(outcomes: &[MacroTask]) -> i32 {
    let steps = || outcomes.iter().flat_map(|t| t.steps.iter());
    if steps().any(|s| matches!(s.outcome, "failed" | "unknown")) {
        EXIT_FAILED
    } else if steps().any(|s| matches!(s.outcome, "queued" | "not_sent")) {
        EXIT_CONNECTION
    } else {
        EXIT_OK
    }
}

fn api(what: &str, e: &ApiError) -> Failure {
    let mut f = Failure::api(what, e);
    if e.unreachable() || matches!(e, ApiError::Network { .. } | ApiError::Timeout { .. }) {
        f.code = EXIT_CONNECTION;
    }
    f
}

fn clean(s: &str) -> String {
    crate::text::clean(s)
}
