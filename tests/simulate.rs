//! The simulator (issue 43, `taskdeck::sim`, `docs/testing.md`): the
//! fixed seeds CI runs, a seed being a run, and the simulator's own tests
//! — each rule broken on purpose is caught, so that the simulator can
//! never silently check nothing.

use taskdeck::sim::{self, Break, Config, Outcome};

fn run(seed: u64, steps: usize, broken: Option<Break>) -> Outcome {
    let mut cfg = Config::new(seed, steps);
    cfg.broken = broken;
    sim::run(&cfg)
}

fn assert_clean(seed: u64, out: &Outcome) {
    assert!(
        out.violations.is_empty(),
        "{}\nfirst: {:?}\nreplay: cargo run --release --example simulate -- --seed {seed} --steps {} --replay",
        out.summary(seed),
        out.violations.first(),
        out.steps
    );
}

/// The seeds CI runs (each bug the simulator finds adds its seed here).
const SEEDS: &[(u64, usize)] = &[(1, 600), (2, 600), (3, 600), (4, 600)];

/// A seed whose writes are lost after they were applied, some of them
/// tried again by a client broken so (`retry-writes`).
const RETRY_SEED: u64 = 3;

#[test]
fn the_fixed_seeds_hold() {
    for &(seed, steps) in SEEDS {
        let out = run(seed, steps, None);
        assert_clean(seed, &out);
        assert_eq!(out.steps, steps);
        // It did something worth checking: frames, writes, crashes.
        assert_eq!(out.stats.get("frames").copied(), Some(steps as u64));
        assert!(
            out.stats.get("writes applied").copied().unwrap_or(0) > 0,
            "{:?}",
            out.stats
        );
    }
}

/// Each bug the simulator found whose seed takes thousands of steps to
/// reach it, kept as the steps it shrank to (`tests/simulate/*.steps`,
/// `sim::script`): each runs whole and clean. Each file says what it
/// found, the fix, and the unit test that holds it.
#[test]
fn the_shrunk_runs_of_what_the_simulator_found_hold() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/simulate");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/simulate")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "steps"))
        .collect();
    names.sort();
    assert!(names.len() >= 3, "{names:?}");
    for path in names {
        let text = std::fs::read_to_string(&path).expect("a script");
        let script =
            sim::Script::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            text.lines().take_while(|l| l.starts_with('#')).count() >= 2,
            "{}: says what it found and what holds it",
            path.display()
        );
        let out = sim::run_script(&script, false);
        assert!(
            out.violations.is_empty(),
            "{}: {}\nfirst: {:?}\nreplay: cargo run --release --example simulate -- --script {} --replay",
            path.display(),
            out.summary(script.seed),
            out.violations.first(),
            path.display()
        );
        assert_eq!(out.steps, script.steps.len(), "{}", path.display());
    }
}

#[test]
fn a_seed_is_a_run_byte_for_byte() {
    let a = run(101, 400, None);
    let b = run(101, 400, None);
    let c = run(102, 400, None);
    assert_clean(101, &a);
    assert_eq!(a.digest, b.digest, "one seed, one digest");
    assert_eq!(sim::first_difference(&a, &b), None, "step by step");
    assert_eq!(a.step_digests.len(), 400);
    assert_eq!(a.step_digests.last(), Some(&a.digest));
    assert_eq!(a.stats, b.stats);
    assert_ne!(a.digest, c.digest, "two seeds, two digests");
    assert!(sim::first_difference(&a, &c).is_some());
    assert_eq!(
        a.summary(101),
        format!(
            "simulated 400 steps (seed 101): 0 violations, digest {:016x}",
            a.digest
        )
    );
}

