//! What one connection or session may make the protocol layer hold: batches, subscriptions,
//! echoed tokens and the client's description, each bounded (a leaf: it imports nothing of
//! the crate).

use serde_json::Value;

/// The most messages one JSON-RPC batch (2025-03-26) may hold: each may start a call.
pub(crate) const MAX_BATCH_LENGTH: usize = 100;
/// The most resources one connection or session may subscribe to: the session keeps each
/// URI, and a fleet's record carries them all.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 1000;
/// The longest string `progressToken` echoed back: every progress notification repeats it.
pub(crate) const MAX_PROGRESS_TOKEN_LENGTH: usize = 256;
/// The most JSON text `initialize`'s `clientInfo` may take: a session keeps it for its life.
pub(crate) const MAX_CLIENT_INFO_SIZE: usize = 16 * 1024;
/// The most JSON text `initialize`'s `capabilities` may take, kept decoded for the session's
/// life (several times its text).
pub(crate) const MAX_CLIENT_CAPABILITIES_SIZE: usize = 8 * 1024;

/// The length of `value` as compact JSON text, counted without writing it anywhere.
pub(super) fn json_size(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}
