//! The HTTP section: what sharing state through Redis costs a server, against the same
//! server keeping it in memory.
//!
//! Starts a `redis-server` of its own (a free loopback port, a temporary directory, no
//! persistence), then for every run and every cell (workload × connections) starts
//! `ours-http --http` in memory and `ours-http --http --redis` — a fresh process per
//! measurement, the order alternating from cell to cell and run to run — and drives each with
//! `mcp-httpload`. Redis is emptied (`FLUSHALL`) before every measurement of the Redis
//! server, and stopped at the end.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use mcp_loadgen::{CpuList, HttpReport, procfs};

use crate::measure::Settings;
use crate::release_dir;
use crate::report::{median, number};

/// The workloads measured (see `mcp-httpload --help`).
const WORKLOADS: [&str; 2] = ["stateless-json", "session"];
/// Connections (one call in flight on each).
const CONNECTIONS: [usize; 2] = [1, 64];

/// Where the state of the server's sessions, streams and tasks lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Store {
    Memory,
    Redis,
}

impl Store {
    fn label(self) -> &'static str {
        match self {
            Store::Memory => "in-memory",
            Store::Redis => "Redis",
        }
    }
}

/// One workload at one number of connections, both servers.
pub struct Cell {
    pub workload: &'static str,
    pub connections: usize,
    pub memory: Vec<HttpReport>,
    pub redis: Vec<HttpReport>,
    /// Redis ÷ in-memory, per run in which both were measured.
    pub calls_ratio: Vec<f64>,
    pub p50_ratio: Vec<f64>,
    pub failures: Vec<String>,
}

impl Cell {
    fn reports(&self, store: Store) -> &[HttpReport] {
        match store {
            Store::Memory => &self.memory,
            Store::Redis => &self.redis,
        }
    }
}

/// What the section measured.
pub struct HttpRuns {
    pub redis_version: String,
    pub pinning: String,
    pub runs: usize,
    pub warmup: f64,
    pub duration: f64,
    pub cells: Vec<Cell>,
}

/// The section: measured, or why not.
pub enum HttpSection {
    Measured(HttpRuns),
    NotMeasured(String),
}

/// CPUs of the servers (and Redis) and of the load generator at each number of connections.
pub(crate) struct Pins {
    /// What the driver's own thread may run on (restored after each spawn).
    allowed: CpuList,
    pub(crate) server: CpuList,
    pub(crate) client_one: CpuList,
    pub(crate) client_many: CpuList,
}

impl Pins {
    /// As the stdio benchmark pins: the servers on the second CPU; the load generator with
    /// them at one connection (no cross-core wake-up per round trip), on the first CPU
    /// above.
    pub(crate) fn plan() -> Result<Option<Pins>> {
        let allowed = procfs::allowed_cpus()?;
        let &[first, second, ..] = allowed.cpus() else {
            return Ok(None);
        };
        Ok(Some(Pins {
            server: CpuList::single(second),
            client_one: CpuList::single(second),
            client_many: CpuList::single(first),
            allowed,
        }))
    }

    pub(crate) fn client(&self, connections: usize) -> &CpuList {
        if connections == 1 {
            &self.client_one
        } else {
            &self.client_many
        }
    }

    fn describe(pins: Option<&Pins>) -> String {
        match pins {
            Some(pins) => format!(
                "servers and `redis-server` on CPU {}; the load generator on CPU {} at 1 \
                 connection (with the server, as the stdio bench at c=1), on CPU {} at 64",
                pins.server, pins.client_one, pins.client_many
            ),
            None => "not pinned (fewer than two CPUs allowed)".to_owned(),
        }
    }
}

/// Spawns `command` on `cpus` (as `taskset -c` would: the child inherits the spawning
/// thread's affinity), then restores this thread's.
fn spawn_pinned(command: &mut Command, pins: Option<&Pins>) -> Result<Child> {
    if let Some(pins) = pins {
        procfs::pin_current_thread(&pins.server)?;
    }
    let child = command.spawn();
    if let Some(pins) = pins {
        procfs::pin_current_thread(&pins.allowed)?;
    }
    Ok(child?)
}

