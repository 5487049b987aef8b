//! Introspection against a local issuer: what is sent, how many requests run at once, and
//! how often a failed discovery is tried again.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderMap, header};
use axum::routing::{get, post};
use serde_json::json;

use super::{Introspector, MAX_INTROSPECTIONS, TokenIntrospector};

const RESOURCE: &str = "https://mcp.example.com/mcp";

/// What the issuer saw: metadata fetches, introspections, and the most under way at once.
#[derive(Default)]
struct Seen {
    metadata: AtomicUsize,
    introspections: AtomicUsize,
    under_way: AtomicUsize,
    most_under_way: AtomicUsize,
}

/// An issuer on a loopback port whose introspection endpoint (listed only if `listed`)
/// answers `active` for any token sent as this test sends it, after 100 ms.
async fn issuer(listed: bool, seen: Arc<Seen>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let origin = format!("http://{}", listener.local_addr().expect("an address"));
    let mut metadata = json!({"issuer": origin});
    if listed {
        metadata["introspection_endpoint"] = json!(format!("{origin}/introspect"));
    }
    let (on_metadata, on_introspection) = (Arc::clone(&seen), seen);
    let router = Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || {
                on_metadata.metadata.fetch_add(1, Ordering::SeqCst);
                let body = metadata.to_string();
                async move { ([(header::CONTENT_TYPE, "application/json")], body) }
            }),
        )
        .route(
            "/introspect",
            post(move |headers: HeaderMap, body: String| {
                let seen = Arc::clone(&on_introspection);
                async move {
                    seen.introspections.fetch_add(1, Ordering::SeqCst);
                    let now = seen.under_way.fetch_add(1, Ordering::SeqCst) + 1;
                    seen.most_under_way.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    seen.under_way.fetch_sub(1, Ordering::SeqCst);
                    let sent_right = headers[header::AUTHORIZATION] == "Basic aWQ6cyUyMDE="
                        && headers[header::CONTENT_TYPE] == "application/x-www-form-urlencoded"
                        && body.starts_with("token=t%2B")
                        && body.ends_with("&token_type_hint=access_token");
                    json!({"active": sent_right, "aud": RESOURCE}).to_string()
                }
            }),
        );
    tokio::spawn(async move { axum::serve(listener, router).await });
    origin
}

/// An introspector of the local issuer (see [`issuer`]), and what that issuer sees.
async fn introspecting(listed: bool) -> (Arc<Seen>, Arc<Introspector>) {
    let seen = Arc::new(Seen::default());
    let origin = issuer(listed, Arc::clone(&seen)).await;
    let introspector = TokenIntrospector::new(RESOURCE, origin, "id", "s 1")
        .allow_http()
        .start();
    (seen, introspector)
}

#[tokio::test]
async fn introspections_are_bounded_and_active_answers_reused() {
    let (seen, introspector) = introspecting(true).await;
    let tokens = 3 * MAX_INTROSPECTIONS;
    let requests = (0..tokens).map(|n| {
        let introspector = Arc::clone(&introspector);
        tokio::spawn(async move { introspector.claims(&format!("t+{n}")).await })
    });
    for request in requests.collect::<Vec<_>>() {
        assert!(request.await.expect("no panic").is_ok());
    }
    assert_eq!(seen.introspections.load(Ordering::SeqCst), tokens);
    assert_eq!(seen.metadata.load(Ordering::SeqCst), 1, "discovered once");
    let most = seen.most_under_way.load(Ordering::SeqCst);
    assert!(most <= MAX_INTROSPECTIONS, "{most} at once");
    // Cached: asked no more.
    assert!(introspector.claims("t+0").await.is_ok());
    assert_eq!(seen.introspections.load(Ordering::SeqCst), tokens);
}

#[tokio::test]
async fn a_failed_discovery_is_not_tried_again_at_once() {
    let (seen, introspector) = introspecting(false).await;
    for _ in 0..3 {
        assert!(introspector.claims("t+1").await.is_err());
    }
    assert_eq!(seen.metadata.load(Ordering::SeqCst), 1);
    assert_eq!(seen.introspections.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn requests_bringing_one_new_token_share_one_introspection() {
    let (seen, introspector) = introspecting(true).await;
    // Accepted and refused tokens alike: a refusal is shared by the requests waiting for it.
    for (token, accepted) in [("t+new", true), ("refused", false)] {
        let before = seen.introspections.load(Ordering::SeqCst);
        let requests = (0..10).map(|_| {
            let introspector = Arc::clone(&introspector);
            tokio::spawn(async move { introspector.claims(token).await })
        });
        for request in requests.collect::<Vec<_>>() {
            assert_eq!(
                request.await.expect("no panic").is_ok(),
                accepted,
                "{token}"
            );
        }
        assert_eq!(
            seen.introspections.load(Ordering::SeqCst),
            before + 1,
            "{token}"
        );
        assert_eq!(introspector.under_way.len(), 0, "{token}: nothing kept");
    }
    // A refusal is not kept: the token is asked about again.
    assert!(introspector.claims("refused").await.is_err());
    assert_eq!(seen.introspections.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn an_introspection_its_first_request_drops_is_run_by_the_next() {
    let (_, introspector) = introspecting(true).await;
    let request = |token: &'static str| {
        let introspector = Arc::clone(&introspector);
        tokio::spawn(async move { introspector.claims(token).await })
    };
    // The issuer answers after 100 ms: both requests wait for the first one's introspection.
    let (first, second) = (request("t+dropped"), request("t+dropped"));
    tokio::time::sleep(Duration::from_millis(40)).await;
    first.abort();
    assert!(first.await.expect_err("aborted").is_cancelled());
    assert!(second.await.expect("no panic").is_ok());
    assert_eq!(introspector.under_way.len(), 0);
    // All of its requests dropped, an introspection leaves nothing behind.
    let alone = request("t+alone");
    tokio::time::sleep(Duration::from_millis(40)).await;
    alone.abort();
    let _ = alone.await;
    assert_eq!(introspector.under_way.len(), 0);
}
