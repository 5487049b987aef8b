//! The trace context a client sends with a request: W3C `traceparent` and `tracestate`, in
//! the request's `params._meta` (SEP-414, unprefixed keys) or, over HTTP, in the request's
//! headers. `_meta` is per message, so it wins: one HTTP request may carry several MCP
//! messages, and one MCP request may be retried over several HTTP requests.

use opentelemetry::Context;
use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry::trace::TraceContextExt as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use serde_json::Value;

use crate::protocol::meta::RequestMeta;

/// The key every carrier must have for there to be anything to extract.
const TRACEPARENT: &str = "traceparent";

/// The remote parent named in a request's `_meta`, if it names a valid one.
pub(crate) fn from_meta(meta: Option<&RequestMeta>) -> Option<Context> {
    let meta = meta.filter(|meta| meta.contains_key(TRACEPARENT))?;
    extract(&MetaCarrier(meta))
}

/// The remote parent named in an HTTP request's headers, if they name a valid one.
#[cfg(feature = "http")]
pub(crate) fn from_headers(headers: &axum::http::HeaderMap) -> Option<Context> {
    if !headers.contains_key(TRACEPARENT) {
        return None;
    }
    extract(&HeaderCarrier(headers))
}

/// W3C trace context, whatever global propagator the application installed: it is what
/// MCP clients send.
fn extract(carrier: &dyn Extractor) -> Option<Context> {
    let context = TraceContextPropagator::new().extract_with_context(&Context::new(), carrier);
    context.span().span_context().is_valid().then_some(context)
}

struct MetaCarrier<'a>(&'a RequestMeta);

impl Extractor for MetaCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().collect()
    }
}

#[cfg(feature = "http")]
struct HeaderCarrier<'a>(&'a axum::http::HeaderMap);

#[cfg(feature = "http")]
impl Extractor for HeaderCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(axum::http::HeaderName::as_str).collect()
    }
}

#[cfg(test)]
mod tests {
    use opentelemetry::trace::TraceContextExt as _;
    use serde_json::json;

    use super::*;

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    fn decoded(meta: Value) -> RequestMeta {
        serde_json::from_value(meta).expect("an object")
    }

    #[test]
    fn a_traceparent_in_meta_is_the_remote_parent() {
        let meta = json!({ "traceparent": PARENT, "tracestate": "rojo=00f067aa0ba902b7" });
        let context = from_meta(Some(&decoded(meta))).expect("a valid parent");
        let parent = context.span().span_context().clone();
        assert_eq!(
            parent.trace_id().to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert_eq!(parent.span_id().to_string(), "00f067aa0ba902b7");
        assert!(parent.is_remote() && parent.is_sampled());
        assert_eq!(parent.trace_state().get("rojo"), Some("00f067aa0ba902b7"));
    }

    #[test]
    fn nothing_or_nonsense_gives_no_parent() {
        assert!(from_meta(None).is_none());
        for meta in [
            json!({ "progressToken": 1 }),
            json!({ "traceparent": "00-zz-yy-01" }),
            json!({ "traceparent": 7 }),
        ] {
            assert!(from_meta(Some(&decoded(meta))).is_none());
        }
    }

    #[cfg(feature = "http")]
    #[test]
    fn a_traceparent_header_is_the_remote_parent() {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(TRACEPARENT, PARENT.parse().unwrap());
        let context = from_headers(&headers).expect("a valid parent");
        assert_eq!(
            context.span().span_context().span_id().to_string(),
            "00f067aa0ba902b7"
        );
        assert!(from_headers(&axum::http::HeaderMap::new()).is_none());
    }
}
