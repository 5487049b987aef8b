//! Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640) served from two folders
//! embedded with `skill!`: declared only under 2026-07-28, listed (page by page, each entry
//! whole) and got with the frontmatter as written and every file's digest and size — checked
//! here against the fixture files themselves — their files read as resources in every
//! revision, directories read, bad params answered -32602 with the server still serving, a
//! skill set changed at run time with clients told, and two skills of one name refused at
//! start-up.

use std::path::Path;

use mcp_runtime::testing::{ResponseError, TestClient};
use mcp_runtime::{DynamicSkill, ProtocolVersion, Server};
use mcp_tests::{StdioClient, stateless_meta};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

mcp_runtime::skill!("skills/code-review");
mcp_runtime::skill!("skills/changelog", prefix = "team/docs");

const CODE_REVIEW: &str = "skill://code-review/SKILL.md";
const CHANGELOG: &str = "skill://team/docs/changelog/SKILL.md";

fn server() -> Server {
    Server::new("skills", "1.0.0").allow_no_tools()
}

async fn connect(server: Server, revision: ProtocolVersion) -> TestClient {
    TestClient::builder()
        .revision(revision)
        .connect(server)
        .await
        .expect("the server starts")
}

/// `sha256:` and the hex digest of a fixture file, computed here.
fn digest_of(relative: &str) -> (String, u64) {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)).unwrap();
    let hex: String = Sha256::digest(&bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    (format!("sha256:{hex}"), bytes.len() as u64)
}

fn code(result: Result<impl std::fmt::Debug, ResponseError>) -> i64 {
    result.expect_err("refused").code
}

#[tokio::test]
async fn the_extension_is_declared_from_2026_07_28_with_its_settings_inline() {
    let client = connect(server(), ProtocolVersion::V2026_07_28).await;
    let discovered = client.request("server/discover", json!({})).await.unwrap();
    let capabilities = &discovered["capabilities"];
    assert_eq!(
        capabilities["extensions"]["io.modelcontextprotocol/skills"],
        json!({ "directoryRead": true })
    );
    assert!(capabilities["resources"].is_object(), "{capabilities}");

    for revision in [ProtocolVersion::V2024_11_05, ProtocolVersion::V2025_11_25] {
        let client = connect(server(), revision).await;
        let capabilities = &client.initialize_result().unwrap()["capabilities"];
        assert!(
            capabilities
                .pointer("/extensions/io.modelcontextprotocol~1skills")
                .is_none(),
            "{capabilities}"
        );
        assert!(capabilities["resources"].is_object(), "{capabilities}");
        // The methods are the extension's: not there before it.
        assert_eq!(
            code(client.list_skills().await),
            ResponseError::METHOD_NOT_FOUND
        );
        // To a client of an earlier revision, skill files are ordinary resources.
        let resources = client.list_resources().await.unwrap();
        let skill_md = resources.iter().find(|r| r.uri == CODE_REVIEW).unwrap();
        assert_eq!(skill_md.name, "code-review");
        assert_eq!(skill_md.mime_type.as_deref(), Some("text/markdown"));
        let read = client.read_resource(CODE_REVIEW).await.unwrap();
        assert!(read.text().starts_with("---\nname: code-review\n"));
    }

    // A server of no skill declares no extension: the fixture binary of resources and
    // prompts links none.
    let mut plain = StdioClient::spawn(env!("CARGO_BIN_EXE_primitives"), &[]);
    let discovered = plain.request("server/discover", json!({ "_meta": stateless_meta() }));
    let capabilities = &discovered["result"]["capabilities"];
    assert!(capabilities.is_object(), "{discovered}");
    assert!(capabilities.get("extensions").is_none(), "{capabilities}");
}

