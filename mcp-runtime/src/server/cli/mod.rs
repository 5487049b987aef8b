//! The command line built into every server binary (cargo feature `cli`, on by default).
//!
//! `MCP_CLI="call add a=1 b=2" ./calculator` runs one command against the binary's own tools
//! and exits, instead of serving stdio. The command comes from an environment variable, not
//! from argv, so it can never collide with the application's own arguments (the files
//! example's root directory stays its first argument) and the application still builds its
//! `Server` — state, limits, title — exactly as when a host launches it. The command then
//! runs as an in-process client of that server over an in-memory pipe, through the same
//! JSON-RPC path a remote client takes, so a bad argument gets the error a client would see.
//!
//! The same way the binary describes itself for distribution: `install <host>` writes it into
//! a host's configuration (`install.rs`, merged by `ordered_json.rs`), `server-json` and
//! `mcpb-manifest` print what the MCP Registry and an MCPB bundle need (`publish.rs`).

mod call;
mod install;
mod ordered_json;
mod output;
mod publish;
mod skill;
mod task;
mod words;

use std::collections::HashMap;
use std::io::Write as _;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};
use serde_json::json;

use crate::client::{ClientCore, CompletionTarget, Introduction, ResponseError};
use crate::protocol::version::ProtocolVersion;
use crate::server::{Server, notices};
use output::{
    FAILURE, USAGE, describe_contents, describe_messages, fail, pretty, print_queued_notifications,
    prompts_table, resources_table, say, skills_table, tools_table,
};
use words::{CLI_ENV, split_command, text_pairs};

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
    /// Run a tool as a task: start it, show its status on stderr until it ends, then print its
    /// result as `call` does; exits with 1 if the tool fails, or the task fails or is
    /// cancelled.
    #[command(
        after_help = "Arguments are written as for `call`. The task's id and each change of \
        its status go to stderr (`task 5f0c...: working`), with its progress and log messages; \
        the result goes to stdout. Under 2025-11-25 the call carries `task`; under 2026-07-28 it \
        declares the io.modelcontextprotocol/tasks extension. The command waits for the task to \
        end: its server stops with the command.\n\n\
        Example: MCP_CLI='task build ms=500 --timeout 10000' ./server"
    )]
    Task {
        /// The tool's name.
        tool: String,
        /// A JSON object, or key=value / key:=JSON pairs.
        arguments: Vec<String>,
        /// Ask the server to keep the task this long after it was created (2025-11-25
        /// `task.ttl`; the server may cap it).
        #[arg(long, value_name = "MS")]
        ttl: Option<u64>,
        /// Cancel the task (`tasks/cancel`) if it has not ended after this long, and exit
        /// with 1.
        #[arg(long, value_name = "MS")]
        timeout: Option<u64>,
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
    /// List the skills (the `io.modelcontextprotocol/skills` extension, spoken at 2026-07-28):
    /// name, URI, number of files and the first line of the description.
    Skills,
    /// Print a skill's entry (its frontmatter and files), then read every file and check it
    /// against its digest and size; exits with 1 if one fails.
    #[command(after_help = "Example: MCP_CLI='skill skill://pdf-forms/SKILL.md' ./server")]
    Skill {
        /// The URI of the skill's SKILL.md, as `skills` lists it.
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
    /// Write this server into an MCP host's configuration: this binary's absolute path, the
    /// arguments it was started with, and --env; merged into the file, never over it.
    #[command(
        after_help = "Hosts and files: claude-desktop (claude_desktop_config.json in Claude's \
        configuration directory), cursor (~/.cursor/mcp.json; --project DIR: \
        DIR/.cursor/mcp.json), vscode (the user's Code/User/mcp.json; --project DIR: \
        DIR/.vscode/mcp.json), claude-code (.mcp.json in --project DIR, default the current \
        directory). A file that is not plain JSON (comments, say) is refused and left as it \
        is; an entry of the same name is replaced only with --force.\n\n\
        Example: MCP_CLI='install claude-desktop --env LOG=debug' ./files /srv/docs"
    )]
    Install(install::InstallArgs),
    /// Print a server.json for the MCP Registry (a cargo package, over stdio).
    #[command(
        after_help = "The registry checks that the crate is yours by an `mcp-name: <name>` \
        line in the crate's README on crates.io, as visible text (crates.io drops HTML \
        comments).\n\n\
        Example: MCP_CLI='server-json --repository https://github.com/ann/weather \
        --description \"Forecasts\"' ./weather > server.json"
    )]
    ServerJson(publish::ServerJsonArgs),
    /// Print the manifest.json of an MCPB bundle that holds this binary as server/<binary>,
    /// with the tools and prompts the server lists.
    #[command(
        after_help = "Example: MCP_CLI='mcpb-manifest --author \"Ann\"' ./weather > \
        bundle/manifest.json; cp weather bundle/server/; mcpb pack bundle"
    )]
    McpbManifest(publish::McpbArgs),
}

