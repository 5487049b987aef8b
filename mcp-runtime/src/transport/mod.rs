//! Transports: how messages reach a session and answers leave it.
//!
//! - `calls`: the call table both transports share (calls running as tasks, cancellable by
//!   id, answered within a shutdown's grace period);
//! - `stdio`: one connection over a byte stream (stdin/stdout, or any pipe);
//! - `http` (feature `http`): Streamable HTTP, both eras.

pub(crate) mod calls;
#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod stdio;