/// `redis-server` on `PATH`, else `/usr/bin/redis-server`.
fn find_redis() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("redis-server"))
            .find(|candidate| candidate.is_file())
    });
    on_path.or_else(|| {
        let fixed = PathBuf::from("/usr/bin/redis-server");
        fixed.is_file().then_some(fixed)
    })
}

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A `redis-server` of the benchmark's own; stopped (and its directory removed) on drop.
struct RedisServer {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl RedisServer {
    fn start(binary: &Path, pins: Option<&Pins>) -> Result<Self> {
        let port = free_port()?;
        let dir =
            std::env::temp_dir().join(format!("mcp-bench-redis-{}-{port}", std::process::id()));
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let log = File::create(dir.join("redis.log"))?;
        let mut command = Command::new(binary);
        command
            .arg("--port")
            .arg(port.to_string())
            .args(["--bind", "127.0.0.1", "--dir"])
            .arg(&dir)
            .args(["--save", "", "--appendonly", "no"])
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log);
        let child = spawn_pinned(&mut command, pins)
            .with_context(|| format!("starting {}", binary.display()))?;
        let mut redis = RedisServer { child, port, dir };
        redis.wait_ready().map_err(|error| {
            let log = fs::read_to_string(redis.dir.join("redis.log")).unwrap_or_default();
            anyhow!("{error:#}; its log: {}", tail(&log, 5))
        })?;
        Ok(redis)
    }

    fn wait_ready(&mut self) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait()? {
                bail!("redis-server exited at start ({status})");
            }
            match self.command(&["PING"]) {
                Ok(reply) if reply == "+PONG" => return Ok(()),
                Ok(reply) => bail!("redis-server answered PING with {reply:?}"),
                Err(_) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
                Err(error) => return Err(error.context("redis-server did not answer PING")),
            }
        }
    }

    /// Sends one command and returns its one-line reply.
    fn command(&self, args: &[&str]) -> Result<String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port))?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        let mut request = format!("*{}\r\n", args.len());
        for arg in args {
            let _ = write!(request, "${}\r\n{arg}\r\n", arg.len());
        }
        stream.write_all(request.as_bytes())?;
        let mut reply = String::new();
        BufReader::new(stream).read_line(&mut reply)?;
        Ok(reply.trim_end().to_owned())
    }

    fn flush(&self) -> Result<()> {
        match self.command(&["FLUSHALL"])?.as_str() {
            "+OK" => Ok(()),
            reply => bail!("redis-server answered FLUSHALL with {reply:?}"),
        }
    }

    fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn redis_version(binary: &Path) -> String {
    Command::new(binary)
        .arg("--version")
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .and_then(|text| {
            text.split_whitespace()
                .find_map(|word| word.strip_prefix("v="))
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "of unknown version".to_owned())
}

/// The last `lines` lines of `text`, on one line.
pub(crate) fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    all[all.len().saturating_sub(lines)..].join(" | ")
}

