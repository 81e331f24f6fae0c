//! What the binary says of itself: shell completions and the man page.

use super::args::Cli;
use super::commands::{emit, Failure, Outcome, EXIT_OK};
use crate::config;
use clap::CommandFactory;

pub(super) fn completions(shell: clap_complete::Shell) -> Outcome {
    let mut buf = Vec::new();
    clap_complete::generate(
        shell,
        &mut completion_command(&config::profile_names()),
        "taskdeck",
        &mut buf,
    );
    emit(&String::from_utf8_lossy(&buf))?;
    Ok(EXIT_OK)
}

/// The command line as the shell completes it: `--profile` offers the
/// profiles of the config file as it is when the script is made (run
/// `taskdeck completions` again after adding one).
fn completion_command(profiles: &[String]) -> clap::Command {
    let names: Vec<clap::builder::PossibleValue> = profiles
        .iter()
        .filter(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        })
        .map(|p| clap::builder::PossibleValue::new(p.clone()))
        .collect();
    let cmd = Cli::command();
    if names.is_empty() {
        return cmd;
    }
    cmd.mut_arg("profile", |a| {
        a.value_parser(clap::builder::PossibleValuesParser::new(names))
    })
}

pub(super) fn man() -> Outcome {
    emit(&man_page().map_err(|e| Failure::failed(format!("cannot render the man page: {e}")))?)?;
    Ok(EXIT_OK)
}

/// One page, `taskdeck(1)`: clap_mangen's sections, but its list of
/// subcommands names a page for each (`taskdeck-me(1)`…) that does not
/// exist; here each command is described in place instead.
fn man_page() -> std::io::Result<String> {
    let cmd = Cli::command();
    let man = clap_mangen::Man::new(cmd.clone());
    let mut buf = Vec::new();
    man.render_title(&mut buf)?;
    man.render_name_section(&mut buf)?;
    man.render_synopsis_section(&mut buf)?;
    man.render_description_section(&mut buf)?;
    man.render_options_section(&mut buf)?;
    let roff = |s: &str| s.replace('\\', "\\\\").replace('-', "\\-");
    buf.extend_from_slice(b".SH COMMANDS\n");
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        buf.extend_from_slice(
            format!(
                ".TP\n\\fBtaskdeck {}\\fR\n{}\n",
                roff(sub.get_name()),
                roff(&about)
            )
            .as_bytes(),
        );
        for inner in sub.get_subcommands().filter(|s| !s.is_hide_set()) {
            let about = inner.get_about().map(|a| a.to_string()).unwrap_or_default();
            buf.extend_from_slice(
                format!(
                    ".TP\n\\fBtaskdeck {} {}\\fR\n{}\n",
                    roff(sub.get_name()),
                    roff(inner.get_name()),
                    roff(&about)
                )
                .as_bytes(),
            );
        }
    }
    man.render_extra_section(&mut buf)?;
    man.render_version_section(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_offer_statuses_priorities_and_the_configs_profiles() {
        let mut buf = Vec::new();
        clap_complete::generate(
            clap_complete::Shell::Bash,
            &mut completion_command(&["work".into(), "home".into(), "bad name;rm".into()]),
            "taskdeck",
            &mut buf,
        );
        let script = String::from_utf8(buf).unwrap();
        for v in [
            "in_progress",
            "waiting_on_external",
            "no_priority",
            "work",
            "home",
        ] {
            assert!(script.contains(v), "{v}");
        }
        assert!(
            !script.contains("rm"),
            "a name that is not plain is left out"
        );
    }

    #[test]
    fn the_man_page_names_no_page_that_does_not_exist() {
        let page = man_page().unwrap();
        assert!(!page.contains("(1)"), "{page}");
        assert!(page.contains("taskdeck config init"), "{page}");
        assert!(page.contains(".SH COMMANDS"), "{page}");
        assert!(page.contains(".SH OPTIONS"), "{page}");
    }
}
