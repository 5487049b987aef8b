//! The runtime's instruments: the two histograms of the MCP semantic conventions, and two of
//! our own. Each is made once per meter the server records into (usually one; two when a
//! Prometheus endpoint has a provider of its own beside the application's).

use std::sync::Arc;

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Histogram, Meter, UpDownCounter};
use opentelemetry_sdk::metrics::SdkMeterProvider;

use super::attributes;

/// The bucket boundaries the conventions recommend for both duration histograms, in seconds.
const DURATION_BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// `mcp.server.operation.duration` (semantic conventions).
pub const OPERATION_DURATION: &str = "mcp.server.operation.duration";
/// `mcp.server.session.duration` (semantic conventions).
pub const SESSION_DURATION: &str = "mcp.server.session.duration";
/// `mcp.server.operation.active`: ours, not a semantic convention.
pub const OPERATIONS_ACTIVE: &str = "mcp.server.operation.active";
/// `mcp.server.rate_limit.refusals`: ours, not a semantic convention.
pub const RATE_LIMIT_REFUSALS: &str = "mcp.server.rate_limit.refusals";

/// The instruments of one server, in every meter it records into. Cloned per request.
#[derive(Clone)]
pub(crate) struct Metrics {
    inner: Arc<Inner>,
}

struct Inner {
    sinks: Vec<Instruments>,
    /// A provider made for this server (its Prometheus endpoint's), kept alive with it.
    _own: Option<SdkMeterProvider>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Metrics")
            .field("meters", &self.inner.sinks.len())
            .finish()
    }
}

struct Instruments {
    operation_duration: Histogram<f64>,
    session_duration: Histogram<f64>,
    active: UpDownCounter<i64>,
    refusals: Counter<u64>,
}

impl Instruments {
    fn new(meter: &Meter) -> Instruments {
        Instruments {
            operation_duration: meter
                .f64_histogram(OPERATION_DURATION)
                .with_unit("s")
                .with_description(
                    "MCP request duration as observed on the receiver from the time it was \
                     received until the result is sent.",
                )
                .with_boundaries(DURATION_BOUNDARIES.to_vec())
                .build(),
            session_duration: meter
                .f64_histogram(SESSION_DURATION)
                .with_unit("s")
                .with_description("The duration of the MCP session as observed on the MCP server.")
                .with_boundaries(DURATION_BOUNDARIES.to_vec())
                .build(),
            active: meter
                .i64_up_down_counter(OPERATIONS_ACTIVE)
                .with_unit("{request}")
                .with_description("MCP requests being served (mcp-runtime's own metric).")
                .build(),
            refusals: meter
                .u64_counter(RATE_LIMIT_REFUSALS)
                .with_unit("{call}")
                .with_description(
                    "Tool calls refused by a rate limit, the tool's or the server's \
                     (mcp-runtime's own metric).",
                )
                .build(),
        }
    }
}

impl Metrics {
    /// Instruments in each of `meters`; `own` is kept alive as long as they are used.
    pub(crate) fn new(meters: &[Meter], own: Option<SdkMeterProvider>) -> Metrics {
        Metrics {
            inner: Arc::new(Inner {
                sinks: meters.iter().map(Instruments::new).collect(),
                _own: own,
            }),
        }
    }

    /// A request began.
    pub(crate) fn operation_started(&self, method: &'static str) {
        let method = [KeyValue::new(attributes::METHOD, method)];
        for sink in &self.inner.sinks {
            sink.active.add(1, &method);
        }
    }

    /// A request was answered (or abandoned), `seconds` after it began.
    pub(crate) fn operation_ended(
        &self,
        method: &'static str,
        seconds: f64,
        attributes: &[KeyValue],
    ) {
        let method = [KeyValue::new(attributes::METHOD, method)];
        for sink in &self.inner.sinks {
            sink.active.add(-1, &method);
            sink.operation_duration.record(seconds, attributes);
        }
    }

    /// A session (a stdio connection, an HTTP handshake session) ended.
    pub(crate) fn session_ended(&self, seconds: f64, attributes: &[KeyValue]) {
        for sink in &self.inner.sinks {
            sink.session_duration.record(seconds, attributes);
        }
    }

    /// A call to `tool` was refused by a rate limit: the tool's own (`"tool"`) or the
    /// server's (`"server"`).
    pub(crate) fn refused(&self, tool: &str, scope: &'static str) {
        let attributes = [
            KeyValue::new(attributes::TOOL_NAME, tool.to_owned()),
            KeyValue::new(attributes::RATE_LIMIT_SCOPE, scope),
        ];
        for sink in &self.inner.sinks {
            sink.refusals.add(1, &attributes);
        }
    }
}
