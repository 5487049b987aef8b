//! Medians, ratios to the limit server, and the Markdown report.

use std::fmt::Write as _;
use std::time::Duration;

use mcp_loadgen::Report;

use crate::Built;
use crate::compile::{self, CompileCase};
use crate::http::{self, HttpSection};
use crate::measure::{CatalogRuns, LIMIT, OURS_CONTEXT, OURS_OTEL, ServerRuns, Settings};

pub struct Inputs<'a> {
    pub settings: &'a Settings,
    pub built: &'a Built,
    pub runs: &'a [ServerRuns],
    pub catalog: Option<&'a CatalogRuns>,
    pub http: Option<&'a HttpSection>,
    pub http_baselines: Option<&'a crate::http_baselines::BaselineSection>,
    pub compile: Option<&'a CompileCase>,
    pub load_before: String,
    pub load_after: String,
    pub elapsed: Duration,
}

pub(crate) fn median(mut values: Vec<f64>) -> Option<f64> {
    values.retain(|value| value.is_finite());
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some((values[n / 2 - 1] + values[n / 2]) / 2.0),
    }
}

/// One column of the main table: how to read a figure from a report.
struct Column {
    header: &'static str,
    read: fn(&Report) -> Option<f64>,
    digits: usize,
}

fn phase(report: &Report, concurrency: usize) -> Option<&mcp_loadgen::PhaseReport> {
    report
        .phases
        .iter()
        .find(|phase| phase.concurrency == concurrency)
}

const MB: f64 = 1024.0;

const COLUMNS: &[Column] = &[
    Column {
        header: "c=1 calls/s",
        read: |r| phase(r, 1).map(|p| p.calls_per_sec),
        digits: 0,
    },
    Column {
        header: "c=32 calls/s",
        read: |r| phase(r, 32).map(|p| p.calls_per_sec),
        digits: 0,
    },
    Column {
        header: "p50 µs (c=1)",
        read: |r| phase(r, 1).map(|p| p.p50_us),
        digits: 1,
    },
    Column {
        header: "p99 µs (c=1)",
        read: |r| phase(r, 1).map(|p| p.p99_us),
        digits: 1,
    },
    Column {
        header: "server CPU µs/call (c=1)",
        read: |r| phase(r, 1).map(|p| p.server_cpu_us_per_call),
        digits: 2,
    },
    Column {
        header: "server CPU µs/call (c=32)",
        read: |r| phase(r, 32).map(|p| p.server_cpu_us_per_call),
        digits: 2,
    },
    Column {
        header: "start-up ms",
        read: |r| Some(r.startup_ms),
        digits: 2,
    },
    Column {
        header: "idle RSS MB",
        read: |r| Some(r.idle_rss_kb as f64 / MB),
        digits: 1,
    },
    Column {
        header: "peak RSS MB",
        read: |r| Some(r.peak_rss_kb as f64 / MB),
        digits: 1,
    },
    Column {
        header: "tools/list µs",
        read: |r| r.list.as_ref().map(|l| l.first_page_us),
        digits: 1,
    },
];

fn medians(runs: &ServerRuns) -> Vec<Option<f64>> {
    COLUMNS
        .iter()
        .map(|column| median(runs.measured().filter_map(column.read).collect()))
        .collect()
}

/// Each run's `read`(a) ÷ `read`(b), both measured in that run's rotation, so that a slow
/// minute moves both sides of a ratio rather than one server's median. A run missing on
/// either side, or a zero divisor, gives no ratio.
pub(crate) fn paired_ratios<R>(
    a: &[Option<R>],
    b: &[Option<R>],
    read: impl Fn(&R) -> Option<f64>,
) -> Vec<f64> {
    a.iter()
        .zip(b)
        .filter_map(|(a, b)| {
            let (a, b) = (read(a.as_ref()?)?, read(b.as_ref()?)?);
            (b > 0.0).then(|| a / b)
        })
        .collect()
}

/// [`paired_ratios`] of two servers' stdio runs.
fn ratios(a: &ServerRuns, b: &ServerRuns, read: fn(&Report) -> Option<f64>) -> Vec<f64> {
    paired_ratios(&a.reports, &b.reports, read)
}

