//! OpenTelemetry end to end (feature `otel`): the span of each request, parented by the trace
//! context the client sent (in `_meta`, or in the HTTP request's headers), with the tool's
//! own spans under it; a call run as a task; the metrics per outcome; and the Prometheus
//! endpoint scraped over a real socket.
//!
//! Run with `cargo test -p mcp-runtime --features otel,testing,http --test telemetry`.
//!
//! Spans reach one global subscriber, the tests' (a span may end on any thread), through a
//! collecting exporter; each test finds its own by trace id. Metrics are per server: each
//! test gives its server a meter provider of its own.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use mcp_runtime::telemetry::{
    OPERATION_DURATION, RATE_LIMIT_REFUSALS, SESSION_DURATION, Telemetry,
};
use mcp_runtime::testing::TestClient;
use mcp_runtime::{Server, mcp_tool};
use opentelemetry::KeyValue;
use opentelemetry::trace::{SpanKind, Status};
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::reader::MetricReader;
use opentelemetry_sdk::metrics::{
    InstrumentKind, ManualReader, Pipeline, SdkMeterProvider, Temporality,
};
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanData, SpanExporter};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tracing::Instrument as _;
use tracing_subscriber::prelude::*;

/// Echo the text back, inside a span of its own.
#[mcp_tool]
async fn echo(text: String) -> String {
    async {
        tracing::info!("echoing");
        text
    }
    .instrument(tracing::info_span!("echo.inner"))
    .await
}

/// Add two numbers on a thread of its own, inside a span of its own.
#[mcp_tool]
fn sum(a: i64, b: i64) -> i64 {
    let _inner = tracing::info_span!("sum.inner").entered();
    a + b
}

/// Always fail.
#[mcp_tool]
async fn fail() -> Result<String, String> {
    Err("it failed".to_owned())
}

/// Allowed once a minute.
#[mcp_tool(rate = "1/min")]
async fn limited() -> String {
    "done".to_owned()
}

/// A report that may run as a task.
#[mcp_tool(task = "optional")]
async fn report() -> String {
    async { "reported".to_owned() }
        .instrument(tracing::info_span!("report.inner"))
        .await
}

// --- spans ---

/// Every span ended so far.
#[derive(Clone, Debug, Default)]
struct Collector(Arc<Mutex<Vec<SpanData>>>);

impl SpanExporter for Collector {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        self.0.lock().unwrap().extend(batch);
        Ok(())
    }
}

/// The tests' subscriber, installed once: the telemetry layer over a collecting exporter.
fn spans() -> &'static Collector {
    static SPANS: OnceLock<Collector> = OnceLock::new();
    SPANS.get_or_init(|| {
        let collector = Collector::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(collector.clone())
            .build();
        let telemetry = Telemetry::builder()
            .tracer_provider(provider)
            .build()
            .unwrap();
        tracing_subscriber::registry()
            .with(
                telemetry
                    .layer()
                    .with_filter(tracing_subscriber::filter::LevelFilter::INFO),
            )
            .init();
        collector
    })
}

