//! Each instance's copy of a session: read from the store once, then trusted while the
//! instance hears the fleet's notes, so that a call reads nothing from Redis. What must hold
//! is what held when every request read the store: a log level set or a DELETE made on one
//! instance holds on every other from the moment its answer comes, round after round, the
//! instance that answers first being each in turn; and a session Redis lost (a restart
//! without persistence) is gone on every instance that held a copy.
//!
//! Three instances of the conformance example (`target/debug/conformance`) against one
//! `redis-server`, talked to directly. Needs redis-server and nginx (the harness starts
//! both), and the example built (`cargo test --workspace` builds it).

use std::time::{Duration, Instant};

use mcp_http_tests::fleet::calls::{call, logs_in, start_request};
use mcp_http_tests::fleet::{Fleet, conformance};
use mcp_http_tests::{EventStream, HttpClient};
use reqwest::StatusCode;
use serde_json::json;

const REVISION: &str = "2025-11-25";

/// Makes a copy of the client's session on every instance, each used twice (the first read
/// from the store, the second served from the copy).
async fn copy_everywhere(fleet: &Fleet, client: &mut HttpClient) {
    for index in 0..fleet.len() {
        client.url = fleet.instance_url(index);
        for _ in 0..2 {
            call(client, "test_simple_text", json!({})).await;
        }
    }
}

async fn set_level(client: &mut HttpClient, level: &str) {
    let set = client
        .request("logging/setLevel", json!({ "level": level }))
        .await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.messages);
    assert!(set.response()["result"].is_object(), "{:?}", set.messages);
}

/// Twenty rounds: a session copied onto every instance; a log level set on one instance
/// holds on the next request to another, twice; a DELETE on one instance makes the next
/// request to every other a 404.
#[tokio::test]
async fn a_change_or_an_end_on_one_instance_holds_on_every_other_at_once() {
    let fleet = Fleet::start(conformance(), 3);
    for round in 0..20 {
        let (first, second, third) = (round % 3, (round + 1) % 3, (round + 2) % 3);
        let mut client = HttpClient::new(fleet.instance_url(first), REVISION);
        client.initialize(json!({})).await;
        copy_everywhere(&fleet, &mut client).await;

        client.url = fleet.instance_url(first);
        set_level(&mut client, "error").await;
        client.url = fleet.instance_url(second);
        let messages = call(&mut client, "test_tool_with_logging", json!({})).await;
        assert_eq!(
            logs_in(&messages),
            0,
            "round {round}: level error set on instance {first}, the call on {second}: {messages:?}"
        );
        set_level(&mut client, "debug").await;
        client.url = fleet.instance_url(third);
        let messages = call(&mut client, "test_tool_with_logging", json!({})).await;
        assert_eq!(
            logs_in(&messages),
            3,
            "round {round}: level debug set on instance {second}, the call on {third}: {messages:?}"
        );

        client.url = fleet.instance_url(third);
        assert_eq!(client.delete().await, StatusCode::OK, "round {round}");
        for index in [first, second, third] {
            client.url = fleet.instance_url(index);
            let after = client.request("tools/list", json!({})).await;
            assert_eq!(
                after.status,
                StatusCode::NOT_FOUND,
                "round {round}: the session ended on instance {third}, tools/list on {index}: {:?}",
                after.messages
            );
        }
    }
}

/// Redis restarted empty (it keeps nothing): every instance's copy of a session it lost is
/// read again, found gone, and answered 404 once Redis is back, as when every request read
/// the store; a new session is then served everywhere.
#[tokio::test]
async fn a_session_redis_lost_is_gone_on_every_instance_that_held_a_copy() {
    let mut fleet = Fleet::start(conformance(), 3);
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client.initialize(json!({})).await;
    copy_everywhere(&fleet, &mut client).await;

    fleet.redis.stop();
    fleet.redis.start_again();
    for index in 0..fleet.len() {
        client.url = fleet.instance_url(index);
        // Until the instance's link to Redis is back, the session's fate is unknown: 503.
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            let reply = client.request("tools/list", json!({})).await;
            if reply.status != StatusCode::SERVICE_UNAVAILABLE || Instant::now() > deadline {
                break reply.status;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(
            status,
            StatusCode::NOT_FOUND,
            "the session Redis lost, on instance {index}"
        );
    }
    client.url = fleet.instance_url(1);
    client.initialize(json!({})).await;
    copy_everywhere(&fleet, &mut client).await;
}

/// A call answered at once is copied to Redis whole (one value, not a list and a hash): a
/// client that lost its stream after the priming event resumes it on every other instance
/// and gets the response, once, and resumed after the response, gets nothing more (204).
#[tokio::test]
async fn a_call_answered_at_once_resumes_on_every_other_instance() {
    let fleet = Fleet::start(conformance(), 3);
    let mut client = HttpClient::new(fleet.instance_url(0), REVISION);
    client.initialize(json!({})).await;
    let (id, mut stream) = start_request(
        &mut client,
        "tools/call",
        json!({ "name": "test_simple_text", "arguments": {} }),
    )
    .await;
    let response = stream.next().await.expect("the response");
    assert_eq!(response["id"], id, "{response}");
    let (priming, answer) = match stream.ids.as_slice() {
        [priming, answer] => (priming.clone(), answer.clone()),
        ids => panic!("a priming event and the response: {ids:?}"),
    };
    for index in 1..fleet.len() {
        client.url = fleet.instance_url(index);
        // The copy is on its way for a few milliseconds: until it lands, the stream is one
        // this instance cannot resume (400).
        let deadline = Instant::now() + Duration::from_secs(5);
        let resumed = loop {
            let resumed = client.resume(&priming).await;
            if resumed.status() != StatusCode::BAD_REQUEST || Instant::now() > deadline {
                break resumed;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(resumed.status(), StatusCode::OK, "instance {index}");
        let mut resumed = EventStream::new(resumed, REVISION);
        let again = resumed.next().await.expect("the response again");
        assert_eq!(again, response, "instance {index}");
        assert_eq!(
            resumed.ids,
            std::slice::from_ref(&answer),
            "instance {index}"
        );
        assert!(
            resumed.next().await.is_none(),
            "instance {index}: only the response"
        );
        assert_eq!(
            client.resume(&answer).await.status(),
            StatusCode::NO_CONTENT,
            "instance {index}: nothing after the response"
        );
    }
}
