//! The connection's logic, with no I/O of its own: lines in, bytes out.
//!
//! [`Connection::handle`] hands each complete line to the [`Session`], runs the call it
//! asks for (one done at once is answered right there) and gathers the answers as output;
//! [`Connection::take_message`] adds a message of a call that ran as a task. What it
//! returns says what the connection wants next, and the drivers (the reader thread, the
//! connection's task) do the reading and writing: [`unwritten`](Connection::unwritten) is
//! the output to write, [`wrote`](Connection::wrote) says how much was.

use crate::changes::Change;
use crate::protocol::jsonrpc::{RpcError, code};
use crate::protocol::outbox::{KeptHere, Outbox, is_notification};
use crate::session::{Done, Outcome, Reply, Session};
use crate::transport::calls::Calls;

use super::frames::{Frame, LineBuffer};

/// Output held while more than this is waiting is given back once written.
const KEPT_OUTPUT_CAPACITY: usize = 1 << 20;

/// What the output starts with, and shrinks back to.
const OUTPUT_CAPACITY: usize = 64 * 1024;

/// While a burst of requests is being answered, answers are written out whenever this much
/// has gathered, not only once the burst is done: the client starts on the first answers
/// while the server works on the rest, and neither side falls asleep between bursts. Large
/// enough that small answers still share a write (`bench/results/stdio-writes.md`).
pub(super) const WRITE_AFTER_BYTES: usize = 512;

/// The input read and not handled yet, and whether more is wanted.
pub(super) struct Lines {
    frames: LineBuffer,
    /// The input ended (the lines read may not all be handled yet).
    ended: bool,
    /// Handling stopped with the output full: lines read may be left in `frames`.
    left: bool,
}

impl Lines {
    /// No input yet; a line longer than `limit` bytes is refused.
    pub fn new(limit: usize) -> Self {
        Lines {
            frames: LineBuffer::new(limit),
            ended: false,
            left: false,
        }
    }

    /// Where input is read into; then [`read`](Self::read) says what the read did.
    pub fn buffer(&mut self) -> &mut LineBuffer {
        &mut self.frames
    }

    /// Notes a read that returned `read` bytes: none means the input ended.
    pub fn read(&mut self, read: usize) {
        self.ended = read == 0;
    }

    /// Notes that the input ended, also with lines not handled yet.
    pub fn end(&mut self) {
        self.ended = true;
    }

    /// Whether input is read before handling again: not with lines left over from a full
    /// output, which come before any new input, nor after the end.
    pub fn wants_input(&self) -> bool {
        !self.left && !self.ended
    }

    /// Whether the input ended and every line in it was handled.
    pub fn all_handled(&self) -> bool {
        self.ended && !self.left
    }
}

/// What [`Connection::handle`] left the connection wanting.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Handled {
    /// Every complete line read so far is handled: read more.
    ReadMore,
    /// Enough output gathered to write some before handling on.
    Gathered,
    /// More output waits than its limit: write until there is room, then handle the lines
    /// left, reading nothing before.
    OutputFull,
    /// The input ended and every line in it is handled.
    InputEnded,
}

/// One client connection, without its input and output.
pub(super) struct Connection {
    session: Session,
    calls: Calls,
    /// Where messages of calls running as tasks of their own go.
    outbox: Outbox,
    /// Output not written yet, from `written` on.
    unwritten: Vec<u8>,
    written: usize,
    /// Once more output than this waits to be written, nothing more is handled.
    backlog_limit: usize,
    /// The client stopped reading: nothing is kept for it any more.
    gone: bool,
}

impl Connection {
    pub fn new(session: Session, calls: Calls, outbox: Outbox, backlog_limit: usize) -> Self {
        Connection {
            session,
            calls,
            outbox,
            unwritten: Vec::with_capacity(OUTPUT_CAPACITY),
            written: 0,
            backlog_limit,
            gone: false,
        }
    }