/// `ours-http --http` (with `--redis` for the Redis store), or another HTTP server of the
/// benchmark; killed on drop.
pub(crate) struct OursHttp {
    pub(crate) child: Child,
    pub(crate) url: String,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl OursHttp {
    fn start(store: Store, redis: &RedisServer, pins: Option<&Pins>) -> Result<Self> {
        let mut args = vec!["--http".to_owned(), "127.0.0.1:0".to_owned()];
        if store == Store::Redis {
            args.extend(["--redis".to_owned(), redis.url()]);
        }
        Self::spawn("ours-http", &args, store.label(), pins)
    }

    /// Starts `binary` (in the release directory) with `args` and waits for the address it
    /// prints on stderr (`listening on http://…`).
    pub(crate) fn spawn(
        binary: &str,
        args: &[String],
        label: &str,
        pins: Option<&Pins>,
    ) -> Result<Self> {
        let mut command = Command::new(release_dir().join(binary));
        command.args(args);
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child =
            spawn_pinned(&mut command, pins).with_context(|| format!("starting `{binary}`"))?;
        let stderr = child.stderr.take().context("the server's stderr")?;
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        let (listening, url) = mpsc::channel();
        let lines = Arc::clone(&kept);
        // Reads the server's stderr to its end (so it never blocks on it): the address it
        // prints once it listens, then the last lines, for error messages.
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(at) = line.find("listening on http://") {
                    let _ = listening.send(line[at + "listening on ".len()..].trim().to_owned());
                }
                let mut kept = lines.lock().unwrap_or_else(|error| error.into_inner());
                if kept.len() == 20 {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
        let mut server = OursHttp {
            child,
            url: String::new(),
            stderr: kept,
        };
        match url.recv_timeout(Duration::from_secs(15)) {
            Ok(url) => {
                server.url = url;
                Ok(server)
            }
            Err(_) => {
                let _ = server.child.kill();
                let _ = server.child.wait();
                bail!(
                    "`{binary}` ({label}) did not start listening: {}",
                    server.stderr_tail()
                )
            }
        }
    }

    pub(crate) fn stderr_tail(&self) -> String {
        let kept = self
            .stderr
            .lock()
            .unwrap_or_else(|error| error.into_inner());
        let text: Vec<&str> = kept.iter().map(String::as_str).collect();
        tail(&text.join("\n"), 5)
    }
}

impl Drop for OursHttp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One measurement: a fresh server driven by `mcp-httpload`.
fn measure(
    settings: &Settings,
    store: Store,
    workload: &str,
    connections: usize,
    redis: &RedisServer,
    pins: Option<&Pins>,
) -> Result<HttpReport> {
    if store == Store::Redis {
        redis.flush()?;
    }
    let mut server = OursHttp::start(store, redis, pins)?;
    let redis_args = match store {
        Store::Redis => vec![
            "--redis-pid".to_owned(),
            redis.child.id().to_string(),
            "--redis-addr".to_owned(),
            redis.addr(),
        ],
        Store::Memory => Vec::new(),
    };
    let run = Load {
        workload,
        connections,
        label: store.label(),
        extra: &redis_args,
    };
    drive(&mut server, settings, &run, pins)
}

/// One run of `mcp-httpload` against a server.
pub(crate) struct Load<'a> {
    pub workload: &'a str,
    pub connections: usize,
    /// The server's name in the report.
    pub label: &'a str,
    /// More options for `mcp-httpload` (where Redis is, to count its work).
    pub extra: &'a [String],
}

/// Drives `server` with `mcp-httpload` as `load` says, and reads its report; fails if the
/// server exited meanwhile or the load generator failed (saying why).
pub(crate) fn drive(
    server: &mut OursHttp,
    settings: &Settings,
    load: &Load<'_>,
    pins: Option<&Pins>,
) -> Result<HttpReport> {
    let mut command = Command::new(release_dir().join("mcp-httpload"));
    command
        .args(["--url", &server.url, "--workload", load.workload])
        .args(["--connections", &load.connections.to_string()])
        .args(["--in-flight-per-connection", "1"])
        .args(["--warmup", &settings.warmup.to_string()])
        .args(["--duration", &settings.duration.to_string()])
        .args(["--server-pid", &server.child.id().to_string()])
        .args(["--name", load.label])
        .args(load.extra);
    if let Some(pins) = pins {
        command.args(["--pin", &pins.client(load.connections).to_string()]);
    }
    let output = command.output().context("running mcp-httpload")?;
    if let Some(status) = server.child.try_wait()? {
        bail!(
            "the server exited during the run ({status}): {}",
            server.stderr_tail()
        );
    }
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        bail!(
            "mcp-httpload failed ({}): {}; the server's stderr: {}",
            output.status,
            tail(&stderr, 3),
            server.stderr_tail()
        );
    }
    let line = String::from_utf8_lossy(&output.stdout);
    let line = line
        .lines()
        .rfind(|line| !line.trim().is_empty())
        .ok_or_else(|| anyhow!("mcp-httpload printed no report"))?;
    serde_json::from_str(line).context("reading mcp-httpload's report")
}

