//! The scriptable commands: `me`, `tasks`, `validate-layout`, `config`.

use super::args::TasksArgs;
pub use super::query::{check_id_filters, due_filter, task_query};
use crate::api::{Client, TaskQuery};
use crate::app::keymap::Keymap;
use crate::config::{self, Config, Severity};
use crate::text::{clean, sanitize};

use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

pub use super::output::*;

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

// ---- me -----------------------------------------------------------------

pub async fn me(client: &Client, json: bool) -> Outcome {
    const WHAT: &str = "looking up your identity";
    if json {
        let raw = client.me_raw().await.map_err(|e| Failure::api(WHAT, &e))?;
        emit_json(&format!("{}\n", pretty(&raw)))?;
        return Ok(EXIT_OK);
    }
    let me = client.me().await.map_err(|e| Failure::api(WHAT, &e))?;
    let text = format!(
        "Name:            {}\nE-mail:          {}\nOrganisation:    {}\nUser id:         {}\nOrganisation id: {}\n",
        me.user_name,
        me.user_email,
        me.customer_name,
        clean(&me.user_id),
        clean(&me.customer_id),
    );
    emit(&text)?;
    Ok(EXIT_OK)
}

// ---- tasks --------------------------------------------------------------

/// The pages of the task list: the first only, or with `all` every page
/// until the service sends no cursor. A cursor is never trusted: the walk
/// remembers every cursor it used and stops with an error at the first one
/// that comes back (a service repeating or cycling through cursors would
/// otherwise never end), and it stops after `max_pages`. Returns the items
/// and whether more are available.
pub async fn walk_pages(
    client: &Client,
    q: &TaskQuery,
    limit: u32,
    all: bool,
    max_pages: usize,
) -> Result<(Vec<Box<RawValue>>, bool), Failure> {
    let mut items = Vec::new();
    let (_, more) = walk_pages_with(client, q, limit, all, max_pages, |page| {
        items.extend(page);
        Ok(true)
    })
    .await?;
    Ok((items, more))
}

/// [`walk_pages`], handing each page's items to `each` as it arrives
/// instead of holding them (`each` says whether to go on: a reader that
/// went away needs no more pages): returns how many items and whether
/// more are available.
pub async fn walk_pages_with(
    client: &Client,
    q: &TaskQuery,
    limit: u32,
    all: bool,
    max_pages: usize,
    mut each: impl FnMut(Vec<Box<RawValue>>) -> Result<bool, Failure>,
) -> Result<(usize, bool), Failure> {
    let mut count = 0usize;
    let mut used: HashSet<String> = HashSet::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0usize;
    loop {
        let page = client
            .list_tasks_raw(q, limit, cursor.as_deref())
            .await
            .map_err(|e| Failure::api("listing tasks", &e))?;
        pages += 1;
        count += page.items.len();
        if !each(page.items)? {
            return Ok((count, false));
        }
        match page.cursor {
            Some(_) if !all => return Ok((count, true)),
            None => return Ok((count, false)),
            Some(next) if used.contains(&next) => {
                tracing::warn!(pages, "the service repeated a cursor");
                return Err(Failure::failed(format!(
                    "listing tasks failed: after {pages} pages the service sent a cursor it \
                     had already sent ({}); stopped, as the walk would never end",
                    crate::cut::excerpt(&crate::text::clean(&next), 40)
                )));
            }
            Some(_) if pages >= max_pages => {
                return Err(Failure::failed(format!(
                    "listing tasks failed: stopped after {pages} pages ({}) and the \
                     service still sends a cursor; narrow the query or raise --limit",
                    crate::domain::words::plural(count, "task", "tasks")
                )));
            }
            Some(next) => {
                used.insert(next.clone());
                cursor = Some(next);
            }
        }
    }
}

/// The most pages `tasks --all` walks (a million tasks at `--limit 100`).
pub const MAX_PAGES: usize = 10_000;

