//! Resumable streams across a fleet: each event of a call's stream is copied to the store,
//! and an instance that never saw the stream serves a client resuming it from there.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::membership::Fleet;
use crate::fleet::{StoreError, StreamBounds, StreamEvent, StreamKey, StreamOrigin};
use crate::protocol::jsonrpc::code;
use crate::protocol::random_id::random_id;
use crate::transport::http::sse::{
    KEEP_ALIVE, REPLAY_BYTES, REPLAY_EVENTS, RETAIN_ENDED, Replay, frame, framed_response,
};

/// How often a resumed stream served from the store looks for new events.
const POLL_EVERY: Duration = Duration::from_millis(50);
/// How often it checks, while no event comes, that the instance running its call lives.
const CHECK_RUNNER_EVERY: Duration = Duration::from_secs(1);

impl Fleet {
    /// Copies every event of `replay` (a call's stream, run here, in `session`) to the
    /// store, in order, with the ids of the requests it answers. `retain` is how long the
    /// stream is kept while it is open (the session's idle timeout); once it ends, as long
    /// as a stream is kept in memory.
    pub fn mirror(&self, replay: &Replay, session: &str, requests: Value, retain: Duration) {
        let key = StreamKey {
            session: session.to_owned(),
            number: replay.number(),
        };
        let origin = StreamOrigin::new(self.instance.to_string(), requests);
        let mirror = self
            .gathering
            .mirror(&self.store, key, origin, bounds(retain), RETAIN_ENDED);
        replay.mirror_to(mirror);
    }
}

/// The bounds of an in-memory replay buffer, kept `retain` from now.
fn bounds(retain: Duration) -> StreamBounds {
    StreamBounds::new(REPLAY_EVENTS, REPLAY_BYTES, retain)
}

/// The error response(s) a resumed stream ends with when the instance running its
/// requests died: one per request (an array for a batch).
fn runner_died(requests: &Value) -> String {
    let error = |id: &Value| {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": code::INTERNAL_ERROR,
                "message": "Internal error: the server instance running this request stopped before answering it.",
            },
        })
    };
    match requests.as_array().map(Vec::as_slice) {
        Some([single]) => error(single).to_string(),
        Some(many) => Value::Array(many.iter().map(error).collect()).to_string(),
        None => error(&Value::Null).to_string(),
    }
}

/// GET + `Last-Event-ID` for a stream this instance does not hold (`session`'s stream
/// `number`): the events after `after` from the store, then the rest as the running instance
/// adds them; an error response if that instance dies first. `None` when the store does not
/// hold the stream either.
pub(crate) async fn remote_stream(
    fleet: &Arc<Fleet>,
    session: String,
    number: u64,
    after: u64,
    until: CancellationToken,
    retry: Option<Duration>,
) -> Result<Option<Response>, StoreError> {
    let stream = StreamKey { session, number };
    // Claimed before the first read, so a reader that started earlier sees it at its next.
    let reader = random_id();
    fleet.store.claim_stream(&stream, &reader).await?;
    let Some(first) = fleet.store.read_events(&stream, Some(after)).await? else {
        return Ok(None);
    };
    if first.ended && first.events.is_empty() {
        // Nothing more will come: 204 tells the client to stop reconnecting.
        return Ok(Some(StatusCode::NO_CONTENT.into_response()));
    }
    let (frames, body) = mpsc::channel::<Bytes>(16);
    let fleet = Arc::clone(fleet);
    tokio::spawn(async move {
        let mut reader = RemoteReader {
            fleet,
            stream,
            reader,
            cursor: after,
            retry,
            frames,
            checked_runner: Instant::now(),
            last_sent: Instant::now(),
        };
        tokio::select! {
            () = reader.run() => {}
            () = until.cancelled() => {}
        }
    });
    let frames = futures_util::stream::unfold(body, |mut body| async move {
        let frame = body.recv().await?;
        Some((Ok::<_, Infallible>(frame), body))
    });
    let response = framed_response(frames);
    Ok(Some(response))
}

/// A resumption served here, from memory, still claims the stream in the store, so that a
/// reader of it on another instance (where the client resumed it before) ends.
pub(crate) async fn claim_here(fleet: &Fleet, session: &str, number: u64) {
    let stream = StreamKey {
        session: session.to_owned(),
        number,
    };
    if let Err(error) = fleet.store.claim_stream(&stream, &random_id()).await {
        tracing::debug!(%error, "a resumed stream could not be claimed in the fleet's store");
    }
}

struct RemoteReader {
    fleet: Arc<Fleet>,
    stream: StreamKey,
    /// This connection's claim on the stream: another's means a newer resumption took it.
    reader: String,
    /// The last event delivered.
    cursor: u64,
    retry: Option<Duration>,
    frames: mpsc::Sender<Bytes>,
    checked_runner: Instant,
    last_sent: Instant,
}

impl RemoteReader {
    async fn send(&mut self, bytes: Bytes) -> bool {
        self.last_sent = Instant::now();
        self.frames.send(bytes).await.is_ok()
    }

    /// Delivers events until the stream's response, the client leaves, or the store is
    /// lost for good (then the client reconnects and tries again).
    async fn run(&mut self) {
        let mut failures = 0;
        loop {
            let read = match self
                .fleet
                .store
                .read_events(&self.stream, Some(self.cursor))
                .await
            {
                Ok(Some(read)) => {
                    failures = 0;
                    read
                }
                // Expired meanwhile: nothing more will come.
                Ok(None) => return,
                Err(error) => {
                    failures += 1;
                    if failures > 20 {
                        tracing::warn!(%error, "a resumed stream ends: the fleet's store is unavailable");
                        return;
                    }
                    tokio::time::sleep(POLL_EVERY * 4).await;
                    continue;
                }
            };
            if read
                .reader
                .as_ref()
                .is_some_and(|other| *other != self.reader)
            {
                // The client resumed the stream again, here or elsewhere: that connection
                // reads it now, as a resumption replaces the one before in memory.
                return;
            }
            let got_events = !read.events.is_empty();
            for (seq, data) in &read.events {
                let frame = frame((self.stream.number, *seq), self.retry.take(), data);
                self.cursor = *seq;
                if !self.send(frame).await {
                    return;
                }
            }
            if read.ended {
                if got_events {
                    // Read once more: the response may have come after this read's events.
                    continue;
                }
                return;
            }
            if got_events {
                self.checked_runner = Instant::now();
            } else if self.checked_runner.elapsed() >= CHECK_RUNNER_EVERY {
                self.checked_runner = Instant::now();
                if let Ok(false) = self.fleet.store.is_alive(&read.runner).await {
                    // The runner died: end the stream with an error for its requests, unless
                    // its response lands first or it beats again (the store checks both
                    // again as it appends).
                    let error = runner_died(&read.requests);
                    let error = [StreamEvent::new(self.cursor.saturating_add(1), error, true)];
                    let _ = self
                        .fleet
                        .store
                        .end_for_dead_runner(
                            &self.stream,
                            &read.runner,
                            &error,
                            bounds(RETAIN_ENDED),
                        )
                        .await;
                    continue;
                }
            }
            if self.last_sent.elapsed() >= KEEP_ALIVE
                && !self.send(Bytes::from_static(b":\n\n")).await
            {
                return;
            }
            tokio::time::sleep(POLL_EVERY).await;
        }
    }
}
