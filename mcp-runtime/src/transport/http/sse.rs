//! Response streams: the messages of one outbox as Server-Sent Events.
//!
//! Two kinds:
//!
//! - **plain** ([`response`]): the events go straight from the outbox to the connection and
//!   carry no ids. 2026-07-28 streams (closing one cancels its request, and the revision has
//!   no resumption) and `subscriptions/listen` use them.
//! - **resumable** ([`Replay`], handshake-era sessions): every event carries an id
//!   `STREAM-SEQ`, and the stream's recent events are kept in a bounded buffer, so a client
//!   that lost the connection reconnects with `GET` + `Last-Event-ID` and gets the events
//!   after that id (the response among them) exactly once. The call keeps running while no
//!   client reads; what it sends meanwhile waits in the buffer. Under 2025-11-25 a stream
//!   starts with a priming event (an id, `retry:` and empty data) and the server may close
//!   it mid-call ("SSE polling"); the client then reconnects the same way.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderName, HeaderValue, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;

use super::fleet::Mirror;
use crate::fleet::StreamEvent;
use crate::protocol::outbox::is_notification;

/// How often an idle stream carries a comment, so proxies do not time it out.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The replay buffer of one stream keeps at most this many events…
pub(crate) const REPLAY_EVENTS: usize = 256;
/// …and at most this many bytes of them (the latest event is always kept, whatever its size).
pub(crate) const REPLAY_BYTES: usize = 1024 * 1024;
/// A finished stream stays resumable this long after its last event…
pub(crate) const RETAIN_ENDED: Duration = Duration::from_secs(60);
/// …and a session keeps at most this many finished streams (the oldest go first).
pub(crate) const RETAIN_ENDED_STREAMS: usize = 16;

/// How long a call's SSE response waits for its first event before it sends its headers
/// alone. A call answered within it goes out in one write (headers, event and end of
/// stream together) instead of three; a longer call has its headers sent when this runs
/// out, so clients and proxies waiting for them are not kept waiting.
pub(crate) const FIRST_EVENT_WAIT: Duration = Duration::from_millis(10);

/// Asks nginx not to buffer a stream, which would hold progress back.
const X_ACCEL_BUFFERING: HeaderName = HeaderName::from_static("x-accel-buffering");

/// The most bytes of messages a plain stream holds for a client that does not read them:
/// past it the oldest notifications are dropped (responses and the server's requests are
/// always kept), so a client that stops reading holds little of the server's memory.
pub(crate) const PLAIN_STREAM_BYTES: usize = 1024 * 1024;

/// An SSE response carrying every message queued on an outbox, one `message` event each,
/// until the outbox is ended (or `until` fires, for streams that never end by themselves).
/// The messages wait for the client in a buffer of [`PLAIN_STREAM_BYTES`]. Dropping the
/// response (the client went away) drops `queued`, which the outbox's owner sees as closed.
/// The headers wait up to [`FIRST_EVENT_WAIT`] for the first event.
pub(crate) async fn response(
    queued: mpsc::UnboundedReceiver<Vec<u8>>,
    until: Option<CancellationToken>,
) -> Response {
    let buffer = Arc::new(Buffer::default());
    let filling = tokio::spawn(fill(queued, Arc::clone(&buffer)));
    let stream = BufferedStream {
        buffer,
        until,
        _filling: AbortOnDrop(filling.abort_handle()),
    };
    // Sent with the headers when it comes in time.
    let _ = tokio::time::timeout(FIRST_EVENT_WAIT, stream.buffer.has_any()).await;
    let events = futures_util::stream::unfold(stream, |stream| async move {
        let line = stream.next().await?;
        let event = Event::default().data(utf8_text(line.trim_ascii_end()));
        Some((Ok::<_, Infallible>(event), stream))
    });
    sse_response(events)
}

/// The messages of a plain stream not sent yet.
#[derive(Default)]
struct Buffer {
    held: Mutex<Held>,
    changed: Notify,
}

