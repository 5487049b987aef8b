//! The command line built into every server binary (cargo feature `cli`, on by default).
//!
//! `MCP_CLI="call add a=1 b=2" ./calculator` runs one command against the binary's own tools
//! and exits, instead of serving stdio. The command comes from an environment variable, not
//! from argv, so it can never collide with the application's own arguments (the files
//! example's root directory stays its first argument) and the application still builds its
//! `Server` — state, limits, title — exactly as when a host launches it. The command then
//! runs as an in-process client of that server over an in-memory pipe, through the same
//! JSON-RPC path a remote client takes, so a bad argument gets the error a client would see.

use std::collections::HashMap;

use std::io::Write as _;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};
use serde_json::{Map, Value, json};

use crate::client::{
    ClientCore, Introduction, Notification, Progress, ResponseError, Tool, ToolResult,
};
use crate::protocol::version::ProtocolVersion;
use crate::server::Server;

/// `println!` that stops quietly when stdout is closed (`| head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, $($arg)*);
    }};
}

/// The environment variable holding the command line.
pub(crate) const CLI_ENV: &str = "MCP_CLI";

/// Exit status of a command that failed: a tool error, a protocol error, a missing tool.
const FAILURE: i32 = 1;

/// Run one command against this server's own tools, then exit.
///
/// The command line is the value of the MCP_CLI environment variable, split like a shell
/// would; the program's own arguments are left to the program. Everything goes through the
/// server as a JSON-RPC client would send it.
#[derive(Debug, Parser)]
#[command(
    name = "MCP_CLI",
    no_binary_name = true,
    disable_version_flag = true,
    after_help = "Example: MCP_CLI='call add a=1 b=2' ./calculator"
)]
struct Cli {
    /// The protocol revision to speak (see `revisions`).
    #[arg(long, short, global = true, default_value = ProtocolVersion::LATEST_HANDSHAKE.as_str(), value_parser = parse_revision)]
    revision: ProtocolVersion,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the tools: name, title, hints and the first line of the description.
    Tools,
    /// Show a tool's input and output schemas.
    Schema {
        /// The tool's name.
        tool: String,
    },
    /// Print the whole `tools/list` result (every page) as JSON.
    ListJson,
    /// Call a tool and print its result; exits with 1 if the tool fails.
    #[command(
        after_help = "Arguments are one JSON object ('{\"a\": 1}') or key=value pairs. \
        A value is read as the type its parameter's schema gives (integer, number, boolean, \
        string; arrays and objects as JSON); key:=JSON passes JSON as is.\n\n\
        Example: MCP_CLI='call statistics values=[1,2,3.5]' ./calculator"
    )]
    Call {
        /// The tool's name.
        tool: String,
        /// A JSON object, or key=value / key:=JSON pairs.
        arguments: Vec<String>,
    },
    /// List the protocol revisions this server speaks.
    Revisions,
}

fn parse_revision(revision: &str) -> Result<ProtocolVersion, String> {
    ProtocolVersion::parse(revision).ok_or_else(|| {
        let known: Vec<&str> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
        format!("unknown revision; one of {}", known.join(", "))
    })
}

/// The command line, if `MCP_CLI` asks for one.
pub(crate) fn requested() -> Option<String> {
    std::env::var(CLI_ENV).ok()
}

/// Runs the command line `command` against `server`; returns the process exit status.
pub(crate) async fn run(server: Server, command: &str) -> i32 {
    let words = match shell_words::split(command) {
        Ok(words) => words,
        Err(error) => {
            eprintln!("error: {CLI_ENV} is not a valid command line: {error}");
            return 2;
        }
    };
    let words = if words.is_empty() {
        vec!["help".to_owned()]
    } else {
        words
    };
    let parsed = Cli::command()
        .bin_name(CLI_ENV)
        .try_get_matches_from(words)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return error.exit_code();
        }
    };
    if let Command::Revisions = cli.command {
        print_revisions();
        return 0;
    }
    let introduction = Introduction {
        revision: cli.revision,
        capabilities: json!({}),
        client_info: json!({ "name": "mcp-cli", "version": env!("CARGO_PKG_VERSION") }),
    };
    let client = match ClientCore::connect(
        |input, output| server.serve_io(input, output),
        introduction,
        HashMap::new(),
        None,
    )
    .await
    {
        Ok(client) => client,
        Err(error) => return fail(&error),
    };
    let status = match execute(&client, cli.command).await {
        Ok(status) => status,
        Err(error) => fail(&error),
    };
    match client.close().await {
        Err(error) if status == 0 => {
            fail(&ResponseError::new(ResponseError::CONNECTION_CLOSED, error))
        }
        _ => status,
    }
}

fn fail(error: &ResponseError) -> i32 {
    eprintln!("{error}");
    if let Some(data) = &error.data {
        eprintln!("{}", pretty(data));
    }
    FAILURE
}

