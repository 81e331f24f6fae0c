//! Drafts waiting for the user (issue 46 §2). No list gives a draft (the
//! spec: "Lists and task reads exclude archived and draft tasks by
//! default"; a filter that includes them is "not shown"), so the inbox's
//! walk cannot meet one. What a service may still show is a task that a
//! task of the walk links to: the walk notes the task links of its tasks
//! (ids only, those not among its own tasks) and reads `D` of them a walk
//! ([`super::Plan::link_reads`]), in id order from where the last walk
//! stopped (the store's `meta`), so each is read within ⌈L / D⌉ walks.
//! Each that is a draft assigned to the user is a `draft` item (nothing
//! else: such a task has no base, the inbox does not follow it).
//!
//! A service that answers such a read with 404 (as the spec allows for a
//! draft), refuses it or fails is tolerated: that task is left for a
//! later walk and the walk is not partial (nothing the user follows went
//! unread); a service without the read at all (405) ends the reads.

use super::derive::{self, Me};
use super::reads::Reads;
use super::snapshot::Snapshot;
use crate::api::{ApiError, LinkType, Task};
use crate::store::{Db, InboxItem};
use jiff::Timestamp;
use std::collections::{BTreeSet, HashSet};

/// Where the last walk's link reads stopped: the last id read.
const AFTER: &str = "inbox_links_after";

/// The task links of the walk's tasks, noted page by page: ids only.
#[derive(Debug, Default)]
pub struct Links {
    ids: BTreeSet<String>,
}

impl Links {
    /// Note the tasks `t` links to, but those already met by the walk.
    pub fn note(&mut self, t: &Task, seen: &HashSet<String>) {
        for l in t.linked_items.iter() {
            let id = l.id.as_str();
            if l.kind == LinkType::Task && !id.is_empty() && !seen.contains(id) {
                self.ids.insert(id.to_string());
            }
        }
    }

    /// The ids linked to and not walked (`seen`: every task of the walk),
    /// in id order.
    pub fn not_walked(self, seen: &HashSet<String>) -> Vec<String> {
        self.ids
            .into_iter()
            .filter(|id| !seen.contains(id))
            .collect()
    }
}

/// This walk's share of the linked ids ([`super::rotation::rotate`]),
/// where the last walk stopped read from the store's `meta` and this one's
/// end kept there. (The store's work: the walk runs it off the runtime.)
pub fn this_walk(db: &mut Db, linked: &[String], per_walk: usize) -> Vec<String> {
    super::rotation::rotate(db, AFTER, linked, per_walk)
}

/// Read the linked tasks `ids` (this walk's share), `concurrency` at
/// once; the drafts of the user's among them are `draft` items. Each
/// request counts in `task_reads`.
pub async fn linked_drafts(
    client: &impl Reads,
    me: &Me,
    ids: Vec<String>,
    concurrency: usize,
    now: Timestamp,
    task_reads: &mut usize,
) -> Vec<InboxItem> {
    use futures::StreamExt;
    let mut reads = futures::stream::iter(ids)
        .map(|id| async move {
            let r = client.get_task(&id).await;
            (id, r)
        })
        .buffer_unordered(concurrency.max(1));
    let mut out = Vec::new();
    while let Some((id, r)) = reads.next().await {
        *task_reads += 1;
        let t = match r {
            Ok(t) => t,
            // No read of one task at all: none of the others either.
            Err(ApiError::NotAvailable { .. }) => break,
            // Not shown (a draft hidden, as the spec allows), refused,
            // failed: left for a later walk.
            Err(e) => {
                tracing::debug!(error = %e, "a linked task could not be read for drafts");
                continue;
            }
        };
        let s = Snapshot::of(&t, me);
        if s.draft && s.mine {
            out.extend(
                derive::task_items(&id, None, &s, true, now)
                    .into_iter()
                    .filter(|i| i.kind == derive::Kind::Draft.as_str()),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::sandboxed::{start, store, Store};
    use super::*;

    /// The linked ids, walk after walk, from where the store says the
    /// last one stopped (the rotation's own tests: `rotation.rs`).
    #[test]
    fn the_linked_ids_turn_from_where_the_last_walk_stopped() {
        let l: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let Store { mut db, _dir, .. } = store();
        assert_eq!(this_walk(&mut db, &l, 2), ["a", "b"]);
        assert_eq!(this_walk(&mut db, &l, 2), ["c", "d"]);
        assert_eq!(this_walk(&mut db, &l, 2), ["e", "a"]);
        assert!(this_walk(&mut db, &[], 2).is_empty());
        assert_eq!(this_walk(&mut db, &l, 2), ["b", "c"]);
        assert_eq!(db.get_meta(AFTER).as_deref(), Some("c"));
    }

    /// A service that refuses (403) or fails (500) every read of a linked
    /// task: no item, no error, each read counted; one without the read
    /// (405) ends the reads at the first.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn refused_or_missing_link_reads_are_tolerated() {
        use crate::sandbox::Faults;
        let w = start(20, false).await;
        let five = w.sb.task_json("#5").unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let linked = vec![five];
        for (status, reads) in [(403, 1), (500, 1), (405, 1)] {
            w.sb.set_faults(Faults {
                fail_every: 1,
                status,
                ..Default::default()
            });
            let mut n = 0;
            let items =
                linked_drafts(&w.alice, &w.me, linked.clone(), 4, Timestamp::now(), &mut n).await;
            assert!(items.is_empty(), "{status}: {items:?}");
            assert_eq!(n, reads, "{status}");
        }
        // Many linked, the read missing (405): one read, then none.
        let many: Vec<String> = (0..5)
            .map(|i| format!("00000000-0000-4000-8000-00000000000{i}"))
            .collect();
        let mut n = 0;
        linked_drafts(&w.alice, &w.me, many, 1, Timestamp::now(), &mut n).await;
        assert_eq!(n, 1, "the reads ended at the first 405");
    }
}
