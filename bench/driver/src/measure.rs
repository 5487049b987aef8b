//! Running the load generator against each server.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use mcp_loadgen::Report;

use crate::{Args, Built, release_dir};

/// How long and how often each server is measured.
pub struct Settings {
    pub runs: usize,
    pub warmup: f64,
    pub duration: f64,
    pub list_samples: usize,
    pub startup_runs: usize,
    pub catalog_runs: usize,
    pub catalog_list_samples: usize,
}

impl Settings {
    pub fn from_args(args: &Args) -> Self {
        let quick = args.quick;
        Settings {
            runs: args.runs.unwrap_or(if quick { 1 } else { 5 }).max(1),
            warmup: args.warmup.unwrap_or(if quick { 0.3 } else { 1.0 }),
            duration: args.duration.unwrap_or(if quick { 1.0 } else { 3.0 }),
            list_samples: if quick { 21 } else { 101 },
            startup_runs: if quick { 2 } else { 4 },
            catalog_runs: if quick { 1 } else { 3 },
            catalog_list_samples: if quick { 5 } else { 21 },
        }
    }
}

/// One server under test.
pub struct ServerSpec {
    /// The name in the table.
    pub name: &'static str,
    /// The binary in `bench/target/release`.
    pub binary: &'static str,
    /// The tool called (`mcp-loadgen --tool`).
    pub tool: &'static str,
    /// What it is, for the report.
    pub about: &'static str,
}

/// The name of the limit server: every ratio is against it.
pub const LIMIT: &str = "limit";
/// `ours` with OpenTelemetry on: also compared with `ours`.
pub const OURS_OTEL: &str = "ours with OpenTelemetry";
/// `ours-context`, the echo taking a `Context`: it has targets of its own.
pub const OURS_CONTEXT: &str = "ours, tool taking Context";

/// The servers to measure, the limit first.
pub fn servers(built: &Built) -> Vec<ServerSpec> {
    let mut servers = vec![
        ServerSpec {
            name: LIMIT,
            binary: "limit-server",
            tool: "echo",
            about: "hand-written serde_json line server, single-threaded, no async runtime",
        },
        ServerSpec {
            name: "rmcp docs",
            binary: "rmcp-docs",
            tool: "echo",
            about: "rmcp as its README shows: `#[tool_router(server_handler)]` (router rebuilt per request), `stdio()`",
        },
        ServerSpec {
            name: "rmcp tuned",
            binary: "rmcp-tuned",
            tool: "echo",
            about: "rmcp with the router stored once and `stdio_pipes()`",
        },
    ];
    if built.ours.is_ok() {
        servers.push(ServerSpec {
            name: "ours",
            binary: "ours",
            tool: "echo",
            about: "mcp-runtime: `#[mcp_tool]` + `Server::serve_stdio()`",
        });
    }
    if built.ours_context.is_ok() {
        servers.push(ServerSpec {
            name: OURS_CONTEXT,
            binary: "ours-context",
            tool: "echo_with_context",
            about: "`ours` serving `echo_with_context` alone: the echo taking a `Context` beside \
                    `text`, as a tool that reports progress, logs or checks cancellation does",
        });
    }
    if built.ours_otel.is_ok() {
        servers.push(ServerSpec {
            name: OURS_OTEL,
            binary: "ours-otel",
            tool: "echo",
            about: "`ours` with the `otel` feature and `Server::telemetry`: every request's span \
                    made and batched for export (to an exporter that drops it), every metric \
                    recorded",
        });
    }
    servers
}

/// Every report (and failure) of one server.
pub struct ServerRuns {
    pub name: &'static str,
    pub about: &'static str,
    /// One per run, in run order, `None` where that run failed: run `i` of every server
    /// was measured in the same rotation, so their ratios can be paired.
    pub reports: Vec<Option<Report>>,
    pub failures: Vec<String>,
}

