//! The API worker: every request runs as its own task (never one at a
//! time); a newer request of the same slot aborts the older one. Writes
//! of one task go out one after the other, each once the one before it
//! is answered: sent side by side, two quick edits of a field could reach
//! the service in either order and leave the first one standing.
//!
//! Each write's course is kept (`Gate`): waiting for the one before it,
//! gone out, or stopped. When the session ends (a quit, a signal, a
//! `:profile` switch) the writes still waiting are stopped
//! (`Worker::stop_unsent`): a session that is over sends nothing more
//! (after a switch its tasks would still run, with the old profile's
//! client, their answers lost). A write goes out only if the one before
//! it did, so one stopped stops those behind it. The loop keeps the
//! stopped ones in their user's outbox, said as never sent.

use crate::api::*;
use crate::app::state::{ApiRequest, ApiResult, Reply};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

pub struct Worker {
    /// The service cannot be reached: everything but the identity probe
    /// is answered "unreachable" at once, without going out.
    pub offline: bool,
    client: Client,
    tx: UnboundedSender<super::msg::Msg>,
    slots: HashMap<&'static str, JoinHandle<()>>,
    /// Prefetches in flight by ticket: a cursor move cancels those no
    /// longer near.
    prefetches: HashMap<u64, JoinHandle<()>>,
    /// The last write of each task: answered (or ended) when its sender
    /// is dropped. The next write of that task waits for it.
    writes: HashMap<String, (tokio::sync::oneshot::Receiver<()>, Gate)>,
    /// Each write not yet answered, by ticket: its course.
    gates: HashMap<u64, Gate>,
}

/// A write's course, shared by the worker and the write's task.
type Gate = Arc<AtomicU8>;
/// Waiting for the write of its task before it.
const WAITING: u8 = 0;
/// Its request went out (its outcome unknown until answered).
const SENT: u8 = 1;
/// Stopped before it went out: never sent.
const STOPPED: u8 = 2;
/// Answered, or ended.
const DONE: u8 = 3;

impl Worker {
    pub fn new(client: Client, tx: UnboundedSender<super::msg::Msg>) -> Self {
        Worker {
            offline: false,
            client,
            tx,
            slots: HashMap::new(),
            prefetches: HashMap::new(),
            writes: HashMap::new(),
            gates: HashMap::new(),
        }
    }

    /// The session ends: every write still waiting for the one before it
    /// is stopped and never goes out. Returns the tickets of the writes
    /// never sent, in order (those in flight go on: their outcome is
    /// unknown).
    pub fn stop_unsent(&mut self) -> Vec<u64> {
        for gate in self.gates.values() {
            let _ = gate.compare_exchange(WAITING, STOPPED, Ordering::SeqCst, Ordering::SeqCst);
        }
        let mut stopped: Vec<u64> = self
            .gates
            .iter()
            .filter(|(_, g)| g.load(Ordering::SeqCst) == STOPPED)
            .map(|(t, _)| *t)
            .collect();
        stopped.sort_unstable();
        stopped
    }

    /// The loop's channel, for other work done off the loop (custom
    /// commands).
    pub fn sender(&self) -> UnboundedSender<super::msg::Msg> {
        self.tx.clone()
    }