/// The median of each column's per-run ratios of `a` to `b`.
fn ratio_medians(a: &ServerRuns, b: &ServerRuns) -> Vec<Option<f64>> {
    COLUMNS
        .iter()
        .map(|column| median(ratios(a, b, column.read)))
        .collect()
}

pub(crate) fn number(value: f64, digits: usize) -> String {
    if digits == 0 {
        // Thousands separators for rates.
        let whole = format!("{:.0}", value);
        let mut out = String::new();
        for (index, digit) in whole.chars().enumerate() {
            if index > 0 && (whole.len() - index) % 3 == 0 {
                out.push(',');
            }
            out.push(digit);
        }
        out
    } else {
        format!("{value:.digits$}")
    }
}

fn cell(value: Option<f64>, ratio: Option<f64>, digits: usize) -> String {
    match (value, ratio) {
        (Some(value), Some(ratio)) => format!("{} ({ratio:.2}×)", number(value, digits)),
        (Some(value), None) => number(value, digits),
        (None, _) => "–".to_owned(),
    }
}

pub fn render(inputs: &Inputs<'_>) -> String {
    let mut out = String::new();
    let settings = inputs.settings;
    // The options this report was made with (`--out` and the like included).
    let command: String = std::iter::once("bench/run.sh".to_owned())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let what = if inputs.built.skipped_stdio {
        String::new()
    } else {
        format!(
            " ({} run{} per server, medians; warm-up {} s, measured {} s per level; echo tool, \
             calls pipelined over one stdio connection; c=1 with client and server pinned to one \
             core, c=32 on separate cores)",
            settings.runs,
            if settings.runs == 1 { "" } else { "s" },
            settings.warmup,
            settings.duration,
        )
    };
    let _ = writeln!(out, "# MCP server benchmark\n");
    let _ = writeln!(
        out,
        "`{command}` — {}{what}. Runtime: {}. Machine: {}. Load average before/after: {} / {}. \
         Took {:.0} s.\n",
        date(),
        revision(),
        machine(),
        inputs.load_before,
        inputs.load_after,
        inputs.elapsed.as_secs_f64(),
    );

    if inputs.built.skipped_stdio {
        out.push_str("The stdio servers were not measured (`--skip-stdio`).\n\n");
    } else {
        main_table(&mut out, inputs.runs);
        spread(&mut out, inputs.runs);
        targets(&mut out, inputs.runs);
        otel_cost(&mut out, inputs.runs);
    }
    if let Some(catalog) = inputs.catalog {
        catalog_section(&mut out, catalog, inputs.runs);
    } else if let (false, Err(error)) = (inputs.built.skipped_catalog, &inputs.built.catalog) {
        let _ = writeln!(
            out,
            "## 10,000 tools\n\nNot measured: the catalog server did not build ({error}).\n"
        );
    }
    if let Some(section) = inputs.http {
        http::render(&mut out, section);
    }
    if let Some(section) = inputs.http_baselines {
        crate::http_baselines::render(&mut out, section);
    }
    if let Some(case) = inputs.compile {
        compile_section(&mut out, case);
    }
    notes(&mut out, inputs);
    out
}

fn main_table(out: &mut String, runs: &[ServerRuns]) {
    let limit = runs.iter().find(|runs| runs.name == LIMIT);
    let _ = write!(out, "| server |");
    for column in COLUMNS {
        let _ = write!(out, " {} |", column.header);
    }
    let _ = write!(out, "\n|---|");
    for _ in COLUMNS {
        let _ = write!(out, "---|");
    }
    out.push('\n');
    for server in runs {
        let values = medians(server);
        let ratios = limit.map(|limit| ratio_medians(server, limit));
        let _ = write!(out, "| {} |", server.name);
        for (index, column) in COLUMNS.iter().enumerate() {
            let ratio = ratios.as_ref().and_then(|ratios| ratios[index]);
            let _ = write!(out, " {} |", cell(values[index], ratio, column.digits));
        }
        out.push('\n');
    }
    out.push_str(
        "\nFigures are medians over the runs. A ratio is the median over the runs of the \
         server's figure ÷ the limit's in the same run (the order of the servers rotates from \
         run to run).\n\n",
    );
    for server in runs {
        let _ = writeln!(out, "- **{}**: {}", server.name, server.about);
    }
    out.push('\n');
}