/// The seeds the undo invariant failed on. 727590415 (step 5422): the
/// service's clock set back dated an undo's answer before the edit's,
/// and the client dropped it as stale — the row went on showing the
/// undone title (a product bug, fixed in `State::is_stale`; also
/// `app::tests::undo`). It is run here as the long clean run whose undos
/// are checked. 3909963496 (12213, an agent), 1460298940 (11078, a due
/// date) and 11585966 (12011, a matter): the checker compared an undo of
/// these with the outbox's "landed" test, which never takes them as
/// landed (a checker bug, fixed in `sim::check`). They ran here to their
/// steps (~136 s of this file's ~314 s, debug, 2 threads) until the
/// checker's own test pinned exactly what they found
/// (`an_undone_due_date_agent_team_or_matter_is_compared_as_the_task_holds_it`,
/// which takes each of the four fields back to none); since then every
/// seed's path has moved (new faults, `docs/testing.md`), so the runs
/// are no longer known to meet those undos: they proved again what the
/// seed kept here proves, that a long clean run checks its undos.
#[test]
fn undo_seed_727590415_a_title_undone_by_a_service_whose_clock_went_back() {
    let out = run(727590415, 5423, None);
    assert_clean(727590415, &out);
    assert!(out.stats.get("undone fields checked").copied().unwrap_or(0) > 0);
}

/// `text::clean` returning its input: service text with escapes and bidi
/// overrides reaches the status line or a frame cell, and is caught; the
/// same seed with the cleaner intact passes, and the failure shrinks to a
/// few steps that still fail.
#[test]
fn a_cleaner_that_returns_its_input_is_caught() {
    let broken = run(2, 300, Some(Break::Clean));
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "control character", "{v:?}");
    assert_clean(2, &run(2, v.step + 1, None));

    let mut cfg = Config::new(2, 300);
    cfg.broken = Some(Break::Clean);
    let keymap = taskdeck::app::new_state("sim.test".into(), &Default::default(), false).keymap;
    let steps = sim::step::plan(2, v.step + 1, &keymap, &cfg.faults);
    let short = sim::shrink(&cfg, &steps, v.kind, 60);
    assert!(
        short.len() < steps.len() / 4,
        "{} of {}",
        short.len(),
        steps.len()
    );
    let again = sim::run_steps(&cfg, &short, false);
    assert_eq!(again.violations.first().map(|v| v.kind), Some(v.kind));
}

/// A disk that forgets the outbox's rows at a crash: the edits queued
/// and confirmed kept are not there after it, and that is caught.
#[test]
fn an_outbox_forgotten_at_a_crash_is_caught() {
    // Seed 10 (seed 2 until the faults `clock-back` and `reissue` changed
    // every seed's steps): caught at its step 238.
    let broken = run(10, 600, Some(Break::ForgetOutbox));
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "outbox after a crash", "{v:?}");
    assert_clean(10, &run(10, v.step + 1, None));
}

/// What the client creates reaching the service twice is caught.
#[test]
fn a_write_sent_twice_is_caught() {
    let broken = run(3, 1000, Some(Break::DoubleSend));
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "sent twice", "{v:?}");
    assert_clean(3, &run(3, v.step + 1, None));
}

/// A seed's run with only these faults (names as `--faults` takes them).
fn run_with(seed: u64, steps: usize, faults: &str) -> Outcome {
    let mut cfg = Config::new(seed, steps);
    cfg.faults = sim::Faults::parse(faults).unwrap();
    sim::run(&cfg)
}

/// The key reissued to another user between two runs of the client
/// (`reissue`): the edits queued as the user wait in the user's store
/// and are never applied as the other ("as another user" is checked on
/// every write the service applies, against the edit's maker); the
/// store of the key's new user is opened (`StoreLink::bind`'s switch).
#[test]
fn a_key_reissued_to_another_user_never_sends_an_edit_as_them() {
    let mut reissued = 0;
    for seed in [11, 12, 13] {
        let out = run_with(seed, 1500, "reissue,crash,outage,dropped");
        assert_clean(seed, &out);
        reissued += out.stats.get("keys reissued").copied().unwrap_or(0);
    }
    assert!(reissued >= 3, "{reissued} reissues");
}

/// The service's clock set back (`clock-back`): versions that go back
/// lose no edit, send none twice and break no other invariant.
#[test]
fn a_service_clock_set_back_breaks_nothing() {
    let mut set_back = 0;
    for seed in [21, 22] {
        let out = run_with(seed, 1500, "clock-back,others,dropped,crash");
        assert_clean(seed, &out);
        set_back += out
            .stats
            .get("service clock set back")
            .copied()
            .unwrap_or(0);
    }
    assert!(set_back >= 3, "{set_back} times");
}

