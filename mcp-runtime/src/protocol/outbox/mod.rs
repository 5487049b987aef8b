//! [`Outbox`]: where the messages about one request go.
//!
//! Over stdio every message shares the connection's output. Over HTTP, a request's
//! related messages (progress, log messages, the server's own requests made while serving
//! it) belong on that request's response stream, and the response itself ends the stream.
//! So each request is handed the outbox its related messages go to, and the transport
//! decides what stands behind it.

mod kept;

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use crate::protocol::jsonrpc::Response;

pub(crate) use kept::KeptHere;

/// A queue of newline-terminated JSON lines, drained by a transport writer.
///
/// Every outbox of a channel is a clone of the one made with it, sharing its sender: a
/// clone costs one reference count rather than the channel's two, and which outbox a
/// message is sent on is known from the sender's address (see
/// [`keep_on_this_thread`](Outbox::keep_on_this_thread)), with no clone kept to compare.
#[derive(Clone, Debug)]
pub(crate) struct Outbox(Arc<mpsc::UnboundedSender<Vec<u8>>>);

/// Queued after the last message: the writer writes what came before it, then stops.
pub(crate) const END_OF_OUTPUT: Vec<u8> = Vec::new();

impl Outbox {
    pub fn new(lines: mpsc::UnboundedSender<Vec<u8>>) -> Self {
        Outbox(Arc::new(lines))
    }

    /// A fresh outbox and the receiving end its writer drains.
    pub fn channel() -> (Outbox, mpsc::UnboundedReceiver<Vec<u8>>) {
        let (lines, queued) = mpsc::unbounded_channel();
        (Outbox::new(lines), queued)
    }

    /// Queues one message. A closed outbox means its reader is gone, which the transport
    /// notices on its own, so the message is dropped quietly.
    pub fn send(&self, message: &Value) {
        let mut line = serde_json::to_vec(message).expect("a JSON value always serializes");
        line.push(b'\n');
        self.queue(line);
    }

    /// Queues a response.
    pub fn send_response(&self, response: Response) {
        self.queue(response.into_line());
    }

    /// Queues the answer to a batch.
    pub fn send_batch(&self, responses: Vec<Response>) {
        let mut line = Response::batch(responses);
        line.push(b'\n');
        self.queue(line);
    }

    /// Queues a line, or keeps it when this thread keeps this outbox's messages.
    fn queue(&self, line: Vec<u8>) {
        if let Err(line) = kept::keep(self.key(), line) {
            let _ = self.0.send(line);
        }
    }

    /// Which outbox this is, for [`kept`]: every clone shares the sender, and its address.
    fn key(&self) -> *const () {
        Arc::as_ptr(&self.0).cast()
    }

    /// Until the guard is dropped, what this thread sends on this outbox is kept for the
    /// guard's holder ([`KeptHere::take`]) instead of queued.
    ///
    /// The stdio connection keeps what handling one message sends, so it goes out right
    /// before that message's answer; work the handling started on other threads (a task's
    /// tool, say) sends through the queue, which is written after the answer. Queued with
    /// the rest, a task's first request to the client could go out before the answer that
    /// tells the client the task exists.
    pub fn keep_on_this_thread(&self) -> KeptHere {
        kept::start(self.key())
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

/// Whether a line an outbox carries is a notification (a `method` and no `id`): what a
/// transport may drop for a client that does not read, where the call's own answer and
/// the server's requests may not be.
pub(crate) fn is_notification(line: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Envelope {
        method: Option<serde::de::IgnoredAny>,
        id: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<Envelope>(line)
        .is_ok_and(|envelope| envelope.method.is_some() && envelope.id.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drained(queued: &mut mpsc::UnboundedReceiver<Vec<u8>>) -> Vec<Vec<u8>> {
        std::iter::from_fn(|| queued.try_recv().ok()).collect()
    }

    #[test]
    fn what_this_thread_sends_on_a_kept_outbox_or_its_clones_is_kept_and_nothing_else() {
        let (outbox, mut queued) = Outbox::channel();
        let (other, mut other_queued) = Outbox::channel();
        let clone = outbox.clone();
        let kept = outbox.keep_on_this_thread();
        clone.send(&serde_json::json!(1));
        other.send(&serde_json::json!(2));
        // Another thread's messages are queued, even on the kept outbox.
        std::thread::scope(|scope| {
            scope.spawn(|| outbox.send(&serde_json::json!(3)));
        });
        let mut taken = Vec::new();
        kept.take(&mut taken);
        assert_eq!(taken, b"1\n");
        assert_eq!(drained(&mut queued), [b"3\n".to_vec()]);
        assert_eq!(drained(&mut other_queued), [b"2\n".to_vec()]);
        drop(kept);
        // Once the guard is gone, nothing is kept.
        clone.send(&serde_json::json!(4));
        assert_eq!(drained(&mut queued), [b"4\n".to_vec()]);
        assert!(outbox.same_channel(&clone) && !outbox.same_channel(&other));
    }
}