/// The range of throughputs over the runs: how much to trust the medians.
fn spread(out: &mut String, runs: &[ServerRuns]) {
    if runs.iter().all(|server| server.measured().count() < 2) {
        return;
    }
    out.push_str("Spread over the runs (min–max):\n\n| server | c=1 calls/s | c=32 calls/s | start-up ms |\n|---|---|---|---|\n");
    for server in runs {
        let range = |read: &dyn Fn(&Report) -> Option<f64>, digits: usize| {
            let values: Vec<f64> = server.measured().filter_map(read).collect();
            min_max(&values).map_or_else(
                || "–".to_owned(),
                |(min, max)| format!("{}–{}", number(min, digits), number(max, digits)),
            )
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            server.name,
            range(&|r| phase(r, 1).map(|p| p.calls_per_sec), 0),
            range(&|r| phase(r, 32).map(|p| p.calls_per_sec), 0),
            range(&|r| Some(r.startup_ms), 2),
        );
    }
    out.push('\n');
    for server in runs.iter().filter(|server| !server.failures.is_empty()) {
        let _ = writeln!(
            out,
            "- {} failed {} run(s): {}",
            server.name,
            server.failures.len(),
            server.failures.join("; ")
        );
    }
}

/// The stdio targets for our server, as ratios to the limit: each run's own ratio, the
/// median of them judged against the bound, and how many runs met it alone.
fn targets(out: &mut String, runs: &[ServerRuns]) {
    let find = |name: &str| runs.iter().find(|runs| runs.name == name);
    let (Some(limit), Some(ours)) = (find(LIMIT), find("ours")) else {
        out.push_str("## Targets\n\nNot evaluated: `ours` was not measured.\n\n");
        return;
    };
    let context = find(OURS_CONTEXT);
    // (what, whose runs, column, at least?, bound)
    let checks = [
        ("throughput at 32 in flight", Some(ours), 1, true, 0.85),
        ("throughput at 1 in flight", Some(ours), 0, true, 0.85),
        (
            "`Context` tool: throughput at 32 in flight",
            context,
            1,
            true,
            0.8,
        ),
        (
            "`Context` tool: throughput at 1 in flight",
            context,
            0,
            true,
            0.8,
        ),
        ("p50 latency at 1 in flight", Some(ours), 2, false, 1.5),
        ("server CPU per call (c=32)", Some(ours), 5, false, 1.3),
        ("server CPU per call (c=1)", Some(ours), 4, false, 1.3),
        (
            "start-up to the initialize answer",
            Some(ours),
            6,
            false,
            2.0,
        ),
        ("idle RSS", Some(ours), 7, false, 2.0),
    ];
    out.push_str(
        "## Targets (ours ÷ limit)\n\nMeasured is the median of the runs' own ratios; the range \
         is theirs.\n\n| target | bound | measured | runs' range | runs meeting it | met |\n\
         |---|---|---|---|---|---|\n",
    );
    for (what, server, index, at_least, bound) in checks {
        let meets = |value: f64| {
            if at_least {
                value >= bound
            } else {
                value <= bound
            }
        };
        let ratios = server.map_or_else(Vec::new, |server| {
            ratios(server, limit, COLUMNS[index].read)
        });
        let (measured, range, meeting, met) = match (median(ratios.clone()), min_max(&ratios)) {
            (Some(value), Some((min, max))) => (
                format!("{value:.2}×"),
                format!("{min:.2}–{max:.2}×"),
                format!(
                    "{} of {}",
                    ratios.iter().filter(|&&ratio| meets(ratio)).count(),
                    ratios.len()
                ),
                if meets(value) { "yes" } else { "**no**" },
            ),
            _ => ("–".to_owned(), "–".to_owned(), "–".to_owned(), "–"),
        };
        let sign = if at_least { "≥" } else { "≤" };
        let _ = writeln!(
            out,
            "| {what} | {sign} {bound}× | {measured} | {range} | {meeting} | {met} |"
        );
    }
    out.push('\n');
}

