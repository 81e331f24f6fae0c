//! Reading the config file's values: each problem a diagnostic with its
//! line (used by `parse` for the keys and `entries` for views and
//! commands).

use super::settings::{Diagnostic, Severity};
use toml::de::DeValue;
use toml::Spanned;

pub(super) struct Parser<'a> {
    src: &'a str,
    pub(super) diags: Vec<Diagnostic>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a str) -> Parser<'a> {
        Parser {
            src,
            diags: Vec::new(),
        }
    }
    pub(super) fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.src.len());
        self.src.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }
    pub(super) fn error(&mut self, offset: usize, message: String) {
        let line = Some(self.line(offset));
        self.diags.push(Diagnostic {
            severity: Severity::Error,
            line,
            message,
        });
    }
    pub(super) fn warn(&mut self, offset: usize, message: String) {
        let line = Some(self.line(offset));
        self.diags.push(Diagnostic {
            severity: Severity::Warning,
            line,
            message,
        });
    }

    pub(super) fn string(&mut self, key: &str, v: &Spanned<DeValue<'_>>) -> Option<String> {
        match v.get_ref().as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                self.error(
                    v.span().start,
                    format!("`{key}` must be a string, not {}", v.get_ref().type_str()),
                );
                None
            }
        }
    }

    /// An integer in the range `config::doc` gives `key`.
    pub(super) fn integer_of(&mut self, key: &str, v: &Spanned<DeValue<'_>>) -> Option<i64> {
        let (min, max) = super::doc::range(key);
        self.integer(key, v, min, max)
    }

    pub(super) fn integer(
        &mut self,
        key: &str,
        v: &Spanned<DeValue<'_>>,
        min: i64,
        max: i64,
    ) -> Option<i64> {
        let n = v
            .get_ref()
            .as_integer()
            .and_then(|i| i64::from_str_radix(i.as_str(), i.radix()).ok());
        match n {
            Some(n) if (min..=max).contains(&n) => Some(n),
            _ => {
                let shown = match v.get_ref() {
                    DeValue::Integer(i) => i.to_string(),
                    other => other.type_str().to_string(),
                };
                self.error(
                    v.span().start,
                    format!("`{key}` must be an integer from {min} to {max}, not {shown}"),
                );
                None
            }
        }
    }
}
