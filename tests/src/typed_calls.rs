//! Counting the calls whose arguments were decoded straight into their tool's parameters
//! (the runtime's `mcp_runtime::typed_arguments` trace events, one per such call), and those
//! of them made without a context (`mcp_runtime::calls_without_context`). The tests that
//! hold the typed path to the general one count them, so that they are not vacuous.

use std::sync::atomic::{AtomicU64, Ordering};

static TYPED_CALLS: AtomicU64 = AtomicU64::new(0);
static CALLS_WITHOUT_CONTEXT: AtomicU64 = AtomicU64::new(0);

/// A `tracing` layer that counts them.
pub struct CountTypedCalls;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for CountTypedCalls {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        match event.metadata().target() {
            "mcp_runtime::typed_arguments" => TYPED_CALLS.fetch_add(1, Ordering::Relaxed),
            "mcp_runtime::calls_without_context" => {
                CALLS_WITHOUT_CONTEXT.fetch_add(1, Ordering::Relaxed)
            }
            _ => return,
        };
    }
}

/// How many this process has counted so far.
pub fn typed_calls() -> u64 {
    TYPED_CALLS.load(Ordering::Relaxed)
}

/// How many calls made without a context this process has counted so far.
pub fn calls_without_context() -> u64 {
    CALLS_WITHOUT_CONTEXT.load(Ordering::Relaxed)
}
