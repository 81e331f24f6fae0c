//! Repairing a store whose schema is not what its `user_version` says
//! (issue 32, point 15): a store that says version 1 while later tables
//! exist ("table numbers already exists"), or says the current version
//! while tables are missing ("no such table: inbox_own").
//!
//! Migration steps run statement by statement, and a statement whose
//! object already exists (a table, an index, a column) is skipped: every
//! step can run again. What the schema should hold is not written twice:
//! it is what the migrations make of an empty database ([`expected`]),
//! compared with the file by name (tables, indexes, columns). A missing
//! table or index is made from the same SQL, a missing column is added
//! when SQLite can add it (nullable or with a default, not a key). What
//! cannot be repaired is reported as damage ([`damaged`]), and the
//! opener sets the store aside after carrying its queued edits and
//! drafts over (`open.rs`).

use rusqlite::Connection;
use std::sync::OnceLock;

/// Run `sql` (several statements) one statement at a time; a statement
/// that fails only because its object already exists is skipped.
pub(super) fn idempotent(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    for stmt in statements(sql) {
        match conn.execute_batch(&stmt) {
            Ok(()) => {}
            Err(e) if already_there(&e) => {
                tracing::info!(statement = %first_line(&stmt), "store repair: already there, skipped");
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn first_line(s: &str) -> String {
    s.trim()
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(80)
        .collect()
}

fn already_there(e: &rusqlite::Error) -> bool {
    let text = e.to_string();
    text.contains("already exists") || text.contains("duplicate column name")
}

/// The complete statements of `sql` (a trigger's inner `;` stays inside
/// its statement: SQLite's own `sqlite3_complete` decides).
fn statements(sql: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for piece in sql.split_inclusive(';') {
        cur.push_str(piece);
        if complete(&cur) {
            if !cur.trim().trim_end_matches(';').trim().is_empty() {
                out.push(std::mem::take(&mut cur));
            } else {
                cur.clear();
            }
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

fn complete(sql: &str) -> bool {
    let Ok(c) = std::ffi::CString::new(sql) else {
        return true;
    };
    crate::platform::ffi::sql_complete(&c)
}

/// One table or index the schema holds.
#[derive(Clone, Debug)]
struct Object {
    kind: String,
    name: String,
    /// The table it belongs to (itself for a table).
    table: String,
    sql: String,
    virtual_table: bool,
}

/// One column of a table.
#[derive(Clone, Debug)]
struct Column {
    name: String,
    decl: String,
    not_null: bool,
    default: Option<String>,
    key: bool,
}

struct Schema {
    objects: Vec<Object>,
    columns: Vec<(String, Vec<Column>)>,
}

/// The migration steps from a version (`schema::steps`), given by the
/// caller: this module stands below the schema.
pub(super) type Steps = fn(&Connection, i64) -> rusqlite::Result<()>;

/// What the migrations make of an empty database: the schema a store of
/// this build holds.
fn expected(steps: Steps) -> &'static Schema {
    static EXPECTED: OnceLock<Schema> = OnceLock::new();
    EXPECTED.get_or_init(|| {
        let conn = Connection::open_in_memory().expect("an in-memory database");
        steps(&conn, 0).expect("the migrations make an empty database");
        read_schema(&conn).expect("the schema of an in-memory database")
    })
}

fn read_schema(conn: &Connection) -> rusqlite::Result<Schema> {
    let mut st = conn.prepare(
        "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master
         WHERE type IN ('table','index') AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
    )?;
    let all: Vec<Object> = st
        .query_map([], |r| {
            let sql: String = r.get(3)?;
            Ok(Object {
                kind: r.get(0)?,
                name: r.get(1)?,
                table: r.get(2)?,
                virtual_table: sql.to_ascii_uppercase().starts_with("CREATE VIRTUAL"),
                sql,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    // A virtual table's own tables (`tasks_fts_data`…) are its business;
    // an index SQLite made itself has no SQL.
    let virtuals: Vec<String> = all
        .iter()
        .filter(|o| o.virtual_table)
        .map(|o| format!("{}_", o.name))
        .collect();
    let objects: Vec<Object> = all
        .into_iter()
        .filter(|o| !o.sql.is_empty())
        .filter(|o| o.virtual_table || !virtuals.iter().any(|v| o.name.starts_with(v.as_str())))
        .collect();
    let mut columns = Vec::new();
    for o in objects
        .iter()
        .filter(|o| o.kind == "table" && !o.virtual_table)
    {
        columns.push((o.name.clone(), table_columns(conn, &o.name)?));
    }
    Ok(Schema { objects, columns })
}

fn table_columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<Column>> {
    let mut st = conn.prepare(&format!("PRAGMA table_info({})", quote(table)))?;
    let cols = st
        .query_map([], |r| {
            Ok(Column {
                name: r.get(1)?,
                decl: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                not_null: r.get::<_, i64>(3)? != 0,
                default: r.get(4)?,
                key: r.get::<_, i64>(5)? != 0,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(cols)
}

fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// What the file lacks of the schema, in words (empty: it is whole).
pub(super) fn gaps(conn: &Connection, steps: Steps) -> rusqlite::Result<Vec<String>> {
    let want = expected(steps);
    let have = read_schema(conn)?;
    let mut gaps = Vec::new();
    for o in &want.objects {
        if !have.objects.iter().any(|h| h.name == o.name) {
            gaps.push(format!("no {} {}", o.kind, o.name));
        }
    }
    for (table, cols) in &want.columns {
        let Some((_, got)) = have.columns.iter().find(|(t, _)| t == table) else {
            continue;
        };
        for c in cols
            .iter()
            .filter(|c| !got.iter().any(|g| g.name == c.name))
        {
            gaps.push(format!("table {table} has no column {}", c.name));
        }
    }
    Ok(gaps)
}

/// Make what is missing: tables (virtual ones first: they bring their
/// own tables), then indexes, then the columns SQLite can add. Returns
/// what was made, in words (for the log).
pub(super) fn fill(conn: &Connection, steps: Steps) -> rusqlite::Result<Vec<String>> {
    let want = expected(steps);
    let mut made = Vec::new();
    let order = |o: &&Object| (!o.virtual_table, o.kind != "table");
    let mut objects: Vec<&Object> = want.objects.iter().collect();
    objects.sort_by_key(order);
    for o in objects {
        let have = read_schema(conn)?;
        if have.objects.iter().any(|h| h.name == o.name) {
            continue;
        }
        // An index of a table that is not there: the table's gap says it.
        if o.kind == "index" && !have.objects.iter().any(|h| h.name == o.table) {
            continue;
        }
        idempotent(conn, &o.sql)?;
        made.push(format!("{} {}", o.kind, o.name));
    }
    let have = read_schema(conn)?;
    for (table, cols) in &want.columns {
        let Some((_, got)) = have.columns.iter().find(|(t, _)| t == table) else {
            continue;
        };
        for c in cols
            .iter()
            .filter(|c| !got.iter().any(|g| g.name == c.name))
        {
            // SQLite adds a column only when every row can have it.
            if c.key || (c.not_null && c.default.is_none()) {
                continue;
            }
            let mut sql = format!(
                "ALTER TABLE {} ADD COLUMN {} {}",
                quote(table),
                quote(&c.name),
                c.decl
            );
            if c.not_null {
                sql.push_str(" NOT NULL");
            }
            if let Some(d) = &c.default {
                sql.push_str(&format!(" DEFAULT {d}"));
            }
            idempotent(conn, &sql)?;
            made.push(format!("column {table}.{}", c.name));
        }
    }
    Ok(made)
}

/// A schema that could not be repaired: an error the opener treats as
/// damage (set aside, queued edits and drafts carried over).
pub(super) fn damaged(gaps: &[String]) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_MISMATCH),
        Some(format!(
            "the store's tables are not what this taskdeck makes and cannot be repaired: {}",
            gaps.join(", ")
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_split_where_sqlite_says_they_end() {
        let s = statements(
            "CREATE TABLE a(x); CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; SELECT 2; END;\n",
        );
        assert_eq!(s.len(), 2, "{s:?}");
        assert!(s[1].contains("SELECT 2"), "{s:?}");
    }

    #[test]
    fn a_statement_whose_object_exists_is_skipped() {
        let c = Connection::open_in_memory().unwrap();
        let sql = "CREATE TABLE a(x); CREATE INDEX a_x ON a(x); ALTER TABLE a ADD COLUMN y TEXT;";
        idempotent(&c, sql).unwrap();
        idempotent(&c, sql).unwrap();
        // Another error still fails.
        assert!(idempotent(&c, "INSERT INTO nowhere VALUES(1);").is_err());
    }
}
