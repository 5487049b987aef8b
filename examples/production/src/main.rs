//! A team's notes over Streamable HTTP, with what serving other people takes: who may do
//! what, a record of who did, a cache, and telemetry.
//!
//! What it shows:
//!
//! - **Scopes per tool, resource and prompt**: `#[mcp_tool(scopes = ["notes:write"])]`. Every
//!   request needs `Authorization: Bearer TOKEN`; the token's user holds scopes
//!   (`Server::scopes_of`). A call without them is answered `403` with
//!   `WWW-Authenticate: Bearer error="insufficient_scope", scope="notes:write"`, and
//!   `tools/list` shows each user only what they may call.
//! - **Middleware** (`Server::layer`): an audit record of every request on stderr (who, what,
//!   how it ended, how long it took); a response cache for `search_notes`, cleared by every
//!   write; and, for the tools tagged `admin`, a layer that refuses them while the server is
//!   in maintenance (`MCP_MAINTENANCE=1`).
//! - **OpenTelemetry**: a span per request (its parent the client's `traceparent`, in
//!   `_meta` or the HTTP header) and the MCP metrics of the semantic conventions, exported
//!   over OTLP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and served for Prometheus at
//!   `/metrics` either way.
//!
//! Run it with
//!
//! ```sh
//! MCP_TOKENS="ada=token-of-ada:notes:read+notes:write+notes:admin,bob=token-of-bob:notes:read" \
//!   cargo run -p example-production -- [ADDRESS]
//! ```
//!
//! ADDRESS defaults to `127.0.0.1:8080` (port 0 picks a free port); the server prints its
//! endpoint's URL on stderr. Each token is `name=token:scope+scope`. Then `bob` may list,
//! search and read notes, and `ada` may also add and delete them; `curl -H 'Authorization:
//! Bearer token-of-bob' http://127.0.0.1:8080/metrics` shows the metrics (the endpoint is
//! behind the same guard and tokens as the MCP endpoint).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use mcp_runtime::middleware::{Audit, Next, ResponseCache, ToolRequest, from_fn};
use mcp_runtime::telemetry::Telemetry;
use mcp_runtime::{
    AuthRejection, CallToolResult, Json, Principal, Server, State, ToolError, bearer_token,
    mcp_prompt, mcp_resource, mcp_tool,
};
use schemars::JsonSchema;
use serde::Serialize;

/// Who made a request, and what they may do.
struct User {
    name: String,
    scopes: Vec<String>,
}

/// One note.
#[derive(Clone, Serialize, JsonSchema)]
struct Note {
    /// Its number.
    id: u64,
    /// Its text.
    text: String,
    /// Who wrote it.
    author: String,
}

/// The notes, kept in memory.
#[derive(Default)]
struct Notes(Mutex<BTreeMap<u64, Note>>);

impl Notes {
    fn all(&self) -> Vec<Note> {
        self.0
            .lock()
            .expect("notes poisoned")
            .values()
            .cloned()
            .collect()
    }
}

/// Search the notes for a word (case-insensitive). Cached: a repeated search is answered
/// from memory until a note is added or deleted.
#[mcp_tool(read_only, idempotent, open_world = false, scopes = ["notes:read"])]
async fn search_notes(
    /// The word to look for.
    word: String,
    notes: State<Notes>,
) -> Json<Vec<Note>> {
    let word = word.to_lowercase();
    Json(
        notes
            .all()
            .into_iter()
            .filter(|note| note.text.to_lowercase().contains(&word))
            .collect(),
    )
}

/// Add a note, signed with the caller's name.
#[mcp_tool(open_world = false, scopes = ["notes:write"])]
async fn add_note(
    /// The note's text.
    text: String,
    user: Principal<User>,
    notes: State<Notes>,
    cache: State<ResponseCache>,
) -> Json<Note> {
    let mut notes = notes.0.lock().expect("notes poisoned");
    let id = notes.keys().next_back().map_or(1, |last| last + 1);
    let note = Note {
        id,
        text,
        author: user.name.clone(),
    };
    notes.insert(id, note.clone());
    cache.clear();
    Json(note)
}

/// Delete a note.
#[mcp_tool(destructive, idempotent, open_world = false, tags = ["admin"], scopes = ["notes:admin"])]
async fn delete_note(
    /// The note's number.
    id: u64,
    notes: State<Notes>,
    cache: State<ResponseCache>,
) -> Result<String, ToolError> {
    let removed = notes.0.lock().expect("notes poisoned").remove(&id);
    cache.clear();
    match removed {
        Some(_) => Ok(format!("note {id} deleted")),
        None => Err(ToolError::new(format!("there is no note {id}"))),
    }
}