/// `store`: the local store of the user this key belongs to, if any (its
/// directory completes names).
pub async fn tasks(
    client: &Client,
    store: Option<&std::path::Path>,
    a: &TasksArgs,
    mut q: TaskQuery,
) -> Outcome {
    let dir = super::query::stored_directory(store);
    super::query::resolve_id_filters(&mut q, &dir)?;
    let is_me = |v: &Option<String>| v.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("me"));
    if is_me(&q.assigned_to) || is_me(&q.involving) {
        let me = client
            .me()
            .await
            .map_err(|e| Failure::api("looking up your identity (for `me`)", &e))?;
        if me.user_id.is_empty() {
            return Err(Failure::failed(
                "looking up your identity (for `me`) failed: the service sent no user_id",
            ));
        }
        for f in [&mut q.assigned_to, &mut q.involving] {
            if is_me(f) {
                *f = Some(me.user_id.clone());
            }
        }
    }

    let mut out = super::stream::TaskOutput::new(a.json);
    let walked = walk_pages_with(client, &q, a.page_size(), a.all, MAX_PAGES, |page| {
        out.page(page)
    })
    .await;
    // A walk that fails before any output started prints nothing; one that
    // fails later leaves what was written (a JSON array left open: never
    // mistaken for the whole list) and exits as before.
    let (count, more) = walked?;
    out.finish()?;
    tracing::info!(count, all = a.all, "listed tasks");
    if more && !a.json {
        say(&format!(
            "taskdeck: {} shown; more are available (use --all)",
            crate::domain::words::plural(count, "task", "tasks")
        ));
    }
    Ok(EXIT_OK)
}

// ---- validate-layout ----------------------------------------------------

pub async fn validate_layout(client: &Client, file: &Path, json: bool) -> Outcome {
    let (name, text) = if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| {
            Failure::usage(format!("cannot read the layout from standard input: {e}"))
        })?;
        ("standard input".to_string(), s)
    } else {
        let name = clean(&file.display().to_string());
        // A regular file of a bounded size, as in the TUI: a FIFO or a
        // device would hang the command.
        let s = crate::files::read_regular_file(file, crate::files::LAYOUT_CAP)
            .map_err(|e| Failure::usage(format!("cannot read the layout file {name}: {e}")))?;
        (name, s)
    };
    let layout: Value = serde_json::from_str(&text).map_err(|e| json_failure(&name, &e))?;
    let layout = match crate::files::unwrap_layout(layout) {
        (inner, true) => {
            say(&format!(
                "note: {name} wraps the layout in {{\"layout\": …}}; sending the inner object"
            ));
            inner
        }
        (layout, false) => layout,
    };

    let (result, raw) = client
        .validate_layout(&layout)
        .await
        .map_err(|e| Failure::api("validating the layout", &e))?;
    let code = if result.valid { EXIT_OK } else { EXIT_FAILED };
    if json {
        emit_json(&format!("{}\n", pretty(&raw)))?;
        return Ok(code);
    }
    let mut out = String::new();
    out.push_str(&format!(
        "{name}: {}\n",
        if result.valid { "valid" } else { "invalid" }
    ));
    for (kind, list) in [("error", &result.errors), ("warning", &result.warnings)] {
        for i in list {
            out.push_str(&format!("{kind}  {}  {}  {}\n", i.path, i.code, i.message));
        }
    }
    for (n, kind) in [
        (result.omitted_errors, "error"),
        (result.omitted_warnings, "warning"),
    ] {
        if n > 0 {
            let s = if n == 1 { "" } else { "s" };
            out.push_str(&format!("… and {n} more {kind}{s} not listed\n"));
        }
    }
    match &result.layout {
        Value::Null => out.push_str("(the service could not parse the layout at all)\n"),
        layout => {
            out.push_str("normalised layout:\n");
            // serde_json escapes C0 controls but not C1 or bidi controls.
            out.push_str(&sanitize(&pretty(layout), true));
            out.push('\n');
        }
    }
    emit(&out)?;
    Ok(code)
}

