//! The compile-time case: the same 100 tools written with our `#[mcp_tool]` and with
//! rmcp's `#[tool]` macros, each crate a complete stdio server.
//!
//! The crates are generated into `bench/target/compile-case/` as a workspace of their own
//! (debug profile, its own target directory, the bench's `Cargo.lock` as the starting
//! point so dependency versions match). Dependencies are built once and not timed; then,
//! per crate, `cargo clean -p <crate>` followed by a timed `cargo build -p <crate>` (clean
//! build of that crate only), and a timed rebuild after one tool's body changed
//! (incremental build).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::bench_dir;

/// Tools per crate.
pub const TOOLS: usize = 100;
/// The tool whose body is edited for the incremental build.
const EDITED_TOOL: usize = TOOLS / 2;

/// The two crates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    Ours,
    Rmcp,
}

impl Flavour {
    pub fn package(self) -> &'static str {
        match self {
            Flavour::Ours => "tools100-ours",
            Flavour::Rmcp => "tools100-rmcp",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Flavour::Ours => "ours (`#[mcp_tool]`)",
            Flavour::Rmcp => "rmcp (`#[tool]` + `#[tool_router(server_handler)]`)",
        }
    }
}

/// Timings of one crate.
pub struct Timings {
    pub flavour: Flavour,
    pub clean: Vec<Duration>,
    pub incremental: Vec<Duration>,
    /// Tools the built server lists (checked with the load generator), or why not.
    pub listed_tools: Result<usize, String>,
}

/// The whole case, or why it could not run.
pub struct CompileCase {
    pub profile: &'static str,
    pub results: Result<Vec<Timings>, String>,
}

/// Generates the crates and times the builds.
pub fn run(reps: usize) -> CompileCase {
    CompileCase {
        profile: "dev (debug, incremental)",
        results: timings(reps.max(1)).map_err(|error| format!("{error:#}")),
    }
}

fn case_dir() -> PathBuf {
    bench_dir().join("target").join("compile-case")
}

fn timings(reps: usize) -> Result<Vec<Timings>> {
    let dir = case_dir();
    generate(&dir)?;
    eprintln!("mcp-bench: compile case: building dependencies (not timed)…");
    cargo(&dir, &["build", "--workspace"])?;
    let mut all = Vec::new();
    for flavour in [Flavour::Ours, Flavour::Rmcp] {
        let package = flavour.package();
        let mut clean = Vec::new();
        let mut incremental = Vec::new();
        for rep in 0..reps {
            cargo(&dir, &["clean", "-p", package])?;
            clean.push(timed(&dir, package)?);
            write_crate(&dir, flavour, rep + 1)?;
            incremental.push(timed(&dir, package)?);
        }
        eprintln!(
            "mcp-bench: compile case: {package}: clean {:.1} s, incremental {:.1} s",
            median(&clean).as_secs_f64(),
            median(&incremental).as_secs_f64()
        );
        // Leave the sources as generated, so the next invocation starts from the same text.
        write_crate(&dir, flavour, 0)?;
        let binary = dir.join("target").join("debug").join(package);
        all.push(Timings {
            flavour,
            clean,
            incremental,
            listed_tools: listed_tools(&binary),
        });
    }
    Ok(all)
}

pub fn median(values: &[Duration]) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