/// Runs the section; never fails the benchmark (what went wrong is in the section).
pub fn run(settings: &Settings, redis_server: Option<&Path>) -> HttpSection {
    let binary = match redis_server {
        Some(given) if given.is_file() => given.to_path_buf(),
        Some(given) => {
            return HttpSection::NotMeasured(format!(
                "there is no `redis-server` at `{}`.",
                given.display()
            ));
        }
        None => match find_redis() {
            Some(found) => found,
            None => {
                return HttpSection::NotMeasured(
                    "`redis-server` was found neither on `PATH` nor at `/usr/bin/redis-server`."
                        .to_owned(),
                );
            }
        },
    };
    match run_with(settings, &binary) {
        Ok(runs) => HttpSection::Measured(runs),
        Err(error) => HttpSection::NotMeasured(format!("{error:#}")),
    }
}

fn run_with(settings: &Settings, binary: &Path) -> Result<HttpRuns> {
    let pins = Pins::plan()?;
    let redis = RedisServer::start(binary, pins.as_ref())?;
    let mut cells: Vec<Cell> = WORKLOADS
        .iter()
        .flat_map(|&workload| {
            CONNECTIONS.iter().map(move |&connections| Cell {
                workload,
                connections,
                memory: Vec::new(),
                redis: Vec::new(),
                calls_ratio: Vec::new(),
                p50_ratio: Vec::new(),
                failures: Vec::new(),
            })
        })
        .collect();
    for run in 0..settings.runs {
        for (index, cell) in cells.iter_mut().enumerate() {
            let order = if (run + index) % 2 == 0 {
                [Store::Memory, Store::Redis]
            } else {
                [Store::Redis, Store::Memory]
            };
            let mut this_run: [Option<(f64, f64)>; 2] = [None, None];
            for store in order {
                match measure(
                    settings,
                    store,
                    cell.workload,
                    cell.connections,
                    &redis,
                    pins.as_ref(),
                ) {
                    Ok(report) => {
                        let slot = usize::from(store == Store::Redis);
                        this_run[slot] = Some((report.calls_per_sec, report.p50_us));
                        match store {
                            Store::Memory => cell.memory.push(report),
                            Store::Redis => cell.redis.push(report),
                        }
                    }
                    Err(error) => {
                        eprintln!(
                            "mcp-bench: http run {}/{} {} ×{} {}: {error:#}",
                            run + 1,
                            settings.runs,
                            cell.workload,
                            cell.connections,
                            store.label()
                        );
                        cell.failures.push(format!(
                            "{} (run {}): {error:#}",
                            store.label(),
                            run + 1
                        ));
                    }
                }
            }
            if let [Some(memory), Some(redis)] = this_run {
                cell.calls_ratio.push(redis.0 / memory.0);
                cell.p50_ratio.push(redis.1 / memory.1);
                eprintln!(
                    "mcp-bench: http run {}/{} {:<14} ×{:<2} in-memory {:.0}/s, Redis {:.0}/s ({:.2}×)",
                    run + 1,
                    settings.runs,
                    cell.workload,
                    cell.connections,
                    memory.0,
                    redis.0,
                    redis.0 / memory.0
                );
            }
        }
    }
    Ok(HttpRuns {
        redis_version: redis_version(binary),
        pinning: Pins::describe(pins.as_ref()),
        runs: settings.runs,
        warmup: settings.warmup,
        duration: settings.duration,
        cells,
    })
}

/// The median of `read` over a cell's reports of one store.
fn pick(cell: &Cell, store: Store, read: fn(&HttpReport) -> Option<f64>) -> Option<f64> {
    median(cell.reports(store).iter().filter_map(read).collect())
}

