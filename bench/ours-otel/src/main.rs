//! The echo server of `ours` with OpenTelemetry on, as a user would turn it on: the `otel`
//! feature and `Server::telemetry`, so the runtime's stderr subscriber carries the
//! OpenTelemetry layer. Every request's span is made, entered, ended and batched for export,
//! and every metric recorded (aggregated by the SDK, which a Prometheus reader would scrape);
//! only the export itself goes nowhere, so no collector's speed is measured.

use mcp_runtime::telemetry::Telemetry;
use mcp_runtime::{Server, mcp_tool};
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanData, SpanExporter};

/// Echo the text back.
#[mcp_tool(read_only, idempotent)]
async fn echo(
    /// The text to echo.
    text: String,
) -> String {
    text
}

/// Takes every batch of spans and drops it.
#[derive(Debug)]
struct Discard;

impl SpanExporter for Discard {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        drop(batch);
        Ok(())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let telemetry = Telemetry::builder()
        .tracer_provider(
            SdkTracerProvider::builder()
                .with_batch_exporter(Discard)
                .build(),
        )
        .prometheus()
        .build()?;
    Server::new("echo", "1.0.0")
        .telemetry(telemetry.clone())
        .serve_stdio()
        .await?;
    telemetry.shutdown()?;
    Ok(())
}
