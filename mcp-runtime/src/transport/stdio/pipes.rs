//! The stdio transport: protocol lines on stdin and the real stdout, and a stdout that
//! stray prints cannot corrupt.
//!
//! MCP over stdio allows nothing but protocol messages on stdout, yet any `println!` in a
//! tool — or in a library it calls — writes there. So by default, before serving, the
//! runtime keeps a private duplicate of file descriptor 1 for protocol messages and points
//! descriptor 1 at stderr: whatever else is printed lands in the host's logs instead of
//! breaking the stream. [`Server::keep_stdout`](crate::Server::keep_stdout) opts out.
//!
//! Stdin is read with blocking reads on the connection's reader thread, which handles what
//! it reads and writes the answers itself (see [`reader`](super::reader)): on every system,
//! whatever stdin is. When stdout is a pipe (as MCP hosts launch servers) on Linux, it is
//! written non-blocking, driven by the runtime's reactor when it is full; it is opened anew
//! through `/proc/self/fd`, so making it non-blocking touches no file description another
//! process shares. Any other stdout (a terminal, a file, another system) is written on a
//! dedicated thread, as blocking writes must be.

use std::future::Future as _;
use std::io::{self, Read, Write};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::AsyncWrite;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::PollSender;

use crate::transport::stdio::Input;

/// The connection's input: stdin, read with blocking reads on the connection's reader
/// thread (whatever it is: a pipe, a terminal, a file).
pub(crate) fn input() -> Input {
    Input::Blocking(Box::new(BlockingStdin(io::stdin())))
}

/// Stdin for blocking reads, also when the host made its file description non-blocking
/// (it may share it with the server): then a read that finds nothing waits until there
/// is something, instead of taking "would block" for an error and ending the connection.
struct BlockingStdin(io::Stdin);

impl Read for BlockingStdin {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.0.read(buffer) {
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {
                    wait_until_readable(&self.0)?;
                }
                read => return read,
            }
        }
    }
}

#[cfg(unix)]
fn wait_until_readable(stdin: &io::Stdin) -> io::Result<()> {
    use rustix::event::{PollFd, PollFlags, poll};
    let mut watched = [PollFd::new(stdin, PollFlags::IN)];
    match poll(&mut watched, None) {
        Ok(_) | Err(rustix::io::Errno::INTR) => Ok(()),
        Err(error) => Err(error.into()),
    }
}

/// Elsewhere a non-blocking stdin is not expected: it is tried again a millisecond later.
#[cfg(not(unix))]
fn wait_until_readable(_: &io::Stdin) -> io::Result<()> {
    std::thread::sleep(std::time::Duration::from_millis(1));
    Ok(())
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
    use std::io;
    use std::os::fd::{AsFd, AsRawFd};
    use std::os::unix::fs::FileTypeExt;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use rustix::io::Errno;
    use tokio::io::AsyncWrite;
    use tokio::net::unix::pipe::{OpenOptions, Sender};

    /// `/proc/self/fd/N` for a descriptor that is a pipe (anything else stays on a thread:
    /// a terminal or a file cannot be watched by the reactor, or must not be reopened).
    fn reopenable(fd: &impl AsFd) -> Option<String> {
        let path = format!("/proc/self/fd/{}", fd.as_fd().as_raw_fd());
        let is_pipe = std::fs::metadata(&path).ok()?.file_type().is_fifo();
        is_pipe.then_some(path)
    }

    pub fn writer(fd: &impl AsFd) -> Option<Writer> {
        OpenOptions::new()
            .open_sender(reopenable(fd)?)
            .ok()
            .map(Writer)
    }

    /// The pipe, written straight away while it has room, and through the reactor once it
    /// is full: most writes find room, and then the reactor's readiness bookkeeping before
    /// the system call is code every answer would run for nothing.
    pub struct Writer(Sender);

    impl AsyncWrite for Writer {
        fn poll_write(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            loop {
                match rustix::io::write(&self.0, buf) {
                    Ok(written) => return Poll::Ready(Ok(written)),
                    Err(Errno::INTR) => {}
                    // Full: the sender tries again and waits for room if it must.
                    Err(Errno::AGAIN) => return Pin::new(&mut self.0).poll_write(cx, buf),
                    Err(error) => return Poll::Ready(Err(error.into())),
                }
            }
        }

        fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.0).poll_flush(cx)
        }

        fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.0).poll_shutdown(cx)
        }
    }
}

