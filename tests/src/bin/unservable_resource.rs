//! A resource that takes a `State<T>` the server never registers: the server refuses to
//! start, naming the resource, the parameter and the type.

/// The size of the database.
#[mcp_runtime::mcp_resource(uri = "db://size")]
async fn size(db: mcp_runtime::State<Database>) -> String {
    db.0.to_string()
}

struct Database(u64);

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::Server::new("unservable", "0")
        .allow_no_tools()
        .serve_stdio()
        .await
}
