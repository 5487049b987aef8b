//! DPoP-bound access tokens (RFC 9449) verified by the server (`HttpServer::verify_jwt`,
//! feature `jwt`) against a real authorization server: oidc-provider
//! (`interop/auth/provider.mjs`) binds a client-credentials token, JWT or opaque (whose
//! introspection answer then carries the binding), to the key of the DPoP
//! proof sent with the token request (`cnf.jkt`). This test is that client: it signs its
//! proofs with P-256 keys of its own. A bound token is accepted only with a fresh proof of
//! its key made for the request; every other use is refused with `401` and a `DPoP`
//! challenge before any tool runs.
//!
//! Needs `interop/node/node_modules` (`bash interop/setup.sh`, which `scripts/test.sh` runs).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey};
use mcp_http_tests::auth::{KeysFile, Provider, resource_metadata, serve_resource, write, written};
use mcp_http_tests::fleet::{nginx_config_at, start_nginx, temp_dir};
use mcp_http_tests::{HttpClient, Reply};
use mcp_runtime::testing::{RedisServer, free_loopback_port};
use mcp_runtime::{JwtVerifier, Server, TokenIntrospector, mcp_tool};
use mcp_tests::STATELESS_REVISION;
use reqwest::StatusCode;
use reqwest::header::HeaderValue;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// Write a note with a DPoP-bound token.
#[mcp_tool(scopes = ["notes:write"])]
async fn dpop_note(
    /// The note.
    text: String,
) -> String {
    write(&text);
    format!("wrote {text}")
}

/// A P-256 key of the client's (made for these tests only), and its public JWK.
struct ClientKey {
    private: &'static str,
    x: &'static str,
    y: &'static str,
}

const KEY: ClientKey = ClientKey {
    private: "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQggeXri6yJYEpDGJVg
TkhmrkHZLOuqv65KskwpcAn5t4ehRANCAAQHcxbr8Xo34cjfHOpTGAusyDYghPmp
rcu2J20RQnufRJeAPLK0IyDso4ZAk2CviXKg+j8gZ+1BrTFauEMZ54DE
-----END PRIVATE KEY-----",
    x: "B3MW6_F6N-HI3xzqUxgLrMg2IIT5qa3LtidtEUJ7n0Q",
    y: "l4A8srQjIOyjhkCTYK-JcqD6PyBn7UGtMVq4QxnngMQ",
};

const OTHER_KEY: ClientKey = ClientKey {
    private: "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQghTnZaXsbKhmhIZQd
/Qu1QI1H47/0LVSplexsTP+NmmGhRANCAASSPpJ/I0Hrit0KfjchZmcSATqyIGuY
wnV0gU+4ZgxpOPV/rG8iGfNduN9EQiwl2DgepidSO7BPN196f24/pR3l
-----END PRIVATE KEY-----",
    x: "kj6SfyNB64rdCn43IWZnEgE6siBrmMJ1dIFPuGYMaTg",
    y: "9X-sbyIZ812430RCLCXYOB6mJ1I7sE83X3p_bj-lHeU",
};

impl ClientKey {
    fn jwk(&self) -> Value {
        json!({"kty": "EC", "crv": "P-256", "x": self.x, "y": self.y})
    }