#[derive(Default)]
struct Held {
    lines: VecDeque<Vec<u8>>,
    bytes: usize,
    /// The outbox ended: after `lines`, nothing more.
    ended: bool,
}

impl Held {
    /// Adds a line, then drops the oldest notifications while over the bound.
    fn push(&mut self, line: Vec<u8>) {
        self.bytes += line.len();
        self.lines.push_back(line);
        while self.bytes > PLAIN_STREAM_BYTES {
            let Some(oldest) = self.lines.iter().position(|line| is_notification(line)) else {
                return;
            };
            if let Some(dropped) = self.lines.remove(oldest) {
                self.bytes -= dropped.len();
            }
        }
    }
}

impl Buffer {
    fn held(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Resolves once the buffer holds a line or has ended.
    async fn has_any(&self) {
        loop {
            let changed = self.changed.notified();
            {
                let held = self.held();
                if !held.lines.is_empty() || held.ended {
                    return;
                }
            }
            changed.await;
        }
    }
}

/// Moves what an outbox carries into `buffer`, up to its end marker (an empty line).
async fn fill(mut queued: mpsc::UnboundedReceiver<Vec<u8>>, buffer: Arc<Buffer>) {
    loop {
        let line = queued.recv().await.filter(|line| !line.is_empty());
        let ended = line.is_none();
        {
            let mut held = buffer.held();
            match line {
                Some(line) => held.push(line),
                None => held.ended = true,
            }
        }
        // One reader: a wake-up stored while it is not waiting is not lost.
        buffer.changed.notify_one();
        if ended {
            return;
        }
    }
}

/// The reading side of a plain stream.
struct BufferedStream {
    buffer: Arc<Buffer>,
    until: Option<CancellationToken>,
    /// Stops the filling (and so drops the outbox's receiver) when the client goes away.
    _filling: AbortOnDrop,
}

impl BufferedStream {
    /// The next line, or `None` once the outbox ended (or `until` fired).
    async fn next(&self) -> Option<Vec<u8>> {
        loop {
            let changed = self.buffer.changed.notified();
            {
                let mut held = self.buffer.held();
                if let Some(line) = held.lines.pop_front() {
                    held.bytes -= line.len();
                    return Some(line);
                }
                if held.ended {
                    return None;
                }
            }
            match &self.until {
                Some(until) => tokio::select! {
                    () = changed => {}
                    () = until.cancelled() => return None,
                },
                None => changed.await,
            }
        }
    }
}

struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The SSE response of a 2026-07-28 request answered at once: what [`response`] sends once
/// the call's outbox carried only its response (a `message` event without an id), built
/// without the outbox.
pub(crate) fn only_event(answer: &crate::protocol::jsonrpc::Response) -> Response {
    let mut event = Vec::with_capacity(answer.json().len() + 8);
    event.extend_from_slice(b"data: ");
    // A response is one line of JSON: one `data` line.
    event.extend_from_slice(answer.json());
    event.extend_from_slice(b"\n\n");
    let frames = futures_util::stream::once(std::future::ready(Ok(Bytes::from(event))));
    framed_response(frames)
}

fn sse_response(
    events: impl futures_util::Stream<Item = Result<Event, Infallible>> + Send + 'static,
) -> Response {
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response();
    response
        .headers_mut()
        .insert(X_ACCEL_BUFFERING, HeaderValue::from_static("no"));
    response
}

/// For a client that does not accept SSE: waits for the end of the outbox and returns the
/// last message (the response); related messages before it are dropped.
pub(crate) async fn last_message(mut queued: mpsc::UnboundedReceiver<Vec<u8>>) -> Option<Vec<u8>> {
    let mut last = None;
    while let Some(line) = queued.recv().await {
        if line.is_empty() {
            break;
        }
        last = Some(line);
    }
    last
}

/// Writes an event id at the end of `out`: the stream's number in its session and the
/// event's sequence number in it. With `itoa`, not `write!`: every event has an id, and
/// through the formatting machinery the id is a large share of the cost of framing one.
fn push_event_id(out: &mut String, stream: u64, seq: u64) {
    let mut decimal = itoa::Buffer::new();
    out.push_str(decimal.format(stream));
    out.push('-');
    out.push_str(decimal.format(seq));
}

/// Text of a line an outbox carries, or of a response: UTF-8 as serde_json writes it,
/// checked by the fast check (a lossy conversion checks more slowly) and borrowed.
pub(crate) fn utf8_text(line: &[u8]) -> Cow<'_, str> {
    std::str::from_utf8(line).map_or_else(|_| String::from_utf8_lossy(line), Cow::Borrowed)
}

