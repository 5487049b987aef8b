//! `MCP_CLI`'s `install`, `server-json` and `mcpb-manifest`, on the fixture and primitives
//! servers: each host's file written under a temporary HOME, XDG_CONFIG_HOME, APPDATA and
//! project, read back; merged into what is there, never over it; refused (the file left byte
//! for byte) when it is not plain JSON or already has the name; `server.json` valid against
//! the registry's schema (vendored in `tests/spec/registry/`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

/// A fresh directory under the system's temporary one, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "mcp-install-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(path.join("project")).unwrap();
        std::fs::create_dir_all(path.join("p")).unwrap();
        Scratch(path)
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.0.join(relative)
    }

    /// A server binary run with `MCP_CLI=command` and `args`, its home and configuration
    /// directories inside the scratch directory, in its `project` directory.
    fn run(&self, binary: &str, command: &str, args: &[&str]) -> Output {
        Command::new(binary)
            .args(args)
            .env("MCP_CLI", command)
            .env_remove("RUST_LOG")
            .env("HOME", self.path("home"))
            .env("USERPROFILE", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("xdg"))
            .env("APPDATA", self.path("appdata"))
            .current_dir(self.path("project"))
            .output()
            .expect("the server starts")
    }

    fn fixture(&self, command: &str) -> Output {
        self.run(env!("CARGO_BIN_EXE_fixture"), command, &FIXTURE_ARGS)
    }

    fn read_json(&self, relative: &str) -> Value {
        let text = std::fs::read_to_string(self.path(relative)).unwrap();
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{error}: {text}"))
    }

    fn write(&self, relative: &str, contents: &str) {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Arguments the fixture accepts and ignores over stdio: what `install` must record.
const FIXTURE_ARGS: [&str; 2] = ["--sse-polling-ms", "250"];

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn fixture_path() -> String {
    std::fs::canonicalize(env!("CARGO_BIN_EXE_fixture"))
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned()
}

/// Each host: the command line, the file it writes (relative to the scratch directory), and
/// the key holding the servers.
const HOSTS: [(&str, &str, &str); 6] = [
    (
        "claude-desktop",
        "xdg/Claude/claude_desktop_config.json",
        "mcpServers",
    ),
    ("cursor", "home/.cursor/mcp.json", "mcpServers"),
    ("cursor --project ../p", "p/.cursor/mcp.json", "mcpServers"),
    ("vscode", "xdg/Code/User/mcp.json", "servers"),
    ("vscode --project ../p", "p/.vscode/mcp.json", "servers"),
    ("claude-code", "project/.mcp.json", "mcpServers"),
];

#[test]
fn install_writes_each_hosts_file_with_the_binary_its_arguments_and_environment() {
    for (host, file, key) in HOSTS {
        let scratch = Scratch::new();
        let output = scratch.fixture(&format!("install {host} --env API_KEY=k1 --env MODE=a=b"));
        assert!(output.status.success(), "{host}: {output:?}");
        assert!(output.stdout.is_empty(), "{host}: {output:?}");
        let written = std::fs::canonicalize(scratch.path(file)).unwrap();
        assert_eq!(
            stderr(&output),
            format!("wrote `fixture` to {}\n", written.display()),
            "{host}"
        );
        let config = scratch.read_json(file);
        let mut expected = json!({
            "command": fixture_path(),
            "args": FIXTURE_ARGS,
            "env": {"API_KEY": "k1", "MODE": "a=b"},
        });
        if host.starts_with("vscode") || host.starts_with("claude-code") {
            expected["type"] = json!("stdio");
        }
        assert_eq!(config, json!({ key: { "fixture": expected } }), "{host}");
    }
}

#[test]
fn install_merges_keeping_other_servers_and_keys_as_written() {
    let scratch = Scratch::new();
    let file = "home/.cursor/mcp.json";
    let before = "{\n  \"theme\": {\"dark\":   true},\n  \"mcpServers\": {\n    \"other\": \
                  {\"command\": \"/bin/other\", \"disabled\": true}\n  },\n  \"zz\": [1, 2]\n}\n";
    scratch.write(file, before);
    let output = scratch.fixture("install cursor --name mine");
    assert!(output.status.success(), "{output:?}");
    let after = std::fs::read_to_string(scratch.path(file)).unwrap();
    // Untouched members stay where and as they were, unknown fields included.
    assert!(
        after.starts_with("{\n  \"theme\": {\"dark\":   true},\n  \"mcpServers\": {\n    \"other\": {\"command\": \"/bin/other\", \"disabled\": true},\n    \"mine\": {"),
        "{after}"
    );
    assert!(after.ends_with("\n  },\n  \"zz\": [1, 2]\n}\n"), "{after}");
    let config: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(config["mcpServers"]["mine"]["command"], fixture_path());
    assert_eq!(config["mcpServers"].as_object().unwrap().len(), 2);
}

#[test]
fn an_entry_of_the_same_name_is_replaced_only_with_force() {
    let scratch = Scratch::new();
    let file = "project/.mcp.json";
    let before =
        r#"{"mcpServers": {"fixture": {"command": "/old/fixture"}, "keep": {"command": "k"}}}"#;
    scratch.write(file, before);
    let output = scratch.fixture("install claude-code");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let shown = scratch.path(file);
    assert_eq!(
        stderr(&output),
        format!(
            "error: .mcp.json already has a server named `fixture`; --force replaces it, \
             --name fixture-2 adds another\n"
        ),
        "{}",
        shown.display()
    );
    assert_eq!(std::fs::read_to_string(&shown).unwrap(), before);

    let output = scratch.fixture("install claude-code --force");
    assert!(output.status.success(), "{output:?}");
    let config = scratch.read_json(file);
    assert_eq!(config["mcpServers"]["fixture"]["command"], fixture_path());
    assert_eq!(config["mcpServers"]["keep"], json!({"command": "k"}));
}

#[test]
fn a_dry_run_prints_the_whole_file_and_writes_nothing() {
    let scratch = Scratch::new();
    let output = scratch.fixture("install vscode --dry-run");
    assert!(output.status.success(), "{output:?}");
    let file = scratch.path("xdg/Code/User/mcp.json");
    assert!(!file.exists() && !scratch.path("xdg").exists());
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed["servers"]["fixture"]["type"], "stdio");
    assert_eq!(
        stderr(&output),
        format!("dry run: {} was not written\n", file.display())
    );

    // Over an existing file: the merge printed, the file as it was.
    let before = r#"{"servers": {"a": {"type": "stdio", "command": "a"}}, "inputs": []}"#;
    scratch.write("xdg/Code/User/mcp.json", before);
    let output = scratch.fixture("install vscode --dry-run");
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed["inputs"], json!([]));
    assert_eq!(printed["servers"]["a"]["command"], "a");
    assert_eq!(printed["servers"]["fixture"]["command"], fixture_path());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
}

