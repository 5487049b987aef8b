//! `mcp-bench`: the whole benchmark in one command (`bench/run.sh`).
//!
//! Builds the servers, runs `mcp-loadgen` against each of them several times (interleaved,
//! so slow drifts of the machine hit every server alike), runs the catalog and the
//! compile-time cases and the HTTP section (in-memory against Redis-shared state), and
//! prints one Markdown report, also written to
//! `bench/results/latest.md` (`quick.md` for a `--quick` run). Every figure is a median over the runs, shown with its ratio
//! to the limit server measured in the same invocation.

mod compile;
mod http;
mod http_baselines;
mod measure;
mod report;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Parser;

use crate::measure::Settings;

#[derive(Parser, Debug)]
#[command(version, about = "Runs the MCP server benchmark and prints the table", long_about = None)]
pub struct Args {
    /// CI smoke mode: one run per server, short windows, a smaller catalog sample and no
    /// compile-time case.
    #[arg(long)]
    quick: bool,

    /// Runs per server, and per HTTP cell (medians are reported).
    #[arg(long)]
    runs: Option<usize>,

    /// Warm-up before each measured window (s).
    #[arg(long)]
    warmup: Option<f64>,

    /// Measured window per concurrency level, and per HTTP measurement (s).
    #[arg(long)]
    duration: Option<f64>,

    /// Skip the 10,000-tool catalog case.
    #[arg(long)]
    skip_catalog: bool,

    /// Skip the compile-time case (it always is with `--quick`).
    #[arg(long)]
    skip_compile: bool,

    /// Skip the HTTP section (the in-memory server against the one sharing its state
    /// through Redis, and against the limit and rmcp).
    #[arg(long)]
    skip_http: bool,

    /// Skip the HTTP comparison of the in-memory server with the one sharing its state
    /// through Redis (the rest of the HTTP section runs).
    #[arg(long)]
    skip_http_redis: bool,

    /// Skip the HTTP comparison against the limit (`http-limit`) and rmcp
    /// (`rmcp-http-docs`, `rmcp-http-tuned`).
    #[arg(long)]
    skip_http_baselines: bool,

    /// The `redis-server` of the HTTP section (default: the one on `PATH`, else
    /// `/usr/bin/redis-server`; without one, the section is skipped).
    #[arg(long)]
    redis_server: Option<PathBuf>,

    /// Skip the stdio servers (the main table and the targets); with the other `--skip-*`
    /// options, runs one section alone.
    #[arg(long)]
    skip_stdio: bool,

    /// Clean and incremental builds timed per crate in the compile-time case.
    #[arg(long, default_value_t = 3)]
    compile_reps: usize,

    /// Where the Markdown report is written (default `bench/results/latest.md`, or
    /// `bench/results/quick.md` with `--quick`, `bench/results/partial.md` with
    /// `--skip-stdio`).
    #[arg(long)]
    out: Option<PathBuf>,

    /// Do not build anything; use the binaries already in `bench/target/release`.
    #[arg(long)]
    no_build: bool,
}

/// The bench workspace (this package's parent directory).
pub fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the driver lives inside the bench workspace")
        .to_path_buf()
}

/// Where release binaries are.
pub fn release_dir() -> PathBuf {
    bench_dir().join("target").join("release")
}

