//! Generates the catalog: `BENCH_CATALOG_TOOLS` (default 10,000) `#[mcp_tool]` functions,
//! each shaped like the echo server's one tool, so memory per tool can be compared with
//! the one-tool `ours` server.

use std::fmt::Write as _;
use std::path::PathBuf;

const DEFAULT_TOOLS: usize = 10_000;

fn main() {
    println!("cargo::rerun-if-env-changed=BENCH_CATALOG_TOOLS");
    println!("cargo::rerun-if-changed=build.rs");
    let tools = match std::env::var("BENCH_CATALOG_TOOLS") {
        Ok(count) => count
            .parse()
            .expect("BENCH_CATALOG_TOOLS must be a number of tools"),
        Err(_) => DEFAULT_TOOLS,
    };
    let mut source = String::with_capacity(tools * 200);
    writeln!(
        source,
        "/// Tools in this catalog.\npub const TOOLS: usize = {tools};"
    )
    .unwrap();
    for index in 0..tools {
        writeln!(
            source,
            r#"
/// Echo the text back (catalog tool {index}).
#[mcp_tool(read_only, idempotent)]
async fn echo_{index:05}(
    /// The text to echo.
    text: String,
) -> String {{
    text
}}"#
        )
        .unwrap();
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out.join("catalog.rs"), source).expect("writing the generated catalog");
}