/// Reads an event id made by [`push_event_id`].
pub(crate) fn parse_event_id(id: &str) -> Option<(u64, u64)> {
    let (stream, seq) = id.trim().split_once('-')?;
    Some((stream.parse().ok()?, seq.parse().ok()?))
}

/// How a session's resumable streams behave (from [`HttpServer`](super::HttpServer)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StreamSettings {
    /// The `retry:` of priming events (2025-11-25): how long a client waits before it
    /// reconnects.
    pub retry: Duration,
    /// SSE polling (2025-11-25): a call stream open this long is closed after its latest
    /// event; the client reconnects with `Last-Event-ID`.
    pub polling: Option<Duration>,
}

/// One resumable stream: its recent events, whether it has ended, and which connection
/// may read it now.
pub(crate) struct Replay {
    number: u64,
    log: Mutex<Log>,
    /// Wakes the connections waiting for the log to change. A connection takes its
    /// `Notified` before it reads the log, so a change made after it read is not missed.
    /// One `Notify` rather than a `watch` channel: a session retains up to
    /// `RETAIN_ENDED_STREAMS` finished streams, and a `watch`'s eight `Notify`s would make
    /// each several hundred bytes larger and take eight locks when the stream is forgotten.
    changed: Notify,
    /// When the stream finished: read without the log's lock by the session, which looks
    /// at each of its running streams whenever it starts one. The log says only whether.
    ended: OnceLock<Instant>,
    /// Where a fleet copies each event as it is added (see `fleet::gather`).
    mirror: OnceLock<Mirror>,
}

struct Log {
    /// The sequence number the next event gets.
    next_seq: u64,
    /// The retained events, oldest first: sequence number and data (empty for a priming
    /// event).
    events: VecDeque<(u64, Arc<str>)>,
    bytes: usize,
    /// Whether the outbox ended: nothing more will come (when: `Replay::ended`).
    ended: bool,
    /// Whether the stream carried its request's response. One that ended without it (the
    /// request was cancelled) is left open, idle, until its client or session goes: ending it
    /// would only make the client reconnect to get the response that never comes.
    answered: bool,
    /// The connection allowed to read: a newer one (a resumption) takes over.
    reader: u64,
    /// Whether that connection is still open.
    attached: bool,
}

impl Replay {
    pub fn new(number: u64) -> Arc<Replay> {
        let log = Log {
            next_seq: 0,
            events: VecDeque::new(),
            bytes: 0,
            ended: false,
            answered: false,
            reader: 0,
            attached: false,
        };
        Arc::new(Replay {
            number,
            log: Mutex::new(log),
            changed: Notify::new(),
            ended: OnceLock::new(),
            mirror: OnceLock::new(),
        })
    }

    /// The log, locked. Nothing panics while holding it, and a log left half changed
    /// would still be one that readers can read: a poisoned lock is taken as it is.
    fn log(&self) -> MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Changes the log, waking the connections waiting for it if `modify` says it changed
    /// something.
    fn change(&self, modify: impl FnOnce(&mut Log) -> bool) {
        let modified = modify(&mut self.log());
        if modified {
            self.changed.notify_waiters();
        }
    }

    /// Copies every event added from now on through `mirror`, in order.
    pub fn mirror_to(&self, mirror: Mirror) {
        let _ = self.mirror.set(mirror);
    }

    pub fn number(&self) -> u64 {
        self.number
    }

    /// Appends an event; the oldest ones go once the buffer is over its bounds.
    pub fn push(&self, data: &str) {
        self.push_event(data, is_response(data));
    }

