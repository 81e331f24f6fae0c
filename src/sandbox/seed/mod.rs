//! Deterministic seed data (fixed-seed PRNG; dates relative to start time).

mod ctx;
mod fixtures;
mod random;

use super::shared::DemoKey;
use super::store::*;
use ctx::{Ctx, Rng};
use random::{CLIENTS, DOCS, PERIODS};

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
    let carol = user(&mut s, &mut rng, 0, "Carol Nguyễn", "carol@acme.test");
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
        now: {
            let secs = jiff::Timestamp::now().as_second();
            jiff::Timestamp::from_second(secs - secs.rem_euclid(3600)).unwrap()
        },
        s,
    };
    let files0 = c.org_of(&c.s.files, 0, |f| f.org);

    fixtures::add(&mut c, &files0);

    let fixtures = c.s.tasks.len();
    random::random_tasks(&mut c, n_tasks.saturating_sub(fixtures), alice);
    if quirks {
        fixtures::quirk_tasks(&mut c, bob, alice, lit1);
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

#[cfg(test)]
mod tests {
    /// What the seed says happened has happened: no task, comment or
    /// message is created or updated after the seed's now (the demo said
    /// "updated in 3 h", and ordered by those times oddly: a task made
    /// today was updated 3 hours ahead, random tasks up to days ahead).
    #[test]
    fn the_seed_sets_no_time_after_its_now() {
        let (s, _) = super::seed(1_000, true, 3);
        let now = jiff::Timestamp::now();
        for t in &s.tasks {
            let n = t.number;
            assert!(t.created_at <= now, "#{n} created {}", t.created_at);
            assert!(t.updated_at <= now, "#{n} updated {}", t.updated_at);
            assert!(t.created_at <= t.updated_at, "#{n}");
            for c in &t.comments {
                assert!(c.created_at <= now, "#{n}: a comment at {}", c.created_at);
                assert!(
                    c.updated_at <= now,
                    "#{n}: a comment edited {}",
                    c.updated_at
                );
                assert!(c.created_at <= c.updated_at, "#{n}");
            }
            for m in &t.thread {
                assert!(m.created_at <= now, "#{n}: a message at {}", m.created_at);
            }
        }
    }
}
