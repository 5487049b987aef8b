//! `mcp-httpload`: drives `tools/call` (or `tools/list`) against an MCP server over
//! Streamable HTTP.
//!
//! ```text
//! mcp-httpload --url http://127.0.0.1:8080/mcp --workload session --connections 64 \
//!     --duration 3 --warmup 1 --server-pid 1234 [--redis-pid 1235 --redis-addr 127.0.0.1:6379]
//! ```
//!
//! Opens `--connections` keep-alive HTTP/1.1 connections (and, for the `session` workload,
//! one session on each), then each connection sends one `tools/call` of the echo tool at a
//! time, the next as soon as the previous answer has been read and checked, through a
//! warm-up and a measured window. Every answer is checked: status 200, the response to the
//! id sent, one text block holding the text sent (for `tools-list`: a list naming the tool;
//! SSE bodies are searched for the event carrying the response); a wrong answer aborts the
//! run. Prints one JSON line
//! ([`mcp_loadgen::HttpReport`]): calls/s, latency, and — with the processes' ids — the
//! server's and Redis's CPU per call from `/proc/<pid>/stat`, Redis commands per call, and
//! the server's peak RSS.
//!
//! The client is hyper 1's connection API (`hyper::client::conn::http1`, with hyper-util's
//! tokio glue) rather than hyper-util's pooled `Client` or reqwest: the benchmark needs
//! exactly N connections, each carrying its own calls one after the other, which the
//! connection API gives by construction, while a pool decides by itself which connection a
//! request takes (and when to open another) and reqwest adds its pool, redirect and
//! timeout layers to every request — client CPU that would be counted against nothing
//! and that, at 64 connections on one core, would eat into the load the server sees. The
//! load generator's own CPU per call is in the report (`client_cpu_us_per_call`).
//!
//! By default everything runs on one thread (a `current_thread` runtime), meant to be
//! pinned to a core of its own with `--pin`; `--threads N` uses a multi-thread runtime.

