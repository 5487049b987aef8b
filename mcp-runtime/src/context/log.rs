//! Log levels: what a client asks to receive (`logging/setLevel`, or a 2026-07-28
//! request's `_meta`), and the filter each request's log messages pass.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// The severity of a log message sent to the client (syslog's levels, as MCP uses them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// A warning.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    /// Parses a level's name.
    pub fn parse(name: &str) -> Option<LogLevel> {
        LogLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == name)
    }

    fn from_index(index: u8) -> Option<LogLevel> {
        LogLevel::ALL.get(usize::from(index)).copied()
    }
}

/// The minimum level a handshake-era client asked for with `logging/setLevel`, shared by the
/// connection's requests. Before the client asks, `info` and above are sent.
#[derive(Clone)]
pub(crate) struct SessionLogLevel(Arc<AtomicU8>);

impl Default for SessionLogLevel {
    fn default() -> Self {
        SessionLogLevel(Arc::new(AtomicU8::new(LogLevel::Info as u8)))
    }
}

impl SessionLogLevel {
    pub fn set(&self, level: LogLevel) {
        self.0.store(level as u8, Ordering::Relaxed);
    }

    pub(crate) fn get(&self) -> LogLevel {
        LogLevel::from_index(self.0.load(Ordering::Relaxed)).unwrap_or(LogLevel::Info)
    }
}

/// Which log messages a request may send.
#[derive(Clone)]
pub(crate) enum LogFilter {
    /// Handshake era: the connection's `logging/setLevel`.
    Session(SessionLogLevel),
    /// 2026-07-28: the request's own `_meta` level.
    Request(LogLevel),
    /// 2026-07-28 without a level in `_meta`: no log messages at all.
    Silent,
}

impl LogFilter {
    pub(crate) fn allows(&self, level: LogLevel) -> bool {
        match self {
            LogFilter::Session(minimum) => level >= minimum.get(),
            LogFilter::Request(minimum) => level >= *minimum,
            LogFilter::Silent => false,
        }
    }
}
