//! Readable, sanitised text from ids and open-shape JSON.

use serde_json::Value;

/// First 8 characters of an id, for compact display.
pub fn short_id(id: &str) -> String {
    crate::text::clean(&id.chars().take(8).collect::<String>())
}

/// Render open-shape JSON as readable, sanitised `key: value` lines.
pub fn json_lines(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(v, "", &mut out);
    out
}

/// An object of a shape the spec leaves open (an assigned team, an agent,
/// a matter, a file) said by its name when it has one (`name`, else
/// `display_name`, `title`, `filename`, `file_name`): `Litigation`, not
/// its every key with the uuid. `None` for anything else.
pub fn named(v: &Value) -> Option<String> {
    let m = v.as_object()?;
    ["name", "display_name", "title", "filename", "file_name"]
        .iter()
        .find_map(|k| {
            let s = crate::text::clean(m.get(*k)?.as_str()?);
            (!s.trim().is_empty()).then_some(s)
        })
}

fn walk(v: &Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, v) in m {
                let key = crate::text::clean(k);
                let p = if prefix.is_empty() {
                    key
                } else {
                    format!("{prefix}.{key}")
                };
                walk(v, &p, out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, v) in a.iter().enumerate() {
                walk(v, &format!("{prefix}[{i}]"), out);
            }
        }
        scalar => {
            let val = match scalar {
                Value::String(s) => crate::text::clean(s),
                Value::Null => "none".into(),
                Value::Object(_) => "{}".into(),
                Value::Array(_) => "[]".into(),
                other => other.to_string(),
            };
            if prefix.is_empty() {
                out.push(val);
            } else {
                out.push(format!("{prefix}: {val}"));
            }
        }
    }
}

/// A readable one-line summary of an open-shape value (agent, matter, file).
pub fn json_summary(v: &Value) -> String {
    match v {
        Value::Null => "none".into(),
        Value::String(s) => crate::text::clean(s),
        Value::Object(m) => named(v)
            .or_else(|| m.get("id").and_then(Value::as_str).map(crate::text::clean))
            .unwrap_or_else(|| json_lines(v).join(", ")),
        other => json_lines(other).join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_shapes_render_as_lines() {
        let v = serde_json::json!({"name": "Bot", "meta": {"v": [1, "a\u{1b}b"]}});
        assert_eq!(
            json_lines(&v),
            vec!["name: Bot", "meta.v[0]: 1", "meta.v[1]: a\u{241b}b"]
        );
        assert_eq!(json_summary(&v), "Bot");
    }

    /// The overview said an assigned team as its every key (`id: 33d2…`,
    /// `name: Litigation`, wrapping at 120 columns): a named object is
    /// its name, cleaned; an unnamed one (or a blank name) is none.
    #[test]
    fn a_named_object_is_its_name() {
        let team = serde_json::json!({"id": "33d29895-7a68", "name": "Liti\u{1b}gation"});
        assert_eq!(named(&team).as_deref(), Some("Liti\u{241b}gation"));
        assert_eq!(
            named(&serde_json::json!({"title": "M-1"})).as_deref(),
            Some("M-1")
        );
        assert_eq!(named(&serde_json::json!({"id": "x", "name": " "})), None);
        assert_eq!(named(&serde_json::json!({"id": "x"})), None);
        assert_eq!(named(&serde_json::json!("Litigation")), None);
        assert_eq!(
            json_summary(&serde_json::json!({"id": "x", "name": ""})),
            "x"
        );
    }
}
