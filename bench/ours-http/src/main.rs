//! The echo server of `ours` (the stdio benchmark), exactly as a user would write it, over
//! Streamable HTTP: `ours-http --http ADDR [--redis URL]` serves it on `ADDR` (e.g.
//! `127.0.0.1:0`; the address it listens on is printed on stderr), sharing its sessions,
//! streams and tasks through Redis at `URL` when given (the HTTP benchmark, `mcp-httpload`).

use mcp_runtime::{Server, mcp_tool};

/// Echo the text back.
#[mcp_tool(read_only, idempotent)]
async fn echo(
    /// The text to echo.
    text: String,
) -> String {
    text
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let server = Server::new("echo", "1.0.0");
    match http_options() {
        (addr, None) => server.http().serve(addr).await,
        (addr, Some(redis)) => server.http().redis(redis).serve(addr).await,
    }
}

/// `--http ADDR [--redis URL]`; anything else exits with the usage.
fn http_options() -> (String, Option<String>) {
    let usage = || -> ! {
        eprintln!("usage: ours-http --http ADDR [--redis URL]");
        std::process::exit(2)
    };
    let mut args = std::env::args().skip(1);
    let (mut http, mut redis) = (None, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => http = Some(args.next().unwrap_or_else(|| usage())),
            "--redis" => redis = Some(args.next().unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    match http {
        Some(addr) => (addr, redis),
        None => usage(),
    }
}
