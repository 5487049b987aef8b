//! One instance of a horizontally scaled server, for the scale-out test: its tools say
//! which instance answered.
//!
//! `instance NAME ADDRESS:PORT` serves Streamable HTTP on the address.

use mcp_runtime::{Server, State, mcp_tool};

/// The name this instance was started with.
struct InstanceName(String);

/// Which instance answered, and its process id.
#[mcp_tool(read_only)]
async fn whoami(name: State<InstanceName>) -> String {
    format!("{} (pid {})", name.0, std::process::id())
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut args = std::env::args().skip(1);
    let (Some(name), Some(address)) = (args.next(), args.next()) else {
        eprintln!("usage: instance NAME ADDRESS:PORT");
        std::process::exit(2)
    };
    Server::new("scale-out-instance", "1.0.0")
        .state(InstanceName(name))
        .serve_http(address)
        .await
}
