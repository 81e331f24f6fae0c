//! One walk of the inbox: the tasks involving the user, page by page (each
//! page's rows stored for search as it arrives), the comments of the tasks
//! that need a look, a read of the tasks that left, a few reads of the
//! tasks they link to (for drafts, see [`super::drafts`]), then one
//! transaction in the store, then the comments of a share of the archived
//! tasks (see [`super::archived`]). Its cost is bounded whatever the
//! organisation's size (see [`Plan`] and docs/inbox.md's formula):
//!
//! requests = ⌈I / 100⌉ pages + min(C, M + ⌈O / 2⌉ + ⌈F / 3⌉) comment
//!            reads + min(G, gone) + min(D, L) task reads
//!            + min(R, ⌈A / 3⌉) comment reads of archived tasks
//!
//! (the first walk of a store: the pages, min(C, O) comment reads, to
//! know the comments there are, and min(D, L) task reads; while the inbox
//! is learning — its first walk stopped early, no walk since was whole —
//! the open tasks it has no base of are read beside the M, within C)
//!
//! where I is the tasks involving the user, M those that changed since the
//! last walk, O the open ones (a rotating half each walk, so a comment that
//! does not move its task's `updated_at` is seen within two walks), F the
//! completed ones (a rotating third: within three walks), C, G and D the
//! caps below, L the tasks the walk's tasks link to that it does not hold
//! (ids only are held). Archived tasks are in no list (the spec): those
//! the gone reads saw archived are kept, A of them (at most
//! `store::ARCHIVED_KEPT`), and read in turn, R at most (see
//! [`super::archived`]).

use super::derive::{self, Me};
use super::reads::Reads;
use super::rotation::by_offset;
use super::snapshot::{Held, Snapshot};
use crate::api::{ApiError, Comment, Task, TaskItem, TaskQuery};
use crate::store::{Db, InboxBase, InboxItem, MarkKind, StoredTask, WalkRow, Walked};
use jiff::Timestamp;
use std::collections::{HashMap, HashSet};

/// How far the service's clock may be behind ours: a comment that many
/// seconds older than when the inbox began to follow its task (and never
/// read before) is still new. (A base version further ahead of our clock
/// than this orders nothing: see `derive::moved`.)
pub const CLOCK_SKEW_SECS: i64 = crate::store::CLOCK_SKEW_SECS;

/// How much one walk may ask.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The page size of the walk (the service's largest).
    pub page: u32,
    /// At most this many pages (beyond: the walk is partial, said so).
    pub max_pages: usize,
    /// C: comment reads per walk at most.
    pub comment_reads: usize,
    /// G: reads of tasks that left the walk, per walk at most.
    pub gone_reads: usize,
    /// D: reads of tasks the walk links to and does not hold (no list
    /// gives a draft), per walk at most.
    pub link_reads: usize,
    /// R: comment reads of archived tasks per walk at most (⌈A / 3⌉
    /// below it: see [`super::archived`]).
    pub archived_reads: usize,
    /// Requests at once.
    pub concurrency: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            page: 100,
            max_pages: 200,
            comment_reads: 250,
            gone_reads: 10,
            link_reads: 5,
            archived_reads: 100,
            concurrency: 4,
        }
    }
}

/// What a walk did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CycleReport {
    pub pages: usize,
    pub comment_reads: usize,
    pub task_reads: usize,
    pub tasks: usize,
    pub new_items: usize,
    /// Every page was read (tasks that left can be told).
    pub complete: bool,
    /// The first walk of this store: it learned, nothing was news.
    pub first: bool,
    /// Comments could not be read (the service lacks the listing).
    pub comments_unavailable: bool,
    /// A page after the first failed (the walk stopped there; `complete`
    /// is false, as it is when the page cap was reached).
    pub page_failed: bool,
    /// Tasks whose comments could not be read (an error, a garbled
    /// answer): their news waits for the next walk.
    pub comments_failed: usize,
    /// Tasks that left the walk and could not be read to say why.
    pub gone_failed: usize,
    /// Comments that could not be read (even with lone surrogates
    /// replaced) and that no walk had met before: said once, then known
    /// (their print kept with the task's comments), so a comment that
    /// stays unreadable never makes every walk partial (issue 42 §10).
    pub comments_unreadable: usize,
    /// Tasks of the walk that could not be read (a row the JSON reader
    /// refused) and that the last walk had not met: said once, as
    /// unreadable comments are (their prints kept in the store's `meta`).
    pub tasks_unreadable: usize,
}

