//! The `tasks` command's query from its flags: values checked against the
//! API's before anything is sent, due bounds in local days, ids not names.

use super::args::TasksArgs;
use super::output::Failure;
use crate::api::TaskQuery;
use crate::domain::filters::Valued;
use crate::text::clean;
use jiff::Timestamp;

/// The query for `tasks`, with the dates resolved; bad values are usage
/// errors (exit 2) found before anything is sent.
pub fn task_query(a: &TasksArgs, now: Timestamp) -> Result<TaskQuery, Failure> {
    let due = |flag: &str, v: &Option<String>| -> Result<Option<String>, Failure> {
        v.as_deref().map(|s| due_filter(flag, s, now)).transpose()
    };
    let mut status = Vec::new();
    for s in a.status.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        status.push(one_of("--status", s, Valued::Status)?);
    }
    if status.is_empty() && !a.status.is_empty() {
        // `--status ""` (or commas alone) names no status: refused as
        // `--priority ""` is, never read as no filter.
        one_of("--status", "", Valued::Status)?;
    }
    let priority = a
        .priority
        .as_deref()
        .map(|p| one_of("--priority", p, Valued::Priority))
        .transpose()?;
    Ok(TaskQuery {
        query: a.query.clone(),
        status,
        priority,
        assigned_to: a.assigned_to.clone(),
        involving: a.involving.clone(),
        team_id: a.team_id.clone(),
        tags: a
            .tags
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        complete_by_from: due("due-from", &a.due_from)?,
        complete_by_to: due("due-to", &a.due_to)?,
    })
}

/// The service's value for `value`, read as the TUI reads it (the value,
/// the word shown, a unique beginning: `domain::filters`), else a usage
/// error. One rule for every enum-valued flag: an empty or unknown value
/// is refused listing the values accepted (`Valued::listed`), as the
/// palette's short question (`give a priority`) does not.
fn one_of(flag: &str, value: &str, v: Valued) -> Result<String, Failure> {
    let value = value.trim();
    if value.is_empty() {
        return Err(Failure::usage(format!(
            "{flag}: give a {} (use {})",
            v.what(),
            v.listed()
        )));
    }
    v.read(value)
        .map(str::to_string)
        .map_err(|e| Failure::usage(format!("{flag}: {}", clean(&e))))
}

/// A `--due-from`/`--due-to` value, read as the TUI's `:filter from=/to=`:
/// words (`today`, `tomorrow`, `+3d`, `+2w`) and dates are the start (from)
/// or the end (to) of that local day; a local date-time is converted to
/// UTC; a time with `Z` or an offset is sent as given.
pub fn due_filter(flag: &str, input: &str, now: Timestamp) -> Result<String, Failure> {
    crate::app::dates::parse_bound(input, now, flag == "due-from").map_err(|e| {
        if e.contains("means no date") || e.is_empty() {
            Failure::usage(format!(
                "--{flag}: {} means no date; a filter needs one: {DUE_FORMS}",
                clean(&format!("{input:?}"))
            ))
        } else if e.contains("none") || !e.contains(&format!("{:?}", input.trim())) {
            Failure::usage(format!(
                "--{flag}: {} is not a date: {DUE_FORMS}",
                clean(&format!("{input:?}"))
            ))
        } else {
            Failure::usage(format!("--{flag}: {}", clean(&e)))
        }
    })
}

const DUE_FORMS: &str = "use 2026-12-01, 2026-12-01 14:00, 2026-12-01T09:00:00Z, today, tomorrow 16:00, fri, next fri 17:00, +3d or 2w";