    /// A proof signed with this key whose claims are `claims`, with `header` merged into
    /// the usual header (`typ: dpop+jwt`, `alg: ES256`, the public key).
    fn sign(&self, claims: &Value, header: Value) -> String {
        let mut full = json!({"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk()});
        for (name, value) in header.as_object().expect("an object") {
            full[name] = value.clone();
        }
        // Signed by hand: jsonwebtoken's `Header` would drop members it does not model.
        let message = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(full.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let der: String = self
            .private
            .lines()
            .filter(|line| !line.starts_with("-----"))
            .collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(der)
            .expect("base64");
        let key = EncodingKey::from_ec_der(&der);
        let signature =
            jsonwebtoken::crypto::sign(message.as_bytes(), &key, Algorithm::ES256).expect("signed");
        format!("{message}.{signature}")
    }

    /// A proof for `method` on `url`, for `token` if any, issued `age` seconds ago.
    fn proof(&self, method: &str, url: &str, token: Option<&str>, age: u64) -> String {
        let mut claims = json!({
            "jti": format!("{:x}", rand_id()),
            "htm": method,
            "htu": url,
            "iat": now() - age,
        });
        if let Some(token) = token {
            claims["ath"] = json!(URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes())));
        }
        self.sign(&claims, json!({}))
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// A value no two proofs share.
fn rand_id() -> u128 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let count = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    (u128::from(std::process::id()) << 96) | (u128::from(now()) << 32) | u128::from(count as u32)
}

/// Our server, verifying the provider's tokens (DPoP required if `require`); `resource`
/// is its URL.
struct Running {
    resource: String,
}

impl Running {
    async fn start(issuer: &str, require: bool) -> Running {
        let resource = serve_resource(|resource| {
            let mut verifier = JwtVerifier::new(resource, issuer).allow_http();
            if require {
                verifier = verifier.require_dpop();
            }
            Server::new("dpop", "1.0.0").http().verify_jwt(verifier)
        })
        .await;
        Running { resource }
    }

    async fn metadata(&self) -> Value {
        resource_metadata(&self.resource).await
    }

    /// `dpop_note(text)` sent statelessly with `authorization` and these `DPoP` headers.
    async fn write(&self, authorization: &str, proofs: &[&str], text: &str) -> Reply {
        let mut client = HttpClient::new(&self.resource, STATELESS_REVISION);
        client.authorization = Some(authorization.to_owned());
        for proof in proofs {
            client
                .extra_headers
                .append("dpop", HeaderValue::from_str(proof).expect("ASCII"));
        }
        client
            .request(
                "tools/call",
                json!({ "name": "dpop_note", "arguments": { "text": text } }),
            )
            .await
    }
}

/// The challenges of a refusal, as one text.
fn challenges(reply: &Reply) -> String {
    reply
        .headers
        .get_all("www-authenticate")
        .iter()
        .map(|value| value.to_str().expect("ASCII"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// `reply` refuses with `401` and a `DPoP` challenge holding `error` and a description
/// holding `why`, and the tool did not run.
fn assert_refused(reply: &Reply, error: &str, why: &str, text: &str, case: &str) {
    assert_eq!(
        reply.status,
        StatusCode::UNAUTHORIZED,
        "{case}: {:?}",
        reply.messages
    );
    let challenges = challenges(reply);
    assert!(
        challenges.split(" | ").any(|challenge| {
            challenge.starts_with("DPoP ")
                && challenge.contains(&format!("error=\"{error}\""))
                && challenge.contains("algs=\"ES256")
                && challenge.contains(why)
        }),
        "{case}: {challenges}"
    );
    assert!(!written(text), "{case}: the tool ran");
}

/// A token bound to `key`, from the provider's token endpoint.
async fn bound_token(provider: &Provider, resource: &str, key: &ClientKey) -> String {
    bound_token_of("writer", provider, resource, key).await
}

/// A token of `client`'s bound to `key`.
async fn bound_token_of(
    client: &str,
    provider: &Provider,
    resource: &str,
    key: &ClientKey,
) -> String {
    let proof = key.proof("POST", &provider.token_endpoint(), None, 0);
    let answer = provider
        .token_answer(client, resource, "notes:read notes:write", Some(&proof))
        .await;
    assert_eq!(answer["token_type"], "DPoP", "{answer}");
    answer["access_token"]
        .as_str()
        .unwrap_or_else(|| panic!("no token: {answer}"))
        .to_owned()
}

#[tokio::test]
async fn a_bound_token_needs_a_fresh_proof_of_its_key_for_this_request() {
    let keys = KeysFile::new("dpop");
    let provider = Provider::start(&keys.0).await;
    let server = Running::start(&provider.issuer, false).await;
    let token = bound_token(&provider, &server.resource, &KEY).await;
    let scheme = format!("DPoP {token}");
    let url = server.resource.as_str();

    let proof = KEY.proof("POST", url, Some(&token), 0);
    let reply = server.write(&scheme, &[&proof], "bound note").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    assert_eq!(
        reply.response()["result"]["content"][0]["text"],
        "wrote bound note"
    );

    let metadata = server.metadata().await;
    assert_eq!(metadata["dpop_bound_access_tokens_required"], false);
    assert!(
        metadata["dpop_signing_alg_values_supported"]
            .as_array()
            .is_some_and(|algs| algs.contains(&json!("ES256")))
    );

    let replay = server.write(&scheme, &[&proof], "replayed").await;
    assert_refused(
        &replay,
        "invalid_dpop_proof",
        "used before",
        "replayed",
        "a replayed proof",
    );

    let other_url = url.replace("/mcp", "/other");
    let cases = [
        (
            KEY.proof("POST", &other_url, Some(&token), 0),
            "a proof for another URL",
            "`htu`",
        ),
        (
            KEY.proof("GET", url, Some(&token), 0),
            "a proof for another method",
            "`htm`",
        ),
        (
            OTHER_KEY.proof("POST", url, Some(&token), 0),
            "a proof of another key",
            "another key",
        ),
        (
            KEY.proof("POST", url, None, 0),
            "a proof without `ath`",
            "`ath`",
        ),
        (
            KEY.proof("POST", url, Some("another token"), 0),
            "a proof for another token",
            "`ath`",
        ),
        (
            KEY.proof("POST", url, Some(&token), 600),
            "a proof made ten minutes ago",
            "`iat`",
        ),
        (
            KEY.sign(
                &json!({"jti": "t", "htm": "POST", "htu": url, "iat": now()}),
                json!({"typ": "JWT"}),
            ),
            "a proof whose `typ` is not dpop+jwt",
            "`typ`",
        ),
        (
            "not.a.proof".to_owned(),
            "a proof that is no JWT",
            "not a JWT",
        ),
    ];
    for (n, (proof, case, why)) in cases.iter().enumerate() {
        let text = format!("refused note {n}");
        let reply = server.write(&scheme, &[proof], &text).await;
        assert_refused(&reply, "invalid_dpop_proof", why, &text, case);
    }

    // The proof's key must be public: one that also carries the private key is refused.
    let mut private = KEY.jwk();
    private["d"] = json!("geXri6yJYEpDGJVgTkhmrkHZLOuqv65KskwpcAn5t4c");
    let claims = json!({"jti": "p", "htm": "POST", "htu": url, "iat": now(),
        "ath": URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes()))});
    let leaked = KEY.sign(&claims, json!({ "jwk": private }));
    let reply = server.write(&scheme, &[&leaked], "leaked key").await;
    assert_refused(
        &reply,
        "invalid_dpop_proof",
        "private key",
        "leaked key",
        "a private jwk",
    );

    let fresh = KEY.proof("POST", url, Some(&token), 0);
    let reply = server.write(&scheme, &[&fresh, &fresh], "two proofs").await;
    assert_refused(
        &reply,
        "invalid_dpop_proof",
        "not several",
        "two proofs",
        "two proofs",
    );
    let reply = server.write(&scheme, &[], "no proof").await;
    assert_refused(
        &reply,
        "invalid_dpop_proof",
        "needs a DPoP header",
        "no proof",
        "no proof",
    );

    // A bound token is no bearer token: whoever stole it lacks the key.
    let reply = server
        .write(&format!("Bearer {token}"), &[], "as bearer")
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let challenges = challenges(&reply);
    assert!(
        challenges.starts_with("Bearer resource_metadata=")
            && challenges.contains("error=\"invalid_token\"")
            && challenges.contains("DPoP algs="),
        "{challenges}"
    );
    assert!(!written("as bearer"));

    // An unbound token sent with a proof is refused too; as a bearer token it is accepted.
    let bearer = provider
        .token("writer", &server.resource, "notes:read notes:write")
        .await;
    let proof = KEY.proof("POST", url, Some(&bearer), 0);
    let reply = server
        .write(&format!("DPoP {bearer}"), &[&proof], "unbound")
        .await;
    assert_refused(
        &reply,
        "invalid_token",
        "not DPoP-bound",
        "unbound",
        "an unbound token as DPoP",
    );
    let reply = server
        .write(&format!("Bearer {bearer}"), &[], "bearer note")
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
}

#[tokio::test]
async fn when_dpop_is_required_bearer_tokens_are_refused() {
    let keys = KeysFile::new("dpop-required");
    let provider = Provider::start(&keys.0).await;
    let server = Running::start(&provider.issuer, true).await;
    assert_eq!(
        server.metadata().await["dpop_bound_access_tokens_required"],
        true
    );

    let bearer = provider
        .token("writer", &server.resource, "notes:read notes:write")
        .await;
    let reply = server
        .write(&format!("Bearer {bearer}"), &[], "required bearer")
        .await;
    assert_refused(
        &reply,
        "invalid_token",
        "only DPoP-bound",
        "required bearer",
        "a bearer token",
    );
    let challenges = challenges(&reply);
    assert!(
        challenges.starts_with("DPoP resource_metadata=") && !challenges.contains("Bearer"),
        "only DPoP is offered: {challenges}"
    );

    let token = bound_token(&provider, &server.resource, &KEY).await;
    let proof = KEY.proof("POST", &server.resource, Some(&token), 0);
    let reply = server
        .write(&format!("DPoP {token}"), &[&proof], "required bound")
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
}

#[tokio::test]
async fn an_opaque_token_is_bound_by_its_introspection_answer() {
    let keys = KeysFile::new("dpop-opaque");
    let provider = Provider::start(&keys.0).await;
    let issuer = provider.issuer.clone();
    let resource = serve_resource(|resource| {
        let introspector =
            TokenIntrospector::new(resource, &issuer, "mcp-server", "secret").allow_http();
        Server::new("dpop", "1.0.0")
            .http()
            .introspect_tokens(introspector)
    })
    .await;
    let server = Running { resource };
    let token = bound_token_of("opaque", &provider, &server.resource, &KEY).await;
    assert_eq!(token.matches('.').count(), 0, "an opaque token: {token}");

    let proof = KEY.proof("POST", &server.resource, Some(&token), 0);
    let scheme = format!("DPoP {token}");
    let reply = server.write(&scheme, &[&proof], "opaque bound").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    let reply = server.write(&scheme, &[&proof], "opaque replayed").await;
    assert_refused(
        &reply,
        "invalid_dpop_proof",
        "used before",
        "opaque replayed",
        "a replayed proof",
    );
    let reply = server
        .write(&format!("Bearer {token}"), &[], "opaque as bearer")
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let challenges = challenges(&reply);
    assert!(challenges.contains("is DPoP-bound"), "{challenges}");
    assert!(!written("opaque as bearer"));
}

/// Behind a proxy that serves the endpoint at another path than the server does (nginx's
/// `/api/mcp` to the server's `/mcp`), the client's proof names the URL it sent to: the
/// resource, not the URL the server sees.
#[tokio::test]
async fn behind_a_proxy_a_proof_names_the_public_url() {
    let keys = KeysFile::new("dpop-proxied");
    let provider = Provider::start(&keys.0).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let upstream = listener.local_addr().expect("an address").port();
    let port = free_loopback_port();
    let resource = format!("http://127.0.0.1:{port}/api/mcp");
    let verifier = JwtVerifier::new(&resource, &provider.issuer)
        .allow_http()
        .require_dpop();
    let http = Server::new("dpop", "1.0.0").http().verify_jwt(verifier);
    tokio::spawn(http.serve_on(listener));
    let dir = temp_dir("dpop-proxied");
    let _nginx = start_nginx(
        &dir,
        port,
        &nginx_config_at(&dir, port, &[upstream], "/api/mcp"),
    );
    let server = Running { resource };
    let token = bound_token(&provider, &server.resource, &KEY).await;
    let scheme = format!("DPoP {token}");

    let proof = KEY.proof("POST", &server.resource, Some(&token), 0);
    let reply = server.write(&scheme, &[&proof], "proxied note").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    assert_eq!(
        reply.response()["result"]["content"][0]["text"],
        "wrote proxied note"
    );

    // Another path of the proxy's is still another URL.
    let elsewhere = server.resource.replace("/api/mcp", "/other/mcp");
    let proof = KEY.proof("POST", &elsewhere, Some(&token), 0);
    let reply = server.write(&scheme, &[&proof], "proxied elsewhere").await;
    assert_refused(
        &reply,
        "invalid_dpop_proof",
        "`htu`",
        "proxied elsewhere",
        "a proof for another path of the proxy",
    );
}

/// In a fleet, a proof one instance took is refused by every other: they share the proofs
/// they saw through Redis. While Redis is away, each instance still refuses the replays it
/// saw itself, and proofs are taken.
#[tokio::test]
async fn a_fleet_refuses_a_proof_replayed_to_another_instance() {
    let keys = KeysFile::new("dpop-fleet");
    let provider = Provider::start(&keys.0).await;
    let mut redis = RedisServer::start();
    // The balancer's URL, which the instances behind it are reached by; here the test
    // sends to each instance itself.
    let resource = format!("http://127.0.0.1:{}/mcp", free_loopback_port());
    let mut instances = Vec::new();
    for _ in 0..2 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
        let verifier = JwtVerifier::new(&resource, &provider.issuer)
            .allow_http()
            .require_dpop();
        let http = Server::new("dpop", "1.0.0")
            .http()
            .redis(redis.url())
            .verify_jwt(verifier);
        tokio::spawn(http.serve_on(listener));
        instances.push(Running { resource: url });
    }
    for instance in &instances {
        // Serving once it joined the fleet.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while reqwest::get(&instance.resource).await.is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "an instance does not serve"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    let token = bound_token(&provider, &resource, &KEY).await;
    let scheme = format!("DPoP {token}");

    let proof = KEY.proof("POST", &resource, Some(&token), 0);
    let reply = instances[0].write(&scheme, &[&proof], "fleet note").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    let reply = instances[1].write(&scheme, &[&proof], "fleet replay").await;
    assert_refused(
        &reply,
        "invalid_dpop_proof",
        "used before",
        "fleet replay",
        "a proof replayed to another instance",
    );
    let fresh = KEY.proof("POST", &resource, Some(&token), 0);
    let reply = instances[1].write(&scheme, &[&fresh], "fleet fresh").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);

    // Redis away: proofs are still taken, and each instance refuses its own replays.
    redis.stop();
    let proof = KEY.proof("POST", &resource, Some(&token), 0);
    let reply = instances[0].write(&scheme, &[&proof], "outage note").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    let reply = instances[0]
        .write(&scheme, &[&proof], "outage replay")
        .await;
    assert_refused(
        &reply,
        "invalid_dpop_proof",
        "used before",
        "outage replay",
        "a proof replayed to the same instance while Redis is away",
    );
}
