//! `install <host>`: this binary written into an MCP host's configuration file — its absolute
//! path, the arguments it was started with, the environment asked for — merged into what the
//! file holds, never over it.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::{Map, Value, json};

use super::ordered_json::Object;
use super::output::{FAILURE, USAGE};

/// The hosts `install` knows, and where each keeps its servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum Host {
    /// Claude Desktop: `claude_desktop_config.json` in its configuration directory.
    ClaudeDesktop,
    /// Cursor: `~/.cursor/mcp.json`, or `<project>/.cursor/mcp.json`.
    Cursor,
    /// VS Code: the user's `mcp.json`, or `<project>/.vscode/mcp.json`.
    Vscode,
    /// Claude Code: `.mcp.json` in the project (the current directory by default).
    ClaudeCode,
}

#[derive(Debug, Args)]
pub(super) struct InstallArgs {
    /// The host whose configuration gets this server.
    host: Host,
    /// The entry's name (default: the server's name).
    #[arg(long)]
    name: Option<String>,
    /// An environment variable the host sets for the server (repeatable).
    #[arg(long = "env", value_name = "KEY=VALUE")]
    env: Vec<String>,
    /// Write the project's configuration in DIR instead of the user's (cursor, vscode,
    /// claude-code).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Replace an entry of the same name.
    #[arg(long)]
    force: bool,
    /// Print the whole resulting file and write nothing.
    #[arg(long)]
    dry_run: bool,
}

impl Host {
    /// The member of the file's top-level object that holds the servers.
    fn servers_key(self) -> &'static str {
        match self {
            Host::Vscode => "servers",
            _ => "mcpServers",
        }
    }

    /// Whether the host wants the transport named in each entry.
    fn names_type(self) -> bool {
        matches!(self, Host::Vscode | Host::ClaudeCode)
    }

    /// The configuration file, from the environment (`HOME`, `XDG_CONFIG_HOME`, `APPDATA`)
    /// as the host itself reads it.
    fn config_path(self, project: Option<&Path>) -> Result<PathBuf, String> {
        if let Some(project) = project {
            return match self {
                Host::ClaudeDesktop => {
                    Err("claude-desktop has no project configuration: drop --project".to_owned())
                }
                Host::Cursor => Ok(project.join(".cursor").join("mcp.json")),
                Host::Vscode => Ok(project.join(".vscode").join("mcp.json")),
                Host::ClaudeCode => Ok(project.join(".mcp.json")),
            };
        }
        Ok(match self {
            Host::ClaudeDesktop => app_config_dir()?
                .join("Claude")
                .join("claude_desktop_config.json"),
            Host::Cursor => home()?.join(".cursor").join("mcp.json"),
            Host::Vscode => app_config_dir()?.join("Code").join("User").join("mcp.json"),
            Host::ClaudeCode => PathBuf::from(".mcp.json"),
        })
    }
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
}

/// The user's home directory (`HOME`; `USERPROFILE` on Windows).
fn home() -> Result<PathBuf, String> {
    let name = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    env_path(name)
        .or_else(|| env_path("HOME"))
        .ok_or_else(|| format!("{name} is not set to an absolute path: use --project or set it"))
}

/// Where desktop applications keep their configuration: `%APPDATA%` on Windows,
/// `~/Library/Application Support` on macOS, else `$XDG_CONFIG_HOME` or `~/.config`.
fn app_config_dir() -> Result<PathBuf, String> {
    if cfg!(windows) {
        if let Some(appdata) = env_path("APPDATA") {
            return Ok(appdata);
        }
        return Ok(home()?.join("AppData").join("Roaming"));
    }
    if cfg!(target_os = "macos") {
        return Ok(home()?.join("Library").join("Application Support"));
    }
    match env_path("XDG_CONFIG_HOME") {
        Some(config) => Ok(config),
        None => Ok(home()?.join(".config")),
    }
}

/// How this very process was started, as a host should start it again.
pub(super) struct Launch {
    /// The binary's canonical absolute path.
    pub command: String,
    /// The program's own arguments (argv after argv[0]).
    pub args: Vec<String>,
    pub env: Map<String, Value>,
}