fn figure(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "–".to_owned(), |value| number(value, digits))
}

fn range(values: &[f64], digits: usize) -> String {
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if values.is_empty() {
        "–".to_owned()
    } else if digits == 2 {
        format!("{min:.2}–{max:.2}×")
    } else {
        format!("{}–{}", number(min, digits), number(max, digits))
    }
}

fn ratio(values: &[f64]) -> String {
    median(values.to_vec()).map_or_else(|| "–".to_owned(), |ratio| format!("{ratio:.2}×"))
}

/// The section of the Markdown report.
pub fn render(out: &mut String, section: &HttpSection) {
    out.push_str("## HTTP: the cost of sharing state\n\n");
    let runs = match section {
        HttpSection::NotMeasured(why) => {
            let _ = writeln!(out, "Not measured: {why}\n");
            return;
        }
        HttpSection::Measured(runs) => runs,
    };
    let _ = writeln!(
        out,
        "`ours-http --http` keeping sessions in memory against `ours-http --http --redis` sharing them \
         through a local `redis-server` {} (loopback, no persistence), driven by \
         `mcp-httpload`: keep-alive HTTP/1.1 connections, one `tools/call` of the echo tool in \
         flight on each. `stateless-json`: 2026-07-28 requests, JSON answers; `session`: a \
         2025-11-25 session per connection, answers over SSE. {} run{}, a fresh server per \
         measurement, both servers measured in every run (order alternating), warm-up {} s, \
         measured {} s; medians, and the ratio is the median of each run's Redis ÷ in-memory. \
         Pinning: {}.\n",
        runs.redis_version,
        runs.runs,
        if runs.runs == 1 { "" } else { "s" },
        runs.warmup,
        runs.duration,
        runs.pinning,
    );
    out.push_str(
        "| workload | connections | in-memory calls/s | Redis calls/s | Redis ÷ in-memory | \
         in-memory p50 µs | Redis p50 µs | Redis ÷ in-memory (p50) |\n|---|---|---|---|---|---|---|---|\n",
    );
    for cell in &runs.cells {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            cell.workload,
            cell.connections,
            figure(pick(cell, Store::Memory, |r| Some(r.calls_per_sec)), 0),
            figure(pick(cell, Store::Redis, |r| Some(r.calls_per_sec)), 0),
            ratio(&cell.calls_ratio),
            figure(pick(cell, Store::Memory, |r| Some(r.p50_us)), 1),
            figure(pick(cell, Store::Redis, |r| Some(r.p50_us)), 1),
            ratio(&cell.p50_ratio),
        );
    }
    out.push_str(
        "\nWhere the time goes (medians; CPU per call is utime + stime from `/proc/<pid>/stat` \
         over the window, divided by the calls in it; Redis reads per call are about its round \
         trips per call at 1 connection):\n\n\
         | workload | connections | server CPU µs/call in-memory | server CPU µs/call Redis | \
         `redis-server` CPU µs/call | Redis commands/call | Redis reads/call | p99 µs in-memory | \
         p99 µs Redis | session set-up µs in-memory | session set-up µs Redis | peak RSS MB in-memory | \
         peak RSS MB Redis | load generator CPU µs/call |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for cell in &runs.cells {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell.workload,
            cell.connections,
            figure(pick(cell, Store::Memory, |r| r.server_cpu_us_per_call), 2),
            figure(pick(cell, Store::Redis, |r| r.server_cpu_us_per_call), 2),
            figure(pick(cell, Store::Redis, |r| r.redis_cpu_us_per_call), 2),
            figure(pick(cell, Store::Redis, |r| r.redis_commands_per_call), 1),
            figure(pick(cell, Store::Redis, |r| r.redis_reads_per_call), 1),
            figure(pick(cell, Store::Memory, |r| Some(r.p99_us)), 1),
            figure(pick(cell, Store::Redis, |r| Some(r.p99_us)), 1),
            figure(pick(cell, Store::Memory, |r| r.session_setup_us), 0),
            figure(pick(cell, Store::Redis, |r| r.session_setup_us), 0),
            figure(
                pick(cell, Store::Memory, |r| r
                    .server_peak_rss_kb
                    .map(|kb| kb as f64 / 1024.0)),
                1
            ),
            figure(
                pick(cell, Store::Redis, |r| r
                    .server_peak_rss_kb
                    .map(|kb| kb as f64 / 1024.0)),
                1
            ),
            // Both servers' runs together: the load generator does the same work for either.
            figure(
                median(
                    cell.memory
                        .iter()
                        .chain(&cell.redis)
                        .map(|r| r.client_cpu_us_per_call)
                        .collect()
                ),
                2
            ),
        );
    }
    out.push('\n');
    if runs.runs > 1 {
        out.push_str(
            "Spread over the runs (min–max):\n\n| workload | connections | in-memory calls/s | \
             Redis calls/s | Redis ÷ in-memory (calls/s) | Redis ÷ in-memory (p50) |\n|---|---|---|---|---|---|\n",
        );
        for cell in &runs.cells {
            let rates = |store| -> Vec<f64> {
                cell.reports(store)
                    .iter()
                    .map(|r| r.calls_per_sec)
                    .collect()
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                cell.workload,
                cell.connections,
                range(&rates(Store::Memory), 0),
                range(&rates(Store::Redis), 0),
                range(&cell.calls_ratio, 2),
                range(&cell.p50_ratio, 2),
            );
        }
        out.push('\n');
    }
    command_mix(out, runs);
    let unused = runs.cells.iter().all(|cell| {
        pick(cell, Store::Redis, |r| r.redis_commands_per_call)
            .is_none_or(|commands| commands < 0.01)
    });
    if unused && runs.cells.iter().any(|cell| !cell.redis.is_empty()) {
        out.push_str(
            "- Redis processed no commands during any measured window: this build of the server \
             does not share its state through Redis yet (`.redis(url)` accepted, state kept in \
             memory), so the two columns measure the same server.\n",
        );
    }
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

