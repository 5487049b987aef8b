//! [`RedisServer`]: a real `redis-server` of its own for a test (features `testing` and
//! `redis`).

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a starting server may take to answer `PING`.
const START_TIMEOUT: Duration = Duration::from_secs(10);
/// Where `redis-server` is looked for when it is not on the `PATH`.
const FALLBACK_BINARY: &str = "/usr/bin/redis-server";
/// What the panic says when there is no `redis-server`.
const NOT_INSTALLED: &str =
    "redis-server is not installed (apt-get install redis-server; .ci/run does it)";

/// Numbers the servers of one process, for their directories.
static STARTED: AtomicUsize = AtomicUsize::new(0);

/// A `redis-server` of its own, for your own fleet tests: a
/// [`RedisTaskStore`](crate::fleet::RedisTaskStore) or a server with
/// [`HttpServer::redis`](crate::HttpServer::redis) against a real Redis, which the test
/// can also stop and start again to see what happens while Redis is away.
///
/// It runs the `redis-server` found on the `PATH` (or `/usr/bin/redis-server`) on a free
/// port of 127.0.0.1, in a temporary directory of its own, keeping nothing on disk (no
/// snapshots, no append-only file, unless [`start_durable`](RedisServer::start_durable)):
/// each server starts empty, and so does each [`start_again`](RedisServer::start_again). Its output goes to `redis.log` in that
/// directory. Dropping it stops the server and removes the directory. A server in a
/// `static` is never dropped, so its process outlives the tests: share one between tests
/// through an `Arc` instead (a `Weak` in a `static` hands it to tests running at the same
/// time).
///
/// Its methods block (they wait for the server to answer, or to exit); call them from
/// synchronous tests or from a multi-threaded Tokio runtime.
///
/// ```no_run
/// use mcp_runtime::TaskStore;
/// use mcp_runtime::fleet::RedisTaskStore;
/// use mcp_runtime::testing::RedisServer;
///
/// #[tokio::test(flavor = "multi_thread")]
/// async fn the_store_fails_while_redis_is_away() {
///     let mut redis = RedisServer::start();
///     let store = RedisTaskStore::connect(&redis.url(), "test:").await.unwrap();
///     assert_eq!(store.get("some-id").await, Ok(None));
///     redis.stop();
///     assert!(store.get("some-id").await.is_err());
///     redis.start_again();
/// }
/// # fn main() {}
/// ```
#[derive(Debug)]
pub struct RedisServer {
    binary: PathBuf,
    port: u16,
    dir: PathBuf,
    process: Option<Child>,
    durable: bool,
}

impl RedisServer {
    /// Starts a server and waits until it answers (10 s at most).
    ///
    /// # Panics
    ///
    /// If `redis-server` is not installed, or does not answer in time (the panic shows its
    /// log).
    pub fn start() -> RedisServer {
        Self::launch_new(false)
    }

    /// Starts a server that writes every change to an append-only file before answering
    /// (`appendfsync always`), so that [`start_again`](RedisServer::start_again) finds what
    /// it held, as a production Redis with `appendonly yes` would.
    ///
    /// # Panics
    ///
    /// As [`start`](RedisServer::start).
    pub fn start_durable() -> RedisServer {
        Self::launch_new(true)
    }

    fn launch_new(durable: bool) -> RedisServer {
        let binary = find_binary();
        let dir = std::env::temp_dir().join(format!(
            "mcp-redis-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        ));
        // Left by an earlier process that had this process's id.
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir)
            .unwrap_or_else(|error| panic!("cannot create {}: {error}", dir.display()));
        let mut server = RedisServer {
            binary,
            port: 0,
            dir,
            process: None,
            durable,
        };
        // A free port may be taken before the server binds it: try another.
        let mut failure = String::new();
        for _ in 0..3 {
            server.port = super::free_loopback_port();
            match launch(&server.binary, server.port, &server.dir, server.durable) {
                Ok(process) => {
                    server.process = Some(process);
                    return server;
                }
                Err(error) => failure = error,
            }
        }
        panic!("{failure}");
    }

    /// Where it listens: `redis://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// The port it listens on, the same across [`stop`](RedisServer::stop) and
    /// [`start_again`](RedisServer::start_again).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills the server and waits until it has exited: Redis is gone, and everything it
    /// held with it (but what a durable one wrote to its file). Nothing happens if it is stopped already.
    pub fn stop(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.kill();
            let _ = process.wait();
        }
    }

