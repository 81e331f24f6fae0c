//! Reading a file a setting or a command names, safely: a regular file of
//! bounded size, refused at once otherwise (a FIFO would block, `/dev/zero`
//! never ends). Below every other module: `config`, `api` (`ca_file`),
//! `store` and the TUI's `:validate` (`read_layout`) read through it.

use std::path::Path;

/// Read `path` as text if it is a regular file of at most `cap` bytes.
/// Anything else — a FIFO (which would block until a writer comes), a
/// device such as `/dev/zero` (which never ends), a directory — is refused
/// at once with an error naming what it is. A symlink to a regular file is
/// followed. `NotFound` stays `NotFound`.
pub fn read_regular_file(path: &Path, cap: u64) -> std::io::Result<String> {
    String::from_utf8(read_regular_bytes(path, cap)?).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not UTF-8 text".to_string(),
        )
    })
}

/// [`read_regular_file`] as bytes (a certificate bundle, a layout).
pub fn read_regular_bytes(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO for reading blocks until it has a writer; without
        // blocking it opens at once and is refused below.
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("not a regular file ({})", file_kind(&meta)),
        ));
    }
    if meta.len() > cap {
        return Err(too_large(cap));
    }
    let mut bytes = Vec::new();
    // The file may grow after the check: reading stops one byte past the cap.
    f.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(cap));
    }
    Ok(bytes)
}

/// The most a layout file may hold (the TUI and the CLI alike).
pub const LAYOUT_CAP: u64 = 32 * 1024 * 1024;

/// `{"layout": {...}}` (that one key, an object) -> the inner object, true:
/// what the service validates is the layout itself (`:validate` in the TUI
/// and `taskdeck validate-layout` both send the inner object).
pub fn unwrap_layout(v: serde_json::Value) -> (serde_json::Value, bool) {
    match v {
        serde_json::Value::Object(mut m)
            if m.len() == 1 && m.get("layout").is_some_and(serde_json::Value::is_object) =>
        {
            (m.remove("layout").unwrap_or_default(), true)
        }
        other => (other, false),
    }
}

/// The layout file `:validate PATH` names in the TUI, read and parsed:
/// the path as shown (`~/` spelled out) and the JSON (a `{"layout": …}`
/// wrapper taken off, see [`unwrap_layout`]), or what went wrong in one
/// line. Standard input is the TUI's own terminal: `-` is refused.
pub fn read_layout(path: String) -> Result<(String, serde_json::Value), String> {
    let path = match path.strip_prefix("~/") {
        Some(rest) => dirs::home_dir()
            .map(|h| h.join(rest).display().to_string())
            .unwrap_or(path),
        None => path,
    };
    let read = if path == "-" {
        Err(
            "reading a layout from stdin is not possible inside the TUI; give a file path"
                .to_string(),
        )
    } else {
        // A regular file of a bounded size: a FIFO or a device would
        // hang or fill the TUI.
        read_regular_file(Path::new(&path), LAYOUT_CAP)
            .map_err(|e| format!("cannot read {path}: {e}"))
    };
    let layout = read.and_then(|s| {
        serde_json::from_str::<serde_json::Value>(&s)
            .map_err(|e| format!("{path} is not JSON: {e}"))
    })?;
    Ok((path, unwrap_layout(layout).0))
}

fn too_large(cap: u64) -> std::io::Error {
    let shown = if cap % (1024 * 1024) == 0 {
        format!("{} MiB", cap / (1024 * 1024))
    } else {
        format!("{cap} bytes")
    };
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("larger than {shown}"),
    )
}

fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_lone_layout_object_is_unwrapped() {
        let v = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
        let inner = v(r#"{"type": "report", "blocks": []}"#);
        assert_eq!(
            unwrap_layout(v(r#"{"layout": {"type": "report", "blocks": []}}"#)),
            (inner.clone(), true)
        );
        for kept in [
            r#"{"type": "report", "blocks": []}"#,
            r#"{"layout": {"type": "report"}, "name": "x"}"#,
            r#"{"layout": "report"}"#,
            r#"{"layout": [1]}"#,
            r#"[{"layout": {}}]"#,
        ] {
            assert_eq!(unwrap_layout(v(kept)), (v(kept), false), "{kept}");
        }
    }

    /// `:validate` in the TUI sends what `validate-layout` sends: the
    /// inner object of a wrapped file.
    #[test]
    fn a_wrapped_layout_file_reads_as_its_inner_object() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("wrapped.json");
        std::fs::write(&path, r#"{"layout": {"type": "report", "blocks": []}}"#).unwrap();
        let (_, layout) = read_layout(path.display().to_string()).unwrap();
        assert_eq!(layout, serde_json::json!({"type": "report", "blocks": []}));
    }
}