/// The store switch's "as the user" guard broken on purpose
/// (`as-anyone`, `State::leave_store_of` takes every edit of the user
/// whose store closes as the new user's): after the key is reissued, an
/// edit the user queued goes out with the key of the other user, and "as
/// another user" is caught (the edit's maker is the user it was first
/// queued as, not what the outbox says when it goes); the same seed with the guard intact passes. The store switch
/// and the quit are the product's own (`State::switch_store`,
/// `State::keep_writes_in_flight`), so this tests them, not copies.
#[test]
fn an_edit_sent_as_the_other_user_after_a_reissue_is_caught() {
    let mut cfg = Config::new(11, 1500);
    cfg.faults = sim::Faults::parse("reissue,crash,outage,dropped").unwrap();
    cfg.broken = Some(Break::AsAnyone);
    let broken = sim::run(&cfg);
    let v = broken.violations.first().expect("caught");
    // Caught as the edit goes out as the other user, or before: when
    // the key's user changes, the first user's edits taken as the new
    // one's without a word ("not told", since the key reissued while
    // running was modelled).
    assert!(["as another user", "not told"].contains(&v.kind), "{v:?}");
    cfg.broken = None;
    cfg.steps = v.step + 1;
    assert_clean(11, &sim::run(&cfg));
}

/// "The detail is on the current task" broken on purpose (`other-task`:
/// an answer about any task — one read ahead, one the outbox checks —
/// lands in the detail): the detail shows one task under another's
/// header, and "current task" is caught; the same seed unbroken passes.
#[test]
fn a_detail_showing_another_task_is_caught() {
    let broken = run(7, 600, Some(Break::OtherTask));
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "current task", "{v:?}");
    assert_clean(7, &run(7, v.step + 1, None));
}

/// "Undo restores what the user saw or says why" broken on purpose
/// (`undo-claimed`: an undo's task that failed, was skipped or whose
/// outcome is unknown is recorded as undone, without a word): the task
/// still shows the undone edit's value, and "undo" is caught; the same
/// seed unbroken passes, its undos checked.
#[test]
fn an_undo_that_claims_what_it_did_not_do_is_caught() {
    let broken = run(7, 900, Some(Break::UndoClaimed));
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "undo", "{v:?}");
    let clean = run(7, v.step + 1, None);
    assert_clean(7, &clean);
    assert!(
        clean
            .stats
            .get("undone fields checked")
            .copied()
            .unwrap_or(0)
            > 0
    );
}

/// The title's guards broken on purpose (`raw-title`: the user's name
/// read as the service wrote it, and the sanitiser of an escape
/// sequence's payload keeping every character): the window title the
/// loop would write carries the service's escape sequences, and that is
/// caught in the title; the same seed unbroken passes.
#[test]
fn a_title_carrying_the_services_escapes_is_caught() {
    let broken = run(2, 300, Some(Break::RawTitle));
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "control character", "{v:?}");
    assert!(v.detail.contains("in the title"), "{v:?}");
    assert_clean(2, &run(2, v.step + 1, None));
}

/// Copying's guard broken on purpose (`copy-anything`: any text taken as
/// an id): a display id the service wrote with a tab, a line separator,
/// DEL or escapes reaches the clipboard (read back from the OSC 52 bytes
/// the loop would write), and that is caught; the same seed unbroken
/// passes, having been asked to copy (the hostile id refused, said).
#[test]
fn a_clipboard_given_the_services_controls_is_caught() {
    let broken = run(9, 300, Some(Break::CopyAnything));
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "control character", "{v:?}");
    assert!(v.detail.contains("in the clipboard"), "{v:?}");
    let clean = run(9, v.step + 1, None);
    assert_clean(9, &clean);
    assert!(clean.stats.get("copies asked").copied().unwrap_or(0) > 0);
}

/// The HTTP client's rule for trying again broken on purpose
/// (`retry-writes`: `api::client::again` tries a write again as it does
/// a read): a write applied whose connection was lost, or that timed out
/// after it was applied, is applied a second time, and "sent twice" is
/// caught; the same seed unbroken passes, its reads tried again.
#[test]
fn a_write_tried_again_by_the_http_client_is_caught() {
    let broken = run(RETRY_SEED, 1500, Some(Break::RetryWrites));
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "sent twice", "{v:?}");
    let clean = run(RETRY_SEED, v.step + 1, None);
    assert_clean(RETRY_SEED, &clean);
    assert!(
        clean
            .stats
            .get("attempts tried again by the client")
            .copied()
            .unwrap_or(0)
            > 0
    );
}

