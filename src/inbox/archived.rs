//! Mentions on archived tasks (issue 46 §3). No list gives an archived
//! task (the spec: "Lists and task reads exclude archived and draft tasks
//! by default"), so the walk's comment reads never meet one. What the walk
//! does meet is a task leaving the user's tasks, read once to say why
//! (`gone_reads`): one seen archived there — the user's own archiving
//! too — is kept in the store (`inbox_archived`: its snapshot, the
//! comments known, since when; the [`crate::store::ARCHIVED_KEPT`] most
//! recently seen), and each walk reads the comments of ⌈A / 3⌉ of them (at
//! most the plan's cap), in id order from where the last walk stopped, so
//! each is read within three walks. A new comment naming the user (the rule of
//! [`derive::mentions`], as for open and completed tasks) is a `mention`
//! item; other comments on an archived task are not news.
//!
//! A service may hide an archived task's comments (the spec leaves it
//! open): a 404 or 403 drops the task from the rotation, a 405/501 ends
//! this walk's reads, a failure leaves the task for its next turn; none
//! makes the walk partial. A comment the JSON reader refuses (even with
//! lone surrogates replaced) is counted as the walk's own are
//! ([`derive::unreadable_unknown`]): said once (the walk partial), then
//! known by its print. A task seen again among the user's tasks
//! (restored) leaves the set. The walk holds the set's ids only, and the
//! bases of its share.

use super::derive::{self, Me};
use super::reads::Reads;
use super::snapshot::Snapshot;
use crate::api::ApiError;
use crate::store::{Db, InboxBase, InboxItem, CLOCK_SKEW_SECS};
use jiff::Timestamp;
use std::collections::HashSet;

/// Where the last walk's archived reads stopped: the last id read.
const AFTER: &str = "inbox_archived_after";

/// What the inbox keeps of a task a walk saw archived (`s`, its read):
/// the snapshot now, the comments its base knew, since when.
pub fn kept(task_id: &str, s: &Snapshot, base: Option<&InboxBase>, now: Timestamp) -> InboxBase {
    InboxBase {
        task_id: task_id.to_string(),
        snap: serde_json::to_string(s).unwrap_or_default(),
        version: 0,
        comment_ids: base.and_then(|b| b.comment_ids.clone()),
        since: base.map_or(now.as_second() - CLOCK_SKEW_SECS, |b| b.since),
        reminds: false,
    }
}

/// How many archived tasks a walk reads of `a` kept: ⌈a / 3⌉, at most `cap`.
pub fn per_walk(a: usize, cap: usize) -> usize {
    a.div_ceil(3).min(cap)
}

/// Keep the tasks `newly` seen archived, drop those among the walk's tasks
/// (`seen`: restored), and answer this walk's share of the rest (their
/// bases), from where the last walk stopped. (The store's work: the walk
/// runs it off the runtime.)
pub fn this_walk(
    db: &mut Db,
    newly: &[InboxBase],
    seen: &HashSet<String>,
    cap: usize,
    now: Timestamp,
) -> Vec<InboxBase> {
    if let Err(e) = db.inbox_archived_keep(newly, now.as_second()) {
        tracing::warn!(error = %e, "the inbox's archived tasks were not kept");
    }
    let Ok(ids) = db.inbox_archived_ids() else {
        return Vec::new();
    };
    let (restored, ids): (Vec<String>, Vec<String>) =
        ids.into_iter().partition(|id| seen.contains(id));
    if let Err(e) = db.inbox_archived_drop(&restored) {
        tracing::warn!(error = %e, "restored tasks were not dropped from the archived ones");
    }
    super::rotation::rotate(db, AFTER, &ids, per_walk(ids.len(), cap))
        .iter()
        .filter_map(|id| db.inbox_archived(id).ok().flatten())
        .collect()
}

/// What the reads of a walk's share found.
#[derive(Debug, Default)]
pub struct Read {
    /// The mentions new to the inbox.
    items: Vec<InboxItem>,
    /// Each task read, and the comments now known of it.
    known: Vec<(String, Vec<String>)>,
    /// Not shown any more (404, 403): out of the rotation.
    dropped: Vec<String>,
    /// Comments that could not be read (even lossily) and that no read
    /// before had met: the walk says them as it says its own tasks'
    /// (partial, once; issue 42 §10), then knows them by their print.
    pub unreadable: usize,
}

/// Read the comments of `share`, `concurrency` at once; each request counts
/// in `comment_reads`.
pub async fn read(
    client: &impl Reads,
    me: &Me,
    share: Vec<InboxBase>,
    concurrency: usize,
    now: Timestamp,
    comment_reads: &mut usize,
) -> Read {
    use futures::StreamExt;
    let mut reads = futures::stream::iter(share)
        .map(|b| async move {
            let r = client.list_task_comments_counted(&b.task_id).await;
            (b, r)
        })
        .buffer_unordered(concurrency.max(1));
    let mut out = Read::default();
    while let Some((b, r)) = reads.next().await {
        *comment_reads += 1;
        let (cs, odd) = match r {
            Ok(read) => read,
            Err(ApiError::NotFound { .. } | ApiError::Forbidden { .. }) => {
                out.dropped.push(b.task_id);
                continue;
            }
            // No comment listing at all: none of the others either.
            Err(
                ApiError::NotAvailable { .. }
                | ApiError::Status {
                    status: 405 | 501, ..
                },
            ) => break,
            Err(e) => {
                tracing::debug!(error = %e, "an archived task's comments could not be read");
                continue;
            }
        };
        let Ok(s) = serde_json::from_str::<Snapshot>(&b.snap) else {
            continue;
        };
        let id = b.task_id.as_str();
        out.items.extend(
            derive::comment_items(id, &s, b.comment_ids.as_deref(), b.since, &cs, me, now)
                .into_iter()
                .filter(|i| i.kind == derive::Kind::Mention.as_str()),
        );
        out.unreadable += derive::unreadable_unknown(&odd, b.comment_ids.as_deref());
        let known = cs
            .iter()
            .flat_map(|c| [c.id.to_string(), derive::comment_print(c)])
            .chain(odd)
            .collect();
        out.known.push((b.task_id, known));
    }
    out
}

