//! OpenTelemetry for a server (feature `otel`): a span per request and the MCP metrics, as the
//! semantic conventions for MCP name them, exported over OTLP (feature `otlp`) or served to
//! Prometheus. The manual's [telemetry chapter](crate::manual::telemetry) says what is
//! recorded and how to set it up.
//!
//! A [`Telemetry`] holds the OpenTelemetry providers a server records into; give it to the
//! server with [`Server::telemetry`](crate::Server::telemetry):
//!
//! ```no_run
//! use mcp_runtime::Server;
//! use mcp_runtime::telemetry::Telemetry;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! // No collector: the metrics on `/metrics`, for Prometheus to scrape.
//! let telemetry = Telemetry::builder().prometheus().build()?;
//! Server::new("weather", "1.0.0")
//!     .telemetry(telemetry)
//!     .http()
//!     .prometheus_metrics("/metrics")
//!     .serve("127.0.0.1:8080")
//!     .await?;
//! # Ok(())
//! # }
//! ```
//!
//! Inside, the module is what the server's other parts call: `spans` (a request's span and
//! clock, a task's span), `metrics` (the instruments), `propagation` (the client's trace
//! context, from `_meta` or HTTP headers), `prometheus` (the endpoint's reader and the text
//! format), `otlp` (the exporters of [`TelemetryBuilder::otlp`]), and two leaves they all
//! import: `attributes` (the semantic conventions' keys) and `error` ([`TelemetryError`]).

pub(crate) mod attributes;
mod error;
mod metrics;
#[cfg(feature = "otlp")]
mod otlp;
mod prometheus;
mod propagation;
mod spans;

use opentelemetry::InstrumentationScope;
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{MeterProviderBuilder, SdkMeterProvider};
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::registry::LookupSpan;

pub use error::TelemetryError;
pub(crate) use metrics::Metrics;
pub use metrics::{OPERATION_DURATION, OPERATIONS_ACTIVE, RATE_LIMIT_REFUSALS, SESSION_DURATION};
pub(crate) use prometheus::PrometheusReader;
pub(crate) use spans::{Arrival, Connection, Outcome, Request, Started, Target};
pub(crate) use spans::{mark_error, task_span};

/// The instrumentation scope (meter and tracer name) of everything the runtime records.
pub const SCOPE_NAME: &str = "mcp-runtime";

fn scope() -> InstrumentationScope {
    InstrumentationScope::builder(SCOPE_NAME)
        .with_version(env!("CARGO_PKG_VERSION"))
        .build()
}

/// Where a server's spans and metrics go: an OpenTelemetry tracer provider, a meter
/// provider, and the reader of a Prometheus endpoint — each optional. Clones share them.
///
/// Build one with [`Telemetry::builder`] (or [`Telemetry::otlp`], feature `otlp`), give it to
/// [`Server::telemetry`](crate::Server::telemetry), and call [`shutdown`](Telemetry::shutdown)
/// before the process exits so the last spans and metrics are sent.
#[derive(Clone, Debug, Default)]
pub struct Telemetry {
    tracer_provider: Option<SdkTracerProvider>,
    meter_provider: Option<SdkMeterProvider>,
    prometheus: Option<PrometheusReader>,
}

impl Telemetry {
    /// A builder: choose exporters, providers, a Prometheus reader.
    pub fn builder() -> TelemetryBuilder {
        TelemetryBuilder::default()
    }

    /// Traces and metrics exported over OTLP (HTTP/protobuf) to the collector at `endpoint`
    /// (its base URL, e.g. `http://localhost:4318`): `Telemetry::builder().otlp(endpoint).build()`.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let telemetry = mcp_runtime::telemetry::Telemetry::otlp("http://localhost:4318")?;
    /// mcp_runtime::Server::new("weather", "1.0.0")
    ///     .telemetry(telemetry.clone())
    ///     .serve_stdio()
    ///     .await?;
    /// telemetry.shutdown()?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "otlp")]
    pub fn otlp(endpoint: impl Into<String>) -> Result<Telemetry, TelemetryError> {
        Telemetry::builder().otlp(endpoint).build()
    }

