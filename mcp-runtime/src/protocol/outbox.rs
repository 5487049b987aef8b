//! [`Outbox`]: where the messages about one request go.
//!
//! Over stdio every message shares the connection's output. Over HTTP, a request's
//! related messages (progress, log messages, the server's own requests made while serving
//! it) belong on that request's response stream, and the response itself ends the stream.
//! So each request is handed the outbox its related messages go to, and the transport
//! decides what stands behind it.

use serde_json::Value;
use tokio::sync::mpsc;

use crate::protocol::jsonrpc::Response;

/// A queue of newline-terminated JSON lines, drained by a transport writer.
#[derive(Clone, Debug)]
pub(crate) struct Outbox(mpsc::UnboundedSender<Vec<u8>>);

/// Queued after the last message: the writer writes what came before it, then stops.
pub(crate) const END_OF_OUTPUT: Vec<u8> = Vec::new();

impl Outbox {
    pub fn new(lines: mpsc::UnboundedSender<Vec<u8>>) -> Self {
        Outbox(lines)
    }

    /// A fresh outbox and the receiving end its writer drains.
    pub fn channel() -> (Outbox, mpsc::UnboundedReceiver<Vec<u8>>) {
        let (lines, queued) = mpsc::unbounded_channel();
        (Outbox(lines), queued)
    }

    /// Queues one message. A closed outbox means its reader is gone, which the transport
    /// notices on its own, so the message is dropped quietly.
    pub fn send(&self, message: &Value) {
        let mut line = serde_json::to_vec(message).expect("a JSON value always serializes");
        line.push(b'\n');
        let _ = self.0.send(line);
    }

    /// Queues a response.
    pub fn send_response(&self, response: Response) {
        let _ = self.0.send(response.into_line());
    }

    /// Queues the answer to a batch.
    pub fn send_batch(&self, responses: Vec<Response>) {
        let mut line = Response::batch(responses);
        line.push(b'\n');
        let _ = self.0.send(line);
    }

    /// Tells the writer to stop after what is already queued, even while clones of this
    /// outbox (held by tools that kept their context) stay alive.
    pub fn end(&self) {
        let _ = self.0.send(END_OF_OUTPUT);
    }

    /// An outbox nobody reads: what is sent to it is dropped (a 2026-07-28 task's
    /// messages, which have no stream to go on).
    pub fn discarding() -> Self {
        Outbox::channel().0
    }

    /// Whether both send to the same reader.
    pub fn same_channel(&self, other: &Outbox) -> bool {
        self.0.same_channel(&other.0)
    }

    /// Whether the reader is gone.
    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
    }

    /// Resolves once the reader is gone (the client stopped reading).
    #[cfg(feature = "http")]
    pub async fn closed(&self) {
        self.0.closed().await;
    }
}
