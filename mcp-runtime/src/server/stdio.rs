//! [`Server::serve_stdio`]: a server as MCP hosts launch it, over stdin/stdout — or, with
//! `MCP_CLI` set, the command line of its own tools instead (`cli`). Here rather than in
//! `mod.rs`, so that the command line, which runs a `Server`, is not imported by the file
//! that defines it.

use std::io::IsTerminal as _;

#[cfg(feature = "cli")]
use super::cli;
use super::{Server, install_stderr_logging, notices, termination_signal};
use crate::error::Error;
use crate::transport::stdio::{Ending, pipes, serve_connection};

impl Server {
    /// Serves over stdin/stdout: one JSON-RPC message per line, as MCP hosts expect when
    /// they launch the server as a subprocess.
    ///
    /// stdout carries protocol messages only. If no `tracing` subscriber is installed, one
    /// is installed that logs to stderr (filtered by `RUST_LOG`, default `warn`). Started by
    /// hand on a terminal (stdin is a TTY, not a host's pipe), the server says on stderr
    /// that it waits for an MCP client, and how to try its tools with `MCP_CLI` instead.
    ///
    /// Returns when stdin ends — after every call in flight has finished and been
    /// answered — or quietly when the client closes stdout.
    ///
    /// stdin is read with blocking reads on a thread of the server's own (`mcp-stdin`),
    /// which also handles each message it reads and writes the answer, on every system:
    /// at one call in flight that is a `read` and a `write` per call, as in a hand-written
    /// server. So the first poll of a tool's `async fn` — all of it, for a tool that does
    /// not wait — runs on that thread, inside the runtime's context (spawning, timers and
    /// I/O work as on a worker); what waits continues as a task of the runtime. After a
    /// stop signal (SIGINT or SIGTERM; Ctrl-C elsewhere) the thread handles nothing more
    /// and ends at its next read, or with the process.
    ///
    /// With the `cli` feature (on by default), an `MCP_CLI` environment variable turns
    /// the binary into a command-line client of its own tools instead:
    /// `MCP_CLI="call add a=1 b=2" ./calculator` runs the command through this server
    /// in memory, prints the answer and exits the process (status 1 if the call failed,
    /// 2 for a usage error). `MCP_CLI='install claude-desktop' ./calculator` writes the
    /// binary into a host's configuration instead (also `cursor`, `vscode`, `claude-code`), and
    /// `server-json` and `mcpb-manifest` describe it for the MCP Registry and an MCPB bundle
    /// ([`manual::cli`](crate::manual::cli)). `MCP_CLI=help` lists the commands.
    pub async fn serve_stdio(self) -> Result<(), Error> {
        install_stderr_logging(&self);
        #[cfg(feature = "cli")]
        if let Some(command) = cli::requested() {
            let status = cli::run(self, &command).await;
            std::process::exit(status);
        }
        let limit = self.max_message_size;
        let backlog_limit = self.max_output_backlog;
        let redirect_prints = self.redirect_prints;
        let grace = self.shutdown_grace;
        let core = self.into_core()?;
        if std::io::stdin().is_terminal() {
            eprintln!("{}", notices::terminal_hint(&notices::this_program()));
        }
        let output = pipes::output(redirect_prints)?;
        let ending = Ending {
            grace,
            stop: Box::pin(termination_watch()),
        };
        // A task of its own rather than this future: on a multi-thread runtime, the thread
        // that blocks on `main` does not drive the reactor, so whatever the connection's
        // task sees to (output that had to wait, messages of calls running as tasks) would
        // be handed over from a worker; a task runs on the worker that sees it arrive.
        let connection =
            serve_connection(core, pipes::input(), output, limit, backlog_limit, ending);
        match tokio::spawn(connection).await {
            Ok(outcome) => outcome?,
            Err(failed) if failed.is_panic() => std::panic::resume_unwind(failed.into_panic()),
            Err(failed) => return Err(std::io::Error::other(failed).into()),
        }
        Ok(())
    }
}

/// [`termination_signal`] on a task of its own: the connection polls its stop future on
/// every wake-up, and a finished-or-not check of a task is far cheaper than polling the two
/// signal streams there each time. The task ends with the future.
fn termination_watch() -> impl Future<Output = ()> + Send + 'static {
    let watcher = tokio_util::task::AbortOnDropHandle::new(tokio::spawn(termination_signal()));
    async move {
        // A signal, or (never in practice) the watcher's panic: either way, stop.
        let _ = watcher.await;
    }
}