impl Collector {
    /// The span named `name` in trace `trace`, once it has ended.
    async fn wait_for(&self, trace: &str, name: &str) -> SpanData {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let found = self
                .0
                .lock()
                .unwrap()
                .iter()
                .find(|span| span.span_context.trace_id().to_string() == trace && span.name == name)
                .cloned();
            if let Some(span) = found {
                return span;
            }
            assert!(
                Instant::now() < deadline,
                "no span `{name}` in trace {trace}: {:#?}",
                self.names()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    fn names(&self) -> Vec<String> {
        let spans = self.0.lock().unwrap();
        spans
            .iter()
            .map(|span| format!("{} {}", span.span_context.trace_id(), span.name))
            .collect()
    }
}

fn attribute(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|pair| pair.key.as_str() == key)
        .map(|pair| pair.value.as_str().into_owned())
}

fn traceparent(trace: &str, parent: &str) -> String {
    format!("00-{trace}-{parent}-01")
}

/// A span's OpenTelemetry essentials: kind, parent, name.
fn assert_server_span(span: &SpanData, parent: &str) {
    assert_eq!(span.span_kind, SpanKind::Server, "{span:#?}");
    assert_eq!(span.parent_span_id.to_string(), parent, "{span:#?}");
    assert!(span.parent_span_is_remote, "{span:#?}");
}

fn assert_child(child: &SpanData, parent: &SpanData) {
    assert_eq!(
        child.span_context.trace_id(),
        parent.span_context.trace_id()
    );
    assert_eq!(
        child.parent_span_id,
        parent.span_context.span_id(),
        "`{}` under `{}`",
        child.name,
        parent.name
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_traceparent_in_meta_parents_the_request_span_and_the_tools_spans_nest_under_it() {
    let spans = spans();
    let client = TestClient::connect(Server::new("otel", "1.0.0"))
        .await
        .unwrap();
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let meta = json!({ "traceparent": traceparent(trace, "00f067aa0ba902b7") });

    client
        .request(
            "tools/call",
            json!({ "name": "echo", "arguments": { "text": "hi" }, "_meta": meta }),
        )
        .await
        .unwrap();
    let call = spans.wait_for(trace, "tools/call echo").await;
    assert_server_span(&call, "00f067aa0ba902b7");
    assert_eq!(call.status, Status::Unset);
    for (key, value) in [
        ("mcp.method.name", "tools/call"),
        ("gen_ai.tool.name", "echo"),
        ("gen_ai.operation.name", "execute_tool"),
        ("mcp.protocol.version", "2025-11-25"),
        ("network.transport", "pipe"),
    ] {
        assert_eq!(
            attribute(&call, key).as_deref(),
            Some(value),
            "{key}: {call:#?}"
        );
    }
    let id = attribute(&call, "jsonrpc.request.id").expect("the request id");
    assert!(id.parse::<u64>().is_ok(), "{id}");
    for absent in ["mcp.session.id", "error.type", "network.protocol.name"] {
        assert_eq!(attribute(&call, absent), None, "{absent}");
    }
    assert_child(&spans.wait_for(trace, "echo.inner").await, &call);

    // A plain `fn` tool runs on a thread of its own, still under the request's span.
    let trace = "5bf92f3577b34da6a3ce929d0e0e4736";
    let meta = json!({ "traceparent": traceparent(trace, "10f067aa0ba902b7") });
    client
        .request(
            "tools/call",
            json!({ "name": "sum", "arguments": { "a": 1, "b": 2 }, "_meta": meta }),
        )
        .await
        .unwrap();
    let call = spans.wait_for(trace, "tools/call sum").await;
    assert_child(&spans.wait_for(trace, "sum.inner").await, &call);

    // A tool's `isError` result, and a JSON-RPC error (an unknown tool, kept out of the name).
    let trace = "6bf92f3577b34da6a3ce929d0e0e4736";
    let meta = json!({ "traceparent": traceparent(trace, "20f067aa0ba902b7") });
    client
        .request("tools/call", json!({ "name": "fail", "_meta": meta }))
        .await
        .unwrap();
    let failed = spans.wait_for(trace, "tools/call fail").await;
    assert_eq!(
        attribute(&failed, "error.type").as_deref(),
        Some("tool_error")
    );
    assert!(matches!(failed.status, Status::Error { .. }), "{failed:#?}");
    client
        .request("tools/call", json!({ "name": "nope", "_meta": meta }))
        .await
        .unwrap_err();
    let unknown = spans.wait_for(trace, "tools/call").await;
    assert_eq!(
        attribute(&unknown, "gen_ai.tool.name").as_deref(),
        Some("nope")
    );
    assert_eq!(attribute(&unknown, "error.type").as_deref(), Some("-32602"));
    assert_eq!(
        attribute(&unknown, "rpc.response.status_code").as_deref(),
        Some("-32602")
    );
    assert_eq!(
        unknown.status,
        Status::error("Unknown tool: nope"),
        "the status carries the error's message"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_run_as_a_task_gets_a_span_of_its_own_under_the_request() {
    let spans = spans();
    let client = TestClient::connect(Server::new("otel", "1.0.0"))
        .await
        .unwrap();
    let trace = "7bf92f3577b34da6a3ce929d0e0e4736";
    let meta = json!({ "traceparent": traceparent(trace, "30f067aa0ba902b7") });
    let created = client
        .request(
            "tools/call",
            json!({ "name": "report", "task": {}, "_meta": meta }),
        )
        .await
        .unwrap();
    let task_id = created["task"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    client.wait_for_task(&task_id).await.unwrap();

    let call = spans.wait_for(trace, "tools/call report").await;
    assert_server_span(&call, "30f067aa0ba902b7");
    let task = spans.wait_for(trace, "execute_tool report").await;
    assert_eq!(task.span_kind, SpanKind::Internal);
    assert_child(&task, &call);
    assert_eq!(attribute(&task, "mcp.task.id"), Some(task_id));
    assert_child(&spans.wait_for(trace, "report.inner").await, &task);
}

// --- HTTP ---

/// A server on a loopback port until the test ends.
struct Running {
    address: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

async fn serve(http: mcp_runtime::HttpServer) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let http = http.shutdown_on(async move {
        let _ = stopped.await;
    });
    tokio::spawn(http.serve_on(listener));
    Running {
        address,
        _stop: stop,
    }
}

/// One HTTP/1.1 exchange on a connection of its own: the status, the headers (names in
/// lower case) and the body.
async fn exchange(
    address: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> (u16, BTreeMap<String, String>, String) {
    let body = body.map(|body| body.to_string()).unwrap_or_default();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
         Content-Type: application/json\r\nAccept: application/json\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8(response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: BTreeMap<String, String> = lines
        .filter_map(|line| line.split_once(": "))
        .map(|(name, value)| (name.to_ascii_lowercase(), value.to_owned()))
        .collect();
    assert_ne!(
        headers.get("transfer-encoding").map(String::as_str),
        Some("chunked")
    );
    (status, headers, body.to_owned())
}

/// A 2026-07-28 `tools/call`, its routing headers and `_meta` included.
async fn stateless_call(
    address: SocketAddr,
    tool: &str,
    extra_headers: &[(&str, &str)],
    extra_meta: Value,
) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    if let Value::Object(extra) = extra_meta {
        meta.as_object_mut().unwrap().extend(extra);
    }
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": tool, "arguments": { "text": "hi" }, "_meta": meta },
    });
    let mut headers = vec![
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", tool),
    ];
    headers.extend_from_slice(extra_headers);
    let (status, _, body) = exchange(address, "POST", "/mcp", &headers, Some(&body)).await;
    assert!(status == 200 || status == 400, "{status}: {body}");
    serde_json::from_str(&body).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_the_traceparent_header_parents_stateless_and_session_calls() {
    let spans = spans();
    let running = serve(Server::new("otel", "1.0.0").http()).await;
    let address = running.address;

    // 2026-07-28: no session.
    let trace = "8bf92f3577b34da6a3ce929d0e0e4736";
    let header = traceparent(trace, "40f067aa0ba902b7");
    let answer = stateless_call(address, "echo", &[("traceparent", &header)], json!({})).await;
    assert_eq!(answer["result"]["content"][0]["text"], "hi", "{answer}");
    let call = spans.wait_for(trace, "tools/call echo").await;
    assert_server_span(&call, "40f067aa0ba902b7");
    for (key, value) in [
        ("mcp.protocol.version", "2026-07-28"),
        ("network.transport", "tcp"),
        ("network.protocol.name", "http"),
    ] {
        assert_eq!(attribute(&call, key).as_deref(), Some(value), "{key}");
    }
    assert_eq!(attribute(&call, "mcp.session.id"), None);
    assert_child(&spans.wait_for(trace, "echo.inner").await, &call);

    // `_meta` wins over the header, which is linked.
    let trace = "9bf92f3577b34da6a3ce929d0e0e4736";
    let header = traceparent("abf92f3577b34da6a3ce929d0e0e4736", "50f067aa0ba902b7");
    let meta = json!({ "traceparent": traceparent(trace, "60f067aa0ba902b7") });
    stateless_call(address, "echo", &[("traceparent", &header)], meta).await;
    let call = spans.wait_for(trace, "tools/call echo").await;
    assert_server_span(&call, "60f067aa0ba902b7");
    let linked: Vec<String> = call
        .links
        .iter()
        .map(|link| link.span_context.span_id().to_string())
        .collect();
    assert_eq!(linked, ["50f067aa0ba902b7"]);

    // A failing stateless call: an unknown tool.
    let trace = "cbf92f3577b34da6a3ce929d0e0e4736";
    let header = traceparent(trace, "70f067aa0ba902b7");
    let answer = stateless_call(address, "nope", &[("traceparent", &header)], json!({})).await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let call = spans.wait_for(trace, "tools/call").await;
    assert_eq!(attribute(&call, "error.type").as_deref(), Some("-32602"));

    // 2025-11-25: a session, whose id the span carries.
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "otel-test", "version": "0" },
        },
    });
    let (status, headers, body) = exchange(address, "POST", "/mcp", &[], Some(&initialize)).await;
    assert_eq!(status, 200, "{body}");
    let session = headers["mcp-session-id"].clone();
    let session_headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    exchange(
        address,
        "POST",
        "/mcp",
        &session_headers,
        Some(&initialized),
    )
    .await;
    let trace = "dbf92f3577b34da6a3ce929d0e0e4736";
    let header = traceparent(trace, "80f067aa0ba902b7");
    let mut with_parent = session_headers.to_vec();
    with_parent.push(("traceparent", &header));
    let call_fail =
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "fail" } });
    let (status, _, body) = exchange(address, "POST", "/mcp", &with_parent, Some(&call_fail)).await;
    assert_eq!(status, 200, "{body}");
    let call = spans.wait_for(trace, "tools/call fail").await;
    assert_server_span(&call, "80f067aa0ba902b7");
    assert_eq!(attribute(&call, "mcp.session.id"), Some(session));
    assert_eq!(
        attribute(&call, "mcp.protocol.version").as_deref(),
        Some("2025-11-25")
    );
    assert_eq!(
        attribute(&call, "error.type").as_deref(),
        Some("tool_error")
    );
}

