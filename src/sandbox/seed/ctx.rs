//! What the seeding parts share: the deterministic generator and the
//! seeding context (`Ctx`: the store being filled, the clock, the
//! generator) with the helpers that build tasks. A leaf below `seed` and
//! the parts it calls (`fixtures`, `random`).

use jiff::{SignedDuration, Timestamp};
use serde_json::json;
use uuid::Uuid;

use crate::sandbox::store::{Comment, Involved, Link, Message, Store, Task};

/// splitmix64: small, fast and deterministic.
pub(crate) struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    pub fn chance(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }
    pub fn pick<'a, T>(&mut self, s: &'a [T]) -> &'a T {
        &s[self.below(s.len() as u64) as usize]
    }
    pub fn weighted<'a>(&mut self, s: &[(&'a str, u64)]) -> &'a str {
        let total: u64 = s.iter().map(|x| x.1).sum();
        let mut r = self.below(total);
        for (v, w) in s {
            if r < *w {
                return v;
            }
            r -= w;
        }
        s[0].0
    }
    pub fn uuid(&mut self) -> Uuid {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&self.next_u64().to_le_bytes());
        b[8..].copy_from_slice(&self.next_u64().to_le_bytes());
        uuid::Builder::from_random_bytes(b).into_uuid()
    }
}

pub(crate) struct Ctx {
    pub rng: Rng,
    pub now: Timestamp,
    pub s: Store,
}

impl Ctx {
    pub(crate) fn org_users(&self, org: usize) -> Vec<usize> {
        (0..self.s.users.len())
            .filter(|u| self.s.users[*u].org == org)
            .collect()
    }
    pub(crate) fn org_of<T>(&self, v: &[T], org: usize, f: impl Fn(&T) -> usize) -> Vec<usize> {
        (0..v.len()).filter(|i| f(&v[*i]) == org).collect()
    }
    pub(crate) fn item(&self, org: usize, kind: &str, nth: usize) -> usize {
        (0..self.s.items.len())
            .filter(|i| self.s.items[*i].org == org && self.s.items[*i].kind == kind)
            .nth(nth)
            .unwrap()
    }
    /// `at`, or the seed's now when `at` is later: what the seed says
    /// happened has happened (issue 46: the demo said "updated in 3 h").
    pub(crate) fn past(&self, at: Timestamp) -> Timestamp {
        at.min(self.now)
    }
    pub(crate) fn days(&self, d: i64) -> Timestamp {
        // 17:00 UTC that day.
        let secs = (self.now + SignedDuration::from_hours(24 * d)).as_second();
        Timestamp::from_second(secs - secs.rem_euclid(86_400) + 17 * 3600).unwrap()
    }
    /// A task with the common defaults; the caller fills the rest.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn base(
        &mut self,
        org: usize,
        title: &str,
        creator: usize,
        assignee: Option<usize>,
        team: usize,
        channel: &str,
        visibility: &str,
        age_days: i64,
    ) -> Task {
        self.s.next_number += 1;
        let created = self.now
            - SignedDuration::from_hours(24 * age_days)
            - SignedDuration::from_mins(self.s.next_number as i64);
        let mut t = Task {
            id: self.rng.uuid(),
            number: self.s.next_number,
            org,
            title: title.into(),
            status: "not_started".into(),
            priority: "medium".into(),
            team,
            creator,
            assignee,
            source_channel: channel.into(),
            visibility: visibility.into(),
            involved: vec![Involved {
                user: creator,
                role: "creator".into(),
                access: "write".into(),
            }],
            created_at: created,
            // Never after the seed's now (a task made today was "updated
            // in 3 h").
            updated_at: self.past(created + SignedDuration::from_hours(3)),
            ..Default::default()
        };
        t.sync_assignee();
        t
    }
    pub(crate) fn link(&self, item: usize, role: &str, checks: Option<Vec<&str>>) -> Link {
        let it = &self.s.items[item];
        Link {
            kind: it.kind.into(),
            id: it.id,
            display_name: it.display_name.clone(),
            role: role.into(),
            context: checks.map(|c| json!({"check_ids": c})),
        }
    }
    pub(crate) fn comment(
        &mut self,
        t: &Task,
        author: usize,
        text: &str,
        parent: Option<Uuid>,
        edited: bool,
    ) -> Comment {
        // Never after the seed's now; an edited one was edited 12 minutes
        // after it was written, both past.
        let edit = SignedDuration::from_mins(if edited { 12 } else { 0 });
        let at = (t.created_at + SignedDuration::from_hours(1 + t.comments.len() as i64 * 5))
            .min(self.now - edit);
        Comment {
            id: self.rng.uuid(),
            author,
            content: text.into(),
            parent,
            mentioned: vec![],
            file_ids: vec![],
            created_at: at,
            updated_at: at + edit,
        }
    }
    pub(crate) fn inbound(&mut self, t: &Task, who: &str, text: &str) -> Message {
        Message {
            id: self.rng.uuid(),
            direction: "inbound",
            content: text.into(),
            file_ids: vec![],
            sender: None,
            sender_display_name: who.into(),
            delivery_status: "sent",
            created_at: t.created_at,
        }
    }
}