/// People and teams are ids on the wire: a name or an e-mail the directory
/// of the local store knows (people and teams taskdeck has seen) becomes
/// its id; several matches or none are refused before anything is sent
/// (exit 2), saying what to give instead.
pub fn resolve_id_filters(
    q: &mut TaskQuery,
    dir: &crate::app::state::directory::Directory,
) -> Result<(), Failure> {
    use crate::app::state::directory::Resolved;
    for (flag, slot, team) in [
        ("--assigned-to", &mut q.assigned_to, false),
        ("--involving", &mut q.involving, false),
        ("--team-id", &mut q.team_id, true),
    ] {
        let Some(v) = slot.clone() else { continue };
        if (v.eq_ignore_ascii_case("me") && !team) || uuid::Uuid::parse_str(&v).is_ok() {
            continue;
        }
        let found = if team {
            dir.resolve_team(&v)
        } else {
            dir.resolve_person(&v)
        };
        match found {
            Resolved::One(id, label) => {
                tracing::info!(flag, %label, "name resolved through the local directory");
                *slot = Some(id);
            }
            Resolved::Many(c) => {
                let list: Vec<String> = c
                    .iter()
                    .take(6)
                    .map(|(id, l)| format!("{l} ({id})"))
                    .collect();
                return Err(Failure::usage(format!(
                    "{flag} {}: several {} match: {} — give the e-mail or the id",
                    clean(&format!("{v:?}")),
                    if team { "teams" } else { "people" },
                    clean(&list.join("; "))
                )));
            }
            Resolved::None => {}
        }
    }
    check_id_filters(q)
}

/// The directory of a local store (empty when there is none): the store
/// of the user the key belongs to, never another user's.
pub fn stored_directory(
    store: Option<&std::path::Path>,
) -> crate::app::state::directory::Directory {
    let mut d = crate::app::state::directory::Directory::default();
    let Some(path) = store else {
        return d;
    };
    for e in crate::store::read_directory(path) {
        if e.team {
            d.learn_team(&e.id, &e.name, None);
        } else {
            d.learn_person(&e.id, &e.name, &e.email, None);
        }
    }
    d
}

/// A value that is plainly a name or an e-mail is refused before anything
/// is sent (exit 2), saying how to find the id.
pub fn check_id_filters(q: &TaskQuery) -> Result<(), Failure> {
    for (flag, v) in [
        ("--assigned-to", &q.assigned_to),
        ("--involving", &q.involving),
        ("--team-id", &q.team_id),
    ] {
        let Some(v) = v.as_deref() else { continue };
        if v.eq_ignore_ascii_case("me") && flag != "--team-id" {
            continue;
        }
        if v.contains('@') || v.contains(char::is_whitespace) {
            let what = if v.contains('@') {
                "an e-mail"
            } else {
                "a name"
            };
            return Err(Failure::usage(format!(
                "{flag} takes an id, and {v:?} looks like {what} taskdeck has not seen: find the id with \
                 `taskdeck tasks --json | jq '.[] | .assigned_to, .creator, .team'` (or use `me`; \
                 names and e-mails work once the TUI has seen them)"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::state::directory::Directory;

    /// `--assigned-to carol nguyen` and `--team-id equipe` find the
    /// records named with accents (the one name matcher), sent as ids;
    /// a name several share is refused, nothing sent.
    #[test]
    fn assigned_to_and_team_id_fold_accents_and_take_beginnings() {
        let mut dir = Directory::default();
        dir.learn_person("u-carol", "Carol Nguyễn", "carol@acme.test", None);
        dir.learn_person("u-sam1", "Sam Taylor", "sam.t@acme.test", None);
        dir.learn_person("u-sam2", "Sam Taylor", "sam.taylor@acme.test", None);
        dir.learn_team("t-eq", "Équipe Légale", None);
        let mut q = TaskQuery {
            assigned_to: Some("carol nguyen".into()),
            involving: Some("nguy".into()),
            team_id: Some("equipe".into()),
            ..Default::default()
        };
        resolve_id_filters(&mut q, &dir).unwrap();
        assert_eq!(q.assigned_to.as_deref(), Some("u-carol"));
        assert_eq!(q.involving.as_deref(), Some("u-carol"));
        assert_eq!(q.team_id.as_deref(), Some("t-eq"));
        let mut q = TaskQuery {
            assigned_to: Some("sam taylor".into()),
            ..Default::default()
        };
        assert!(resolve_id_filters(&mut q, &dir).is_err());
    }
}
