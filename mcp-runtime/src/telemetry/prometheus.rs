//! The Prometheus endpoint's reader: an SDK `ManualReader` shared between the meter provider
//! (which feeds it) and the endpoint (which collects from it on each scrape), and the text
//! exposition format (0.0.4) its metrics are written in — names as the OpenTelemetry
//! specification maps them: dots to underscores, the unit as a suffix (`_seconds`), `_total`
//! on counters; histograms as cumulative `_bucket{le=…}` series, `_sum` and `_count`.

use std::fmt::{self, Display, Write as _};
use std::sync::{Arc, Weak};
use std::time::Duration;

use opentelemetry::KeyValue;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::metrics::data::{
    AggregatedMetrics, Gauge, Histogram, Metric, MetricData, ResourceMetrics, Sum,
};
use opentelemetry_sdk::metrics::reader::MetricReader;
use opentelemetry_sdk::metrics::{InstrumentKind, ManualReader, Pipeline, Temporality};

/// A reader the endpoint collects from whenever it is scraped. Clones share one reader: one
/// goes to the meter provider, another to the endpoint.
#[derive(Clone, Debug, Default)]
pub(crate) struct PrometheusReader {
    reader: Arc<ManualReader>,
}

impl PrometheusReader {
    /// The metrics now, in the text exposition format.
    pub(crate) fn render(&self) -> Result<String, String> {
        let mut metrics = ResourceMetrics::default();
        self.reader
            .collect(&mut metrics)
            .map_err(|error| format!("collecting the metrics failed: {error}"))?;
        Ok(render(&metrics))
    }
}

impl MetricReader for PrometheusReader {
    fn register_pipeline(&self, pipeline: Weak<Pipeline>) {
        self.reader.register_pipeline(pipeline);
    }

    fn collect(&self, metrics: &mut ResourceMetrics) -> OTelSdkResult {
        self.reader.collect(metrics)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.reader.force_flush()
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.reader.shutdown_with_timeout(timeout)
    }

    /// Prometheus wants running totals.
    fn temporality(&self, _kind: InstrumentKind) -> Temporality {
        Temporality::Cumulative
    }
}

/// Every metric of every scope, in the text exposition format.
pub(crate) fn render(metrics: &ResourceMetrics) -> String {
    let mut out = String::new();
    for scope in metrics.scope_metrics() {
        for metric in scope.metrics() {
            match metric.data() {
                AggregatedMetrics::F64(data) => write_metric(&mut out, metric, data),
                AggregatedMetrics::I64(data) => write_metric(&mut out, metric, data),
                AggregatedMetrics::U64(data) => write_metric(&mut out, metric, data),
            }
        }
    }
    out
}

/// A number as Prometheus writes it.
trait Sample: Copy {
    fn write(self, out: &mut String);
}

impl Sample for f64 {
    fn write(self, out: &mut String) {
        if self.is_nan() {
            out.push_str("NaN");
        } else if self.is_infinite() {
            out.push_str(if self > 0.0 { "+Inf" } else { "-Inf" });
        } else {
            let _ = write!(out, "{self}");
        }
    }
}

