//! A server process and the one stdio connection to it.

use std::io::{self, Read, Write};
use std::ops::Range;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::protocol::{self, Incoming, InitializeResult};

/// Reads newline-delimited messages from the server's stdout into one growing buffer.
pub struct Lines {
    source: ChildStdout,
    buffer: Vec<u8>,
    /// Start of the unconsumed bytes.
    start: usize,
    /// End of the bytes read so far.
    end: usize,
}

const READ_CHUNK: usize = 256 * 1024;

impl Lines {
    fn new(source: ChildStdout) -> Self {
        Lines {
            source,
            buffer: vec![0; READ_CHUNK],
            start: 0,
            end: 0,
        }
    }

    /// Reads more bytes (blocking until some arrive); `false` at end of output.
    pub fn fill(&mut self) -> Result<bool> {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        } else if self.buffer.len() - self.end < READ_CHUNK / 4 {
            // Keep the partial line, and room for a big read after it.
            self.buffer.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            if self.buffer.len() - self.end < READ_CHUNK / 4 {
                self.buffer.resize(self.buffer.len() * 2, 0);
            }
        }
        loop {
            match self.source.read(&mut self.buffer[self.end..]) {
                Ok(0) => return Ok(false),
                Ok(read) => {
                    self.end += read;
                    return Ok(true);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error).context("reading the server's stdout"),
            }
        }
    }

    /// The next complete line already read, without its newline.
    pub fn next_buffered(&mut self) -> Option<&[u8]> {
        let unread = &self.buffer[self.start..self.end];
        let at = memchr::memchr(b'\n', unread)?;
        let line = &self.buffer[self.start..self.start + at];
        self.start += at + 1;
        Some(line)
    }

    /// The next line (where it is in the buffer, without its newline), reading as needed.
    /// Blank lines are skipped. The range is valid until the next read.
    pub fn next_line(&mut self) -> Result<Range<usize>> {
        loop {
            if let Some(at) = memchr::memchr(b'\n', &self.buffer[self.start..self.end]) {
                let range = self.start..self.start + at;
                self.start += at + 1;
                if self.buffer[range.clone()]
                    .iter()
                    .all(u8::is_ascii_whitespace)
                {
                    continue;
                }
                return Ok(range);
            }
            if !self.fill()? {
                bail!("the server closed its stdout");
            }
        }
    }

    /// The bytes of a line returned by [`next_line`](Lines::next_line).
    pub fn line(&self, range: Range<usize>) -> &[u8] {
        &self.buffer[range]
    }
}

/// The server process, spawned with piped stdin and stdout.
pub struct Server {
    child: Child,
    pub input: ChildStdin,
    pub output: Lines,
}

/// What `initialize` told about the server.
pub struct Handshake {
    /// Spawn → the `initialize` response read.
    pub startup: Duration,
    pub protocol_version: String,
}

impl Server {
    /// Spawns `command` and completes the `initialize` request (not the notification).
    pub fn start(command: &[String], quiet: bool) -> Result<(Server, Handshake)> {
        let (program, args) = command.split_first().context("no server command given")?;
        let initialize = protocol::initialize_request();
        let started = Instant::now();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if quiet {
                Stdio::null()
            } else {
                Stdio::inherit()
            })
            .spawn()
            .with_context(|| format!("starting `{}`", command.join(" ")))?;
        let mut input = child.stdin.take().context("the child's stdin")?;
        let output = Lines::new(child.stdout.take().context("the child's stdout")?);
        input
            .write_all(initialize.as_bytes())
            .context("sending initialize")?;
        let mut server = Server {
            child,
            input,
            output,
        };
        let line = server.response_to(0)?;
        let message = Incoming::parse(server.output.line(line))?;
        let result: InitializeResult<'_> =
            serde_json::from_str(message.into_result()?.get()).context("the initialize result")?;
        if result.capabilities.tools.is_none() {
            bail!("the server does not declare the tools capability");
        }
        let protocol_version = result.protocol_version.into_owned();
        let startup = started.elapsed();
        Ok((
            server,
            Handshake {
                startup,
                protocol_version,
            },
        ))
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one request and reads lines until its response arrives.
    pub fn request(&mut self, bytes: &[u8], id: u64) -> Result<&[u8]> {
        self.input.write_all(bytes).context("writing a request")?;
        let line = self.response_to(id)?;
        Ok(self.output.line(line))
    }

    /// Reads lines until the response to `id`, skipping messages from the server.
    fn response_to(&mut self, id: u64) -> Result<Range<usize>> {
        loop {
            let range = self.output.next_line()?;
            let line = self.output.line(range.clone());
            let message = Incoming::parse(line)?;
            if message.is_from_server() {
                continue;
            }
            if message.numeric_id() != Some(id) {
                bail!(
                    "expected the response to request {id}, got {}",
                    protocol::excerpt(line)
                );
            }
            return Ok(range);
        }
    }

    /// Closes stdin and waits for the server to exit (killing it after `patience`).
    pub fn finish(mut self, patience: Duration) -> Result<String> {
        drop(self.input);
        let deadline = Instant::now() + patience;
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Ok(describe(status));
            }
            if Instant::now() >= deadline {
                self.child.kill()?;
                let status = self.child.wait()?;
                return Ok(format!("killed after {patience:?} ({})", describe(status)));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kills the server (after a failure).
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => format!("{status}"),
    }
}
