//! A notes store backed by SQLite: state shared by every tool through `State<T>`.
//!
//! What it shows:
//!
//! - **`State<T>`**: one `Notes` value (the database connection) registered with
//!   [`Server::state`] and handed to every tool that names it; nothing to clone or pass around.
//! - **Plain `fn` tools doing blocking I/O**: each runs on a thread of its own, off the async
//!   runtime, so a slow disk or a long query never stalls other calls.
//! - **Structured output**: `Json<Note>` / `Json<NoteList>` results, advertised as each tool's
//!   `outputSchema`.
//! - **Defaults** (`#[mcp(default = 20)] limit`), **hints** (`read_only`, `destructive`,
//!   `idempotent`) and **tool errors** (`isError` answers for a missing id or a bad argument).
//! - **Resources**: each note is readable as `notes://{id}` (a resource template whose ids a
//!   client can complete), and `notes://recent` lists the newest; a client subscribed to
//!   them is told when they change (`Notifier`, taken by the tools that change notes).
//! - **A prompt with completions**: `summarize_notes` renders the notes of a tag as a
//!   conversation, completing the tag from the ones in use.
//!
//! Run it with `cargo run -p example-notes -- [DATABASE]`; it speaks MCP on
//! stdin/stdout. DATABASE is the SQLite file to keep the notes in (created if missing). Without
//! it, the `NOTES_DB` environment variable names the file; without either, the notes live in
//! memory and are gone when the server exits. Try it from the shell:
//!
//! ```sh
//! MCP_CLI="call add_note title=Groceries body='eggs, milk' tags:='[\"home\"]'" \
//!     cargo run -p example-notes -- /tmp/notes.db
//! MCP_CLI="call list_notes tag=home" cargo run -p example-notes -- /tmp/notes.db
//! ```

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard, PoisonError};

use mcp_runtime::{
    Completing, Content, Json, Notifier, PromptMessage, Server, State, ToolError, mcp_prompt,
    mcp_resource, mcp_tool,
};
use rusqlite::{Connection, OptionalExtension, Row, ToSql, params};
use schemars::JsonSchema;
use serde::Serialize;

/// The store every tool shares, registered once with `Server::state`.
///
/// Why a `Mutex<Connection>`: a rusqlite `Connection` may move between threads (`Send`) but
/// not be used from two at once (not `Sync`), and the tools below are plain `fn`s, each
/// running on a thread of its own. A `std` mutex is the simplest correct answer: calls take
/// turns (SQLite serializes writers anyway, and these statements take microseconds), and
/// blocking on the lock or the disk is fine because these threads are not the async
/// runtime's. A store under heavy parallel reads would instead keep a pool of connections
/// (WAL mode lets readers run beside the writer); `async fn` tools would do their database
/// work in `tokio::task::spawn_blocking`, or through a crate that does that for them.
struct Notes {
    db: Mutex<Connection>,
}

impl Notes {
    /// Opens (or creates) the store at `path`; `:memory:` keeps it in memory.
    fn open(path: &str) -> rusqlite::Result<Notes> {
        let db = Connection::open(path)?;
        // Another process may hold the file's write lock for a moment: wait, do not fail.
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        db.execute_batch(
            "PRAGMA foreign_keys = ON;
             CREATE TABLE IF NOT EXISTS notes (
                 id INTEGER PRIMARY KEY AUTOINCREMENT,
                 title TEXT NOT NULL,
                 body TEXT NOT NULL,
                 created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
             );
             CREATE TABLE IF NOT EXISTS note_tags (
                 note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
                 tag TEXT NOT NULL,
                 PRIMARY KEY (note_id, tag)
             );
             CREATE INDEX IF NOT EXISTS note_tags_by_tag ON note_tags(tag);",
        )?;
        Ok(Notes { db: Mutex::new(db) })
    }