mod redis_info;
mod workload;

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use bytes::Bytes;
use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::header::{ACCEPT, CONTENT_TYPE, HOST, HeaderName, HeaderValue};
use hyper::{Method, Request, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use mcp_loadgen::{CpuList, HttpReport, procfs};
use tokio::net::TcpStream;
use tokio::task::JoinSet;

use crate::redis_info::RedisInfo;
use crate::workload::{CallTemplate, Framing, Workload};

const MCP_PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");
const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");

/// Connection number in the high bits of a call's id, the call's sequence in the low ones.
const CONNECTION_SHIFT: u32 = 40;

#[derive(Parser, Debug)]
#[command(version, about = "Load generator for MCP servers over Streamable HTTP", long_about = None)]
struct Args {
    /// The MCP endpoint, e.g. `http://127.0.0.1:8080/mcp`.
    #[arg(long)]
    url: String,

    /// What each connection does.
    #[arg(long, value_enum, default_value = "stateless-json")]
    workload: Workload,

    /// Keep-alive connections, each with its own calls (and session).
    #[arg(long, default_value_t = 1)]
    connections: usize,

    /// Requests in flight per connection. HTTP/1.1 carries one at a time (no pipelining),
    /// so 1 is the only value; more calls in flight means more connections.
    #[arg(long, default_value_t = 1)]
    in_flight_per_connection: usize,

    /// Warm-up before the measured window, in seconds (not measured).
    #[arg(long, default_value_t = 2.0)]
    warmup: f64,

    /// Length of the measured window, in seconds.
    #[arg(long, default_value_t = 5.0)]
    duration: f64,

    /// The server's process id: its CPU per call and peak RSS are reported.
    #[arg(long)]
    server_pid: Option<u32>,

    /// `redis-server`'s process id: its CPU per call is reported.
    #[arg(long)]
    redis_pid: Option<u32>,

    /// Redis's `host:port`: the commands it processed per call are reported.
    #[arg(long)]
    redis_addr: Option<String>,

    /// Pin the load generator to these CPUs (`taskset -c` syntax).
    #[arg(long)]
    pin: Option<CpuList>,

    /// Runtime threads of the load generator (1: a `current_thread` runtime).
    #[arg(long, default_value_t = 1)]
    threads: usize,

    /// The tool called: it must echo its `text` argument as one text block (the
    /// `tools-list` workload checks that the list names it).
    #[arg(long, default_value = "echo")]
    tool: String,

    /// The `text` argument sent with every call.
    #[arg(long, default_value = "The quick brown fox jumps over the lazy dog.")]
    text: String,

    /// A label for the report (default: the URL).
    #[arg(long)]
    name: Option<String>,

    /// Longest wait for one answer, in seconds, before the run fails.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(report) => match serde_json::to_string(&report) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("mcp-httpload: {error}");
                ExitCode::FAILURE
            }
        },
        Err(error) => {
            eprintln!(
                "mcp-httpload: {} against {}: {error:#}",
                args.workload.name(),
                args.url
            );
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<HttpReport> {
    if args.in_flight_per_connection != 1 {
        bail!(
            "HTTP/1.1 carries one request at a time on a connection (no pipelining): \
             --in-flight-per-connection must be 1; open more connections instead"
        );
    }
    if args.connections == 0 || args.connections >= 1 << (64 - CONNECTION_SHIFT) {
        bail!("--connections must be between 1 and {}", 1u64 << 20);
    }
    if !(args.warmup >= 0.0 && args.duration > 0.0 && args.timeout > 0.0) {
        bail!("--warmup must be at least 0 and --duration and --timeout more than 0");
    }
    // Threads the runtime starts inherit the pinning of the thread that builds it.
    if let Some(cpus) = &args.pin {
        procfs::pin_current_thread(cpus)?;
    }
    let runtime = match args.threads {
        0 | 1 => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?,
        threads => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()?,
    };
    runtime.block_on(load(args))
}

/// Where requests go.
struct Target {
    /// `host:port`, to connect to.
    authority: String,
    /// The `Host` header.
    host: HeaderValue,
    /// The request target (the endpoint's path).
    path: Uri,
}

impl Target {
    fn parse(url: &str) -> Result<Self> {
        let uri: Uri = url
            .parse()
            .with_context(|| format!("`{url}` is not a URL"))?;
        if uri.scheme_str() != Some("http") {
            bail!("`{url}`: only http:// URLs are supported");
        }
        let authority = uri
            .authority()
            .ok_or_else(|| anyhow!("`{url}` names no host"))?;
        let port = authority.port_u16().unwrap_or(80);
        let path = uri.path_and_query().map_or("/", |path| path.as_str());
        Ok(Target {
            authority: format!("{}:{port}", authority.host()),
            host: HeaderValue::from_str(authority.as_str())?,
            path: path.parse()?,
        })
    }
}

/// What every connection task shares.
struct Shared {
    target: Target,
    workload: Workload,
    template: CallTemplate,
    text: String,
    tool: HeaderValue,
    tool_name: String,
    timeout: Duration,
    epoch: Instant,
    /// Nanoseconds since `epoch` at which the measured window began and ended
    /// (`u64::MAX` until then).
    window_start: AtomicU64,
    window_end: AtomicU64,
}

impl Shared {
    fn now_ns(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// An answer: its status, `Mcp-Session-Id`, framing and whole body.
struct Answer {
    status: StatusCode,
    session: Option<HeaderValue>,
    framing: Option<Framing>,
    body: Bytes,
}

/// One keep-alive connection (and its session, if any).
struct Connection {
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    session: Option<HeaderValue>,
}

impl Connection {
    async fn open(target: &Target) -> Result<Self> {
        let stream = TcpStream::connect(&target.authority)
            .await
            .with_context(|| format!("connecting to {}", target.authority))?;
        stream.set_nodelay(true)?;
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .context("the HTTP/1.1 handshake")?;
        // Drives the connection; its end shows up as an error of the next request.
        tokio::spawn(connection);
        Ok(Connection {
            sender,
            session: None,
        })
    }

    async fn exchange(
        &mut self,
        request: Request<Full<Bytes>>,
        timeout: Duration,
    ) -> Result<Answer> {
        let answer = async {
            self.sender.ready().await.context("the connection closed")?;
            let response = self
                .sender
                .send_request(request)
                .await
                .context("sending a request")?;
            let (parts, body) = response.into_parts();
            let body = body
                .collect()
                .await
                .context("reading an answer")?
                .to_bytes();
            let content_type = parts
                .headers
                .get(CONTENT_TYPE)
                .and_then(|value| value.to_str().ok());
            Ok(Answer {
                status: parts.status,
                session: parts.headers.get(MCP_SESSION_ID).cloned(),
                framing: Framing::of(content_type).ok(),
                body,
            })
        };
        tokio::time::timeout(timeout, answer)
            .await
            .map_err(|_| anyhow!("no answer within {timeout:?}"))?
    }

    /// A POST of `body` with the headers of `shared`'s workload (and session).
    fn post(
        &self,
        shared: &Shared,
        body: Bytes,
        stateless_call: bool,
    ) -> Result<Request<Full<Bytes>>> {
        let workload = shared.workload;
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(shared.target.path.clone())
            .header(HOST, shared.target.host.clone())
            .header(CONTENT_TYPE, APPLICATION_JSON)
            .header(ACCEPT, HeaderValue::from_static(workload.accept()));
        if stateless_call {
            request = request
                .header(
                    MCP_PROTOCOL_VERSION,
                    HeaderValue::from_static(workload.protocol_version()),
                )
                .header(MCP_METHOD, HeaderValue::from_static(workload.method()));
            // The routing headers name what the body names: `tools/list` names no tool.
            if workload != Workload::ToolsList {
                request = request.header(MCP_NAME, shared.tool.clone());
            }
        }
        if let Some(session) = &self.session {
            request = request
                .header(
                    MCP_PROTOCOL_VERSION,
                    HeaderValue::from_static(workload.protocol_version()),
                )
                .header(MCP_SESSION_ID, session.clone());
        }
        Ok(request.body(Full::new(body))?)
    }

    /// `initialize` then `notifications/initialized` (the `session` workload); returns how
    /// long the two took.
    async fn open_session(&mut self, shared: &Shared, id: u64) -> Result<Duration> {
        let started = Instant::now();
        let request = self.post(shared, workload::initialize_body(id), false)?;
        let answer = self.exchange(request, shared.timeout).await?;
        expect_status(&answer, StatusCode::OK, "initialize")?;
        let framing = answer
            .framing
            .ok_or_else(|| anyhow!("initialize answered without a JSON or SSE Content-Type"))?;
        workload::check_initialize(&answer.body, framing, id)?;
        self.session = Some(
            answer
                .session
                .ok_or_else(|| anyhow!("initialize answered without Mcp-Session-Id"))?,
        );
        let request = self.post(
            shared,
            Bytes::from_static(workload::INITIALIZED_BODY.as_bytes()),
            false,
        )?;
        let answer = self.exchange(request, shared.timeout).await?;
        expect_status(&answer, StatusCode::ACCEPTED, "notifications/initialized")?;
        Ok(started.elapsed())
    }

    /// Ends the session (`DELETE`), so runs do not pile sessions up in the server.
    async fn close_session(&mut self, shared: &Shared) -> Result<()> {
        let Some(session) = self.session.take() else {
            return Ok(());
        };
        let request = Request::builder()
            .method(Method::DELETE)
            .uri(shared.target.path.clone())
            .header(HOST, shared.target.host.clone())
            .header(
                MCP_PROTOCOL_VERSION,
                HeaderValue::from_static(shared.workload.protocol_version()),
            )
            .header(MCP_SESSION_ID, session)
            .body(Full::new(Bytes::new()))?;
        let answer = self.exchange(request, shared.timeout).await?;
        // 405: the server does not let clients end sessions.
        if !(answer.status.is_success() || answer.status == StatusCode::METHOD_NOT_ALLOWED) {
            bail!(
                "DELETE of the session answered {}: {}",
                answer.status,
                workload::excerpt(&answer.body)
            );
        }
        Ok(())
    }
}

fn expect_status(answer: &Answer, expected: StatusCode, what: &str) -> Result<()> {
    if answer.status != expected {
        bail!(
            "{what} answered {} (expected {expected}): {}",
            answer.status,
            workload::excerpt(&answer.body)
        );
    }
    Ok(())
}

/// What one connection saw.
#[derive(Default)]
struct Seen {
    latencies_ns: Vec<u32>,
    sse: u64,
    json: u64,
}

/// Calls one after the other until the measured window has ended.
async fn drive(shared: Arc<Shared>, index: usize, mut connection: Connection) -> Result<Seen> {
    let mut seen = Seen::default();
    let stateless = shared.workload.stateless();
    for sequence in 1u64.. {
        let id = (index as u64) << CONNECTION_SHIFT | sequence;
        let request = connection.post(&shared, shared.template.body(id), stateless)?;
        let sent = shared.now_ns();
        let answer = connection
            .exchange(request, shared.timeout)
            .await
            .with_context(|| format!("connection {index}, call {sequence}"))?;
        let done = shared.now_ns();
        let method = shared.workload.method();
        let checked = expect_status(&answer, StatusCode::OK, method).and_then(|()| {
            let framing = answer
                .framing
                .ok_or_else(|| anyhow!("an answer without a JSON or SSE Content-Type"))?;
            match shared.workload {
                Workload::ToolsList => {
                    workload::check_tools_list(&answer.body, framing, id, &shared.tool_name)?;
                }
                _ => workload::check_echo(&answer.body, framing, id, &shared.text)?,
            }
            Ok(framing)
        });
        match checked.with_context(|| format!("connection {index}, call {sequence}"))? {
            Framing::Sse => seen.sse += 1,
            Framing::Json => seen.json += 1,
        }
        if done >= shared.window_end.load(Ordering::Relaxed) {
            break;
        }
        if done >= shared.window_start.load(Ordering::Relaxed) {
            seen.latencies_ns
                .push(u32::try_from(done - sent).unwrap_or(u32::MAX));
        }
    }
    connection
        .close_session(&shared)
        .await
        .with_context(|| format!("connection {index}"))?;
    Ok(seen)
}

/// CPU time of the server and of Redis, and the load generator's own.
struct Cpu {
    server: Option<Duration>,
    redis: Option<Duration>,
    client: Duration,
}

impl Cpu {
    fn read(args: &Args) -> Result<Self> {
        Ok(Cpu {
            server: args.server_pid.map(procfs::cpu_time).transpose()?,
            redis: args.redis_pid.map(procfs::cpu_time).transpose()?,
            client: procfs::own_cpu_time()?,
        })
    }
}

async fn load(args: &Args) -> Result<HttpReport> {
    let target = Target::parse(&args.url)?;
    let mut redis = match &args.redis_addr {
        Some(addr) => Some(RedisInfo::connect(addr).await?),
        None => None,
    };
    let mut shared = Shared {
        target,
        workload: args.workload,
        template: CallTemplate::new(args.workload, &args.tool, &args.text)?,
        text: args.text.clone(),
        tool: HeaderValue::from_str(&args.tool)?,
        tool_name: args.tool.clone(),
        timeout: Duration::from_secs_f64(args.timeout),
        epoch: Instant::now(),
        window_start: AtomicU64::new(u64::MAX),
        window_end: AtomicU64::new(u64::MAX),
    };

    // Every connection (and session) is open before the clock starts.
    let shared_setup = Arc::new(shared);
    let mut setups = JoinSet::new();
    for index in 0..args.connections {
        let shared = Arc::clone(&shared_setup);
        setups.spawn(async move {
            let mut connection = Connection::open(&shared.target).await?;
            let setup = match shared.workload {
                Workload::Session => Some(connection.open_session(&shared, 0).await?),
                _ => None,
            };
            anyhow::Ok((index, connection, setup))
        });
    }
    let mut connections = Vec::with_capacity(args.connections);
    let mut setup_us = Vec::new();
    while let Some(opened) = setups.join_next().await {
        let (index, connection, setup) = opened
            .context("a connection task panicked")?
            .context("opening the connections")?;
        connections.push((index, connection));
        setup_us.extend(setup.map(|setup| setup.as_secs_f64() * 1e6));
    }
    shared = Arc::into_inner(shared_setup).context("the setup tasks still hold the state")?;
    shared.epoch = Instant::now();
    let shared = Arc::new(shared);

    let mut tasks = JoinSet::new();
    for (index, connection) in connections {
        tasks.spawn(drive(Arc::clone(&shared), index, connection));
    }
    // A task ends only once the window has: one that ends before has failed.
    let early_end = |ended: Option<Result<Result<Seen>, tokio::task::JoinError>>| -> anyhow::Error {
        match ended {
            Some(Ok(Err(error))) => error,
            Some(Err(error)) => anyhow!("a connection task failed: {error}"),
            Some(Ok(Ok(_))) | None => anyhow!("a connection ended before the measured window"),
        }
    };
    let warmup = Duration::from_secs_f64(args.warmup);
    tokio::select! {
        () = tokio::time::sleep(warmup) => {}
        ended = tasks.join_next() => return Err(early_end(ended)),
    }
    let redis_before = match &mut redis {
        Some(redis) => Some(redis.counters().await?),
        None => None,
    };
    let before = Cpu::read(args)?;
    let window_start = shared.now_ns();
    shared.window_start.store(window_start, Ordering::Relaxed);
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs_f64(args.duration)) => {}
        ended = tasks.join_next() => return Err(early_end(ended)),
    }
    let window_end = shared.now_ns();
    shared.window_end.store(window_end, Ordering::Relaxed);
    let after = Cpu::read(args)?;
    let redis_after = match &mut redis {
        Some(redis) => Some(redis.counters().await?),
        None => None,
    };
    let redis_work = redis_before
        .zip(redis_after)
        .map(|(before, after)| before.since(&after));

    let mut latencies = Vec::new();
    let (mut sse_answers, mut json_answers) = (0, 0);
    while let Some(ended) = tasks.join_next().await {
        let seen = ended.context("a connection task panicked")??;
        latencies.extend(seen.latencies_ns);
        sse_answers += seen.sse;
        json_answers += seen.json;
    }

    let calls = latencies.len() as u64;
    if calls == 0 {
        bail!("no call was answered inside the measured window");
    }
    let seconds = Duration::from_nanos(window_end - window_start).as_secs_f64();
    let per_call = |before: Option<Duration>, after: Option<Duration>| {
        Some(after?.saturating_sub(before?).as_secs_f64() * 1e6 / calls as f64)
    };
    Ok(HttpReport {
        target: args.name.clone().unwrap_or_else(|| args.url.clone()),
        workload: args.workload.name().to_owned(),
        connections: args.connections,
        in_flight_per_connection: args.in_flight_per_connection,
        pinning: args
            .pin
            .as_ref()
            .map_or("none".to_owned(), CpuList::to_string),
        calls,
        seconds,
        calls_per_sec: calls as f64 / seconds,
        p50_us: percentile_us(&mut latencies, 0.50),
        p99_us: percentile_us(&mut latencies, 0.99),
        max_us: latencies
            .iter()
            .max()
            .map_or(0.0, |&ns| f64::from(ns) / 1e3),
        sse_answers,
        json_answers,
        session_setup_us: median(&mut setup_us),
        server_cpu_us_per_call: per_call(before.server, after.server),
        redis_cpu_us_per_call: per_call(before.redis, after.redis),
        redis_commands_per_call: redis_work
            .as_ref()
            .map(|work| work.commands as f64 / calls as f64),
        redis_reads_per_call: redis_work
            .as_ref()
            .map(|work| work.reads as f64 / calls as f64),
        redis_command_mix: redis_work.map(|work| {
            work.by_command
                .into_iter()
                .map(|(name, count)| (name, count as f64 / calls as f64))
                .collect()
        }),
        client_cpu_us_per_call: after.client.saturating_sub(before.client).as_secs_f64() * 1e6
            / calls as f64,
        server_peak_rss_kb: args
            .server_pid
            .map(|pid| procfs::status_kb(pid, "VmHWM"))
            .transpose()?,
    })
}

fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => None,
        n if n % 2 == 1 => Some(values[n / 2]),
        n => Some((values[n / 2 - 1] + values[n / 2]) / 2.0),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_targets() {
        let target = Target::parse("http://127.0.0.1:8080/mcp").unwrap();
        assert_eq!(target.authority, "127.0.0.1:8080");
        assert_eq!(target.host, "127.0.0.1:8080");
        assert_eq!(target.path, "/mcp");
        let target = Target::parse("http://localhost").unwrap();
        assert_eq!(target.authority, "localhost:80");
        assert_eq!(target.path, "/");
        assert!(Target::parse("https://example.com/mcp").is_err());
    }

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let mut latencies: Vec<u32> = (1..=100).map(|us| us * 1000).collect();
        assert_eq!(percentile_us(&mut latencies, 0.5), 50.0);
        assert_eq!(percentile_us(&mut latencies, 0.99), 99.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0, 10.0]), Some(2.5));
        assert_eq!(median(&mut []), None);
    }
}