impl Command {
    /// Whether the command describes the server (and so needs what `initialize` says of it).
    fn describes_the_server(&self) -> bool {
        matches!(
            self,
            Command::Install(_) | Command::ServerJson(_) | Command::McpbManifest(_)
        )
    }

    /// Whether the command is an extension's, which only 2026-07-28 has.
    fn needs_extensions(&self) -> bool {
        matches!(self, Command::Skills | Command::Skill { .. })
    }
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
    // The server's name and version come with `initialize`, which stateless revisions skip.
    let revision = if cli.command.describes_the_server() && cli.revision.is_stateless() {
        ProtocolVersion::LATEST_HANDSHAKE
    } else if cli.command.needs_extensions() {
        ProtocolVersion::V2026_07_28
    } else {
        cli.revision
    };
    let introduction = Introduction {
        revision,
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
        Command::Call { tool, arguments } => return call::call(client, &tool, &arguments).await,
        Command::Task {
            tool,
            arguments,
            ttl,
            timeout,
        } => {
            let command = task::TaskCommand {
                tool: &tool,
                arguments: &arguments,
                ttl,
                timeout,
            };
            return task::run_task(client, command).await;
        }
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
        Command::Skills => {
            let skills = offered(client.list_skills().await)?;
            if skills.is_empty() {
                eprintln!("this server offers no skills");
            } else {
                let table = skills_table(&skills);
                let _ = std::io::stdout().lock().write_all(table.as_bytes());
            }
        }
        Command::Skill { uri } => return skill::print_skill(client, &uri).await,
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
        Command::Install(arguments) => return Ok(install::install(arguments, &about(client).name)),
        Command::ServerJson(arguments) => match publish::server_json(&about(client), &arguments) {
            Ok(json) => say!("{}", pretty(&json)),
            Err(problem) => {
                eprintln!("error: {problem}");
                return Ok(USAGE);
            }
        },
        Command::McpbManifest(arguments) => {
            return publish::mcpb_manifest(client, &about(client), arguments).await;
        }
    }
    Ok(0)
}

fn about(client: &ClientCore) -> publish::About {
    publish::About::from_initialize(client.initialize_result())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split_command(line).unwrap()
    }

    #[test]
    fn parses_commands() {
        let cli = Cli::try_parse_from(words("call add a=1 b=2 --revision 2024-11-05")).unwrap();
        assert_eq!(cli.revision, ProtocolVersion::V2024_11_05);
        assert!(
            matches!(cli.command, Command::Call { ref tool, ref arguments } if tool == "add" && arguments.len() == 2)
        );
        assert!(Cli::try_parse_from(words("list-json -r 1999-01-01")).is_err());
        let cli = Cli::try_parse_from(words("task build ms=5 --timeout 100 --ttl 9000")).unwrap();
        assert!(matches!(
            cli.command,
            Command::Task { ref tool, ref arguments, ttl: Some(9000), timeout: Some(100) }
                if tool == "build" && arguments == &["ms=5"]
        ));
        assert!(Cli::try_parse_from(words("task")).is_err());
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
}