impl CycleReport {
    pub fn requests(&self) -> usize {
        self.pages + self.comment_reads + self.task_reads
    }

    /// What the walk could not read, in words (`None`: all of it). Said
    /// on stderr by `taskdeck inbox` (exit 3) and on the TUI's status
    /// line ("inbox partly refreshed: …").
    pub fn partial(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.page_failed {
            parts.push(format!(
                "the task list stopped after page {} (a page failed)",
                self.pages
            ));
        } else if !self.complete && self.pages > 0 {
            parts.push(format!(
                "the task list stopped at its limit of {} pages",
                self.pages
            ));
        }
        if self.comments_failed > 0 {
            parts.push(format!(
                "the comments of {} could not be read",
                crate::domain::words::plural(self.comments_failed, "task", "tasks")
            ));
        }
        if self.comments_unreadable > 0 {
            parts.push(format!(
                "{} could not be read (said once; the log has why)",
                crate::domain::words::plural(self.comments_unreadable, "comment", "comments")
            ));
        }
        if self.tasks_unreadable > 0 {
            parts.push(format!(
                "{} could not be read (said once; the log has why)",
                crate::domain::words::plural(self.tasks_unreadable, "task", "tasks")
            ));
        }
        if self.gone_failed > 0 {
            parts.push(format!(
                "{} that left your tasks could not be read",
                crate::domain::words::plural(self.gone_failed, "task", "tasks")
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// What the inbox knows of a task after a walk read it (`comments`: what
/// its comment read found, `None`: not read): the snapshot, the comments
/// by id and by [`derive::comment_print`], whether its reminder holds.
pub fn new_base(
    task_id: &str,
    s: &Snapshot,
    comments: Option<&[Comment]>,
    since: i64,
    now: Timestamp,
) -> InboxBase {
    let json = serde_json::to_string(s).unwrap_or_default();
    let reminds = derive::reminder(s, now).is_some();
    base_with_json(task_id, json, s.version(), reminds, comments, since)
}

/// [`new_base`] of a snapshot whose JSON, version and reminder are known
/// already (a walk's [`Held`] snapshot).
fn base_with_json(
    task_id: &str,
    json: String,
    version: i64,
    reminds: bool,
    comments: Option<&[Comment]>,
    since: i64,
) -> InboxBase {
    InboxBase {
        task_id: task_id.to_string(),
        snap: json,
        version,
        comment_ids: comments.map(|cs| {
            cs.iter()
                .flat_map(|c| [c.id.to_string(), derive::comment_print(c)])
                .collect()
        }),
        since,
        reminds,
    }
}

/// Why a walk found nothing.
#[derive(Debug)]
pub enum CycleError {
    /// The first page failed.
    Service(ApiError),
    /// The store could not be written.
    Store(String),
}

impl std::fmt::Display for CycleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CycleError::Service(e) => write!(f, "{e}"),
            CycleError::Store(e) => write!(f, "the local store: {}", crate::text::clean(e)),
        }
    }
}

/// One walk. An error before the first page is returned; one later leaves
/// a partial walk (what was read is used; nothing is judged gone).
pub async fn cycle(
    client: &impl Reads,
    db: &mut Db,
    me: &Me,
    plan: &Plan,
    now: Timestamp,
) -> Result<CycleReport, CycleError> {
    let mut report = CycleReport::default();
    let store = |e: rusqlite::Error| CycleError::Store(e.to_string());
    // The walk's scratch (a temporary table of this connection): each
    // page's snapshots go there as the page arrives, and the stored bases
    // are read one at a time when compared, never all held (issue 42 §2).
    let (first, learning) = off_runtime(|| {
        db.walk_begin()
            .map(|()| (!db.inbox_started(), db.inbox_learning()))
    })
    .map_err(store)?;
    report.first = first;
    // A first walk that stopped early left the tasks it did not reach
    // unknown: until a walk reads every page, a task the inbox has no base
    // of is learned, not news (it may have been the user's all along).
    let mended = !crate::broken::on(crate::broken::Rule::PartialFirstWalk);
    let learning = first || (learning && mended);

    // 1. The walk.
    let q = TaskQuery {
        involving: Some(me.id.clone()),
        ..Default::default()
    };
    // Only each task's id is held (`seen`); its snapshot (as its JSON,
    // `Held`) goes to the scratch with its page, and the page's rows are
    // stored for search (a bounded batch): a walk of 20,000 tasks held
    // every task and its JSON at once, ~50 MB, then every snapshot, ~10 MB.
    let mut odd_tasks: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = HashSet::new();
    let mut links = super::drafts::Links::default();
    report.complete = loop {
        if report.pages >= plan.max_pages {
            break false;
        }
        let page = match client.list_tasks(&q, plan.page, cursor.as_deref()).await {
            Ok(p) => p,
            Err(e) if report.pages == 0 => return Err(CycleError::Service(e)),
            Err(_) => {
                report.page_failed = true;
                break false;
            }
        };
        report.pages += 1;
        let mut fresh: Vec<&Task> = Vec::with_capacity(page.items.len());
        let mut held: Vec<(&str, Option<Held>)> = Vec::with_capacity(page.items.len());
        for item in &page.items {
            match item {
                TaskItem::Task(t) => {
                    if seen.insert(t.id.to_string()) {
                        held.push((t.id.as_str(), Some(Held::of(&Snapshot::of(t, me)))));
                        links.note(t, &seen);
                        fresh.push(t);
                    }
                }
                // Not read: said (once), and a task it names is not taken
                // for one that left the walk (its base stays as it was).
                TaskItem::Unreadable(u) => {
                    tracing::warn!(id = ?u.id.as_deref().map(crate::text::clean), reason = %crate::text::clean(&u.reason), "a task of the inbox's walk could not be read");
                    let print = super::snapshot::fnv1a(&[u.id.as_deref().unwrap_or(""), &u.raw]);
                    odd_tasks.push(format!("{print:016x}"));
                    if let Some(id) = &u.id {
                        if seen.insert(id.clone()) {
                            held.push((id, None));
                        }
                    }
                }
            }
        }
        report.tasks += fresh.len();
        let rows: Vec<WalkRow> = held
            .iter()
            .map(|(id, h)| WalkRow {
                task_id: id,
                snap: h.as_ref().map(Held::json),
                version: h.as_ref().map_or(0, Held::version),
                open: h.as_ref().is_some_and(Held::open),
            })
            .collect();
        off_runtime(|| {
            db.walk_add(&rows)?;
            keep_rows(db, &fresh, now.as_second());
            Ok(())
        })
        .map_err(store)?;
        match page.cursor {
            // A cursor that repeats would loop for ever.
            Some(c) if cursor.as_deref() != Some(&c) => cursor = Some(c),
            _ => break true,
        }
    };
    report.tasks_unreadable =
        off_runtime(|| unreadable_news(db, &odd_tasks, learning, report.complete));

    // 2. Whose comments to read: the tasks that moved, then a rotating
    // half of the open ones (the walk's tasks by their number `n` in the
    // scratch, in their ids' order).
    let mut want: Vec<i64> = Vec::new();
    let mut wanted = HashSet::new();
    let open = off_runtime(|| db.walk_by_id(true)).map_err(store)?;
    if first {
        // The first walk learns the comments there are (as many open
        // tasks as a walk may read): later ones compare ids, exactly.
        want = open;
    } else {
        for n in off_runtime(|| db.walk_moved()).map_err(store)? {
            if wanted.insert(n) {
                want.push(n);
            }
        }
        // Learning (the first walk stopped early): the open tasks it never
        // reached have their comments learned, as a first walk does.
        if learning {
            for n in off_runtime(|| db.walk_unknown()).map_err(store)? {
                if wanted.insert(n) {
                    want.push(n);
                }
            }
        }
        // A rotating half of the open ones; the finished ones (completed):
        // a rotating third, so a comment naming the user on a task already
        // done — which need not move its `updated_at` — is read within
        // three walks (issue 46 §3).
        let finished = off_runtime(|| db.walk_by_id(false)).map_err(store)?;
        let turns = off_runtime(|| {
            let half = open.len().div_ceil(2);
            let third = finished.len().div_ceil(3);
            let mut t = by_offset(db, "inbox_rotation", &open, half);
            t.extend(by_offset(db, "inbox_rotation_done", &finished, third));
            t
        });
        for n in turns {
            if wanted.insert(n) {
                want.push(n);
            }
        }
    }
    want.truncate(plan.comment_reads);
    let want = off_runtime(|| db.walk_ids(&want)).map_err(store)?;
    let (comments, failed, odd_comments) =
        read_comments(client, &want, plan.concurrency, &mut report).await;

    // 3. Tasks that left the walk: read a few to say why.
    let mut gone: Vec<String> = Vec::new();
    let mut gone_items: Vec<InboxItem> = Vec::new();
    let mut archived: Vec<InboxBase> = Vec::new();
    if report.complete && !first {
        let left = off_runtime(|| db.walk_left()).map_err(store)?;
        for (n, id) in left.into_iter().enumerate() {
            let Some((stored, Some(base))) = base_of(db, &id) else {
                gone.push(id);
                continue;
            };
            let read = if n < plan.gone_reads {
                report.task_reads += 1;
                match client.get_task(&id).await {
                    Ok(t) => Some(Some(Snapshot::of(&t, me))),
                    Err(ApiError::NotFound { .. } | ApiError::Forbidden { .. }) => Some(None),
                    // Unknown: asked again next walk.
                    Err(_) => {
                        report.gone_failed += 1;
                        continue;
                    }
                }
            } else {
                None
            };
            if let Some(Some(s)) = &read {
                if s.archived {
                    archived.push(super::archived::kept(&id, s, Some(&stored), now));
                }
            }
            gone_items.extend(derive::gone_item(
                &id,
                &base,
                read.as_ref().map(|r| r.as_ref()),
                now,
            ));
            gone.push(id);
        }
    }

    // 3b. Drafts: a few of the tasks linked to and not walked, read.
    let linked = links.not_walked(&seen);
    let share = off_runtime(|| super::drafts::this_walk(db, &linked, plan.link_reads));
    drop(linked);
    let mut items = gone_items;
    items.extend(
        super::drafts::linked_drafts(
            client,
            me,
            share,
            plan.concurrency,
            now,
            &mut report.task_reads,
        )
        .await,
    );

    // 4. What is news, and the new bases: each task of the scratch judged
    // against its stored base as the commit reads them, a page at a time
    // (issue 42 §2); then (5.) follow-ups that fell due: news since they
    // were set answers them.
    let now_secs = now.as_second();
    let mut unreadable_comments = 0;
    let judge = |w: Walked, stored: Option<InboxBase>| {
        let mut its = Vec::new();
        let id = w.task_id.as_str();
        let Ok(s) = serde_json::from_str::<Snapshot>(&w.snap) else {
            // Never met (its JSON is the snapshot's own): the base stays.
            tracing::warn!(id = %crate::text::clean(id), "a snapshot of the inbox's walk did not read back");
            return (None, its);
        };
        let before = stored
            .as_ref()
            .and_then(|b| serde_json::from_str::<Snapshot>(&b.snap).ok());
        // A stored base that cannot be read (a damaged store): the task is
        // learnt again, as on a first walk; nothing of it is news. So is a
        // task without a base while the inbox is learning (its first walk
        // stopped early and no walk since read every page): its comments
        // too are learned, not said.
        let unreadable = stored.is_some() && before.is_none();
        let learn = first || unreadable || (learning && stored.is_none());
        its.extend(derive::task_items(id, before.as_ref(), &s, learn, now));
        // A task followed from now: its comments made from a little before
        // are new (our clock and the service's may differ by that much).
        let since = match &stored {
            Some(b) if !unreadable => b.since,
            _ => now_secs - CLOCK_SKEW_SECS,
        };
        let read = comments.get(&w.n);
        let known = stored.as_ref().and_then(|b| b.comment_ids.as_deref());
        if let Some(cs) = read.filter(|_| !learn) {
            its.extend(derive::comment_items(id, &s, known, since, cs, me, now));
        }
        // Its comments could not be read: what was known of them stays
        // (the base's comment ids are kept, `comment_ids` being `None`), so
        // a later read finds a mention among them (the rotation reads an
        // open task's within two walks, a finished one's within three).
        // The task's own part moves on with what this walk said of it: a
        // base kept whole had the next walk say an assignment again once
        // the task changed in between (issue 43, the simulator).
        if failed.contains(&w.n)
            && stored.is_some()
            && !learn
            && crate::broken::on(crate::broken::Rule::OldBaseOnFailedRead)
        {
            return (None, its);
        }
        let odd = odd_comments.get(&w.n);
        if let Some(odd) = odd.filter(|_| !learn) {
            // Comments still unreadable: said the first time they are met,
            // then known by their print (never partial at every walk).
            unreadable_comments += derive::unreadable_unknown(odd, known);
        }
        let reminds = derive::reminder(&s, now).is_some();
        let mut base = base_with_json(
            id,
            w.snap.clone(),
            w.version,
            reminds,
            read.map(Vec::as_slice),
            since,
        );
        if let (Some(odd), Some(known)) = (odd, &mut base.comment_ids) {
            known.extend(odd.iter().cloned());
        }
        (Some(base), its)
    };
    report.new_items = off_runtime(|| {
        let n = db
            // Learning ends with a walk no page failed: one stopped by the
            // page cap is as whole as walks of this inbox will be (a cap
            // counted as a gap would keep it learning for ever, a task
            // newly the user's never said).
            .inbox_commit_walk(judge, &gone, items, now_secs, !report.page_failed)
            .map_err(store)?;
        keep_comments(db, &want, &comments, now_secs);
        let _ = db.walk_end();
        Ok::<_, CycleError>(n + follow_ups(db, now).unwrap_or(0))
    })?;
    report.comments_unreadable = unreadable_comments;
    // 6. Archived tasks: a share of their comments read for mentions.
    let share =
        off_runtime(|| super::archived::this_walk(db, &archived, &seen, plan.archived_reads, now));
    let read = super::archived::read(
        client,
        me,
        share,
        plan.concurrency,
        now,
        &mut report.comment_reads,
    )
    .await;
    report.comments_unreadable += read.unreadable;
    report.new_items += off_runtime(|| super::archived::keep(db, read));
    Ok(report)
}

/// A stored base, read alone, and its snapshot (`None`: it does not
/// read); `None` when the inbox does not follow the task.
fn base_of(db: &Db, id: &str) -> Option<(InboxBase, Option<Snapshot>)> {
    let b = off_runtime(|| db.inbox_base_or_unreadable(id))
        .ok()
        .flatten()?;
    let s = serde_json::from_str::<Snapshot>(&b.snap).ok();
    Some((b, s))
}

/// Run the store's work `f` (SQLite: a write may wait up to 5 s for a
/// lock another program holds) without holding a runtime worker: on the
/// multi-threaded runtime the worker hands its other tasks on first
/// (`block_in_place`), so a busy store delays the inbox, never the worker's
/// answers, the signals or a key. On a single-threaded runtime (tests, the
/// CLI's own) there is no other task to hold up.
pub fn off_runtime<R>(f: impl FnOnce() -> R) -> R {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// The unreadable tasks of this walk (their prints) that the last walk had
/// not met: how many to say. The prints are kept for the next walk (at
/// most [`ODD_TASKS_KEPT`]); the first walk of a store learns them, as it
/// learns unreadable comments, and says none — so does every walk while
/// the inbox is `learning` (its first walk stopped early: the tasks it did
/// not reach are unknown, not news; `Db::inbox_learning`). A walk that stopped early
/// (`complete` false) saw only part of the tasks: the prints known before
/// are kept beside its own, or the ones it did not reach would be said
/// again by a later walk.
fn unreadable_news(db: &mut Db, prints: &[String], learning: bool, complete: bool) -> usize {
    const KEY: &str = "inbox_unreadable_tasks";
    let known = db.get_meta(KEY).unwrap_or_default();
    let known: HashSet<&str> = known.split(' ').filter(|p| !p.is_empty()).collect();
    let news = prints
        .iter()
        .filter(|p| !known.contains(p.as_str()))
        .count();
    let earlier = known
        .iter()
        .copied()
        .filter(|_| !complete)
        .filter(|k| !prints.iter().any(|p| p == k));
    let keep: Vec<&str> = prints
        .iter()
        .map(String::as_str)
        .chain(earlier)
        .take(ODD_TASKS_KEPT)
        .collect();
    if let Err(e) = db.set_meta(KEY, &keep.join(" ")) {
        tracing::warn!(error = %e, "the inbox's unreadable tasks were not kept");
    }
    if learning {
        0
    } else {
        news
    }
}

/// How many prints of unreadable tasks the store keeps between walks.
const ODD_TASKS_KEPT: usize = 1_000;

/// What the walk read is kept for search (#36 §2): its tasks, as list
/// rows (a whole task stored is not replaced by a row of its version),
/// one page at a time. A store that cannot take them is only logged: the
/// inbox does not depend on it.
fn keep_rows(db: &mut Db, tasks: &[&Task], now: i64) {
    if tasks.is_empty() {
        return;
    }
    let rows: Vec<StoredTask> = tasks
        .iter()
        .map(|t| StoredTask {
            id: t.id.as_str().to_string(),
            number: t.task_number,
            title: t.title.raw().to_string(),
            updated_at: t.updated_at.as_deref().map(str::to_string),
            json: serde_json::to_string(t).unwrap_or_default(),
            full: false,
        })
        .collect();
    if let Err(e) = db.put_tasks(&rows, now) {
        tracing::warn!(error = %e, "the inbox's tasks were not stored for search");
    }
}

/// The comments the walk read, kept for search (#36 §2).
fn keep_comments(
    db: &mut Db,
    ids: &[(i64, String)],
    comments: &HashMap<i64, Vec<Comment>>,
    now: i64,
) {
    for (n, id) in ids {
        let Some(cs) = comments.get(n) else {
            continue;
        };
        let json = serde_json::to_string(cs).unwrap_or_else(|_| "[]".into());
        if let Err(e) = db.put_tab(id, "comments", &json, now) {
            tracing::warn!(error = %e, "the inbox's comments were not stored for search");
            return;
        }
    }
}

/// The comments of the tasks `want` (each by its number in the walk).
async fn read_comments(
    client: &impl Reads,
    want: &[(i64, String)],
    concurrency: usize,
    report: &mut CycleReport,
) -> (
    HashMap<i64, Vec<Comment>>,
    HashSet<i64>,
    HashMap<i64, Vec<String>>,
) {
    use futures::StreamExt;
    let mut out = HashMap::new();
    let mut failed = HashSet::new();
    let mut unreadable = HashMap::new();
    let mut reads = futures::stream::iter(0..want.len())
        .map(|k| async move {
            let (n, id) = &want[k];
            (*n, client.list_comments_counted(id).await)
        })
        .buffer_unordered(concurrency.max(1));
    while let Some((i, r)) = reads.next().await {
        report.comment_reads += 1;
        match r {
            Ok((cs, odd)) => {
                out.insert(i, cs);
                if !odd.is_empty() {
                    unreadable.insert(i, odd);
                }
            }
            Err(ApiError::NotAvailable { .. }) => {
                report.comments_unavailable = true;
                break;
            }
            // One task's comments failing leaves what was known of them,
            // and makes the walk partial.
            Err(_) => {
                report.comments_failed += 1;
                failed.insert(i);
            }
        }
    }
    (out, failed, unreadable)
}

/// Follow-ups whose time came: "no answer since …" unless something of
/// someone else's arrived since it was set. Each is then over.
pub fn follow_ups(db: &mut Db, now: Timestamp) -> rusqlite::Result<usize> {
    let marks = db.inbox_marks()?;
    let mut n = 0;
    for m in marks
        .iter()
        .filter(|m| m.kind == MarkKind::FollowUp && super::snooze::come(m, now.as_second()))
    {
        if !db.inbox_news_since(&m.task_id, m.since)? {
            let since = Timestamp::from_second(m.since).unwrap_or_default();
            let words = format!(
                "no answer since {} (follow-up)",
                crate::domain::later::short_when(since, now, true)
            );
            let item = InboxItem {
                task_id: m.task_id.clone(),
                key: format!("follow-up:{}", m.at),
                kind: derive::Kind::FollowUp.as_str().into(),
                rank: derive::Kind::FollowUp.rank(),
                words,
                changes: "[]".into(),
                label: m.label.clone(),
                title: m.title.clone(),
                target: None,
                at: m.at,
                read_at: None,
            };
            n += db.inbox_add(&[item])?;
        }
        db.inbox_unmark(&m.task_id, MarkKind::FollowUp)?;
    }
    Ok(n)
}

#[cfg(test)]
mod unreadable_tests {
    use super::super::sandboxed::{odd_bases, start};
    use super::*;

    /// The task moved (its version differs) and its comments were never
    /// read: the next walk reads them as a task newly followed.
    fn forget(path: &std::path::Path, task: &str) {
        rusqlite::Connection::open(path)
            .unwrap()
            .execute(
                "UPDATE inbox_base SET version=1, comment_ids=NULL WHERE task_id=?1",
                [task],
            )
            .unwrap();
    }

    /// Issue 42 §10: a comment still unreadable after the lossy decoding
    /// (the sandbox's malformed comment: `"content": 42`) makes the walk
    /// that first meets it partial — said, not dropped silently — and is
    /// known afterwards: the next walks reading it again are whole, never
    /// partial for ever.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_unreadable_comment_is_said_once_and_never_makes_every_walk_partial() {
        let mut w = start(10, true).await;
        let plan = Plan::default();
        let now = jiff::Timestamp::now;
        // The first walk learns: the comment is known, nothing is news.
        let first = cycle(&w.alice, &mut w.db, &w.me, &plan, now())
            .await
            .unwrap();
        assert!(first.first);
        assert_eq!(first.partial(), None);
        let odd = odd_bases(&w.db);
        assert_eq!(odd.len(), 1, "the malformed comment's task is known");
        // Met by a walk that reads news: said once.
        forget(&w.path, &odd[0]);
        let second = cycle(&w.alice, &mut w.db, &w.me, &plan, now())
            .await
            .unwrap();
        assert_eq!(second.comments_unreadable, 1, "{second:?}");
        let why = second.partial().expect("the walk is partial");
        assert!(why.contains("1 comment could not be read"), "{why}");
        // Read again: known, the walk is whole.
        for _ in 0..2 {
            rusqlite::Connection::open(&w.path)
                .unwrap()
                .execute(
                    "UPDATE inbox_base SET version=1 WHERE task_id=?1",
                    [&odd[0]],
                )
                .unwrap();
            let again = cycle(&w.alice, &mut w.db, &w.me, &plan, now())
                .await
                .unwrap();
            assert_eq!(again.partial(), None, "{again:?}");
            assert!(again.comment_reads > 0);
        }
    }

    /// Issue 42 §10: a task of the walk that the JSON reader refuses (the
    /// sandbox's malformed task, `"title": 42`) is said as an unreadable
    /// comment is — the walk that first meets it partial, "1 task could not
    /// be read", later walks whole — and never taken for a task that left.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_unreadable_task_is_said_once_and_never_makes_every_walk_partial() {
        let mut w = start(10, true).await;
        let plan = Plan::default();
        let now = jiff::Timestamp::now;
        // The first walk learns: the unreadable task is known, not said.
        let first = cycle(&w.alice, &mut w.db, &w.me, &plan, now())
            .await
            .unwrap();
        assert!(first.first && first.complete);
        assert_eq!(first.partial(), None, "{first:?}");
        let bases = w.db.inbox_bases().unwrap().len();
        // Met by a walk that had not met it: said, the walk partial.
        w.db.set_meta("inbox_unreadable_tasks", "").unwrap();
        let second = cycle(&w.alice, &mut w.db, &w.me, &plan, now())
            .await
            .unwrap();
        assert_eq!(second.tasks_unreadable, 1, "{second:?}");
        let why = second.partial().expect("the walk is partial");
        assert!(why.contains("1 task could not be read"), "{why}");
        // Met again: known, the walk is whole.
        let third = cycle(&w.alice, &mut w.db, &w.me, &plan, now())
            .await
            .unwrap();
        assert_eq!(third.tasks_unreadable, 0, "{third:?}");
        assert_eq!(third.partial(), None, "{third:?}");
        assert_eq!(w.db.inbox_bases().unwrap().len(), bases);
    }
}

#[cfg(test)]
mod unreadable_kept_tests {
    use super::super::sandboxed::{store, Store};
    use super::*;