/// Which Redis commands a call costs, per cell (medians over the runs).
fn command_mix(out: &mut String, runs: &HttpRuns) {
    let mut lines = Vec::new();
    for cell in &runs.cells {
        let mut names: Vec<&String> = cell
            .redis
            .iter()
            .filter_map(|report| report.redis_command_mix.as_ref())
            .flat_map(|mix| mix.keys())
            .collect();
        names.sort();
        names.dedup();
        let mut mix: Vec<(f64, &String)> = names
            .into_iter()
            .filter_map(|name| {
                let per_call = median(
                    cell.redis
                        .iter()
                        .filter_map(|report| report.redis_command_mix.as_ref())
                        .map(|mix| mix.get(name).copied().unwrap_or(0.0))
                        .collect(),
                )?;
                (per_call >= 0.05).then_some((per_call, name))
            })
            .collect();
        if mix.is_empty() {
            continue;
        }
        mix.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        let mix: Vec<String> = mix
            .iter()
            .map(|(per_call, name)| format!("{per_call:.1} `{}`", name.to_uppercase()))
            .collect();
        lines.push(format!(
            "- {} ×{}: {}",
            cell.workload,
            cell.connections,
            mix.join(", ")
        ));
    }
    if !lines.is_empty() {
        out.push_str("Redis commands per call (`INFO commandstats` over the window, medians):\n\n");
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_ranges_and_ratios() {
        assert_eq!(range(&[0.5, 0.25, 0.75], 2), "0.25–0.75×");
        assert_eq!(range(&[1500.0, 1000.0], 0), "1,000–1,500");
        assert_eq!(range(&[], 0), "–");
        assert_eq!(ratio(&[0.5, 0.7, 0.6]), "0.60×");
        assert_eq!(ratio(&[]), "–");
        assert_eq!(tail("a\n\nb\nc\n", 2), "b | c");
    }
}
