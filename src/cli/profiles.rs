//! `taskdeck inbox --all-profiles [--json] [--all]` (#36 §1): one walk per
//! profile of the config file, all at once, each with its own key,
//! service, store and identity (as `--profile NAME` would run it alone),
//! then one list, newest first, every item naming its profile. Nothing of
//! one profile is read, sent or stored under another: each walk is
//! `inbox::gather` with that profile's own connection.
//!
//! A profile that fails is named on stderr with why; the others are
//! printed, and the exit code is [`EXIT_SOME_PROFILES`] (every profile
//! failed: the first one's code; a walk that was partial: [`EXIT_PARTIAL`]).
//!
//! Also [`others`]: the other profiles the TUI walks beside the current
//! one (`inbox_profiles = "all"`), each connected with its own key.

use super::inbox::Gathered;
use super::output::{
    emit, emit_json, say, Failure, Outcome, EXIT_OK, EXIT_PARTIAL, EXIT_SOME_PROFILES,
};
use serde_json::Value;

/// One profile's walk, or why it could not run.
pub struct Walk {
    pub profile: String,
    pub got: Result<Gathered, Failure>,
}

pub fn print(walks: Vec<Walk>, json: bool, now: jiff::Timestamp) -> Outcome {
    let mut failed: Vec<i32> = Vec::new();
    let mut shown = 0usize;
    let mut partial = false;
    let mut rows: Vec<(String, crate::inbox::InboxRow)> = Vec::new();
    let mut items: Vec<Value> = Vec::new();
    // One service and user is one inbox (issue 42, point 11): the first
    // profile of the file that reads a store is shown, the others with
    // the same store are said once and not counted again.
    let mut read: std::collections::HashMap<std::path::PathBuf, String> = Default::default();
    for w in walks {
        let p = &w.profile;
        match w.got {
            Err(f) => {
                say(&format!("taskdeck: profile {p}: {}", f.message));
                failed.push(f.code);
            }
            Ok(g) if read.contains_key(&g.store) => {
                let first = &read[&g.store];
                say(&format!(
                    "taskdeck: profile {p}: the same service and user as profile {first}: its inbox is shown once, as {first}'s"
                ));
                shown += 1;
            }
            Ok(g) => {
                read.insert(g.store.clone(), p.clone());
                match &g.reached {
                    Ok(None) => shown += 1,
                    Ok(Some(part)) => {
                        shown += 1;
                        partial = true;
                        say(&format!(
                            "taskdeck: profile {p}: the inbox walk was partial: {} — what was read is shown",
                            crate::text::clean(part)
                        ));
                    }
                    Err(f) => {
                        say(&format!(
                            "taskdeck: profile {p}: {} — its inbox as stored is shown",
                            f.message
                        ));
                        failed.push(f.code);
                    }
                }
                rows.extend(g.rows.into_iter().map(|r| (p.clone(), r)));
                for mut j in g.json {
                    if let Some(o) = j.as_object_mut() {
                        o.insert("profile".into(), Value::String(p.clone()));
                    }
                    items.push(j);
                }
            }
        }
    }
    let code = match (failed.first(), shown) {
        (None, _) if partial => EXIT_PARTIAL,
        (None, _) => EXIT_OK,
        (Some(_), n) if n > 0 => EXIT_SOME_PROFILES,
        (Some(c), _) => *c,
    };
    // Newest first across the profiles.
    rows.sort_by_key(|(_, r)| -r.at);
    // (`at` is ISO 8601 in UTC, one form: its text sorts as its time.)
    items.sort_by(|a, b| b["at"].as_str().cmp(&a["at"].as_str()));
    if json {
        let text = serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".into());
        emit_json(&format!("{text}\n"))?;
        return Ok(code);
    }
    if rows.is_empty() {
        emit("Nothing needs you.\n")?;
        return Ok(code);
    }
    let now_s = now.as_second();
    let width = super::table::cut_width();
    let mut text = format!("{:<12} {:<8} {:>8}  WHAT\n", "PROFILE", "TASK", "WHEN");
    for (p, r) in &rows {
        let when = crate::domain::words::age(r.at, now_s);
        let head = format!(
            "{:<12} {:<8} {:>8}  ",
            crate::cut::cut(p, 12),
            r.label,
            when
        );
        super::table::push_line(&mut text, &r.line_pieces(head, now_s), width);
    }
    emit(&text)?;
    Ok(code)
}

/// The profiles whose inboxes the TUI shows beside the current one's
/// (`inbox_profiles = "all"`, issue 36): every other profile of `config`
/// (the configuration this start read: the names and the settings of one
/// reading of the file; the top level's connection is one of them, by its
/// `default_profile` name, when another is in use), each with how to
/// connect it — in the background, by its walker, once per process
/// ([`super::connect::connect_quietly`]). Nothing is connected here.
pub fn others(config: &crate::config::Config) -> Vec<crate::tui::profiles::OtherProfile> {
    let settings = &config.settings;
    if !settings.inbox_all_profiles || !settings.cache {
        return vec![];
    }
    let current = settings.profile_name();
    config
        .profiles
        .iter()
        .filter(|n| n.as_str() != current)
        .map(|name| {
            let n = name.clone();
            crate::tui::profiles::OtherProfile {
                name: name.clone(),
                connect: std::sync::Arc::new(move || super::connect::connect_quietly(&n)),
            }
        })
        .collect()
}