    /// Appends a priming event: an id to resume from, with empty data. (Through
    /// [`push`](Self::push) it would be parsed as JSON to learn it is not a response, and
    /// make and drop a parse error on every session call.)
    pub fn push_priming(&self) {
        self.push_event("", false);
    }

    /// Appends the response of the stream's request (what [`push`](Self::push) would find
    /// it is, without reading it).
    pub fn push_response(&self, data: &str) {
        self.push_event(data, true);
    }

    fn push_event(&self, data: &str, response: bool) {
        let data: Arc<str> = Arc::from(data);
        let mut seq = 0;
        self.change(|log| {
            seq = log.next_seq;
            log.answered |= response;
            log.bytes += data.len();
            log.events.push_back((log.next_seq, Arc::clone(&data)));
            log.next_seq += 1;
            while log.events.len() > 1
                && (log.events.len() > REPLAY_EVENTS || log.bytes > REPLAY_BYTES)
            {
                if let Some((_, dropped)) = log.events.pop_front() {
                    log.bytes -= dropped.len();
                }
            }
            true
        });
        if let Some(mirror) = self.mirror.get() {
            mirror.copy(StreamEvent::new(seq, data, response));
        }
    }

    /// Marks the stream finished: readers end after the last event.
    pub fn end(&self) {
        self.end_at(Instant::now());
    }

    /// Marks the stream finished at `at` (unless it finished before): [`end`](Self::end),
    /// and tests of what is retained, which need streams that finished at the same instant.
    pub(crate) fn end_at(&self, at: Instant) {
        self.ended.get_or_init(|| at);
        self.change(|log| !std::mem::replace(&mut log.ended, true));
    }

    /// When the stream finished, if it did.
    pub fn ended_at(&self) -> Option<Instant> {
        self.ended.get().copied()
    }

    /// Whether the stream carried its response and holds nothing after `seq`: resuming it
    /// would only give an empty stream.
    pub fn finished_after(&self, seq: u64) -> bool {
        let log = self.log();
        log.ended && log.answered && log.next_seq <= seq.saturating_add(1)
    }

    /// Whether a connection is reading the stream now.
    pub fn is_attached(&self) -> bool {
        self.log().attached
    }

    /// The sequence number of the latest event, if any: where a fresh reader of a
    /// long-lived stream starts.
    pub fn latest(&self) -> Option<u64> {
        self.log().next_seq.checked_sub(1)
    }

    /// Waits up to [`FIRST_EVENT_WAIT`] for the stream to hold more than `events` events (or
    /// to end), so that a response made now goes out with them in one write.
    pub async fn wait_for_events(&self, events: u64) {
        let more = async {
            loop {
                let changed = self.changed.notified();
                {
                    let log = self.log();
                    if log.next_seq > events || log.ended {
                        return;
                    }
                }
                changed.await;
            }
        };
        let _ = tokio::time::timeout(FIRST_EVENT_WAIT, more).await;
    }

    /// Moves everything `queued` carries into the stream, until its end marker; then the
    /// stream ends.
    pub fn pump(self: &Arc<Self>, mut queued: mpsc::UnboundedReceiver<Vec<u8>>) {
        let replay = Arc::clone(self);
        tokio::spawn(async move {
            while let Some(line) = queued.recv().await {
                if line.is_empty() {
                    break;
                }
                replay.push(&utf8_text(line.trim_ascii_end()));
            }
            replay.end();
        });
    }

    /// The SSE response of a stream that holds all it will carry and that no connection
    /// reads (a call answered at once): every event in one frame, the same bytes
    /// [`respond`](Self::respond) would send from the start, without a reader waiting on
    /// the stream to send them one by one. `retry` goes out with the first event.
    pub fn respond_finished(&self, mut retry: Option<Duration>) -> Response {
        let body = {
            let log = self.log();
            debug_assert!(log.ended && log.answered && !log.attached);
            let size: usize = log.events.iter().map(|(_, data)| data.len() + 64).sum();
            let mut body = String::with_capacity(size);
            for (seq, data) in &log.events {
                write_event(&mut body, (self.number, *seq), retry.take(), data);
            }
            body
        };
        framed_response(futures_util::stream::once(std::future::ready(Ok(
            Bytes::from(body),
        ))))
    }

