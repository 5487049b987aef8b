//! The server the hostile-clients tests probe from outside, as an attacker would: a public
//! HTTP server with bearer tokens, sessions bound to their principal, a slow tool and one
//! that reports progress, and its bounds set from the command line so the tests can reach
//! them quickly.
//!
//! `hostile ADDRESS:PORT [--header-timeout-ms N] [--body-timeout-ms N] [--max-connections N]
//! [--max-sessions N] [--max-sessions-per-principal N] [--max-calls-per-session N]
//! [--session-idle-ms N] [--max-in-flight N] [--max-waiting-calls N]
//! [--max-reading-bytes N]`
//!
//! Tokens are `Bearer token-NAME`; the principal is `NAME`.

use std::time::Duration;

use mcp_runtime::{AuthRejection, Context, HeaderMap, LogLevel, Server, bearer_token, mcp_tool};

struct User(String);

fn check_token(headers: &HeaderMap) -> Result<User, AuthRejection> {
    let token = bearer_token(headers)?;
    match token.strip_prefix("token-") {
        Some(name) if !name.is_empty() => Ok(User(name.to_owned())),
        _ => Err(AuthRejection::invalid_token("unknown token")),
    }
}

/// Answer after `ms` milliseconds.
#[mcp_tool(read_only)]
async fn slow(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

/// Report progress `steps` times, then answer.
#[mcp_tool(read_only)]
async fn steps(steps: u32, context: Context) -> String {
    for step in 0..steps {
        context.progress(f64::from(step + 1), Some(f64::from(steps)), None);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    format!("{steps} steps")
}

/// Log `count` messages of `size` bytes each, then answer.
#[mcp_tool(read_only)]
async fn chatty(count: u32, size: usize, context: Context) -> String {
    let text = "x".repeat(size);
    for _ in 0..count {
        context.log(LogLevel::Info, &text);
        tokio::task::yield_now().await;
    }
    format!("{count} messages")
}

fn millis(value: Option<String>, flag: &str) -> Duration {
    Duration::from_millis(number(value, flag) as u64)
}

fn number(value: Option<String>, flag: &str) -> usize {
    value
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("{flag} takes a number"))
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut args = std::env::args().skip(1);
    let Some(address) = args.next() else {
        eprintln!("usage: hostile ADDRESS:PORT [--FLAG N]...");
        std::process::exit(2)
    };
    let flags: Vec<(String, Option<String>)> = std::iter::from_fn(|| {
        let flag = args.next()?;
        Some((flag, args.next()))
    })
    .collect();
    let mut server = Server::new("hostile", "1.0.0").task_owner(|user: &User| user.0.clone());
    for (flag, value) in &flags {
        server = match flag.as_str() {
            "--max-in-flight" => server.max_in_flight(number(value.clone(), flag)),
            "--max-waiting-calls" => server.max_waiting_calls(number(value.clone(), flag)),
            _ => server,
        };
    }
    let mut http = server
        .http()
        .authenticate(check_token)
        .prometheus_metrics("/metrics");
    for (flag, value) in flags {
        let value = Some(value.unwrap_or_default());
        http = match flag.as_str() {
            "--header-timeout-ms" => http.header_timeout(millis(value, &flag)),
            "--body-timeout-ms" => http.body_timeout(millis(value, &flag)),
            "--max-connections" => http.max_connections(number(value, &flag)),
            "--max-sessions" => http.max_sessions(number(value, &flag)),
            "--max-sessions-per-principal" => http.max_sessions_per_principal(number(value, &flag)),
            "--max-calls-per-session" => http.max_calls_per_session(number(value, &flag)),
            "--max-reading-bytes" => http.max_reading_bytes(number(value, &flag)),
            "--session-idle-ms" => http.session_idle_timeout(millis(value, &flag)),
            "--max-in-flight" | "--max-waiting-calls" => http,
            _ => panic!("unknown flag {flag}"),
        };
    }
    http.serve(address).await
}
