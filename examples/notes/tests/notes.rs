//! The notes example over stdio: a SQLite store that every tool shares through `State<T>`,
//! used in a handshake session and statelessly, and kept in a file across restarts.

use std::path::PathBuf;
use std::process::Command;

use mcp_tests::{StdioClient, first_text};
use serde_json::{Value, json};

fn notes(args: &[&str]) -> StdioClient {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_notes"), args);
    client.initialize("2025-11-25");
    client
}

fn call(client: &mut StdioClient, tool: &str, arguments: Value) -> Value {
    let response = client.request("tools/call", json!({"name": tool, "arguments": arguments}));
    response
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("{tool}: {response}"))
}

/// The ids of a `NoteList` result, in order.
fn ids(result: &Value) -> Vec<i64> {
    result["structuredContent"]["notes"]
        .as_array()
        .unwrap_or_else(|| panic!("a note list: {result}"))
        .iter()
        .map(|note| note["id"].as_i64().unwrap())
        .collect()
}

/// A database file in the temporary directory, removed when dropped.
struct TempDb(PathBuf);

impl TempDb {
    fn new(label: &str) -> TempDb {
        let path =
            std::env::temp_dir().join(format!("mcp-notes-{label}-{}.sqlite", std::process::id()));
        let _ = std::fs::remove_file(&path);
        TempDb(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.path()));
        }
    }
}

#[test]
fn add_list_search_get_and_delete() {
    let mut client = notes(&[]);
    let added = call(
        &mut client,
        "add_note",
        json!({"title": " Groceries ", "body": "Eggs, milk", "tags": ["home", "Errands", "home"]}),
    );
    assert_ne!(added["isError"], true, "{added}");
    let note = &added["structuredContent"];
    assert_eq!(
        (&note["id"], &note["title"], &note["body"], &note["tags"]),
        (
            &json!(1),
            &json!("Groceries"),
            &json!("Eggs, milk"),
            &json!(["errands", "home"])
        ),
        "{added}"
    );
    let created = note["created_at"].as_str().unwrap();
    assert!(created.len() == 20 && created.ends_with('Z'), "{created}");
    assert_eq!(
        serde_json::from_str::<Value>(first_text(&added)).unwrap(),
        *note,
        "the text block mirrors structuredContent"
    );
    call(
        &mut client,
        "add_note",
        json!({"title": "Standup", "body": "Demo the notes example", "tags": ["work"]}),
    );
    let untagged = call(
        &mut client,
        "add_note",
        json!({"title": "Read", "body": "The SQLite documentation"}),
    );
    assert_eq!(untagged["structuredContent"]["tags"], json!([]));

    let all = call(&mut client, "list_notes", json!({}));
    assert_eq!(ids(&all), [3, 2, 1], "newest first");
    assert_eq!(all["structuredContent"]["total"], 3);
    let home = call(&mut client, "list_notes", json!({"tag": "HOME"}));
    assert_eq!(
        (ids(&home), &home["structuredContent"]["total"]),
        (vec![1], &json!(1))
    );
    let newest = call(&mut client, "list_notes", json!({"limit": 2}));
    assert_eq!(ids(&newest), [3, 2]);
    assert_eq!(newest["structuredContent"]["total"], 3);

    let found = call(&mut client, "search_notes", json!({"query": "sqlite"}));
    assert_eq!(ids(&found), [3]);
    let found = call(
        &mut client,
        "search_notes",
        json!({"query": "E", "limit": 1}),
    );
    assert_eq!(ids(&found), [3]);
    assert_eq!(found["structuredContent"]["total"], 3);
    let literal = call(&mut client, "search_notes", json!({"query": "%"}));
    assert_eq!(ids(&literal), Vec::<i64>::new(), "`%` is not a wildcard");

    let standup = call(&mut client, "get_note", json!({"id": 2}));
    assert_eq!(standup["structuredContent"]["title"], "Standup");
    let deleted = call(&mut client, "delete_note", json!({"id": 2}));
    assert_eq!(first_text(&deleted), "deleted note 2 (Standup)");
    assert_eq!(ids(&call(&mut client, "list_notes", json!({}))), [3, 1]);
    assert_eq!(
        ids(&call(&mut client, "list_notes", json!({"tag": "work"}))),
        Vec::<i64>::new(),
        "its tags went with it"
    );
    for tool in ["get_note", "delete_note"] {
        let missing = call(&mut client, tool, json!({"id": 2}));
        assert_eq!(missing["isError"], true, "{tool}: {missing}");
        assert_eq!(first_text(&missing), "there is no note with id 2");
    }
}

