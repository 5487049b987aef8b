//! A real OAuth authorization server for the token-verification tests: oidc-provider
//! (`interop/auth/provider.mjs`, pinned in `interop/node`), started on a loopback port.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// oidc-provider on a loopback port; killed when dropped.
pub struct Provider {
    /// Its issuer URL, `http://127.0.0.1:PORT`.
    pub issuer: String,
    _process: Child,
    /// A client for its endpoints.
    pub http: reqwest::Client,
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_owned()
}

impl Provider {
    /// Starts one whose keys are in `keys` (made there if the file does not exist).
    pub async fn start(keys: &Path) -> Provider {
        let root = repository();
        let node = root.join("interop/node/node_modules/node/bin/node");
        assert!(
            node.exists()
                && root
                    .join("interop/node/node_modules/oidc-provider")
                    .exists(),
            "interop/node/node_modules is missing or out of date: run `bash interop/setup.sh` \
             (scripts/test.sh does) to install oidc-provider and Node 22"
        );
        let mut process = Command::new(node)
            .arg(root.join("interop/auth/provider.mjs"))
            .arg("--keys")
            .arg(keys)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("node starts");
        let stdout = process.stdout.take().expect("piped");
        let mut lines = BufReader::new(stdout).lines();
        let issuer = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(line) = lines.next_line().await.expect("stdout") {
                if let Some(issuer) = line.strip_prefix("listening ") {
                    return issuer.to_owned();
                }
            }
            panic!("the provider exited before listening")
        })
        .await
        .expect("the provider listens within 30 s");
        // Its later output is not read: drain it so the pipe never fills.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Provider {
            issuer,
            _process: process,
            http: reqwest::Client::new(),
        }
    }

    /// A token from the token endpoint: client credentials of `client` for `resource`.
    pub async fn token(&self, client: &str, resource: &str, scope: &str) -> String {
        let answer = self.token_answer(client, resource, scope, None).await;
        answer["access_token"]
            .as_str()
            .unwrap_or_else(|| panic!("no token: {answer}"))
            .to_owned()
    }

    /// The token endpoint's answer to a client-credentials request of `client` for
    /// `resource`, with a DPoP proof (RFC 9449 §5) if `dpop` is one.
    pub async fn token_answer(
        &self,
        client: &str,
        resource: &str,
        scope: &str,
        dpop: Option<&str>,
    ) -> Value {
        let body = format!(
            "grant_type=client_credentials&resource={}&scope={}",
            encode(resource),
            encode(scope)
        );
        let mut request = self
            .http
            .post(self.token_endpoint())
            .basic_auth(client, Some("secret"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body);
        if let Some(proof) = dpop {
            request = request.header("dpop", proof);
        }
        request
            .send()
            .await
            .expect("the token endpoint answers")
            .text()
            .await
            .map(|text| serde_json::from_str(&text).expect("JSON"))
            .expect("a body")
    }

    /// Where tokens are asked for.
    pub fn token_endpoint(&self) -> String {
        format!("{}/token", self.issuer)
    }

    /// A JWT of exactly `claims`, signed with the provider's current key.
    pub async fn sign(&self, claims: Value) -> String {
        self.http
            .post(format!("{}/admin/sign", self.issuer))
            .body(claims.to_string())
            .send()
            .await
            .expect("the provider answers")
            .text()
            .await
            .expect("a token")
    }

    /// How many times its key set was fetched.
    pub async fn jwks_requests(&self) -> u64 {
        self.stat("jwks").await
    }

    /// How many introspection requests it was sent.
    pub async fn introspections(&self) -> u64 {
        self.stat("introspections").await
    }

    /// The count `name` of its `/admin/stats`.
    async fn stat(&self, name: &str) -> u64 {
        let stats: Value = self
            .http
            .get(format!("{}/admin/stats", self.issuer))
            .send()
            .await
            .expect("the provider answers")
            .text()
            .await
            .map(|text| serde_json::from_str(&text).expect("JSON"))
            .expect("a body");
        stats[name].as_u64().expect("a count")
    }

    /// Revokes `token`, issued to `client` (RFC 7009).
    pub async fn revoke(&self, client: &str, token: &str) {
        let status = self
            .http
            .post(format!("{}/token/revocation", self.issuer))
            .basic_auth(client, Some("secret"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("token={}", encode(token)))
            .send()
            .await
            .expect("the provider answers")
            .status();
        assert!(status.is_success(), "revocation answered {status}");
    }

    /// Signs with a new key from now on; the old one is no longer published.
    pub async fn rotate(&self) {
        let status = self
            .http
            .post(format!("{}/admin/rotate", self.issuer))
            .send()
            .await
            .expect("the provider answers")
            .status();
        assert!(status.is_success());
    }
}

/// Percent-encoding of a form value.
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// A key file in the temporary directory, removed when dropped.
pub struct KeysFile(pub PathBuf);

impl KeysFile {
    pub fn new(name: &str) -> KeysFile {
        KeysFile(
            std::env::temp_dir().join(format!("mcp-jwt-keys-{}-{name}.json", std::process::id())),
        )
    }
}

impl Drop for KeysFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Serves the server `build` makes from its resource URL (`http://127.0.0.1:PORT/mcp`) on a
/// loopback port until the test ends; that URL.
pub async fn serve_resource(build: impl FnOnce(&str) -> mcp_runtime::HttpServer) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let resource = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    tokio::spawn(build(&resource).serve_on(listener));
    resource
}

/// The protected-resource metadata (RFC 9728) of the server at `resource`.
pub async fn resource_metadata(resource: &str) -> Value {
    let url = resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let text = reqwest::get(url)
        .await
        .expect("the metadata")
        .text()
        .await
        .expect("a body");
    serde_json::from_str(&text).expect("JSON")
}

/// The notes the tools of the token tests were called with: a refused call must leave none.
/// Tests run in parallel, so each looks for a text of its own.
static WRITTEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Records that a tool wrote `text`.
pub fn write(text: &str) {
    WRITTEN.lock().expect("not poisoned").push(text.to_owned());
}

/// Whether a tool wrote `text`.
pub fn written(text: &str) -> bool {
    WRITTEN
        .lock()
        .expect("not poisoned")
        .iter()
        .any(|t| t == text)
}

/// `write_note(text)` sent statelessly to the server at `resource` with the bearer `token`.
pub async fn write_note_as(resource: &str, token: &str, text: &str) -> crate::Reply {
    let mut client = crate::HttpClient::new(resource, mcp_tests::STATELESS_REVISION);
    client.authorization = Some(format!("Bearer {token}"));
    client
        .request(
            "tools/call",
            serde_json::json!({ "name": "write_note", "arguments": { "text": text } }),
        )
        .await
}

/// The first `WWW-Authenticate` challenge of `reply`.
pub fn challenge(reply: &crate::Reply) -> &str {
    reply.headers["www-authenticate"]
        .to_str()
        .expect("an ASCII challenge")
}

/// `reply` refuses with `401`, `error="invalid_token"`, `description` and the metadata's
/// URL, and no tool wrote `text`.
pub fn assert_invalid(reply: &crate::Reply, description: &str, text: &str, case: &str) {
    assert_eq!(
        reply.status,
        reqwest::StatusCode::UNAUTHORIZED,
        "{case}: {:?}",
        reply.messages
    );
    let challenge = challenge(reply);
    assert!(
        challenge.contains("error=\"invalid_token\"")
            && challenge.contains(&format!("error_description=\"{description}\""))
            && challenge.contains("resource_metadata=\"http://"),
        "{case}: {challenge}"
    );
    assert!(!written(text), "{case}: the tool ran");
}