/// Who am I, and what may I do?
#[mcp_tool(read_only, idempotent, open_world = false)]
async fn whoami(user: Principal<User>) -> String {
    format!("{} ({})", user.name, user.scopes.join(", "))
}

/// One note, by its number.
#[mcp_resource(uri = "notes://{id}", mime_type = "application/json", scopes = ["notes:read"])]
async fn note(id: u64, notes: State<Notes>) -> Option<Json<Note>> {
    notes
        .0
        .lock()
        .expect("notes poisoned")
        .get(&id)
        .cloned()
        .map(Json)
}

/// Summarize the team's notes.
#[mcp_prompt(scopes = ["notes:read"])]
async fn summarize(notes: State<Notes>) -> String {
    let lines: Vec<String> = notes
        .all()
        .iter()
        .map(|note| format!("- {} (by {})", note.text, note.author))
        .collect();
    format!(
        "Summarize these notes in three sentences:\n{}",
        lines.join("\n")
    )
}

/// The users, their tokens and scopes, from `MCP_TOKENS` (`name=token:scope+scope,...`).
struct Tokens(Vec<(String, String, Vec<String>)>);

impl Tokens {
    fn from_env() -> Result<Tokens, String> {
        let spec = std::env::var("MCP_TOKENS")
            .map_err(|_| "MCP_TOKENS is not set: `name=token:scope+scope,...`".to_owned())?;
        let mut users = Vec::new();
        for entry in spec.split(',').filter(|entry| !entry.trim().is_empty()) {
            let parsed = entry.split_once('=').and_then(|(name, rest)| {
                let (token, scopes) = rest.split_once(':').unwrap_or((rest, ""));
                let scopes = scopes
                    .split('+')
                    .filter(|scope| !scope.is_empty())
                    .map(str::to_owned)
                    .collect();
                (!name.trim().is_empty() && !token.trim().is_empty())
                    .then(|| (name.trim().to_owned(), token.trim().to_owned(), scopes))
            });
            users.push(
                parsed.ok_or_else(|| {
                    format!("MCP_TOKENS: `{entry}` is not `name=token:scope+scope`")
                })?,
            );
        }
        if users.is_empty() {
            return Err("MCP_TOKENS names no user".to_owned());
        }
        Ok(Tokens(users))
    }

    /// The user whose token the request carries.
    fn check(&self, token: &str) -> Result<User, AuthRejection> {
        // Every token is compared in full, so the time taken tells nothing of a guess.
        let found = self.0.iter().fold(None, |found, user| {
            if same(token.as_bytes(), user.1.as_bytes()) {
                Some(user)
            } else {
                found
            }
        });
        found
            .map(|(name, _, scopes)| User {
                name: name.clone(),
                scopes: scopes.clone(),
            })
            .ok_or_else(|| AuthRejection::invalid_token("unknown token"))
    }
}

/// Whether two byte strings are equal, looking at every byte of both.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// Refuses the tools it wraps while the server is in maintenance.
fn maintenance_guard(in_maintenance: bool) -> impl mcp_runtime::middleware::Layer {
    from_fn(move |call: ToolRequest, next: Next| async move {
        if in_maintenance {
            return CallToolResult::error(format!(
                "`{}` is unavailable while the server is in maintenance; try again later.",
                call.name()
            ));
        }
        next.run(call).await
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let tokens = match Tokens::from_env() {
        Ok(tokens) => tokens,
        Err(problem) => {
            eprintln!("production: {problem}");
            std::process::exit(2);
        }
    };
    // OTLP export when a collector is named, the Prometheus endpoint always.
    let mut telemetry = Telemetry::builder().service_name("team-notes").prometheus();
    if let Ok(endpoint) = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT") {
        telemetry = telemetry.otlp(endpoint);
    }
    let telemetry = telemetry.build()?;
    let cache = ResponseCache::new(1_000, Duration::from_secs(60));
    let in_maintenance = std::env::var("MCP_MAINTENANCE").is_ok_and(|value| value == "1");
    let server = Server::new("team-notes", env!("CARGO_PKG_VERSION"))
        .state(Notes::default())
        .state(cache.clone())
        .scopes_of(|user: &User| user.scopes.clone())
        .telemetry(telemetry.clone())
        // Outermost: the audit record covers everything the other layers do.
        .layer(
            Audit::new()
                .identify(|context| context.principal::<User>().map(|user| user.name.clone())),
        )
        .layer(cache)
        .layer_for_tag("admin", maintenance_guard(in_maintenance));
    let served = server
        .http()
        .authenticate(move |headers: &_| tokens.check(bearer_token(headers)?))
        .prometheus_metrics("/metrics")
        .serve(address)
        .await;
    telemetry.shutdown()?;
    Ok(served?)
}
