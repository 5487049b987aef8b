//! Two crates with a resource of URI `docs://readme` each (this binary and the
//! `mcp-test-duplicate-library` crate): the server refuses to start, naming both definitions.

/// The README, from the binary.
#[mcp_runtime::mcp_resource(uri = "docs://readme")]
async fn readme() -> &'static str {
    "from the binary"
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    // Links the library's resource into the binary (it lives in the same module as the function).
    let _ = std::hint::black_box(mcp_test_duplicate_library::readme);
    mcp_runtime::Server::new("duplicates", "0")
        .allow_no_tools()
        .serve_stdio()
        .await
}
