//! The client side of the fleet tests, shared by their files: calls made through a fleet
//! (started, finished across SSE polling's closed streams with `Last-Event-ID`) and the
//! look of the messages they bring back.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{EventStream, HttpClient};

/// Whether `message` is a response (not a request or notification).
pub fn is_response(message: &Value) -> bool {
    message.get("method").is_none() && message.get("id").is_some()
}

/// Whether `message` is the response to the request `id`.
pub fn is_response_to(message: &Value, id: &Value) -> bool {
    is_response(message) && message["id"] == *id
}

/// The number of log notifications (`notifications/message`) among `messages`.
pub fn logs_in(messages: &[Value]) -> usize {
    messages
        .iter()
        .filter(|message| message["method"] == "notifications/message")
        .count()
}

/// Sends a request at `client.url` and returns its id and its response stream (which must
/// be a 200).
pub async fn start_request(
    client: &mut HttpClient,
    method: &str,
    params: Value,
) -> (Value, EventStream) {
    let body = client.request_body(method, params);
    let response = client.post_raw(client.request_headers(&body), &body).await;
    let status = response.status();
    if status != StatusCode::OK {
        let text = response.text().await.unwrap_or_default();
        panic!("{method} at {}: {status} {text}", client.url);
    }
    (
        body["id"].clone(),
        EventStream::new(response, &client.revision),
    )
}

/// Reads `stream` until the response to `id`; while the server closes the stream before it
/// (SSE polling: the conformance example closes 2025-11-25 call streams after 300 ms),
/// resumes it with `Last-Event-ID` at `client.url`. Returns every message, the response
/// last.
pub async fn finish(client: &HttpClient, mut stream: EventStream, id: &Value) -> Vec<Value> {
    let mut messages = Vec::new();
    for _ in 0..30 {
        while let Some(message) = stream.next().await {
            let done = is_response_to(&message, id);
            messages.push(message);
            if done {
                return messages;
            }
        }
        let last = stream
            .ids
            .last()
            .unwrap_or_else(|| panic!("request {id}'s stream ended with no event id: {messages:?}"))
            .clone();
        let resumed = client.resume(&last).await;
        let status = resumed.status();
        if status != StatusCode::OK {
            let text = resumed.text().await.unwrap_or_default();
            panic!(
                "resuming request {id}'s stream at {} from {last}: {status} {text}",
                client.url
            );
        }
        stream = EventStream::new(resumed, &client.revision);
    }
    panic!("no response to {id} after 30 resumptions: {messages:?}")
}

/// Calls a tool at `client.url` and reads its answer (resuming at the same URL if the
/// server closes the stream mid-call); the response is last.
pub async fn call(client: &mut HttpClient, name: &str, arguments: Value) -> Vec<Value> {
    let (id, stream) = start_request(
        client,
        "tools/call",
        json!({ "name": name, "arguments": arguments }),
    )
    .await;
    let messages = finish(client, stream, &id).await;
    let response = messages.last().expect("the response");
    assert!(
        response.get("result").is_some(),
        "{name} at {}: {response}",
        client.url
    );
    messages
}
