//! BlockLayout validation for `POST /api/v1/artifacts/validate`
//! (schema documented in `docs/sandbox.md`).

use serde_json::{json, Map, Value};

const MAX_LISTED: usize = 50;

#[derive(Default)]
struct Issues {
    errors: Vec<Value>,
    warnings: Vec<Value>,
}

impl Issues {
    fn error(&mut self, path: &str, code: &str, message: impl Into<String>) {
        self.errors
            .push(json!({"path": path, "code": code, "message": message.into()}));
    }
    fn warn(&mut self, path: &str, code: &str, message: impl Into<String>) {
        self.warnings
            .push(json!({"path": path, "code": code, "message": message.into()}));
    }
}

/// `alt_text` → `altText`; keys already in camelCase are unchanged.
pub(crate) fn camel(k: &str) -> String {
    let mut out = String::with_capacity(k.len());
    let mut up = false;
    for ch in k.chars() {
        if ch == '_' {
            up = !out.is_empty();
        } else if up {
            out.extend(ch.to_uppercase());
            up = false;
        } else {
            out.push(ch);
        }
    }
    out
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Fields of each block type: (camelCase name, required).
fn block_fields(kind: &str) -> Option<&'static [(&'static str, bool)]> {
    Some(match kind {
        "heading" => &[("text", true), ("level", true)],
        "paragraph" => &[("text", true)],
        "table" => &[("columns", true), ("rows", true), ("caption", false)],
        "image" => &[("fileId", true), ("altText", false), ("caption", false)],
        "callout" => &[("tone", true), ("text", true)],
        _ => return None,
    })
}

/// Camel-cases the keys of `obj`, warning about (and dropping) keys not in `known`.
fn normalise_keys(
    obj: &Map<String, Value>,
    known: &[&str],
    prefix: &str,
    is: &mut Issues,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in obj {
        let c = camel(k);
        if known.contains(&c.as_str()) {
            out.insert(c, v.clone());
        } else {
            is.warn(
                &format!("{prefix}{k}"),
                "unknown_field",
                format!("unknown field {k:?} would be dropped"),
            );
        }
    }
    out
}

fn check_string(m: &Map<String, Value>, f: &str, required: bool, p: &str, is: &mut Issues) -> bool {
    match m.get(f) {
        None if required => {
            is.error(
                &format!("{p}.{f}"),
                "missing_field",
                format!("{f} is required"),
            );
            false
        }
        None => true,
        Some(Value::String(_)) => true,
        Some(v) => {
            is.error(
                &format!("{p}.{f}"),
                "invalid_type",
                format!("{f} must be a string, got {}", type_name(v)),
            );
            false
        }
    }
}

fn validate_block(i: usize, b: &Value, is: &mut Issues) -> Option<Value> {
    let p = format!("blocks[{i}]");
    let Some(obj) = b.as_object() else {
        is.error(
            &p,
            "invalid_type",
            format!("a block must be an object, got {}", type_name(b)),
        );
        return None;
    };
    let kind = match obj.get("type") {
        None => {
            is.error(&format!("{p}.type"), "missing_field", "type is required");
            return None;
        }
        Some(Value::String(k)) => k.clone(),
        Some(v) => {
            is.error(
                &format!("{p}.type"),
                "invalid_type",
                format!("type must be a string, got {}", type_name(v)),
            );
            return None;
        }
    };
    let Some(fields) = block_fields(&kind) else {
        is.error(
            &format!("{p}.type"),
            "unknown_block_type",
            format!("unknown block type {kind:?} (expected heading, paragraph, table, image or callout)"),
        );
        return None;
    };
    let mut known: Vec<&str> = vec!["type", "id"];
    known.extend(fields.iter().map(|f| f.0));
    let m = normalise_keys(obj, &known, &format!("{p}."), is);
    check_string(&m, "id", false, &p, is);
    match kind.as_str() {
        "heading" => {
            check_string(&m, "text", true, &p, is);
            match m.get("level") {
                None => is.error(&format!("{p}.level"), "missing_field", "level is required"),
                Some(v) => match v.as_i64() {
                    Some(l) if (1..=6).contains(&l) => {}
                    Some(l) => is.error(
                        &format!("{p}.level"),
                        "out_of_range",
                        format!("level must be from 1 to 6, got {l}"),
                    ),
                    None => is.error(
                        &format!("{p}.level"),
                        "invalid_type",
                        format!("level must be an integer, got {}", type_name(v)),
                    ),
                },
            }
        }
        "paragraph" => {
            check_string(&m, "text", true, &p, is);
        }
        "callout" => {
            if check_string(&m, "tone", true, &p, is) {
                let tone = m["tone"].as_str().unwrap_or_default();
                if !["info", "warning", "success", "danger"].contains(&tone) {
                    is.error(
                        &format!("{p}.tone"),
                        "invalid_value",
                        format!("tone must be info, warning, success or danger, got {tone:?}"),
                    );
                }
            }
            check_string(&m, "text", true, &p, is);
        }
        "image" => {
            if check_string(&m, "fileId", true, &p, is)
                && uuid::Uuid::parse_str(m["fileId"].as_str().unwrap_or_default()).is_err()
            {
                is.error(
                    &format!("{p}.fileId"),
                    "invalid_value",
                    "fileId must be a file uuid",
                );
            }
            check_string(&m, "caption", false, &p, is);
            if check_string(&m, "altText", false, &p, is) && !m.contains_key("altText") {
                is.warn(
                    &format!("{p}.altText"),
                    "missing_alt_text",
                    "images should have altText for screen readers",
                );
            }
        }
        "table" => validate_table(&m, &p, is),
        _ => {}
    }
    let mut out = Map::new();
    out.insert("type".into(), json!(kind));
    for k in known.iter().skip(1) {
        if let Some(v) = m.get(*k) {
            out.insert((*k).into(), v.clone());
        }
    }
    Some(Value::Object(out))
}