    /// The connection, for one tool call.
    fn db(&self) -> MutexGuard<'_, Connection> {
        // A tool that panicked while holding the lock poisons it, but leaves the connection
        // usable (a transaction it had open rolled back when it was dropped): carry on.
        self.db.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A note.
#[derive(Serialize, JsonSchema)]
struct Note {
    /// The note's id, as `get_note` and `delete_note` take it.
    id: i64,
    /// Its title.
    title: String,
    /// Its text.
    body: String,
    /// Its tags, sorted.
    tags: Vec<String>,
    /// When it was added (UTC, RFC 3339).
    created_at: String,
}

/// Some of the notes, newest first.
#[derive(Serialize, JsonSchema)]
struct NoteList {
    /// How many notes matched in all.
    total: u32,
    /// The newest of them, at most `limit`.
    notes: Vec<Note>,
}

/// The largest `limit` a listing or search accepts.
const MAX_LIMIT: u32 = 100;

/// A note's columns, its tags gathered into a JSON array (SQLite's JSON functions are
/// built in), so one query reads whole notes.
const SELECT_NOTES: &str = "SELECT id, title, body, created_at,
     (SELECT json_group_array(tag) FROM (SELECT tag FROM note_tags WHERE note_id = notes.id ORDER BY tag))
     FROM notes";

fn note_from_row(row: &Row<'_>) -> rusqlite::Result<Note> {
    let tags: String = row.get(4)?;
    let tags = serde_json::from_str(&tags).map_err(|error| {
        rusqlite::Error::FromSqlConversionFailure(4, rusqlite::types::Type::Text, error.into())
    })?;
    Ok(Note {
        id: row.get(0)?,
        title: row.get(1)?,
        body: row.get(2)?,
        tags,
        created_at: row.get(3)?,
    })
}

/// A database failure: logged in full on the server (stderr), reported to the client in
/// general terms. Failures the client can act on — no such note, an empty title — are
/// `ToolError`s with a precise message instead.
fn internal(error: rusqlite::Error) -> ToolError {
    tracing::error!(%error, "the notes database failed");
    ToolError::new("the notes database failed; the details are in the server's log")
}

fn get(db: &Connection, id: i64) -> Result<Note, ToolError> {
    db.query_row(
        &format!("{SELECT_NOTES} WHERE id = ?1"),
        [id],
        note_from_row,
    )
    .optional()
    .map_err(internal)?
    .ok_or_else(|| missing(id))
}

/// The notes for which `filter` (an SQL condition on the parameter `?1`) holds: how many
/// there are, and the newest `limit` of them.
fn find(
    db: &Connection,
    filter: &str,
    parameter: &dyn ToSql,
    limit: u32,
) -> Result<NoteList, ToolError> {
    let total = db
        .query_row(
            &format!("SELECT count(*) FROM notes WHERE ({filter})"),
            [parameter],
            |row| row.get(0),
        )
        .map_err(internal)?;
    let mut statement = db
        .prepare(&format!(
            "{SELECT_NOTES} WHERE ({filter}) ORDER BY id DESC LIMIT ?2"
        ))
        .map_err(internal)?;
    let notes = statement
        .query_map(params![parameter, limit], note_from_row)
        .and_then(Iterator::collect)
        .map_err(internal)?;
    Ok(NoteList { total, notes })
}

fn missing(id: i64) -> ToolError {
    ToolError::new(format!("there is no note with id {id}"))
}

fn check_limit(limit: u32) -> Result<(), ToolError> {
    if (1..=MAX_LIMIT).contains(&limit) {
        Ok(())
    } else {
        Err(ToolError::new(format!(
            "limit must be between 1 and {MAX_LIMIT}, not {limit}"
        )))
    }
}

/// Add a note.
///
/// Returns the note as stored, with its id.
#[mcp_tool(destructive = false, idempotent = false, open_world = false)]
fn add_note(
    /// A short title; not empty.
    title: String,
    /// The note's text.
    body: String,
    /// Labels to find the note by (`list_notes` filters on one); stored in lower case.
    #[mcp(default)]
    tags: Vec<String>,
    notes: State<Notes>,
    notifier: Notifier,
) -> Result<Json<Note>, ToolError> {
    let title = title.trim();
    if title.is_empty() {
        return Err(ToolError::new("a note needs a title"));
    }
    let mut unique = BTreeSet::new();
    for tag in &tags {
        let tag = tag.trim().to_lowercase();
        if tag.is_empty() {
            return Err(ToolError::new("tags may not be empty"));
        }
        unique.insert(tag);
    }
    let mut db = notes.db();
    // The note and its tags go in together, or not at all.
    let transaction = db.transaction().map_err(internal)?;
    transaction
        .execute(
            "INSERT INTO notes (title, body) VALUES (?1, ?2)",
            params![title, body],
        )
        .map_err(internal)?;
    let id = transaction.last_insert_rowid();
    for tag in &unique {
        transaction
            .execute(
                "INSERT INTO note_tags (note_id, tag) VALUES (?1, ?2)",
                params![id, tag],
            )
            .map_err(internal)?;
    }
    transaction.commit().map_err(internal)?;
    notifier.resource_updated(RECENT);
    get(&db, id).map(Json)
}

/// Get one note by its id.
#[mcp_tool(read_only, idempotent, open_world = false)]
fn get_note(
    /// The note's id.
    id: i64,
    notes: State<Notes>,
) -> Result<Json<Note>, ToolError> {
    get(&notes.db(), id).map(Json)
}

/// List the notes, newest first, optionally only those with a tag.
#[mcp_tool(read_only, idempotent, open_world = false)]
fn list_notes(
    /// Only notes with this tag.
    tag: Option<String>,
    /// How many notes at most (1 to 100).
    #[mcp(default = 20)]
    limit: u32,
    notes: State<Notes>,
) -> Result<Json<NoteList>, ToolError> {
    check_limit(limit)?;
    let tag = tag.map(|tag| tag.trim().to_lowercase());
    let filter = "?1 IS NULL OR id IN (SELECT note_id FROM note_tags WHERE tag = ?1)";
    find(&notes.db(), filter, &tag, limit).map(Json)
}

/// Find the notes whose title or text contains a phrase, newest first.
///
/// The match ignores case for ASCII letters.
#[mcp_tool(read_only, idempotent, open_world = false)]
fn search_notes(
    /// The phrase to look for; not empty.
    query: String,
    /// How many notes at most (1 to 100).
    #[mcp(default = 20)]
    limit: u32,
    notes: State<Notes>,
) -> Result<Json<NoteList>, ToolError> {
    check_limit(limit)?;
    if query.trim().is_empty() {
        return Err(ToolError::new("give a phrase to search for"));
    }
    // `instr` rather than `LIKE`: a `%` or `_` in the query is taken literally.
    let filter = "instr(lower(title), lower(?1)) > 0 OR instr(lower(body), lower(?1)) > 0";
    find(&notes.db(), filter, &query, limit).map(Json)
}

/// Delete a note for good.
#[mcp_tool(destructive, idempotent, open_world = false)]
fn delete_note(
    /// The note's id.
    id: i64,
    notes: State<Notes>,
    notifier: Notifier,
) -> Result<String, ToolError> {
    let db = notes.db();
    let title: Option<String> = db
        .query_row(
            "DELETE FROM notes WHERE id = ?1 RETURNING title",
            [id],
            |row| row.get(0),
        )
        .optional()
        .map_err(internal)?;
    match title {
        Some(title) => {
            notifier.resource_updated(format!("notes://{id}"));
            notifier.resource_updated(RECENT);
            Ok(format!("deleted note {id} ({title})"))
        }
        None => Err(missing(id)),
    }
}

/// The URI of the newest notes.
const RECENT: &str = "notes://recent";

/// The newest notes (at most 100), as JSON.
#[mcp_resource(
    uri = "notes://recent",
    mime_type = "application/json",
    title = "Recent notes"
)]
fn recent_notes(notes: State<Notes>) -> Result<Json<NoteList>, ToolError> {
    find(&notes.db(), "?1 IS NULL", &rusqlite::types::Null, MAX_LIMIT).map(Json)
}

