//! Opaque access tokens verified by introspection (`HttpServer::introspect_tokens`, RFC 7662,
//! feature `jwt`) against a real authorization server: oidc-provider
//! (`interop/auth/provider.mjs`, pinned in `interop/node`), whose client `opaque` gets opaque
//! client-credentials tokens for the resource asked for, and which our server asks about them
//! as the client `mcp-server`. A token it issued for this server opens the tools its scopes
//! allow and is asked about once while cached; every other token is refused with `401` and an
//! `invalid_token` challenge before any tool runs.
//!
//! Needs `interop/node/node_modules` (`bash interop/setup.sh`, which `scripts/test.sh` runs).

use std::time::Duration;

use mcp_http_tests::auth::{
    KeysFile, Provider, assert_invalid, challenge, serve_resource, written,
};
use mcp_runtime::{Server, TokenIntrospector};
use reqwest::StatusCode;
use serde_json::json;

#[path = "common/notes.rs"]
mod notes;

use notes::Running;

/// Started with its verifier.
impl Running {
    async fn start(
        issuer: &str,
        configure: impl FnOnce(TokenIntrospector) -> TokenIntrospector,
    ) -> Running {
        let resource = serve_resource(|resource| {
            let introspector =
                TokenIntrospector::new(resource, issuer, "mcp-server", "secret").allow_http();
            Server::new("introspection", "1.0.0")
                .http()
                .introspect_tokens(configure(introspector))
        })
        .await;
        Running { resource }
    }
}

const NOT_VERIFIED: &str = "The access token could not be verified.";

#[tokio::test]
async fn an_opaque_token_opens_the_tools_its_scopes_allow_and_is_asked_about_once() {
    let keys = KeysFile::new("introspected");
    let provider = Provider::start(&keys.0).await;
    let server = Running::start(&provider.issuer, |introspector| introspector).await;

    let token = provider
        .token("opaque", &server.resource, "notes:read notes:write")
        .await;
    assert_eq!(token.matches('.').count(), 0, "an opaque token: {token}");
    let reply = server.write(&token, "opaque note").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    // oidc-provider gives a client-credentials token no `sub` (it has no account).
    assert_eq!(
        reply.response()["result"]["content"][0]["text"],
        "? (client opaque) wrote opaque note"
    );
    assert_eq!(provider.introspections().await, 1);
    let reply = server.write(&token, "opaque note again").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    assert_eq!(provider.introspections().await, 1, "the answer was cached");

    // A token without `notes:write`: 403 and the step-up challenge naming it.
    let reader = provider
        .token("opaque", &server.resource, "notes:read")
        .await;
    let reply = server.write(&reader, "reader's note").await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{:?}", reply.messages);
    assert!(
        challenge(&reply).contains("scope=\"notes:write\""),
        "{}",
        challenge(&reply)
    );
    assert!(!written("reader's note"));

    let metadata = server.metadata().await;
    assert_eq!(metadata["resource"], server.resource.as_str());
    assert_eq!(metadata["authorization_servers"], json!([provider.issuer]));
}

#[tokio::test]
async fn refused_tokens_never_reach_the_tool() {
    let keys = KeysFile::new("introspection-refused");
    let provider = Provider::start(&keys.0).await;
    let server = Running::start(&provider.issuer, |introspector| introspector).await;
    let resource = server.resource.as_str();

    // Issued by the provider for another resource (RFC 8707).
    let other = provider
        .token("opaque", "https://other.example.com/mcp", "notes:write")
        .await;
    let reply = server.write(&other, "other resource").await;
    assert_invalid(
        &reply,
        "The access token is not valid for this resource.",
        "other resource",
        "other resource",
    );

    // Never issued.
    let reply = server.write("made-up-token", "made-up").await;
    assert_invalid(&reply, NOT_VERIFIED, "made-up", "made-up");

    // Revoked before its first use.
    let revoked = provider.token("opaque", resource, "notes:write").await;
    provider.revoke("opaque", &revoked).await;
    let reply = server.write(&revoked, "revoked").await;
    assert_invalid(&reply, NOT_VERIFIED, "revoked", "revoked");

    // Living 1 s: accepted, then after its `exp` no longer served from the cache.
    let brief = provider
        .token("opaque-brief", resource, "notes:write")
        .await;
    let reply = server.write(&brief, "brief, in time").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    let asked = provider.introspections().await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let reply = server.write(&brief, "brief, too late").await;
    assert_invalid(&reply, NOT_VERIFIED, "brief, too late", "brief, too late");
    assert_eq!(
        provider.introspections().await,
        asked + 1,
        "asked again past exp"
    );

    // The server's own client secret is wrong: the issuer will not answer it.
    let wrong_secret = Running::start(&provider.issuer, |_| {
        TokenIntrospector::new(resource, &provider.issuer, "mcp-server", "wrong").allow_http()
    })
    .await;
    let token = provider
        .token("opaque", &wrong_secret.resource, "notes:write")
        .await;
    let reply = wrong_secret.write(&token, "wrong secret").await;
    assert_invalid(&reply, NOT_VERIFIED, "wrong secret", "wrong secret");
}

#[tokio::test]
async fn a_revoked_token_is_refused_once_its_cache_entry_ends() {
    let keys = KeysFile::new("introspection-revoked");
    let provider = Provider::start(&keys.0).await;
    let server = Running::start(&provider.issuer, |introspector| {
        introspector.cache_ttl(Duration::ZERO)
    })
    .await;
    let token = provider
        .token("opaque", &server.resource, "notes:write")
        .await;
    let reply = server.write(&token, "before revocation").await;
    assert_eq!(reply.status, StatusCode::OK, "{:?}", reply.messages);
    provider.revoke("opaque", &token).await;
    let reply = server.write(&token, "after revocation").await;
    assert_invalid(&reply, NOT_VERIFIED, "after revocation", "after revocation");
}
