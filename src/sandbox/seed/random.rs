//! Pseudo-random bulk tasks.

use jiff::SignedDuration;
use serde_json::json;
use uuid::Uuid;

use super::ctx::Ctx;
use crate::sandbox::store::*;

pub(crate) const CLIENTS: &[&str] = &[
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
pub(crate) const DOCS: &[&str] = &[
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
pub(crate) const PERIODS: &[&str] = &[
    "Q1", "Q2", "Q3", "Q4", "October", "November", "December", "FY2026",
];
pub(crate) const TEMPLATES: &[&str] = &[
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
pub(crate) const DESCS: &[&str] = &[
    "Please go through the latest version and flag anything unusual before the call.",
    "Client asked for a summary by end of week; keep it to one page.",
    "Use the template in the shared drive; the previous version had errors in section 4.",
    "Numbers need to tie back to the ledger export attached.",
    "Coordinate with the counterparty's counsel; they prefer email.",
    "Check the change-of-control and termination clauses in particular.",
    "Pull the figures from the finance dashboard and note any variance above 5%.",
    "Confirm the signatories and the execution version before sending.",
];
pub(crate) const CONTEXTS: &[&str] = &[
    "The client is sensitive about timelines after the last delay.",
    "Partner review needed before anything goes out.",
    "See the chat with the account team for background.",
    "Budget approved up to 10 hours.",
];
pub(crate) const TAGS: &[&str] = &[
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
pub(crate) const COMMENTS: &[&str] = &[
    "Started on this, first pass by tomorrow.",
    "Can someone confirm the governing law?",
    "Uploaded the latest draft.",
    "Waiting on the client to send the signed copy.",
    "Numbers look off for March, rechecking.",
    "Looks good to me.",
    "Flagged two clauses for partner review.",
    "Moved the deadline after talking to the client.",
];

pub(crate) fn random_tasks(c: &mut Ctx, n: usize, alice: usize) {
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
        let (client, doc, period): (&str, &str, &str) =
            (*r.pick(CLIENTS), *r.pick(DOCS), *r.pick(PERIODS));
        let title = r
            .pick(TEMPLATES)
            .replace("{client}", client)
            .replace("{doc}", doc)
            .replace("{period}", period);
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
        t.created_at -= SignedDuration::from_secs(r.below(86_400) as i64);
        let updated = t.created_at + SignedDuration::from_mins(r.below(20_000) as i64);
        t.updated_at = updated.min(c.now);
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
