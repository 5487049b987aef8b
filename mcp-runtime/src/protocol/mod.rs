//! The wire: JSON-RPC messages, protocol revisions, the `_meta` keys, and the outbox that
//! carries a request's messages to the client.
//!
//! Nothing here knows about tools, sessions or transports; every other layer builds on it.

pub(crate) mod client_info;
pub(crate) mod cursor;
pub(crate) mod jsonrpc;
pub(crate) mod meta;
pub(crate) mod outbox;
pub(crate) mod random_id;
pub(crate) mod version;
