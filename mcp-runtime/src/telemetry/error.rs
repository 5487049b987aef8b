//! The one error of setting telemetry up or shutting it down.

/// Why telemetry could not be set up or shut down.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TelemetryError(pub(super) String);