fn run_broken_with(seed: u64, steps: usize, faults: &str, broken: Break) -> Outcome {
    let mut cfg = Config::new(seed, steps);
    cfg.faults = sim::Faults::parse(faults).unwrap();
    cfg.broken = Some(broken);
    sim::run(&cfg)
}

const DISK: &str = "disk,outage,crash,dropped";

/// The model disk (a store full, or locked by another program): the
/// store fails for the session, an edit it could not keep is named NOT
/// KEPT, and an edit done whose removal it could not write comes back at
/// the next start without being sent twice (seed 43: a due date queued
/// offline, sent while the disk was full, then a crash).
#[test]
fn a_store_full_or_locked_loses_no_edit_without_a_word() {
    let out = run_with(43, 1500, DISK);
    assert_clean(43, &out);
    let failed = out.stats.get("store failures").copied().unwrap_or(0);
    assert!(failed > 0, "{:?}", out.stats);
}

/// A store that refuses a write and says nothing of it is caught, on
/// most seeds within a few hundred steps: the store's failure itself
/// unsaid (the state goes on as if it had its store), or a queued edit
/// left "being written". Before the store was locked as an edit is
/// written and its failure checked at once, this met 1 seed in 12 at
/// 600 steps (seed 49 at step 521); 9 of seeds 1–12 are caught within
/// 300 steps now.
#[test]
fn a_store_that_drops_a_write_without_a_word_is_caught() {
    const SILENT: [&str; 2] = ["store failed without a word", "not kept without a word"];
    let mut caught = Vec::new();
    for seed in 1..=5 {
        let broken = run_broken_with(seed, 300, DISK, Break::SilentStore);
        if let Some(v) = broken.violations.first() {
            assert!(SILENT.contains(&v.kind), "seed {seed}: {v:?}");
            caught.push((seed, v.step));
        }
    }
    assert!(caught.len() >= 4, "caught on {caught:?} only");
    let (seed, step) = caught[0];
    assert_clean(seed, &run_with(seed, step + 1, DISK));
}

/// The terminal hung up, the client started again from the store as
/// committed: drafts back, the outbox as kept, nothing sent twice; and a
/// key reissued while the client runs (offline) never sends the first
/// user's edits as the second.
#[test]
fn a_hang_up_and_a_key_reissued_while_running_lose_nothing_and_send_as_nobody_else() {
    let (mut hung, mut reissued) = (0, 0);
    for seed in [52, 53] {
        let out = run_with(seed, 1000, "hangup,key-live,outage,crash,dropped");
        assert_clean(seed, &out);
        hung += out.stats.get("hang-ups").copied().unwrap_or(0);
        reissued += out
            .stats
            .get("keys reissued while running")
            .copied()
            .unwrap_or(0);
    }
    assert!(
        hung >= 5 && reissued >= 5,
        "{hung} hang-ups, {reissued} reissues"
    );
}

/// The inbox's walk and notifications (the product's walk, `inbox::cycle`
/// through `inbox::link::walk_once`, polled on the simulator's thread
/// against the model service): another user's mentions, replies to the
/// user's comments and assignments are each in the inbox once, each
/// notification is decided once and carries no control character (seed
/// 61 found a display id's bidi override in a notice's words: fixed in
/// `UnreadItem::phrase`, `inbox::notify`).
#[test]
fn the_inbox_holds_each_mention_reply_and_assignment_once() {
    let (mut found, mut walks, mut told) = (0, 0, 0);
    for seed in [61, 62] {
        let out = run_with(seed, 1500, INBOX);
        assert_clean(seed, &out);
        let g = |k: &str| out.stats.get(k).copied().unwrap_or(0);
        found += g("inbox acts found once");
        walks += g("whole inbox walks");
        told += g("notifications");
    }
    assert!(
        found >= 3 && walks >= 20 && told >= 5,
        "{found} acts found once, {walks} whole walks, {told} notifications"
    );
}

const INBOX: &str = "others,hostile,outage,crash,dropped";

