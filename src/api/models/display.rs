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
        Value::Object(m) => {
            for key in [
                "name",
                "display_name",
                "title",
                "filename",
                "file_name",
                "id",
            ] {
                if let Some(Value::String(s)) = m.get(key) {
                    return crate::text::clean(s);
                }
            }
            json_lines(v).join(", ")
        }
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
}
