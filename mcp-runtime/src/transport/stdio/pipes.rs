//! The stdio transport: protocol lines on the real stdout, read and written by the
//! connection's own task, and a stdout that stray prints cannot corrupt.
//!
//! MCP over stdio allows nothing but protocol messages on stdout, yet any `println!` in a
//! tool — or in a library it calls — writes there. So by default, before serving, the
//! runtime keeps a private duplicate of file descriptor 1 for protocol messages and points
//! descriptor 1 at stderr: whatever else is printed lands in the host's logs instead of
//! breaking the stream. [`Server::keep_stdout`](crate::Server::keep_stdout) opts out.
//!
//! When stdin and stdout are pipes (as MCP hosts launch servers) on Linux, the connection
//! reads and writes them itself, driven by the runtime's reactor: a request is read,
//! answered and written on one thread, with no hand-off. Each pipe is opened anew through
//! `/proc/self/fd`, so making it non-blocking touches no file description another process
//! shares. Anything else (a terminal, a file, another system) is read and written on a
//! dedicated thread each, as blocking reads and writes must be.

use std::future::Future as _;
use std::io::{self, Read, Write};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{mpsc, oneshot};

use crate::transport::stdio::frames::READ_CHUNK;

/// The connection's input: stdin.
pub(crate) fn input() -> Pin<Box<dyn AsyncRead + Send>> {
    #[cfg(target_os = "linux")]
    if let Some(pipe) = pipe::reader(&io::stdin()) {
        return Box::pin(pipe);
    }
    Box::pin(ThreadReader::start(io::stdin()))
}

/// The connection's output: the real stdout, kept private when `redirect` is set.
pub(crate) fn output(redirect: bool) -> io::Result<Pin<Box<dyn AsyncWrite + Send>>> {
    #[cfg(unix)]
    if redirect {
        let protocol = std::fs::File::from(rustix::io::dup(io::stdout())?);
        rustix::stdio::dup2_stdout(io::stderr())?;
        #[cfg(target_os = "linux")]
        if let Some(pipe) = pipe::writer(&protocol) {
            return Ok(Box::pin(pipe));
        }
        return Ok(Box::pin(ThreadWriter::start(protocol)?));
    }
    #[cfg(not(unix))]
    let _ = redirect;
    #[cfg(target_os = "linux")]
    if let Some(pipe) = pipe::writer(&io::stdout()) {
        return Ok(Box::pin(pipe));
    }
    Ok(Box::pin(ThreadWriter::start(io::stdout())?))
}

/// Our own file description for the pipe behind a descriptor, made non-blocking and
/// driven by the runtime's reactor.
#[cfg(target_os = "linux")]
mod pipe {
    use std::os::fd::{AsFd, AsRawFd};
    use std::os::unix::fs::FileTypeExt;

    use tokio::net::unix::pipe::{OpenOptions, Receiver, Sender};

    /// `/proc/self/fd/N` for a descriptor that is a pipe (anything else stays on a thread:
    /// a terminal or a file cannot be watched by the reactor, or must not be reopened).
    fn reopenable(fd: &impl AsFd) -> Option<String> {
        let path = format!("/proc/self/fd/{}", fd.as_fd().as_raw_fd());
        let is_pipe = std::fs::metadata(&path).ok()?.file_type().is_fifo();
        is_pipe.then_some(path)
    }

    pub fn reader(fd: &impl AsFd) -> Option<Receiver> {
        OpenOptions::new().open_receiver(reopenable(fd)?).ok()
    }

    pub fn writer(fd: &impl AsFd) -> Option<Sender> {
        OpenOptions::new().open_sender(reopenable(fd)?).ok()
    }
}

/// Chunks read ahead by the reader thread; bounds memory when the client writes faster
/// than the server handles its messages.
const QUEUED_CHUNKS: usize = 4;

