//! Deterministic seed data (fixed-seed PRNG; dates relative to start time).

use chrono::{DateTime, Duration, Timelike, Utc};
use serde_json::{json, Value};
use uuid::Uuid;

use super::store::*;
use super::DemoKey;

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

const CLIENTS: &[&str] = &[
    "Northwind Traders",
    "Contoso",
    "Fabrikam",
    "Tailspin Toys",
    "Wide World Importers",
    "Litware",
    "Adventure Works",
    "Proseware",
    "Woodgrove Bank",
    "Alpine Ski House",
    "Coho Winery",
    "Lucerne Publishing",
];
const DOCS: &[&str] = &[
    "NDA",
    "master services agreement",
    "share purchase agreement",
    "lease renewal",
    "data processing addendum",
    "board minutes",
    "disclosure schedule",
    "engagement letter",
    "witness statement",
    "supplier contract",
    "credit agreement",
    "employment contract",
];
const PERIODS: &[&str] = &[
    "Q1", "Q2", "Q3", "Q4", "October", "November", "December", "FY2026",
];
const TEMPLATES: &[&str] = &[
    "Review {doc} for {client}",
    "Draft {doc} for {client}",
    "Redline {client} {doc}",
    "Chase {client} for signed {doc}",
    "Summarise key risks in {client} {doc}",
    "Reconcile {client} invoices for {period}",
    "Prepare {period} KPI report for {client}",
    "Update KYC file for {client}",
    "Analyse churn figures for {client} ({period})",
    "Schedule kickoff call with {client}",
    "Check conflicts for new {client} matter",
    "Renew {client} {doc}",
    "Triage inbound request from {client}",
    "Collate evidence bundle for {client} dispute",
    "Benchmark {client} pricing against {period} market data",
    "Onboard {client} to the client portal",
];
const DESCS: &[&str] = &[
    "Please go through the latest version and flag anything unusual before the call.",
    "Client asked for a summary by end of week; keep it to one page.",
    "Use the template in the shared drive; the previous version had errors in section 4.",
    "Numbers need to tie back to the ledger export attached.",
    "Coordinate with the counterparty's counsel; they prefer email.",
    "Check the change-of-control and termination clauses in particular.",
    "Pull the figures from the finance dashboard and note any variance above 5%.",
    "Confirm the signatories and the execution version before sending.",
];
const CONTEXTS: &[&str] = &[
    "The client is sensitive about timelines after the last delay.",
    "Partner review needed before anything goes out.",
    "See the chat with the account team for background.",
    "Budget approved up to 10 hours.",
];
const TAGS: &[&str] = &[
    "contract",
    "nda",
    "litigation",
    "kyc",
    "finance",
    "compliance",
    "gdpr",
    "vendor",
    "onboarding",
    "reporting",
    "q4",
    "client-urgent",
];
const COMMENTS: &[&str] = &[
    "Started on this, first pass by tomorrow.",
    "Can someone confirm the governing law?",
    "Uploaded the latest draft.",
    "Waiting on the client to send the signed copy.",
    "Numbers look off for March, rechecking.",
    "Looks good to me.",
    "Flagged two clauses for partner review.",
    "Moved the deadline after talking to the client.",
];

struct Ctx {
    rng: Rng,
    now: DateTime<Utc>,
    s: Store,
}

