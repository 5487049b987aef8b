//! What one load-generator run measured, as printed with `--json`.

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
