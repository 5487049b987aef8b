//! Per-tool scopes over connections that carry no credentials — stdio and in-process
//! clients, driven here through `TestClient` (the same JSON-RPC path as stdio): without
//! `Server::local_principal` a scoped tool answers `isError` and is not listed; with one,
//! `Server::scopes_of` reads what it holds, and tools see it as `Principal<P>`. Every
//! message is checked against the revision's schema.

use std::sync::Mutex;

use mcp_runtime::middleware::{Next, ToolRequest, from_fn};
use mcp_runtime::testing::{TestClient, ToolResult};
use mcp_runtime::{DynamicTool, Principal, Server, mcp_tool};
use mcp_tests::checked_client;
use serde_json::{Value, json};

/// A session revision and the stateless one.
const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// The texts `write_note` and `admin_only` ran with: a refused call must add none. Tests
/// run in parallel, so each looks for a text of its own.
static RAN: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn ran(text: &str) -> bool {
    RAN.lock()
        .expect("not poisoned")
        .iter()
        .any(|ran| ran == text)
}

/// Read the notes.
#[mcp_tool(scopes = ["notes:read"], read_only)]
async fn read_notes() -> String {
    "the notes".to_owned()
}

/// Write a note.
#[mcp_tool(scopes = ["notes:write"])]
async fn write_note(
    /// The note.
    text: String,
) -> String {
    RAN.lock().expect("not poisoned").push(text.clone());
    format!("wrote {text}")
}

/// Anyone may ping.
#[mcp_tool]
async fn ping() -> String {
    "pong".to_owned()
}

/// Needs two scopes.
#[mcp_tool(scopes = ["notes:write", "admin"])]
async fn admin_only(
    /// What to do.
    text: String,
) -> String {
    RAN.lock().expect("not poisoned").push(text.clone());
    format!("did {text}")
}

/// Who is calling, from the principal.
#[mcp_tool]
async fn whoami(user: Principal<User>) -> String {
    user.name.clone()
}

/// The local principal.
struct User {
    name: String,
    scopes: Vec<String>,
}

fn user(scopes: &[&str]) -> User {
    User {
        name: "ada".to_owned(),
        scopes: scopes.iter().map(|scope| (*scope).to_owned()).collect(),
    }
}

/// A server whose principals are `User`s.
fn server() -> Server {
    Server::new("scopes", "1.0.0").scopes_of(|user: &User| user.scopes.clone())
}

/// A dynamic tool that needs the scope `x`.
fn scoped_dynamic_tool() -> DynamicTool {
    DynamicTool::new(
        "dynamic_x",
        json!({ "type": "object", "properties": { "text": { "type": "string" } } }),
        |arguments, _context| async move {
            let text = arguments
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            RAN.lock().expect("not poisoned").push(text.clone());
            format!("dynamic {text}")
        },
    )
    .scope("x")
}

async fn connect(revision: &str, server: Server) -> TestClient {
    checked_client(revision)
        .connect(server)
        .await
        .expect("connects")
}

/// The names `tools/list` gives, sorted; but `add`, the unscoped tool of the `mcp-tests`
/// library (`duplicate_across_crates`), which this binary links.
async fn names(client: &TestClient) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|tool| tool.name)
        .filter(|name| name != "add")
        .collect();
    names.sort();
    names
}

async fn call(client: &TestClient, name: &str, arguments: Value) -> ToolResult {
    client
        .call_tool(name, arguments)
        .await
        .unwrap_or_else(|error| panic!("{name}: a result, not {error:?}"))
}

/// Asserts `result` is the refusal `message` and that no content but it came back.
fn assert_refused(result: &ToolResult, message: &str) {
    assert!(result.is_error, "refused: {result:?}");
    assert_eq!(result.text(), message);
    assert_eq!(result.content.len(), 1, "{result:?}");
}

#[tokio::test]
async fn without_a_local_principal_scoped_tools_are_refused_and_not_listed() {
    for revision in REVISIONS {
        let client = connect(revision, server()).await;
        let text = format!("no principal ({revision})");
        assert_refused(
            &call(&client, "write_note", json!({ "text": text })).await,
            "Tool `write_note` needs the scope `notes:write`, and this connection has no \
             principal that could hold them.",
        );
        assert_refused(
            &call(&client, "admin_only", json!({ "text": text })).await,
            "Tool `admin_only` needs the scopes `notes:write`, `admin`, and this connection \
             has no principal that could hold them.",
        );
        assert_refused(
            &call(&client, "read_notes", json!({})).await,
            "Tool `read_notes` needs the scope `notes:read`, and this connection has no \
             principal that could hold them.",
        );
        assert!(!ran(&text), "{revision}: the refused tools did not run");
        assert_eq!(call(&client, "ping", json!({})).await.text(), "pong");
        assert_eq!(names(&client).await, ["ping", "whoami"], "{revision}");
        client.close().await.expect("a clean close");
    }
}

