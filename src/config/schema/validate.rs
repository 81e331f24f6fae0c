//! A validator for the part of JSON Schema that [`super::schema`] uses
//! (tests only): the sample config and `config init`'s output are checked
//! with it, and a test fails when the schema uses a keyword it does not
//! check.

use serde_json::Value;
use std::collections::BTreeSet;

/// The keywords [`validate`] checks, and the annotations it may skip.
pub const CHECKED: &[&str] = &[
    "type",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "properties",
    "additionalProperties",
    "items",
    "anyOf",
    "uniqueItems",
];
pub const ANNOTATIONS: &[&str] = &["$schema", "title", "description", "default", "format"];

/// Problems of `v` against `schema`, each with its path (empty: valid).
fn validate(schema: &Value, v: &Value, at: &str, out: &mut Vec<String>) {
    let s = schema.as_object().expect("a schema is an object");
    if let Some(t) = s.get("type").and_then(Value::as_str) {
        let ok = match t {
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "integer" => v.is_i64() || v.is_u64(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            other => panic!("type {other} not checked"),
        };
        if !ok {
            out.push(format!("{at}: not a {t}: {v}"));
            return;
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            out.push(format!("{at}: {v} not one of {e:?}"));
        }
    }
    if let (Some(min), Some(n)) = (s.get("minimum").and_then(Value::as_i64), v.as_i64()) {
        if n < min {
            out.push(format!("{at}: {n} < {min}"));
        }
    }
    if let (Some(max), Some(n)) = (s.get("maximum").and_then(Value::as_i64), v.as_i64()) {
        if n > max {
            out.push(format!("{at}: {n} > {max}"));
        }
    }
    if let (Some(min), Some(t)) = (s.get("minLength").and_then(Value::as_u64), v.as_str()) {
        if (t.chars().count() as u64) < min {
            out.push(format!("{at}: shorter than {min}"));
        }
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
        let fits = any.iter().any(|alt| {
            let mut e = vec![];
            validate(alt, v, at, &mut e);
            e.is_empty()
        });
        if !fits {
            out.push(format!("{at}: {v} fits none of anyOf"));
        }
    }
    if let Some(items) = v.as_array() {
        if let Some(item) = s.get("items") {
            for (i, x) in items.iter().enumerate() {
                validate(item, x, &format!("{at}[{i}]"), out);
            }
        }
        if s.get("uniqueItems") == Some(&Value::Bool(true)) {
            let distinct: BTreeSet<String> = items.iter().map(|x| x.to_string()).collect();
            if distinct.len() != items.len() {
                out.push(format!("{at}: items repeat"));
            }
        }
    }
    if let Some(obj) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        for (k, x) in obj {
            let path = format!("{at}.{k}");
            match (props.and_then(|p| p.get(k)), s.get("additionalProperties")) {
                (Some(p), _) => validate(p, x, &path, out),
                (None, Some(Value::Bool(false))) => out.push(format!("{path}: not allowed")),
                (None, Some(extra)) if extra.is_object() => validate(extra, x, &path, out),
                (None, _) => {}
            }
        }
    }
}

/// A TOML document's problems against the schema.
pub fn check(toml_text: &str) -> Vec<String> {
    let table: toml::Table = toml::from_str(toml_text).expect("TOML");
    let v = serde_json::to_value(table).expect("JSON");
    let mut out = vec![];
    validate(&super::schema(), &v, "", &mut out);
    out
}