    pub fn spawn(&mut self, ticket: u64, req: Box<ApiRequest>) {
        let tx = self.tx.clone();
        if self.offline && !matches!(*req, ApiRequest::Me) {
            let _ = tx.send(super::msg::Msg::Api(Box::new(ApiResult {
                ticket,
                req: *req,
                result: Err(ApiError::Unreachable {
                    message: "offline — taskdeck keeps trying in the background".into(),
                }),
            })));
            return;
        }
        let client = self.client.clone();
        let slot = req.slot();
        let prefetch = matches!(*req, ApiRequest::Prefetch(_));
        // A write of a task waits for the one before it (in the order
        // made); `done` is dropped when this one is answered or ended.
        // Its gate: it goes out only if the one before went out (its gate
        // is `SENT` or `DONE`), and only if the session did not stop it.
        let (done, before, gate) = match req.written_task() {
            Some(id) => {
                let (done, next) = tokio::sync::oneshot::channel::<()>();
                // Those answered are forgotten.
                self.writes.retain(|_, (r, _)| {
                    matches!(
                        r.try_recv(),
                        Err(tokio::sync::oneshot::error::TryRecvError::Empty)
                    )
                });
                self.gates.retain(|_, g| g.load(Ordering::SeqCst) != DONE);
                let gate: Gate = Arc::new(AtomicU8::new(WAITING));
                self.gates.insert(ticket, gate.clone());
                let before = self.writes.insert(id.to_string(), (next, gate.clone()));
                (Some(done), before, Some(gate))
            }
            None => (None, None, None),
        };
        let handle = tokio::spawn(async move {
            if let Some((before, before_gate)) = before {
                let _ = before.await;
                // The one before was stopped: so is this one (never sent
                // out of order).
                if before_gate.load(Ordering::SeqCst) == STOPPED {
                    if let Some(g) = &gate {
                        let _ = g.compare_exchange(
                            WAITING,
                            STOPPED,
                            Ordering::SeqCst,
                            Ordering::SeqCst,
                        );
                    }
                }
            }
            if let Some(g) = &gate {
                if g.compare_exchange(WAITING, SENT, Ordering::SeqCst, Ordering::SeqCst)
                    .is_err()
                {
                    // Stopped: never sent, never answered (the loop said it).
                    return;
                }
            }
            let result = execute(&client, &req).await;
            if let Some(g) = &gate {
                g.store(DONE, Ordering::SeqCst);
            }
            drop(done);
            let _ = tx.send(super::msg::Msg::Api(Box::new(ApiResult {
                ticket,
                req: *req,
                result,
            })));
        });
        if let Some(slot) = slot {
            if let Some(old) = self.slots.insert(slot, handle) {
                // Superseded: its answer would be stale anyway.
                old.abort();
            }
        } else if prefetch {
            self.prefetches.retain(|_, h| !h.is_finished());
            self.prefetches.insert(ticket, handle);
        }
    }

    /// A prefetch is no longer wanted: stop it (no answer will come).
    pub fn cancel(&mut self, ticket: u64) {
        if let Some(h) = self.prefetches.remove(&ticket) {
            h.abort();
        }
    }
}

pub async fn execute(c: &Client, req: &ApiRequest) -> Result<Reply, ApiError> {
    Ok(match req {
        ApiRequest::Me => Reply::Me(c.me().await?),
        ApiRequest::ListPage {
            query,
            limit,
            cursor,
            ..
        }
        | ApiRequest::RefreshPage {
            query,
            limit,
            cursor,
            ..
        } => Reply::Page(c.list_tasks(query, *limit, cursor.as_deref()).await?),
        ApiRequest::FindByNumber { number, limit } => find_by_number(c, *number, *limit).await?,
        ApiRequest::GetTask { id } => Reply::Task(Box::new(c.get_task(id).await?)),
        ApiRequest::PickTasks {
            number: Some(n), ..
        } => find_by_number(c, *n, 100).await?,
        ApiRequest::PickTasks { query, .. } => Reply::Page(
            c.list_tasks(query, crate::app::edit::pickers::PICK_LIMIT, None)
                .await?,
        ),
        ApiRequest::Patch { id, patch } => Reply::Task(Box::new(c.patch_task(id, patch).await?)),
        ApiRequest::Delete { id } => {
            c.delete_task(id).await?;
            Reply::Deleted
        }
        ApiRequest::Subtasks { id } => Reply::Items(c.subtasks(id).await?),
        ApiRequest::CreateSubtask { parent, title } => Reply::Task(Box::new(
            c.create_task(&NewTask {
                title: title.clone(),
                description: None,
                parent_task_id: Some(parent.clone()),
            })
            .await?,
        )),
        ApiRequest::Comments { id } => Reply::Comments(c.list_comments(id).await?),
        ApiRequest::Thread { id } => Reply::Messages(c.list_thread(id).await?),
        ApiRequest::AddComment {
            id,
            content,
            file_ids,
        } => Reply::Comment(c.add_comment(id, content, file_ids).await?),
        ApiRequest::ReplyComment {
            id,
            comment_id,
            content,
            file_ids,
        } => Reply::Comment(
            c.reply_to_comment(id, comment_id, content, file_ids)
                .await?,
        ),
        ApiRequest::EditComment {
            id,
            comment_id,
            content,
        } => Reply::Comment(c.edit_comment(id, comment_id, content).await?),
        ApiRequest::ReplyRequester {
            id,
            content,
            file_ids,
        } => Reply::Message(c.reply_to_requester(id, content, file_ids).await?),
        ApiRequest::AddLinks { id, links } => {
            let refs: Vec<LinkRef> = links.iter().map(|(k, i)| LinkRef::new(k, i)).collect();
            Reply::Task(Box::new(c.add_links(id, &refs).await?))
        }
        ApiRequest::UpdateLink {
            id,
            kind,
            item,
            update,
        } => Reply::Task(Box::new(c.update_link(id, kind, item, update).await?)),
        ApiRequest::RemoveLink { id, kind, item } => {
            Reply::Task(Box::new(c.remove_link(id, kind, item).await?))
        }
        ApiRequest::GetSharing { id } | ApiRequest::SharingForEdit { id } => {
            Reply::Sharing(c.get_sharing(id).await?)
        }
        ApiRequest::PutSharing { id, update } => Reply::Sharing(c.put_sharing(id, update).await?),
        ApiRequest::Attach { id, file_ids } => {
            Reply::Task(Box::new(c.attach_files(id, file_ids).await?))
        }
        ApiRequest::Detach { id, file_id } => {
            Reply::Task(Box::new(c.detach_file(id, file_id).await?))
        }
        ApiRequest::Validate { layout, .. } => {
            let (l, raw) = c.validate_layout(layout).await?;
            Reply::Layout(Box::new(l), raw)
        }
        ApiRequest::ViewCount { query, limit, .. } => {
            Reply::Page(c.list_tasks(query, *limit, None).await?)
        }
        // Executed like the read it wraps (never a write: see `prefetch.rs`).
        ApiRequest::Prefetch(inner) => return Box::pin(execute(c, inner)).await,
    })
}

