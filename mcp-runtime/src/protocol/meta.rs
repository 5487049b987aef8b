//! The `_meta` keys the runtime reads and writes, spelled once.
//!
//! The stateless revision (2026-07-28) carries in every request what a handshake carried
//! before (protocol version, client capabilities and identity, log level), and the server
//! answers with its identity; these are the keys of those members.

/// The protocol revision a 2026-07-28 request is served under.
pub(crate) const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The capabilities of the client that sent a 2026-07-28 request.
pub(crate) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The name and version of the client that sent a 2026-07-28 request.
pub(crate) const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The server's identity on every 2026-07-28 result.
pub(crate) const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// The log level a 2026-07-28 request asks its log messages to be filtered at.
pub(crate) const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// The id of the `subscriptions/listen` request a notification belongs to.
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// The token a request's progress notifications carry (every revision).
pub(crate) const PROGRESS_TOKEN: &str = "progressToken";