async fn execute(client: &ClientCore, command: Command) -> Result<i32, ResponseError> {
    match command {
        Command::Tools => {
            let table = tools_table(&client.list_tools().await?);
            let _ = std::io::stdout().lock().write_all(table.as_bytes());
        }
        Command::Schema { tool } => {
            let tools = client.list_tools().await?;
            let Some(tool) = tools.iter().find(|candidate| candidate.name == tool) else {
                eprintln!("error: no tool named `{tool}`; `tools` lists them");
                return Ok(FAILURE);
            };
            say!("input schema:\n{}", pretty(&tool.input_schema));
            match &tool.output_schema {
                Some(schema) => say!("\noutput schema:\n{}", pretty(schema)),
                None => say!("\noutput schema: none (the tool has no structured output)"),
            }
        }
        Command::ListJson => say!("{}", pretty(&client.list_tools_result().await?)),
        Command::Call { tool, arguments } => return call(client, &tool, &arguments).await,
        Command::Revisions => print_revisions(),
    }
    Ok(0)
}

fn print_revisions() {
    for version in ProtocolVersion::ALL.iter().rev() {
        let note = if *version == ProtocolVersion::LATEST_HANDSHAKE {
            "initialize (the default)"
        } else if version.is_stateless() {
            "stateless: _meta on every request"
        } else {
            "initialize"
        };
        say!("{version}  {note}");
    }
}

async fn call(client: &ClientCore, tool: &str, arguments: &[String]) -> Result<i32, ResponseError> {
    let tools = client.list_tools().await?;
    let schema = tools
        .iter()
        .find(|candidate| candidate.name == tool)
        .map(|tool| &tool.input_schema);
    let arguments = match parse_arguments(arguments, schema) {
        Ok(arguments) => arguments,
        Err(problem) => {
            eprintln!("error: {problem}");
            return Ok(2);
        }
    };
    let token = client.progress_token();
    let (progress, mut reports) = tokio::sync::mpsc::unbounded_channel();
    client.route_progress(&token, progress);
    let (_, answer) = client.start_call(tool, arguments, Some(&token));
    tokio::pin!(answer);
    // Progress and log messages go to stderr while the tool runs. They come before the
    // response on the wire, so once it is in, whatever is still queued is printed first.
    let result = loop {
        tokio::select! {
            biased;
            Some(report) = reports.recv() => print_progress(&report),
            Some(notification) = client.next_notification() => print_notification(&notification),
            result = &mut answer => break result?,
        }
    };
    while let Ok(report) = reports.try_recv() {
        print_progress(&report);
    }
    while let Some(notification) = client.try_next_notification() {
        print_notification(&notification);
    }
    Ok(print_result(&result))
}

fn print_progress(report: &Progress) {
    let total = report
        .total
        .map(|total| format!("/{total}"))
        .unwrap_or_default();
    let message = report
        .message
        .as_ref()
        .map(|message| format!(" {message}"))
        .unwrap_or_default();
    eprintln!("progress {}{total}{message}", report.progress);
}