impl Ctx {
    fn org_users(&self, org: usize) -> Vec<usize> {
        (0..self.s.users.len())
            .filter(|u| self.s.users[*u].org == org)
            .collect()
    }
    fn org_of<T>(&self, v: &[T], org: usize, f: impl Fn(&T) -> usize) -> Vec<usize> {
        (0..v.len()).filter(|i| f(&v[*i]) == org).collect()
    }
    fn item(&self, org: usize, kind: &str, nth: usize) -> usize {
        (0..self.s.items.len())
            .filter(|i| self.s.items[*i].org == org && self.s.items[*i].kind == kind)
            .nth(nth)
            .unwrap()
    }
    fn days(&self, d: i64) -> DateTime<Utc> {
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
    fn base(
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
    fn link(&self, item: usize, role: &str, checks: Option<Vec<&str>>) -> Link {
        let it = &self.s.items[item];
        Link {
            kind: it.kind.into(),
            id: it.id,
            display_name: it.display_name.clone(),
            role: role.into(),
            context: checks.map(|c| json!({"check_ids": c})),
        }
    }
    fn comment(
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
    fn inbound(&mut self, t: &Task, who: &str, text: &str) -> Message {
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
pub(crate) fn seed(n_tasks: usize, quirks: bool) -> (Store, Vec<(DemoKey, usize)>) {
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
    let _ = lit2;

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
        now: Utc::now().with_nanosecond(0).unwrap(),
        s,
    };
    let files0 = c.org_of(&c.s.files, 0, |f| f.org);

    // --- Hand-written fixtures (numbers #1..#18) ---
    let mut t1 = c.base(
        0,
        "Reply to Northwind re: NDA redlines",
        bob,
        Some(alice),
        lit1,
        "personal_mailbox",
        "private",
        3,
    );
    t1.status = "in_progress".into();
    t1.priority = "high".into();
    t1.complete_by = Some(c.days(2));
    t1.tags = vec!["nda".into(), "contract".into()];
    t1.description = Some(
        "Northwind sent redlines to Alice's mailbox; reply with our position on clause 7.".into(),
    );
    let m = c.inbound(
        &t1,
        "Priya Shah <priya@northwind.example>",
        "Please find our redlines attached. Can you confirm clause 7 by Friday?",
    );
    t1.thread.push(m);
    let cm = c.comment(
        &t1,
        alice,
        "Clause 7 is fine if we keep the carve-out.",
        None,
        false,
    );
    t1.comments.push(cm);
    let t1_id = t1.id;
    c.s.add_task(t1);

    let mut t2 = c.base(
        0,
        "Confirm engagement letter with Contoso",
        carol,
        Some(alice),
        corp,
        "email",
        "customer",
        5,
    );
    t2.complete_by = Some(c.days(4));
    t2.tags = vec!["contract".into()];
    t2.description =
        Some("Contoso asked for confirmation of the fee cap in the engagement letter.".into());
    let m = c.inbound(
        &t2,
        "legal@contoso.example",
        "Could you confirm the fee cap we discussed?",
    );
    t2.thread.push(m);
    c.s.add_task(t2);

    let mut t3 = c.base(
        0,
        "Assess review findings for Fabrikam share purchase agreement",
        alice,
        Some(bob),
        lit1,
        "web",
        "customer",
        4,
    );
    t3.priority = "urgent".into();
    t3.status = "in_progress".into();
    t3.complete_by = Some(c.days(1));
    t3.tags = vec!["contract".into(), "client-urgent".into()];
    t3.description =
        Some("Go through the failed checks of the SPA review and propose fixes.".into());
    t3.additional_context = Some("Fabrikam signs next week; escalate anything blocking.".into());
    let rv = c.item(0, "review", 2);
    let ch = c.item(0, "chat", 2);
    t3.links = vec![
        c.link(rv, "subject", Some(vec!["chk-104", "chk-221"])),
        c.link(ch, "reference", None),
    ];
    t3.links.push(Link {
        kind: "task".into(),
        id: t1_id,
        display_name: "#1 Reply to Northwind re: NDA redlines".into(),
        role: "reference".into(),
        context: None,
    });
    let c1 = c.comment(
        &t3,
        bob,
        "I have started on the SPA checks; chk-104 looks like a false positive.",
        None,
        false,
    );
    let c2 = c.comment(
        &t3,
        alice,
        "Thanks, focus on chk-221 first.",
        Some(c1.id),
        false,
    );
    let c3 = c.comment(
        &t3,
        carol,
        "Fabrikam's counsel wants a call on Thursday (edited: moved to Friday).",
        None,
        true,
    );
    t3.comments = vec![c1, c2, c3];
    c.s.add_task(t3);

    let mut t4 = c.base(
        0,
        "Close out 2025 audit binder",
        carol,
        Some(alice),
        corp,
        "web",
        "customer",
        60,
    );
    t4.status = "completed".into();
    t4.archived = true;
    c.s.add_task(t4);

    let mut t5 = c.base(
        0,
        "Respond to new matter intake from Litware",
        alice,
        Some(alice),
        corp,
        "email",
        "private",
        0,
    );
    t5.draft = true;
    t5.priority = "high".into();
    t5.description =
        Some("Drafted from an inbound e-mail: Litware wants advice on a supplier dispute.".into());
    let m = c.inbound(
        &t5,
        "ops@litware.example",
        "We need advice on a supplier dispute, can we talk?",
    );
    t5.thread.push(m);
    c.s.add_task(t5);

    let mut t6 = c.base(
        0,
        "Prepare Q4 board pack",
        carol,
        Some(alice),
        corp,
        "web",
        "customer",
        10,
    );
    t6.priority = "high".into();
    t6.status = "in_progress".into();
    t6.complete_by = Some(c.days(6));
    t6.tags = vec!["reporting".into(), "q4".into()];
    let parent = t6.id;
    c.s.add_task(t6);
    for (title, who, st) in [
        ("Collect divisional KPIs for board pack", dan, "in_progress"),
        ("Draft board pack cover memo", alice, "not_started"),
        ("Book board meeting room and dial-in", frank, "completed"),
    ] {
        let mut t = c.base(0, title, carol, Some(who), corp, "web", "customer", 9);
        t.parent = Some(parent);
        t.status = st.into();
        t.complete_by = Some(c.days(5));
        t.tags = vec!["q4".into()];
        c.s.add_task(t);
    }

    let mut t10 = c.base(
        0,
        "Privileged: settlement strategy for Contoso dispute",
        carol,
        None,
        lit2,
        "web",
        "private",
        7,
    );
    t10.priority = "high".into();
    t10.involved.push(Involved {
        user: bob,
        role: "collaborator".into(),
        access: "write".into(),
    });
    t10.involved.push(Involved {
        user: alice,
        role: "watcher".into(),
        access: "read".into(),
    });
    c.s.add_task(t10);

    let mut t11 = c.base(
        0,
        "Compile exhibits bundle for Tailspin arbitration",
        dan,
        Some(alice),
        lit1,
        "slack",
        "customer",
        8,
    );
    t11.input_files = vec![files0[4], files0[5]];
    t11.output_files = vec![files0[1]];
    t11.matter = Some(c.org_of(&c.s.matters, 0, |m| m.org)[2]);
    t11.agent = Some(c.org_of(&c.s.agents, 0, |a| a.org)[0]);
    t11.complete_by = Some(c.days(3));
    c.s.add_task(t11);

    let mut t12 = c.base(
        0,
        "File overdue annual return for Proseware",
        erin,
        Some(alice),
        corp,
        "email",
        "private",
        20,
    );
    t12.priority = "urgent".into();
    t12.complete_by = Some(c.days(-3));
    t12.tags = vec!["compliance".into()];
    c.s.add_task(t12);

    let t13 = c.base(
        0,
        "HR investigation notes (confidential)",
        dan,
        Some(erin),
        ops,
        "web",
        "private",
        6,
    );
    c.s.add_task(t13);

    let mut t14 = c.base(
        0,
        "Issue litigation hold notices",
        carol,
        None,
        lit1,
        "web",
        "private",
        2,
    );
    t14.shared_teams = vec![(lit1, "read".into())];
    t14.tags = vec!["litigation".into()];
    c.s.add_task(t14);

    let mut t15 = c.base(
        0,
        "Quarterly vendor access review",
        frank,
        Some(sam1),
        ops,
        "slack",
        "customer",
        12,
    );
    t15.tags = vec!["vendor".into(), "compliance".into()];
    t15.complete_by = Some(c.days(9));
    c.s.add_task(t15);

    let mut t16 = c.base(
        1,
        "Reconcile freight invoices for October",
        gina,
        Some(hank),
        gops,
        "email",
        "customer",
        4,
    );
    t16.tags = vec!["finance".into()];
    c.s.add_task(t16);
    let mut t17 = c.base(
        1,
        "Renew warehouse insurance policy",
        hank,
        Some(gina),
        gops,
        "personal_mailbox",
        "customer",
        3,
    );
    t17.complete_by = Some(c.days(2));
    c.s.add_task(t17);
    let t18 = c.base(
        2,
        "Summarise user interview notes",
        judy,
        Some(ivan),
        research,
        "email",
        "customer",
        2,
    );
    c.s.add_task(t18);

    let fixtures = c.s.tasks.len();
    random_tasks(&mut c, n_tasks.saturating_sub(fixtures), alice);
    if quirks {
        quirk_tasks(&mut c, bob, alice, lit1);
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
    let keys = vec![
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
    (s, keys)
}

fn random_tasks(c: &mut Ctx, n: usize, alice: usize) {
    let users: Vec<Vec<usize>> = (0..3).map(|o| c.org_users(o)).collect();
    let teams: Vec<Vec<usize>> = (0..3).map(|o| c.org_of(&c.s.teams, o, |t| t.org)).collect();
    let items: Vec<Vec<usize>> = (0..3).map(|o| c.org_of(&c.s.items, o, |t| t.org)).collect();
    let files: Vec<Vec<usize>> = (0..3).map(|o| c.org_of(&c.s.files, o, |t| t.org)).collect();
    let agents: Vec<Vec<usize>> = (0..3)
        .map(|o| c.org_of(&c.s.agents, o, |t| t.org))
        .collect();
    let matters: Vec<Vec<usize>> = (0..3)
        .map(|o| c.org_of(&c.s.matters, o, |t| t.org))
        .collect();
    let mut parents: Vec<Vec<Uuid>> = vec![vec![]; 3];
    for _ in 0..n {
        let r = &mut c.rng;
        let org = match r.below(10) {
            0..=6 => 0,
            7 | 8 => 1,
            _ => 2,
        };
        let title = r
            .pick(TEMPLATES)
            .replace("{client}", *r.pick(CLIENTS))
            .replace("{doc}", *r.pick(DOCS))
            .replace("{period}", *r.pick(PERIODS));
        let creator = *r.pick(&users[org]);
        let assignee = if r.chance(80) {
            Some(if org == 0 && r.chance(25) {
                alice
            } else {
                *r.pick(&users[org])
            })
        } else {
            None
        };
        let team = *r.pick(&teams[org]);
        let channel = r.weighted(&[
            ("email", 35),
            ("slack", 20),
            ("web", 35),
            ("personal_mailbox", 10),
        ]);
        let vis = if r.chance(60) { "customer" } else { "private" };
        let age = 1 + r.below(90) as i64;
        let mut t = c.base(org, &title, creator, assignee, team, channel, vis, age);
        let r = &mut c.rng;
        t.created_at -= Duration::seconds(r.below(86_400) as i64);
        t.updated_at = t.created_at + Duration::minutes(r.below(20_000) as i64);
        t.status = r
            .weighted(&[
                ("not_started", 30),
                ("in_progress", 35),
                ("waiting_on_external", 15),
                ("completed", 20),
            ])
            .into();
        t.priority = r
            .weighted(&[
                ("urgent", 8),
                ("high", 20),
                ("medium", 35),
                ("low", 20),
                ("no_priority", 17),
            ])
            .into();
        t.description = if r.chance(90) {
            Some(r.pick(DESCS).to_string())
        } else {
            None
        };
        t.additional_context = if r.chance(30) {
            Some(r.pick(CONTEXTS).to_string())
        } else {
            None
        };
        for _ in 0..r.below(4) {
            let tag = r.pick(TAGS).to_string();
            if !t.tags.contains(&tag) {
                t.tags.push(tag);
            }
        }
        if !r.chance(15) {
            let d = r.below(46) as i64 - 15;
            t.complete_by = Some(c.days(d));
        }
        let r = &mut c.rng;
        for _ in 0..r.below(3) {
            let u = *r.pick(&users[org]);
            if !t.involved.iter().any(|i| i.user == u) {
                let (role, access) = if r.chance(50) {
                    ("collaborator", "write")
                } else {
                    ("watcher", "read")
                };
                t.involved.push(Involved {
                    user: u,
                    role: role.into(),
                    access: access.into(),
                });
            }
        }
        if r.chance(25) {
            let access = if r.chance(50) { "read" } else { "write" };
            t.shared_teams.push((*r.pick(&teams[org]), access.into()));
        }
        if r.chance(30) {
            t.assigned_team = Some(*r.pick(&teams[org]));
        }
        if r.chance(15) {
            t.agent = Some(*r.pick(&agents[org]));
        }
        if r.chance(30) {
            t.matter = Some(*r.pick(&matters[org]));
        }
        t.archived = r.chance(5);
        t.draft = !t.archived && r.chance(4);
        for _ in 0..r.below(3) {
            let it = *c.rng.pick(&items[org]);
            if t.links.iter().any(|l| l.id == c.s.items[it].id) {
                continue;
            }
            let role = c
                .rng
                .weighted(&[("reference", 60), ("subject", 25), ("output", 15)]);
            let item = &c.s.items[it];
            let ctx = if item.kind == "review" && c.rng.chance(60) {
                let n = 1 + c.rng.below(item.check_ids.len() as u64) as usize;
                Some(json!({"check_ids": item.check_ids[..n]}))
            } else {
                None
            };
            t.links.push(Link {
                kind: item.kind.into(),
                id: item.id,
                display_name: item.display_name.clone(),
                role: role.into(),
                context: ctx,
            });
        }
        let r = &mut c.rng;
        if r.chance(30) {
            t.input_files.push(*r.pick(&files[org]));
        }
        if r.chance(15) {
            t.output_files.push(*r.pick(&files[org]));
        }
        if !parents[org].is_empty() && r.chance(8) {
            t.parent = Some(*r.pick(&parents[org]));
        } else if r.chance(20) {
            parents[org].push(t.id);
        }
        for _ in 0..c.rng.below(4) {
            let author = *c.rng.pick(&users[org]);
            let text = c.rng.pick(COMMENTS).to_string();
            let parent = if !t.comments.is_empty() && c.rng.chance(30) {
                Some(t.comments[c.rng.below(t.comments.len() as u64) as usize].id)
            } else {
                None
            };
            let edited = c.rng.chance(20);
            let cm = c.comment(&t, author, &text, parent, edited);
            t.comments.push(cm);
        }
        t.sync_assignee();
        c.s.add_task(t);
    }
}

fn quirk_tasks(c: &mut Ctx, bob: usize, alice: usize, team: usize) {
    let specs: [(&str, &str, u8); 5] = [
        (
            "Escalation with fields from a newer API version",
            "urgent",
            1,
        ),
        ("Task with unusual agent, matter and file shapes", "high", 2),
        (
            "Terminal escapes \u{1b}[2J cleared? \u{1b}]52;c;aGk=\u{7} copied? \u{202e}fdp.exe",
            "urgent",
            3,
        ),
        ("Malformed task (not a valid Task)", "medium", 4),
        ("Task with a string matter and a list of agents", "low", 5),
    ];
    for (title, prio, q) in specs {
        let mut t = c.base(0, title, bob, Some(alice), team, "email", "customer", 1);
        t.priority = prio.into();
        t.quirk = q;
        t.complete_by = Some(c.days(2));
        if q == 3 {
            t.description =
                Some("Description with \u{1b}[31mred\u{1b}[0m text and \u{202e}reversed".into());
        }
        c.s.add_task(t);
    }
}

/// Applies a forward-compatibility quirk to a rendered task.
pub(crate) fn apply_quirk(kind: u8, v: &mut Value) {
    match kind {
        1 => {
            v["status"] = json!("blocked");
            v["priority"] = json!("critical");
            v["visibility"] = json!("org");
            v["x_sla"] = json!({"tier": 2, "breach_at": null});
            v["creator"]["x_pronouns"] = json!("they/them");
            v["team"]["x_cost_centre"] = json!("CC-17");
            if let Some(a) = v["linked_items"].as_array_mut() {
                a.push(
                    json!({"type": "chat", "id": "7d3f9a52-0d1e-4c1b-9a0e-2f5b8c1d4e6f",
                    "display_name": "Escalation chat", "role": "owner", "context": null,
                    "is_output": false, "x_weight": 0.5}),
                );
            }
            if let Some(a) = v["involved_people"].as_array_mut() {
                a.push(
                    json!({"id": "0b8e4c1a-5f2d-4e3b-8a7c-6d9e1f2a3b4c", "name": "Audit Bot",
                    "email": "audit-bot@acme.test", "role": "auditor", "access_level": "admin"}),
                );
            }
        }
        2 => {
            v["assigned_agent"] = json!("legacy-agent-7");
            v["assigned_team"] = json!("Litigation");
            v["matter"] = json!({"id": "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "name": "Legacy matter",
                "client": {"name": "Contoso", "codes": [1, 2, {"deep": true}]}});
            v["input_files"] =
                json!(["scan-001.pdf", {"id": "f1", "name": "odd.bin", "meta": {"pages": 3}}, 42]);
            v["output_files"] = json!([{"name": "no-id.txt"}]);
        }
        4 => {
            v["title"] = json!(42);
            v["tags"] = json!("oops");
            v["involved_people"] = json!("nobody");
            v["created_at"] = json!(12345);
        }
        5 => {
            v["matter"] = json!("M-LEGACY-9");
            v["assigned_agent"] = json!([{"id": "agent-1"}, "second agent"]);
            v["input_files"] = json!({"primary": {"id": "x", "name": "nested.pdf"}});
            v["source_channel"] = json!("teams");
        }
        _ => {}
    }
}