/// The walk broken on purpose (`lose-mentions`: a comment that mentions
/// the user becomes no item): "inbox dropped" is caught; the same seed
/// unbroken passes.
#[test]
fn a_walk_that_loses_a_mention_is_caught() {
    let broken = run_broken_with(61, 3000, INBOX, Break::LoseMentions);
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "inbox dropped", "{v:?}");
    assert_clean(61, &run_with(61, v.step + 1, INBOX));
}

/// The notifications broken on purpose (`notify-again`: what was told is
/// forgotten): an item is notified a second time, and "notified twice" is
/// caught; the same seed unbroken passes, having notified.
#[test]
fn a_notification_decided_twice_is_caught() {
    let broken = run_broken_with(61, 3000, INBOX, Break::NotifyAgain);
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "notified twice", "{v:?}");
    let clean = run_with(61, v.step + 1, INBOX);
    assert_clean(61, &clean);
    assert!(clean.stats.get("notifications").copied().unwrap_or(0) > 0);
}

/// The first walk broken on purpose (`partial-first`: a first walk that
/// stopped early, a page failed, is taken as whole): the next walk says
/// "assigned to you" of a task the user had all along, and "inbox false
/// news" is caught (seed 61: the first walk's second page dropped); the
/// same seed unbroken passes, having checked for false news.
#[test]
fn a_first_walk_that_stopped_early_making_news_is_caught() {
    let broken = run_broken_with(61, 300, INBOX, Break::PartialFirst);
    let v = broken.violations.first().expect("caught");
    assert_eq!(v.kind, "inbox false news", "{v:?}");
    let clean = run_with(61, v.step + 1, INBOX);
    assert_clean(61, &clean);
    let checked = clean
        .stats
        .get("inbox walks checked for false news")
        .copied()
        .unwrap_or(0);
    assert!(checked > 0, "{:?}", clean.stats);
}

/// Seed 3738905874 (step 11819, "outbox after a crash"), shrunk to 19
/// steps: a store switched away from keeps the claims its release could
/// not give back, held by this process until it ends; in the product the
/// next start frees them (`free_claims_of_the_dead`: the pid is gone),
/// but the simulator is one process whose pid never dies, and its
/// quit freed only the store open at the time. The next starts took none
/// of the rows (claimed by a live pid) until they went stale, and they
/// came back after a crash that had nothing queued. The model now gives
/// a closed store's claims back at the next start (`World::boot`).
#[test]
fn claims_left_in_a_store_switched_away_from_are_free_at_the_next_start() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use sim::Step;
    let steps = vec![
        Step::Key(KeyEvent::new(KeyCode::Char('Y'), KeyModifiers::NONE)),
        Step::Deliver(2057171951900948334),
        Step::Deliver(14607986333022808011),
        Step::Outage(true),
        Step::Deliver(7788005694149981768),
        Step::Palette("title 3".into()),
        Step::KeyReissuedLive,
        Step::Tick(60000),
        Step::Palette("status waiting".into()),
        Step::Tick(60000),
        Step::Outage(false),
        Step::Tick(5000),
        Step::Tick(60000),
        Step::Deliver(18051090860339639139),
        Step::Reissue,
        Step::Tick(60000),
        Step::Deliver(8722410676011497670),
        Step::Tick(60000),
        Step::Crash(8847020335490079393),
    ];
    let cfg = Config::new(3738905874, steps.len());
    let out = sim::run_steps(&cfg, &steps, false);
    assert_clean(3738905874, &out);
    assert_eq!(out.steps, steps.len());
}

/// Tasks #1–#5 taken from the user, the inbox's first walk, the five
/// given back to the user by another user (each an assignment awaited in
/// the inbox), a walk that reads their comments, then another change of
/// each by the other user and eight more walks (30 s each). The numbers
/// are `Service::other`'s draws: `r % 14` the task (#1–#5 of the model's
/// 14), `(r >> 8) % 20` what changes — 8, a comment's draw whose
/// `(r >> 24) % 4 == 3` moves the assignee (from the user to Bob, and
/// back); 0, the status, to "waiting on external" (`(r >> 16) % 4 ==
/// 3`). `deliver 0` answers the first request, `GET /me`: the inbox is
/// named and walks (its first walk only learns).
fn reassigned_then_changed() -> Vec<sim::Step> {
    use sim::Step;
    const MOVE: u64 = 50_331_652;
    const STATUS: u64 = 199_682;
    let mut steps: Vec<Step> = (0..5).map(|i| Step::Other(MOVE + i)).collect();
    steps.push(Step::Deliver(0));
    steps.extend((0..5).map(|i| Step::Other(MOVE + i)));
    steps.push(Step::Tick(30_000));
    steps.extend((0..5).map(|i| Step::Other(STATUS + i)));
    steps.extend(std::iter::repeat_n(Step::Tick(30_000), 8));
    steps
}

