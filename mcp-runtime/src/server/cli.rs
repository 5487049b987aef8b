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

use base64::Engine as _;

use crate::client::{
    ClientCore, CompletionTarget, Introduction, Notification, Progress, Prompt, PromptMessages,
    ReadResult, Resource, ResourceTemplate, ResponseError, Tool, ToolResult,
};
use crate::protocol::version::ProtocolVersion;
use crate::server::{Server, notices};

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

/// Exit status of a usage error (what clap uses too).
const USAGE: i32 = 2;

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
        string; arrays and objects as JSON, written as is: todo={\"title\": \"x\"}); \
        key:=JSON passes JSON as is. Put MCP_CLI's value in single quotes so the shell \
        keeps the JSON's double quotes.\n\n\
        Example: MCP_CLI='call statistics values=[1,2,3.5]' ./calculator"
    )]
    Call {
        /// The tool's name.
        tool: String,
        /// A JSON object, or key=value / key:=JSON pairs.
        arguments: Vec<String>,
    },
    /// List the resources and resource templates: URI, name, title, MIME type and the first
    /// line of the description.
    Resources,
    /// Read a resource and print its contents; exits with 1 if the read fails.
    #[command(after_help = "Example: MCP_CLI='read notes://42' ./notes")]
    Read {
        /// The resource's URI (for a template, its URI with the variables filled in).
        uri: String,
    },
    /// List the prompts: name, title, arguments (`?` marks an optional one) and the first
    /// line of the description.
    Prompts,
    /// Render a prompt and print its messages; exits with 1 if it fails.
    #[command(
        after_help = "Arguments are key=value pairs; every value is text, as prompt arguments are.\n\n\
        Example: MCP_CLI='prompt review language=rust \"focus=error handling\"' ./server"
    )]
    Prompt {
        /// The prompt's name.
        name: String,
        /// key=value pairs.
        arguments: Vec<String>,
    },
    /// Complete a prompt's argument or a resource template's variable: one candidate a line.
    #[command(subcommand)]
    Complete(CompleteTarget),
    /// List the protocol revisions this server speaks.
    Revisions,
}

/// What `complete` completes.
#[derive(Debug, Subcommand)]
enum CompleteTarget {
    /// Complete an argument of a prompt.
    #[command(
        after_help = "Arguments already filled in go after VALUE as key=value pairs (sent as \
        context.arguments).\n\n\
        Example: MCP_CLI='complete prompt review language ru' ./server"
    )]
    Prompt {
        /// The prompt's name.
        name: String,
        /// The argument to complete.
        argument: String,
        /// What is typed so far ('' for everything).
        value: String,
        /// Arguments already filled in, as key=value pairs.
        given: Vec<String>,
    },
    /// Complete a variable of a resource template.
    #[command(after_help = "Example: MCP_CLI='complete resource notes://{id} id 4' ./notes")]
    Resource {
        /// The template's URI template, as `resources` lists it.
        uri_template: String,
        /// The variable to complete.
        variable: String,
        /// What is typed so far ('' for everything).
        value: String,
        /// Variables already filled in, as key=value pairs.
        given: Vec<String>,
    },
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
    let words = match split_command(command) {
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
    // Said plainly here, not as a log line, and once.
    let server = if server.warns_of_no_tools() {
        eprintln!("warning: {}", notices::NO_TOOLS);
        server.allow_no_tools()
    } else {
        server
    };
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
        Command::Resources => {
            let resources = offered(client.list_resources().await)?;
            let templates = offered(client.list_resource_templates().await)?;
            if resources.is_empty() && templates.is_empty() {
                eprintln!("this server offers no resources");
            } else {
                let table = resources_table(&resources, &templates);
                let _ = std::io::stdout().lock().write_all(table.as_bytes());
            }
        }
        Command::Read { uri } => {
            let contents = client.read_resource(&uri).await;
            print_queued_notifications(client);
            say!("{}", describe_contents(&contents?));
        }
        Command::Prompts => {
            let prompts = offered(client.list_prompts().await)?;
            if prompts.is_empty() {
                eprintln!("this server offers no prompts");
            } else {
                let table = prompts_table(&prompts);
                let _ = std::io::stdout().lock().write_all(table.as_bytes());
            }
        }
        Command::Prompt { name, arguments } => {
            let Some(arguments) = usage(text_pairs(&arguments)) else {
                return Ok(USAGE);
            };
            let messages = client.get_prompt(&name, arguments).await;
            print_queued_notifications(client);
            say!("{}", describe_messages(&messages?));
        }
        Command::Complete(target) => return complete(client, target).await,
        Command::Revisions => print_revisions(),
    }
    Ok(0)
}