/// One note, as JSON; a note that does not exist is "resource not found".
#[mcp_resource(uri = "notes://{id}", mime_type = "application/json", title = "A note")]
fn note(
    /// The note's id.
    #[mcp(complete = note_ids)]
    id: i64,
    notes: State<Notes>,
) -> Result<Option<Json<Note>>, ToolError> {
    notes
        .db()
        .query_row(
            &format!("{SELECT_NOTES} WHERE id = ?1"),
            [id],
            note_from_row,
        )
        .optional()
        .map(|note| note.map(Json))
        .map_err(internal)
}

/// The ids of the newest notes that start with the digits typed so far.
fn note_ids(prefix: &str, request: &Completing) -> Vec<String> {
    let Some(notes) = request.state::<Notes>() else {
        return Vec::new();
    };
    let db = notes.db();
    let ids = db
        .prepare("SELECT id FROM notes WHERE substr(CAST(id AS TEXT), 1, length(?1)) = ?1 ORDER BY id DESC LIMIT 100")
        .and_then(|mut statement| {
            statement
                .query_map([prefix], |row| row.get::<_, i64>(0))?
                .collect::<rusqlite::Result<Vec<i64>>>()
        });
    ids.map(|ids| ids.iter().map(i64::to_string).collect())
        .unwrap_or_default()
}

