//! `server-json` and `mcpb-manifest`: this server described for distribution — a `server.json`
//! for the MCP Registry, and the `manifest.json` of an MCPB bundle — from what the server says
//! of itself over the in-process client (`initialize`, `tools/list`, `prompts/list`).

use std::io::Write as _;

use clap::Args;
use serde_json::{Map, Value, json};

use super::install::{Launch, env_pairs};
use super::output::{USAGE, pretty, say};
use crate::client::{ClientCore, ResponseError};

/// The `server.json` schema the output follows.
pub(super) const SERVER_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The MCPB manifest version written.
const MCPB_MANIFEST_VERSION: &str = "0.4";

/// What the server says of itself in `initialize`.
pub(super) struct About {
    pub name: String,
    pub version: String,
    pub title: Option<String>,
}

impl About {
    pub(super) fn from_initialize(result: Option<&Value>) -> About {
        let info = result.map(|result| &result["serverInfo"]);
        let text = |key: &str| info.and_then(|info| info[key].as_str()).map(str::to_owned);
        About {
            name: text("name").unwrap_or_default(),
            version: text("version").unwrap_or_default(),
            title: text("title"),
        }
    }

    /// `--description`, else the title: both registries require a description.
    fn description(&self, given: Option<&str>) -> Result<String, String> {
        given
            .map(str::to_owned)
            .or_else(|| self.title.clone())
            .ok_or_else(|| "give --description (the server has no title to use instead)".to_owned())
    }
}

#[derive(Debug, Args)]
pub(super) struct ServerJsonArgs {
    /// The registry name, reverse-DNS: `io.github.<user>/<name>` (default: from a GitHub
    /// --repository and the server's name).
    #[arg(long)]
    name: Option<String>,
    /// One line, at most 100 characters (default: the server's title).
    #[arg(long)]
    description: Option<String>,
    /// The source repository's URL.
    #[arg(long, value_name = "URL")]
    repository: Option<String>,
    /// The crate on crates.io that installs this binary (default: the server's name).
    #[arg(long = "crate", value_name = "NAME")]
    crate_name: Option<String>,
    /// An environment variable the server reads (repeatable; `NAME=description`).
    #[arg(long = "env", value_name = "NAME[=DESCRIPTION]")]
    env: Vec<String>,
}

/// The `server.json`, or what is missing to write it.
pub(super) fn server_json(about: &About, arguments: &ServerJsonArgs) -> Result<Value, String> {
    let repository = arguments
        .repository
        .as_deref()
        .map(repository)
        .transpose()?;
    let name = match (&arguments.name, &repository) {
        (Some(name), _) => name.clone(),
        (None, Some((_, Some(owner)))) => format!("io.github.{owner}/{}", about.name),
        (None, _) => {
            return Err(
                "give --name io.github.<user>/<name> (or a GitHub --repository to derive it from)"
                    .to_owned(),
            );
        }
    };
    if name.matches('/').count() != 1 {
        return Err(format!(
            "--name `{name}` must be reverse-DNS with one slash: io.github.<user>/<name>"
        ));
    }
    let description = about.description(arguments.description.as_deref())?;
    if description.chars().count() > 100 {
        return Err("the registry takes a description of at most 100 characters".to_owned());
    }
    let environment: Vec<Value> = arguments
        .env
        .iter()
        .map(|word| match word.split_once('=') {
            Some((name, description)) => json!({"name": name, "description": description}),
            None => json!({"name": word}),
        })
        .collect();
    let mut package = json!({
        "registryType": "cargo",
        "identifier": arguments.crate_name.as_deref().unwrap_or(&about.name),
        "version": about.version,
        "transport": {"type": "stdio"},
    });
    if !environment.is_empty() {
        package["environmentVariables"] = Value::Array(environment);
    }
    let mut server = json!({
        "$schema": SERVER_SCHEMA,
        "name": name,
        "description": description,
        "version": about.version,
    });
    if let Some(title) = &about.title {
        server["title"] = json!(title);
    }
    if let Some((repository, _)) = repository {
        server["repository"] = repository;
    }
    server["packages"] = json!([package]);
    Ok(server)
}

/// `{url, source}` for a repository URL, and its GitHub owner if it is on GitHub.
fn repository(url: &str) -> Result<(Value, Option<String>), String> {
    let rest = url
        .strip_prefix("https://")
        .ok_or_else(|| format!("--repository `{url}`: give an https:// URL"))?;
    let mut parts = rest.split('/');
    let host = parts.next().unwrap_or_default();
    let owner = parts.next().filter(|owner| !owner.is_empty());
    let source = host
        .strip_suffix(".com")
        .unwrap_or(host)
        .rsplit('.')
        .next()
        .unwrap_or(host);
    let github_owner = owner.filter(|_| host == "github.com").map(str::to_owned);
    Ok((json!({"url": url, "source": source}), github_owner))
}

#[derive(Debug, Args)]
pub(super) struct McpbArgs {
    /// The bundle's author (`author.name`).
    #[arg(long)]
    author: String,
    /// One line (default: the server's title).
    #[arg(long)]
    description: Option<String>,
    /// The bundle's name (default: the server's name).
    #[arg(long)]
    name: Option<String>,
    /// The binary's file name in the bundle's `server/` directory (default: this binary's).
    #[arg(long, value_name = "FILE")]
    binary: Option<String>,
    /// An environment variable the host sets for the server (repeatable).
    #[arg(long = "env", value_name = "KEY=VALUE")]
    env: Vec<String>,
    /// A platform the bundle runs on: darwin, linux or win32 (repeatable; default: this one).
    #[arg(long = "platform", value_parser = ["darwin", "linux", "win32"])]
    platforms: Vec<String>,
}

