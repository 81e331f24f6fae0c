//! `[[macros]]` (issue 44): each entry read into a `domain::macros::Macro`
//! and checked there; a macro with any fault is an error with its line
//! and is left out (never offered).

use super::reader::Parser;
use crate::domain::macros::{faults, Macro};
use toml::de::DeValue;
use toml::Spanned;

/// The keys a `[[macros]]` entry takes, from the one table of them.
fn keys() -> String {
    let names: Vec<&str> = super::doc::MACRO_FIELDS.iter().map(|f| f.name).collect();
    names.join(", ")
}

pub(super) fn parse_macros(p: &mut Parser<'_>, v: &Spanned<DeValue<'_>>, out: &mut Vec<Macro>) {
    let Some(entries) = v.get_ref().as_array() else {
        p.error(
            v.span().start,
            "`macros` must be an array of tables: write [[macros]] entries".into(),
        );
        return;
    };
    for entry in entries.iter() {
        let at = entry.span().start;
        let Some(t) = entry.get_ref().as_table() else {
            p.error(at, "each of `macros` must be a table ([[macros]])".into());
            continue;
        };
        let mut m = Macro::default();
        let mut bad = false;
        for (key_s, val) in t.iter() {
            let k: &str = key_s.get_ref();
            let text = |p: &mut Parser<'_>, bad: &mut bool| {
                let s = p.string(k, val);
                *bad |= s.is_none();
                s
            };
            match k {
                "name" => m.name = text(p, &mut bad).unwrap_or_default().trim().to_string(),
                "description" => {
                    m.description = text(p, &mut bad).unwrap_or_default().trim().to_string()
                }
                "key" => {
                    m.key = super::entries::key(p, k, val);
                    bad |= m.key.is_none();
                }
                "reply" => m.reply = text(p, &mut bad),
                "comment" => m.comment = text(p, &mut bad),
                "status" => m.status = text(p, &mut bad),
                "priority" => m.priority = text(p, &mut bad),
                "due" => m.due = text(p, &mut bad),
                "assign" => m.assign = text(p, &mut bad),
                "follow_up" => m.follow_up = text(p, &mut bad),
                "snooze" => m.snooze = text(p, &mut bad),
                "tags" => match val.get_ref().as_array() {
                    Some(a) if a.iter().all(|x| x.get_ref().as_str().is_some()) => {
                        m.tags = a
                            .iter()
                            .filter_map(|x| x.get_ref().as_str().map(str::to_string))
                            .collect()
                    }
                    _ => {
                        p.error(
                            val.span().start,
                            "`tags` must be a list of strings: [\"+add\", \"-remove\"] or [\"a\", \"b\"]"
                                .into(),
                        );
                        bad = true;
                    }
                },
                other => {
                    p.error(
                        key_s.span().start,
                        format!(
                            "unknown key `{}` in [[macros]] ({})",
                            crate::text::clean(other),
                            keys()
                        ),
                    );
                    bad = true;
                }
            }
        }
        if m.name.is_empty() || m.name.contains(char::is_whitespace) {
            p.error(
                at,
                format!(
                    "a macro needs a `name`, one word (not {:?}): it is left out",
                    crate::text::clean(&m.name)
                ),
            );
            continue;
        }
        let name = m.name.clone();
        let found = faults(&m, jiff::Timestamp::now());
        for f in &found {
            p.error(at, format!("macro {name:?} {f}: it is left out"));
        }
        if out.iter().any(|o| o.name == name) {
            p.error(
                at,
                format!("macro {name:?} is defined twice: the second is left out"),
            );
            continue;
        }
        if bad {
            p.error(at, format!("macro {name:?} is left out (see above)"));
        }
        if !bad && found.is_empty() {
            out.push(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::from_str;

    #[test]
    fn a_macro_is_read_and_a_faulty_one_is_an_error_and_left_out() {
        let src = r#"[[macros]]
name = "await-signature"
key = "M"
description = "Ask for the signed copy"
reply = "Hello {requester}, could you send the signed copy of {title} ({number})?"
comment = "Asked {requester} for the signed copy."
status = "waiting_on_external"
priority = "high"
due = "fri 17:00"
tags = ["+awaiting-signature", "-new"]
assign = "me"
follow_up = "in 3 days"
snooze = "tomorrow 9:00"

[[macros]]
name = "broken"
description = "typo"
reply = "Hi {requestor}"
status = "closed-ish"
follow_up = "someday"
"#;
        let c = from_str(src, None);
        let macros = &c.settings.macros;
        assert_eq!(macros.len(), 1, "{:?}", c.diagnostics);
        assert_eq!(macros[0].name, "await-signature");
        assert_eq!(macros[0].key.as_deref(), Some("M"));
        assert_eq!(macros[0].tags, vec!["+awaiting-signature", "-new"]);
        let errors: Vec<(Option<usize>, &str)> = c
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::config::Severity::Error)
            .map(|d| (d.line, d.message.as_str()))
            .collect();
        let has = |s: &str| errors.iter().any(|(l, m)| *l == Some(15) && m.contains(s));
        assert!(has("unknown variable {requestor}"), "{errors:?}");
        assert!(has("`status`"), "{errors:?}");
        assert!(has("`follow_up`"), "{errors:?}");
        assert_eq!(errors.len(), 3, "{errors:?}");
    }
}
