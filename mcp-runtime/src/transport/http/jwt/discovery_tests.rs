//! Discovery and fetching against a local issuer: where the metadata is looked for, what
//! of it is trusted, and the bounds on what is fetched.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::get;
use serde_json::{Value, json};

use super::fetch::{MAX_DOCUMENT_BYTES, fetchable};
use super::keys::{Keys, Missing};

const HOUR: Duration = Duration::from_secs(3600);

/// A key set with one RSA key, `kid`.
fn key_set(kid: &str) -> Value {
    json!({"keys": [{"kty": "RSA", "kid": kid, "n": "sXch", "e": "AQAB"}]})
}

/// Serves `routes` on a loopback port; its origin.
async fn issuer(routes: impl FnOnce(&str) -> Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let origin = format!("http://{}", listener.local_addr().expect("an address"));
    let router = routes(&origin);
    tokio::spawn(async move { axum::serve(listener, router).await });
    origin
}

fn json_route(value: Value) -> axum::routing::MethodRouter {
    let body = value.to_string();
    get(move || async move {
        (
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            body,
        )
    })
}

fn unreachable(result: Result<Arc<super::keys::Key>, Missing>) -> String {
    match result {
        Err(Missing::Unreachable(why)) => why,
        Err(Missing::Unknown) => panic!("unknown, not unreachable"),
        Ok(_) => panic!("a key"),
    }
}

#[tokio::test]
async fn rfc_8414_metadata_comes_first_and_openid_configuration_is_the_fallback() {
    let openid_asked = Arc::new(AtomicUsize::new(0));
    let asked = Arc::clone(&openid_asked);
    let both = issuer(move |origin| {
        Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                json_route(json!({"issuer": origin, "jwks_uri": format!("{origin}/keys")})),
            )
            .route(
                "/.well-known/openid-configuration",
                get(move || {
                    asked.fetch_add(1, Ordering::SeqCst);
                    async { StatusCode::NOT_FOUND }
                }),
            )
            .route("/keys", json_route(key_set("a")))
    })
    .await;
    let keys = Keys::new(both, true, Duration::ZERO, HOUR);
    assert!(keys.key("a").await.is_ok());
    assert_eq!(openid_asked.load(Ordering::SeqCst), 0);

    let openid_only = issuer(|origin| {
        Router::new()
            .route(
                "/.well-known/openid-configuration",
                json_route(json!({"issuer": origin, "jwks_uri": format!("{origin}/keys")})),
            )
            .route("/keys", json_route(key_set("b")))
    })
    .await;
    let keys = Keys::new(openid_only, true, Duration::ZERO, HOUR);
    assert!(keys.key("b").await.is_ok());
}

#[tokio::test]
async fn metadata_of_another_issuer_or_without_keys_is_not_trusted() {
    let other = issuer(|origin| {
        Router::new().route(
            "/.well-known/oauth-authorization-server",
            json_route(
                json!({"issuer": "https://evil.example.com", "jwks_uri": format!("{origin}/keys")}),
            ),
        )
    })
    .await;
    let why = unreachable(Keys::new(other, true, Duration::ZERO, HOUR).key("a").await);
    assert!(why.contains("is not"), "{why}");

    let keyless = issuer(|origin| {
        Router::new().route(
            "/.well-known/oauth-authorization-server",
            json_route(json!({"issuer": origin})),
        )
    })
    .await;
    let why = unreachable(
        Keys::new(keyless, true, Duration::ZERO, HOUR)
            .key("a")
            .await,
    );
    assert!(why.contains("no jwks_uri"), "{why}");
}

#[tokio::test]
async fn documents_over_the_bound_and_failed_answers_are_refused() {
    let huge = issuer(|origin| {
        Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                json_route(json!({"issuer": origin, "jwks_uri": format!("{origin}/keys")})),
            )
            .route(
                "/keys",
                json_route(json!({"keys": [], "padding": "x".repeat(MAX_DOCUMENT_BYTES)})),
            )
    })
    .await;
    let why = unreachable(Keys::new(huge, true, Duration::ZERO, HOUR).key("a").await);
    assert!(
        why.contains(&format!("at most {MAX_DOCUMENT_BYTES} bytes")),
        "{why}"
    );

    let failing = issuer(|_| Router::new()).await;
    let why = unreachable(
        Keys::new(failing, true, Duration::ZERO, HOUR)
            .key("a")
            .await,
    );
    assert!(why.contains("404"), "{why}");
}

#[tokio::test]
async fn an_unreachable_issuer_is_asked_again_only_after_the_interval() {
    // A port nobody listens on: bound, then closed.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let closed = format!("http://{}", listener.local_addr().expect("an address"));
    drop(listener);
    let keys = Keys::new(closed, true, HOUR, HOUR);
    unreachable(keys.key("a").await);
    assert!(matches!(keys.key("a").await, Err(Missing::Unknown)));
}

#[tokio::test]
async fn http_is_fetched_only_when_allowed() {
    assert!(fetchable("https://auth.example.com", false));
    assert!(!fetchable("http://auth.example.com", false));
    assert!(fetchable("http://127.0.0.1:1", true));
    assert!(!fetchable("ftp://auth.example.com", true));
    // Even when asked to, the client itself refuses http without the opt-in.
    let served = issuer(|origin| {
        Router::new().route(
            "/.well-known/oauth-authorization-server",
            json_route(json!({"issuer": origin, "jwks_uri": format!("{origin}/keys")})),
        )
    })
    .await;
    let why = unreachable(
        Keys::new(served, false, Duration::ZERO, HOUR)
            .key("a")
            .await,
    );
    assert!(why.contains("unsupported scheme http"), "{why}");
}

#[tokio::test]
async fn aged_keys_are_fetched_again_and_still_serve_while_the_issuer_is_down() {
    // The key set the issuer publishes (changed below); `None`: it answers 503.
    let published = Arc::new(std::sync::Mutex::new(Some(key_set("a"))));
    let state = Arc::clone(&published);
    let origin = issuer(move |origin| {
        Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                json_route(json!({"issuer": origin, "jwks_uri": format!("{origin}/keys")})),
            )
            .route(
                "/keys",
                get(move || {
                    let set = state.lock().expect("not poisoned").clone();
                    async move {
                        match set {
                            Some(set) => (StatusCode::OK, set.to_string()),
                            None => (StatusCode::SERVICE_UNAVAILABLE, String::new()),
                        }
                    }
                }),
            )
    })
    .await;
    // Every use finds the keys aged; no refetch interval.
    let keys = Keys::new(origin.clone(), true, Duration::ZERO, Duration::ZERO);
    assert!(keys.key("a").await.is_ok());
    // The issuer is down: the aged key still serves.
    *published.lock().expect("not poisoned") = None;
    assert!(keys.key("a").await.is_ok());
    // The issuer withdrew it: the next use fetches the set again and no longer finds it.
    *published.lock().expect("not poisoned") = Some(key_set("b"));
    assert!(matches!(keys.key("a").await, Err(Missing::Unknown)));
    assert!(keys.key("b").await.is_ok());

    // Within the refetch interval an aged key serves without a fetch, withdrawn or not.
    let keys = Keys::new(origin, true, HOUR, Duration::ZERO);
    assert!(keys.key("b").await.is_ok());
    *published.lock().expect("not poisoned") = Some(key_set("c"));
    assert!(keys.key("b").await.is_ok());
}