/// "NAME: not valid JSON at line L, column C: what" (exit 2).
fn json_failure(name: &str, e: &serde_json::Error) -> Failure {
    let full = e.to_string();
    let what = full
        .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
        .unwrap_or(&full);
    Failure::usage(format!(
        "{name}: not valid JSON at line {}, column {}: {what}",
        e.line(),
        e.column().max(1)
    ))
}

// ---- config -------------------------------------------------------------

pub fn config_path() -> Outcome {
    emit(&format!("{}\n", config::config_path().display()))?;
    Ok(EXIT_OK)
}

/// Every problem `config check` reports, with its line: the file's own,
/// then the key bindings the keymap rejects, then keys of `[[views]]` and
/// `[[commands]]` taken twice, and `[[macros]]` whose key is (an error); in file order (those without a line last).
/// `taskdeck doctor` counts the same.
pub fn config_problems(c: &Config) -> Vec<(Option<usize>, Severity, String)> {
    let mut problems: Vec<(Option<usize>, Severity, String)> = c
        .diagnostics
        .iter()
        .map(|d| (d.line, d.severity, clean(&d.message)))
        .collect();
    problems.extend(
        keymap_problems(c)
            .into_iter()
            .map(|(line, m)| (line, Severity::Error, m)),
    );
    let (keymap, _) = Keymap::load(&c.settings.keys);
    problems.extend(
        crate::app::views::key_problems(&keymap, &c.settings.views, &c.settings.commands)
            .into_iter()
            .map(|m| (None, Severity::Warning, clean(&m))),
    );
    // A macro's key bound twice: the macro is never offered, so it fails.
    problems.extend(
        crate::app::views::macro_key_problems(
            &keymap,
            &c.settings.views,
            &c.settings.commands,
            &c.settings.macros,
        )
        .into_iter()
        .map(|(_, m)| (None, Severity::Error, clean(&m))),
    );
    problems.sort_by_key(|(line, _, _)| line.unwrap_or(usize::MAX));
    problems
}

pub fn config_check(profile: Option<&str>) -> Outcome {
    let c: Config = config::load(profile);
    let path = c.path.display().to_string();
    let mut out = String::new();
    if !c.file_exists {
        out.push_str(&format!("{path}: no config file (defaults apply)\n"));
        if c.settings.base_url.is_none() {
            out.push_str("nothing configured: `taskdeck config init` asks for the service and the key and writes the file\n");
        }
    }
    let mut errors = 0;
    let mut warnings = 0;
    let problems = config_problems(&c);
    for (line, severity, message) in &problems {
        let sev = match severity {
            Severity::Error => {
                errors += 1;
                "error"
            }
            Severity::Warning => {
                warnings += 1;
                "warning"
            }
        };
        match line {
            Some(l) => out.push_str(&format!("{path}:{l}: {sev}: {message}\n")),
            None => out.push_str(&format!("{path}: {sev}: {message}\n")),
        }
    }
    if profile.is_some() {
        // `--profile default` (or `default_profile`'s name): the top level.
        out.push_str(&format!(
            "profile: {}{}\n",
            clean(c.settings.profile_name()),
            if c.settings.profile.is_none() {
                " (the top level)"
            } else {
                ""
            }
        ));
    }
    let base_from_env = std::env::var(config::ENV_BASE_URL).is_ok_and(|v| !v.trim().is_empty());
    out.push_str(&format!(
        "base URL: {}{}\n",
        c.settings
            .base_url
            .as_deref()
            .map(clean)
            .unwrap_or_else(|| "not configured".into()),
        if base_from_env {
            format!(" (from ${})", config::ENV_BASE_URL)
        } else {
            String::new()
        }
    ));
    out.push_str(&format!("API key: {}\n", c.key_source()));
    if let Some(ca) = &c.settings.ca_file {
        match crate::api::ca_certificates(ca) {
            Ok(certs) => out.push_str(&format!(
                "ca_file: {} ({} certificate{})\n",
                ca.display(),
                certs.len(),
                if certs.len() == 1 { "" } else { "s" }
            )),
            Err(e) => {
                errors += 1;
                out.push_str(&format!("{path}: error: {}\n", clean(&e)));
            }
        }
    }
    out.push_str(&format!(
        "{errors} error{}, {warnings} warning{}\n",
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    ));
    emit(&out)?;
    Ok(if errors > 0 { EXIT_FAILED } else { EXIT_OK })
}