/// A list the server may not offer at all: a method it does not know lists nothing.
fn offered<T>(listed: Result<Vec<T>, ResponseError>) -> Result<Vec<T>, ResponseError> {
    match listed {
        Err(error) if error.code == ResponseError::METHOD_NOT_FOUND => Ok(Vec::new()),
        other => other,
    }
}

/// The value, or `None` after printing the usage error.
fn usage<T>(parsed: Result<T, String>) -> Option<T> {
    parsed.map_err(|problem| eprintln!("error: {problem}")).ok()
}

async fn complete(client: &ClientCore, target: CompleteTarget) -> Result<i32, ResponseError> {
    let (target, argument, value, given) = match target {
        CompleteTarget::Prompt {
            name,
            argument,
            value,
            given,
        } => (CompletionTarget::Prompt(name), argument, value, given),
        CompleteTarget::Resource {
            uri_template,
            variable,
            value,
            given,
        } => (
            CompletionTarget::ResourceTemplate(uri_template),
            variable,
            value,
            given,
        ),
    };
    let Some(given) = usage(text_pairs(&given)) else {
        return Ok(USAGE);
    };
    let completion = client.complete(&target, &argument, &value, given).await;
    print_queued_notifications(client);
    let completion = completion?;
    for value in &completion.values {
        say!("{value}");
    }
    let shown = completion.values.len();
    match completion.total {
        Some(total) if total > shown as u64 => eprintln!("({shown} of {total} shown)"),
        _ if completion.has_more => eprintln!("({shown} shown, more exist)"),
        _ if shown == 0 => eprintln!("no completions"),
        _ => {}
    }
    Ok(0)
}

/// Prints the log messages (and other notifications) that came before an answer.
fn print_queued_notifications(client: &ClientCore) {
    while let Some(notification) = client.try_next_notification() {
        print_notification(&notification);
    }
}