    /// Handles the complete lines in `lines`, gathering their answers, until they are all
    /// handled or the output wants writing.
    pub fn handle(&mut self, lines: &mut Lines) -> Handled {
        // What handling a message sends on the connection goes out right before its
        // answer; what other threads send meanwhile is queued, and follows it.
        let kept = self.outbox.keep_on_this_thread();
        loop {
            if self.backlog_full() {
                lines.left = true;
                return Handled::OutputFull;
            }
            let Some(frame) = lines.frames.next_frame(lines.ended) else {
                lines.left = false;
                return if lines.ended {
                    Handled::InputEnded
                } else {
                    Handled::ReadMore
                };
            };
            let session = &mut self.session;
            let outcome = match frame {
                // JSON's own whitespace, which a message rarely starts with, so this
                // stops at the first byte (`str::trim` would classify it as Unicode).
                Frame::Line(line) if line.bytes().all(|b| b" \t\r\n".contains(&b)) => continue,
                Frame::Line(line) => session.handle_line(line, &self.outbox),
                Frame::NotUtf8 => Outcome::Reply(Reply::Ready(session.error_without_id(
                    RpcError::new(code::PARSE_ERROR, "Parse error: the message is not valid UTF-8."),
                ))),
                Frame::TooLong { limit } => Outcome::Reply(Reply::Ready(session.error_without_id(
                    RpcError::new(
                        code::INVALID_REQUEST,
                        format!("Invalid request: the message is longer than the {limit}-byte limit and was skipped."),
                    ),
                ))),
            };
            let unknown_id = self.session.unknown_id();
            let answered = match outcome {
                Outcome::Nothing => false,
                Outcome::Cancel(id) => {
                    self.calls.cancel(&id);
                    false
                }
                Outcome::Reply(reply) => {
                    // A call done at once is answered here; any other goes on as a task.
                    let done = self
                        .calls
                        .run_or_spawn(reply, &self.outbox, unknown_id, false);
                    done.map(|done| self.answer(&kept, &done)).is_some()
                }
                Outcome::Batch(replies) => {
                    self.calls
                        .spawn_batch(replies, self.outbox.clone(), unknown_id, false);
                    false
                }
            };
            // An answer took what was sent before it; anything else sent is taken here.
            if !answered && !self.gone {
                kept.take(&mut self.unwritten);
            }
            if self.backlog() >= WRITE_AFTER_BYTES {
                lines.left = true;
                return Handled::Gathered;
            }
        }
    }

    /// Gathers a response, after what handling its request sent (`kept`): a call's result
    /// is written straight into the output, with no buffer of its own.
    fn answer(&mut self, kept: &KeptHere, done: &Done) {
        if self.gone {
            return;
        }
        kept.take(&mut self.unwritten);
        done.write(&mut self.unwritten);
        self.unwritten.push(b'\n');
    }

    /// Adds a message a call running as a task queued. While more output waits for the
    /// client than its limit, notifications (progress, log messages) are dropped: calls
    /// already running go on sending them, and the bound holds only if they do not pile
    /// up. Responses and requests to the client are always kept.
    pub fn take_message(&mut self, line: &[u8]) {
        if self.gone || (self.backlog_full() && is_notification(line)) {
            return;
        }
        self.unwritten.extend_from_slice(line);
    }

    /// Passes on that the tool list changed, if the client asked to hear of it.
    pub fn tools_changed(&self) {
        if let Some(notification) = self.session.tools_changed() {
            self.outbox.send(&notification);
        }
    }

    /// Passes on a resource or prompt change, if the client asked to hear of it.
    pub fn changed(&self, change: &Change) {
        if let Some(notification) = self.session.change_notification(change) {
            self.outbox.send(&notification);
        }
    }

    /// The connection handles nothing more: with `client_went`, nobody can read the
    /// answers of calls still running, so they are stopped.
    pub fn stop(&mut self, client_went: bool) {
        if client_went {
            self.calls.cancel_all();
        }
        // No answer to a tool's request to the client can arrive any more, and listen
        // streams end with their result.
        self.session.disconnect_client_requests();
        #[cfg(feature = "otel")]
        self.session.record_session_end();
    }

    /// Output gathered and not written yet.
    pub fn backlog(&self) -> usize {
        self.unwritten.len() - self.written
    }

    /// Whether more output waits for the client than its limit: then no input is handled.
    pub fn backlog_full(&self) -> bool {
        self.backlog() > self.backlog_limit
    }

    /// The output to write next.
    pub fn unwritten(&self) -> &[u8] {
        &self.unwritten[self.written..]
    }

    /// `written` bytes of [`unwritten`](Self::unwritten) were written.
    pub fn wrote(&mut self, written: usize) {
        self.written += written;
    }

    /// Once everything is written: whether anything was since the last call (so the output
    /// wants a flush).
    pub fn all_written(&mut self) -> bool {
        debug_assert_eq!(self.backlog(), 0);
        if self.unwritten.is_empty() {
            return false;
        }
        self.unwritten.clear();
        self.written = 0;
        if self.unwritten.capacity() > KEPT_OUTPUT_CAPACITY {
            self.unwritten = Vec::with_capacity(OUTPUT_CAPACITY);
        }
        true
    }

    /// The client stopped reading: nothing more is kept for it.
    pub fn client_went(&mut self) {
        self.gone = true;
        self.unwritten = Vec::new();
        self.written = 0;
    }