/// Blocking output written on a thread of its own, so a client that is slow to read
/// never blocks the runtime: what the connection writes is queued for the thread, up to
/// [`THREAD_QUEUE_PIECES`] pieces of at most [`THREAD_PIECE`] bytes; then a write waits,
/// as a full pipe makes it wait, and the connection's limit on its output applies.
struct ThreadWriter {
    queue: PollSender<Vec<u8>>,
    /// How the thread ended: `Ok` once everything queued was written or the client
    /// stopped reading.
    finished: oneshot::Receiver<io::Result<()>>,
    outcome: Option<io::Result<()>>,
}

/// The most one write hands to the writer thread.
const THREAD_PIECE: usize = 64 * 1024;

/// How many writes may wait for the writer thread.
const THREAD_QUEUE_PIECES: usize = 16;

impl ThreadWriter {
    fn start(mut output: impl Write + Send + 'static) -> io::Result<ThreadWriter> {
        let (queue, mut queued) = mpsc::channel::<Vec<u8>>(THREAD_QUEUE_PIECES);
        let (done, finished) = oneshot::channel();
        std::thread::Builder::new()
            .name("mcp-stdout".into())
            .spawn(move || {
                let outcome = loop {
                    let Some(mut bytes) = queued.blocking_recv() else {
                        break Ok(());
                    };
                    // Capped: a connection as quick as this thread refills the queue as
                    // fast as it is emptied.
                    while bytes.len() < THREAD_QUEUE_PIECES * THREAD_PIECE
                        && let Ok(more) = queued.try_recv()
                    {
                        bytes.extend_from_slice(&more);
                    }
                    if let Err(error) = output.write_all(&bytes).and_then(|()| output.flush()) {
                        break Err(error);
                    }
                };
                let _ = done.send(outcome);
            })?;
        Ok(ThreadWriter {
            queue: PollSender::new(queue),
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
        if ready!(self.queue.poll_reserve(cx)).is_ok() {
            let piece = &buf[..buf.len().min(THREAD_PIECE)];
            if self.queue.send_item(piece.to_vec()).is_ok() {
                return Poll::Ready(Ok(piece.len()));
            }
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
        self.queue.close();
        self.poll_finished(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use tokio::io::AsyncWriteExt;

    use super::*;

    /// Output whose first write waits until the test lets it go.
    struct Held {
        release: std::sync::mpsc::Receiver<()>,
        written: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Held {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            let _ = self.release.recv();
            self.written.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn writes_to_a_thread_stuck_in_its_write_wait_once_enough_is_queued() {
        let (release, held) = std::sync::mpsc::channel();
        let written = Arc::new(Mutex::new(Vec::new()));
        let mut writer = ThreadWriter::start(Held {
            release: held,
            written: Arc::clone(&written),
        })
        .unwrap();
        let piece = vec![b'x'; THREAD_PIECE];
        let mut accepted = 0;
        while let Ok(wrote) =
            tokio::time::timeout(Duration::from_millis(200), writer.write(&piece)).await
        {
            accepted += wrote.unwrap();
            // The piece being written, the pieces it took along, and a full queue.
            assert!(
                accepted <= (2 * THREAD_QUEUE_PIECES + 1) * THREAD_PIECE,
                "{accepted} bytes accepted by a thread that writes nothing"
            );
        }
        assert!(accepted >= THREAD_QUEUE_PIECES * THREAD_PIECE, "{accepted}");
        // Once the output takes bytes again, everything accepted is written, in order.
        drop(release);
        writer.write_all(b"end").await.unwrap();
        writer.shutdown().await.unwrap();
        let written = written.lock().unwrap();
        assert_eq!(written.len(), accepted + 3);
        assert!(written.ends_with(b"xend"));
    }
}
