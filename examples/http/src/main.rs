//! Tools served over Streamable HTTP, with the transport's security defaults and an optional
//! bearer-token check.
//!
//! What it shows:
//!
//! - **The HTTP transport** (feature `http`): the same `#[mcp_tool]` functions, served at
//!   `http://ADDRESS/mcp` to clients of every protocol revision from 2025-03-26 (sessions) to
//!   2026-07-28 (stateless). A `tools/call` is answered with an SSE stream carrying the call's
//!   progress (`countdown`) and log messages, then its result.
//! - **The Host/Origin guard**, on by default: a request whose `Host` is not `localhost`,
//!   `127.0.0.1` or `[::1]`, or whose `Origin` (sent by browsers) is not local, is refused with
//!   403, which stops DNS-rebinding attacks from web pages. `--allow-host` and `--allow-origin`
//!   admit more.
//! - **Authentication**: with `MCP_HTTP_TOKENS` set, every request needs
//!   `Authorization: Bearer TOKEN` (else 401 with a `WWW-Authenticate: Bearer` challenge), and
//!   tools learn who called (`whoami`) through `Context::principal` — or the `Principal<T>`
//!   extractor, in a tool that must never run unauthenticated.
//! - **Graceful shutdown**: SIGINT or SIGTERM stops accepting connections, lets calls in flight
//!   finish, and exits 0.
//!
//! Run it with
//!
//! ```sh
//! cargo run -p example-http -- [ADDRESS] [--allow-host NAME]... [--allow-origin ORIGIN]...
//! ```
//!
//! ADDRESS defaults to `127.0.0.1:8080` (port 0 picks a free port); the server prints its
//! endpoint's URL on stderr. `MCP_HTTP_TOKENS="ada=token-of-ada,grace=token-of-grace"` turns
//! on authentication with those users and tokens (an environment variable rather than an
//! argument, so the tokens do not show in `ps`). Then, for example:
//!
//! ```sh
//! curl -s http://127.0.0.1:8080/mcp -H 'Content-Type: application/json' \
//!   -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' \
//!   -H 'Mcp-Method: tools/call' -H 'Mcp-Name: word_count' -H 'Authorization: Bearer token-of-ada' \
//!   -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"word_count",
//!        "arguments":{"text":"hello HTTP world"},"_meta":{
//!        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!        "io.modelcontextprotocol/clientCapabilities":{}}}}'
//! ```
//!
//! With default settings the whole `main` would be one line:
//! `Server::new("http", "1.0.0").serve_http("127.0.0.1:8080").await`. This one uses the
//! builder, `Server::http()`, for its options, and binds the listener itself so that it can
//! print the address it got.

use std::time::Duration;

