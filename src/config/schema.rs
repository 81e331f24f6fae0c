//! `taskdeck config schema`: a JSON Schema (draft 2020-12) of the config
//! file, generated from [`super::doc::SETTINGS`] — the table whose ranges
//! and choices the parser itself checks — so that editors (taplo, tombi,
//! any TOML language server) complete and check the file. `config init`
//! writes it beside the config file and points the file's first line at it
//! (`#:schema ./taskdeck.schema.json`).

use super::doc::{Field, Kind, SettingDoc, PROFILE_SETTINGS, SETTINGS};
use serde_json::{json, Map, Value};

/// The schema's file name, beside the config file.
pub const SCHEMA_FILE: &str = "taskdeck.schema.json";

/// The config file's first line: the schema beside it, for taplo and tombi.
pub const SCHEMA_LINE: &str = "#:schema ./taskdeck.schema.json";

/// The schema of the whole file.
pub fn schema() -> Value {
    let mut props = Map::new();
    for s in SETTINGS {
        props.insert(s.key.into(), property(s));
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "taskdeck configuration",
        "description": "The config file of taskdeck (`taskdeck config path`); \
                        `taskdeck config check` reports the same problems with their lines.",
        "type": "object",
        "properties": props,
        "additionalProperties": false,
    })
}

/// The schema as the file holds it: pretty JSON and a final newline.
pub fn schema_text() -> String {
    let mut s = serde_json::to_string_pretty(&schema()).expect("a JSON value");
    s.push('\n');
    s
}

/// `text` with [`SCHEMA_LINE`] as its first line (an older `#:schema`
/// line is replaced; nothing else changes).
pub fn with_schema_line(text: &str) -> String {
    let rest = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with("#:schema") => rest,
        None if text.starts_with("#:schema") => "",
        _ => text,
    };
    format!("{SCHEMA_LINE}\n{rest}")
}

fn property(s: &SettingDoc) -> Value {
    let mut v = kind(s.kind);
    v["description"] = s.meaning.into();
    if let Some(t) = s.toml {
        v["default"] = toml_value(t);
    }
    v
}

/// A TOML value (as written in the file) as JSON.
fn toml_value(t: &str) -> Value {
    let table: toml::Table = toml::from_str(&format!("v = {t}")).expect("a TOML default");
    serde_json::to_value(&table["v"]).expect("TOML is JSON")
}

fn kind(k: Kind) -> Value {
    match k {
        Kind::Str => json!({"type": "string", "minLength": 1}),
        Kind::Url => json!({"type": "string", "format": "uri"}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::Int { min, max } => json!({"type": "integer", "minimum": min, "maximum": max}),
        Kind::Choice(c) => json!({"type": "string", "enum": c}),
        Kind::BoolOr(c) => json!({"anyOf": [{"type": "boolean"}, {"type": "string", "enum": c}]}),
        Kind::Words(c) => json!({
            "type": "array",
            "items": {"type": "string", "enum": c},
            "uniqueItems": true,
        }),
        Kind::Strs => json!({
            "type": "array",
            "items": {"type": "string", "minLength": 1},
        }),
        Kind::Number(c) => json!({"type": "integer", "enum": c}),
        Kind::Keys => json!({
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": {"type": "string", "description": "an action name"},
            },
        }),
        Kind::Entries(fields) => entries(fields),
        Kind::Profiles => {
            let mut props = Map::new();
            for key in PROFILE_SETTINGS {
                let s = SETTINGS.iter().find(|s| s.key == *key).expect("a row");
                let mut v = kind(s.kind);
                v["description"] = s.meaning.into();
                props.insert((*key).into(), v);
            }
            json!({
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": props,
                    "additionalProperties": false,
                },
            })
        }
    }
}

fn entries(fields: &[Field]) -> Value {
    let mut props = Map::new();
    for f in fields {
        let mut v = kind(f.kind);
        v["description"] = f.meaning.into();
        props.insert(f.name.into(), v);
    }
    json!({
        "type": "array",
        "items": {"type": "object", "properties": props, "additionalProperties": false},
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod validate;
