//! Splitting the input stream into newline-delimited frames, with a size limit.
//!
//! The connection reads into one buffer and handles every complete line in it, borrowed,
//! before it reads again: no line is copied, and nothing is read ahead of what the
//! connection can handle.

use std::io::{self, Read};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, ReadBuf};

/// How much is read at once.
pub(crate) const READ_CHUNK: usize = 64 * 1024;

/// One unit of input from the transport.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Frame<'a> {
    /// One line, without its line terminator.
    Line(&'a str),
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line longer than the size limit (the rest of it is skipped).
    TooLong { limit: usize },
}

/// The bytes read and not handled yet, split into lines the way `tokio_util`'s
/// `LinesCodec` does: `\n` ends a line, a `\r` before it is dropped, a line longer than
/// `limit` is reported once as soon as the limit is passed and then skipped up to its end.
pub(crate) struct LineBuffer {
    /// The bytes read, up to `end`; those from `start` on are not handled yet. Zeroed once
    /// when it grows, and never again: a blocking `read` needs initialized memory, and
    /// zeroing a chunk per read would cost more than the read at one call in flight.
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    /// How far past `start` no newline was found.
    scanned: usize,
    /// Skipping the rest of a line that was too long.
    discarding: bool,
    limit: usize,
}

impl LineBuffer {
    pub fn new(limit: usize) -> Self {
        LineBuffer {
            buffer: Vec::new(),
            start: 0,
            end: 0,
            scanned: 0,
            discarding: false,
            limit,
        }
    }

    /// The next frame in the buffer; at end of input, the unterminated last line too.
    #[inline]
    pub fn next_frame(&mut self, at_eof: bool) -> Option<Frame<'_>> {
        loop {
            let pending = &self.buffer[self.start..self.end];
            let read_to = self.limit.saturating_add(1).min(pending.len());
            let newline = memchr::memchr(b'\n', &pending[self.scanned..read_to]);
            match (self.discarding, newline) {
                (true, Some(offset)) => {
                    self.start += self.scanned + offset + 1;
                    self.discarding = false;
                    self.scanned = 0;
                }
                (true, None) => {
                    self.start += read_to;
                    self.scanned = 0;
                    if self.start == self.end {
                        return None;
                    }
                }
                (false, Some(offset)) => {
                    let length = self.scanned + offset;
                    let line = self.start..self.start + length;
                    self.start += length + 1;
                    self.scanned = 0;
                    return Some(frame(&self.buffer[line]));
                }
                (false, None) if pending.len() > self.limit => {
                    self.discarding = true;
                    return Some(Frame::TooLong { limit: self.limit });
                }
                (false, None) => {
                    self.scanned = read_to;
                    if !at_eof || pending.is_empty() || pending == b"\r" {
                        return None;
                    }
                    // End of input: the rest is the last line.
                    let line = self.start..self.end;
                    self.start = self.end;
                    self.scanned = 0;
                    return Some(frame(&self.buffer[line]));
                }
            }
        }
    }

    /// Reads more input after what is buffered, polled; `Ok(0)` at end of input.
    pub fn poll_read_from(
        &mut self,
        input: Pin<&mut (dyn AsyncRead + Send)>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<usize>> {
        self.make_room();
        let mut unfilled = ReadBuf::new(&mut self.buffer[self.end..]);
        ready!(input.poll_read(cx, &mut unfilled))?;
        let read = unfilled.filled().len();
        self.end += read;
        Poll::Ready(Ok(read))
    }

    /// Reads more input after what is buffered, blocking; `Ok(0)` at end of input.
    pub fn read_from(&mut self, input: &mut dyn Read) -> io::Result<usize> {
        self.make_room();
        let read = input.read(&mut self.buffer[self.end..])?;
        self.end += read;
        Ok(read)
    }

    /// Drops what was handled and keeps at least [`READ_CHUNK`] bytes free to read into.
    fn make_room(&mut self) {
        if self.start == self.end && self.buffer.len() > 4 * READ_CHUNK {
            // A long line is over: give its memory back.
            self.buffer = Vec::new();
            self.start = 0;
            self.end = 0;
        }
        if self.start > 0 {
            self.buffer.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.buffer.len() - self.end < READ_CHUNK {
            let grown = (self.end + READ_CHUNK).max(2 * self.buffer.len());
            self.buffer.resize(grown, 0);
        }
    }
}

fn frame(line: &[u8]) -> Frame<'_> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    match std::str::from_utf8(line) {
        Ok(line) => Frame::Line(line),
        Err(_) => Frame::NotUtf8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(buffer: &mut LineBuffer, at_eof: bool) -> Vec<String> {
        let mut described = Vec::new();
        while let Some(frame) = buffer.next_frame(at_eof) {
            described.push(format!("{frame:?}"));
        }
        described
    }

    fn push(buffer: &mut LineBuffer, mut bytes: &[u8]) {
        while buffer.read_from(&mut bytes).expect("a read from a slice") > 0 {}
    }

    #[test]
    fn splits_lines_and_reports_oversized_and_invalid_ones() {
        let mut buffer = LineBuffer::new(8);
        push(&mut buffer, b"short\n0123456789abc\nok\r\n\xff\xfe\nlast");
        assert_eq!(
            frames(&mut buffer, false),
            [
                "Line(\"short\")",
                "TooLong { limit: 8 }",
                "Line(\"ok\")",
                "NotUtf8",
            ]
        );
        assert_eq!(frames(&mut buffer, true), ["Line(\"last\")"]);
    }

    #[test]
    fn an_oversized_line_is_reported_once_and_skipped_across_reads() {
        let mut buffer = LineBuffer::new(4);
        push(&mut buffer, b"abcdefgh");
        assert_eq!(frames(&mut buffer, false), ["TooLong { limit: 4 }"]);
        push(&mut buffer, b"ijkl");
        assert_eq!(frames(&mut buffer, false), Vec::<String>::new());
        push(&mut buffer, b"mn\nok\nx");
        assert_eq!(frames(&mut buffer, false), ["Line(\"ok\")"]);
        push(&mut buffer, b"yz");
        assert_eq!(frames(&mut buffer, false), Vec::<String>::new());
        assert_eq!(frames(&mut buffer, true), ["Line(\"xyz\")"]);
    }

    #[test]
    fn a_line_exactly_at_the_limit_passes_and_a_lone_carriage_return_ends_nothing() {
        let mut buffer = LineBuffer::new(4);
        push(&mut buffer, b"abcd\nabcd\r\n\r");
        assert_eq!(
            frames(&mut buffer, false),
            ["Line(\"abcd\")", "TooLong { limit: 4 }"]
        );
        assert_eq!(frames(&mut buffer, true), Vec::<String>::new());
    }

    #[test]
    fn a_partial_line_is_kept_until_its_end_arrives() {
        let mut buffer = LineBuffer::new(1 << 20);
        for _ in 0..100 {
            push(&mut buffer, &[b'x'; 1000]);
            assert_eq!(buffer.next_frame(false), None);
        }
        push(&mut buffer, b"\n");
        assert_eq!(
            buffer.next_frame(false),
            Some(Frame::Line(&"x".repeat(100_000)))
        );
    }
}