#[tokio::test]
async fn without_scopes_of_even_a_local_principal_holds_no_scope() {
    let client = connect(
        "2025-11-25",
        Server::new("scopes", "1.0.0").local_principal(user(&["notes:read"])),
    )
    .await;
    assert_refused(
        &call(&client, "read_notes", json!({})).await,
        "Tool `read_notes` needs the scope `notes:read`, which the caller does not hold.",
    );
    assert_eq!(names(&client).await, ["ping", "whoami"]);
    // The principal is there all the same.
    assert_eq!(call(&client, "whoami", json!({})).await.text(), "ada");
}

#[tokio::test]
async fn a_local_principal_calls_the_tools_its_scopes_open() {
    for revision in REVISIONS {
        let client = connect(revision, server().local_principal(user(&["notes:read"]))).await;
        let read = call(&client, "read_notes", json!({})).await;
        assert!(!read.is_error, "{revision}: {read:?}");
        assert_eq!(read.text(), "the notes");

        let text = format!("reader writes ({revision})");
        assert_refused(
            &call(&client, "write_note", json!({ "text": text })).await,
            "Tool `write_note` needs the scope `notes:write`, which the caller does not hold.",
        );
        assert_refused(
            &call(&client, "admin_only", json!({ "text": text })).await,
            "Tool `admin_only` needs the scopes `notes:write`, `admin`, which the caller does \
             not hold.",
        );
        assert!(!ran(&text), "{revision}");
        assert_eq!(
            names(&client).await,
            ["ping", "read_notes", "whoami"],
            "{revision}"
        );
        client.close().await.expect("a clean close");
    }

    // Only the scopes missing are named.
    let client = connect(
        "2025-11-25",
        server().local_principal(user(&["notes:read", "notes:write"])),
    )
    .await;
    let text = "writer's note";
    assert_eq!(
        call(&client, "write_note", json!({ "text": text }))
            .await
            .text(),
        "wrote writer's note"
    );
    assert!(ran(text));
    assert_refused(
        &call(&client, "admin_only", json!({ "text": "writer's admin" })).await,
        "Tool `admin_only` needs the scope `admin`, which the caller does not hold.",
    );
    assert!(!ran("writer's admin"));
    assert_eq!(
        names(&client).await,
        ["ping", "read_notes", "whoami", "write_note"]
    );
}

#[tokio::test]
async fn a_principal_of_another_type_than_scopes_of_reads_holds_no_scope() {
    // `scopes_of` reads `User`; the local principal is a `String`.
    let client = connect(
        "2025-11-25",
        server().local_principal("not a user".to_owned()),
    )
    .await;
    assert_refused(
        &call(&client, "read_notes", json!({})).await,
        "Tool `read_notes` needs the scope `notes:read`, which the caller does not hold.",
    );
    assert_eq!(names(&client).await, ["ping", "whoami"]);
    assert!(call(&client, "whoami", json!({})).await.is_error);
}

#[tokio::test]
async fn the_tools_see_the_local_principal() {
    for revision in REVISIONS {
        let client = connect(revision, server().local_principal(user(&[]))).await;
        let result = call(&client, "whoami", json!({})).await;
        assert!(!result.is_error, "{revision}: {result:?}");
        assert_eq!(result.text(), "ada");

        // Without one, `Principal<User>` refuses the call.
        let client = connect(revision, server()).await;
        let result = call(&client, "whoami", json!({})).await;
        assert!(result.is_error, "{revision}: {result:?}");
        assert!(
            result.text().contains("this call is not authenticated"),
            "{revision}: {}",
            result.text()
        );
    }
}

#[tokio::test]
async fn without_hiding_every_tool_is_listed_and_calls_are_still_refused() {
    for revision in REVISIONS {
        let client = connect(revision, server().hide_forbidden_tools(false)).await;
        assert_eq!(
            names(&client).await,
            ["admin_only", "ping", "read_notes", "whoami", "write_note"],
            "{revision}"
        );
        let text = format!("listed but refused ({revision})");
        assert_refused(
            &call(&client, "write_note", json!({ "text": text })).await,
            "Tool `write_note` needs the scope `notes:write`, and this connection has no \
             principal that could hold them.",
        );
        assert!(!ran(&text));
    }
}

