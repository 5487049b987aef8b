//! Two crates with a resource of URI `docs://readme` each (this binary and the `mcp_tests`
//! library): the server refuses to start, naming both definitions.

/// The README, from the binary.
#[mcp_runtime::mcp_resource(uri = "docs://readme")]
async fn readme() -> &'static str {
    "from the binary"
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    // Links the library's resource into the binary (it lives in the same module as the function).
    let _ = std::hint::black_box(mcp_tests::duplicate_across_crates::readme);
    mcp_runtime::Server::new("duplicates", "0")
        .allow_no_tools()
        .serve_stdio()
        .await
}
