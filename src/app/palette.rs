//! The command palette: every action by name, with completion.

/// (name, argument hint, description). The palette completes from this
/// table and the help screen lists it.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("status", "not_started|in_progress|waiting_on_external|completed", "set the status"),
    ("priority", "urgent|high|medium|low|no_priority", "set the priority"),
    ("assign", "me|e-mail|name|id", "assign the task"),
    ("unassign", "", "remove the assignee"),
    ("due", "2026-12-01|today|tomorrow|+3d|none", "set or clear the due date"),
    ("tags", "a,b | +add -remove | none", "replace, add, remove or clear tags"),
    ("title", "TEXT", "set the title"),
    ("description", "[editor|clear]", "edit the description here (or in $EDITOR), or clear it"),
    ("context", "[editor|clear]", "edit the additional context here (or in $EDITOR), or clear it"),
    ("agent", "ID|none", "attach or detach an agent"),
    ("team", "ID|none", "assign or unassign a team"),
    ("matter", "ID|none", "file under a matter, or unfile"),
    ("archive", "", "archive the task"),
    ("restore", "", "restore an archived task"),
    ("accept", "", "accept a draft task"),
    ("reject", "", "reject (delete) a draft task"),
    ("comment", "", "write an internal comment"),
    ("reply", "", "reply to the requester"),
    ("link", "chat|review|report|task UUID [TYPE UUID…]", "link items to the task"),
    ("role", "reference|subject|output", "change the selected link's role"),
    ("checks", "ID,ID|none", "set or clear the selected review link's check ids"),
    ("unlink", "", "remove the selected link"),
    ("share", "", "edit sharing (visibility, people, teams)"),
    ("attach", "FILE_ID [FILE_ID…]", "attach uploaded files"),
    ("detach", "", "detach the selected file"),
    ("subtask", "TITLE", "create a subtask"),
    ("filter", "status=a,b priority=P assigned=me|ID involving=me|ID team=ID tags=a,b from=DATE to=DATE | clear", "set the list filters"),
    ("view", "all|mine|involving|week", "switch quick view"),
    ("open", "#1234|UUID", "open a task by number or id"),
    ("validate", "PATH", "check an artifact layout file"),
    ("copy", "[id]", "copy the task number (or id)"),
    ("undo", "", "restore the task just archived"),
    ("refresh", "", "reload the list and the open task"),
    ("log", "", "show recent messages"),
    ("help", "", "show the key bindings"),
    ("quit", "", "quit"),
];

pub const STATUS_VALUES: &[&str] = &[
    "not_started",
    "in_progress",
    "waiting_on_external",
    "completed",
];
pub const PRIORITY_VALUES: &[&str] = &["urgent", "high", "medium", "low", "no_priority"];
pub const ROLE_VALUES: &[&str] = &["reference", "subject", "output"];
pub const LINK_TYPES: &[&str] = &["chat", "review", "report", "task"];

/// Completions for the text typed so far (without the leading `:`).
/// `people` are offered for `assign`.
pub fn complete(input: &str, people: &[String]) -> Vec<String> {
    let trimmed = input.trim_start();
    match trimmed.split_once(' ') {
        None => COMMANDS
            .iter()
            .filter(|(n, _, _)| n.starts_with(trimmed))
            .map(|(n, _, _)| n.to_string())
            .collect(),
        Some((cmd, arg)) => {
            let values: Vec<String> = match cmd {
                "status" => STATUS_VALUES.iter().map(|s| s.to_string()).collect(),
                "priority" => PRIORITY_VALUES.iter().map(|s| s.to_string()).collect(),
                "role" => ROLE_VALUES.iter().map(|s| s.to_string()).collect(),
                "view" => ["all", "mine", "involving", "week"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                "due" => ["today", "tomorrow", "+1d", "+3d", "+1w", "none"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                "link" if !arg.contains(' ') => LINK_TYPES.iter().map(|s| s.to_string()).collect(),
                "assign" => {
                    let mut v = vec!["me".to_string()];
                    v.extend(people.iter().cloned());
                    v
                }
                _ => vec![],
            };
            let arg_l = arg.to_lowercase();
            let mut hits: Vec<String> = values
                .into_iter()
                .filter(|v| v.to_lowercase().contains(&arg_l))
                .collect();
            // Prefix matches first.
            hits.sort_by_key(|v| !v.to_lowercase().starts_with(&arg_l));
            hits.into_iter().map(|v| format!("{cmd} {v}")).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_names_and_values() {
        assert_eq!(complete("pri", &[]), vec!["priority"]);
        assert_eq!(
            complete("status in", &[]),
            vec!["status in_progress", "status waiting_on_external"]
        );
        let people = vec!["bob@acme.test".to_string()];
        assert_eq!(complete("assign bo", &people), vec!["assign bob@acme.test"]);
        assert!(complete("", &[]).len() == COMMANDS.len());
    }
}