#[test]
fn bad_arguments_are_tool_errors() {
    let mut client = notes(&[]);
    for (tool, arguments, says) in [
        (
            "add_note",
            json!({"title": "  ", "body": "x"}),
            "needs a title",
        ),
        (
            "add_note",
            json!({"title": "t", "body": "x", "tags": [" "]}),
            "tags may not be empty",
        ),
        ("add_note", json!({"title": "t"}), "body"),
        ("list_notes", json!({"limit": 0}), "between 1 and 100"),
        ("list_notes", json!({"limit": 101}), "between 1 and 100"),
        ("search_notes", json!({"query": " "}), "phrase"),
        ("get_note", json!({"id": "one"}), "`id`"),
        ("delete_note", json!({}), "id"),
    ] {
        let result = call(&mut client, tool, arguments.clone());
        assert_eq!(result["isError"], true, "{tool} {arguments}: {result}");
        assert!(
            first_text(&result).contains(says),
            "{tool} {arguments}: {result}"
        );
    }
    // Nothing was stored by the refused calls.
    let all = call(&mut client, "list_notes", json!({}));
    assert_eq!(all["structuredContent"]["total"], 0);
}

#[test]
fn stateless_requests_share_the_store() {
    let mut client = StdioClient::spawn(env!("CARGO_BIN_EXE_notes"), &[]);
    client.check_against("2026-07-28");
    let added = client.stateless_request(
        "tools/call",
        json!({"name": "add_note", "arguments": {"title": "Stateless", "body": "no session"}}),
    )["result"]
        .clone();
    assert_eq!(added["structuredContent"]["id"], 1, "{added}");
    // The structured output of 2026-07-28 is the note itself, as in every revision.
    let got = client.stateless_request(
        "tools/call",
        json!({"name": "get_note", "arguments": {"id": 1}}),
    )["result"]
        .clone();
    assert_eq!(got["structuredContent"]["body"], "no session");
}

#[test]
fn notes_persist_in_the_database_file() {
    let db = TempDb::new("persist");
    {
        let mut client = notes(&[db.path()]);
        call(
            &mut client,
            "add_note",
            json!({"title": "Keep me", "body": "across restarts", "tags": ["durable"]}),
        );
        // Dropping the client kills the server: the note was committed before it answered.
    }
    let mut client = notes(&[db.path()]);
    let kept = call(&mut client, "list_notes", json!({"tag": "durable"}));
    assert_eq!(kept["structuredContent"]["notes"][0]["title"], "Keep me");
    drop(client);

    // `NOTES_DB` names the file when no argument does (here through the built-in command line).
    let output = Command::new(env!("CARGO_BIN_EXE_notes"))
        .env("NOTES_DB", db.path())
        .env("MCP_CLI", "call get_note id=1")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("\"Keep me\""));
}

#[test]
fn refuses_to_start_without_a_usable_database() {
    let output = Command::new(env!("CARGO_BIN_EXE_notes"))
        .arg("/nonexistent-directory/notes.sqlite")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot open the database"));
    let output = Command::new(env!("CARGO_BIN_EXE_notes"))
        .args(["one.sqlite", "two.sqlite"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("usage: notes [DATABASE]"));
}