    /// The `tracing` layer that turns spans into OpenTelemetry spans through this
    /// telemetry's tracer provider (nothing without one), for an application that installs
    /// its own subscriber. The runtime adds it, at level INFO, to the subscriber it installs
    /// itself when there is none.
    ///
    /// ```
    /// use tracing_subscriber::prelude::*;
    ///
    /// # fn run() -> Result<(), mcp_runtime::telemetry::TelemetryError> {
    /// let telemetry = mcp_runtime::telemetry::Telemetry::builder().build()?;
    /// tracing_subscriber::registry()
    ///     .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
    ///     .with(telemetry.layer().with_filter(tracing_subscriber::filter::LevelFilter::INFO))
    ///     .init();
    /// # Ok(())
    /// # }
    /// ```
    pub fn layer<S>(&self) -> impl Layer<S>
    where
        S: Subscriber + for<'span> LookupSpan<'span>,
    {
        self.tracer_provider.as_ref().map(|provider| {
            tracing_opentelemetry::layer()
                .with_tracer(provider.tracer_with_scope(scope()))
                // Busy and idle times (`busy_ns`, `idle_ns`) take two clock readings on
                // every poll of every span; thread ids say little of an async task. Neither
                // is a convention.
                .with_tracked_inactivity(false)
                .with_threads(false)
        })
    }

    /// The tracer provider, if there is one: for the application's own OpenTelemetry spans.
    pub fn tracer_provider(&self) -> Option<&SdkTracerProvider> {
        self.tracer_provider.as_ref()
    }

    /// The meter provider, if there is one: for the application's own metrics, which then
    /// go where the runtime's go (and to the Prometheus endpoint).
    pub fn meter_provider(&self) -> Option<&SdkMeterProvider> {
        self.meter_provider.as_ref()
    }

    /// Makes these providers OpenTelemetry's global ones (`opentelemetry::global`), and W3C
    /// trace context its propagator, for code that records through the global API. The
    /// runtime itself records into what [`Server::telemetry`](crate::Server::telemetry) was
    /// given; it needs no globals.
    pub fn install_global(&self) {
        if let Some(provider) = &self.tracer_provider {
            opentelemetry::global::set_tracer_provider(provider.clone());
        }
        if let Some(provider) = &self.meter_provider {
            opentelemetry::global::set_meter_provider(provider.clone());
        }
        opentelemetry::global::set_text_map_propagator(
            opentelemetry_sdk::propagation::TraceContextPropagator::new(),
        );
    }

    /// The metrics now, in the Prometheus text exposition format: what
    /// [`HttpServer::prometheus_metrics`](crate::HttpServer::prometheus_metrics) serves, for
    /// serving it elsewhere (a stdio server's own listener, an application's router). An
    /// error unless built with [`TelemetryBuilder::prometheus`].
    pub fn prometheus_text(&self) -> Result<String, TelemetryError> {
        let reader = self.prometheus.as_ref().ok_or_else(|| {
            TelemetryError(
                "this Telemetry has no Prometheus reader: build it with `.prometheus()`".into(),
            )
        })?;
        reader.render().map_err(TelemetryError)
    }

    /// Sends what is still buffered and shuts the providers down. Spans and metrics
    /// recorded afterwards are dropped.
    pub fn shutdown(&self) -> Result<(), TelemetryError> {
        let traces = self
            .tracer_provider
            .as_ref()
            .map(SdkTracerProvider::shutdown);
        let metrics = self.meter_provider.as_ref().map(SdkMeterProvider::shutdown);
        for result in [traces, metrics].into_iter().flatten() {
            result.map_err(|error| TelemetryError(format!("shutting telemetry down: {error}")))?;
        }
        Ok(())
    }
}

/// Builds a [`Telemetry`]: OTLP exporters (feature `otlp`), providers of your own, a
/// Prometheus reader.
#[derive(Debug, Default)]
#[must_use = "a builder does nothing until `build()`"]
pub struct TelemetryBuilder {
    service_name: Option<String>,
    #[cfg(feature = "otlp")]
    otlp: Option<String>,
    tracer_provider: Option<SdkTracerProvider>,
    meter_provider: Option<MeterProviderBuilder>,
    prometheus: bool,
}

impl TelemetryBuilder {
    /// The `service.name` of the providers this builder makes (default: the
    /// `OTEL_SERVICE_NAME` environment variable, else OpenTelemetry's `unknown_service`).
    pub fn service_name(mut self, name: impl Into<String>) -> Self {
        self.service_name = Some(name.into());
        self
    }

    /// Exports traces and metrics over OTLP, HTTP/protobuf, to the collector at `endpoint`
    /// (its base URL, e.g. `http://localhost:4318`; `/v1/traces` and `/v1/metrics` are
    /// appended). Spans go in batches and metrics every 60 s, from threads of the SDK's own;
    /// the `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_EXPORTER_OTLP_TIMEOUT` variables apply.
    #[cfg(feature = "otlp")]
    pub fn otlp(mut self, endpoint: impl Into<String>) -> Self {
        self.otlp = Some(endpoint.into());
        self
    }

    /// A tracer provider of your own (your exporter, sampler, resource) instead of the
    /// OTLP one.
    pub fn tracer_provider(mut self, provider: SdkTracerProvider) -> Self {
        self.tracer_provider = Some(provider);
        self
    }