/// Blocking input read on a thread of its own. A dedicated thread rather than tokio's
/// blocking pool: a read that never returns (the client keeps stdin open but the server
/// is exiting) would otherwise keep the runtime from shutting down.
struct ThreadReader {
    chunks: mpsc::Receiver<Vec<u8>>,
    /// The part of the last chunk not handed out yet.
    current: Vec<u8>,
    taken: usize,
}

impl ThreadReader {
    fn start(mut input: impl Read + Send + 'static) -> ThreadReader {
        let (sender, chunks) = mpsc::channel(QUEUED_CHUNKS);
        let spawned = std::thread::Builder::new()
            .name("mcp-stdin".into())
            .spawn(move || {
                loop {
                    let mut chunk = vec![0; READ_CHUNK];
                    let read = match input.read(&mut chunk) {
                        Ok(read) => read,
                        Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                        Err(error) => {
                            tracing::error!(%error, "reading stdin failed; treating it as end of input");
                            0
                        }
                    };
                    if read == 0 {
                        return;
                    }
                    chunk.truncate(read);
                    if sender.blocking_send(chunk).is_err() {
                        return;
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::error!(%error, "could not start the stdin reader thread");
        }
        ThreadReader {
            chunks,
            current: Vec::new(),
            taken: 0,
        }
    }
}

impl AsyncRead for ThreadReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.taken == self.current.len() {
            match ready!(self.chunks.poll_recv(cx)) {
                Some(chunk) => {
                    self.current = chunk;
                    self.taken = 0;
                }
                // End of input.
                None => return Poll::Ready(Ok(())),
            }
        }
        let reader = &mut *self;
        let available = &reader.current[reader.taken..];
        let length = available.len().min(buf.remaining());
        buf.put_slice(&available[..length]);
        reader.taken += length;
        Poll::Ready(Ok(()))
    }
}

/// Blocking output written on a thread of its own, so a client that is slow to read
/// never blocks the runtime: what the connection writes is queued for the thread.
struct ThreadWriter {
    queue: Option<mpsc::UnboundedSender<Vec<u8>>>,
    /// How the thread ended: `Ok` once everything queued was written or the client
    /// stopped reading.
    finished: oneshot::Receiver<io::Result<()>>,
    outcome: Option<io::Result<()>>,
}

impl ThreadWriter {
    fn start(mut output: impl Write + Send + 'static) -> io::Result<ThreadWriter> {
        let (queue, mut queued) = mpsc::unbounded_channel::<Vec<u8>>();
        let (done, finished) = oneshot::channel();
        std::thread::Builder::new()
            .name("mcp-stdout".into())
            .spawn(move || {
                let outcome = loop {
                    let Some(mut bytes) = queued.blocking_recv() else {
                        break Ok(());
                    };
                    while let Ok(more) = queued.try_recv() {
                        bytes.extend_from_slice(&more);
                    }
                    if let Err(error) = output.write_all(&bytes).and_then(|()| output.flush()) {
                        break Err(error);
                    }
                };
                let _ = done.send(outcome);
            })?;
        Ok(ThreadWriter {
            queue: Some(queue),
            finished,
            outcome: None,
        })
    }

    /// The thread's outcome, once it has ended.
    fn poll_finished(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.outcome.is_none() {
            let outcome = ready!(Pin::new(&mut self.finished).poll(cx)).unwrap_or(Ok(()));
            self.outcome = Some(outcome);
        }
        Poll::Ready(match &self.outcome {
            Some(Err(error)) => Err(io::Error::new(error.kind(), error.to_string())),
            _ => Ok(()),
        })
    }
}

impl AsyncWrite for ThreadWriter {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let sent = match &self.queue {
            Some(queue) => queue.send(buf.to_vec()).is_ok(),
            None => false,
        };
        if sent {
            return Poll::Ready(Ok(buf.len()));
        }
        // The thread has ended: say why.
        ready!(self.poll_finished(cx))?;
        Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()))
    }

    /// The thread writes and flushes whatever it is handed at once.
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    /// Waits until the thread has written everything queued.
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.queue = None;
        self.poll_finished(cx)
    }
}
