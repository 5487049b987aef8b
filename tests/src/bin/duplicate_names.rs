//! Two crates with a tool named `add` each (this binary and the `mcp_tests` library): it
//! compiles — a duplicate within one crate would not — and the server refuses to start,
//! naming both definitions.

/// Adds, from the binary.
#[mcp_runtime::mcp_tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    // Links the library's tool into the binary (it lives in the same module as the function).
    let _ = std::hint::black_box(mcp_tests::duplicate_across_crates::add);
    mcp_runtime::Server::new("duplicates", "0")
        .serve_stdio()
        .await
}
