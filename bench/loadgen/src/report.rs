//! What one load-generator run measured, as printed with `--json`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Everything measured against one server process (plus the extra start-up spawns).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The label given with `--name`, or the command line.
    pub server: String,
    /// Spawn → `initialize` response, in milliseconds: the median of all samples.
    pub startup_ms: f64,
    /// Every start-up sample, in milliseconds (the measured connection's first).
    pub startup_samples_ms: Vec<f64>,
    /// The `protocolVersion` the server answered `initialize` with.
    pub protocol_version: String,
    /// Resident set size once the handshake is done and the server has settled (kB).
    pub idle_rss_kb: u64,
    /// `tools/list` latency and what the listing walk found.
    pub list: Option<ListReport>,
    /// One entry per concurrency level, in the order run.
    pub phases: Vec<PhaseReport>,
    /// High-water mark of the server's resident set (`VmHWM`) at the end (kB).
    pub peak_rss_kb: u64,
    /// How the server exited after its stdin was closed.
    pub exit: String,
}

/// `tools/list`: one walk over every page, then repeated requests for single pages.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ListReport {
    /// Pages the walk followed (`nextCursor` chain).
    pub pages: usize,
    /// Tools listed over all pages.
    pub tools: usize,
    /// Bytes of the first page's response line.
    pub first_page_bytes: usize,
    /// The very first `tools/list` request of the connection (µs): anything the server
    /// prepares lazily is paid here.
    pub first_page_cold_us: f64,
    /// Median latency of the first page, after the walk (µs).
    pub first_page_us: f64,
    /// The page in the middle of the listing (by cursor), if there is more than one.
    pub middle_page: Option<usize>,
    /// Median latency of that page (µs).
    pub middle_page_us: Option<f64>,
    /// Requests per median.
    pub samples: usize,
    /// Resident set size after the walk and the samples (kB).
    pub rss_after_list_kb: u64,
}

/// One closed-loop load phase: `concurrency` `tools/call` requests kept in flight.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PhaseReport {
    /// Requests kept in flight.
    pub concurrency: usize,
    /// How the processes were pinned, e.g. `client 1, server 1`, or `none`.
    pub pinning: String,
    /// Calls answered inside the measured window.
    pub calls: u64,
    /// Length of the measured window (s).
    pub seconds: f64,
    /// `calls / seconds`.
    pub calls_per_sec: f64,
    /// Median send → receive latency (µs).
    pub p50_us: f64,
    /// 99th percentile latency (µs).
    pub p99_us: f64,
    /// Largest latency seen (µs).
    pub max_us: f64,
    /// Server utime + stime over the window, per call (µs).
    pub server_cpu_us_per_call: f64,
    /// The load generator's own utime + stime over the window, per call (µs).
    pub client_cpu_us_per_call: f64,
}

/// One `mcp-httpload` run: `tools/call` (or `tools/list`) over keep-alive HTTP connections
/// against a server that is already running (one JSON line on stdout).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HttpReport {
    /// The label given with `--name`, or the URL.
    pub target: String,
    /// `stateless-json`, `stateless-sse`, `session` or `tools-list`.
    pub workload: String,
    /// Keep-alive connections, each with its own calls (and, for `session`, its own session).
    pub connections: usize,
    /// Requests in flight on each connection (HTTP/1.1 without pipelining: 1).
    pub in_flight_per_connection: usize,
    /// Where the load generator ran (`taskset -c` list), or `none`.
    pub pinning: String,
    /// Calls answered inside the measured window.
    pub calls: u64,
    /// Length of the measured window (s).
    pub seconds: f64,
    /// `calls / seconds`.
    pub calls_per_sec: f64,
    /// Median send → whole answer received latency (µs).
    pub p50_us: f64,
    /// 99th percentile latency (µs).
    pub p99_us: f64,
    /// Largest latency seen (µs).
    pub max_us: f64,
    /// Answers (over the whole run, warm-up included) that came as an SSE stream.
    pub sse_answers: u64,
    /// Answers that came as a single JSON body.
    pub json_answers: u64,
    /// Median time to open a session (`initialize` and `notifications/initialized`, both
    /// answered), per connection (µs); `session` only.
    pub session_setup_us: Option<f64>,
    /// The server's utime + stime over the window, per call (µs), with `--server-pid`.
    pub server_cpu_us_per_call: Option<f64>,
    /// `redis-server`'s utime + stime over the window, per call (µs), with `--redis-pid`.
    pub redis_cpu_us_per_call: Option<f64>,
    /// Commands Redis processed over the window, per call (`INFO stats`
    /// `total_commands_processed`), with `--redis-addr`.
    pub redis_commands_per_call: Option<f64>,
    /// Reads Redis made from client sockets over the window, per call (`INFO stats`
    /// `total_reads_processed`), with `--redis-addr`: about the round trips to Redis per call
    /// when one call is in flight (requests in flight together may share a read).
    pub redis_reads_per_call: Option<f64>,
    /// Calls of each Redis command over the window, per call (`INFO commandstats`), with
    /// `--redis-addr`.
    pub redis_command_mix: Option<BTreeMap<String, f64>>,
    /// The load generator's own utime + stime over the window, per call (µs).
    pub client_cpu_us_per_call: f64,
    /// The server's resident set high-water mark (`VmHWM`) at the end of the run (kB),
    /// with `--server-pid`: since the server started, not since this run did.
    pub server_peak_rss_kb: Option<u64>,
}