#[tokio::test]
async fn entries_carry_the_frontmatter_as_written_and_every_file_with_its_digest() {
    let client = connect(server(), ProtocolVersion::V2026_07_28).await;
    let skills = client.list_skills().await.unwrap();
    let uris: Vec<&str> = skills.iter().map(|skill| skill.uri.as_str()).collect();
    assert_eq!(uris, [CODE_REVIEW, CHANGELOG], "sorted by URI");

    let review = &skills[0];
    assert_eq!(
        review.frontmatter,
        json!({
            "name": "code-review",
            "description": "Review a change against the team's checklists.",
            "license": "MIT",
            "allowed-tools": ["Read", "Grep"],
            "metadata": { "owner": "platform", "reviewed": "2026-01-15" },
        })
    );
    let files: Vec<&str> = review
        .files()
        .iter()
        .map(|file| file.uri.as_str())
        .collect();
    assert_eq!(
        files,
        [
            CODE_REVIEW,
            "skill://code-review/checklists/security.md",
            "skill://code-review/checklists/style/rust.md",
            "skill://code-review/logo.png",
        ]
    );
    for file in review.files() {
        let relative = file.uri.strip_prefix("skill://").unwrap();
        let (digest, size) = digest_of(&format!("skills/{relative}"));
        assert_eq!((&file.digest, file.size), (&digest, size), "{}", file.uri);
        let bytes = client.read_skill_file(file).await.unwrap();
        assert_eq!(bytes.len() as u64, size);
    }
    // The PNG is not UTF-8: read as a blob, its bytes exact.
    let logo = client
        .read_resource("skill://code-review/logo.png")
        .await
        .unwrap();
    assert_eq!(logo.contents[0].mime_type.as_deref(), Some("image/png"));
    assert!(logo.blob().is_some());

    let changelog = &skills[1];
    assert_eq!(changelog.name(), "changelog");
    assert_eq!(
        changelog.description(),
        "Write the changelog entry of a release.\nOne line per change.\n"
    );
    let (digest, _) = digest_of("skills/changelog/SKILL.md");
    assert_eq!(changelog.files()[0].digest, digest);

    // skills/get: the same entry, no cursor, cache hints.
    let got = client.get_skill(CHANGELOG).await.unwrap();
    assert_eq!(&got, changelog);
    let raw = client
        .request("skills/get", json!({ "uri": CHANGELOG }))
        .await
        .unwrap();
    assert!(raw.get("nextCursor").is_none());
    assert!(
        raw["ttlMs"].is_u64() && raw["cacheScope"].is_string(),
        "{raw}"
    );
}

#[tokio::test]
async fn the_listing_is_paginated_an_entry_never_split() {
    let client = connect(server().page_size(1), ProtocolVersion::V2026_07_28).await;
    let first = client.request("skills/list", json!({})).await.unwrap();
    assert_eq!(first["skills"].as_array().unwrap().len(), 1);
    assert_eq!(first["skills"][0]["uri"], CODE_REVIEW);
    assert_eq!(first["skills"][0]["resources"].as_array().unwrap().len(), 4);
    assert!(first["ttlMs"].is_u64() && first["cacheScope"].is_string());
    let cursor = first["nextCursor"]
        .as_str()
        .expect("a second page")
        .to_owned();
    let second = client
        .request("skills/list", json!({ "cursor": cursor }))
        .await
        .unwrap();
    assert_eq!(second["skills"][0]["uri"], CHANGELOG);
    assert!(second.get("nextCursor").is_none());
    assert_eq!(client.list_skills().await.unwrap().len(), 2, "every page");

    // Directories page the same way.
    let page = client
        .request(
            "resources/directory/read",
            json!({ "uri": "skill://code-review" }),
        )
        .await
        .unwrap();
    assert_eq!(page["resources"].as_array().unwrap().len(), 1);
    assert!(page["nextCursor"].is_string());
    let all = client.read_directory("skill://code-review").await.unwrap();
    assert_eq!(all.len(), 3);
}

#[tokio::test]
async fn directories_list_their_direct_children() {
    let client = connect(server(), ProtocolVersion::V2026_07_28).await;
    let root = client.read_directory("skill://code-review").await.unwrap();
    let children: Vec<(&str, Option<&str>)> = root
        .iter()
        .map(|child| (child.uri.as_str(), child.mime_type.as_deref()))
        .collect();
    assert_eq!(
        children,
        [
            (CODE_REVIEW, Some("text/markdown")),
            ("skill://code-review/checklists", Some("inode/directory")),
            ("skill://code-review/logo.png", Some("image/png")),
        ]
    );
    assert_eq!(root[0].name, "code-review");
    let style = client
        .read_directory("skill://code-review/checklists/style")
        .await
        .unwrap();
    assert_eq!(style.len(), 1);
    assert_eq!(style[0].name, "rust.md");
    assert_eq!(
        style[0].size,
        Some(digest_of("skills/code-review/checklists/style/rust.md").1)
    );
    // The prefix above a skill is a directory too.
    let prefix = client.read_directory("skill://team/docs").await.unwrap();
    assert_eq!(prefix[0].uri, "skill://team/docs/changelog");
}

