//! A server process driven with raw pipes, for the load, soak and fault tests: the test
//! writes and reads on separate threads (so thousands of requests can be in flight), can close
//! either pipe, can signal the process, and watches its memory.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::status_kb;

/// A server process with its pipes in the test's hands. Its stderr is collected (and passed
/// on to the test's stderr) so a test can check that nothing panicked.
pub struct ServerProcess {
    child: Child,
    /// The server's stdin, until the test takes or closes it.
    pub stdin: Option<ChildStdin>,
    /// The server's stdout, until the test takes or closes it.
    pub stdout: Option<BufReader<ChildStdout>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<JoinHandle<()>>,
}

impl ServerProcess {
    /// Starts `program` with `args`.
    pub fn spawn(program: &str, args: &[&str]) -> ServerProcess {
        ServerProcess::start(program, args, true)
    }

    /// [`spawn`](Self::spawn), without passing the server's stderr on (it is still kept), and
    /// without panic backtraces: printing the first one loads the binary's debug info, which
    /// in a debug build adds some 100 MB to the server's memory, hiding what the runtime uses.
    pub fn spawn_quiet(program: &str, args: &[&str]) -> ServerProcess {
        ServerProcess::start(program, args, false)
    }

    /// [`spawn`](Self::spawn) with `stdin` as the server's stdin; the test sets
    /// [`stdin`](Self::stdin) to the other end if it writes there.
    pub fn spawn_with_stdin(program: &str, args: &[&str], stdin: Stdio) -> ServerProcess {
        ServerProcess::start_with_stdin(program, args, true, stdin)
    }

    fn start(program: &str, args: &[&str], pass_stderr_on: bool) -> ServerProcess {
        ServerProcess::start_with_stdin(program, args, pass_stderr_on, Stdio::piped())
    }

    fn start_with_stdin(
        program: &str,
        args: &[&str],
        pass_stderr_on: bool,
        stdin: Stdio,
    ) -> ServerProcess {
        let mut command = Command::new(program);
        if !pass_stderr_on {
            command.env("RUST_BACKTRACE", "0");
        }
        let mut child = command
            .args(args)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {program}: {error}"));
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let collected = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            let mut chunk = [0; 8192];
            while let Ok(read @ 1..) = stderr_pipe.read(&mut chunk) {
                if pass_stderr_on {
                    let _ = std::io::stderr().write_all(&chunk[..read]);
                }
                collected.lock().unwrap().extend_from_slice(&chunk[..read]);
            }
        });
        ServerProcess {
            stdin: child.stdin.take(),
            stdout: child.stdout.take().map(BufReader::new),
            child,
            stderr,
            stderr_reader: Some(stderr_reader),
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one message as a line.
    pub fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        stdin.write_all(&line).expect("write to the server");
        stdin.flush().expect("flush to the server");
    }

    /// Reads one line and parses it.
    pub fn receive(&mut self) -> Value {
        let stdout = self.stdout.as_mut().expect("stdout is open");
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read from the server");
        assert!(line.ends_with('\n'), "stdout ended: {line:?}");
        serde_json::from_str(&line).unwrap_or_else(|error| panic!("not JSON ({error}): {line}"))
    }

    /// `initialize` at `revision` (and `notifications/initialized`); logs at every level.
    pub fn handshake(&mut self, revision: &str) {
        self.send(
            &json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": revision, "capabilities": {},
            "clientInfo": {"name": "mcp-tests", "version": "0"}}}),
        );
        let response = self.receive();
        assert_eq!(
            response["result"]["protocolVersion"], revision,
            "{response}"
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM failed: {status}");
    }

    /// Waits (up to `limit`, a hang detector, not a timing check) for the process to exit.
    pub fn wait_for_exit(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                if let Some(reader) = self.stderr_reader.take() {
                    let _ = reader.join();
                }
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Everything the server wrote to stderr so far.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Asserts that the process exited with status 0 and that nothing but a tool (in
    /// `tests/src/bin/`) panicked in it.
    pub fn assert_exited_cleanly(&mut self, limit: Duration) {
        let status = self.wait_for_exit(limit);
        let stderr = self.stderr_text();
        assert!(status.success(), "exit status {status}; stderr:\n{stderr}");
        // Tools' own panics are reported there (by the panic hook, and logged): any other
        // panic is a bug of the server.
        let elsewhere = stderr
            .lines()
            .filter(|line| {
                line.contains("panicked at") && !line.contains("panicked at tests/src/bin/")
            })
            .collect::<Vec<_>>();
        assert!(
            elsewhere.is_empty(),
            "something panicked outside a tool: {elsewhere:?}\n{stderr}"
        );
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Samples a process's resident memory (`VmRSS`) on a thread until stopped.
pub struct MemorySampler {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Vec<(Duration, u64)>>,
}

impl MemorySampler {
    /// Starts sampling `pid` every `every`.
    pub fn start(pid: u32, every: Duration) -> MemorySampler {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut samples = Vec::new();
            while !stopped.load(Ordering::Relaxed) {
                match status_kb(pid, "VmRSS") {
                    Some(kb) => samples.push((started.elapsed(), kb)),
                    None => break,
                }
                std::thread::sleep(every);
            }
            samples
        });
        MemorySampler { stop, thread }
    }

    /// Stops, returning every sample: time since the start, and `VmRSS` in kB.
    pub fn finish(self) -> Vec<(Duration, u64)> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the sampler does not panic")
    }
}