/// The `[keys]` entries the keymap rejects, as (line in the file, message).
/// The keymap's own warnings are authoritative; each is placed on the line of
/// the context table or key that produces it when loaded alone.
fn keymap_problems(c: &Config) -> Vec<(Option<usize>, String)> {
    use std::collections::BTreeMap;
    let keys = &c.settings.keys;
    let (_, warnings) = Keymap::load(keys);
    if warnings.is_empty() {
        return Vec::new();
    }
    let mut located: Vec<(String, Option<usize>)> = Vec::new();
    for (ctx, entries) in keys {
        let alone = BTreeMap::from([(ctx.clone(), BTreeMap::new())]);
        for w in Keymap::load(&alone).1 {
            located.push((w, c.key_lines.context(ctx)));
        }
        for (key, action) in entries {
            let one =
                BTreeMap::from([(ctx.clone(), BTreeMap::from([(key.clone(), action.clone())]))]);
            for w in Keymap::load(&one).1 {
                located.push((w, c.key_lines.key(ctx, key)));
            }
        }
    }
    warnings
        .into_iter()
        .map(|w| {
            let line = located.iter().find(|(m, _)| *m == w).and_then(|(_, l)| *l);
            (line, clean(&w))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::Timestamp;

    fn now() -> Timestamp {
        crate::api::parse_timestamp("2026-11-22T10:00:00Z").unwrap()
    }

    #[test]
    fn json_errors_name_file_line_and_column() {
        let e = serde_json::from_str::<Value>("{\n  \"a\": x\n}").unwrap_err();
        let f = json_failure("l.json", &e);
        assert_eq!(f.code, EXIT_USAGE);
        assert!(
            f.message
                .starts_with("l.json: not valid JSON at line 2, column 8: expected value"),
            "{}",
            f.message
        );
        assert!(!f.message.contains(" at line 2 column"), "{}", f.message);
    }

    #[test]
    fn due_filters_take_the_tuis_forms() {
        let ok = |s: &str| due_filter("due-from", s, now()).unwrap();
        assert_eq!(ok("2026-12-01"), "2026-12-01");
        assert_eq!(ok(" 2026-12-01T09:00:00Z "), "2026-12-01T09:00:00Z");
        // The lower bound of a range starts at the beginning of the day.
        assert_eq!(ok("today"), "2026-11-22T00:00:00Z");
        assert_eq!(ok("Tomorrow"), "2026-11-23T00:00:00Z");
        assert_eq!(ok("+3d"), "2026-11-25T00:00:00Z");
        assert_eq!(ok("+2w"), "2026-12-06T00:00:00Z");
        assert_eq!(
            due_filter("due-to", "today", now()).unwrap(),
            "2026-11-22T23:59:59Z"
        );
        assert_eq!(ok("2026-12-01 09:30"), "2026-12-01T09:30:00Z");
        for bad in [
            "none",
            "-",
            "",
            "next week",
            "+3x",
            "+99999d",
            "2026-13-01",
            "+",
            "+3é",
            "+é",
        ] {
            let e = due_filter("due-to", bad, now()).unwrap_err();
            assert_eq!(e.code, EXIT_USAGE, "{bad:?}");
            assert!(e.message.starts_with("--due-to"), "{}", e.message);
            assert!(e.message.contains(&format!("{bad:?}")), "{}", e.message);
            assert!(!e.message.contains('\n'), "{}", e.message);
            assert!(
                !e.message.contains("none,") && !e.message.contains("or none"),
                "{}",
                e.message
            );
        }
    }
}