/// The smallest and the largest of `values`.
pub(crate) fn min_max(values: &[f64]) -> Option<(f64, f64)> {
    let min = values.iter().copied().reduce(f64::min)?;
    let max = values.iter().copied().reduce(f64::max)?;
    Some((min, max))
}

/// What OpenTelemetry costs: `ours` with it on, as a ratio to `ours` without.
fn otel_cost(out: &mut String, runs: &[ServerRuns]) {
    let (Some(ours), Some(otel)) = (
        runs.iter().find(|runs| runs.name == "ours"),
        runs.iter().find(|runs| runs.name == OURS_OTEL),
    ) else {
        return;
    };
    let ratios = ratio_medians(otel, ours);
    let (ours, otel) = (medians(ours), medians(otel));
    out.push_str(
        "## OpenTelemetry's cost (ours with OpenTelemetry ÷ ours)\n\n| figure | ours | with OpenTelemetry | ratio |\n|---|---|---|---|\n",
    );
    for index in [0, 1, 2, 4, 5, 6, 7] {
        let column = &COLUMNS[index];
        let ratio = ratios[index].map_or_else(|| "–".to_owned(), |ratio| format!("{ratio:.2}×"));
        let show = |value: Option<f64>| {
            value.map_or_else(|| "–".to_owned(), |value| number(value, column.digits))
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {ratio} |",
            column.header,
            show(ours[index]),
            show(otel[index]),
        );
    }
    out.push('\n');
}

fn catalog_section(out: &mut String, catalog: &CatalogRuns, runs: &[ServerRuns]) {
    let pick = |read: fn(&Report) -> Option<f64>| {
        median(catalog.reports.iter().filter_map(read).collect())
    };
    let one_tool = runs.iter().find(|runs| runs.name == "ours");
    let pick_one = |read: fn(&Report) -> Option<f64>| {
        one_tool.and_then(|runs| median(runs.measured().filter_map(read).collect()))
    };
    let tools = catalog
        .reports
        .first()
        .and_then(|report| report.list.as_ref())
        .map(|list| {
            (
                list.tools,
                list.pages,
                list.middle_page,
                list.first_page_bytes,
            )
        });
    let _ = writeln!(
        out,
        "## Catalog: a server with 10,000 `#[mcp_tool]` functions\n"
    );
    let Some((tools, pages, middle, bytes)) = tools else {
        let _ = writeln!(out, "Not measured: {}\n", catalog.failures.join("; "));
        return;
    };
    let _ = writeln!(
        out,
        "Generated by `bench/catalog/build.rs`; every tool is shaped like the echo tool. {} run{}, medians. \
         `tools/list` returned {tools} tools in {pages} pages (first page {:.0} kB).\n",
        catalog.reports.len(),
        if catalog.reports.len() == 1 { "" } else { "s" },
        bytes as f64 / 1024.0,
    );
    let fmt = |value: Option<f64>, digits: usize| {
        value.map_or("–".to_owned(), |value| format!("{value:.digits$}"))
    };
    let startup = pick(|r| Some(r.startup_ms));
    let cold = pick(|r| r.list.as_ref().map(|l| l.first_page_cold_us / 1e3));
    let first = pick(|r| r.list.as_ref().map(|l| l.first_page_us / 1e3));
    let middle_ms = pick(|r| {
        r.list
            .as_ref()
            .and_then(|l| l.middle_page_us)
            .map(|us| us / 1e3)
    });
    let idle = pick(|r| Some(r.idle_rss_kb as f64));
    let listed = pick(|r| r.list.as_ref().map(|l| l.rss_after_list_kb as f64));
    let one_idle = pick_one(|r| Some(r.idle_rss_kb as f64));
    let one_listed = pick_one(|r| r.list.as_ref().map(|l| l.rss_after_list_kb as f64));
    let per_tool = |many: Option<f64>, one: Option<f64>| match (many, one) {
        (Some(many), Some(one)) if tools > 1 => {
            format!("{:.0} B", (many - one) * 1024.0 / (tools - 1) as f64)
        }
        _ => "–".to_owned(),
    };
    let mb = |kb: Option<f64>| fmt(kb.map(|kb| kb / MB), 1);
    let _ = writeln!(
        out,
        "| figure | 10,000 tools | 1 tool (`ours`) |\n|---|---|---|"
    );
    let _ = writeln!(
        out,
        "| start-up to the initialize answer | {} ms | {} ms |",
        fmt(startup, 2),
        fmt(pick_one(|r| Some(r.startup_ms)), 2)
    );
    let _ = writeln!(
        out,
        "| `tools/list` first page, first request of the connection | {} ms | – |",
        fmt(cold, 2)
    );
    let _ = writeln!(
        out,
        "| `tools/list` first page, median | {} ms | – |",
        fmt(first, 2)
    );
    let _ = writeln!(
        out,
        "| `tools/list` page {} (by cursor), median | {} ms | – |",
        middle.map_or("–".to_owned(), |page| (page + 1).to_string()),
        fmt(middle_ms, 2)
    );
    let _ = writeln!(out, "| idle RSS | {} MB | {} MB |", mb(idle), mb(one_idle));
    let _ = writeln!(
        out,
        "| RSS after listing every page | {} MB | {} MB |",
        mb(listed),
        mb(one_listed)
    );
    let _ = writeln!(
        out,
        "| RSS per tool, idle | {} | |",
        per_tool(idle, one_idle)
    );
    let _ = writeln!(
        out,
        "| RSS per tool, after listing | {} | |",
        per_tool(listed, one_listed)
    );
    out.push('\n');
}

