//! JWT access tokens verified by the server (`HttpServer::verify_jwt`, feature `jwt`)
//! against a real authorization server: oidc-provider (`interop/auth/provider.mjs`, pinned
//! in `interop/node`), whose client-credentials tokens carry the resource asked for as
//! audience (RFC 8707). A token it issued for this server opens the tools its scopes allow;
//! every other token is refused with `401` and an `invalid_token` challenge before any tool
//! runs; a rotated key is fetched once, and made-up `kid`s fetch the keys at most once per
//! refetch interval.
//!
//! Needs `interop/node/node_modules` (`bash interop/setup.sh`, which `scripts/test.sh` runs).

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_http_tests::auth::{
    KeysFile, Provider, assert_invalid, challenge, serve_resource, written,
};
use mcp_runtime::{
    Error, HttpServer, JwtVerifier, ProtectedResource, Server, TokenClaims, TokenIntrospector,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

#[path = "common/notes.rs"]
mod notes;

use notes::Running;

/// Started with its verifier.
impl Running {
    async fn start(issuer: &str, configure: impl FnOnce(JwtVerifier) -> JwtVerifier) -> Running {
        Running::start_with(issuer, |_, server, verifier| {
            server.http().verify_jwt(configure(verifier))
        })
        .await
    }

    /// Started as `build` makes it from its resource URL, the server and the verifier.
    async fn start_with(
        issuer: &str,
        build: impl FnOnce(&str, Server, JwtVerifier) -> HttpServer,
    ) -> Running {
        let resource = serve_resource(|resource| {
            let verifier = JwtVerifier::new(resource, issuer).allow_http();
            build(resource, Server::new("jwt", "1.0.0"), verifier)
        })
        .await;
        Running { resource }
    }
}

/// A token with this header and these claims and a signature of made-up bytes.
fn unsigned(header: Value, claims: &Value) -> String {
    format!(
        "{}.{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string()),
        URL_SAFE_NO_PAD.encode([7u8; 256])
    )
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

#[tokio::test]
async fn a_token_of_the_provider_opens_the_tools_its_scopes_allow() {
    let keys = KeysFile::new("scopes");
    let provider = Provider::start(&keys.0).await;
    let server = Running::start(&provider.issuer, |verifier| verifier).await;

    let writer = provider
        .token("writer", &server.resource, "notes:read notes:write")
        .await;
    let reply = server.write(&writer, "first note").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    assert_eq!(
        reply.response()["result"]["content"][0]["text"],
        "writer (client writer) wrote first note"
    );

    // A token without `notes:write`: 403 and the step-up challenge naming it.
    let reader = provider
        .token("reader", &server.resource, "notes:read")
        .await;
    let reply = server.write(&reader, "reader's note").await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{:?}", reply.messages);
    let challenge = challenge(&reply);
    assert!(
        challenge.contains("error=\"insufficient_scope\"")
            && challenge.contains("scope=\"notes:write\""),
        "{challenge}"
    );
    assert!(!written("reader's note"));

    // No token: 401 pointing at the metadata, which names the provider and the scopes.
    let reply = server.write("", "anonymous note").await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let metadata = server.metadata().await;
    assert_eq!(metadata["resource"], server.resource.as_str());
    assert_eq!(metadata["authorization_servers"], json!([provider.issuer]));
    let scopes = metadata["scopes_supported"].as_array().expect("scopes");
    assert!(scopes.contains(&json!("notes:write")) && scopes.contains(&json!("notes:read")));

    // The server's own `scopes_of` for the claims wins over the token's scopes.
    let everyone_writes = Running::start_with(&provider.issuer, |_, server, verifier| {
        server
            .scopes_of(|_: &TokenClaims| ["notes:write"])
            .http()
            .verify_jwt(verifier)
    })
    .await;
    let reader = provider
        .token("reader", &everyone_writes.resource, "notes:read")
        .await;
    let reply = everyone_writes.write(&reader, "mapped note").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    assert!(written("mapped note"));
}

#[tokio::test]
async fn the_issuer_is_listed_in_metadata_given_before_or_after() {
    let issuer = "http://127.0.0.1:1";
    let own = |resource: &str| {
        ProtectedResource::new(resource, "https://other.example.com").scope("profile")
    };
    let after = Running::start_with(issuer, |resource, server, verifier| {
        server
            .http()
            .verify_jwt(verifier)
            .protected_resource(own(resource))
    })
    .await;
    let before = Running::start_with(issuer, |resource, server, verifier| {
        server
            .http()
            .protected_resource(own(resource))
            .verify_jwt(verifier)
    })
    .await;
    for running in [after, before] {
        let document = running.metadata().await;
        assert_eq!(
            document["authorization_servers"],
            json!(["https://other.example.com", issuer])
        );
        assert_eq!(document["resource"], running.resource.as_str());
        assert_eq!(document["scopes_supported"][0], "profile");
    }
}

#[tokio::test]
async fn refused_tokens_never_reach_the_tool() {
    let keys = KeysFile::new("refused");
    let provider = Provider::start(&keys.0).await;
    let server = Running::start(&provider.issuer, |verifier| verifier.leeway(Duration::ZERO)).await;
    let resource = server.resource.as_str();
    let not_verified = "The access token could not be verified.";

    // Issued by the provider for another resource (RFC 8707).
    let other = provider
        .token("writer", "https://other.example.com/mcp", "notes:write")
        .await;
    let reply = server.write(&other, "other resource").await;
    assert_invalid(
        &reply,
        "The access token is not valid for this resource.",
        "other resource",
        "audience",
    );

    // Issued by the provider and expired (its client's tokens live 1 s; no leeway here).
    let brief = provider.token("brief", resource, "notes:write").await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let reply = server.write(&brief, "expired").await;
    assert_invalid(&reply, "The access token is expired.", "expired", "expired");

    // Signed with the same key by another issuer: a second provider sharing the key file.
    let impostor = Provider::start(&keys.0).await;
    let foreign = impostor.token("writer", resource, "notes:write").await;
    let reply = server.write(&foreign, "other issuer").await;
    assert_invalid(&reply, not_verified, "other issuer", "issuer");

    // Signed by the provider's key, with claims it would not issue.
    let base = json!({"iss": provider.issuer, "aud": resource, "sub": "x", "scope": "notes:write"});
    let crafted = [
        ("no exp", json!({})),
        (
            "nbf in the future",
            json!({"exp": now() + 600, "nbf": now() + 300}),
        ),
        (
            "iat in the future",
            json!({"exp": now() + 600, "iat": now() + 300}),
        ),
        ("aud missing", json!({"exp": now() + 600, "aud": null})),
    ];
    for (case, extra) in crafted {
        let mut claims = base.clone();
        for (name, value) in extra.as_object().expect("an object") {
            if value.is_null() {
                claims.as_object_mut().expect("an object").remove(name);
            } else {
                claims[name] = value.clone();
            }
        }
        let token = provider.sign(claims).await;
        let reply = server.write(&token, case).await;
        assert_invalid(&reply, not_verified, case, case);
    }

    // Forged: no signature, an HMAC keyed with the public key, a key of another type, a
    // signature that is not the key's, no `kid`, not a JWT.
    let claims = json!({"iss": provider.issuer, "aud": resource, "exp": now() + 600, "scope": "notes:write"});
    let jwks: Value = reqwest::get(format!("{}/jwks", provider.issuer))
        .await
        .expect("the key set")
        .text()
        .await
        .map(|text| serde_json::from_str(&text).expect("JSON"))
        .expect("a body");
    let public = jwks["keys"][0].to_string();
    let hs256 = {
        let header = URL_SAFE_NO_PAD.encode(json!({"alg": "HS256", "kid": "key-1"}).to_string());
        let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signature = hmac_sha256(public.as_bytes(), format!("{header}.{payload}").as_bytes());
        format!("{header}.{payload}.{}", URL_SAFE_NO_PAD.encode(signature))
    };
    let valid = provider.token("writer", resource, "notes:write").await;
    let (valid_header, _) = valid.split_once('.').expect("a JWT");
    let tampered = format!(
        "{valid_header}.{}.{}",
        URL_SAFE_NO_PAD.encode(claims.to_string()),
        valid.rsplit('.').next().expect("a signature")
    );
    let forged = [
        (
            "alg none",
            format!(
                "{}.{}.",
                URL_SAFE_NO_PAD.encode(r#"{"alg":"none","kid":"key-1"}"#),
                URL_SAFE_NO_PAD.encode(claims.to_string())
            ),
        ),
        ("HS256 with the public key", hs256),
        (
            "ES256 against an RSA key",
            unsigned(json!({"alg": "ES256", "kid": "key-1"}), &claims),
        ),
        (
            "RS384, not accepted",
            unsigned(json!({"alg": "RS384", "kid": "key-1"}), &claims),
        ),
        ("claims swapped under a real signature", tampered),
        ("no kid", unsigned(json!({"alg": "RS256"}), &claims)),
        ("not a JWT", "hello".to_owned()),
    ];
    for (case, token) in forged {
        let reply = server.write(&token, case).await;
        assert_invalid(&reply, not_verified, case, case);
    }

    // And the real token still works.
    let reply = server.write(&valid, "valid").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
}

#[tokio::test]
async fn a_rotated_key_is_fetched_once_and_made_up_kids_are_rate_limited() {
    let keys = KeysFile::new("rotation");
    let provider = Provider::start(&keys.0).await;
    let interval = Duration::from_secs(3);
    let server = Running::start(&provider.issuer, |verifier| {
        verifier.refetch_interval(interval)
    })
    .await;
    let resource = server.resource.as_str();

    let first = provider.token("writer", resource, "notes:write").await;
    assert_eq!(
        server.write(&first, "before rotation").await.status,
        StatusCode::OK
    );
    assert_eq!(
        provider.jwks_requests().await,
        1,
        "fetched once, on the first token"
    );
    assert_eq!(server.write(&first, "again").await.status, StatusCode::OK);
    assert_eq!(provider.jwks_requests().await, 1, "then cached");

    // Made-up kids within the interval: refused, and the keys not fetched again.
    let claims = json!({"iss": provider.issuer, "aud": resource, "exp": now() + 600});
    for n in 0..20 {
        let token = unsigned(
            json!({"alg": "RS256", "kid": format!("made-up-{n}")}),
            &claims,
        );
        assert_invalid(
            &server.write(&token, "made up").await,
            "The access token could not be verified.",
            "made up",
            "made-up kid",
        );
    }
    assert_eq!(
        provider.jwks_requests().await,
        1,
        "no fetch within the interval"
    );

    // Past the interval, 20 made-up kids at once: one fetch between them.
    tokio::time::sleep(interval).await;
    let mut attempts = tokio::task::JoinSet::new();
    for n in 0..20 {
        let token = unsigned(
            json!({"alg": "RS256", "kid": format!("burst-{n}")}),
            &claims,
        );
        let resource = server.resource.clone();
        attempts.spawn(async move { Running { resource }.write(&token, "burst").await.status });
    }
    while let Some(status) = attempts.join_next().await {
        assert_eq!(status.expect("no panic"), StatusCode::UNAUTHORIZED);
    }
    assert_eq!(
        provider.jwks_requests().await,
        2,
        "one fetch for the whole burst"
    );

    // The provider rotates its key: past the interval, its new token fetches the keys once
    // and is accepted; the old key is gone from the set, so its tokens no longer are.
    provider.rotate().await;
    tokio::time::sleep(interval).await;
    let second = provider.token("writer", resource, "notes:write").await;
    let (header, _) = second.split_once('.').expect("a JWT");
    let header: Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(header).expect("base64")).expect("JSON");
    assert_eq!(header["kid"], "key-2");
    let reply = server.write(&second, "after rotation").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    assert_eq!(provider.jwks_requests().await, 3);
    assert_eq!(
        server.write(&second, "after rotation, again").await.status,
        StatusCode::OK
    );
    assert_invalid(
        &server.write(&first, "old key").await,
        "The access token could not be verified.",
        "old key",
        "old key",
    );
    assert_eq!(
        provider.jwks_requests().await,
        3,
        "the old kid is not fetched for again so soon"
    );
}

#[tokio::test]
async fn an_audience_other_than_the_resource_url_replaces_it() {
    let keys = KeysFile::new("audience");
    let provider = Provider::start(&keys.0).await;
    // As Microsoft Entra ID names the API application by its client ID.
    let client_id = "6e74172b-be56-4843-9ff4-e66a39bb12e3";
    let server = Running::start(&provider.issuer, |verifier| verifier.audience(client_id)).await;
    let claims = |aud: &str| json!({"iss": provider.issuer, "aud": aud, "exp": now() + 600, "scope": "notes:write"});
    let token = provider.sign(claims(client_id)).await;
    let reply = server.write(&token, "by client id").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    let token = provider.sign(claims(&server.resource)).await;
    let reply = server.write(&token, "by resource url").await;
    assert_invalid(
        &reply,
        "The access token is not valid for this resource.",
        "by resource url",
        "the resource URL is no longer the audience",
    );
    assert_eq!(
        server.metadata().await["resource"],
        server.resource.as_str()
    );
}

#[tokio::test]
async fn an_http_issuer_needs_the_opt_in() {
    let (resource, issuer) = ("http://127.0.0.1/mcp", "http://127.0.0.1:1");
    let served = |http: HttpServer| async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        http.serve_on(listener).await
    };
    let jwt = Server::new("jwt", "1.0.0")
        .http()
        .verify_jwt(JwtVerifier::new(resource, issuer));
    match served(jwt).await {
        Err(Error::InvalidJwtVerifier(problem)) => {
            assert!(problem.contains("not an https URL"), "{problem}")
        }
        other => panic!("served: {other:?}"),
    }
    let introspector = TokenIntrospector::new(resource, issuer, "id", "secret");
    let introspected = Server::new("introspection", "1.0.0")
        .http()
        .introspect_tokens(introspector);
    match served(introspected).await {
        Err(Error::InvalidTokenIntrospector(problem)) => {
            assert!(problem.contains("not an https URL"), "{problem}")
        }
        other => panic!("served: {other:?}"),
    }
}

/// HMAC-SHA-256 (RFC 2104), for the forged HS256 token.
fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.iter().map(|k| k ^ byte).collect::<Vec<u8>>();
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .to_vec()
}
