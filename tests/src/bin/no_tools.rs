//! A server with no tools at all, for the start-up tests (`tests/tests/start_up.rs`): what
//! it says on stderr in each way of serving.
//!
//! `no_tools [--allow-no-tools] [--http ADDR | --router | --test-client]`: over stdio (and
//! `MCP_CLI`) by default; over Streamable HTTP on `ADDR`; or, with no `tracing` subscriber
//! installed, only building the HTTP router, or connecting an in-process `TestClient` and
//! closing it again.

use mcp_runtime::Server;
use mcp_runtime::testing::TestClient;

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut server = Server::new("no-tools", "1.0.0");
    let mut mode = String::from("stdio");
    let mut address = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--allow-no-tools" => server = server.allow_no_tools(),
            "--router" | "--test-client" => mode = arg,
            "--http" => mode = arg,
            other if mode == "--http" && address.is_none() => address = Some(other.to_owned()),
            other => panic!("unknown argument: {other}"),
        }
    }
    match mode.as_str() {
        "--http" => {
            let address = address.expect("an address after --http");
            server.serve_http(address).await
        }
        "--router" => {
            let _router = server.http().router()?;
            Ok(())
        }
        "--test-client" => {
            let client = TestClient::connect(server)
                .await
                .expect("the handshake succeeds");
            client.close().await.expect("the server stops cleanly");
            Ok(())
        }
        _ => server.serve_stdio().await,
    }
}
