//! The stdio transport: protocol lines on the real stdout, read and written on dedicated
//! threads, and a stdout that stray prints cannot corrupt.
//!
//! MCP over stdio allows nothing but protocol messages on stdout, yet any `println!` in a
//! tool — or in a library it calls — writes there. So by default, before serving, the
//! runtime keeps a private duplicate of file descriptor 1 for protocol messages and points
//! descriptor 1 at stderr: whatever else is printed lands in the host's logs instead of
//! breaking the stream. [`Server::keep_stdout`](crate::Server::keep_stdout) opts out.

use std::io::Write;

use tokio::sync::{mpsc, oneshot};

use crate::connection::{Output, client_gone, gather_queued};

/// The writer for protocol messages: the real stdout, kept private when `redirect` is set.
fn protocol_stdout(redirect: bool) -> std::io::Result<Box<dyn Write + Send>> {
    #[cfg(unix)]
    if redirect {
        let protocol = rustix::io::dup(std::io::stdout())?;
        rustix::stdio::dup2_stdout(std::io::stderr())?;
        return Ok(Box::new(std::fs::File::from(protocol)));
    }
    #[cfg(not(unix))]
    let _ = redirect;
    Ok(Box::new(std::io::stdout()))
}

/// Starts the thread that writes protocol lines to stdout.
pub(crate) fn output(redirect_prints: bool) -> std::io::Result<Output> {
    let mut stdout = protocol_stdout(redirect_prints)?;
    let (lines, mut queued) = mpsc::unbounded_channel::<Vec<u8>>();
    let (done, finished) = oneshot::channel();
    std::thread::Builder::new()
        .name("mcp-stdout".into())
        .spawn(move || {
            let mut buffer = Vec::with_capacity(64 * 1024);
            let mut open = true;
            let outcome = loop {
                if !open {
                    break Ok(());
                }
                let Some(line) = queued.blocking_recv() else {
                    break Ok(());
                };
                buffer.extend_from_slice(&line);
                open = !line.is_empty() && gather_queued(&mut buffer, &mut queued);
                let written = stdout.write_all(&buffer).and_then(|()| stdout.flush());
                buffer.clear();
                match written {
                    Ok(()) => {}
                    Err(error) if client_gone(&error) => break Ok(()),
                    Err(error) => break Err(error),
                }
            };
            let _ = done.send(outcome);
        })?;
    Ok(Output {
        lines,
        finished: Box::pin(async move { finished.await.unwrap_or(Ok(())) }),
    })
}
