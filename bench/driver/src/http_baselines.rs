//! The HTTP section against the limit and rmcp: `ours-http` (in memory) beside a
//! hand-written hyper server answering with the same bytes (`http-limit`, the limit) and
//! rmcp's Streamable HTTP server as its docs show it (`rmcp-http-docs`) and tuned
//! (`rmcp-http-tuned`: stateless, JSON answers). Same rules as the stdio bench: every ratio
//! is to the limit measured in the same run, a fresh server process per measurement, the
//! order of the servers rotating from cell to cell and run to run, pinned as the Redis
//! comparison pins (`http::Pins`).

use std::fmt::Write as _;

use anyhow::Result;
use mcp_loadgen::HttpReport;

use crate::http::{Load, OursHttp, Pins, drive};
use crate::measure::Settings;
use crate::report::{median, min_max, number, paired_ratios};

/// The workloads measured (see `mcp-httpload --help`).
const WORKLOADS: [&str; 4] = ["stateless-json", "stateless-sse", "session", "tools-list"];
/// Connections (one call in flight on each).
const CONNECTIONS: [usize; 2] = [1, 64];

/// One server of the comparison.
#[derive(Clone, Copy)]
pub struct Server {
    pub label: &'static str,
    binary: &'static str,
    /// Workloads it cannot serve, with the footnote saying why.
    cannot: &'static [(&'static str, &'static str)],
    /// Workloads it is driven with another workload's requests for: (cell, workload run,
    /// footnote).
    runs_as: &'static [(&'static str, &'static str, &'static str)],
}

const RMCP_ACCEPT: &str = "rmcp answers a POST whose `Accept` does not list both \
    `application/json` and `text/event-stream` with 406 Not Acceptable, so the \
    `stateless-json` workload (`Accept: application/json`) cannot run on it";
const TUNED_JSON: &str = "`rmcp-http-tuned` in the `stateless-json` rows is driven with the \
    `stateless-sse` workload's requests (`Accept: application/json, text/event-stream`, \
    which rmcp requires) and answers them with one JSON body (`json_response: true`): the \
    same exchange as `stateless-json` but for the `Accept` header";

const TUNED_NO_SESSION: &str = "`rmcp-http-tuned` runs rmcp's stateless mode \
    (`legacy_session_mode: false`): a 2025-11-25 `initialize` opens no session, so the \
    `session` workload cannot run on it";

/// The limit first: the ratios are to it.
const SERVERS: [Server; 4] = [
    Server {
        label: "limit",
        binary: "http-limit",
        cannot: &[],
        runs_as: &[],
    },
    Server {
        label: "ours",
        binary: "ours-http",
        cannot: &[],
        runs_as: &[],
    },
    Server {
        label: "rmcp docs",
        binary: "rmcp-http-docs",
        cannot: &[("stateless-json", RMCP_ACCEPT)],
        runs_as: &[],
    },
    Server {
        label: "rmcp tuned",
        binary: "rmcp-http-tuned",
        cannot: &[("session", TUNED_NO_SESSION)],
        runs_as: &[("stateless-json", "stateless-sse", TUNED_JSON)],
    },
];
const LIMIT: usize = 0;
const OURS: usize = 1;
const TUNED: usize = 3;

impl Server {
    fn cannot(&self, workload: &str) -> Option<&'static str> {
        self.cannot
            .iter()
            .find(|(name, _)| *name == workload)
            .map(|(_, why)| *why)
    }

    /// The workload run for `workload`'s cell, and the footnote when it is another.
    fn runs_as(&self, workload: &'static str) -> (&'static str, Option<&'static str>) {
        self.runs_as
            .iter()
            .find(|(name, _, _)| *name == workload)
            .map_or((workload, None), |(_, actual, why)| (actual, Some(*why)))
    }
}

/// One workload at one number of connections: per server, one slot per run.
pub struct Cell {
    pub workload: &'static str,
    pub connections: usize,
    pub reports: Vec<Vec<Option<HttpReport>>>,
    pub failures: Vec<String>,
}

/// What the section measured.
pub struct Baselines {
    pub pinning: String,
    pub runs: usize,
    pub warmup: f64,
    pub duration: f64,
    pub cells: Vec<Cell>,
}

pub enum BaselineSection {
    Measured(Baselines),
    NotMeasured(String),
}

