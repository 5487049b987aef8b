//! Splitting the input stream into newline-delimited frames, with a size limit.
//!
//! stdin is read on a dedicated thread rather than tokio's blocking pool: a read that
//! never returns (the client keeps stdin open but the server is exiting) would otherwise
//! keep the runtime from shutting down.

use std::io::Read;

use bytes::BytesMut;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::mpsc;
use tokio_util::codec::{Decoder, LinesCodec, LinesCodecError};

use crate::connection::Frame;

/// Frames queued between the reader and the session; bounds memory when the client
/// writes faster than the server parses.
const QUEUED_FRAMES: usize = 256;
const READ_CHUNK: usize = 64 * 1024;

struct FrameDecoder {
    codec: LinesCodec,
    limit: usize,
}

impl FrameDecoder {
    fn new(limit: usize) -> Self {
        FrameDecoder {
            codec: LinesCodec::new_with_max_length(limit),
            limit,
        }
    }

    fn frame(&self, decoded: Result<String, LinesCodecError>) -> Frame {
        match decoded {
            Ok(line) => Frame::Line(line),
            Err(LinesCodecError::MaxLineLengthExceeded) => Frame::TooLong { limit: self.limit },
            Err(LinesCodecError::Io(_)) => Frame::NotUtf8,
        }
    }

    /// Every complete frame in `buffer`; at end of input, the unterminated last line too.
    fn drain(&mut self, buffer: &mut BytesMut, at_eof: bool) -> Vec<Frame> {
        let mut frames = Vec::new();
        loop {
            let decoded = if at_eof {
                self.codec.decode_eof(buffer)
            } else {
                self.codec.decode(buffer)
            };
            match decoded {
                Ok(None) => return frames,
                Ok(Some(line)) => frames.push(self.frame(Ok(line))),
                Err(error) => frames.push(self.frame(Err(error))),
            }
        }
    }
}

/// Reads the process's stdin on its own thread.
pub(crate) fn from_stdin(limit: usize) -> mpsc::Receiver<Frame> {
    let (sender, frames) = mpsc::channel(QUEUED_FRAMES);
    let spawned = std::thread::Builder::new()
        .name("mcp-stdin".into())
        .spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut decoder = FrameDecoder::new(limit);
            let mut buffer = BytesMut::with_capacity(READ_CHUNK);
            let mut chunk = vec![0; READ_CHUNK];
            loop {
                let read = match stdin.read(&mut chunk) {
                    Ok(read) => read,
                    Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(error) => {
                        tracing::error!(%error, "reading stdin failed; treating it as end of input");
                        0
                    }
                };
                buffer.extend_from_slice(&chunk[..read]);
                for frame in decoder.drain(&mut buffer, read == 0) {
                    if sender.blocking_send(frame).is_err() {
                        return;
                    }
                }
                if read == 0 {
                    return;
                }
            }
        });
    if let Err(error) = spawned {
        tracing::error!(%error, "could not start the stdin reader thread");
    }
    frames
}

/// Reads any async byte stream (pipes, sockets, in-memory duplex streams).
pub(crate) fn from_reader<R>(mut reader: R, limit: usize) -> mpsc::Receiver<Frame>
where
    R: AsyncRead + Unpin + Send + 'static,
{
    let (sender, frames) = mpsc::channel(QUEUED_FRAMES);
    tokio::spawn(async move {
        let mut decoder = FrameDecoder::new(limit);
        let mut buffer = BytesMut::with_capacity(READ_CHUNK);
        loop {
            let read = match reader.read_buf(&mut buffer).await {
                Ok(read) => read,
                Err(error) => {
                    tracing::error!(%error, "reading the input failed; treating it as end of input");
                    0
                }
            };
            for frame in decoder.drain(&mut buffer, read == 0) {
                if sender.send(frame).await.is_err() {
                    return;
                }
            }
            if read == 0 {
                return;
            }
        }
    });
    frames
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines_and_reports_oversized_and_invalid_ones() {
        let mut decoder = FrameDecoder::new(8);
        let mut buffer = BytesMut::from(&b"short\n0123456789abc\nok\r\n\xff\xfe\nlast"[..]);
        let frames = decoder.drain(&mut buffer, false);
        let described: Vec<String> = frames.iter().map(|frame| format!("{frame:?}")).collect();
        assert_eq!(
            described,
            [
                "Line(\"short\")",
                "TooLong { limit: 8 }",
                "Line(\"ok\")",
                "NotUtf8",
            ]
        );
        let tail = decoder.drain(&mut buffer, true);
        assert_eq!(format!("{tail:?}"), "[Line(\"last\")]");
    }
}
