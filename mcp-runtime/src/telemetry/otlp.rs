//! The OTLP exporters of [`TelemetryBuilder::otlp`](super::TelemetryBuilder::otlp): HTTP with
//! protobuf bodies, sent by the blocking reqwest client from the SDK's own threads (the batch
//! span processor's, the periodic metric reader's), so they never block the runtime's.

use opentelemetry_otlp::{MetricExporter, SpanExporter, WithExportConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;

use super::error::TelemetryError;

/// A tracer provider exporting batches of spans to `{endpoint}/v1/traces`.
pub(super) fn tracer_provider(
    endpoint: &str,
    resource: Resource,
) -> Result<SdkTracerProvider, TelemetryError> {
    let exporter = SpanExporter::builder()
        .with_http()
        .with_endpoint(signal_url(endpoint, "traces"))
        .build()
        .map_err(|error| TelemetryError(format!("the OTLP span exporter: {error}")))?;
    Ok(SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource)
        .build())
}

/// An exporter of metrics to `{endpoint}/v1/metrics`.
pub(super) fn metric_exporter(endpoint: &str) -> Result<MetricExporter, TelemetryError> {
    MetricExporter::builder()
        .with_http()
        .with_endpoint(signal_url(endpoint, "metrics"))
        .build()
        .map_err(|error| TelemetryError(format!("the OTLP metric exporter: {error}")))
}

/// The URL of one signal under a collector's base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT`
/// would make it.
fn signal_url(endpoint: &str, signal: &str) -> String {
    format!("{}/v1/{signal}", endpoint.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    #[test]
    fn signals_go_under_the_base_url() {
        assert_eq!(
            super::signal_url("http://localhost:4318/", "traces"),
            "http://localhost:4318/v1/traces"
        );
    }
}