/// One measurement: a fresh server driven by `mcp-httpload`.
fn measure(
    settings: &Settings,
    server: &Server,
    workload: &str,
    connections: usize,
    pins: Option<&Pins>,
) -> Result<HttpReport> {
    let args = ["--http".to_owned(), "127.0.0.1:0".to_owned()];
    let mut process = OursHttp::spawn(server.binary, &args, server.label, pins)?;
    let run = Load {
        workload,
        connections,
        label: server.label,
        extra: &[],
    };
    drive(&mut process, settings, &run, pins)
}

/// Runs the section; never fails the benchmark (what went wrong is in the section).
pub fn run(settings: &Settings) -> BaselineSection {
    match run_with(settings) {
        Ok(runs) => BaselineSection::Measured(runs),
        Err(error) => BaselineSection::NotMeasured(format!("{error:#}")),
    }
}

fn run_with(settings: &Settings) -> Result<Baselines> {
    let pins = Pins::plan()?;
    let mut cells: Vec<Cell> = WORKLOADS
        .iter()
        .flat_map(|&workload| {
            CONNECTIONS.iter().map(move |&connections| Cell {
                workload,
                connections,
                reports: vec![vec![None; settings.runs]; SERVERS.len()],
                failures: Vec::new(),
            })
        })
        .collect();
    for run in 0..settings.runs {
        for (index, cell) in cells.iter_mut().enumerate() {
            let mut order: Vec<usize> = (0..SERVERS.len())
                .filter(|&server| SERVERS[server].cannot(cell.workload).is_none())
                .collect();
            let turn = (run + index) % order.len();
            order.rotate_left(turn);
            let mut line = Vec::new();
            for server in order {
                match measure(
                    settings,
                    &SERVERS[server],
                    SERVERS[server].runs_as(cell.workload).0,
                    cell.connections,
                    pins.as_ref(),
                ) {
                    Ok(report) => {
                        line.push(format!(
                            "{} {:.0}/s",
                            SERVERS[server].label, report.calls_per_sec
                        ));
                        cell.reports[server][run] = Some(report);
                    }
                    Err(error) => {
                        eprintln!(
                            "mcp-bench: http-vs-limit run {}/{} {} ×{} {}: {error:#}",
                            run + 1,
                            settings.runs,
                            cell.workload,
                            cell.connections,
                            SERVERS[server].label
                        );
                        cell.failures.push(format!(
                            "{} (run {}): {error:#}",
                            SERVERS[server].label,
                            run + 1
                        ));
                    }
                }
            }
            eprintln!(
                "mcp-bench: http-vs-limit run {}/{} {:<14} ×{:<2} {}",
                run + 1,
                settings.runs,
                cell.workload,
                cell.connections,
                line.join(", ")
            );
        }
    }
    Ok(Baselines {
        pinning: match &pins {
            Some(pins) => format!(
                "every server on CPU {}; the load generator on CPU {} at 1 connection, on CPU {} at 64",
                pins.server, pins.client_one, pins.client_many
            ),
            None => "not pinned (fewer than two CPUs allowed)".to_owned(),
        },
        runs: settings.runs,
        warmup: settings.warmup,
        duration: settings.duration,
        cells,
    })
}

type Read = fn(&HttpReport) -> Option<f64>;

const CALLS: Read = |r| Some(r.calls_per_sec);
const P50: Read = |r| Some(r.p50_us);
const P99: Read = |r| Some(r.p99_us);
const CPU: Read = |r| r.server_cpu_us_per_call;
const RSS: Read = |r| r.server_peak_rss_kb.map(|kb| kb as f64 / 1024.0);

impl Cell {
    /// The median of `read` over one server's runs.
    fn value(&self, server: usize, read: Read) -> Option<f64> {
        median(self.values(server, read))
    }

    /// `read` over one server's runs.
    fn values(&self, server: usize, read: Read) -> Vec<f64> {
        self.reports[server]
            .iter()
            .flatten()
            .filter_map(read)
            .collect()
    }

    /// Each run's `read`(server) ÷ `read`(limit), both from the same run.
    fn ratios(&self, server: usize, read: Read) -> Vec<f64> {
        paired_ratios(&self.reports[server], &self.reports[LIMIT], read)
    }

    /// The median over the runs of `read`(server) ÷ `read`(limit), both from the same run.
    fn ratio(&self, server: usize, read: Read) -> Option<f64> {
        median(self.ratios(server, read))
    }

    /// The median over the runs of `read`(a) ÷ `read`(b), both from the same run.
    fn ratio_between(&self, a: usize, b: usize, read: Read) -> Option<f64> {
        median(paired_ratios(&self.reports[a], &self.reports[b], read))
    }
}

