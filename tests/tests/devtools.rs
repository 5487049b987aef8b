//! The developer tools for resources, resource templates, prompts and completions, end to
//! end: `TestClient`'s typed methods in the handshake revisions and the stateless one, the
//! contract snapshot with the new lists, and the `MCP_CLI` commands.
//!
//! Pending: move this file to `tests/tests/devtools.rs` once `#[mcp_resource]` and
//! `#[mcp_prompt]` are merged (cargo compiles nothing under `tests/pending/`).
//!
//! The command line runs the way the existing CLI tests run it — a server binary started
//! with `MCP_CLI` in its environment, whose `serve_stdio()` runs the command through the
//! server in memory and exits. The binary is this test binary itself: started again with
//! only the `cli_server` test selected, which serves this file's resources and prompts.

use std::process::{Command, Output};

use mcp_runtime::testing::{CompletionTarget, NO_ARGUMENTS, ResponseError, TestClient};
use mcp_runtime::{
    Content, Json, PromptMessage, ProtocolVersion, Server, ToolError, mcp_prompt, mcp_resource,
};
use serde_json::json;

/// The project's README.
#[mcp_resource(uri = "docs://readme", mime_type = "text/markdown")]
async fn readme() -> String {
    "# Hi".into()
}

/// One note, by id.
#[mcp_resource(uri = "notes://{id}", mime_type = "application/json")]
async fn note(#[mcp(complete = note_ids)] id: u64) -> Result<Json<serde_json::Value>, ToolError> {
    if id > 42 {
        return Err(ToolError::new(format!("no note {id}")));
    }
    Ok(Json(json!({ "id": id, "text": format!("note {id}") })))
}

fn note_ids(prefix: &str) -> Vec<String> {
    (1..=42)
        .map(|id| id.to_string())
        .filter(|id| id.starts_with(prefix))
        .collect()
}

/// Review a piece of code.
#[mcp_prompt(title = "Code review")]
async fn review(
    /// The language.
    #[mcp(complete = languages)]
    language: String,
    /// Focus.
    focus: Option<String>,
) -> String {
    match focus {
        Some(focus) => format!("Review this {language} code, for {focus}."),
        None => format!("Review this {language} code."),
    }
}

fn languages(prefix: &str) -> Vec<&'static str> {
    ["python", "ruby", "rust"]
        .into_iter()
        .filter(|language| language.starts_with(prefix))
        .collect()
}

/// Show a picture and ask about it.
#[mcp_prompt]
async fn picture() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::image(vec![0_u8; 16], "image/png")),
        PromptMessage::assistant("What about it?"),
    ]
}

/// The handshake revisions that have titles, and the stateless one.
const REVISIONS: [ProtocolVersion; 3] = [
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_11_25,
    ProtocolVersion::V2026_07_28,
];

async fn client(revision: ProtocolVersion) -> TestClient {
    TestClient::builder()
        .revision(revision)
        .connect(Server::new("devtools", "1.0.0").allow_no_tools())
        .await
        .unwrap_or_else(|error| panic!("{revision}: {error}"))
}

