//! Forwarding `tracing` events that a tool emits to the client, as `notifications/message`
//! log messages of the call being served (opt-in: [`Server::forward_tracing`]).
//!
//! While a tool's future is polled (or its plain `fn` body runs on its thread), its
//! [`Context`] is the thread's current context; [`ClientLogLayer`] sends each event emitted
//! on that thread through it, so the client's log level (`logging/setLevel`, or the
//! 2026-07-28 request's `_meta`) filters it like any `ctx.log` message.
//!
//! [`Server::forward_tracing`]: crate::Server::forward_tracing

use std::cell::RefCell;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context as LayerContext, Layer};

use crate::context::{Context, LogLevel};

thread_local! {
    /// The context of the tool running on this thread, if its events are forwarded.
    static CURRENT: RefCell<Option<Context>> = const { RefCell::new(None) };
}

/// Runs `body` with `context` as this thread's current tool context.
pub(crate) fn with_current<T>(context: Option<Context>, body: impl FnOnce() -> T) -> T {
    struct Restore(Option<Context>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|current| *current.borrow_mut() = previous);
        }
    }
    let previous = CURRENT.with(|current| current.replace(context));
    let _restore = Restore(previous);
    body()
}

/// A tool's future, polled with its context current so its events are forwarded.
pub(crate) fn forwarding<F: Future + ?Sized>(tool: Pin<Box<F>>, context: Context) -> Forwarding<F> {
    Forwarding { tool, context }
}

pub(crate) struct Forwarding<F: ?Sized> {
    tool: Pin<Box<F>>,
    context: Context,
}

impl<F: Future + ?Sized> Future for Forwarding<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let context = self.context.clone();
        with_current(Some(context), || self.tool.as_mut().poll(cx))
    }
}

/// A [`tracing_subscriber`] layer that sends `tracing` events emitted inside a tool to the
/// client as log messages of that call (`notifications/message`, logger = the event's
/// target). Events outside tools, and the runtime's own, are left alone.
///
/// [`Server::forward_tracing`](crate::Server::forward_tracing) turns forwarding on; when
/// the runtime installs its stderr subscriber it adds this layer itself. An application
/// with its own subscriber adds it there:
///
/// ```
/// use tracing_subscriber::prelude::*;
///
/// tracing_subscriber::registry()
///     .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
///     .with(mcp_runtime::ClientLogLayer::new())
///     .init();
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientLogLayer {
    _private: (),
}

impl ClientLogLayer {
    /// The layer.
    pub fn new() -> Self {
        ClientLogLayer::default()
    }
}

impl<S: Subscriber> Layer<S> for ClientLogLayer {
    fn on_event(&self, event: &Event<'_>, _: LayerContext<'_, S>) {
        let metadata = event.metadata();
        if metadata.target().starts_with("mcp_runtime") {
            return;
        }
        // Cloned out, so nothing stays borrowed while the message is sent.
        let Some(context) = CURRENT.with(|current| current.borrow().clone()) else {
            return;
        };
        let level = match *metadata.level() {
            Level::ERROR => LogLevel::Error,
            Level::WARN => LogLevel::Warning,
            Level::INFO => LogLevel::Info,
            Level::DEBUG | Level::TRACE => LogLevel::Debug,
        };
        if !context.logs_at(level) {
            return;
        }
        let mut fields = JsonFields::default();
        event.record(&mut fields);
        let data = match (fields.message, fields.others.is_empty()) {
            (Some(message), true) => Value::String(message),
            (message, _) => {
                let mut data = fields.others;
                if let Some(message) = message {
                    data.insert("message".into(), Value::String(message));
                }
                Value::Object(data)
            }
        };
        context.log_as(level, metadata.target(), data);
    }
}

/// An event's fields as JSON: `message` apart, the rest by name.
#[derive(Default)]
struct JsonFields {
    message: Option<String>,
    others: Map<String, Value>,
}

impl JsonFields {
    fn put(&mut self, field: &Field, value: Value) {
        if field.name() == "message" {
            self.message = Some(match value {
                Value::String(text) => text,
                other => other.to_string(),
            });
        } else {
            self.others.insert(field.name().to_owned(), value);
        }
    }
}

impl Visit for JsonFields {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.put(field, Value::String(format!("{value:?}")));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.put(field, Value::String(value.to_owned()));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(field, value.into());
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(field, value.into());
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.put(field, value.into());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.put(field, value.into());
    }
}