/// Summarize the notes of one tag.
#[mcp_prompt(title = "Summarize notes")]
fn summarize_notes(
    /// The tag whose notes to summarize.
    #[mcp(complete = tags_in_use)]
    tag: String,
    notes: State<Notes>,
) -> Result<Vec<PromptMessage>, ToolError> {
    let tag = tag.trim().to_lowercase();
    let filter = "id IN (SELECT note_id FROM note_tags WHERE tag = ?1)";
    let found = find(&notes.db(), filter, &tag, MAX_LIMIT)?;
    if found.notes.is_empty() {
        return Err(ToolError::new(format!("no note has the tag `{tag}`")));
    }
    let mut messages = vec![PromptMessage::user(format!(
        "Summarize these {} notes tagged `{tag}` in a few sentences, then list any open \
         questions they raise.",
        found.notes.len()
    ))];
    for note in found.notes {
        messages.push(PromptMessage::user(Content::embedded_text(
            format!("notes://{}", note.id),
            format!("# {}\n\n{}", note.title, note.body),
            Some("text/markdown"),
        )));
    }
    Ok(messages)
}

/// The tags in use that start with what was typed.
fn tags_in_use(prefix: &str, request: &Completing) -> Vec<String> {
    let Some(notes) = request.state::<Notes>() else {
        return Vec::new();
    };
    let db = notes.db();
    let tags = db
        .prepare(
            "SELECT DISTINCT tag FROM note_tags WHERE substr(tag, 1, length(?1)) = ?1 ORDER BY tag",
        )
        .and_then(|mut statement| {
            statement
                .query_map([prefix.to_lowercase()], |row| row.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()
        });
    tags.unwrap_or_default()
}

/// The server, with its store: `main` serves it, and tests can too.
fn server(notes: Notes) -> Server {
    Server::new("notes", env!("CARGO_PKG_VERSION"))
        .title("Notes")
        .instructions(
            "A store of notes: add, list (by tag), search, read and delete them. \
             Ids come from add_note, list_notes and search_notes.",
        )
        .state(notes)
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut args = std::env::args().skip(1);
    let path = match (args.next(), args.next()) {
        (Some(path), None) if !path.starts_with('-') => path,
        (None, _) => std::env::var("NOTES_DB").unwrap_or_else(|_| ":memory:".to_owned()),
        _ => {
            eprintln!(
                "usage: notes [DATABASE]\n\n\
                 Serves a notes store over MCP on stdio. DATABASE is the SQLite file to keep the\n\
                 notes in (default: $NOTES_DB, else in memory, lost at exit)."
            );
            std::process::exit(2);
        }
    };
    let notes = match Notes::open(&path) {
        Ok(notes) => notes,
        Err(error) => {
            eprintln!("notes: cannot open the database {path}: {error}");
            std::process::exit(2);
        }
    };
    server(notes).serve_stdio().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_stay_plain_functions() {
        let notes = State::new(Notes::open(":memory:").unwrap());
        let tags = vec!["Home".to_owned(), " home ".to_owned(), "todo".to_owned()];
        let Json(added) = add_note(
            " Eggs ".into(),
            "buy a dozen".into(),
            tags,
            notes.clone(),
            Notifier::new(),
        )
        .unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(
            (added.id, added.title.as_str()),
            (1, "Eggs"),
            "the title is trimmed"
        );
        assert_eq!(added.tags, ["home", "todo"]);
        assert_eq!(get_note(1, notes.clone()).unwrap().0.body, "buy a dozen");
        assert_eq!(
            list_notes(Some("HOME".into()), 20, notes.clone())
                .unwrap()
                .0
                .total,
            1
        );
        assert_eq!(
            search_notes("DOZEN".into(), 20, notes.clone())
                .unwrap()
                .0
                .notes
                .len(),
            1
        );
        assert_eq!(
            delete_note(1, notes.clone(), Notifier::new()),
            Ok("deleted note 1 (Eggs)".to_owned())
        );
        assert_eq!(
            get_note(1, notes).err(),
            Some(ToolError::new("there is no note with id 1"))
        );
    }
}