#[test]
fn a_file_that_is_not_plain_json_is_refused_and_left_byte_for_byte() {
    let scratch = Scratch::new();
    let cases = [
        // VS Code's mcp.json may hold comments (JSONC).
        "{\n  // my servers\n  \"servers\": {}\n}\n",
        "{\"servers\": {},}",
        "[]",
        "{\"servers\": []}",
    ];
    for before in cases {
        scratch.write("project/.vscode/mcp.json", before);
        let output = scratch.fixture("install vscode --project .");
        assert_eq!(output.status.code(), Some(1), "{before}: {output:?}");
        let err = stderr(&output);
        assert!(
            err.starts_with("error: ./.vscode/mcp.json is not a JSON object (")
                || err
                    == "error: `servers` in ./.vscode/mcp.json is not an object; it was left as it is\n",
            "{before}: {err}"
        );
        // The entry to add by hand is shown.
        assert!(
            err.contains(&format!("\"command\": \"{}\"", fixture_path()))
                || err.contains("`servers`"),
            "{err}"
        );
        let after = std::fs::read_to_string(scratch.path("project/.vscode/mcp.json")).unwrap();
        assert_eq!(after, before);
    }
    // No temporary file is left beside it either.
    let names: Vec<_> = std::fs::read_dir(scratch.path("project/.vscode"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(names, ["mcp.json"]);
}

#[test]
fn usage_errors_exit_with_2() {
    let scratch = Scratch::new();
    for command in [
        "install claude-desktop --project .",
        "install cursor --env NOVALUE",
        "install nowhere",
        "install cursor --project no/such/dir",
        "server-json --description x",
    ] {
        let output = scratch.fixture(command);
        assert_eq!(output.status.code(), Some(2), "{command}: {output:?}");
    }
    assert!(!scratch.path("home").exists() && !scratch.path("xdg").exists());
}

fn registry_schema() -> Value {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/registry/2025-12-11/server.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn server_json_is_valid_against_the_registrys_schema() {
    let validator = jsonschema::validator_for(&registry_schema()).unwrap();
    let scratch = Scratch::new();
    let commands = [
        "server-json --repository https://github.com/ann/mcp-fixture --crate mcp-fixture \
         --env 'API_KEY=The key' --env MODE",
        "server-json --name io.github.ann/fixture --description 'Tools for tests'",
    ];
    for command in commands {
        let output = scratch.fixture(command);
        assert!(output.status.success(), "{command}: {output:?}");
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        let problems: Vec<String> = validator
            .iter_errors(&json)
            .map(|error| format!("{} at {}", error, error.instance_path()))
            .collect();
        assert!(problems.is_empty(), "{command}: {problems:?}\n{json:#}");
        assert_eq!(json["name"], "io.github.ann/fixture");
        assert_eq!(json["version"], "1.0.0");
        let package = &json["packages"][0];
        assert_eq!(package["registryType"], "cargo");
        assert_eq!(package["transport"], json!({"type": "stdio"}));
    }
    let json: Value = serde_json::from_slice(&scratch.fixture(commands[0]).stdout).unwrap();
    assert_eq!(json["description"], "Fixture");
    assert_eq!(json["packages"][0]["identifier"], "mcp-fixture");
    assert_eq!(
        json["packages"][0]["environmentVariables"],
        json!([{"name": "API_KEY", "description": "The key"}, {"name": "MODE"}])
    );
    // The schema does catch a bad one, and the command refuses to write it.
    let mut bad = json.clone();
    bad["description"] = json!("x".repeat(101));
    assert!(!validator.is_valid(&bad));
    let long = format!("server-json --name a.b/c --description {}", "x".repeat(101));
    assert_eq!(scratch.fixture(&long).status.code(), Some(2));
}

#[test]
fn mcpb_manifest_lists_the_tools_and_prompts_that_render_as_text() {
    let scratch = Scratch::new();
    let output = scratch.run(
        env!("CARGO_BIN_EXE_primitives"),
        "mcpb-manifest --author Ann --description Primitives --platform linux --platform darwin",
        &[],
    );
    assert!(output.status.success(), "{output:?}");
    let manifest: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(manifest["manifest_version"], "0.4");
    assert_eq!(manifest["name"], "primitives");
    assert_eq!(manifest["author"], json!({"name": "Ann"}));
    assert_eq!(
        manifest["server"],
        json!({
            "type": "binary",
            "entry_point": "server/primitives",
            "mcp_config": {
                "command": "${__dirname}/server/primitives",
                "args": [],
                "env": {},
                "platform_overrides": {
                    "win32": {"command": "${__dirname}/server/primitives.exe"}
                },
            },
        })
    );
    assert_eq!(
        manifest["compatibility"],
        json!({"platforms": ["linux", "darwin"]})
    );
    let greet = manifest["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|prompt| prompt["name"] == "greet")
        .unwrap();
    assert_eq!(
        *greet,
        json!({"name": "greet", "description": "Says hello.", "text": "Hello!"})
    );
    // `conversation` renders images: left out, and the manifest says so.
    assert!(
        manifest["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|prompt| prompt["name"] != "conversation" && prompt["text"].is_string())
    );
    assert_eq!(manifest["prompts_generated"], true);
    assert!(stderr(&output).contains("prompt `conversation` does not render as text"));
    let tools = manifest["tools"].as_array().unwrap();
    assert!(!tools.is_empty() && tools.iter().all(|tool| tool["name"].is_string()));
}
