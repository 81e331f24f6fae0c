//! Hand-written fixture tasks #1..#18 (documented in docs/sandbox.md).

use super::ctx::Ctx;
use crate::sandbox::store::*;

// Indices fixed by the creation order in `seed::seed`.
const ALICE: usize = 0;
const BOB: usize = 1;
const CAROL: usize = 2;
const DAN: usize = 3;
const SAM1: usize = 4;
const ERIN: usize = 6;
const FRANK: usize = 7;
const GINA: usize = 8;
const HANK: usize = 9;
const IVAN: usize = 11;
const JUDY: usize = 12;
const LIT1: usize = 0;
const LIT2: usize = 1;
const CORP: usize = 2;
const OPS: usize = 3;
const GOPS: usize = 4;
const RESEARCH: usize = 6;

pub(crate) fn add(c: &mut Ctx, files0: &[usize]) {
    let (alice, bob, carol, dan, sam1, erin, frank) = (ALICE, BOB, CAROL, DAN, SAM1, ERIN, FRANK);
    let (gina, hank, ivan, judy) = (GINA, HANK, IVAN, JUDY);
    let (lit1, lit2, corp, ops, gops, research) = (LIT1, LIT2, CORP, OPS, GOPS, RESEARCH);
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
    let idx3 = c.s.add_task(t3);

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
    let (t5_id, t5_title) = (t5.id, t5.title.clone());
    c.s.add_task(t5);
    // The draft is reached the way a real service lets one be reached: a
    // visible task links to it (lists never include drafts; see
    // docs/sandbox.md, "How drafts are reached").
    c.s.tasks[idx3].links.push(Link {
        kind: "task".into(),
        id: t5_id,
        display_name: format!("#5 {t5_title}"),
        role: "reference".into(),
        context: None,
    });

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
}

/// Forward-compatibility quirk tasks (`SandboxOptions::quirks`), rendered
/// oddly by `quirks::apply_quirk`.
pub(crate) fn quirk_tasks(c: &mut Ctx, bob: usize, alice: usize, team: usize) {
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
        if q == 4 {
            // Three comments; the middle one is listed malformed
            // (`apply_comment_quirk`).
            for text in [
                "Readable comment before the odd one",
                "(listed as a malformed comment)",
                "Readable comment after the odd one",
            ] {
                let cm = c.comment(&t, bob, text, None, false);
                t.comments.push(cm);
            }
        }
        if q == 5 {
            // A readable task with one comment listed malformed: what the
            // inbox's walk cannot read, even lossily (issue 42 §10).
            let cm = c.comment(&t, bob, "(listed as a malformed comment)", None, false);
            t.comments.push(cm);
        }
        if q == 3 {
            t.description =
                Some("Description with \u{1b}[31mred\u{1b}[0m text and \u{202e}reversed".into());
        }
        c.s.add_task(t);
    }
}