// --- metrics ---

/// A `ManualReader` the test keeps a handle on while the provider owns it.
#[derive(Clone, Debug, Default)]
struct SharedReader(Arc<ManualReader>);

impl MetricReader for SharedReader {
    fn register_pipeline(&self, pipeline: Weak<Pipeline>) {
        self.0.register_pipeline(pipeline);
    }
    fn collect(&self, metrics: &mut ResourceMetrics) -> OTelSdkResult {
        self.0.collect(metrics)
    }
    fn force_flush(&self) -> OTelSdkResult {
        self.0.force_flush()
    }
    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.0.shutdown_with_timeout(timeout)
    }
    fn temporality(&self, kind: InstrumentKind) -> Temporality {
        self.0.temporality(kind)
    }
}

type Attributes = BTreeMap<String, String>;

fn attributes<'a>(pairs: impl Iterator<Item = &'a KeyValue>) -> Attributes {
    pairs
        .map(|pair| (pair.key.to_string(), pair.value.as_str().into_owned()))
        .collect()
}

/// A histogram's count per attribute set, or a sum's value.
fn points(reader: &SharedReader, name: &str) -> Vec<(Attributes, f64)> {
    let mut metrics = ResourceMetrics::default();
    reader.collect(&mut metrics).unwrap();
    let mut points = Vec::new();
    for scope in metrics.scope_metrics() {
        assert_eq!(scope.scope().name(), "mcp-runtime");
        for metric in scope.metrics().filter(|metric| metric.name() == name) {
            match metric.data() {
                AggregatedMetrics::F64(MetricData::Histogram(histogram)) => {
                    for point in histogram.data_points() {
                        points.push((attributes(point.attributes()), point.count() as f64));
                    }
                }
                AggregatedMetrics::U64(MetricData::Sum(sum)) => {
                    for point in sum.data_points() {
                        points.push((attributes(point.attributes()), point.value() as f64));
                    }
                }
                AggregatedMetrics::I64(MetricData::Sum(sum)) => {
                    for point in sum.data_points() {
                        points.push((attributes(point.attributes()), point.value() as f64));
                    }
                }
                other => panic!("{name}: {other:?}"),
            }
        }
    }
    points
}