/// The walk broken on purpose (`old-base`: a task whose comments' read
/// failed keeps its old base whole, though the walk said what changed on
/// it — the product's behaviour before `inbox::cycle` was fixed): the walk
/// after another user gave a task back to the user says "assigned to
/// you", its comments' read fails (a garbled answer, which the client
/// does not try again: 9 reads in 100 with `garbage` alone), the other
/// user changes the task's status, and the next walk, comparing with the
/// old base, says "assigned to you" again under the new version's key:
/// "inbox doubled" is caught. The steps are written down
/// ([`reassigned_then_changed`]); the seed decides the walk's faults,
/// which read fails: caught on about 3 seeds in 10 (31 of seeds 1–100;
/// the first here, seed 6). Random runs seldom meet it (none of 12
/// seeds × 20,000 steps with every fault; seed 36 of 1–60 with
/// `others,garbage`, at step 1127, too long a run here): an assignment
/// by another user is rare, and its task must change again before the
/// next walk. The same seed unbroken passes, its assignments found
/// once and a walk not counted for one because its task's read failed.
#[test]
fn a_walk_that_keeps_an_old_base_after_a_failed_read_is_caught() {
    let steps = reassigned_then_changed();
    let config = |seed: u64, broken: Option<Break>| {
        let mut cfg = Config::new(seed, steps.len());
        cfg.faults = sim::Faults::parse("garbage").unwrap();
        cfg.broken = broken;
        cfg
    };
    let (seed, v) = (1..=20)
        .find_map(|seed| {
            let out = sim::run_steps(&config(seed, Some(Break::OldBase)), &steps, false);
            out.violations.first().cloned().map(|v| (seed, v))
        })
        .expect("caught on one of seeds 1-20");
    assert_eq!(v.kind, "inbox doubled", "seed {seed}: {v:?}");
    let clean = sim::run_steps(&config(seed, None), &steps, false);
    assert_clean(seed, &clean);
    assert_eq!(clean.steps, steps.len());
    let g = |k: &str| clean.stats.get(k).copied().unwrap_or(0);
    assert!(
        g("inbox acts found once") >= 1
            && g("inbox walks not counted for an act: its task's read failed") >= 1,
        "{:?}",
        clean.stats
    );
}

/// The undo's check waits for the read that decides what its task shows
/// (`State::write_answered` reads a task again when our write's answer is
/// dated before what is shown), then checks the field — or, when another
/// user changed the task before that read came, lets the record go (the
/// read shows theirs). The script is the one in CI for seeds
/// 2375017898292695287 and 9182500982575961946; a prefetch's reads, which
/// follow one another while the cursor rests, never hold the check (seed
/// 15204812418516594385 had it wait until another user's title came).
#[test]
fn an_undo_checked_after_the_read_that_decides_and_let_go_when_another_changed_the_task() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/simulate/undo-answer-dated-before-a-later-read.steps");
    let script = sim::Script::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let stat = |out: &sim::Outcome, k: &str| out.stats.get(k).copied().unwrap_or(0);
    let out = sim::run_script(&script, false);
    assert_clean(script.seed, &out);
    assert_eq!(stat(&out, "undone fields checked"), 1, "{:?}", out.stats);
    // Another user changes #1 (its status: `other 0`) before the read.
    let mut changed = script.clone();
    let last = changed.steps.len() - 1;
    changed.steps.insert(last, sim::Step::Other(0));
    let out = sim::run_script(&changed, false);
    assert_clean(changed.seed, &out);
    let let_go = "undone records let go: another user changed the task before its read came";
    assert_eq!(stat(&out, let_go), 1, "{:?}", out.stats);
    assert_eq!(stat(&out, "undone fields checked"), 0, "{:?}", out.stats);
}