fn print_notification(notification: &Notification) {
    let params = &notification.params;
    if notification.method == "notifications/message" {
        let data = match &params["data"] {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        eprintln!("log [{}] {data}", params["level"].as_str().unwrap_or("?"));
    } else {
        eprintln!("{} {params}", notification.method);
    }
}

/// Prints the content readably and the structured content as JSON; the status says whether
/// the tool failed.
fn print_result(result: &ToolResult) -> i32 {
    let mut printed: Vec<String> = result.content.iter().map(describe_block).collect();
    if let Some(structured) = &result.structured_content {
        printed.push(format!("structuredContent:\n{}", pretty(structured)));
    }
    let printed = printed.join("\n");
    if result.is_error {
        eprintln!("the tool failed:\n{printed}");
        FAILURE
    } else {
        say!("{printed}");
        0
    }
}

fn describe_block(block: &Value) -> String {
    let text = |key: &str| block[key].as_str().unwrap_or_default().to_owned();
    match block["type"].as_str().unwrap_or_default() {
        "text" => text("text"),
        kind @ ("image" | "audio") => format!(
            "[{kind}: {}, {} bytes of base64]",
            text("mimeType"),
            text("data").len()
        ),
        "resource_link" => format!("[resource link: {}]", text("uri")),
        "resource" => {
            let resource = &block["resource"];
            let uri = resource["uri"].as_str().unwrap_or_default();
            match resource["text"].as_str() {
                Some(body) => format!("[resource: {uri}]\n{body}"),
                None => format!("[resource: {uri}, binary]"),
            }
        }
        _ => block.to_string(),
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("a JSON value always serializes")
}

/// The `tools` table: name, title, hints, first line of the description.
fn tools_table(tools: &[Tool]) -> String {
    let rows: Vec<[String; 4]> = tools
        .iter()
        .map(|tool| {
            let title = tool
                .title
                .clone()
                .or_else(|| {
                    let title = tool.annotations.as_ref()?.get("title")?;
                    title.as_str().map(str::to_owned)
                })
                .unwrap_or_default();
            let description = tool
                .description
                .as_deref()
                .and_then(|text| text.lines().next())
                .unwrap_or_default()
                .to_owned();
            [tool.name.clone(), title, hints(tool), description]
        })
        .collect();
    let header = ["NAME", "TITLE", "HINTS", "DESCRIPTION"].map(str::to_owned);
    let mut widths = header.clone().map(|cell| cell.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut table = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:width$}"))
            .collect();
        table.push_str(line.join("  ").trim_end());
        table.push('\n');
    }
    table
}

fn hints(tool: &Tool) -> String {
    let stated = [
        ("readOnlyHint", "read-only", "writes"),
        ("destructiveHint", "destructive", "not destructive"),
        ("idempotentHint", "idempotent", "not idempotent"),
        ("openWorldHint", "open-world", "closed-world"),
    ];
    let hints: Vec<&str> = stated
        .iter()
        .filter_map(|(key, yes, no)| tool.hint(key).map(|hint| if hint { *yes } else { *no }))
        .collect();
    hints.join(", ")
}

/// Builds the arguments object: one JSON object, or key=value pairs read as the type the
/// tool's input schema gives each property.
fn parse_arguments(words: &[String], schema: Option<&Value>) -> Result<Value, String> {
    if let [only] = words
        && only.trim_start().starts_with('{')
    {
        return serde_json::from_str(only)
            .map_err(|error| format!("the arguments are not JSON: {error}"));
    }
    let mut arguments = Map::new();
    for word in words {
        let (key, value) = if let Some((key, json)) = word.split_once(":=") {
            let value = serde_json::from_str(json)
                .map_err(|error| format!("`{key}:=` needs JSON: {error}"))?;
            (key, value)
        } else if let Some((key, text)) = word.split_once('=') {
            let property = schema.and_then(|schema| schema["properties"].get(key));
            (key, coerce(text, property))
        } else {
            return Err(format!(
                "`{word}` is not an argument: give key=value, key:=JSON or one JSON object"
            ));
        };
        arguments.insert(key.to_owned(), value);
    }
    Ok(Value::Object(arguments))
}

/// Reads `text` as the property's type. Text that does not parse stays a string, so the
/// server's own validation reports it the way a client would see it.
fn coerce(text: &str, property: Option<&Value>) -> Value {
    let kind = property.map(|property| &property["type"]);
    let kind = match kind {
        Some(Value::Array(kinds)) => kinds.iter().find(|kind| *kind != "null"),
        other => other,
    };
    let parsed = match kind.and_then(Value::as_str) {
        Some("string") => None,
        Some("integer") => text
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| text.parse::<u64>().map(Value::from))
            .ok(),
        Some("number") => text.parse::<i64>().map(Value::from).ok().or_else(|| {
            text.parse::<f64>()
                .ok()
                .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
        }),
        Some("boolean") => text.parse::<bool>().ok().map(Value::Bool),
        // Arrays, objects, and properties without a plain type: JSON if it is JSON.
        _ => serde_json::from_str(text).ok(),
    };
    parsed.unwrap_or_else(|| Value::String(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        shell_words::split(line).unwrap()
    }

    #[test]
    fn reads_key_value_pairs_as_the_schema_types() {
        let schema = json!({"properties": {
            "n": {"type": "integer"}, "x": {"type": "number"}, "ok": {"type": "boolean"},
            "name": {"type": "string"}, "values": {"type": "array"},
            "maybe": {"type": ["integer", "null"]}, "any": {},
        }});
        let arguments = parse_arguments(
            &words(
                r#"n=3 x=1.5 ok=true name=42 values=[1,2] maybe=7 any=null 'free=a b' 'raw:={"k":1}'"#,
            ),
            Some(&schema),
        )
        .unwrap();
        assert_eq!(
            arguments,
            json!({"n": 3, "x": 1.5, "ok": true, "name": "42", "values": [1, 2], "maybe": 7,
                   "any": null, "free": "a b", "raw": {"k": 1}})
        );
        // What does not parse is left for the server to reject.
        assert_eq!(
            parse_arguments(&words("n=three"), Some(&schema)).unwrap(),
            json!({"n": "three"})
        );
        assert_eq!(
            parse_arguments(&words(r#"'{"n": 1}'"#), None).unwrap(),
            json!({"n": 1})
        );
        assert!(parse_arguments(&words("lonely"), None).is_err());
    }

    #[test]
    fn parses_commands() {
        let cli = Cli::try_parse_from(words("call add a=1 b=2 --revision 2024-11-05")).unwrap();
        assert_eq!(cli.revision, ProtocolVersion::V2024_11_05);
        assert!(
            matches!(cli.command, Command::Call { ref tool, ref arguments } if tool == "add" && arguments.len() == 2)
        );
        assert!(Cli::try_parse_from(words("list-json -r 1999-01-01")).is_err());
    }
}
