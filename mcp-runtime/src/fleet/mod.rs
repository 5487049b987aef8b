//! A fleet: several instances of one server behind a load balancer, without sticky routing,
//! sharing what a request may need wherever it lands (feature `http`; the Redis stores need
//! feature `redis`).
//!
//! What is shared, through a [`FleetStore`]:
//!
//! - **handshake-era sessions** (2025-03-26 … 2025-11-25): what `initialize` negotiated, the
//!   client's log level and resource subscriptions, and the session's expiry. Any instance
//!   serves any session's POSTs; `DELETE` ends the session everywhere.
//! - **resumable response streams**: each event of a call's SSE stream is also appended to
//!   the store, under the same id, so a client that reconnects with `Last-Event-ID` to
//!   another instance gets what it missed and then the rest. If the instance running the
//!   call dies, the stream ends with an error response for the call.
//! - **messages between instances**: a client's answer to a tool's request (elicitation,
//!   sampling, roots) and a `notifications/cancelled` reach the instance running the call;
//!   list changes and resource updates reach every instance's streams; a session's end and
//!   the messages of its tasks reach whichever instance holds its GET stream.
//! - **tasks**, through the [`TaskStore`](crate::TaskStore) (the Redis one is
//!   [`RedisTaskStore`]).
//!
//! 2026-07-28 requests need none of this: they stand alone.

mod beats;
mod store;

#[cfg(feature = "redis")]
mod redis;

#[cfg(feature = "redis")]
pub use self::redis::{RedisFleetStore, RedisLink, RedisTaskStore};
pub(crate) use beats::spawn_beats;
pub(crate) use store::HEARTBEAT_TTL;
pub use store::{
    FleetMessages, FleetStore, SUBSCRIBED, SessionChange, SessionRecord, StoreError, StoreFuture,
    StreamAppend, StreamBounds, StreamEvent, StreamEvents, StreamKey, StreamOrigin, UNSUBSCRIBED,
};