impl Launch {
    /// This process, with `KEY=VALUE` pairs as its environment.
    pub(super) fn this_process(env: &[String]) -> Result<Launch, String> {
        let command = std::env::current_exe()
            .and_then(std::fs::canonicalize)
            .map_err(|error| format!("cannot tell where this binary is: {error}"))?;
        let command = command
            .into_os_string()
            .into_string()
            .map_err(|path| format!("the binary's path is not UTF-8: {path:?}"))?;
        let args = std::env::args_os()
            .skip(1)
            .map(|arg| {
                arg.into_string()
                    .map_err(|arg| format!("an argument is not UTF-8: {arg:?}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Launch {
            command,
            args,
            env: env_pairs(env)?,
        })
    }
}

/// `KEY=VALUE` words as an object of strings.
pub(super) fn env_pairs(words: &[String]) -> Result<Map<String, Value>, String> {
    words
        .iter()
        .map(|word| match word.split_once('=') {
            Some((key, value)) if !key.is_empty() => {
                Ok((key.to_owned(), Value::String(value.to_owned())))
            }
            _ => Err(format!("--env `{word}`: give KEY=VALUE")),
        })
        .collect()
}

/// What went wrong, and the exit status it ends with.
struct Refusal(i32, String);

pub(super) fn install(arguments: InstallArgs, server_name: &str) -> i32 {
    match try_install(&arguments, server_name) {
        Ok(()) => 0,
        Err(Refusal(status, message)) => {
            eprintln!("error: {message}");
            status
        }
    }
}

fn try_install(arguments: &InstallArgs, server_name: &str) -> Result<(), Refusal> {
    let usage = |message| Refusal(USAGE, message);
    let failure = |message| Refusal(FAILURE, message);
    let host = arguments.host;
    if let Some(project) = &arguments.project
        && !project.is_dir()
    {
        return Err(usage(format!(
            "--project {}: no such directory",
            project.display()
        )));
    }
    let name = arguments.name.as_deref().unwrap_or(server_name);
    let path = host
        .config_path(arguments.project.as_deref())
        .map_err(usage)?;
    let launch = Launch::this_process(&arguments.env).map_err(usage)?;
    let mut entry = Object::default();
    let set = |entry: &mut Object, key, value: &Value| {
        entry
            .set(key, value, 2)
            .map_err(|error| failure(error.to_string()))
    };
    if host.names_type() {
        set(&mut entry, "type", &json!("stdio"))?;
    }
    set(&mut entry, "command", &json!(launch.command))?;
    set(&mut entry, "args", &json!(launch.args))?;
    set(&mut entry, "env", &Value::Object(launch.env))?;

    let shown = path.display();
    let text = match std::fs::read(&path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| failure(format!("{shown} is not UTF-8 text; it was left as it is")))?,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(failure(format!("cannot read {shown}: {error}"))),
    };
    // A file this cannot read back exactly (JSON with comments, say) is the user's to fix:
    // rewriting it would lose what this does not understand.
    let mut top = Object::parse(&text).map_err(|error| {
        failure(format!(
            "{shown} is not a JSON object ({error}); it was left as it is. Fix it, or add this \
             under `{}` by hand:\n    {}: {}",
            host.servers_key(),
            serde_json::to_string(name).unwrap_or_default(),
            entry.to_pretty(2)
        ))
    })?;
    let servers_key = host.servers_key();
    let mut servers = match top.get(servers_key) {
        None => Object::default(),
        Some(servers) => Object::parse(servers.get()).map_err(|_| {
            failure(format!(
                "`{servers_key}` in {shown} is not an object; it was left as it is"
            ))
        })?,
    };
    if servers.get(name).is_some() && !arguments.force {
        return Err(failure(format!(
            "{shown} already has a server named `{name}`; --force replaces it, --name {name}-2 \
             adds another"
        )));
    }
    let written = servers
        .set_raw(name, entry.to_pretty(2))
        .and_then(|()| top.set_raw(servers_key, servers.to_pretty(1)));
    written.map_err(|error| failure(error.to_string()))?;
    let contents = format!("{}\n", top.to_pretty(0));
    if arguments.dry_run {
        let _ = std::io::stdout().lock().write_all(contents.as_bytes());
        eprintln!("dry run: {shown} was not written");
        return Ok(());
    }
    write_atomically(&path, contents.as_bytes())
        .map_err(|error| failure(format!("cannot write {shown}: {error}")))?;
    say_written(&path, name);
    Ok(())
}

fn say_written(path: &Path, name: &str) {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    eprintln!("wrote `{name}` to {}", path.display());
}

/// Writes `contents` to a temporary file beside `path` and renames it over `path`, so that a
/// host never reads half a file; the parent directories are created, a symbolic link is
/// followed, and an existing file's permissions are kept.
fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&directory)?;
    let file_name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = directory.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(contents)?;
        if let Ok(existing) = std::fs::metadata(&path) {
            file.set_permissions(existing.permissions())?;
        }
        file.sync_all()?;
        std::fs::rename(&temporary, &path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_files_and_keys_per_host() {
        let project = Path::new("/work/p");
        let path = |host: Host| host.config_path(Some(project));
        assert_eq!(
            path(Host::Cursor).unwrap(),
            Path::new("/work/p/.cursor/mcp.json")
        );
        assert_eq!(
            path(Host::Vscode).unwrap(),
            Path::new("/work/p/.vscode/mcp.json")
        );
        assert_eq!(
            path(Host::ClaudeCode).unwrap(),
            Path::new("/work/p/.mcp.json")
        );
        assert!(path(Host::ClaudeDesktop).is_err());
        assert_eq!(Host::Vscode.servers_key(), "servers");
        assert_eq!(Host::Cursor.servers_key(), "mcpServers");
        assert!(Host::ClaudeCode.names_type() && !Host::ClaudeDesktop.names_type());
    }

    #[test]
    fn env_pairs_are_key_value() {
        let words = ["A=1".to_owned(), "B=x=y".to_owned(), "C=".to_owned()];
        assert_eq!(
            Value::Object(env_pairs(&words).unwrap()),
            json!({"A": "1", "B": "x=y", "C": ""})
        );
        assert!(env_pairs(&["=1".to_owned()]).is_err());
        assert!(env_pairs(&["A".to_owned()]).is_err());
    }
}