/// `value (ratio×)`, or `–` with a footnote mark. With `spread` and several runs, the
/// range over the runs follows: of each run's ratio to the limit, or of the limit's own
/// figure.
fn with_ratio(cell: &Cell, server: usize, read: Read, digits: usize, spread: bool) -> String {
    let Some(value) = cell.value(server, read) else {
        return "–".to_owned();
    };
    let range = |values: &[f64], show: &dyn Fn(f64) -> String| {
        let (min, max) = min_max(values)?;
        (spread && values.len() > 1).then(|| format!("{}–{}", show(min), show(max)))
    };
    let value_text = number(value, digits);
    if server == LIMIT {
        return match range(&cell.values(LIMIT, read), &|v| number(v, digits)) {
            Some(range) => format!("{value_text} ({range})"),
            None => value_text,
        };
    }
    let ratios = cell.ratios(server, read);
    match (
        median(ratios.clone()),
        range(&ratios, &|r| format!("{r:.2}")),
    ) {
        (Some(ratio), Some(range)) => format!("{value_text} ({ratio:.2}×, {range})"),
        (Some(ratio), None) => format!("{value_text} ({ratio:.2}×)"),
        (None, _) => value_text,
    }
}

/// The section of the Markdown report.
pub fn render(out: &mut String, section: &BaselineSection) {
    out.push_str("## HTTP: against the limit and rmcp\n\n");
    let runs = match section {
        BaselineSection::NotMeasured(why) => {
            let _ = writeln!(out, "Not measured: {why}\n");
            return;
        }
        BaselineSection::Measured(runs) => runs,
    };
    let _ = writeln!(
        out,
        "`ours-http --http` (in memory) against `http-limit` (hand-written hyper 1, the same \
         bytes and headers, no MCP machinery), `rmcp-http-docs` (rmcp 3.11's \
         `StreamableHttpService` as its docs show it: default config, sessions, axum) and \
         `rmcp-http-tuned` (stateless mode, JSON answers, `TCP_NODELAY`). Driven by \
         `mcp-httpload`: `stateless-json` (2026-07-28, JSON), `stateless-sse` (2026-07-28, \
         accepting SSE), `session` (a 2025-11-25 session per connection, SSE), `tools-list` \
         (2026-07-28 `tools/list`, accepting SSE). {} run{}, a fresh server per measurement, \
         order rotating, warm-up {} s, measured {} s; medians, in brackets the median of each \
         run's ratio to the limit measured in the same run and, for calls/s, p50 and CPU over \
         several runs, the range (min–max) of those ratios (for the limit, of its own \
         figure). Pinning: {}.\n",
        runs.runs,
        if runs.runs == 1 { "" } else { "s" },
        runs.warmup,
        runs.duration,
        runs.pinning,
    );
    out.push_str(
        "| workload | connections | server | calls/s | p50 µs | p99 µs | server CPU µs/call | \
         peak RSS MB |\n|---|---|---|---|---|---|---|---|\n",
    );
    let mut notes: Vec<&'static str> = Vec::new();
    let mut mark = |why: &'static str| match notes.iter().position(|note| *note == why) {
        Some(at) => at + 1,
        None => {
            notes.push(why);
            notes.len()
        }
    };
    for cell in &runs.cells {
        for (index, server) in SERVERS.iter().enumerate() {
            if let Some(why) = server.cannot(cell.workload) {
                let mark = mark(why);
                let dash = format!("–[^{mark}]");
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {dash} | {dash} | {dash} | {dash} | {dash} |",
                    cell.workload, cell.connections, server.label
                );
                continue;
            }
            let label = match server.runs_as(cell.workload).1 {
                Some(why) => format!("{}[^{}]", server.label, mark(why)),
                None => server.label.to_owned(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                cell.workload,
                cell.connections,
                label,
                with_ratio(cell, index, CALLS, 0, true),
                with_ratio(cell, index, P50, 1, true),
                with_ratio(cell, index, P99, 1, false),
                with_ratio(cell, index, CPU, 2, true),
                with_ratio(cell, index, RSS, 1, false),
            );
        }
    }
    out.push('\n');
    for (at, note) in notes.iter().enumerate() {
        let _ = writeln!(out, "[^{}]: {note}.", at + 1);
    }
    if !notes.is_empty() {
        out.push('\n');
    }
    targets(out, runs);
    for cell in runs.cells.iter().filter(|cell| !cell.failures.is_empty()) {
        let _ = writeln!(
            out,
            "- {} ×{} failed {} measurement(s): {}",
            cell.workload,
            cell.connections,
            cell.failures.len(),
            cell.failures.join("; ")
        );
    }
    out.push('\n');
}