/// `key=value` words as a JSON object of strings (prompt arguments are text).
fn text_pairs(words: &[String]) -> Result<Map<String, Value>, String> {
    words
        .iter()
        .map(|word| match word.split_once('=') {
            Some((key, value)) if !key.is_empty() => {
                Ok((key.to_owned(), Value::String(value.to_owned())))
            }
            _ => Err(format!(
                "`{word}` is not an argument: give key=value (prompt arguments are text)"
            )),
        })
        .collect()
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
    let arguments = match parse_arguments(tool, arguments, schema) {
        Ok(arguments) => arguments,
        Err(problem) => {
            eprintln!("error: {problem}");
            return Ok(USAGE);
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

/// A resource's contents: a text item as its text, a binary one as its type and size; each
/// headed by its URI when there are several.
fn describe_contents(contents: &ReadResult) -> String {
    let several = contents.contents.len() > 1;
    let items: Vec<String> = contents
        .contents
        .iter()
        .map(|item| {
            let body = match (item.text(), &item.blob) {
                (Some(text), _) => text.to_owned(),
                (None, Some(blob)) => format!(
                    "[{}, {} bytes]",
                    item.mime_type.as_deref().unwrap_or("binary"),
                    decoded_len(blob)
                ),
                (None, None) => item.raw.to_string(),
            };
            if several {
                format!("[resource: {}]\n{body}", item.uri)
            } else {
                body
            }
        })
        .collect();
    items.join("\n")
}

/// A rendered prompt: its description, then each message's role and content.
fn describe_messages(rendered: &PromptMessages) -> String {
    let mut parts = Vec::new();
    if let Some(description) = &rendered.description {
        parts.push(format!("description: {description}"));
    }
    for message in &rendered.messages {
        parts.push(format!(
            "{}:\n{}",
            message.role,
            describe_message_content(&message.content)
        ));
    }
    parts.join("\n\n")
}

/// A prompt message's content: text as text, media as "[image/png image, 1024 bytes]".
fn describe_message_content(block: &Value) -> String {
    let kind = block["type"].as_str().unwrap_or_default();
    match kind {
        "image" | "audio" => format!(
            "[{} {kind}, {} bytes]",
            block["mimeType"].as_str().unwrap_or("unknown"),
            decoded_len(block["data"].as_str().unwrap_or_default())
        ),
        "resource" if block["resource"].get("blob").is_some() => {
            let resource = &block["resource"];
            format!(
                "[resource: {}, {}, {} bytes]",
                resource["uri"].as_str().unwrap_or_default(),
                resource["mimeType"].as_str().unwrap_or("binary"),
                decoded_len(resource["blob"].as_str().unwrap_or_default())
            )
        }
        _ => describe_block(block),
    }
}

/// How many bytes base64 `data` holds.
fn decoded_len(data: &str) -> usize {
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_or_else(|_| data.len() / 4 * 3, |bytes| bytes.len())
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
            let description = first_line(tool.description.as_deref());
            [tool.name.clone(), title, hints(tool), description]
        })
        .collect();
    table(["NAME", "TITLE", "HINTS", "DESCRIPTION"], &rows)
}

/// The `resources` table: resources, then templates (their URI is the template).
fn resources_table(resources: &[Resource], templates: &[ResourceTemplate]) -> String {
    let listed = resources.iter().map(|resource| {
        (
            &resource.uri,
            &resource.name,
            &resource.title,
            &resource.mime_type,
            &resource.description,
        )
    });
    let templated = templates.iter().map(|template| {
        (
            &template.uri_template,
            &template.name,
            &template.title,
            &template.mime_type,
            &template.description,
        )
    });
    let rows: Vec<[String; 5]> = listed
        .chain(templated)
        .map(|(uri, name, title, mime_type, description)| {
            [
                uri.clone(),
                name.clone(),
                title.clone().unwrap_or_default(),
                mime_type.clone().unwrap_or_default(),
                first_line(description.as_deref()),
            ]
        })
        .collect();
    table(["URI", "NAME", "TITLE", "MIME TYPE", "DESCRIPTION"], &rows)
}

/// The `prompts` table: name, title, arguments (`?` after an optional one), description.
fn prompts_table(prompts: &[Prompt]) -> String {
    let rows: Vec<[String; 4]> = prompts
        .iter()
        .map(|prompt| {
            let arguments: Vec<String> = prompt
                .arguments
                .iter()
                .map(|argument| {
                    let optional = if argument.required { "" } else { "?" };
                    format!("{}{optional}", argument.name)
                })
                .collect();
            [
                prompt.name.clone(),
                prompt.title.clone().unwrap_or_default(),
                arguments.join(", "),
                first_line(prompt.description.as_deref()),
            ]
        })
        .collect();
    table(["NAME", "TITLE", "ARGUMENTS", "DESCRIPTION"], &rows)
}

fn first_line(text: Option<&str>) -> String {
    text.and_then(|text| text.lines().next())
        .unwrap_or_default()
        .to_owned()
}

/// Columns padded to their widest cell, two spaces apart, no trailing spaces.
fn table<const N: usize>(header: [&str; N], rows: &[[String; N]]) -> String {
    let header = header.map(str::to_owned);
    let mut widths = header.clone().map(|cell| cell.chars().count());
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut table = String::new();
    for row in std::iter::once(&header).chain(rows) {
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

/// Splits the command line like a shell would, except that JSON is taken as written: a
/// word that is a JSON object or array, or a `key=` / `key:=` followed by one, keeps its
/// quotes and spaces. So `call add_todo todo={"title": "a b"}` passes the object as typed,
/// where shell rules would strip its quotes and split it at the space.
fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let length = match json_word(rest) {
            Some(length) => {
                words.push(rest[..length].to_owned());
                length
            }
            None if rest.starts_with('#') => break, // a comment, as in a shell
            None => {
                let Some(length) = shell_word(rest) else {
                    return Err("a quote is not closed".to_owned());
                };
                let word = shell_words::split(&rest[..length]).map_err(|e| e.to_string())?;
                words.extend(word);
                length
            }
        };
        rest = rest[length..].trim_start();
    }
    Ok(words)
}

/// The length of the word `text` starts with, if it is JSON as written: an object or array,
/// alone or after `key=` / `key:=`, ending where the word ends.
fn json_word(text: &str) -> Option<usize> {
    let key = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || "_-.".contains(c)))
        .unwrap_or(text.len());
    let value = match &text[key..] {
        value if key == 0 => value,
        value => value
            .strip_prefix(":=")
            .or_else(|| value.strip_prefix('='))?,
    };
    if !value.starts_with(['{', '[']) {
        return None;
    }
    let json = &value[..json_length(value)?];
    let after = &value[json.len()..];
    if !(after.is_empty() || after.starts_with(char::is_whitespace)) {
        return None;
    }
    serde_json::from_str::<serde::de::IgnoredAny>(json).ok()?;
    Some(text.len() - after.len())
}