    /// A walk that stopped early keeps the unreadable tasks known before
    /// beside its own: the one it did not reach is not news to a later,
    /// whole walk. A whole walk keeps only what it met.
    #[test]
    fn a_walk_that_stopped_early_forgets_no_unreadable_task_known_before() {
        let Store { mut db, _dir, .. } = store();
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(unreadable_news(&mut db, &p(&["a", "b"]), true, true), 0);
        // Stopped after the page of `a`: `b` stays known.
        assert_eq!(unreadable_news(&mut db, &p(&["a"]), false, false), 0);
        assert_eq!(unreadable_news(&mut db, &p(&["a", "b"]), false, true), 0);
        // A whole walk without `b`: forgotten, news when met again.
        assert_eq!(unreadable_news(&mut db, &p(&["a"]), false, true), 0);
        assert_eq!(unreadable_news(&mut db, &p(&["a", "b"]), false, true), 1);
    }
}

#[cfg(test)]
mod draft_tests {
    use super::super::sandboxed::start;
    use super::*;

    fn drafts(db: &Db) -> Vec<InboxItem> {
        db.inbox_items(true)
            .unwrap()
            .into_iter()
            .filter(|i| i.kind == "draft")
            .collect()
    }

    /// Issue 46 §2: the first walk of a store finds the draft of the
    /// user's that no list gives (the sandbox's #5, linked from #3) and
    /// says it, at the cost of its link reads alone; a later walk says it
    /// no second time. A draft the service no longer answers (rejected:
    /// 404) is no item, and the walk is whole.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_first_walk_finds_a_linked_draft_and_a_draft_gone_is_no_error() {
        let mut w = start(20, false).await;
        let plan = Plan::default();
        let first = cycle(&w.alice, &mut w.db, &w.me, &plan, Timestamp::now())
            .await
            .unwrap();
        assert!(first.first && first.partial().is_none(), "{first:?}");
        assert!(first.task_reads >= 1, "{first:?}");
        let found = drafts(&w.db);
        let five = w.sb.task_json("#5").unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].task_id, five["id"].as_str().unwrap());
        assert_eq!(found[0].words, "draft waiting for you to accept or reject");
        // Read again by a later walk: the same item, not a second one.
        w.db.set_meta("inbox_links_after", "").unwrap();
        let again = cycle(&w.alice, &mut w.db, &w.me, &plan, Timestamp::now())
            .await
            .unwrap();
        assert_eq!(again.new_items, 0, "{again:?}");
        assert_eq!(drafts(&w.db).len(), 1);
        // Rejected (deleted): its read answers 404, tolerated.
        w.alice
            .delete_task(five["id"].as_str().unwrap())
            .await
            .unwrap();
        let gone = cycle(&w.alice, &mut w.db, &w.me, &plan, Timestamp::now())
            .await
            .unwrap();
        assert!(gone.partial().is_none(), "{gone:?}");
    }
}
