//! Two crates with a prompt named `greet` each (this binary and the `mcp_tests` library):
//! the server refuses to start, naming both definitions.

/// A greeting, from the binary.
#[mcp_runtime::mcp_prompt]
async fn greet() -> &'static str {
    "hello from the binary"
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    // Links the library's prompt into the binary (it lives in the same module as the function).
    let _ = std::hint::black_box(mcp_test_duplicate_library::greet);
    mcp_runtime::Server::new("duplicates", "0")
        .allow_no_tools()
        .serve_stdio()
        .await
}
