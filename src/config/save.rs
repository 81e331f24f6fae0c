//! Writing to the config file (`:view save NAME`): only the entry changed,
//! everything else kept as written — comments, order, layout (toml_edit);
//! the file is written 0600, write-then-rename.

use super::{name_key, read_regular_file, write_private_file, CONFIG_MAX_BYTES};
use std::path::{Path, PathBuf};
use toml_edit::{value, ArrayOfTables, DocumentMut, Item, Table};

/// Put view `name` with `filter` in the config file at `path`: a view of
/// that name gets the new filter (its key and comments stay), else a new
/// `[[views]]` entry is added at the end. A symlinked config file is
/// followed (its target is written). Returns the path written.
pub fn save_view(path: &Path, name: &str, filter: &str) -> Result<PathBuf, String> {
    let real = super::resolve_links(path);
    let text = match read_regular_file(&real, CONFIG_MAX_BYTES) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", real.display())),
    };
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        format!(
            "{} is not valid TOML, nothing written: {}",
            real.display(),
            e.to_string().lines().next().unwrap_or_default()
        )
    })?;
    let empty = doc.as_table().is_empty();
    let item = doc
        .entry("views")
        .or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
    if item.as_array().is_some_and(|a| a.is_empty()) {
        // `views = []`: the same, as tables.
        *item = Item::ArrayOfTables(ArrayOfTables::new());
    }
    let views = item.as_array_of_tables_mut().ok_or_else(|| {
        format!(
            "`views` in {} is not a list of [[views]] tables, nothing written",
            real.display()
        )
    })?;
    let same = |t: &Table| {
        t.get("name")
            .and_then(|n| n.as_str())
            .is_some_and(|n| name_key(n) == name_key(name))
    };
    let found = views.iter().position(same);
    match found {
        Some(i) => {
            if let Some(t) = views.get_mut(i) {
                t["filter"] = value(filter);
            }
        }
        None => {
            let mut t = Table::new();
            t["name"] = value(name);
            t["filter"] = value(filter);
            if !empty {
                t.decor_mut().set_prefix("\n");
            }
            views.push(t);
        }
    }
    write_private_file(&real, doc.to_string().as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", real.display()))?;
    Ok(real)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = r#"# my taskdeck config
base_url = "https://tasks.example.com"   # the work one

# views I use
[[views]]
name = "Due today"   # keep
filter = "assigned=me to=today"
key = "7"

[profiles.staging]
base_url = "https://staging.example.com"
"#;

    #[test]
    fn a_new_view_is_added_and_everything_else_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, CONFIG).unwrap();
        save_view(&path, "Urgent mine", "assigned=me priority=urgent").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // Beside the other views; every comment, value and blank line kept.
        assert_eq!(
            text,
            CONFIG.replace(
                "\n[profiles.staging]",
                "\n[[views]]\nname = \"Urgent mine\"\nfilter = \"assigned=me priority=urgent\"\n\n[profiles.staging]"
            )
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let c = crate::config::from_str(&text, None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        let names: Vec<&str> = c.settings.views.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, vec!["Due today", "Urgent mine"]);
    }

    #[test]
    fn the_same_name_gets_the_new_filter_and_keeps_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, CONFIG).unwrap();
        save_view(&path, "due TODAY", "assigned=me to=tomorrow").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            CONFIG.replace("to=today", "to=tomorrow"),
            "one value changed, nothing else"
        );
    }

    #[test]
    fn no_file_yet_a_symlink_and_a_broken_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("config.toml");
        save_view(&path, "Mine", "assigned=me \"query=a b\"").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "[[views]]\nname = \"Mine\"\nfilter = 'assigned=me \"query=a b\"'\n"
        );
        #[cfg(unix)]
        {
            let link = dir.path().join("link.toml");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            let written = save_view(&link, "Other", "").unwrap();
            assert_eq!(written, std::fs::canonicalize(&path).unwrap());
            assert!(std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
            assert!(std::fs::read_to_string(&path).unwrap().contains("Other"));
        }
        let bad = dir.path().join("bad.toml");
        std::fs::write(&bad, "a = = 1\n").unwrap();
        assert!(save_view(&bad, "X", "")
            .unwrap_err()
            .contains("not valid TOML"));
        assert_eq!(std::fs::read_to_string(&bad).unwrap(), "a = = 1\n");
        let wrong = dir.path().join("wrong.toml");
        std::fs::write(&wrong, "views = 3\n").unwrap();
        assert!(save_view(&wrong, "X", "").is_err());
    }
}
