//! Scale-out for real: two server processes behind an nginx round-robin load balancer on
//! loopback, driven by a 2026-07-28 client. Stateless requests may land on any instance,
//! so every call succeeds whichever instance serves it. Needs `nginx` (the Debian package;
//! `.ci/run` installs it).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_http_tests::HttpClient;
use reqwest::StatusCode;
use serde_json::json;

/// Kills its process when dropped, so a failing test leaves nothing running.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}

fn wait_until_listening(port: u16, process: &mut Process) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            process.0.try_wait().expect("a process status").is_none(),
            "the process on port {port} exited"
        );
        assert!(Instant::now() < deadline, "nothing listens on port {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn nginx() -> PathBuf {
    ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.exists())
        .expect("nginx is installed (apt-get install nginx-light; .ci/run does it)")
}

/// The manual's deployment snippet (`mcp-runtime/docs/http.md`), made self-contained (no root, no system paths).
fn nginx_config(dir: &Path, port: u16, upstreams: &[u16]) -> String {
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
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream mcp {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        location /mcp {{
            proxy_pass http://mcp;
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

#[tokio::test]
async fn stateless_calls_through_nginx_land_on_every_instance() {
    let instance = env!("CARGO_BIN_EXE_instance");
    let mut instances = Vec::new();
    let mut ports = Vec::new();
    for name in ["alpha", "beta"] {
        let port = free_port();
        let mut process = Process(
            Command::new(instance)
                .args([name, &format!("127.0.0.1:{port}")])
                .stdin(Stdio::null())
                .spawn()
                .expect("the instance starts"),
        );
        wait_until_listening(port, &mut process);
        instances.push(process);
        ports.push(port);
    }

    let dir = std::env::temp_dir().join(format!("mcp-scale-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let port = free_port();
    std::fs::write(dir.join("nginx.conf"), nginx_config(&dir, port, &ports)).expect("config");
    let mut balancer = Process(
        Command::new(nginx())
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .arg("-e")
            .arg(dir.join("error.log"))
            .stdin(Stdio::null())
            .spawn()
            .expect("nginx starts"),
    );
    wait_until_listening(port, &mut balancer);

    let mut client = HttpClient::new(format!("http://127.0.0.1:{port}/mcp"), "2026-07-28");
    let discover = client.request("server/discover", json!({})).await;
    assert_eq!(discover.status, StatusCode::OK);
    let mut answered_by = Vec::new();
    for _ in 0..10 {
        let call = client
            .request("tools/call", json!({ "name": "whoami", "arguments": {} }))
            .await;
        assert_eq!(call.status, StatusCode::OK);
        assert!(call.event_stream, "the SSE stream passes through nginx");
        let result = &call.response()["result"];
        assert_eq!(result["isError"], serde_json::Value::Null, "{result}");
        let text = result["content"][0]["text"].as_str().expect("a text block");
        answered_by.push(text.split(' ').next().expect("a name").to_owned());
    }
    for name in ["alpha", "beta"] {
        assert!(
            answered_by.iter().any(|answered| answered == name),
            "no call landed on {name}: {answered_by:?}"
        );
    }
    drop(balancer);
    drop(instances);
    let _ = std::fs::remove_dir_all(&dir);
}