#[tokio::test]
async fn lists_reads_and_renders_in_every_era() {
    for revision in REVISIONS {
        let client = client(revision).await;

        let resources = client.list_resources().await.unwrap();
        assert_eq!(resources.len(), 1, "{revision}");
        assert_eq!(resources[0].uri, "docs://readme");
        assert_eq!(resources[0].name, "readme");
        assert_eq!(resources[0].mime_type.as_deref(), Some("text/markdown"));
        assert_eq!(
            resources[0].description.as_deref(),
            Some("The project's README.")
        );
        assert_eq!(resources[0].raw["uri"], "docs://readme");

        let templates = client.list_resource_templates().await.unwrap();
        assert_eq!(templates.len(), 1, "{revision}");
        assert_eq!(templates[0].uri_template, "notes://{id}");

        let readme = client.read_resource("docs://readme").await.unwrap();
        assert_eq!(readme.text(), "# Hi", "{revision}");
        assert_eq!(
            readme.contents[0].mime_type.as_deref(),
            Some("text/markdown")
        );
        let note = client.read_resource("notes://7").await.unwrap();
        let note: serde_json::Value = serde_json::from_str(&note.text()).unwrap();
        assert_eq!(note, json!({ "id": 7, "text": "note 7" }), "{revision}");
        let failed = client.read_resource("notes://99").await.unwrap_err();
        assert!(
            failed.message.contains("no note 99"),
            "{revision}: {failed}"
        );
        let missing = client.read_resource("nothing://here").await.unwrap_err();
        let expected = if revision.is_stateless() {
            ResponseError::INVALID_PARAMS
        } else {
            -32002
        };
        assert_eq!(missing.code, expected, "{revision}: {missing}");

        let prompts = client.list_prompts().await.unwrap();
        let review = prompts.iter().find(|p| p.name == "review").unwrap();
        assert_eq!(review.title.as_deref(), Some("Code review"), "{revision}");
        let language = review.argument("language").unwrap();
        assert!(language.required);
        assert_eq!(language.description.as_deref(), Some("The language."));
        assert!(!review.argument("focus").unwrap().required);

        let rendered = client
            .get_prompt("review", [("language", "rust"), ("focus", "errors")])
            .await
            .unwrap();
        assert_eq!(rendered.messages.len(), 1);
        assert_eq!(rendered.messages[0].role, "user");
        assert_eq!(rendered.text(), "Review this rust code, for errors.");
        let arguments =
            std::collections::HashMap::from([("language".to_owned(), "ruby".to_owned())]);
        let rendered = client.get_prompt("review", &arguments).await.unwrap();
        assert_eq!(rendered.text(), "Review this ruby code.", "{revision}");
        let picture = client.get_prompt("picture", NO_ARGUMENTS).await.unwrap();
        assert_eq!(picture.messages[0].content["type"], "image");
        assert_eq!(picture.messages[1].text(), Some("What about it?"));

        let missing = client.get_prompt("review", NO_ARGUMENTS).await.unwrap_err();
        assert_eq!(missing.code, ResponseError::INVALID_PARAMS, "{revision}");
        assert!(missing.message.contains("language"), "{missing}");

        client.close().await.unwrap();
    }
}

#[tokio::test]
async fn completes_prompt_arguments_and_template_variables() {
    for revision in REVISIONS {
        let client = client(revision).await;
        let languages = client
            .complete_prompt_argument("review", "language", "r")
            .await
            .unwrap();
        assert_eq!(languages.values, ["ruby", "rust"], "{revision}");
        assert_eq!(languages.total, Some(2));
        assert!(!languages.has_more);

        let ids = client
            .complete_template_variable("notes://{id}", "id", "4")
            .await
            .unwrap();
        assert_eq!(ids.values, ["4", "40", "41", "42"], "{revision}");

        // No completion function: nothing to suggest.
        let focus = client
            .complete_prompt_argument("review", "focus", "")
            .await
            .unwrap();
        assert!(focus.values.is_empty());

        let given = client
            .complete(
                &CompletionTarget::Prompt("review".to_owned()),
                "language",
                "py",
                [("focus", "speed")],
            )
            .await
            .unwrap();
        assert_eq!(given.values, ["python"]);

        let unknown = client
            .complete_prompt_argument("nope", "language", "")
            .await
            .unwrap_err();
        assert_eq!(unknown.code, ResponseError::INVALID_PARAMS, "{revision}");
        client.close().await.unwrap();
    }
}

#[tokio::test]
async fn subscribes_in_both_eras() {
    for revision in REVISIONS {
        let client = client(revision).await;
        client.subscribe_resource("notes://7").await.unwrap();
        // Twice is fine, and so is unsubscribing.
        client.subscribe_resource("notes://7").await.unwrap();
        client.unsubscribe_resource("notes://7").await.unwrap();
        if !revision.is_stateless() {
            let unknown = client
                .subscribe_resource("nothing://here")
                .await
                .unwrap_err();
            assert_eq!(unknown.code, -32002, "{revision}");
        }
        client.close().await.unwrap();
    }
}

#[tokio::test]
async fn the_contract_snapshot_holds_resources_templates_and_prompts() {
    let snapshot =
        std::env::temp_dir().join(format!("mcp-devtools-contract-{}.json", std::process::id()));
    let first = client(ProtocolVersion::V2025_11_25).await;
    let tools = first.list_tools_json().await.unwrap()["tools"].clone();
    let resources = first.request("resources/list", json!({})).await.unwrap();
    let templates = first
        .request("resources/templates/list", json!({}))
        .await
        .unwrap();
    let prompts = first.request("prompts/list", json!({})).await.unwrap();
    let expected = json!({
        "tools": tools,
        "resources": resources["resources"],
        "resourceTemplates": templates["resourceTemplates"],
        "prompts": prompts["prompts"],
    });
    std::fs::write(
        &snapshot,
        serde_json::to_string_pretty(&expected).unwrap() + "\n",
    )
    .unwrap();
    first.assert_contract(&snapshot, &[]).await;

    // A changed prompt list fails the check.
    let mut changed = expected.clone();
    changed["prompts"] = json!([]);
    std::fs::write(
        &snapshot,
        serde_json::to_string_pretty(&changed).unwrap() + "\n",
    )
    .unwrap();
    let check = tokio::spawn(async move {
        let client = client(ProtocolVersion::V2025_11_25).await;
        let snapshot =
            std::env::temp_dir().join(format!("mcp-devtools-contract-{}.json", std::process::id()));
        client.assert_contract(&snapshot, &[]).await;
    });
    if std::env::var_os("MCP_SNAPSHOTS").is_none() {
        assert!(check.await.is_err(), "a changed snapshot must fail");
    }
    let _ = std::fs::remove_file(&snapshot);
}

