//! `mcp-loadgen`: measures one stdio MCP server.
//!
//! ```text
//! mcp-loadgen [OPTIONS] -- <server command>...
//! ```
//!
//! Spawns the server, times spawn → `initialize` response, sends
//! `notifications/initialized`, reads the idle resident set, walks and times `tools/list`,
//! then for each concurrency level keeps that many `tools/call` echo requests in flight
//! over the one connection: warm-up, then a measured window. Every response is checked to
//! be the exact echo of its request, and every id to be answered exactly once.

mod connection;
mod load;
mod protocol;

use std::thread;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Parser;
use mcp_loadgen::{CpuList, ListReport, PhaseReport, Report, procfs};

use crate::connection::Server;
use crate::load::Window;
use crate::protocol::{CallTemplate, Incoming, ListResult, PROTOCOL_VERSION};

#[derive(Parser, Debug)]
#[command(version, about = "Load generator for stdio MCP servers", long_about = None)]
struct Args {
    /// Requests kept in flight, one phase per value, in order.
    #[arg(short, long, value_delimiter = ',', default_value = "1,32")]
    concurrency: Vec<usize>,

    /// Skip the load phases (start-up, memory and `tools/list` only).
    #[arg(long)]
    no_load: bool,

    /// Warm-up before each measured window, in seconds (not measured).
    #[arg(long, default_value_t = 2.0)]
    warmup: f64,

    /// Length of each measured window, in seconds.
    #[arg(long, default_value_t = 5.0)]
    duration: f64,

    /// Measure this many calls instead of a duration (with `--warmup-calls`).
    #[arg(long)]
    calls: Option<u64>,

    /// Calls before the measured window when `--calls` is given.
    #[arg(long, default_value_t = 10_000)]
    warmup_calls: u64,

    /// Who writes requests during the load phases: a dedicated writer thread woken by the
    /// reader, or the reader itself right after it reads the answers; `auto` writes inline
    /// at concurrency 1 and from the writer thread above.
    #[arg(long, value_enum, default_value = "auto")]
    writer: load::Writer,

    /// The tool called: it must echo its `text` argument as one text block.
    #[arg(long, default_value = "echo")]
    tool: String,

    /// The `text` argument sent with every call.
    #[arg(long, default_value = "The quick brown fox jumps over the lazy dog.")]
    text: String,

    /// `tools/list` requests per latency median (0 skips `tools/list`).
    #[arg(long, default_value_t = 101)]
    list_samples: usize,

    /// Extra spawns that only time start-up (spawn → `initialize` answer).
    #[arg(long, default_value_t = 4)]
    startup_runs: usize,

    /// How long to let the server settle after the handshake before reading its idle RSS.
    #[arg(long, default_value_t = 0.2)]
    settle: f64,

    /// Pinning for one concurrency level, `C=CLIENT/SERVER` with `taskset -c` CPU lists,
    /// e.g. `1=1/1` (both on CPU 1) or `32=0/1`. Repeatable. Without any, levels are pinned
    /// when at least two CPUs are allowed: c=1 client and server together on
    /// the second CPU, higher levels client on the first, server on the second. Start-up,
    /// idle RSS and `tools/list` use the first level's pinning.
    #[arg(long = "pin", value_parser = parse_pin)]
    pins: Vec<Pin>,

    /// Do not pin anything.
    #[arg(long, conflicts_with = "pins")]
    no_pin: bool,

    /// A label for the report (default: the command line).
    #[arg(long)]
    name: Option<String>,

    /// Print the report as JSON.
    #[arg(long)]
    json: bool,

    /// Send the server's stderr to /dev/null.
    #[arg(long)]
    quiet: bool,

