//! Deterministic seed data (fixed-seed PRNG; dates relative to start time).

use chrono::{DateTime, Duration, Timelike, Utc};
use serde_json::json;
use uuid::Uuid;

use super::random::{CLIENTS, DOCS, PERIODS};
use super::store::*;
use super::DemoKey;
use super::{fixtures, quirks, random};

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
    pub now: DateTime<Utc>,
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
    pub(crate) fn days(&self, d: i64) -> DateTime<Utc> {
        (self.now + Duration::days(d))
            .with_hour(17)
            .unwrap()
            .with_minute(0)
            .unwrap()
            .with_second(0)
            .unwrap()
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
        let created =
            self.now - Duration::days(age_days) - Duration::minutes(self.s.next_number as i64);
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
            updated_at: created + Duration::hours(3),
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
        let at = t.created_at + Duration::hours(1 + t.comments.len() as i64 * 5);
        Comment {
            id: self.rng.uuid(),
            author,
            content: text.into(),
            parent,
            mentioned: vec![],
            file_ids: vec![],
            created_at: at,
            updated_at: if edited {
                at + Duration::minutes(12)
            } else {
                at
            },
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

fn user(s: &mut Store, rng: &mut Rng, org: usize, name: &str, email: &str) -> usize {
    s.users.push(User {
        id: rng.uuid(),
        org,
        name: name.into(),
        email: email.into(),
    });
    s.users.len() - 1
}

fn team(s: &mut Store, rng: &mut Rng, org: usize, name: &str, members: &[usize]) -> usize {
    s.teams.push(Team {
        id: rng.uuid(),
        org,
        name: name.into(),
        members: members.to_vec(),
    });
    s.teams.len() - 1
}

/// Seeds the store; returns it with the demo keys (key, user index).
pub(crate) fn seed(n_tasks: usize, quirks: bool, staff: usize) -> (Store, Vec<(DemoKey, usize)>) {
    let mut rng = Rng::new(0x7A5C_DEC0_2026_0001);
    let mut s = Store::default();
    for (name, thread, vb) in [
        ("Acme Legal LLP", true, true),
        ("Globex Operations", false, false),
        ("Initech Research", true, false),
    ] {
        s.orgs.push(Org {
            id: rng.uuid(),
            name: name.into(),
            requester_thread: thread,
            visual_builder: vb,
        });
    }
    let alice = user(&mut s, &mut rng, 0, "Alice Martin", "alice@acme.test");
    let bob = user(&mut s, &mut rng, 0, "Bob Okafor", "bob@acme.test");
    let carol = user(&mut s, &mut rng, 0, "Carol Nguyen", "carol@acme.test");
    let dan = user(&mut s, &mut rng, 0, "Dan Reyes", "dan@acme.test");
    let sam1 = user(&mut s, &mut rng, 0, "Sam Taylor", "sam.taylor@acme.test");
    let sam2 = user(&mut s, &mut rng, 0, "Sam Taylor", "samuel.taylor@acme.test");
    let erin = user(&mut s, &mut rng, 0, "Erin Walsh", "erin@acme.test");
    let frank = user(&mut s, &mut rng, 0, "Frank Li", "frank@acme.test");
    let gina = user(&mut s, &mut rng, 1, "Gina Rossi", "gina@globex.test");
    let hank = user(&mut s, &mut rng, 1, "Hank Patel", "hank@globex.test");
    let ivy = user(&mut s, &mut rng, 1, "Ivy Chen", "ivy@globex.test");
    let ivan = user(&mut s, &mut rng, 2, "Ivan Petrov", "ivan@initech.test");
    let judy = user(&mut s, &mut rng, 2, "Judy Park", "judy@initech.test");

    let lit1 = team(&mut s, &mut rng, 0, "Litigation", &[alice, bob, sam1]);
    let lit2 = team(&mut s, &mut rng, 0, "Litigation", &[carol, dan]);
    let corp = team(&mut s, &mut rng, 0, "Corporate", &[alice, carol, erin]);
    let ops = team(&mut s, &mut rng, 0, "Operations", &[frank, sam2, dan]);
    let gops = team(&mut s, &mut rng, 1, "Operations", &[gina, hank]);
    team(&mut s, &mut rng, 1, "Finance", &[ivy, gina]);
    let research = team(&mut s, &mut rng, 2, "Research", &[ivan, judy]);
    // fixtures.rs relies on these indices.
    assert_eq!(
        (alice, bob, carol, dan, sam1, erin, frank, gina, hank, ivan, judy),
        (0, 1, 2, 3, 4, 6, 7, 8, 9, 11, 12)
    );
    assert_eq!((lit1, lit2, corp, ops, gops, research), (0, 1, 2, 3, 4, 6));
    // More people in Acme (benchmarks: a user involved in a few percent
    // of what they see); after every index above, so a seed without
    // them is unchanged.
    let staff: Vec<usize> = (1..=staff)
        .map(|i| {
            user(
                &mut s,
                &mut rng,
                0,
                &format!("Staff {i:03}"),
                &format!("staff{i:03}@acme.test"),
            )
        })
        .collect();

    for org in 0..3 {
        for (i, c) in CLIENTS.iter().take(6).enumerate() {
            let id = rng.uuid();
            s.items.push(Item {
                id,
                org,
                kind: "chat",
                display_name: format!("{c} kickoff chat"),
                check_ids: vec![],
            });
            let id = rng.uuid();
            s.items.push(Item {
                id,
                org,
                kind: "review",
                display_name: format!("{} review — {c}", DOCS[i]),
                check_ids: (0..4)
                    .map(|k| format!("chk-{}", 101 + i * 40 + k * 30))
                    .collect(),
            });
            if i < 4 {
                let id = rng.uuid();
                s.items.push(Item {
                    id,
                    org,
                    kind: "report",
                    display_name: format!("{} report — {c}", PERIODS[i]),
                    check_ids: vec![],
                });
            }
        }
        for (name, size, ct) in [
            (
                "NDA_Northwind_v3.docx",
                48_213,
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            ),
            ("SPA_Fabrikam_execution.pdf", 1_204_332, "application/pdf"),
            ("ledger_export_october.csv", 88_120, "text/csv"),
            (
                "board_pack_q4_draft.pptx",
                3_402_117,
                "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            ),
            ("witness_statement_jones.pdf", 230_441, "application/pdf"),
            (
                "exhibits_index.xlsx",
                19_877,
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            ),
            ("site_photo_01.jpg", 912_004, "image/jpeg"),
            ("kyc_checklist.pdf", 64_530, "application/pdf"),
        ] {
            let id = rng.uuid();
            s.files.push(FileObj {
                id,
                org,
                name: name.into(),
                size_bytes: size,
                content_type: ct.into(),
            });
        }
        for name in ["Drafting Assistant", "Research Agent"] {
            let id = rng.uuid();
            s.agents.push(Named {
                id,
                org,
                name: name.into(),
                extra: "agent".into(),
            });
        }
        for (i, name) in [
            "Northwind v. Contoso",
            "Fabrikam acquisition",
            "Tailspin arbitration",
            "Proseware restructuring",
        ]
        .iter()
        .enumerate()
        {
            let id = rng.uuid();
            s.matters.push(Named {
                id,
                org,
                name: (*name).into(),
                extra: format!("M-2026-{:03}", 11 + i * 7),
            });
        }
    }

    let mut c = Ctx {
        rng,
        // The top of the hour: the same seed gives the same times for an
        // hour, so a demo started again does not look changed everywhere
        // to the local store.
        now: Utc::now()
            .with_nanosecond(0)
            .and_then(|t| t.with_second(0))
            .and_then(|t| t.with_minute(0))
            .unwrap(),
        s,
    };
    let files0 = c.org_of(&c.s.files, 0, |f| f.org);

    fixtures::add(&mut c, &files0);

    let fixtures = c.s.tasks.len();
    random::random_tasks(&mut c, n_tasks.saturating_sub(fixtures), alice);
    if quirks {
        quirks::quirk_tasks(&mut c, bob, alice, lit1);
    }

    let key = |k: &str, u: usize, note: &str, s: &Store| {
        (
            DemoKey {
                key: k.into(),
                user_name: s.users[u].name.clone(),
                user_email: s.users[u].email.clone(),
                org_name: s.orgs[s.users[u].org].name.clone(),
                note: note.into(),
            },
            u,
        )
    };
    let s = c.s;
    let mut keys = vec![
        key(
            "demo-alice-acme",
            alice,
            "main demo user; every feature enabled",
            &s,
        ),
        key("demo-bob-acme", bob, "same organisation as Alice", &s),
        key(
            "demo-carol-acme",
            carol,
            "same organisation; creator of private tasks",
            &s,
        ),
        key(
            "demo-sam-acme",
            sam1,
            "one of two people named Sam Taylor",
            &s,
        ),
        key(
            "demo-gina-globex",
            gina,
            "no requester thread, no Visual Builder",
            &s,
        ),
        key(
            "demo-ivan-initech",
            ivan,
            "requester thread on, no Visual Builder",
            &s,
        ),
    ];
    if let Some(&first) = staff.first() {
        keys.push(key(
            "demo-staff-acme",
            first,
            "one of the --staff people of Acme",
            &s,
        ));
    }
    (s, keys)
}
