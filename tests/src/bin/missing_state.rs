//! A tool takes `State<Database>`, but no `Database` is registered: the server must refuse
//! to start, naming the tool and the type.

use mcp_runtime::{Server, State, mcp_tool};

struct Database;

/// Needs the database.
#[mcp_tool]
async fn lookup(db: State<Database>) -> &'static str {
    let _ = &*db;
    "found"
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("missing-state", "0").serve_stdio().await
}