    pub fn client_gone(&self) -> bool {
        self.gone
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tokio::sync::{Semaphore, mpsc};
    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::transport::calls::Running;
    use crate::{DynamicTool, Server};

    const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
"#;

    /// A connection to `server`, and the queue of the messages its calls send as tasks.
    fn connection(server: Server, backlog_limit: usize) -> (Connection, Queued) {
        let core = server.into_core().expect("a valid server");
        let (lines, queued) = mpsc::unbounded_channel();
        let outbox = Outbox::new(lines);
        let mut session = Session::new(core, CancellationToken::new());
        session.set_background(outbox.clone());
        let calls = Calls::new(Running::default());
        (
            Connection::new(session, calls, outbox, backlog_limit),
            queued,
        )
    }

    type Queued = mpsc::UnboundedReceiver<Vec<u8>>;

    fn pings() -> Server {
        Server::new("test", "0").allow_no_tools()
    }

    fn ping(id: usize) -> String {
        format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n")
    }

    fn pong(id: usize) -> String {
        format!("{{\"id\":{id},\"jsonrpc\":\"2.0\",\"result\":{{}}}}\n")
    }

    /// Reads `bytes` into `lines`, as one read.
    fn feed(lines: &mut Lines, mut bytes: &[u8]) {
        let read = lines
            .buffer()
            .read_from(&mut bytes)
            .expect("a read from a slice");
        assert!(bytes.is_empty(), "fed in one read");
        lines.read(read);
    }

    /// Writes everything gathered, as an output that takes it all.
    fn write_all(connection: &mut Connection) -> String {
        let written = String::from_utf8(connection.unwritten().to_vec()).expect("UTF-8");
        connection.wrote(written.len());
        connection.all_written();
        written
    }

    #[test]
    fn answers_each_complete_line_and_keeps_a_partial_one_for_the_next_read() {
        let (mut connection, _queued) = connection(pings(), 1 << 20);
        let mut lines = Lines::new(1024);
        let second = ping(2);
        let (start, end) = second.split_at(10);
        feed(&mut lines, format!("{}\n{start}", ping(1)).as_bytes());
        assert_eq!(connection.handle(&mut lines), Handled::ReadMore);
        assert!(lines.wants_input());
        assert_eq!(write_all(&mut connection), pong(1));
        feed(&mut lines, end.as_bytes());
        assert_eq!(connection.handle(&mut lines), Handled::ReadMore);
        assert_eq!(write_all(&mut connection), pong(2));
        // Nothing new: nothing to write, nor to flush.
        assert!(!connection.all_written());
    }

    #[test]
    fn lines_too_long_or_not_utf8_are_refused_and_the_next_one_answered() {
        let (mut connection, _queued) = connection(pings(), 1 << 20);
        let mut lines = Lines::new(64);
        let mut input = vec![b'x'; 100];
        input.extend_from_slice(b"\n\xff\xfe\n");
        input.extend_from_slice(ping(3).as_bytes());
        feed(&mut lines, &input);
        assert_eq!(connection.handle(&mut lines), Handled::ReadMore);
        let written = write_all(&mut connection);
        let answers: Vec<&str> = written.lines().collect();
        assert_eq!(answers.len(), 3, "{written}");
        assert!(
            answers[0].contains("longer than the 64-byte limit"),
            "{written}"
        );
        assert!(answers[1].contains("not valid UTF-8"), "{written}");
        assert_eq!(format!("{}\n", answers[2]), pong(3));
    }

    #[test]
    fn lines_of_json_whitespace_are_skipped_and_any_other_text_is_refused() {
        let (mut connection, _queued) = connection(pings(), 1 << 20);
        let mut lines = Lines::new(1024);
        let input = format!("\n \t\r\n{}\u{a0}\n{}", ping(1), ping(2));
        feed(&mut lines, input.as_bytes());
        assert_eq!(connection.handle(&mut lines), Handled::ReadMore);
        let written = write_all(&mut connection);
        let answers: Vec<&str> = written.lines().collect();
        assert_eq!(answers.len(), 3, "{written}");
        assert_eq!(format!("{}\n", answers[0]), pong(1));
        // A no-break space is not JSON whitespace: the line is not JSON.
        assert!(answers[1].contains("Parse error"), "{written}");
        assert_eq!(format!("{}\n", answers[2]), pong(2));
    }

    #[test]
    fn a_burst_is_written_every_half_kilobyte_or_so() {
        let (mut connection, _queued) = connection(pings(), 1 << 20);
        let mut lines = Lines::new(1024);
        let burst: String = (0..100).map(ping).collect();
        feed(&mut lines, burst.as_bytes());
        let mut answered = String::new();
        let mut writes = 0;
        loop {
            let handled = connection.handle(&mut lines);
            let backlog = connection.backlog();
            answered += &write_all(&mut connection);
            writes += 1;
            match handled {
                Handled::Gathered => {
                    assert!(backlog >= WRITE_AFTER_BYTES, "{backlog}");
                    assert!(backlog < WRITE_AFTER_BYTES + pong(100).len(), "{backlog}");
                }
                Handled::ReadMore => break,
                handled => panic!("{handled:?}"),
            }
        }
        assert_eq!(answered, (0..100).map(pong).collect::<String>());
        let expected = answered.len().div_ceil(WRITE_AFTER_BYTES);
        assert!(
            (expected - 1..=expected).contains(&writes),
            "{writes} writes"
        );
    }

    #[test]
    fn a_full_output_stops_handling_and_reading_until_it_is_written() {
        let limit = 3 * pong(0).len();
        let (mut connection, _queued) = connection(pings(), limit);
        let mut lines = Lines::new(1024);
        let burst: String = (0..10).map(ping).collect();
        feed(&mut lines, burst.as_bytes());
        assert_eq!(connection.handle(&mut lines), Handled::OutputFull);
        assert!(connection.backlog_full());
        assert!(!lines.wants_input(), "lines are left");
        // Written in part, still over the limit: nothing more is handled.
        connection.wrote(1);
        assert_eq!(connection.handle(&mut lines), Handled::OutputFull);
        let mut answered = format!("{{{}", write_all(&mut connection));
        loop {
            let handled = connection.handle(&mut lines);
            answered += &write_all(&mut connection);
            if handled == Handled::ReadMore {
                break;
            }
            assert_eq!(handled, Handled::OutputFull);
        }
        assert_eq!(answered, (0..10).map(pong).collect::<String>());
        assert!(lines.wants_input());
    }

    #[test]
    fn a_full_output_drops_queued_notifications_and_keeps_responses() {
        let (mut connection, _queued) = connection(pings(), 10);
        let notification = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n";
        connection.take_message(notification);
        assert!(connection.backlog_full());
        connection.take_message(notification);
        connection.take_message(pong(1).as_bytes());
        let expected = format!("{}{}", String::from_utf8_lossy(notification), pong(1));
        assert_eq!(write_all(&mut connection), expected);
    }

    #[tokio::test]
    async fn the_input_ends_with_calls_in_flight_whose_answers_come_queued() {
        let gate = Arc::new(Semaphore::new(0));
        let server = pings();
        let tool = DynamicTool::new("wait", serde_json::json!({"type": "object"}), {
            let gate = Arc::clone(&gate);
            move |_, _| {
                let gate = Arc::clone(&gate);
                async move {
                    let _permit = gate.acquire().await;
                    "done"
                }
            }
        });
        server.tool_set().add(tool).expect("a valid tool");
        let (mut connection, mut queued) = connection(server, 1 << 20);
        let mut lines = Lines::new(1024);
        let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","arguments":{}}}"#;
        // The last line needs no line end once the input has ended.
        feed(&mut lines, format!("{INITIALIZE}{call}").as_bytes());
        assert_eq!(connection.handle(&mut lines), Handled::ReadMore);
        lines.read(0);
        assert!(!lines.wants_input());
        assert_eq!(connection.handle(&mut lines), Handled::InputEnded);
        assert!(lines.all_handled());
        // The initialize result only: the call is still running.
        let written = write_all(&mut connection);
        assert_eq!(written.lines().count(), 1, "{written}");
        assert!(written.contains("\"id\":0"), "{written}");
        gate.add_permits(1);
        let answer = queued.recv().await.expect("the call's answer");
        connection.take_message(&answer);
        let written = write_all(&mut connection);
        assert!(
            written.contains("\"id\":7") && written.contains("done"),
            "{written}"
        );
    }

    #[test]
    fn nothing_is_kept_for_a_client_that_went() {
        let (mut connection, _queued) = connection(pings(), 1 << 20);
        let mut lines = Lines::new(1024);
        feed(&mut lines, ping(1).as_bytes());
        assert_eq!(connection.handle(&mut lines), Handled::ReadMore);
        connection.client_went();
        assert!(connection.client_gone());
        feed(&mut lines, ping(2).as_bytes());
        assert_eq!(connection.handle(&mut lines), Handled::ReadMore);
        connection.take_message(pong(3).as_bytes());
        assert_eq!(connection.backlog(), 0);
    }
}