impl Sample for i64 {
    fn write(self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

impl Sample for u64 {
    fn write(self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

fn write_metric<T: Sample>(out: &mut String, metric: &Metric, data: &MetricData<T>) {
    match data {
        MetricData::Histogram(histogram) => write_histogram(out, metric, histogram),
        MetricData::Sum(sum) => write_sum(out, metric, sum),
        MetricData::Gauge(gauge) => write_gauge(out, metric, gauge),
        // The runtime makes none; an application's would need a native histogram.
        MetricData::ExponentialHistogram(_) => {}
    }
}

fn write_histogram<T: Sample>(out: &mut String, metric: &Metric, histogram: &Histogram<T>) {
    let name = metric_name(metric.name(), metric.unit(), false);
    write_header(out, &name, metric.description(), "histogram");
    for point in histogram.data_points() {
        let labels = Labels::new(point.attributes());
        let mut cumulative = 0;
        for (bound, count) in point.bounds().zip(point.bucket_counts()) {
            cumulative += count;
            let _ = write!(out, "{name}_bucket{{{labels}le=\"");
            bound.write(out);
            let _ = writeln!(out, "\"}} {cumulative}");
        }
        let _ = writeln!(
            out,
            "{name}_bucket{{{labels}le=\"+Inf\"}} {}",
            point.count()
        );
        let _ = write!(out, "{name}_sum{}", labels.braced());
        out.push(' ');
        point.sum().write(out);
        out.push('\n');
        let _ = writeln!(out, "{name}_count{} {}", labels.braced(), point.count());
    }
}

fn write_sum<T: Sample>(out: &mut String, metric: &Metric, sum: &Sum<T>) {
    let counter = sum.is_monotonic();
    let name = metric_name(metric.name(), metric.unit(), counter);
    let kind = if counter { "counter" } else { "gauge" };
    write_header(out, &name, metric.description(), kind);
    for point in sum.data_points() {
        write_sample(out, &name, &Labels::new(point.attributes()), point.value());
    }
}

fn write_gauge<T: Sample>(out: &mut String, metric: &Metric, gauge: &Gauge<T>) {
    let name = metric_name(metric.name(), metric.unit(), false);
    write_header(out, &name, metric.description(), "gauge");
    for point in gauge.data_points() {
        write_sample(out, &name, &Labels::new(point.attributes()), point.value());
    }
}

fn write_header(out: &mut String, name: &str, description: &str, kind: &str) {
    if !description.is_empty() {
        let help = description.replace('\\', "\\\\").replace('\n', "\\n");
        let _ = writeln!(out, "# HELP {name} {help}");
    }
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

fn write_sample<T: Sample>(out: &mut String, name: &str, labels: &Labels, value: T) {
    let _ = write!(out, "{name}{} ", labels.braced());
    value.write(out);
    out.push('\n');
}

/// A metric's name in Prometheus: invalid characters (dots among them) as underscores, the
/// unit as a suffix, `_total` on a counter.
fn metric_name(name: &str, unit: &str, counter: bool) -> String {
    let mut prometheus = sanitize(name);
    let suffix = match unit {
        "s" => "seconds",
        "ms" => "milliseconds",
        "By" => "bytes",
        // `{request}` and the like are annotations, not units.
        unit if unit.is_empty() || unit.starts_with('{') || unit == "1" => "",
        unit => &sanitize(unit),
    };
    if !suffix.is_empty() && !prometheus.ends_with(suffix) {
        prometheus.push('_');
        prometheus.push_str(suffix);
    }
    if counter && !prometheus.ends_with("_total") {
        prometheus.push_str("_total");
    }
    prometheus
}

/// `[a-zA-Z_:][a-zA-Z0-9_:]*`, anything else as `_`.
fn sanitize(name: &str) -> String {
    let mut sanitized: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == ':' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if sanitized.starts_with(|c: char| c.is_ascii_digit()) {
        sanitized.insert(0, '_');
    }
    sanitized
}

/// A data point's attributes as labels, sorted by name, each followed by a comma (so `le`
/// can follow): `gen_ai_tool_name="add",mcp_method_name="tools/call",`.
struct Labels(String);

impl Labels {
    fn new<'a>(attributes: impl Iterator<Item = &'a KeyValue>) -> Labels {
        let mut pairs: Vec<(String, String)> = attributes
            .map(|pair| {
                (
                    sanitize(pair.key.as_str()),
                    pair.value.as_str().into_owned(),
                )
            })
            .collect();
        pairs.sort();
        let mut text = String::new();
        for (name, value) in pairs {
            let value = value
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', "\\n");
            let _ = write!(text, "{name}=\"{value}\",");
        }
        Labels(text)
    }

    /// `{…}` without the trailing comma, or nothing.
    fn braced(&self) -> Braced<'_> {
        Braced(self.0.strip_suffix(',').unwrap_or(&self.0))
    }
}

impl Display for Labels {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.0)
    }
}

struct Braced<'a>(&'a str);

impl Display for Braced<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            Ok(())
        } else {
            write!(formatter, "{{{}}}", self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use opentelemetry::metrics::MeterProvider as _;
    use opentelemetry_sdk::metrics::SdkMeterProvider;

    use super::*;

    #[test]
    fn names_follow_the_specification() {
        assert_eq!(
            metric_name("mcp.server.operation.duration", "s", false),
            "mcp_server_operation_duration_seconds"
        );
        assert_eq!(
            metric_name("mcp.server.rate_limit.refusals", "{call}", true),
            "mcp_server_rate_limit_refusals_total"
        );
        assert_eq!(metric_name("queue.size", "By", false), "queue_size_bytes");
        assert_eq!(metric_name("1st", "", false), "_1st");
    }

    #[test]
    fn histograms_counters_and_gauges_are_written_out() {
        let reader = PrometheusReader::default();
        let provider = SdkMeterProvider::builder()
            .with_reader(reader.clone())
            .build();
        let meter = provider.meter("test");
        let histogram = meter
            .f64_histogram("op.duration")
            .with_unit("s")
            .with_description("How long.")
            .with_boundaries(vec![0.1, 1.0])
            .build();
        let tool = [KeyValue::new("gen_ai.tool.name", "say \"hi\"")];
        histogram.record(0.05, &tool);
        histogram.record(0.5, &tool);
        histogram.record(5.0, &tool);
        meter.u64_counter("refusals").build().add(2, &[]);
        meter.i64_up_down_counter("active").build().add(-1, &[]);
        let text = reader.render().unwrap();
        let expected = [
            "# HELP op_duration_seconds How long.",
            "# TYPE op_duration_seconds histogram",
            r#"op_duration_seconds_bucket{gen_ai_tool_name="say \"hi\"",le="0.1"} 1"#,
            r#"op_duration_seconds_bucket{gen_ai_tool_name="say \"hi\"",le="1"} 2"#,
            r#"op_duration_seconds_bucket{gen_ai_tool_name="say \"hi\"",le="+Inf"} 3"#,
            r#"op_duration_seconds_sum{gen_ai_tool_name="say \"hi\""} 5.55"#,
            r#"op_duration_seconds_count{gen_ai_tool_name="say \"hi\""} 3"#,
            "# TYPE refusals_total counter",
            "refusals_total 2",
            "# TYPE active gauge",
            "active -1",
        ];
        for line in expected {
            assert!(
                text.lines().any(|written| written == line),
                "{line}\n---\n{text}"
            );
        }
    }
}