fn set(pairs: &[(&str, &str)]) -> Attributes {
    pairs
        .iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect()
}

fn call_attributes(tool: &str, error: Option<&str>) -> Attributes {
    let mut attributes = set(&[
        ("mcp.method.name", "tools/call"),
        ("gen_ai.tool.name", tool),
        ("gen_ai.operation.name", "execute_tool"),
        ("mcp.protocol.version", "2025-11-25"),
        ("network.transport", "pipe"),
    ]);
    if let Some(error) = error {
        attributes.insert("error.type".into(), error.into());
    }
    attributes
}

#[tokio::test]
async fn the_metrics_count_calls_by_outcome_and_a_second_reader_sees_them_too() {
    let reader = SharedReader::default();
    let telemetry = Telemetry::builder()
        .meter_provider(SdkMeterProvider::builder().with_reader(reader.clone()))
        .prometheus()
        .build()
        .unwrap();
    let client = TestClient::connect(Server::new("otel", "1.0.0").telemetry(telemetry.clone()))
        .await
        .unwrap();
    for _ in 0..2 {
        client
            .call_tool("echo", json!({ "text": "hi" }))
            .await
            .unwrap();
    }
    client.call_tool("fail", json!({})).await.unwrap();
    client.call_tool("limited", json!({})).await.unwrap();
    let refused = client.call_tool("limited", json!({})).await.unwrap();
    assert!(
        refused.is_error,
        "the second call within the minute is refused"
    );
    client.close().await.unwrap();

    let durations = points(&reader, OPERATION_DURATION);
    let count = |attributes: &Attributes| {
        durations
            .iter()
            .find(|(found, _)| found == attributes)
            .map(|(_, count)| *count)
    };
    assert_eq!(
        count(&call_attributes("echo", None)),
        Some(2.0),
        "{durations:#?}"
    );
    assert_eq!(
        count(&call_attributes("fail", Some("tool_error"))),
        Some(1.0)
    );
    assert_eq!(count(&call_attributes("limited", None)), Some(1.0));
    assert_eq!(
        count(&call_attributes("limited", Some("tool_error"))),
        Some(1.0)
    );
    let initialize = set(&[
        ("mcp.method.name", "initialize"),
        ("mcp.protocol.version", "2025-11-25"),
        ("network.transport", "pipe"),
    ]);
    assert_eq!(count(&initialize), Some(1.0), "{durations:#?}");

    assert_eq!(
        points(&reader, RATE_LIMIT_REFUSALS),
        [(
            set(&[
                ("gen_ai.tool.name", "limited"),
                ("mcp.rate_limit.scope", "tool")
            ]),
            1.0
        )]
    );
    let active = points(&reader, mcp_runtime::telemetry::OPERATIONS_ACTIVE);
    assert!(active.iter().all(|(_, value)| *value == 0.0), "{active:?}");
    let sessions = points(&reader, SESSION_DURATION);
    let ended = set(&[
        ("mcp.protocol.version", "2025-11-25"),
        ("network.transport", "pipe"),
    ]);
    assert_eq!(sessions, [(ended, 1.0)]);

    // The provider's other reader, the Prometheus one, sees the same measurements.
    let text = telemetry.prometheus_text().unwrap();
    let echo = scraped(
        &text,
        "mcp_server_operation_duration_seconds_count",
        &[("gen_ai_tool_name", "echo")],
    );
    assert_eq!(echo, [2.0], "{text}");
}