fn cargo(dir: &Path, args: &[&str]) -> Result<()> {
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(dir)
        .args(args)
        .arg("--quiet")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .stdout(Stdio::null())
        .output()
        .context("running cargo")?;
    if !output.status.success() {
        bail!(
            "`cargo {}` failed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}

fn timed(dir: &Path, package: &str) -> Result<Duration> {
    let started = Instant::now();
    cargo(dir, &["build", "-p", package])?;
    Ok(started.elapsed())
}

/// Asks the built server for its tools, as a check that both crates are real servers.
fn listed_tools(binary: &Path) -> Result<usize, String> {
    let output = Command::new(crate::release_dir().join("mcp-loadgen"))
        .args([
            "--json",
            "--quiet",
            "--no-load",
            "--no-pin",
            "--list-samples",
            "1",
        ])
        .args(["--startup-runs", "0", "--settle", "0", "--"])
        .arg(binary)
        .output()
        .map_err(|error| error.to_string())?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let report: mcp_loadgen::Report =
        serde_json::from_slice(&output.stdout).map_err(|error| error.to_string())?;
    report
        .list
        .map(|list| list.tools)
        .ok_or_else(|| "no tools/list".to_owned())
}

fn generate(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir)?;
    let runtime = bench_dir()
        .parent()
        .context("the repository root")?
        .join("mcp-runtime");
    let manifest = format!(
        r#"# Generated by mcp-bench (bench/driver/src/compile.rs); rewritten on every run.
[workspace]
resolver = "3"
members = ["{ours}", "{rmcp}"]

[workspace.dependencies]
mcp-runtime = {{ path = {runtime:?} }}
rmcp = {{ version = "3.11", default-features = false, features = ["server", "macros", "transport-io"] }}
tokio = {{ version = "1", features = ["rt-multi-thread", "macros", "io-std"] }}
serde = {{ version = "1", features = ["derive"] }}
"#,
        ours = Flavour::Ours.package(),
        rmcp = Flavour::Rmcp.package(),
        runtime = runtime.display().to_string(),
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    let lock = dir.join("Cargo.lock");
    if !lock.exists() {
        fs::copy(bench_dir().join("Cargo.lock"), &lock).context("seeding Cargo.lock")?;
    }
    for flavour in [Flavour::Ours, Flavour::Rmcp] {
        let package = flavour.package();
        let deps = match flavour {
            Flavour::Ours => "mcp-runtime.workspace = true\ntokio.workspace = true\n",
            Flavour::Rmcp => {
                "rmcp.workspace = true\ntokio.workspace = true\nserde.workspace = true\n"
            }
        };
        let manifest = format!(
            "[package]\nname = \"{package}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{deps}"
        );
        fs::create_dir_all(dir.join(package).join("src"))?;
        write_if_changed(&dir.join(package).join("Cargo.toml"), &manifest)?;
        write_crate(dir, flavour, 0)?;
    }
    Ok(())
}

/// Writes a crate's source; `revision` is the text in the edited tool's body.
fn write_crate(dir: &Path, flavour: Flavour, revision: usize) -> Result<()> {
    let source = match flavour {
        Flavour::Ours => ours_source(revision),
        Flavour::Rmcp => rmcp_source(revision),
    };
    write_if_changed(
        &dir.join(flavour.package()).join("src").join("main.rs"),
        &source,
    )
}

/// Leaves an unchanged file alone, so its modification time says "nothing to rebuild".
fn write_if_changed(path: &Path, text: &str) -> Result<()> {
    if fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

fn body(tool: usize, revision: usize) -> String {
    let revision = if tool == EDITED_TOOL { revision } else { 0 };
    format!(
        r#"format!("tool {tool} (revision {revision}): {{}}", text.repeat(usize::from(times)))"#
    )
}

/// The 100 tools with `#[mcp_tool]`.
pub fn ours_source(revision: usize) -> String {
    let mut source = String::from(
        "//! 100 tools with mcp-runtime's `#[mcp_tool]` (generated by mcp-bench).\n\nuse mcp_runtime::{Server, mcp_tool};\n",
    );
    for tool in 0..TOOLS {
        let body = body(tool, revision);
        write!(
            source,
            r#"
/// Tool {tool}: repeats the text.
#[mcp_tool(read_only)]
async fn tool_{tool:03}(
    /// The text to repeat.
    text: String,
    /// How many times to repeat it.
    times: u8,
) -> String {{
    {body}
}}
"#
        )
        .expect("writing to a String");
    }
    source.push_str(
        r#"
#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    Server::new("tools100", "1.0.0").serve_stdio().await
}
"#,
    );
    source
}

/// The same 100 tools with rmcp's macros, written as rmcp's README shows.
pub fn rmcp_source(revision: usize) -> String {
    let mut source = String::from(
        "//! 100 tools with rmcp's `#[tool]` macros (generated by mcp-bench).\n\nuse rmcp::handler::server::wrapper::Parameters;\nuse rmcp::transport::stdio;\nuse rmcp::{ServiceExt, schemars, tool, tool_router};\n",
    );
    for tool in 0..TOOLS {
        write!(
            source,
            r#"
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Tool{tool:03}Params {{
    /// The text to repeat.
    text: String,
    /// How many times to repeat it.
    times: u8,
}}
"#
        )
        .expect("writing to a String");
    }
    source.push_str(
        "\n#[derive(Clone)]\nstruct Tools;\n\n#[tool_router(server_handler)]\nimpl Tools {",
    );
    for tool in 0..TOOLS {
        let body = body(tool, revision);
        write!(
            source,
            r#"
    /// Tool {tool}: repeats the text.
    #[tool(annotations(read_only_hint = true))]
    async fn tool_{tool:03}(
        &self,
        Parameters(Tool{tool:03}Params {{ text, times }}): Parameters<Tool{tool:03}Params>,
    ) -> String {{
        {body}
    }}
"#
        )
        .expect("writing to a String");
    }
    source.push_str(
        r#"}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Tools.serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}
"#,
    );
    source
}