fn validate_table(m: &Map<String, Value>, p: &str, is: &mut Issues) {
    check_string(m, "caption", false, p, is);
    let mut ncols = None;
    match m.get("columns") {
        None => is.error(
            &format!("{p}.columns"),
            "missing_field",
            "columns is required",
        ),
        Some(Value::Array(cols)) => {
            if cols.is_empty() {
                is.error(
                    &format!("{p}.columns"),
                    "out_of_range",
                    "a table needs at least one column",
                );
            }
            for (c, col) in cols.iter().enumerate() {
                if !col.is_string() {
                    is.error(
                        &format!("{p}.columns[{c}]"),
                        "invalid_type",
                        format!("a column name must be a string, got {}", type_name(col)),
                    );
                }
            }
            ncols = Some(cols.len());
        }
        Some(v) => is.error(
            &format!("{p}.columns"),
            "invalid_type",
            format!("columns must be an array of strings, got {}", type_name(v)),
        ),
    }
    match m.get("rows") {
        None => is.error(&format!("{p}.rows"), "missing_field", "rows is required"),
        Some(Value::Array(rows)) => {
            for (r, row) in rows.iter().enumerate() {
                let rp = format!("{p}.rows[{r}]");
                let Some(cells) = row.as_array() else {
                    is.error(
                        &rp,
                        "invalid_type",
                        format!("a row must be an array, got {}", type_name(row)),
                    );
                    continue;
                };
                if ncols.is_some_and(|n| n != cells.len()) {
                    is.error(
                        &rp,
                        "out_of_range",
                        format!(
                            "row has {} cells, the table has {} columns",
                            cells.len(),
                            ncols.unwrap_or(0)
                        ),
                    );
                }
                for (c, cell) in cells.iter().enumerate() {
                    if cell.is_array() || cell.is_object() {
                        is.error(
                            &format!("{rp}[{c}]"),
                            "invalid_type",
                            format!(
                                "a cell must be a string, number, boolean or null, got {}",
                                type_name(cell)
                            ),
                        );
                    }
                }
            }
        }
        Some(v) => is.error(
            &format!("{p}.rows"),
            "invalid_type",
            format!("rows must be an array of arrays, got {}", type_name(v)),
        ),
    }
}

/// Validates a layout; always returns a Layout validation result.
pub(crate) fn validate(layout: Option<&Value>) -> Value {
    let mut is = Issues::default();
    let normalised = match layout {
        None => {
            is.error("layout", "missing_field", "layout is required");
            Value::Null
        }
        Some(Value::Object(obj)) => {
            let m = normalise_keys(obj, &["type", "version", "blocks"], "", &mut is);
            let kind = match m.get("type") {
                None => {
                    is.error(
                        "type",
                        "missing_field",
                        "type is required (report or dashboard)",
                    );
                    Value::Null
                }
                Some(Value::String(k)) => {
                    if k != "report" && k != "dashboard" {
                        is.error(
                            "type",
                            "invalid_value",
                            format!("type must be report or dashboard, got {k:?}"),
                        );
                    }
                    json!(k)
                }
                Some(v) => {
                    is.error(
                        "type",
                        "invalid_type",
                        format!("type must be a string, got {}", type_name(v)),
                    );
                    Value::Null
                }
            };
            let version = match m.get("version") {
                None => json!("1"),
                Some(Value::String(v)) => {
                    if v != "1" {
                        is.error(
                            "version",
                            "unsupported_version",
                            format!("version {v:?} is not supported (use \"1\")"),
                        );
                    }
                    json!(v)
                }
                Some(v) => {
                    is.error(
                        "version",
                        "invalid_type",
                        format!("version must be a string, got {}", type_name(v)),
                    );
                    json!("1")
                }
            };
            let blocks = match m.get("blocks") {
                None => {
                    is.error("blocks", "missing_field", "blocks is required");
                    vec![]
                }
                Some(Value::Array(bs)) => bs
                    .iter()
                    .enumerate()
                    .filter_map(|(i, b)| validate_block(i, b, &mut is))
                    .collect(),
                Some(v) => {
                    is.error(
                        "blocks",
                        "invalid_type",
                        format!("blocks must be an array, got {}", type_name(v)),
                    );
                    vec![]
                }
            };
            json!({"type": kind, "version": version, "blocks": blocks})
        }
        Some(v) => {
            is.error(
                "layout",
                "invalid_type",
                format!("layout must be an object, got {}", type_name(v)),
            );
            Value::Null
        }
    };
    let valid = is.errors.is_empty();
    let omitted_errors = is.errors.len().saturating_sub(MAX_LISTED);
    let omitted_warnings = is.warnings.len().saturating_sub(MAX_LISTED);
    is.errors.truncate(MAX_LISTED);
    is.warnings.truncate(MAX_LISTED);
    json!({
        "valid": valid,
        "errors": is.errors,
        "warnings": is.warnings,
        "omitted_errors": omitted_errors,
        "omitted_warnings": omitted_warnings,
        "layout": normalised,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case() {
        assert_eq!(camel("alt_text"), "altText");
        assert_eq!(camel("fileId"), "fileId");
        assert_eq!(camel("file_id"), "fileId");
    }
}