    /// An SSE response reading this stream from the event after `after` (from the start
    /// when `None`); it takes over from any connection reading it so far. `until` ends it
    /// early (the session's end), `close_after` is SSE polling, and `retry` goes out with
    /// the first event.
    pub fn respond(
        self: &Arc<Self>,
        after: Option<u64>,
        until: Option<CancellationToken>,
        close_after: Option<Duration>,
        retry: Option<Duration>,
    ) -> Response {
        let mut reader = 0;
        self.change(|log| {
            log.reader += 1;
            log.attached = true;
            reader = log.reader;
            true
        });
        let state = ReaderState {
            guard: ReaderGuard {
                replay: Arc::clone(self),
                reader,
            },
            cursor: after,
            until,
            close_at: close_after.map(|after| tokio::time::Instant::now() + after),
            retry,
            // A resuming client already holds an id.
            sent_any: after.is_some(),
            session_over: false,
        };
        // Framed here rather than with axum's `Event`, which cannot write the empty
        // `data:` line of a priming event.
        framed_response(futures_util::stream::unfold(state, ReaderState::next))
    }
}

/// An SSE response whose events `frames` has already framed (ids, `retry`, data).
pub(crate) fn framed_response(
    frames: impl futures_util::Stream<Item = Result<Bytes, Infallible>> + Send + 'static,
) -> Response {
    let mut response = axum::body::Body::from_stream(frames).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(X_ACCEL_BUFFERING, HeaderValue::from_static("no"));
    response
}

/// Marks the stream unattached when its connection goes away (unless a newer one took
/// over meanwhile).
struct ReaderGuard {
    replay: Arc<Replay>,
    reader: u64,
}

impl Drop for ReaderGuard {
    fn drop(&mut self) {
        let reader = self.reader;
        self.replay.change(|log| {
            let mine = log.reader == reader && log.attached;
            if mine {
                log.attached = false;
            }
            mine
        });
    }
}

struct ReaderState {
    guard: ReaderGuard,
    /// The sequence number of the last event this connection (or the one it resumes)
    /// delivered.
    cursor: Option<u64>,
    until: Option<CancellationToken>,
    close_at: Option<tokio::time::Instant>,
    retry: Option<Duration>,
    sent_any: bool,
    /// The session ended: a call stream that ended without a response finishes too.
    session_over: bool,
}

enum Step {
    Send(u64, Arc<str>),
    Finish,
    Wait,
}

/// Whether a message is a response (or a batch of them): the last event of its stream.
pub(crate) fn is_response(data: &str) -> bool {
    match serde_json::from_str::<serde_json::Value>(data) {
        Ok(serde_json::Value::Array(_)) => true,
        Ok(message) => {
            message.get("method").is_none()
                && (message.get("result").is_some() || message.get("error").is_some())
        }
        Err(_) => false,
    }
}

/// One SSE event: the id of event `seq` of stream `stream`, the `retry` field if any, and
/// `data` (an empty `data:` line for a priming event).
pub(crate) fn frame(id: (u64, u64), retry: Option<Duration>, data: &str) -> Bytes {
    // Sized once: the id, `retry: N\n` and the `data: ` prefixes fit in the slack.
    let mut event = String::with_capacity(data.len() + 64);
    write_event(&mut event, id, retry, data);
    Bytes::from(event)
}

/// Writes one SSE event (see [`frame`]) at the end of `event`.
fn write_event(event: &mut String, (stream, seq): (u64, u64), retry: Option<Duration>, data: &str) {
    event.push_str("id: ");
    push_event_id(event, stream, seq);
    event.push('\n');
    if let Some(retry) = retry {
        event.push_str("retry: ");
        event.push_str(itoa::Buffer::new().format(retry.as_millis()));
        event.push('\n');
    }
    for line in data.split('\n') {
        event.push_str("data: ");
        event.push_str(line);
        event.push('\n');
    }
    event.push('\n');
}