/// Write what the reads found: the items, then the comments known (not
/// before: an item the store refused is found again). Answers the number
/// of items that are new.
pub fn keep(db: &mut Db, read: Read) -> usize {
    let added = match db.inbox_add(&read.items) {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "the mentions on archived tasks were not kept");
            return 0;
        }
    };
    for (id, known) in &read.known {
        if let Err(e) = db.inbox_archived_read(id, known) {
            tracing::warn!(error = %e, "an archived task's comments were not kept");
        }
    }
    if let Err(e) = db.inbox_archived_drop(&read.dropped) {
        tracing::warn!(error = %e, "archived tasks not shown were not dropped");
    }
    added
}

#[cfg(test)]
mod tests {
    use super::super::sandboxed::{start, store, Store};
    use super::*;
    use crate::store::ARCHIVED_KEPT;

    fn base(id: &str) -> InboxBase {
        InboxBase {
            task_id: id.into(),
            snap: "{}".into(),
            version: 0,
            comment_ids: None,
            since: 0,
            reminds: false,
        }
    }

    fn ids(v: &[InboxBase]) -> Vec<&str> {
        v.iter().map(|b| b.task_id.as_str()).collect()
    }

    /// ⌈A / 3⌉ a walk, in id order from where the last walk stopped: each
    /// within three walks; a task seen again (restored) leaves the set; the
    /// set keeps the most recently archived only.
    #[test]
    fn a_third_of_the_archived_a_walk_each_within_three_and_restored_ones_leave() {
        assert_eq!(per_walk(0, 100), 0);
        assert_eq!(per_walk(1, 100), 1);
        assert_eq!(per_walk(7, 100), 3);
        assert_eq!(per_walk(ARCHIVED_KEPT, 100), 100);
        let Store { mut db, _dir, .. } = store();
        let none = HashSet::new();
        let now = Timestamp::now();
        let five: Vec<InboxBase> = ["e", "a", "d", "b", "c"].map(base).to_vec();
        assert_eq!(ids(&this_walk(&mut db, &five, &none, 100, now)), ["a", "b"]);
        assert_eq!(ids(&this_walk(&mut db, &[], &none, 100, now)), ["c", "d"]);
        assert_eq!(ids(&this_walk(&mut db, &[], &none, 100, now)), ["e", "a"]);
        // `b` restored: out of the set for good.
        let b: HashSet<String> = ["b".to_string()].into();
        assert_eq!(ids(&this_walk(&mut db, &[], &b, 100, now)), ["c", "d"]);
        assert_eq!(db.inbox_archived_ids().unwrap(), ["a", "c", "d", "e"]);
        // The cap.
        assert_eq!(ids(&this_walk(&mut db, &[], &none, 1, now)), ["e"]);
        // The most recently archived kept, the oldest dropped.
        let many: Vec<InboxBase> = (0..ARCHIVED_KEPT)
            .map(|i| base(&format!("z{i:04}")))
            .collect();
        let later = Timestamp::from_second(now.as_second() + 60).unwrap();
        this_walk(&mut db, &many, &none, 1, later);
        let kept = db.inbox_archived_ids().unwrap();
        assert_eq!(kept.len(), ARCHIVED_KEPT);
        assert!(
            kept.iter().all(|id| id.starts_with('z')),
            "{:?}",
            &kept[..3]
        );
    }

    /// A service that refuses (403), hides (404), fails (500) or lacks
    /// (405) an archived task's comments: no item, no error, each read
    /// counted; 403 and 404 drop the task from the rotation, the others
    /// keep it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn refused_hidden_or_failed_archived_reads_are_tolerated() {
        use crate::sandbox::Faults;
        let mut w = start(20, false).await;
        let one = w.sb.task_json("#1").unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        for (status, dropped) in [(500, false), (405, false), (403, true), (404, true)] {
            w.db.inbox_archived_keep(&[base(&one)], 1).unwrap();
            w.sb.set_faults(Faults {
                fail_every: 1,
                status,
                ..Default::default()
            });
            let mut n = 0;
            let r = read(
                &w.alice,
                &w.me,
                vec![base(&one)],
                4,
                Timestamp::now(),
                &mut n,
            )
            .await;
            assert_eq!(n, 1, "{status}");
            assert_eq!(keep(&mut w.db, r), 0, "{status}");
            let left = w.db.inbox_archived_ids().unwrap().is_empty();
            assert_eq!(left, dropped, "{status}");
        }
    }
}