impl ServerRuns {
    /// The reports of the runs that succeeded.
    pub fn measured(&self) -> impl Iterator<Item = &Report> {
        self.reports.iter().flatten()
    }
}

fn loadgen(binary: &str, name: &str, extra: &[String]) -> Result<Report> {
    let server: PathBuf = release_dir().join(binary);
    let output = Command::new(release_dir().join("mcp-loadgen"))
        .args(["--json", "--quiet", "--name", name])
        .args(extra)
        .arg("--")
        .arg(&server)
        .stderr(Stdio::inherit())
        .output()
        .context("running mcp-loadgen")?;
    if !output.status.success() {
        bail!("mcp-loadgen failed against {binary} ({})", output.status);
    }
    serde_json::from_slice(&output.stdout).context("reading mcp-loadgen's report")
}

/// Runs every server `settings.runs` times, rotating the order from run to run.
pub fn run_servers(settings: &Settings, servers: &[ServerSpec]) -> Result<Vec<ServerRuns>> {
    let mut results: Vec<ServerRuns> = servers
        .iter()
        .map(|server| ServerRuns {
            name: server.name,
            about: server.about,
            reports: vec![None; settings.runs],
            failures: Vec::new(),
        })
        .collect();
    let extra = vec![
        "--concurrency".to_owned(),
        "1,32".to_owned(),
        "--warmup".to_owned(),
        settings.warmup.to_string(),
        "--duration".to_owned(),
        settings.duration.to_string(),
        "--list-samples".to_owned(),
        settings.list_samples.to_string(),
        "--startup-runs".to_owned(),
        settings.startup_runs.to_string(),
    ];
    for run in 0..settings.runs {
        for offset in 0..servers.len() {
            let index = (run + offset) % servers.len();
            let server = &servers[index];
            let tool = ["--tool".to_owned(), server.tool.to_owned()];
            match loadgen(server.binary, server.name, &[&extra[..], &tool].concat()) {
                Ok(report) => {
                    let rates: Vec<String> = report
                        .phases
                        .iter()
                        .map(|phase| {
                            format!("c={} {:.0}/s", phase.concurrency, phase.calls_per_sec)
                        })
                        .collect();
                    eprintln!(
                        "mcp-bench: run {}/{} {:<10} {}",
                        run + 1,
                        settings.runs,
                        server.name,
                        rates.join(", ")
                    );
                    results[index].reports[run] = Some(report);
                }
                Err(error) => {
                    eprintln!(
                        "mcp-bench: run {}/{} {}: {error:#}",
                        run + 1,
                        settings.runs,
                        server.name
                    );
                    results[index].failures.push(format!("{error:#}"));
                }
            }
        }
    }
    if results[0].measured().next().is_none() {
        bail!("the limit server could not be measured, so no ratio can be given");
    }
    Ok(results)
}

/// The catalog server's reports, and the one-tool server they are compared with.
pub struct CatalogRuns {
    pub reports: Vec<Report>,
    pub failures: Vec<String>,
}

/// Start-up, `tools/list` paging and memory of the catalog server (no load phases).
pub fn run_catalog(settings: &Settings) -> CatalogRuns {
    let extra = vec![
        "--no-load".to_owned(),
        "--list-samples".to_owned(),
        settings.catalog_list_samples.to_string(),
        "--startup-runs".to_owned(),
        settings.startup_runs.to_string(),
    ];
    let mut catalog = CatalogRuns {
        reports: Vec::new(),
        failures: Vec::new(),
    };
    for run in 0..settings.catalog_runs {
        match loadgen("catalog-server", "catalog", &extra) {
            Ok(report) => {
                eprintln!(
                    "mcp-bench: catalog run {}/{}: start-up {:.1} ms",
                    run + 1,
                    settings.catalog_runs,
                    report.startup_ms
                );
                catalog.reports.push(report);
            }
            Err(error) => catalog.failures.push(format!("{error:#}")),
        }
    }
    catalog
}