fn compile_section(out: &mut String, case: &CompileCase) {
    let _ = writeln!(out, "## Compile time: 100 tools, our macro vs rmcp's\n");
    let timings = match &case.results {
        Ok(timings) => timings,
        Err(error) => {
            let _ = writeln!(out, "Not measured: {error}\n");
            return;
        }
    };
    let _ = writeln!(
        out,
        "Generated crates in `bench/target/compile-case/` (see `bench/driver/src/compile.rs`), profile {}; \
         dependencies prebuilt. Clean: `cargo clean -p <crate>` then `cargo build -p <crate>`. Incremental: \
         rebuild after one tool's body changed. Medians of {} builds, wall time including cargo's own start-up and the link.\n",
        case.profile,
        timings.first().map_or(0, |t| t.clean.len()),
    );
    let _ = writeln!(
        out,
        "| crate | clean build s | incremental build s | tools listed |\n|---|---|---|---|"
    );
    for timing in timings {
        let _ = writeln!(
            out,
            "| {} | {:.2} | {:.2} | {} |",
            timing.flavour.label(),
            compile::median(&timing.clean).as_secs_f64(),
            compile::median(&timing.incremental).as_secs_f64(),
            match &timing.listed_tools {
                Ok(tools) => tools.to_string(),
                Err(error) => format!("error: {}", error.lines().next().unwrap_or("")),
            }
        );
    }
    if let [ours, rmcp] = timings.as_slice() {
        let ratio = |a: &[Duration], b: &[Duration]| {
            compile::median(a).as_secs_f64() / compile::median(b).as_secs_f64()
        };
        let _ = writeln!(
            out,
            "\nOurs ÷ rmcp: clean {:.2}×, incremental {:.2}× (target: ≤ 1×).\n",
            ratio(&ours.clean, &rmcp.clean),
            ratio(&ours.incremental, &rmcp.incremental),
        );
    }
}