/// The platform this binary was built for, as MCPB names it.
fn this_platform() -> &'static str {
    if cfg!(windows) {
        "win32"
    } else if cfg!(target_os = "macos") {
        "darwin"
    } else {
        "linux"
    }
}

/// Prints the MCPB manifest; the status of the command.
pub(super) async fn mcpb_manifest(
    client: &ClientCore,
    about: &About,
    arguments: McpbArgs,
) -> Result<i32, ResponseError> {
    let described = about
        .description(arguments.description.as_deref())
        .and_then(|description| {
            let launch = Launch::this_process(&[])?;
            Ok((description, launch, env_pairs(&arguments.env)?))
        });
    let (description, launch, env) = match described {
        Ok(described) => described,
        Err(problem) => {
            eprintln!("error: {problem}");
            return Ok(USAGE);
        }
    };
    let binary = arguments.binary.unwrap_or_else(|| {
        let path = std::path::Path::new(&launch.command);
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        stem.into_owned()
    });
    let platforms = if arguments.platforms.is_empty() {
        vec![this_platform().to_owned()]
    } else {
        arguments.platforms
    };
    let tools: Vec<Value> = client
        .list_tools()
        .await?
        .into_iter()
        .map(|tool| named(tool.name, tool.description))
        .collect();
    let (prompts, prompts_generated) = prompts(client).await?;
    let entry_point = format!("server/{binary}");
    let mut manifest = json!({
        "manifest_version": MCPB_MANIFEST_VERSION,
        "name": arguments.name.unwrap_or_else(|| about.name.clone()),
        "version": about.version,
        "description": description,
        "author": {"name": arguments.author},
        "server": {
            "type": "binary",
            "entry_point": entry_point,
            "mcp_config": {
                "command": format!("${{__dirname}}/{entry_point}"),
                "args": launch.args,
                "env": env,
                "platform_overrides": {
                    "win32": {"command": format!("${{__dirname}}/{entry_point}.exe")},
                },
            },
        },
        "tools": tools,
        "prompts": prompts,
        "compatibility": {"platforms": platforms},
    });
    if let Some(title) = &about.title {
        manifest["display_name"] = json!(title);
    }
    if prompts_generated {
        manifest["prompts_generated"] = json!(true);
    }
    say!("{}", pretty(&manifest));
    Ok(0)
}

fn named(name: String, description: Option<String>) -> Value {
    let mut entry = Map::new();
    entry.insert("name".to_owned(), Value::String(name));
    if let Some(description) = description {
        entry.insert("description".to_owned(), Value::String(description));
    }
    Value::Object(entry)
}

/// The prompts, each with the text MCPB asks for: the prompt rendered with every argument
/// written as MCPB's placeholder (`${arguments.topic}`). A prompt that will not render so, or
/// renders more than text, is left out, and the manifest says prompts are generated.
async fn prompts(client: &ClientCore) -> Result<(Vec<Value>, bool), ResponseError> {
    let listed = match client.list_prompts().await {
        Err(error) if error.code == ResponseError::METHOD_NOT_FOUND => Vec::new(),
        listed => listed?,
    };
    let mut prompts = Vec::new();
    let mut generated = false;
    for prompt in listed {
        let names: Vec<String> = prompt.arguments.iter().map(|a| a.name.clone()).collect();
        let placeholders = names
            .iter()
            .map(|name| (name.clone(), json!(format!("${{arguments.{name}}}"))))
            .collect();
        let rendered = client.get_prompt(&prompt.name, placeholders).await;
        let text = rendered.ok().filter(|rendered| {
            rendered
                .messages
                .iter()
                .all(|message| message.text().is_some())
        });
        let Some(rendered) = text else {
            eprintln!(
                "note: prompt `{}` does not render as text with placeholder arguments; left \
                 out (prompts_generated: true)",
                prompt.name
            );
            generated = true;
            continue;
        };
        let mut entry = named(prompt.name, prompt.description);
        if !names.is_empty() {
            entry["arguments"] = json!(names);
        }
        entry["text"] = json!(rendered.text());
        prompts.push(entry);
    }
    Ok((prompts, generated))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about() -> About {
        About {
            name: "weather".to_owned(),
            version: "1.2.3".to_owned(),
            title: Some("Weather".to_owned()),
        }
    }

    fn arguments(line: &[&str]) -> ServerJsonArgs {
        use clap::{FromArgMatches as _, Parser};
        #[derive(Parser)]
        struct Wrapper {
            #[command(flatten)]
            arguments: ServerJsonArgs,
        }
        let matches = <Wrapper as clap::CommandFactory>::command()
            .no_binary_name(true)
            .get_matches_from(line);
        Wrapper::from_arg_matches(&matches).unwrap().arguments
    }

    #[test]
    fn the_name_comes_from_a_github_repository_or_must_be_given() {
        let json = server_json(
            &about(),
            &arguments(&["--repository", "https://github.com/ann/weather-mcp"]),
        )
        .unwrap();
        assert_eq!(json["name"], "io.github.ann/weather");
        assert_eq!(
            json["repository"],
            json!({"url": "https://github.com/ann/weather-mcp", "source": "github"})
        );
        assert_eq!(json["packages"][0]["identifier"], "weather");
        assert_eq!(json["description"], "Weather");
        assert!(server_json(&about(), &arguments(&[])).is_err());
        assert!(server_json(&about(), &arguments(&["--name", "weather"])).is_err());
        let gitlab = arguments(&["--repository", "https://gitlab.com/ann/w", "--name", "a/b"]);
        assert_eq!(
            server_json(&about(), &gitlab).unwrap()["repository"]["source"],
            "gitlab"
        );
    }
}