    /// Freezes the server (`SIGSTOP`): connections stay open but nothing is answered, as
    /// in a long stall of Redis, until [`resume`](RedisServer::resume).
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Lets a [`pause`](RedisServer::pause)d server run again (`SIGCONT`).
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let Some(process) = &self.process else { return };
        let status = Command::new("kill")
            .arg(signal)
            .arg(process.id().to_string())
            .status()
            .unwrap_or_else(|error| panic!("cannot run kill {signal}: {error}"));
        assert!(status.success(), "kill {signal} {} failed", process.id());
    }

    /// Starts the server again, on the same port and in the same directory (empty, unless
    /// it was started with [`start_durable`](RedisServer::start_durable)), and
    /// waits until it answers (stopping it first if it runs).
    ///
    /// # Panics
    ///
    /// If it does not answer within 10 s (the port was taken meanwhile, say).
    pub fn start_again(&mut self) {
        self.stop();
        match launch(&self.binary, self.port, &self.dir, self.durable) {
            Ok(process) => self.process = Some(process),
            Err(error) => panic!("{error}"),
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn find_binary() -> PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("redis-server"))
            .find(|candidate| candidate.is_file())
    });
    on_path
        .or_else(|| Some(PathBuf::from(FALLBACK_BINARY)).filter(|binary| binary.is_file()))
        .unwrap_or_else(|| panic!("{NOT_INSTALLED}"))
}

/// Starts `redis-server` on `port` in `dir`, and waits until it answers.
fn launch(binary: &Path, port: u16, dir: &Path, durable: bool) -> Result<Child, String> {
    let log_path = dir.join("redis.log");
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|error| format!("cannot open {}: {error}", log_path.display()))?;
    let errors = log
        .try_clone()
        .map_err(|error| format!("cannot open {}: {error}", log_path.display()))?;
    let mut process = Command::new(binary)
        .arg("--port")
        .arg(port.to_string())
        .args(["--bind", "127.0.0.1", "--dir"])
        .arg(dir)
        .args(["--save", "", "--daemonize", "no"])
        .args(if durable {
            ["--appendonly", "yes", "--appendfsync", "always"]
        } else {
            ["--appendonly", "no", "--appendfsync", "everysec"]
        })
        .args(["--protected-mode", "no"])
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(errors)
        .spawn()
        .map_err(|error| format!("cannot run {}: {error}", binary.display()))?;
    let deadline = Instant::now() + START_TIMEOUT;
    loop {
        if let Ok(Some(status)) = process.try_wait() {
            return Err(format!(
                "redis-server on port {port} exited ({status}) before answering; its log:\n{}",
                read_log(&log_path)
            ));
        }
        if answers(port) {
            return Ok(process);
        }
        if Instant::now() > deadline {
            let _ = process.kill();
            let _ = process.wait();
            return Err(format!(
                "redis-server on port {port} did not answer within {START_TIMEOUT:?}; its log:\n{}",
                read_log(&log_path)
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether a Redis on `port` answers `PING`.
fn answers(port: u16) -> bool {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let Ok(mut stream) = TcpStream::connect_timeout(&address, Duration::from_millis(250)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    if stream.write_all(b"PING\r\n").is_err() {
        return false;
    }
    let mut reply = [0_u8; 7];
    let mut read = 0;
    while read < reply.len() {
        match stream.read(&mut reply[read..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
    reply[..read].starts_with(b"+PONG")
}

fn read_log(path: &Path) -> String {
    let mut text = String::new();
    match File::open(path) {
        Ok(mut file) => {
            let _ = file.read_to_string(&mut text);
        }
        Err(error) => text = format!("(cannot read {}: {error})", path.display()),
    }
    text
}