fn notes(out: &mut String, inputs: &Inputs<'_>) {
    out.push_str("## Notes\n\n");
    if let Err(error) = &inputs.built.ours {
        let _ = writeln!(
            out,
            "- `ours` was not measured: it did not build ({error})."
        );
    }
    if let (Err(error), Ok(())) = (&inputs.built.ours_context, &inputs.built.ours) {
        let _ = writeln!(
            out,
            "- `{OURS_CONTEXT}` was not measured: `ours-context` is missing ({error})."
        );
    }
    if let Err(error) = &inputs.built.ours_otel {
        let _ = writeln!(
            out,
            "- `ours with OpenTelemetry` was not measured: it did not build ({error})."
        );
    }
    out.push_str(
        "- Whole-process figures: server CPU is utime + stime of the server process from \
         `/proc/<pid>/stat` (10 ms ticks) over the measured window, divided by the calls in it; \
         RSS is `VmRSS` after the handshake (idle) and `VmHWM` at the end (peak).\n\
         - A 2-core machine: other work on it (see the load average) moves every figure; compare \
         ratios from one invocation rather than figures across invocations.\n",
    );
}

fn date() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map_or_else(|| "date unknown".to_owned(), |date| date.trim().to_owned())
}

/// The repository's commit, and whether the runtime had uncommitted changes (the
/// benchmark builds the working tree).
fn revision() -> String {
    let repository = crate::bench_dir().join("..");
    let git = |args: &[&str]| {
        // No optional locks: `status` must not rewrite the index while others work.
        std::process::Command::new("git")
            .arg("--no-optional-locks")
            .arg("-C")
            .arg(&repository)
            .args(args)
            .output()
            .ok()
            .filter(|output| output.status.success())
            .and_then(|output| String::from_utf8(output.stdout).ok())
    };
    let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) else {
        return "commit unknown".to_owned();
    };
    let dirty = git(&[
        "status",
        "--porcelain",
        "--",
        "mcp-runtime",
        "mcp-runtime-macros",
    ])
    .is_some_and(|changes| !changes.trim().is_empty());
    format!(
        "commit {}{}",
        commit.trim(),
        if dirty {
            " with uncommitted changes to mcp-runtime or mcp-runtime-macros"
        } else {
            ""
        }
    )
}

fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("model name"))
                .map(|rest| rest.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|release| release.trim().to_owned())
        .unwrap_or_default();
    format!("{cpus} × {model}, Linux {kernel}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_figures_and_ratios() {
        assert_eq!(number(1_234_567.4, 0), "1,234,567");
        assert_eq!(number(999.0, 0), "999");
        assert_eq!(number(2.345, 2), "2.35");
        assert_eq!(cell(Some(50.0), Some(0.5), 1), "50.0 (0.50×)");
        assert_eq!(cell(Some(50.0), None, 1), "50.0");
        assert_eq!(cell(None, Some(1.0), 1), "–");
        assert_eq!(median(vec![3.0, f64::NAN, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(Vec::new()), None);
    }

    fn runs_of(rates: &[Option<f64>]) -> ServerRuns {
        let report = |rate: f64| {
            serde_json::from_value::<Report>(serde_json::json!({
                "server": "", "startup_ms": 1.0, "startup_samples_ms": [1.0],
                "protocol_version": "2025-06-18", "idle_rss_kb": 1, "list": null,
                "peak_rss_kb": 1, "exit": "0",
                "phases": [{"concurrency": 1, "pinning": "none", "calls": 1, "seconds": 1.0,
                    "calls_per_sec": rate, "p50_us": 1.0, "p99_us": 1.0, "max_us": 1.0,
                    "server_cpu_us_per_call": 1.0, "client_cpu_us_per_call": 1.0}],
            }))
            .expect("a report")
        };
        ServerRuns {
            name: "",
            about: "",
            reports: rates.iter().map(|rate| rate.map(report)).collect(),
            failures: Vec::new(),
        }
    }

    #[test]
    fn ratios_pair_each_run_with_the_limit_of_the_same_run() {
        let rate = COLUMNS[0].read;
        let limit = runs_of(&[Some(100.0), Some(200.0), None, Some(50.0)]);
        let ours = runs_of(&[Some(90.0), Some(180.0), Some(70.0), None]);
        // Runs 3 and 4 each miss one side, so only the first two are paired.
        assert_eq!(ratios(&ours, &limit, rate), vec![0.9, 0.9]);
        assert_eq!(ratio_medians(&ours, &limit)[0], Some(0.9));
        // The ratio of the medians (135 ÷ 100) would say otherwise.
        assert_eq!(medians(&ours)[0], Some(90.0));
    }
}