/// The targets for ours over Streamable HTTP.
fn targets(out: &mut String, runs: &Baselines) {
    let cell = |workload: &str, connections: usize| {
        runs.cells
            .iter()
            .find(|cell| cell.workload == workload && cell.connections == connections)
    };
    // (what, measured, at least?, bound)
    let mut checks: Vec<(String, Option<f64>, bool, f64)> = vec![
        (
            "stateless JSON at 64 in flight, calls/s ÷ limit".to_owned(),
            cell("stateless-json", 64).and_then(|c| c.ratio(OURS, CALLS)),
            true,
            0.6,
        ),
        (
            "stateless JSON at 64 in flight, calls/s ÷ rmcp tuned".to_owned(),
            cell("stateless-json", 64).and_then(|c| c.ratio_between(OURS, TUNED, CALLS)),
            true,
            2.0,
        ),
        (
            "stateless SSE at 64 in flight, calls/s ÷ limit".to_owned(),
            cell("stateless-sse", 64).and_then(|c| c.ratio(OURS, CALLS)),
            true,
            0.5,
        ),
    ];
    for workload in WORKLOADS {
        checks.push((
            format!("{workload} at 1 in flight, p50 ÷ limit"),
            cell(workload, 1).and_then(|c| c.ratio(OURS, P50)),
            false,
            1.5,
        ));
    }
    for c in &runs.cells {
        checks.push((
            format!(
                "{} ×{}, server CPU per call ÷ limit",
                c.workload, c.connections
            ),
            c.ratio(OURS, CPU),
            false,
            2.0,
        ));
    }
    for connections in CONNECTIONS {
        // Ours on a session against ours stateless (JSON), both from the same run.
        let session = cell("session", connections);
        let stateless = cell("stateless-json", connections);
        let measured = session.zip(stateless).and_then(|(session, stateless)| {
            median(paired_ratios(
                &session.reports[OURS],
                &stateless.reports[OURS],
                CALLS,
            ))
        });
        checks.push((
            format!("session ÷ stateless JSON calls/s at {connections} in flight"),
            measured,
            true,
            0.8,
        ));
    }
    out.push_str("Targets (ours):\n\n");
    for (what, measured, at_least, bound) in checks {
        let sign = if at_least { "≥" } else { "≤" };
        let _ = match measured {
            Some(value) => {
                let met = if at_least {
                    value >= bound
                } else {
                    value <= bound
                };
                writeln!(
                    out,
                    "- [{}] {what} {sign} {bound}: {value:.2}×",
                    if met { "x" } else { " " }
                )
            }
            None => writeln!(out, "- [ ] {what} {sign} {bound}: not measured"),
        };
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(calls_per_sec: f64) -> Option<HttpReport> {
        serde_json::from_value(serde_json::json!({
            "target": "t", "workload": "stateless-json", "connections": 1,
            "in_flight_per_connection": 1, "pinning": "1", "calls": 1, "seconds": 1.0,
            "calls_per_sec": calls_per_sec, "p50_us": 10.0, "p99_us": 20.0, "max_us": 30.0,
            "sse_answers": 0, "json_answers": 1, "client_cpu_us_per_call": 1.0,
        }))
        .ok()
    }

    #[test]
    fn shows_the_spread_of_the_ratios_over_the_runs() {
        let mut reports = vec![vec![None; 3]; SERVERS.len()];
        reports[LIMIT] = vec![report(1000.0), report(2000.0), report(1500.0)];
        reports[OURS] = vec![report(500.0), report(1200.0), report(600.0)];
        let cell = Cell {
            workload: "stateless-json",
            connections: 1,
            reports,
            failures: Vec::new(),
        };
        // Ratios 0.5, 0.6 and 0.4; the limit's own figures 1,000–2,000.
        assert_eq!(
            with_ratio(&cell, OURS, CALLS, 0, true),
            "600 (0.50×, 0.40–0.60)"
        );
        assert_eq!(with_ratio(&cell, OURS, CALLS, 0, false), "600 (0.50×)");
        assert_eq!(
            with_ratio(&cell, LIMIT, CALLS, 0, true),
            "1,500 (1,000–2,000)"
        );
        assert_eq!(with_ratio(&cell, TUNED, CALLS, 0, true), "–");
        let one_run = Cell {
            reports: cell.reports.iter().map(|runs| runs[..1].to_vec()).collect(),
            ..cell
        };
        assert_eq!(with_ratio(&one_run, OURS, CALLS, 0, true), "500 (0.50×)");
    }
}
