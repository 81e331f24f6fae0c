//! The schema and the reader agree: every key the reader knows is in the
//! schema with its default, every property of the schema is read, and
//! what the schema accepts or refuses the reader accepts or refuses. A
//! validator for the part of JSON Schema the schema uses checks the sample
//! config and what `config init` writes.

use super::super::doc::{Kind, SETTINGS};
use super::super::{from_str, Severity};
use super::validate::{check, ANNOTATIONS, CHECKED};
use super::*;
use std::collections::BTreeSet;

fn errors(src: &str) -> Vec<String> {
    from_str(src, None)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message)
        .collect()
}

/// Every keyword the schema uses is one the validator checks or an
/// annotation: nothing is skipped silently.
#[test]
fn the_validator_knows_every_keyword_the_schema_uses() {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        if let Some(o) = v.as_object() {
            for (k, x) in o {
                out.insert(k.clone());
                match k.as_str() {
                    "properties" => x.as_object().unwrap().values().for_each(|p| walk(p, out)),
                    "enum" | "default" => {}
                    _ => walk(x, out),
                }
            }
        } else if let Some(a) = v.as_array() {
            a.iter().for_each(|x| walk(x, out));
        }
    }
    let mut used = BTreeSet::new();
    walk(&schema(), &mut used);
    let unknown: Vec<_> = used
        .iter()
        .filter(|k| !CHECKED.contains(&k.as_str()) && !ANNOTATIONS.contains(&k.as_str()))
        .collect();
    assert!(unknown.is_empty(), "{unknown:?}");
}

/// Every key the reader knows is a property with its default, and every
/// property is a key the reader knows (`[[macros]]` too, its fields from
/// the one table its parser names them from); a profile's properties are
/// its keys.
#[test]
fn the_schema_names_every_setting_the_reader_knows_with_its_default() {
    let s = schema();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    let props = s["properties"].as_object().unwrap();
    let in_schema: BTreeSet<&str> = props.keys().map(String::as_str).collect();
    let read: BTreeSet<&str> = super::super::parse::TOP_KEYS.iter().copied().collect();
    assert_eq!(in_schema, read, "the schema and the reader's keys differ");
    for row in SETTINGS {
        let p = &props[row.key];
        assert_eq!(p["description"], row.meaning, "{}", row.key);
        match row.toml {
            Some(t) => {
                assert_eq!(p["default"], toml_value(t), "{}", row.key);
                // The default is a value the reader takes and changes nothing.
                let src = format!("{} = {t}\n", row.key);
                assert!(errors(&src).is_empty(), "{src}");
                assert!(check(&src).is_empty(), "{src}: {:?}", check(&src));
            }
            None => assert!(p.get("default").is_none(), "{}", row.key),
        }
    }
    let profile = &props["profiles"]["additionalProperties"]["properties"];
    let keys: Vec<&str> = profile
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut conn = super::super::parse::CONN_KEYS.to_vec();
    conn.sort();
    let mut keys = keys;
    keys.sort();
    assert_eq!(keys, conn);
    let macro_fields = props["macros"]["items"]["properties"].as_object().unwrap();
    assert_eq!(macro_fields.len(), 12);
    assert_eq!(macro_fields["tags"]["type"], "array");
}

/// TOML values the schema says a kind takes, and some it refuses.
fn samples(k: Kind) -> (Vec<String>, Vec<String>) {
    let q = |s: &str| format!("{s:?}");
    match k {
        Kind::Bool => (
            vec!["true".into(), "false".into()],
            vec![q("yes"), "1".into()],
        ),
        Kind::Int { min, max } => (
            vec![min.to_string(), max.to_string()],
            vec![(min - 1).to_string(), (max + 1).to_string(), q("5")],
        ),
        Kind::Choice(c) => (
            c.iter().map(|c| q(c)).collect(),
            vec![q("nope"), "1".into()],
        ),
        Kind::BoolOr(c) => {
            let mut ok: Vec<String> = c.iter().map(|c| q(c)).collect();
            ok.extend(["true".into(), "false".into()]);
            (ok, vec![q("nope"), "1".into()])
        }
        Kind::Words(c) => (
            c.iter()
                .map(|c| format!("[{}]", q(c)))
                .chain(["[]".into()])
                .collect(),
            vec![q(c[0]), "[\"nope\"]".into()],
        ),
        Kind::Strs => (
            vec!["[\"+a\", \"-b\"]".into(), "[]".into()],
            vec![q("+a"), "[1]".into()],
        ),
        Kind::Number(c) => (
            c.iter().map(|n| n.to_string()).collect(),
            vec!["1".into(), q("9")],
        ),
        Kind::Str | Kind::Url => (vec![], vec!["5".into(), "true".into()]),
        Kind::Keys => (
            vec!["{ list = { \"ctrl-j\" = \"down\" } }".into()],
            vec!["5".into(), "{ list = { \"ctrl-j\" = 5 } }".into()],
        ),
        Kind::Entries(fields) => {
            let all: Vec<String> = fields
                .iter()
                .map(|f| format!("{} = {}", f.name, f.example))
                .collect();
            let one = format!("[{{ {} }}]", all.join(", "));
            let stray = format!("[{{ {}, colour = 1 }}]", all.join(", "));
            (vec![one], vec![stray, "5".into()])
        }
        Kind::Profiles => (
            vec!["{ w = { base_url = \"https://w.example\", ca_file = \"/c.pem\" } }".into()],
            vec!["{ w = { mouse = true } }".into(), "{ w = 5 }".into()],
        ),
    }
}

/// What the schema takes the reader takes, and what the schema refuses
/// the reader refuses: for each setting, its range's ends and the values
/// just outside, each choice and one that is none, each field of an entry
/// and one that is none.
#[test]
fn the_reader_and_the_schema_take_and_refuse_the_same_values() {
    for row in SETTINGS {
        let (ok, bad) = samples(row.kind);
        for v in ok {
            let src = format!("{} = {v}\n", row.key);
            assert_eq!(
                errors(&src),
                Vec::<String>::new(),
                "the reader refuses {src}"
            );
            assert_eq!(
                check(&src),
                Vec::<String>::new(),
                "the schema refuses {src}"
            );
        }
        for v in bad {
            let src = format!("{} = {v}\n", row.key);
            assert!(!errors(&src).is_empty(), "the reader takes {src}");
            assert!(!check(&src).is_empty(), "the schema takes {src}");
        }
    }
    assert!(check("unknown_thing = 1\n")[0].contains("not allowed"));
}

/// The sample config (`assets/config.example.toml`) is valid, and a
/// broken one is not (`config init`'s output: `cli::init`'s tests).
#[test]
fn the_sample_config_validates() {
    let example = include_str!("../../../assets/config.example.toml");
    assert_eq!(check(example), Vec::<String>::new());
    assert!(!check("page_size = 500\n").is_empty());
}

#[test]
fn the_schema_line_is_put_first_once() {
    assert_eq!(with_schema_line(""), "#:schema ./taskdeck.schema.json\n");
    let once = with_schema_line("theme = \"light\"\n");
    assert_eq!(once, "#:schema ./taskdeck.schema.json\ntheme = \"light\"\n");
    assert_eq!(with_schema_line(&once), once);
    assert_eq!(
        with_schema_line("#:schema ../old.json\nmouse = true\n"),
        "#:schema ./taskdeck.schema.json\nmouse = true\n"
    );
    let text = schema_text();
    assert!(text.ends_with("}\n"));
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), schema());
}