fn main() -> Result<()> {
    let args = Args::parse();
    let began = Instant::now();
    let settings = Settings::from_args(&args);
    let load_before = load_average();

    let built = if args.no_build {
        Built::assume(&args)
    } else {
        build(&args)?
    };

    let runs = if args.skip_stdio {
        Vec::new()
    } else {
        measure::run_servers(&settings, &measure::servers(&built))?
    };
    let catalog = match (&built.catalog, args.skip_catalog) {
        (Ok(()), false) => Some(measure::run_catalog(&settings)),
        (Err(error), false) => {
            eprintln!("mcp-bench: catalog server did not build: {error}");
            None
        }
        (_, true) => None,
    };
    let http = match (&built.ours, &built.httpload, args.skip_http) {
        (_, _, true) => None,
        (Err(error), _, false) => Some(http::HttpSection::NotMeasured(format!(
            "`ours` did not build ({error})."
        ))),
        (_, Err(error), false) => Some(http::HttpSection::NotMeasured(format!(
            "`mcp-httpload` did not build ({error})."
        ))),
        (Ok(()), Ok(()), false) if args.skip_http_redis => None,
        (Ok(()), Ok(()), false) => Some(http::run(&settings, args.redis_server.as_deref())),
    };
    let http_baselines = match (&built.httpload, args.skip_http || args.skip_http_baselines) {
        (_, true) => None,
        (Err(error), false) => Some(http_baselines::BaselineSection::NotMeasured(format!(
            "`mcp-httpload` or the HTTP servers did not build ({error})."
        ))),
        (Ok(()), false) => Some(http_baselines::run(&settings)),
    };
    let compile = if args.quick || args.skip_compile {
        None
    } else {
        Some(compile::run(args.compile_reps))
    };

    let markdown = report::render(&report::Inputs {
        settings: &settings,
        built: &built,
        runs: &runs,
        catalog: catalog.as_ref(),
        http: http.as_ref(),
        http_baselines: http_baselines.as_ref(),
        compile: compile.as_ref(),
        load_before,
        load_after: load_average(),
        elapsed: began.elapsed(),
    });
    println!("{markdown}");
    // A smoke run, or one without the stdio servers, must not replace the full run's
    // results.
    let default_name = if args.quick {
        "quick.md"
    } else if args.skip_stdio {
        "partial.md"
    } else {
        "latest.md"
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| bench_dir().join("results").join(default_name));
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&out, &markdown).with_context(|| format!("writing {}", out.display()))?;
    eprintln!(
        "mcp-bench: wrote {} ({:.0} s in all)",
        out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Which optional packages built (the required ones must).
pub struct Built {
    pub ours: Result<(), String>,
    /// `ours-context`, the echo taking a `Context`, a binary of the same package.
    pub ours_context: Result<(), String>,
    /// `ours` with the `otel` feature and an OpenTelemetry layer installed.
    pub ours_otel: Result<(), String>,
    pub catalog: Result<(), String>,
    pub httpload: Result<(), String>,
    pub skipped_catalog: bool,
    pub skipped_stdio: bool,
}

impl Built {
    fn assume(args: &Args) -> Self {
        let exists = |name: &str| {
            if release_dir().join(name).exists() {
                Ok(())
            } else {
                Err(format!("{name} is not built"))
            }
        };
        Built {
            ours: exists("ours"),
            ours_context: exists("ours-context"),
            ours_otel: exists("ours-otel"),
            catalog: exists("catalog-server"),
            httpload: exists("mcp-httpload"),
            skipped_catalog: args.skip_catalog,
            skipped_stdio: args.skip_stdio,
        }
    }
}

fn cargo_build(packages: &[&str]) -> Result<(), String> {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command
        .current_dir(bench_dir())
        .args(["build", "--release", "--quiet"]);
    for package in packages {
        command.args(["-p", package]);
    }
    let output = command
        .stdout(Stdio::null())
        .output()
        .map_err(|error| format!("running cargo: {error}"))?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first_error = stderr
        .lines()
        .find(|line| line.starts_with("error"))
        .unwrap_or("cargo build failed");
    Err(first_error.to_owned())
}

fn build(args: &Args) -> Result<Built> {
    eprintln!("mcp-bench: building (release)…");
    if let Err(error) = cargo_build(&["mcp-loadgen", "bench-servers"]) {
        bail!("the load generator or the baseline servers did not build: {error}");
    }
    // Our packages are built separately: if the framework does not compile right now, the
    // baselines are still measured and the report says why `ours` is missing.
    // `bench-ours` builds both its binaries, `ours` and `ours-context`.
    let ours = cargo_build(&["bench-ours"]);
    if let Err(error) = &ours {
        eprintln!("mcp-bench: `ours` did not build: {error}");
    }
    let ours_context = ours.clone();
    // Apart from `ours`, so `ours` is built without the `otel` feature.
    let ours_otel = cargo_build(&["bench-ours-otel"]);
    if let Err(error) = &ours_otel {
        eprintln!("mcp-bench: `ours-otel` did not build: {error}");
    }
    let catalog = if args.skip_catalog {
        Err("skipped".to_owned())
    } else {
        cargo_build(&["bench-catalog"])
    };
    let httpload = if args.skip_http {
        Err("skipped".to_owned())
    } else {
        // `ours-http` built apart from `ours`, so the stdio server links no HTTP code.
        // The rmcp HTTP servers likewise, apart from the stdio `rmcp-docs` and `rmcp-tuned`.
        cargo_build(&["mcp-httpload", "bench-ours-http"])
            .and_then(|()| cargo_build(&["bench-rmcp-http"]))
    };
    if let (Err(error), false) = (&httpload, args.skip_http) {
        eprintln!("mcp-bench: `mcp-httpload` did not build: {error}");
    }
    Ok(Built {
        ours,
        ours_context,
        ours_otel,
        catalog,
        httpload,
        skipped_catalog: args.skip_catalog,
        skipped_stdio: args.skip_stdio,
    })
}

/// The 1-, 5- and 15-minute load averages: other work on the machine skews every figure.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_owned())
}