/// The length of the bracketed JSON `text` starts with (brackets balanced outside strings).
fn json_length(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The length of the shell word `text` starts with (up to whitespace outside quotes);
/// `None` if a quote is not closed.
fn shell_word(text: &str) -> Option<usize> {
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => return Some(at),
            '\\' => {
                chars.next();
            }
            '\'' => loop {
                match chars.next()?.1 {
                    '\'' => break,
                    _ => continue,
                }
            },
            '"' => loop {
                match chars.next()?.1 {
                    '"' => break,
                    '\\' => {
                        chars.next();
                    }
                    _ => continue,
                }
            },
            _ => {}
        }
    }
    Some(text.len())
}

/// Builds the arguments object: one JSON object, or key=value pairs read as the type the
/// tool's input schema gives each property.
fn parse_arguments(tool: &str, words: &[String], schema: Option<&Value>) -> Result<Value, String> {
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
            let value =
                coerce(text, property).map_err(|wanted| not_json(tool, key, text, wanted))?;
            (key, value)
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
/// server's own validation reports it the way a client would see it — but an object or an
/// array must be JSON: `Err` names which the property takes.
fn coerce(text: &str, property: Option<&Value>) -> Result<Value, &'static str> {
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
        Some(kind @ ("object" | "array")) => {
            return serde_json::from_str(text).map_err(|_| {
                if kind == "object" {
                    "a JSON object"
                } else {
                    "a JSON array"
                }
            });
        }
        // Properties without a plain type: JSON if it is JSON.
        _ => serde_json::from_str(text).ok(),
    };
    Ok(parsed.unwrap_or_else(|| Value::String(text.to_owned())))
}