    /// The server command and its arguments.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// Where the load generator and the server run for one concurrency level.
#[derive(Clone, Debug)]
struct Pin {
    concurrency: usize,
    client: CpuList,
    server: CpuList,
}

impl Pin {
    fn describe(pin: Option<&Pin>) -> String {
        match pin {
            Some(pin) => format!("client {}, server {}", pin.client, pin.server),
            None => "none".to_owned(),
        }
    }
}

fn parse_pin(text: &str) -> Result<Pin, String> {
    let (concurrency, cpus) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not C=CLIENT/SERVER"))?;
    let (client, server) = cpus
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not C=CLIENT/SERVER"))?;
    Ok(Pin {
        concurrency: concurrency
            .trim()
            .parse()
            .map_err(|_| format!("`{concurrency}` is not a concurrency"))?,
        client: client.parse()?,
        server: server.parse()?,
    })
}

fn main() -> Result<()> {
    let args = Args::parse();
    let report = run(&args)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    Ok(())
}

/// The pinning of each concurrency level.
fn plan_pins(args: &Args) -> Result<Vec<Option<Pin>>> {
    if args.no_pin {
        return Ok(vec![None; args.concurrency.len()]);
    }
    if !args.pins.is_empty() {
        return Ok(args
            .concurrency
            .iter()
            .map(|&concurrency| {
                args.pins
                    .iter()
                    .find(|pin| pin.concurrency == concurrency)
                    .cloned()
            })
            .collect());
    }
    let allowed = procfs::allowed_cpus()?;
    let &[first, second, ..] = allowed.cpus() else {
        eprintln!("mcp-loadgen: fewer than two CPUs allowed; not pinning");
        return Ok(vec![None; args.concurrency.len()]);
    };
    Ok(args
        .concurrency
        .iter()
        .map(|&concurrency| {
            Some(Pin {
                concurrency,
                client: CpuList::single(if concurrency == 1 { second } else { first }),
                server: CpuList::single(second),
            })
        })
        .collect())
}

fn run(args: &Args) -> Result<Report> {
    let pins = plan_pins(args)?;
    let window = match args.calls {
        Some(measure) => Window::Calls {
            warmup: args.warmup_calls,
            measure,
        },
        None => Window::Time {
            warmup: Duration::from_secs_f64(args.warmup),
            measure: Duration::from_secs_f64(args.duration),
        },
    };
    let first_pin = pins.first().cloned().flatten();
    if let Some(pin) = &first_pin {
        procfs::pin_current_thread(&pin.client)?;
    }

    let (mut server, handshake) = spawn_pinned(args, first_pin.as_ref())?;
    match measure(args, &mut server, &handshake, &pins, window) {
        Ok(mut report) => {
            report.exit = server.finish(Duration::from_secs(10))?;
            let mut samples = vec![handshake.startup];
            for _ in 0..args.startup_runs {
                let (server, handshake) = spawn_pinned(args, first_pin.as_ref())?;
                server.finish(Duration::from_secs(10))?;
                samples.push(handshake.startup);
            }
            report.startup_samples_ms = samples.iter().map(|s| s.as_secs_f64() * 1e3).collect();
            report.startup_ms = median(&report.startup_samples_ms);
            Ok(report)
        }
        Err(error) => {
            server.kill();
            Err(error)
        }
    }
}

/// Spawns the server with the given pinning (inherited from the spawning thread, as with
/// `taskset`), then restores this thread's own.
fn spawn_pinned(args: &Args, pin: Option<&Pin>) -> Result<(Server, connection::Handshake)> {
    if let Some(pin) = pin {
        procfs::pin_current_thread(&pin.server)?;
    }
    let started = Server::start(&args.command, args.quiet);
    if let Some(pin) = pin {
        procfs::pin_current_thread(&pin.client)?;
    }
    started
}

fn measure(
    args: &Args,
    server: &mut Server,
    handshake: &connection::Handshake,
    pins: &[Option<Pin>],
    window: Window,
) -> Result<Report> {
    if handshake.protocol_version != PROTOCOL_VERSION {
        eprintln!(
            "mcp-loadgen: asked for {PROTOCOL_VERSION}, the server answered {}",
            handshake.protocol_version
        );
    }
    std::io::Write::write_all(&mut server.input, protocol::INITIALIZED)
        .context("sending notifications/initialized")?;
    thread::sleep(Duration::from_secs_f64(args.settle));
    let pid = server.pid();
    let idle_rss_kb = procfs::status_kb(pid, "VmRSS")?;

    let list = match args.list_samples {
        0 => None,
        samples => Some(measure_list(server, samples)?),
    };

    let template = CallTemplate::new(&args.tool, &args.text)?;
    let mut phases = Vec::new();
    let levels = if args.no_load {
        &[][..]
    } else {
        &args.concurrency[..]
    };
    for (&concurrency, pin) in levels.iter().zip(pins) {
        if let Some(pin) = pin {
            procfs::pin_current_thread(&pin.client)?;
            procfs::pin_process(pid, &pin.server)?;
        }
        let measured = load::run(
            server,
            &template,
            &args.text,
            concurrency,
            window,
            args.writer,
            pin.as_ref().map(|pin| &pin.client),
        )
        .with_context(|| format!("load phase at concurrency {concurrency}"))?;
        let mut latencies = measured.latencies_ns;
        let calls = measured.calls.max(1) as f64;
        phases.push(PhaseReport {
            concurrency,
            pinning: Pin::describe(pin.as_ref()),
            calls: measured.calls,
            seconds: measured.elapsed.as_secs_f64(),
            calls_per_sec: measured.calls as f64 / measured.elapsed.as_secs_f64(),
            p50_us: percentile_us(&mut latencies, 0.50),
            p99_us: percentile_us(&mut latencies, 0.99),
            max_us: latencies
                .iter()
                .max()
                .map_or(0.0, |&ns| f64::from(ns) / 1e3),
            server_cpu_us_per_call: measured.server_cpu.as_secs_f64() * 1e6 / calls,
            client_cpu_us_per_call: measured.client_cpu.as_secs_f64() * 1e6 / calls,
        });
    }

    Ok(Report {
        server: args.name.clone().unwrap_or_else(|| args.command.join(" ")),
        startup_ms: 0.0,
        startup_samples_ms: Vec::new(),
        protocol_version: handshake.protocol_version.clone(),
        idle_rss_kb,
        list,
        phases,
        peak_rss_kb: procfs::status_kb(pid, "VmHWM")?,
        exit: String::new(),
    })
}

/// Ids of `tools/list` requests (calls use ids with a slot in the low bits, from 1 << 16).
const LIST_IDS: u64 = 1 << 62;

/// Walks every page once, then times the first page and the middle one.
fn measure_list(server: &mut Server, samples: usize) -> Result<ListReport> {
    let mut id = LIST_IDS;
    let mut page = |server: &mut Server,
                    cursor: Option<&str>|
     -> Result<(Duration, usize, ListResult)> {
        id += 1;
        let request = protocol::list_request(id, cursor)?;
        let started = std::time::Instant::now();
        let line = server.request(&request, id)?;
        let elapsed = started.elapsed();
        let bytes = line.len();
        let result: ListResult = serde_json::from_str(Incoming::parse(line)?.into_result()?.get())
            .context("a tools/list result")?;
        Ok((elapsed, bytes, result))
    };

    // The walk: the first request of all is the cold one.
    let (cold, first_page_bytes, first) = page(server, None)?;
    let mut tools = first.tools.0;
    let mut cursors: Vec<Option<String>> = vec![None];
    let mut next = first.next_cursor;
    while let Some(cursor) = next {
        if cursors.len() > 1_000_000 {
            bail!("tools/list did not end after a million pages");
        }
        let (_, _, result) = page(server, Some(&cursor))?;
        tools += result.tools.0;
        cursors.push(Some(cursor));
        next = result.next_cursor;
    }

    let mut time = |server: &mut Server, cursor: Option<&str>| -> Result<f64> {
        let mut latencies = Vec::with_capacity(samples);
        for _ in 0..samples {
            latencies.push(page(server, cursor)?.0.as_secs_f64() * 1e6);
        }
        Ok(median(&latencies))
    };
    let first_page_us = time(server, None)?;
    let middle_page = (cursors.len() > 1).then_some(cursors.len() / 2);
    let middle_page_us = match middle_page {
        Some(index) => Some(time(server, cursors[index].as_deref())?),
        None => None,
    };
    Ok(ListReport {
        pages: cursors.len(),
        tools,
        first_page_bytes,
        first_page_cold_us: cold.as_secs_f64() * 1e6,
        first_page_us,
        middle_page,
        middle_page_us,
        samples,
        rss_after_list_kb: procfs::status_kb(server.pid(), "VmRSS")?,
    })
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Nearest-rank percentile of nanosecond latencies, in µs.
fn percentile_us(latencies: &mut [u32], quantile: f64) -> f64 {
    if latencies.is_empty() {
        return f64::NAN;
    }
    let rank = ((quantile * latencies.len() as f64).ceil() as usize).clamp(1, latencies.len());
    let (_, value, _) = latencies.select_nth_unstable(rank - 1);
    f64::from(*value) / 1e3
}

fn print_report(report: &Report) {
    println!("server: {}", report.server);
    println!(
        "start-up: {:.2} ms (median of {}), protocol {}",
        report.startup_ms,
        report.startup_samples_ms.len(),
        report.protocol_version
    );
    println!("idle RSS: {:.1} MB", report.idle_rss_kb as f64 / 1024.0);
    if let Some(list) = &report.list {
        print!(
            "tools/list: {} tools in {} pages; first page {:.1} µs (cold {:.1} µs, {} bytes)",
            list.tools,
            list.pages,
            list.first_page_us,
            list.first_page_cold_us,
            list.first_page_bytes
        );
        if let (Some(page), Some(us)) = (list.middle_page, list.middle_page_us) {
            print!("; page {page} {us:.1} µs");
        }
        println!(
            "; RSS after {:.1} MB",
            list.rss_after_list_kb as f64 / 1024.0
        );
    }
    for phase in &report.phases {
        println!(
            "c={:<3} {:>9.0} calls/s  p50 {:>7.1} µs  p99 {:>7.1} µs  max {:>8.1} µs  server CPU {:>6.2} µs/call  client CPU {:>5.2} µs/call  ({} calls in {:.2} s; pinned: {})",
            phase.concurrency,
            phase.calls_per_sec,
            phase.p50_us,
            phase.p99_us,
            phase.max_us,
            phase.server_cpu_us_per_call,
            phase.client_cpu_us_per_call,
            phase.calls,
            phase.seconds,
            phase.pinning,
        );
    }
    println!("peak RSS: {:.1} MB", report.peak_rss_kb as f64 / 1024.0);
    println!("server: {}", report.exit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let mut latencies: Vec<u32> = (1..=100).map(|us| us * 1000).collect();
        assert_eq!(percentile_us(&mut latencies, 0.5), 50.0);
        assert_eq!(percentile_us(&mut latencies, 0.99), 99.0);
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), 2.5);
    }

    #[test]
    fn parses_pins() {
        let pin = parse_pin("32=0/1-2").unwrap();
        assert_eq!(pin.concurrency, 32);
        assert_eq!(pin.client.cpus(), [0]);
        assert_eq!(pin.server.cpus(), [1, 2]);
        assert!(parse_pin("32=0").is_err());
    }
}