#[tokio::test]
async fn a_dynamic_tools_scope_works_as_the_attributes() {
    for revision in REVISIONS {
        // No principal.
        let anonymous = server();
        anonymous
            .tool_set()
            .add(scoped_dynamic_tool())
            .expect("added");
        let client = connect(revision, anonymous).await;
        let text = format!("dynamic, anonymous ({revision})");
        assert_refused(
            &call(&client, "dynamic_x", json!({ "text": text })).await,
            "Tool `dynamic_x` needs the scope `x`, and this connection has no principal that \
             could hold them.",
        );
        assert!(!names(&client).await.contains(&"dynamic_x".to_owned()));

        // A principal without `x`.
        let without = server().local_principal(user(&["notes:read"]));
        without
            .tool_set()
            .add(scoped_dynamic_tool())
            .expect("added");
        let client = connect(revision, without).await;
        let text_without = format!("dynamic, without x ({revision})");
        assert_refused(
            &call(&client, "dynamic_x", json!({ "text": text_without })).await,
            "Tool `dynamic_x` needs the scope `x`, which the caller does not hold.",
        );
        assert!(!names(&client).await.contains(&"dynamic_x".to_owned()));
        assert!(!ran(&text) && !ran(&text_without), "{revision}");

        // A principal with `x`.
        let with = server().local_principal(user(&["x"]));
        with.tool_set().add(scoped_dynamic_tool()).expect("added");
        let client = connect(revision, with).await;
        let text_with = format!("dynamic, with x ({revision})");
        let result = call(&client, "dynamic_x", json!({ "text": text_with })).await;
        assert!(!result.is_error, "{revision}: {result:?}");
        assert_eq!(result.text(), format!("dynamic {text_with}"));
        assert!(ran(&text_with));
        assert_eq!(
            names(&client).await,
            ["dynamic_x", "ping", "whoami"],
            "{revision}"
        );
    }
}

#[tokio::test]
async fn a_dynamic_tool_added_while_serving_is_listed_by_its_scope() {
    let server = server().local_principal(user(&["notes:read"]));
    let tools = server.tool_set();
    let client = connect("2025-11-25", server).await;
    assert_eq!(names(&client).await, ["ping", "read_notes", "whoami"]);
    tools.add(scoped_dynamic_tool()).expect("added");
    // Hidden, and refused, though added after the first listing.
    assert_eq!(names(&client).await, ["ping", "read_notes", "whoami"]);
    assert_refused(
        &call(&client, "dynamic_x", json!({ "text": "late" })).await,
        "Tool `dynamic_x` needs the scope `x`, which the caller does not hold.",
    );
}

#[tokio::test]
async fn pages_leave_out_the_hidden_tools_and_the_listing_stays_whole() {
    // One tool a page: the pages of hidden tools come back empty, with a cursor onward.
    let client = connect(
        "2025-11-25",
        server().local_principal(user(&["notes:read"])).page_size(1),
    )
    .await;
    assert_eq!(names(&client).await, ["ping", "read_notes", "whoami"]);
    // `add` (the library's) is first by name; admin_only, second, is hidden.
    let first = client
        .request("tools/list", json!({}))
        .await
        .expect("a page");
    assert_eq!(first["tools"][0]["name"], "add", "{first}");
    let second = client
        .request("tools/list", json!({ "cursor": first["nextCursor"] }))
        .await
        .expect("a page");
    assert_eq!(second["tools"], json!([]), "{second}");
    assert!(second["nextCursor"].is_string(), "{second}");
}

#[tokio::test]
async fn a_refused_call_reaches_no_layer() {
    static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let client = connect(
        "2025-11-25",
        server()
            .local_principal(user(&["notes:read"]))
            .layer(from_fn(|call: ToolRequest, next: Next| async move {
                SEEN.lock()
                    .expect("not poisoned")
                    .push(call.name().to_owned());
                next.run(call).await
            })),
    )
    .await;
    assert_refused(
        &call(&client, "write_note", json!({ "text": "layered" })).await,
        "Tool `write_note` needs the scope `notes:write`, which the caller does not hold.",
    );
    assert!(!call(&client, "read_notes", json!({})).await.is_error);
    assert_eq!(*SEEN.lock().expect("not poisoned"), ["read_notes"]);
}
