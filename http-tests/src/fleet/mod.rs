//! Real processes on loopback for the scale-out and fleet tests: server instances, nginx in
//! front of them (round robin, no stickiness) and, for a fleet, the Redis they share.
//!
//! Every process is killed when its handle is dropped, so a failing test leaves nothing
//! running; a [`Fleet`] dropped while its test panics prints what its instances, nginx and
//! Redis wrote.
//!
//! The binaries a fleet runs are [`conformance`] and [`tasks`]; the client side the fleet
//! tests share (calls across instances, their messages) is in [`calls`].

use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_runtime::testing::{RedisServer, free_loopback_port};

pub mod calls;

/// A child process, killed (SIGKILL) and reaped when dropped.
pub struct Process(pub Child);

impl Process {
    /// Kills it at once (SIGKILL, as `kill -9`) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }

    /// Whether it is still running.
    pub fn is_running(&mut self) -> bool {
        self.0.try_wait().expect("a process status").is_none()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits until something accepts connections on `port`; panics if `process` exits first or
/// after 30 s.
pub fn wait_until_listening(port: u16, process: &mut Process) {
    wait_until_listening_or(port, process, String::new);
}

/// [`wait_until_listening`], with `log()` in the panic message (the process's stderr).
fn wait_until_listening_or(port: u16, process: &mut Process, log: impl Fn() -> String) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = process.0.try_wait().expect("a process status") {
            panic!("the process on port {port} exited ({status}) {}", log());
        }
        assert!(
            Instant::now() < deadline,
            "nothing listens on port {port} {}",
            log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The nginx binary.
pub fn nginx() -> PathBuf {
    ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.exists())
        .expect("nginx is installed (apt-get install nginx-light; .ci/run does it)")
}

/// The manual's deployment snippet (`mcp-runtime/docs/http.md`), made self-contained (no
/// root, no system paths): nginx on `127.0.0.1:port`, round robin over `upstreams`, no
/// buffering (SSE streams pass through as they are written), an hour's read timeout (long
/// calls, idle GET streams), HTTP/1.1 to the upstreams.
pub fn nginx_config(dir: &Path, port: u16, upstreams: &[u16]) -> String {
    nginx_config_with(
        dir,
        port,
        upstreams,
        "access_log off;",
        "/mcp",
        "http://mcp",
    )
}

/// [`nginx_config`] with the endpoint served at `path` on nginx's side (`/api/mcp`, say):
/// nginx rewrites it to the instances' `/mcp`, as a proxy mounting the server under a
/// prefix does.
pub fn nginx_config_at(dir: &Path, port: u16, upstreams: &[u16], path: &str) -> String {
    nginx_config_with(
        dir,
        port,
        upstreams,
        "access_log off;",
        path,
        "http://mcp/mcp",
    )
}

/// [`nginx_config`] with an access log (`dir/access.log`): a line per request, `METHOD
/// UPSTREAMS STATUS`, where UPSTREAMS lists every instance nginx tried (`127.0.0.1:P1,
/// 127.0.0.1:P2` when it passed the request on after an error), so a test can tell where
/// each request went. See [`Fleet::access_log`].
pub fn nginx_config_logged(dir: &Path, port: u16, upstreams: &[u16]) -> String {
    let log = format!(
        "log_format placement '$request_method $upstream_addr $status';\n    access_log {}/access.log placement;",
        dir.display()
    );
    nginx_config_with(dir, port, upstreams, &log, "/mcp", "http://mcp")
}

/// The configuration: requests under `location` go to `pass` (nginx's `proxy_pass`: with a
/// path, it replaces the part `location` matched).
fn nginx_config_with(
    dir: &Path,
    port: u16,
    upstreams: &[u16],
    access_log: &str,
    location: &str,
    pass: &str,
) -> String {
    let servers: String = upstreams
        .iter()
        .map(|port| format!("        server 127.0.0.1:{port};\n"))
        .collect();
    let dir = dir.display();
    format!(
        r#"daemon off;
master_process off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    {access_log}
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream mcp {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        location {location} {{
            proxy_pass {pass};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
    }}
}}
"#
    )
}

/// nginx with `config` (written to `dir/nginx.conf`), once it listens on `port`.
pub fn start_nginx(dir: &Path, port: u16, config: &str) -> Process {
    std::fs::write(dir.join("nginx.conf"), config).expect("the nginx configuration");
    let mut balancer = Process(
        Command::new(nginx())
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .arg("-e")
            .arg(dir.join("error.log"))
            .stdin(Stdio::null())
            .spawn()
            .expect("nginx starts"),
    );
    let error_log = dir.join("error.log");
    wait_until_listening_or(port, &mut balancer, || {
        format!(
            "; nginx's error log:\n{}",
            std::fs::read_to_string(&error_log).unwrap_or_default()
        )
    });
    balancer
}

/// A fresh directory under the system's temporary directory, for one test's files.
pub fn temp_dir(what: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "mcp-{what}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// A binary of the workspace (another package's, e.g. `conformance` or `tasks`), next to
/// this test's own executable (`target/debug/deps/..` → `target/debug/NAME`).
/// `cargo test --workspace` builds every binary first; after a change, a test of this
/// package alone needs `cargo build --bin conformance --bin tasks` before it.
pub fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's executable");
    let mut dir = exe.parent().expect("a directory").to_path_buf();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let binary = dir.join(name);
    assert!(
        binary.exists(),
        "{} is not built: run `cargo build --bin {name}` (`cargo test --workspace` builds it)",
        binary.display()
    );
    binary
}

/// The conformance example (`target/debug/conformance`), checked to be built from the
/// current sources.
pub fn conformance() -> PathBuf {
    built_from(
        "conformance",
        &[
            "mcp-runtime/src",
            "mcp-runtime-macros/src",
            "examples/conformance/src",
        ],
    )
}

/// The tasks fixture (`target/debug/tasks`), checked to be built from the current sources.
pub fn tasks() -> PathBuf {
    built_from(
        "tasks",
        &[
            "mcp-runtime/src",
            "mcp-runtime-macros/src",
            "tests/src/bin/tasks.rs",
        ],
    )
}

/// The workspace's binary `name`, checked to be newer than every file of `sources` (paths
/// from the workspace's root): a test of this package alone does not rebuild another
/// package's binaries, and a stale one would test old code.
pub fn built_from(name: &str, sources: &[&str]) -> PathBuf {
    fn newest(path: &Path) -> std::time::SystemTime {
        let metadata =
            std::fs::metadata(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        if !metadata.is_dir() {
            return metadata.modified().expect("a modification time");
        }
        std::fs::read_dir(path)
            .expect("a directory")
            .map(|entry| newest(&entry.expect("an entry").path()))
            .max()
            .unwrap_or(std::time::SystemTime::UNIX_EPOCH)
    }
    let binary = workspace_binary(name);
    let built = newest(&binary);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace");
    for source in sources {
        assert!(
            newest(&root.join(source)) <= built,
            "{} is older than {source}: run `cargo build --bin {name}` first",
            binary.display()
        );
    }
    binary
}

/// One server instance of a fleet.
struct Instance {
    port: u16,
    process: Option<Process>,
    log: PathBuf,
}

/// A fleet: one Redis, `N` instances of a server binary started as `BINARY --http
/// 127.0.0.1:PORT --redis URL`, and nginx round-robin over them (no stickiness; the
/// manual's configuration, with an access log). Each instance's stderr goes to a file
/// ([`Fleet::stderr`]); dropping the fleet stops everything, and prints every log if the
/// test is panicking.
pub struct Fleet {
    /// The Redis the instances share.
    pub redis: RedisServer,
    program: PathBuf,
    dir: PathBuf,
    instances: Vec<Instance>,
    balancer: Option<Process>,
    port: u16,
}

impl Fleet {
    /// Starts Redis, `instances` instances of `program` and nginx in front of them; returns
    /// once every one listens.
    pub fn start(program: impl AsRef<Path>, instances: usize) -> Fleet {
        Self::start_on(RedisServer::start(), program, instances)
    }

    /// [`Fleet::start`] on a Redis of the test's choosing (a durable one, say).
    pub fn start_on(redis: RedisServer, program: impl AsRef<Path>, instances: usize) -> Fleet {
        let dir = temp_dir("fleet");
        // Ports no other test of this process gets: an instance restarts on its own, and a
        // wait for "something listens" must not be answered by another test's server.
        let balancer_port = free_loopback_port();
        let ports: Vec<u16> = (0..instances).map(|_| free_loopback_port()).collect();
        let mut fleet = Fleet {
            redis,
            program: program.as_ref().to_path_buf(),
            instances: ports
                .into_iter()
                .enumerate()
                .map(|(index, port)| Instance {
                    port,
                    process: None,
                    log: dir.join(format!("instance-{index}.log")),
                })
                .collect(),
            dir,
            balancer: None,
            port: balancer_port,
        };
        for index in 0..instances {
            fleet.launch(index);
        }
        let ports: Vec<u16> = fleet
            .instances
            .iter()
            .map(|instance| instance.port)
            .collect();
        let config = nginx_config_logged(&fleet.dir, fleet.port, &ports);
        fleet.balancer = Some(start_nginx(&fleet.dir, fleet.port, &config));
        fleet
    }

    fn launch(&mut self, index: usize) {
        let redis = self.redis.url();
        let instance = &mut self.instances[index];
        let log = File::options()
            .create(true)
            .append(true)
            .open(&instance.log)
            .expect("the instance's log");
        let mut process = Process(
            Command::new(&self.program)
                .arg("--http")
                .arg(format!("127.0.0.1:{}", instance.port))
                .arg("--redis")
                .arg(&redis)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .unwrap_or_else(|error| panic!("{} starts: {error}", self.program.display())),
        );
        let path = instance.log.clone();
        wait_until_listening_or(instance.port, &mut process, || {
            format!(
                "; its stderr:\n{}",
                std::fs::read_to_string(&path).unwrap_or_default()
            )
        });
        instance.process = Some(process);
    }

    /// How many instances the fleet has.
    pub fn len(&self) -> usize {
        self.instances.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty()
    }

    /// The endpoint behind nginx: `http://127.0.0.1:PORT/mcp`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// Instance `index`'s own endpoint, bypassing nginx.
    pub fn instance_url(&self, index: usize) -> String {
        format!("http://127.0.0.1:{}/mcp", self.instances[index].port)
    }

    /// Instance `index`'s port.
    pub fn instance_port(&self, index: usize) -> u16 {
        self.instances[index].port
    }

    /// The index of the instance on `port`.
    pub fn index_of(&self, port: u16) -> Option<usize> {
        self.instances
            .iter()
            .position(|instance| instance.port == port)
    }

    /// Kills instance `index` at once (SIGKILL: no shutdown, no goodbye to Redis).
    pub fn kill(&mut self, index: usize) {
        let process = self.instances[index].process.as_mut().expect("running");
        process.kill();
        self.instances[index].process = None;
        self.note(index, "killed (SIGKILL) by the test");
    }

    /// Starts instance `index` again, on its port, once killed; returns once it listens.
    pub fn restart(&mut self, index: usize) {
        assert!(self.instances[index].process.is_none(), "still running");
        self.note(index, "restarted by the test");
        self.launch(index);
    }

    /// Whether instance `index` runs (it may have exited by itself).
    pub fn is_running(&mut self, index: usize) -> bool {
        self.instances[index]
            .process
            .as_mut()
            .is_some_and(Process::is_running)
    }

    fn note(&self, index: usize, what: &str) {
        use std::io::Write as _;
        if let Ok(mut log) = File::options()
            .append(true)
            .create(true)
            .open(&self.instances[index].log)
        {
            let _ = writeln!(log, "======== fleet test: instance {index} {what}");
        }
    }

    /// What instance `index` wrote on stderr so far (over all its runs).
    pub fn stderr(&self, index: usize) -> String {
        std::fs::read_to_string(&self.instances[index].log).unwrap_or_default()
    }

    /// nginx's access log so far: per request, the method and the ports of the instances
    /// nginx tried, in order (more than one when it passed the request on after an
    /// error), and the status it answered.
    pub fn access_log(&self) -> Vec<(String, Vec<u16>, u16)> {
        std::fs::read_to_string(self.dir.join("access.log"))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| {
                let mut fields = line.split(' ');
                let method = fields.next()?.to_owned();
                let rest: Vec<&str> = fields.collect();
                let (status, upstreams) = rest.split_last()?;
                let ports = upstreams
                    .iter()
                    .flat_map(|part| part.split(','))
                    .filter_map(|address| address.trim().rsplit(':').next()?.parse().ok())
                    .collect();
                Some((method, ports, status.parse().ok()?))
            })
            .collect()
    }

    /// The instances (indexes) that answered at least one request through nginx with
    /// `method`.
    pub fn instances_reached(&self, method: &str) -> BTreeSet<usize> {
        self.access_log()
            .into_iter()
            .filter(|(logged, _, _)| logged == method)
            .filter_map(|(_, ports, _)| self.index_of(*ports.last()?))
            .collect()
    }

    /// Everything the fleet's processes wrote: each instance's stderr, nginx's error log.
    pub fn logs(&self) -> String {
        let mut all = String::new();
        for (index, instance) in self.instances.iter().enumerate() {
            let log = self.stderr(index);
            let tail = tail(&log, 6000);
            all.push_str(&format!(
                "---- instance {index} (127.0.0.1:{}) stderr ----\n{tail}\n",
                instance.port
            ));
        }
        let nginx = std::fs::read_to_string(self.dir.join("error.log")).unwrap_or_default();
        all.push_str(&format!("---- nginx error.log ----\n{nginx}\n"));
        all
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "==== the fleet's logs (the test failed; Redis at {}) ====\n{}",
                self.redis.url(),
                self.logs()
            );
        }
        self.balancer = None;
        for instance in &mut self.instances {
            instance.process = None;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The last `bytes` bytes of `text` (or a little less, at a character boundary).
pub fn tail(text: &str, bytes: usize) -> &str {
    let mut start = text.len().saturating_sub(bytes);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}
