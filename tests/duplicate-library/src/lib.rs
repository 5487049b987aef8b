//! A resource and a prompt that `duplicate_resources` and `duplicate_prompts` (in
//! `tests/src/bin/`) define again in the binary: within one crate a duplicate prompt would
//! not compile, across crates the server refuses to start, naming both places. A crate of its
//! own (not a module of `mcp_tests`), so that only the binaries that name it link it.

/// The README, from the library.
#[mcp_runtime::mcp_resource(uri = "docs://readme")]
pub async fn readme() -> &'static str {
    "from the library"
}

/// A greeting, from the library.
#[mcp_runtime::mcp_prompt]
pub async fn greet() -> &'static str {
    "hello from the library"
}