    /// A meter provider of your own, not built yet (your readers, views, resource): the
    /// Prometheus reader and the OTLP exporter are added to it.
    pub fn meter_provider(mut self, builder: MeterProviderBuilder) -> Self {
        self.meter_provider = Some(builder);
        self
    }

    /// A Prometheus reader on the meter provider, beside any other reader (one provider,
    /// every reader fed by the same instruments): what
    /// [`HttpServer::prometheus_metrics`](crate::HttpServer::prometheus_metrics) serves and
    /// [`Telemetry::prometheus_text`] renders.
    pub fn prometheus(mut self) -> Self {
        self.prometheus = true;
        self
    }

    /// The providers. With OTLP, fails if an exporter cannot be built (an endpoint that is
    /// not a URL).
    pub fn build(self) -> Result<Telemetry, TelemetryError> {
        let resource = || match &self.service_name {
            Some(name) => Resource::builder().with_service_name(name.clone()).build(),
            None => Resource::builder().build(),
        };
        #[cfg(feature = "otlp")]
        let otlp = self.otlp.as_deref();
        #[cfg(not(feature = "otlp"))]
        let otlp: Option<&str> = None;
        let tracer_provider = match (self.tracer_provider, otlp) {
            (Some(provider), _) => Some(provider),
            #[cfg(feature = "otlp")]
            (None, Some(endpoint)) => Some(otlp::tracer_provider(endpoint, resource())?),
            (None, _) => None,
        };
        let prometheus = self.prometheus.then(PrometheusReader::default);
        let wants_meter = self.meter_provider.is_some() || otlp.is_some() || self.prometheus;
        let meter_provider = if wants_meter {
            let mut builder = self
                .meter_provider
                .unwrap_or_else(|| SdkMeterProvider::builder().with_resource(resource()));
            if let Some(reader) = &prometheus {
                builder = builder.with_reader(reader.clone());
            }
            #[cfg(feature = "otlp")]
            if let Some(endpoint) = otlp {
                builder = builder.with_periodic_exporter(otlp::metric_exporter(endpoint)?);
            }
            Some(builder.build())
        } else {
            None
        };
        Ok(Telemetry {
            tracer_provider,
            meter_provider,
            prometheus,
        })
    }
}

/// A server's telemetry: the [`Telemetry`] it was given, and the Prometheus reader it made
/// for itself when its endpoint needs one the given telemetry lacks.
#[derive(Clone, Debug, Default)]
pub(crate) struct ServerTelemetry {
    given: Option<Telemetry>,
    own_prometheus: Option<(SdkMeterProvider, PrometheusReader)>,
}

impl ServerTelemetry {
    pub(crate) fn set(&mut self, telemetry: Telemetry) {
        self.given = Some(telemetry);
    }

    /// The layer the runtime adds to the subscriber it installs: the given telemetry's, at
    /// level INFO (the request spans' level). Without a tracer provider it is off, so
    /// the request spans are not made for nothing.
    pub(crate) fn runtime_layer<S>(&self) -> impl Layer<S>
    where
        S: Subscriber + for<'span> LookupSpan<'span>,
    {
        use tracing_subscriber::filter::LevelFilter;
        let telemetry = self
            .given
            .as_ref()
            .filter(|telemetry| telemetry.tracer_provider.is_some());
        let level = if telemetry.is_some() {
            LevelFilter::INFO
        } else {
            LevelFilter::OFF
        };
        telemetry.map(Telemetry::layer).with_filter(level)
    }

    /// The reader a Prometheus endpoint serves: the given telemetry's, else one on a meter
    /// provider of the server's own (so no global provider is needed).
    #[cfg(feature = "http")]
    pub(crate) fn prometheus_reader(&mut self) -> PrometheusReader {
        if let Some(reader) = self
            .given
            .as_ref()
            .and_then(|given| given.prometheus.clone())
        {
            return reader;
        }
        let (_, reader) = self.own_prometheus.get_or_insert_with(|| {
            let reader = PrometheusReader::default();
            let provider = SdkMeterProvider::builder()
                .with_reader(reader.clone())
                .build();
            (provider, reader)
        });
        reader.clone()
    }

    /// The instruments the server records into: in the given telemetry's meter provider,
    /// else the global one (the application's, or OpenTelemetry's no-op); and in the
    /// server's own Prometheus provider, if it has one.
    pub(crate) fn metrics(&self) -> Metrics {
        let main = match self.given.as_ref().and_then(Telemetry::meter_provider) {
            Some(provider) => provider.meter_with_scope(scope()),
            None => opentelemetry::global::meter_with_scope(scope()),
        };
        match &self.own_prometheus {
            Some((provider, _)) => Metrics::new(
                &[main, provider.meter_with_scope(scope())],
                Some(provider.clone()),
            ),
            None => Metrics::new(&[main], None),
        }
    }
}