use mcp_runtime::{AuthRejection, Context, Json, Server, ToolError, bearer_token, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

/// Who made a request, as the authentication hook found them.
struct User(String);

/// Say who is calling: the user the bearer token belongs to.
#[mcp_tool(read_only, idempotent, open_world = false)]
async fn whoami(ctx: Context) -> String {
    // `ctx.principal` is `None` when the server runs without `MCP_HTTP_TOKENS`. A tool that
    // needs a user would take `user: Principal<User>` instead: the runtime then refuses
    // unauthenticated calls with an `isError` result, and the tool never runs.
    match ctx.principal::<User>() {
        Some(user) => user.0.clone(),
        None => "anonymous (the server runs without MCP_HTTP_TOKENS)".to_owned(),
    }
}

/// Counts of a text.
#[derive(Serialize, JsonSchema)]
struct Counts {
    /// Lines.
    lines: usize,
    /// Words: runs of non-whitespace.
    words: usize,
    /// Characters (Unicode scalar values).
    characters: usize,
}

/// Count the lines, words and characters of a text.
#[mcp_tool(read_only, idempotent, open_world = false)]
async fn word_count(
    /// The text to count.
    text: String,
) -> Json<Counts> {
    Json(Counts {
        lines: text.lines().count(),
        words: text.split_whitespace().count(),
        characters: text.chars().count(),
    })
}

/// Count down to zero, one step at a time, reporting each step as progress.
///
/// Over HTTP the progress notifications travel on the call's SSE stream, ahead of the result.
#[mcp_tool(read_only, idempotent, open_world = false)]
async fn countdown(
    /// Where to start (at most 100).
    #[mcp(default = 5)]
    from: u32,
    /// Milliseconds between steps (at most 5000).
    #[mcp(default = 200)]
    step_ms: u64,
    ctx: Context,
) -> Result<String, ToolError> {
    if from > 100 || step_ms > 5000 {
        return Err(ToolError::new(
            "from must be at most 100, step_ms at most 5000",
        ));
    }
    for done in 1..=from {
        tokio::time::sleep(Duration::from_millis(step_ms)).await;
        let message = format!("{}", from - done);
        ctx.progress(f64::from(done), Some(f64::from(from)), Some(&message));
    }
    Ok("liftoff".to_owned())
}

/// The users and their bearer tokens, from `MCP_HTTP_TOKENS` (`name=token,name=token`).
struct Tokens(Vec<(String, String)>);

impl Tokens {
    fn from_env() -> Result<Option<Tokens>, String> {
        let Ok(spec) = std::env::var("MCP_HTTP_TOKENS") else {
            return Ok(None);
        };
        let mut tokens = Vec::new();
        for pair in spec.split(',').filter(|pair| !pair.trim().is_empty()) {
            match pair.split_once('=') {
                Some((name, token)) if !name.trim().is_empty() && !token.trim().is_empty() => {
                    tokens.push((name.trim().to_owned(), token.trim().to_owned()));
                }
                _ => return Err(format!("MCP_HTTP_TOKENS: `{pair}` is not `name=token`")),
            }
        }
        if tokens.is_empty() {
            return Err("MCP_HTTP_TOKENS is set but names no `name=token` pair".to_owned());
        }
        Ok(Some(Tokens(tokens)))
    }

    /// The user a request's bearer token belongs to (the hook that `main` gives
    /// `HttpServer::authenticate` calls this with every request's token).
    fn check(&self, token: &str) -> Result<User, AuthRejection> {
        self.0
            .iter()
            // Every token is compared in full, whatever matches, so the time taken does not
            // tell an attacker how much of a guess was right.
            .fold(None, |found, (name, known)| {
                if same(token.as_bytes(), known.as_bytes()) {
                    Some(name)
                } else {
                    found
                }
            })
            .map(|name| User(name.clone()))
            .ok_or_else(|| AuthRejection::invalid_token("unknown token"))
    }
}

/// Whether two byte strings are equal, looking at every byte of both.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// The command line.
struct Options {
    address: String,
    hosts: Vec<String>,
    origins: Vec<String>,
}

const USAGE: &str = "usage: http [ADDRESS] [--allow-host NAME]... [--allow-origin ORIGIN]...

Serves MCP over Streamable HTTP at http://ADDRESS/mcp (default 127.0.0.1:8080; port 0 picks
a free port). Requests must name a local Host (or one given with --allow-host) and, from a
browser, come from a local Origin (or one given with --allow-origin).
MCP_HTTP_TOKENS=\"name=token,...\" requires `Authorization: Bearer TOKEN` on every request.";

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
        let mut options = Options {
            address: "127.0.0.1:8080".to_owned(),
            hosts: Vec::new(),
            origins: Vec::new(),
        };
        let mut address = None;
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--allow-host" => options.hosts.push(args.next().ok_or("--allow-host NAME")?),
                "--allow-origin" => options
                    .origins
                    .push(args.next().ok_or("--allow-origin ORIGIN")?),
                "-h" | "--help" => return Err(String::new()),
                _ if arg.starts_with('-') || address.is_some() => {
                    return Err(format!("unexpected argument `{arg}`"));
                }
                _ => address = Some(arg),
            }
        }
        if let Some(address) = address {
            options.address = address;
        }
        Ok(options)
    }
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("http: {problem}\n");
            }
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    let tokens = match Tokens::from_env() {
        Ok(tokens) => tokens,
        Err(problem) => {
            eprintln!("http: {problem}");
            std::process::exit(2);
        }
    };

    let mut http = Server::new("http", env!("CARGO_PKG_VERSION"))
        .title("HTTP example")
        .instructions("Counts words, counts down, and says who is calling.")
        .http();
    for host in options.hosts {
        http = http.allow_host(host);
    }
    for origin in options.origins {
        http = http.allow_origin(origin);
    }
    let authenticated = tokens.is_some();
    if let Some(tokens) = tokens {
        http = http.authenticate(move |headers: &_| tokens.check(bearer_token(headers)?));
    }

    let listener = tokio::net::TcpListener::bind(&options.address).await?;
    let address = listener.local_addr()?;
    if !address.ip().is_loopback() && !authenticated {
        eprintln!(
            "http: warning: serving {} beyond this machine without authentication (set MCP_HTTP_TOKENS)",
            address.ip()
        );
    }
    eprintln!("MCP endpoint: http://{address}/mcp");
    // Until SIGINT or SIGTERM; then calls in flight get `Server::shutdown_grace` to finish.
    http.serve_on(listener).await
}
