//! A server's telemetry settings (feature `otel`): [`Server::telemetry`], and an
//! [`HttpServer`](crate::HttpServer)'s Prometheus endpoint. What is recorded is in
//! `crate::telemetry`.

use crate::server::Server;
use crate::telemetry::Telemetry;

impl Server {
    /// Records this server's spans and metrics through `telemetry` (feature `otel`): a span
    /// per request and the MCP metrics of the OpenTelemetry semantic conventions (see the
    /// manual's [telemetry chapter](crate::manual::telemetry)).
    ///
    /// The metrics go to `telemetry`'s meter provider. Spans are `tracing` spans: when the
    /// runtime installs its stderr subscriber (there is none yet), it adds
    /// [`telemetry.layer()`](Telemetry::layer) to it, at level INFO; an application with a
    /// subscriber of its own adds the layer there. Without this call, the metrics go to
    /// OpenTelemetry's global meter provider, and the spans to whatever layer the
    /// application installed.
    ///
    /// ```
    /// use mcp_runtime::Server;
    /// use mcp_runtime::telemetry::Telemetry;
    ///
    /// # fn run() -> Result<(), mcp_runtime::telemetry::TelemetryError> {
    /// let telemetry = Telemetry::builder().prometheus().build()?;
    /// let server = Server::new("weather", "1.0.0").telemetry(telemetry.clone());
    /// # let _ = server;
    /// # Ok(())
    /// # }
    /// ```
    pub fn telemetry(mut self, telemetry: Telemetry) -> Self {
        self.telemetry.set(telemetry);
        self
    }
}

#[cfg(feature = "http")]
pub(super) use http::prometheus_route;

#[cfg(feature = "http")]
mod http {
    use axum::Router;
    use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
    use axum::response::IntoResponse as _;
    use axum::routing::get;

    use crate::telemetry::PrometheusReader;
    use crate::transport::http::{Guard, RequestHead};

    /// The content type of the text exposition format.
    const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

    /// The router with the Prometheus endpoint added, if there is one.
    pub(crate) fn prometheus_route(
        router: Router,
        prometheus: Option<(String, PrometheusReader)>,
        guard: Guard,
    ) -> Router {
        let Some((path, reader)) = prometheus else {
            return router;
        };
        router.route(
            &path,
            // Behind the endpoint's guard: tool names and latencies are not for every
            // page a browser visits (DNS rebinding), nor for every client.
            get(move |method: Method, uri: Uri, headers: HeaderMap| {
                let (guard, reader) = (guard.clone(), reader.clone());
                async move {
                    let head = RequestHead::new(&method, &uri, &headers);
                    let scraped = match guard.admit(head).await.map(|_| reader.render()) {
                        Ok(scraped) => scraped,
                        Err(refused) => return *refused,
                    };
                    match scraped {
                        Ok(text) => (
                            [(header::CONTENT_TYPE, HeaderValue::from_static(TEXT_FORMAT))],
                            text,
                        )
                            .into_response(),
                        Err(error) => {
                            tracing::warn!(%error, "a Prometheus scrape failed");
                            (StatusCode::INTERNAL_SERVER_ERROR, error).into_response()
                        }
                    }
                }
            }),
        )
    }
}