/// Find `#number` among the tasks the user can see: a search for the
/// number (as `#N` and as `N`) and a walk of the list (bounded) run at
/// once, the first to find it wins — over a slow link the search no longer
/// delays the walk by two round trips when the service does not search
/// numbers. Every row read on the way is in the answer, for the number
/// index (`numbers.rs`).
async fn find_by_number(c: &Client, number: i64, limit: u32) -> Result<Reply, ApiError> {
    use futures::future::FutureExt;
    use futures::stream::{FuturesUnordered, StreamExt};
    let seen = std::sync::Mutex::new(Vec::new());
    let ways: FuturesUnordered<_> = [Some(format!("#{number}")), Some(number.to_string()), None]
        .into_iter()
        .map(|query| find_in(c, number, limit, query, &seen).boxed())
        .collect();
    let mut ways = ways;
    let mut failed = None;
    let mut found = None;
    while let Some(r) = ways.next().await {
        match r {
            Ok(Some(t)) => {
                found = Some(Box::new(t));
                break;
            }
            Ok(None) => {}
            Err(e) => failed = Some(e),
        }
    }
    drop(ways);
    let seen = seen.into_inner().unwrap_or_default();
    match (found, failed) {
        (None, Some(e)) => Err(e),
        (found, _) => Ok(Reply::Found(found, seen)),
    }
}