// --- Prometheus ---

/// The samples of `name` whose labels include `labels`.
fn scraped(text: &str, name: &str, labels: &[(&str, &str)]) -> Vec<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let (series_name, series_labels) = match series.split_once('{') {
                Some((name, rest)) => (name, rest.trim_end_matches('}')),
                None => (series, ""),
            };
            let found: BTreeMap<&str, &str> = series_labels
                .split(',')
                .filter_map(|pair| pair.split_once('='))
                .map(|(key, value)| (key, value.trim_matches('"')))
                .collect();
            let matches = series_name == name
                && labels
                    .iter()
                    .all(|(key, value)| found.get(key) == Some(value));
            matches.then(|| value.parse().unwrap())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_prometheus_endpoint_serves_the_metrics_without_any_provider_set_up() {
    let running = serve(
        Server::new("otel", "1.0.0")
            .http()
            .prometheus_metrics("/metrics"),
    )
    .await;
    for _ in 0..3 {
        stateless_call(running.address, "echo", &[], json!({})).await;
    }
    stateless_call(running.address, "fail", &[], json!({})).await;

    let (status, headers, text) = exchange(running.address, "GET", "/metrics", &[], None).await;
    assert_eq!(status, 200, "{text}");
    assert!(headers["content-type"].starts_with("text/plain; version=0.0.4"));
    for kind in [
        "# TYPE mcp_server_operation_duration_seconds histogram",
        "# TYPE mcp_server_operation_active gauge",
    ] {
        assert!(text.lines().any(|line| line == kind), "{kind}\n{text}");
    }
    let echo = [
        ("gen_ai_tool_name", "echo"),
        ("mcp_method_name", "tools/call"),
        ("mcp_protocol_version", "2026-07-28"),
        ("network_transport", "tcp"),
        ("network_protocol_name", "http"),
    ];
    let mut bucket = echo.to_vec();
    bucket.push(("le", "0.01"));
    let fast = scraped(
        &text,
        "mcp_server_operation_duration_seconds_bucket",
        &bucket,
    );
    assert_eq!(fast.len(), 1, "{text}");
    let mut everything = echo.to_vec();
    everything.push(("le", "+Inf"));
    assert_eq!(
        scraped(
            &text,
            "mcp_server_operation_duration_seconds_bucket",
            &everything
        ),
        [3.0]
    );
    assert_eq!(
        scraped(&text, "mcp_server_operation_duration_seconds_count", &echo),
        [3.0]
    );
    let failed = [("gen_ai_tool_name", "fail"), ("error_type", "tool_error")];
    assert_eq!(
        scraped(
            &text,
            "mcp_server_operation_duration_seconds_count",
            &failed
        ),
        [1.0],
        "{text}"
    );
}
