//! The simulator (issue 43): the whole client core — `State` and its
//! reducer, the effects as the loop and the worker carry them out, the
//! store and its outbox, the frame — run on one thread with one seeded
//! random source against a model service, a model clock, a model disk
//! that crashes, and a model terminal; invariants checked after every
//! step. Same seed, same run, same digest. `examples/simulate.rs` is its
//! command line; `docs/testing.md` what it checks and what it does not
//! model yet.
//!
//! Layers: `rng` (the random source, the digest), `faults` (what may be
//! injected, and the switches that break a rule on purpose), `step` (one
//! step, and the steps of a seed), `service` (the model service), `world`
//! (the client and its surroundings, one step at a time), `http` (the
//! HTTP client's own tries: each attempt's fault, the client's rule),
//! `term` (the title and the clipboard, as the loop would write them),
//! `inbox` (the inbox's walk and notifications beside the client, and
//! their invariants), `check` (the invariants), `script` (a run written
//! down: what a failure shrinks to, replayed in CI).

mod check;
mod disk;
mod disk_steps;
pub mod faults;
mod hangup;
mod hangup_steps;
mod http;
mod inbox;
mod inbox_steps;
pub mod rng;
pub mod script;
pub mod service;
pub mod step;
mod term;
mod world;

pub use check::Violation;
pub use faults::{Break, Faults};
pub use script::Script;
pub use step::Step;

/// One run's settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    pub steps: usize,
    pub faults: Faults,
    /// A rule broken on purpose (the simulator's own tests).
    pub broken: Option<Break>,
    /// The trace shows every frame.
    pub frames: bool,
}

impl Config {
    pub fn new(seed: u64, steps: usize) -> Config {
        Config {
            seed,
            steps,
            faults: Faults::all(),
            broken: None,
            frames: false,
        }
    }
}

/// What a run came to.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub steps: usize,
    pub violations: Vec<Violation>,
    /// A hash of every step, every request and every frame.
    pub digest: u64,
    /// Each step and what it did, when asked for (`--replay`).
    pub trace: Vec<String>,
    /// What the run did, counted: that it checked something.
    pub stats: std::collections::BTreeMap<&'static str, u64>,
    /// The digest after each step: two runs of one seed compared step by
    /// step ([`first_difference`]).
    pub step_digests: Vec<u64>,
}

/// The first step at which two runs' digests differ (`None`: the same
/// run, as far as the shorter goes, and as long).
pub fn first_difference(a: &Outcome, b: &Outcome) -> Option<usize> {
    let n = a.step_digests.len().min(b.step_digests.len());
    (0..n)
        .find(|&i| a.step_digests[i] != b.step_digests[i])
        .or_else(|| (a.step_digests.len() != b.step_digests.len()).then_some(n))
}

impl Outcome {
    /// The last line of every run.
    pub fn summary(&self, seed: u64) -> String {
        format!(
            "simulated {} steps (seed {seed}): {} violations, digest {:016x}",
            self.steps,
            self.violations.len(),
            self.digest
        )
    }
}

/// Run `cfg.steps` steps of `cfg.seed`.
pub fn run(cfg: &Config) -> Outcome {
    let keymap = crate::app::new_state("sim.test".into(), &Default::default(), false).keymap;
    let steps = step::plan(cfg.seed, cfg.steps, &keymap, &cfg.faults);
    run_steps(cfg, &steps, false)
}

/// Run these steps (a plan, or a shrunk one); stop at the first
/// violation unless all are wanted.
pub fn run_steps(cfg: &Config, steps: &[Step], trace: bool) -> Outcome {
    let guard = Broken::set(cfg.broken);
    let mut w = world::World::new(cfg.seed, cfg.faults.clone(), cfg.broken);
    w.frames = trace && cfg.frames;
    let mut lines = Vec::new();
    let mut step_digests = Vec::with_capacity(steps.len());
    let mut done = 0;
    for (i, s) in steps.iter().enumerate() {
        w.step_no = i;
        let stepped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| w.step(s)));
        done = i + 1;
        if let Err(p) = stepped {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            w.violations.push(Violation {
                step: i,
                kind: "panic",
                detail: msg,
            });
        }
        step_digests.push(w.digest.0);
        if trace {
            let line = script::write_step(s).unwrap_or_else(|| format!("{s:?}"));
            lines.push(format!("step {i}: {line}"));
            lines.extend(w.notes.iter().map(|n| format!("    {n}")));
            // The digest so far: two traces of one seed diff to the first
            // step that differs.
            lines.push(format!("    digest {:016x}", w.digest.0));
        }
        if !w.violations.is_empty() {
            break;
        }
    }
    drop(guard);
    let (violations, digest) = (std::mem::take(&mut w.violations), w.digest.0);
    let stats = std::mem::take(&mut w.stats);
    drop(w);
    crate::clock::set_model(None);
    Outcome {
        steps: done,
        violations,
        digest,
        trace: lines,
        stats,
        step_digests,
    }
}

/// Run a script (a run written down, `script.rs`): its seed, its
/// faults, its steps, nothing broken.
pub fn run_script(script: &Script, trace: bool) -> Outcome {
    let mut cfg = Config::new(script.seed, script.steps.len());
    cfg.faults = script.faults();
    run_steps(&cfg, &script.steps, trace)
}

/// The shortest list of steps found (in at most `tries` runs) that still
/// breaks the same invariant as `steps` does.
pub fn shrink(cfg: &Config, steps: &[Step], kind: &str, tries: usize) -> Vec<Step> {
    let fails = |s: &[Step]| {
        run_steps(cfg, s, false)
            .violations
            .first()
            .is_some_and(|v| v.kind == kind)
    };
    let mut best: Vec<Step> = steps.to_vec();
    let mut runs = 0;
    let mut chunk = best.len() / 2;
    while chunk >= 1 && runs < tries {
        let mut i = 0;
        let mut cut_any = false;
        while i < best.len() && runs < tries {
            let end = (i + chunk).min(best.len());
            let candidate: Vec<Step> = best[..i].iter().chain(&best[end..]).cloned().collect();
            runs += 1;
            if !candidate.is_empty() && fails(&candidate) {
                best = candidate;
                cut_any = true;
            } else {
                i += chunk;
            }
        }
        if !cut_any {
            chunk /= 2;
        }
    }
    best
}

/// The product's switches (the cleaner, the "as the user" guard) broken
/// on this thread for one run, mended after.
struct Broken;

impl Broken {
    fn set(b: Option<Break>) -> Broken {
        use crate::broken::Rule;
        crate::broken::set(match b {
            Some(Break::Clean) => Some(Rule::Clean),
            Some(Break::AsAnyone) => Some(Rule::AsAnyone),
            Some(Break::OtherTask) => Some(Rule::OtherTask),
            Some(Break::UndoClaimed) => Some(Rule::UndoClaimed),
            Some(Break::RawTitle) => Some(Rule::RawTitle),
            Some(Break::CopyAnything) => Some(Rule::CopyAnything),
            Some(Break::RetryWrites) => Some(Rule::RetryWrites),
            Some(Break::LoseMentions) => Some(Rule::LoseMentions),
            Some(Break::NotifyAgain) => Some(Rule::NotifyAgain),
            Some(Break::OldBase) => Some(Rule::OldBaseOnFailedRead),
            Some(Break::PartialFirst) => Some(Rule::PartialFirstWalk),
            Some(Break::ForgetOutbox | Break::DoubleSend | Break::SilentStore) | None => None,
        });
        Broken
    }
}

impl Drop for Broken {
    fn drop(&mut self) {
        crate::broken::set(None);
    }
}