impl ReaderState {
    async fn next(mut self) -> Option<(Result<Bytes, Infallible>, ReaderState)> {
        loop {
            let replay = Arc::clone(&self.guard.replay);
            // Taken before the log is read: a change after the reading wakes it.
            let changed = replay.changed.notified();
            let step = {
                let log = replay.log();
                let after = self.cursor;
                let next = log
                    .events
                    .iter()
                    .find(|(seq, _)| after.is_none_or(|after| *seq > after));
                if log.reader != self.guard.reader {
                    // A newer connection resumed this stream.
                    Step::Finish
                } else if let Some((seq, data)) = next {
                    Step::Send(*seq, Arc::clone(data))
                } else if log.ended && (log.answered || self.session_over) {
                    Step::Finish
                } else if log.ended {
                    // Cancelled: nothing will come, so polling would only bring the client
                    // back; the stream idles until the client or the session goes.
                    self.close_at = None;
                    Step::Wait
                } else {
                    Step::Wait
                }
            };
            match step {
                Step::Finish => return None,
                Step::Send(seq, data) => {
                    self.cursor = Some(seq);
                    self.sent_any = true;
                    let id = (self.guard.replay.number, seq);
                    let event = frame(id, self.retry.take(), &data);
                    return Some((Ok(event), self));
                }
                Step::Wait => {}
            }
            // SSE polling: close once the client holds an event id to resume from.
            let close_at = self.close_at.filter(|_| self.sent_any);
            let closed = async {
                match close_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let until = self.until.clone();
            let ended = async {
                match until {
                    Some(until) => until.cancelled_owned().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = changed => {}
                () = tokio::time::sleep(KEEP_ALIVE) => {
                    return Some((Ok(Bytes::from_static(b":\n\n")), self));
                }
                () = closed => return None,
                () = ended => {
                    // The session ended (DELETE, expiry, shutdown). Its GET stream ends now;
                    // a call stream still delivers what its call sends, up to its response
                    // (a call in flight at shutdown gets its grace period to finish).
                    if self.guard.replay.number == 0 {
                        return None;
                    }
                    self.until = None;
                    self.session_over = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_of(response: Response) -> Bytes {
        axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body")
    }

    #[test]
    fn event_ids_are_written_in_decimal() {
        for (stream, seq) in [(0, 0), (1, 9), (10, 100), (u64::MAX, u64::MAX - 1)] {
            let mut id = String::new();
            push_event_id(&mut id, stream, seq);
            assert_eq!(id, format!("{stream}-{seq}"));
            assert_eq!(parse_event_id(&id), Some((stream, seq)));
        }
    }

    /// A finished stream sent whole is what a reader sends event by event: the same
    /// bytes and headers, `retry` on the first event only.
    #[tokio::test]
    async fn a_finished_stream_is_sent_whole_as_a_reader_sends_it() {
        let retry = Duration::from_millis(1_500);
        let response = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[]}}"#;
        for (events, retry) in [
            (vec!["", response], Some(retry)),
            (vec![response], None),
            (
                vec![
                    "",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}",
                    response,
                ],
                Some(retry),
            ),
        ] {
            let replay = Replay::new(12_345_678_901);
            for event in &events {
                replay.push(event);
            }
            replay.end();
            let whole = replay.respond_finished(retry);
            let whole_headers = whole.headers().clone();
            let whole = body_of(whole).await;
            let read = replay.respond(None, None, None, retry);
            assert_eq!(whole_headers, *read.headers());
            assert_eq!(whole, body_of(read).await, "{events:?}");
            let text = std::str::from_utf8(&whole).expect("UTF-8");
            assert!(text.starts_with("id: 12345678901-0\n"), "{text}");
            assert_eq!(
                text.matches("retry: 1500\n").count(),
                usize::from(retry.is_some())
            );
        }
    }
}
