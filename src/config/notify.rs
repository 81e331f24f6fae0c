//! `notify`, `notify_command` and `notify_osc`: how taskdeck tells the user
//! that something new needs them (issue 33; `docs/notifications.md`).

use super::reader::Parser;
use super::settings::{Notify, NOTIFY_OSCS};
use toml::de::DeValue;
use toml::Spanned;

/// One of the three keys (`key` is `notify`, `notify_command` or
/// `notify_osc`).
pub(super) fn parse(p: &mut Parser<'_>, key: &str, v: &Spanned<DeValue<'_>>, n: &mut Notify) {
    match key {
        "notify" => {
            let Some(list) = v.get_ref().as_array() else {
                p.error(
                    v.span().start,
                    "`notify` must be a list, e.g. [\"bell\", \"desktop\", \"title\"] ([] for none)"
                        .into(),
                );
                return;
            };
            let mut words = Vec::new();
            for e in list.iter() {
                match e.get_ref().as_str() {
                    Some(s) => words.push(s),
                    None => {
                        p.error(e.span().start, "each of `notify` must be a string".into());
                        return;
                    }
                }
            }
            match Notify::ways(&words) {
                Ok((bell, desktop, title)) => (n.bell, n.desktop, n.title) = (bell, desktop, title),
                Err(e) => p.error(v.span().start, e),
            }
        }
        "notify_command" => {
            if let Some(s) = p.string(key, v) {
                if s.trim().is_empty() {
                    p.error(v.span().start, "`notify_command` is empty".into());
                } else {
                    n.command = Some(s.trim().to_string());
                }
            }
        }
        _ => {
            if let Some(x) = p.integer(key, v, 0, 1000) {
                match NOTIFY_OSCS.iter().find(|o| i64::from(**o) == x) {
                    Some(o) => n.osc = Some(*o),
                    None => p.error(
                        v.span().start,
                        format!("`notify_osc` must be 9, 777 or 99, not {x}"),
                    ),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notify_is_read_and_checked() {
        let c = crate::config::from_str("", None);
        assert_eq!(c.settings.notify, Notify::default());
        assert!(c.settings.notify.title && !c.settings.notify.bell);
        let c = crate::config::from_str(
            "notify = [\"bell\", \"desktop\"]\nnotify_command = \"notify-send x\"\nnotify_osc = 777\n",
            None,
        );
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        let n = &c.settings.notify;
        assert!(n.bell && n.desktop && !n.title);
        assert_eq!(n.command.as_deref(), Some("notify-send x"));
        assert_eq!(n.osc, Some(777));
        let c = crate::config::from_str("notify = []\n", None);
        let n = &c.settings.notify;
        assert!(!n.bell && !n.desktop && !n.title);
        for bad in [
            "notify = [\"beep\"]\n",
            "notify = \"bell\"\n",
            "notify_osc = 52\n",
            "notify_command = \" \"\n",
        ] {
            let c = crate::config::from_str(bad, None);
            assert_eq!(c.diagnostics.len(), 1, "{bad}: {:?}", c.diagnostics);
            assert_eq!(c.diagnostics[0].line, Some(1), "{bad}");
        }
        let c = crate::config::from_str("notify = [\"beep\"]\n", None);
        assert_eq!(
            c.settings.notify,
            Notify::default(),
            "a bad value changes nothing"
        );
    }
}