/// Why `key=text` is refused, and how to write it so the JSON survives the shell.
fn not_json(tool: &str, key: &str, text: &str, wanted: &str) -> String {
    let problem = serde_json::from_str::<Value>(text)
        .err()
        .map(|error| format!(" ({error})"))
        .unwrap_or_default();
    let example = if wanted == "a JSON object" {
        r#"{"name": "value"}"#
    } else {
        r#"["a", "b"]"#
    };
    format!(
        "`{key}` takes {wanted}, and `{text}` is not JSON{problem}.\n\
         Write the JSON as is after `{key}=`, and put the value of {CLI_ENV} in single quotes \
         so the shell keeps the JSON's double quotes:\n    \
         {CLI_ENV}='call {tool} {key}={example}' ..."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split_command(line).unwrap()
    }

    #[test]
    fn reads_key_value_pairs_as_the_schema_types() {
        let schema = json!({"properties": {
            "n": {"type": "integer"}, "x": {"type": "number"}, "ok": {"type": "boolean"},
            "name": {"type": "string"}, "values": {"type": "array"},
            "maybe": {"type": ["integer", "null"]}, "any": {},
        }});
        let arguments = parse_arguments(
            "t",
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
            parse_arguments("t", &words("n=three"), Some(&schema)).unwrap(),
            json!({"n": "three"})
        );
        assert_eq!(
            parse_arguments("t", &words(r#"'{"n": 1}'"#), None).unwrap(),
            json!({"n": 1})
        );
        assert!(parse_arguments("t", &words("lonely"), None).is_err());
    }

    #[test]
    fn json_is_taken_as_written() {
        assert_eq!(
            words(r#"call add_todo todo={"title": "a b"} tags=["x", "y z"] n=1"#),
            [
                "call",
                "add_todo",
                r#"todo={"title": "a b"}"#,
                r#"tags=["x", "y z"]"#,
                "n=1"
            ]
        );
        assert_eq!(
            words(r#"call add {"a": 1, "b": 2} raw:=[1, 2]"#),
            ["call", "add", r#"{"a": 1, "b": 2}"#, "raw:=[1, 2]"]
        );
        // Shell rules for the rest: quotes, escapes, comments; and for what is not JSON.
        assert_eq!(
            words(r#"'free=a b' note="it's" x=\ y t=[draft] # c"#),
            ["free=a b", "note=it's", "x= y", "t=[draft]"]
        );
        assert_eq!(words(r#"t={a:1} u=[1,2]x"#), ["t={a:1}", "u=[1,2]x"]);
        assert_eq!(words(r#"'{"n": 1}'"#), [r#"{"n": 1}"#]);
        assert!(split_command("call add 'a=1").is_err());
    }

    #[test]
    fn an_object_that_is_not_json_says_how_to_quote_it() {
        let schema = json!({"properties": {
            "todo": {"type": "object"}, "tags": {"type": ["array", "null"]},
        }});
        let line = r#"call add_todo todo={"title":"x"} tags=["a"]"#;
        let arguments = &words(line)[2..];
        assert_eq!(
            parse_arguments("add_todo", arguments, Some(&schema)).unwrap(),
            json!({"todo": {"title": "x"}, "tags": ["a"]})
        );
        // What a shell leaves of the JSON inside double quotes.
        let problem =
            parse_arguments("add_todo", &words("todo={title:x}"), Some(&schema)).unwrap_err();
        assert_eq!(
            problem,
            "`todo` takes a JSON object, and `{title:x}` is not JSON (key must be a string at \
             line 1 column 2).\n\
             Write the JSON as is after `todo=`, and put the value of MCP_CLI in single quotes \
             so the shell keeps the JSON's double quotes:\n    \
             MCP_CLI='call add_todo todo={\"name\": \"value\"}' ..."
        );
        let problem = parse_arguments("add_todo", &words("tags=a,b"), Some(&schema)).unwrap_err();
        assert!(
            problem.starts_with("`tags` takes a JSON array"),
            "{problem}"
        );
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

    #[test]
    fn parses_the_resource_prompt_and_completion_commands() {
        let parse = |line: &str| Cli::try_parse_from(words(line)).map(|cli| cli.command);
        assert!(matches!(parse("resources"), Ok(Command::Resources)));
        assert!(matches!(
            parse("prompts -r 2026-07-28"),
            Ok(Command::Prompts)
        ));
        assert!(
            matches!(parse("read notes://42"), Ok(Command::Read { uri }) if uri == "notes://42")
        );
        assert!(parse("read").is_err());
        assert!(matches!(
            parse(r#"prompt review language=rust "focus=error handling""#),
            Ok(Command::Prompt { name, arguments })
                if name == "review" && arguments == ["language=rust", "focus=error handling"]
        ));
        assert!(matches!(
            parse("complete prompt review language ru"),
            Ok(Command::Complete(CompleteTarget::Prompt { name, argument, value, given }))
                if name == "review" && argument == "language" && value == "ru" && given.is_empty()
        ));
        assert!(matches!(
            parse("complete resource notes://{id} id '' owner=me"),
            Ok(Command::Complete(CompleteTarget::Resource { uri_template, variable, value, given }))
                if uri_template == "notes://{id}" && variable == "id" && value.is_empty()
                    && given == ["owner=me"]
        ));
        assert!(parse("complete prompt review").is_err());
        assert!(parse("complete tool add a 1").is_err());
    }

    #[test]
    fn prompt_arguments_are_text_pairs() {
        assert_eq!(
            text_pairs(&words("language=rust n=3 'focus=a = b' empty=")).unwrap(),
            *json!({"language": "rust", "n": "3", "focus": "a = b", "empty": ""})
                .as_object()
                .unwrap()
        );
        assert_eq!(
            text_pairs(&words("rust")).unwrap_err(),
            "`rust` is not an argument: give key=value (prompt arguments are text)"
        );
        assert!(text_pairs(&words("=x")).is_err());
    }

    #[test]
    fn renders_messages_contents_and_tables() {
        let rendered: PromptMessages = serde_json::from_value(json!({
            "description": "A review",
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Review this."}},
                {"role": "user", "content": {"type": "image", "mimeType": "image/png", "data": "AAECAw=="}},
                {"role": "assistant", "content": {"type": "resource",
                    "resource": {"uri": "docs://a", "mimeType": "text/plain", "text": "body"}}},
            ],
        }))
        .unwrap();
        assert_eq!(
            describe_messages(&rendered),
            "description: A review\n\nuser:\nReview this.\n\nuser:\n[image/png image, 4 bytes]\n\n\
             assistant:\n[resource: docs://a]\nbody"
        );

        let one: ReadResult =
            serde_json::from_value(json!({"contents": [{"uri": "a://1", "text": "# Hi"}]}))
                .unwrap();
        assert_eq!(describe_contents(&one), "# Hi");
        let two: ReadResult = serde_json::from_value(json!({"contents": [
            {"uri": "a://1", "text": "# Hi"},
            {"uri": "a://2", "mimeType": "image/png", "blob": "AAEC"},
        ]}))
        .unwrap();
        assert_eq!(
            describe_contents(&two),
            "[resource: a://1]\n# Hi\n[resource: a://2]\n[image/png, 3 bytes]"
        );

        let resources: Vec<Resource> = serde_json::from_value(json!([
            {"uri": "docs://readme", "name": "readme", "mimeType": "text/markdown",
             "description": "The README.\nMore."},
        ]))
        .unwrap();
        let templates: Vec<ResourceTemplate> = serde_json::from_value(json!([
            {"uriTemplate": "notes://{id}", "name": "note", "title": "Note"},
        ]))
        .unwrap();
        assert_eq!(
            resources_table(&resources, &templates),
            "URI            NAME    TITLE  MIME TYPE      DESCRIPTION\n\
             docs://readme  readme         text/markdown  The README.\n\
             notes://{id}   note    Note\n"
        );
        let prompts: Vec<Prompt> = serde_json::from_value(json!([
            {"name": "review", "title": "Code review", "description": "Review code.",
             "arguments": [{"name": "language", "required": true}, {"name": "focus"}]},
            {"name": "hello"},
        ]))
        .unwrap();
        assert_eq!(
            prompts_table(&prompts),
            "NAME    TITLE        ARGUMENTS         DESCRIPTION\n\
             review  Code review  language, focus?  Review code.\n\
             hello\n"
        );
    }
}