/// One way of looking for `#number`: the pages of `query` (a search: 3
/// pages; the whole list: 100).
async fn find_in(
    c: &Client,
    number: i64,
    limit: u32,
    query: Option<String>,
    seen: &std::sync::Mutex<Vec<crate::store::Numbered>>,
) -> Result<Option<Task>, ApiError> {
    let matches =
        |t: &Task| t.task_number == Some(number) || t.display_id.raw() == format!("#{number}");
    let pages = if query.is_some() { 3 } else { 100 };
    let q = TaskQuery {
        query,
        ..Default::default()
    };
    let mut cursor: Option<String> = None;
    for _ in 0..pages {
        let page = c.list_tasks(&q, limit, cursor.as_deref()).await?;
        if let Ok(mut seen) = seen.lock() {
            let rows = page.items.iter().filter_map(|i| i.task());
            seen.extend(rows.filter_map(crate::app::list::numbers::numbered));
        }
        if let Some(t) = page
            .items
            .iter()
            .filter_map(|i| i.task())
            .find(|t| matches(t))
        {
            return Ok(Some(t.clone()));
        }
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{Sandbox, SandboxOptions};

    /// The adversarial pass, point 3: quick edits of one field under
    /// latency. Sent side by side they reached the service in any order
    /// (seen by hand: `:status in_progress` then `:status waiting…` left
    /// the task in progress). Now each write of a task goes out once the
    /// one before is answered: answered in the order made, the last stands.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn quick_writes_of_one_task_reach_the_service_in_the_order_made() {
        let sb = Sandbox::start_local(SandboxOptions {
            tasks: 30,
            faults: "delay=200".parse().unwrap(),
            ..Default::default()
        })
        .await
        .unwrap();
        let client = sb.client(0);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut w = Worker::new(client, tx);
        let id = sb.task_json("#12").unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let order = [
            Priority::Low,
            Priority::Medium,
            Priority::High,
            Priority::Urgent,
            Priority::Low,
            Priority::Medium,
        ];
        for (ticket, p) in order.iter().enumerate() {
            let patch = TaskPatch {
                priority: Some(p.clone()),
                ..Default::default()
            };
            let req = ApiRequest::Patch {
                id: id.clone(),
                patch,
            };
            w.spawn(ticket as u64, Box::new(req));
        }
        let mut answered = Vec::new();
        while answered.len() < order.len() {
            if let Some(super::super::msg::Msg::Api(r)) = rx.recv().await {
                assert!(r.result.is_ok(), "{:?}", r.result);
                answered.push(r.ticket);
            }
        }
        assert_eq!(answered, (0..order.len() as u64).collect::<Vec<_>>());
        assert_eq!(sb.task_json("#12").unwrap()["priority"], "medium");
    }

    /// After a `:profile` switch, the review found a task's chained write
    /// still going out: the old session's task ran on, with Alice's client,
    /// its answer lost, while her outbox called it "outcome unknown" (and
    /// a quick switch back could send it again). Now the session's end
    /// stops every write still waiting for the one before it: never sent,
    /// by Alice's old session or with Bob's key; the write in flight goes
    /// on, as Alice, to Alice's service.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_waiting_when_the_session_ends_is_stopped_never_sent() {
        use super::super::msg::Msg;
        let sb = Sandbox::start_local(SandboxOptions {
            tasks: 30,
            faults: "delay=300".parse().unwrap(),
            ..Default::default()
        })
        .await
        .unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut alice = Worker::new(sb.client(0), tx.clone());
        let id = sb.task_json("#12").unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let before = sb.task_json("#12").unwrap()["priority"].clone();
        let (first, second) = if before == "low" {
            (Priority::High, Priority::Medium)
        } else {
            (Priority::Low, Priority::Medium)
        };
        let patch = |p: Priority| {
            Box::new(ApiRequest::Patch {
                id: id.clone(),
                patch: TaskPatch {
                    priority: Some(p),
                    ..Default::default()
                },
            })
        };
        let patches = || -> Vec<Option<String>> {
            sb.requests()
                .into_iter()
                .filter(|r| r.method == "PATCH" && r.path.ends_with(&id))
                .map(|r| r.caller)
                .collect()
        };
        alice.spawn(1, patch(first.clone()));
        alice.spawn(2, patch(second));
        // The first is at the service (answered in 300 ms); the second
        // waits for its answer.
        while patches().is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        // `:profile bob`: Alice's session ends.
        assert_eq!(alice.stop_unsent(), vec![2], "the waiting write is stopped");
        drop(alice);
        let mut bob = Worker::new(sb.client(1), tx);
        bob.spawn(3, Box::new(ApiRequest::Me));
        // Bob's `/me` is answered after anything sent before it arrived.
        let mut answered = Vec::new();
        while !answered.contains(&3) || !answered.contains(&1) {
            if let Some(Msg::Api(r)) = rx.recv().await {
                assert!(r.result.is_ok(), "{:?}", r.result);
                answered.push(r.ticket);
            }
        }
        assert!(!answered.contains(&2), "never sent: {answered:?}");
        assert_eq!(
            patches(),
            vec![Some("alice@acme.test".to_string())],
            "the write in flight went out once, as Alice; the stopped one never"
        );
        let want = serde_json::to_value(&first).unwrap();
        assert_eq!(sb.task_json("#12").unwrap()["priority"], want);
    }
}
