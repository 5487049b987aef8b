//! What a server tells the person who started it, on stderr, as it starts: that it has no
//! tools (and why that usually is), that it waits for a client when started by hand on a
//! terminal, and where an HTTP server listens. Protocol messages never go there.

/// Why a server with no tools at all starts anyway, and what usually causes it.
pub(crate) const NO_TOOLS: &str = "\
this server has no tools: no #[mcp_tool] function is linked into this binary and no tool \
was added with ToolSet::add. The usual causes:
  - the tools are in a library crate the binary never names, so the linker leaves them out: \
add `use my_tools as _;` (with the library's name) to the binary's main.rs;
  - this is an integration test in tests/ of a binary crate, which links none of the \
binary's tools: move the tools into the crate's library (src/lib.rs) and add \
`use my_crate as _;` to the test, or test the binary as a process.
A server that adds all its tools at run time says so with Server::allow_no_tools().";

/// Says `message` where the person running the server looks: through `tracing` when a
/// subscriber is installed (the one `serve_stdio` installs on stderr, or the application's
/// own), and straight to stderr when none is. A test driving a `TestClient`, or an
/// application serving `router()` without a subscriber, would otherwise never see it: an
/// event nobody subscribes to is dropped in silence.
pub(crate) fn warn(message: &str) {
    let listened_to = tracing::dispatcher::get_default(|dispatch| {
        !dispatch.is::<tracing::subscriber::NoSubscriber>()
    });
    if listened_to {
        tracing::warn!(target: "mcp_runtime", "{message}");
    } else {
        eprintln!("warning: {message}");
    }
}

/// Shown when stdin is a terminal: someone started the server by hand, and it seems to
/// hang. `program` is how it was started, `cargo run` or the binary, as a shell command.
pub(crate) fn terminal_hint(program: &str) -> String {
    let intro = "This is an MCP server: it waits for an MCP client to send JSON-RPC messages \
        on stdin, and reads whatever is typed here as such. MCP hosts (an IDE, a desktop \
        app, the MCP Inspector) start it for you.";
    if cfg!(feature = "cli") {
        format!(
            "{intro}\nTo try its tools from a shell, use its command line:\n    \
             MCP_CLI=tools {program}\n    \
             MCP_CLI='call <tool> key=value ...' {program}\n    \
             MCP_CLI=help {program}\n\
             Press Ctrl-D to stop the server."
        )
    } else {
        format!("{intro}\nPress Ctrl-D to stop the server.")
    }
}

/// How this process was started, as a command to repeat with `MCP_CLI=...` in front: the
/// `cargo run` line when cargo runs it, else the binary as it was named.
pub(crate) fn this_program() -> String {
    let mut args = std::env::args();
    let binary = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    // `cargo run` (and `cargo test`) give the program cargo's own variables.
    let cargo = std::env::var_os("CARGO").is_some();
    let mut command = match std::path::Path::new(&binary).file_stem() {
        Some(name) if cargo => {
            let package = std::env::var("CARGO_PKG_NAME")
                .map(|package| format!(" -p {package}"))
                .unwrap_or_default();
            format!("cargo run{package} --bin {}", name.to_string_lossy())
        }
        _ => quote(&binary),
    };
    if !rest.is_empty() {
        if cargo {
            command.push_str(" --");
        }
        for arg in &rest {
            command.push(' ');
            command.push_str(&quote(arg));
        }
    }
    command
}

/// `word` as a shell reads it back: as is when that is safe, else in single quotes.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The line an HTTP server prints once it accepts connections.
#[cfg(feature = "http")]
pub(crate) fn listening(address: std::net::SocketAddr, endpoint: &str) -> String {
    format!("MCP server listening on http://{address}{endpoint}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_what_a_shell_would_split() {
        assert_eq!(quote("target/debug/files"), "target/debug/files");
        assert_eq!(quote("my dir"), "'my dir'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }

    #[cfg(feature = "http")]
    #[test]
    fn names_the_url_with_the_endpoint() {
        let v4: std::net::SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let v6: std::net::SocketAddr = "[::1]:9000".parse().unwrap();
        assert_eq!(
            listening(v4, "/mcp"),
            "MCP server listening on http://127.0.0.1:8080/mcp"
        );
        assert_eq!(
            listening(v6, "/api/mcp"),
            "MCP server listening on http://[::1]:9000/api/mcp"
        );
    }
}