#[tokio::test]
async fn bad_params_are_invalid_params_and_the_server_goes_on() {
    let client = connect(server(), ProtocolVersion::V2026_07_28).await;
    for (method, params) in [
        ("skills/get", json!({ "uri": "skill://nothing/SKILL.md" })),
        (
            "skills/get",
            json!({ "uri": "skill://code-review/logo.png" }),
        ),
        ("skills/get", json!({})),
        ("skills/get", json!({ "uri": 7 })),
        ("skills/list", json!({ "cursor": "not-ours" })),
        ("skills/list", json!({ "cursor": 3 })),
        ("resources/directory/read", json!({ "uri": CODE_REVIEW })),
        (
            "resources/directory/read",
            json!({ "uri": "skill://nothing" }),
        ),
        (
            "resources/directory/read",
            json!({ "uri": "skill://code-review/" }),
        ),
        ("resources/directory/read", json!({})),
        (
            "resources/directory/read",
            json!({ "uri": "skill://code-review", "cursor": "bad" }),
        ),
    ] {
        let error = client.request(method, params.clone()).await.unwrap_err();
        assert_eq!(
            error.code,
            ResponseError::INVALID_PARAMS,
            "{method} {params}"
        );
        assert!(!error.message.is_empty());
    }
    let unknown = client
        .get_skill("skill://nothing/SKILL.md")
        .await
        .unwrap_err();
    assert!(
        unknown
            .message
            .contains("no skill is served at skill://nothing/SKILL.md")
    );
    let not_directory = client.read_directory(CODE_REVIEW).await.unwrap_err();
    assert!(
        not_directory
            .message
            .contains("is not a directory resource"),
        "{not_directory}"
    );
    // Still serving.
    assert_eq!(
        client.get_skill(CODE_REVIEW).await.unwrap().name(),
        "code-review"
    );
}

#[tokio::test]
async fn a_skill_set_changed_at_run_time_tells_clients() {
    let server = server();
    let skills = server.skill_set();
    let handshake = connect(server.clone(), ProtocolVersion::V2025_11_25).await;
    let capabilities = &handshake.initialize_result().unwrap()["capabilities"];
    assert_eq!(capabilities["resources"]["listChanged"], true);
    let client = connect(server, ProtocolVersion::V2026_07_28).await;

    let uri = skills
        .add(
            DynamicSkill::new(
                "ops/deploy",
                "---\nname: deploy\ndescription: Deploy a service.\n---\nRun `scripts/go.sh`.\n",
            )
            .file("scripts/go.sh", "#!/bin/sh\necho go\n"),
        )
        .unwrap();
    assert_eq!(uri, "skill://ops/deploy/SKILL.md");
    let told = handshake.next_notification().await.expect("a notification");
    assert_eq!(told.method, "notifications/resources/list_changed");

    let deploy = client.get_skill(&uri).await.unwrap();
    assert_eq!(deploy.files().len(), 2);
    for file in deploy.files() {
        client.read_skill_file(file).await.unwrap();
    }
    assert_eq!(client.list_skills().await.unwrap().len(), 3);

    assert!(skills.disable(&uri));
    assert_eq!(
        handshake.next_notification().await.unwrap().method,
        "notifications/resources/list_changed"
    );
    assert_eq!(
        code(client.get_skill(&uri).await),
        ResponseError::INVALID_PARAMS
    );
    assert_eq!(
        code(
            client
                .read_resource("skill://ops/deploy/scripts/go.sh")
                .await
        ),
        ResponseError::INVALID_PARAMS
    );
    assert!(skills.enable(&uri));
    assert!(skills.remove(&uri));
    assert_eq!(client.list_skills().await.unwrap().len(), 2);
    // The files went with it: a verified read of the old entry fails.
    assert!(client.read_skill_file(&deploy.files()[0]).await.is_err());

    // A skill! cannot be removed, only disabled; a refused skill changes nothing.
    assert!(!skills.remove(CODE_REVIEW));
    let refused = skills.add(DynamicSkill::new(
        "code-review",
        "---\nname: code-review\ndescription: again\n---\n",
    ));
    assert!(refused.unwrap_err().to_string().contains("another"));
    assert_eq!(client.list_skills().await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_changed_file_fails_verification() {
    let client = connect(server(), ProtocolVersion::V2026_07_28).await;
    let file = client.get_skill(CHANGELOG).await.unwrap().files()[0].clone();
    let tampered: Value = json!({
        "uri": file.uri,
        "digest": format!("sha256:{}", "0".repeat(64)),
        "size": file.size,
    });
    let file = serde_json::from_value(tampered).unwrap();
    let error = client.read_skill_file(&file).await.unwrap_err();
    assert_eq!(error.code, ResponseError::VERIFICATION_FAILED);
    assert!(error.message.contains("hashes to sha256:"), "{error}");
}

#[test]
fn two_skills_of_one_name_refuse_to_start_naming_both() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_duplicate_skills"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("two skills are named `changelog`"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("duplicate_skills.rs:").count(),
        2,
        "{stderr}"
    );
}