/// The server the command-line tests start: this binary, again, running only this test,
/// with `MCP_CLI` set. Without `MCP_CLI` it does nothing.
#[test]
fn cli_server() {
    if std::env::var_os("MCP_CLI").is_none() {
        return;
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // `serve_stdio` runs the command and exits the process with its status.
    let _ = runtime.block_on(
        Server::new("devtools", "1.0.0")
            .allow_no_tools()
            .serve_stdio(),
    );
}

/// Runs `MCP_CLI=command` against this file's server; the test harness's own first words
/// ("running 1 test", "test cli_server ... ") are left out of stdout.
fn cli(command: &str) -> (Option<i32>, String, String) {
    let output: Output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "cli_server", "--nocapture", "--test-threads=1"])
        .env("MCP_CLI", command)
        .env_remove("RUST_LOG")
        .output()
        .expect("the test binary starts again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stdout = match stdout.split_once("test cli_server ... ") {
        Some((_, rest)) => rest.to_owned(),
        None => stdout.into_owned(),
    };
    (
        output.status.code(),
        stdout,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn cli_lists_resources_and_prompts() {
    let (status, out, err) = cli("resources");
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(
        out,
        "URI            NAME    TITLE  MIME TYPE         DESCRIPTION\n\
         docs://readme  readme         text/markdown     The project's README.\n\
         notes://{id}   note           application/json  One note, by id.\n"
    );

    let (status, out, err) = cli("prompts");
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(
        out,
        "NAME     TITLE        ARGUMENTS         DESCRIPTION\n\
         picture                                 Show a picture and ask about it.\n\
         review   Code review  language, focus?  Review a piece of code.\n"
    );

    let (_, help, _) = cli("help");
    for command in ["resources", "read", "prompts", "prompt", "complete"] {
        assert!(help.contains(&format!("  {command} ")), "{command}: {help}");
    }
}

#[test]
fn cli_reads_renders_and_completes() {
    for revision in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        let (status, out, err) = cli(&format!("read docs://readme -r {revision}"));
        assert_eq!(
            (status, out.as_str()),
            (Some(0), "# Hi\n"),
            "{revision}: {err}"
        );

        let (status, out, err) = cli(&format!(
            "prompt review language=rust 'focus=error handling' -r {revision}"
        ));
        assert_eq!(status, Some(0), "{revision}: {err}");
        assert_eq!(
            out,
            "description: Review a piece of code.\n\nuser:\nReview this rust code, for error \
             handling.\n"
        );

        let (status, out, err) = cli(&format!("complete prompt review language r -r {revision}"));
        assert_eq!(
            (status, out.as_str()),
            (Some(0), "ruby\nrust\n"),
            "{revision}: {err}"
        );
        let (status, out, err) = cli(&format!(
            "complete resource notes://{{id}} id 4 -r {revision}"
        ));
        assert_eq!(
            (status, out.as_str()),
            (Some(0), "4\n40\n41\n42\n"),
            "{revision}: {err}"
        );
    }

    let (status, out, _) = cli("prompt picture");
    assert_eq!(status, Some(0));
    assert_eq!(
        out,
        "description: Show a picture and ask about it.\n\nuser:\n[image/png image, 16 bytes]\n\n\
         assistant:\nWhat about it?\n"
    );
}

#[test]
fn cli_exit_codes() {
    // An error answer: 1, with the error on stderr.
    let (status, out, err) = cli("read notes://99");
    assert_eq!(status, Some(1));
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no note 99"), "{err}");
    let (status, _, err) = cli("prompt review");
    assert_eq!(status, Some(1));
    assert!(err.contains("language"), "{err}");
    let (status, _, _) = cli("complete prompt nope language x");
    assert_eq!(status, Some(1));

    // A usage error: 2.
    let (status, _, err) = cli("prompt review rust");
    assert_eq!(status, Some(2));
    assert!(err.contains("key=value"), "{err}");
    let (status, _, _) = cli("complete prompt review");
    assert_eq!(status, Some(2));
    let (status, _, _) = cli("read");
    assert_eq!(status, Some(2));
}
