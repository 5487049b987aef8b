//! `RedisFleetStore` against a real `redis-server`: session records and their expiry, stream
//! events (order, trimming, the atomic end), heartbeats, and messages between instances,
//! also across a restart of Redis.
//!
//! Run with `cargo test -p mcp-runtime --features redis,testing --test redis_fleet_store`
//! (needs `redis-server`: `apt-get install redis-server`).

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use mcp_runtime::fleet::{
    FleetStore, RedisFleetStore, RedisLink, SessionChange, SessionRecord, StreamBounds,
    StreamEvent, StreamKey, StreamOrigin,
};
use mcp_runtime::testing::RedisServer;
use serde_json::json;

fn store(redis: &RedisServer, prefix: &str) -> RedisFleetStore {
    RedisFleetStore::new(RedisLink::open(&redis.url(), prefix).expect("a Redis URL"))
}

fn stream(session: &str, number: u64) -> StreamKey {
    StreamKey {
        session: session.to_owned(),
        number,
    }
}

const IDLE: Duration = Duration::from_secs(60);

/// At most `events` events and 1 MiB, kept a minute.
fn bounds(events: usize) -> StreamBounds {
    StreamBounds::new(events, 1 << 20, IDLE)
}

#[tokio::test]
async fn sessions_are_created_loaded_saved_and_removed() {
    let redis = RedisServer::start();
    let (one, other) = (store(&redis, "a:"), store(&redis, "a:"));
    let mut record = SessionRecord::new("2025-11-25", "connection:1");
    record.client_info = Some(json!({ "name": "client", "version": "1" }));
    one.create_session("s1", &record, IDLE).await.unwrap();
    assert_eq!(
        other.load_session("s1", IDLE).await.unwrap(),
        Some(record.clone())
    );

    record.log_level = Some("debug".into());
    record.subscriptions.insert("notes://1".into());
    other.save_session("s1", &record, IDLE).await.unwrap();
    assert_eq!(
        one.load_session("s1", IDLE).await.unwrap(),
        Some(record.clone())
    );

    // Another prefix is another server.
    assert_eq!(
        store(&redis, "b:").load_session("s1", IDLE).await.unwrap(),
        None
    );

    assert!(one.remove_session("s1").await.unwrap());
    assert!(!other.remove_session("s1").await.unwrap());
    assert_eq!(other.load_session("s1", IDLE).await.unwrap(), None);
    // Saving an ended session does not bring it back.
    other.save_session("s1", &record, IDLE).await.unwrap();
    assert_eq!(one.load_session("s1", IDLE).await.unwrap(), None);
}

#[tokio::test]
async fn changes_two_instances_make_to_one_session_at_once_are_all_kept() {
    let redis = RedisServer::start();
    let (one, other) = (store(&redis, "c:"), store(&redis, "c:"));
    let mut record = SessionRecord::new("2025-11-25", "connection:1");
    record.subscriptions.insert("notes://kept".into());
    record.subscriptions.insert("notes://dropped".into());
    one.create_session("s", &record, IDLE).await.unwrap();
    // What each instance's copy saw change, from the same record: with whole records
    // saved, the last save would have lost the other's subscription.
    let subscribed = |uri: &str| {
        let mut after = record.clone();
        after.subscriptions.insert(uri.into());
        SessionChange::between(&record, &after)
    };
    let mut dropped = record.clone();
    dropped.subscriptions.remove("notes://dropped");
    dropped.log_level = Some("warning".into());
    let (a, b, c) = (
        subscribed("notes://a"),
        subscribed("notes://b"),
        SessionChange::between(&record, &dropped),
    );
    let changed = tokio::join!(
        one.change_session("s", &a, IDLE),
        other.change_session("s", &b, IDLE),
        other.change_session("s", &c, IDLE),
    );
    changed.0.unwrap();
    changed.1.unwrap();
    changed.2.unwrap();
    let loaded = one.load_session("s", IDLE).await.unwrap().unwrap();
    let uris: Vec<&str> = loaded.subscriptions.iter().map(String::as_str).collect();
    assert_eq!(uris, ["notes://a", "notes://b", "notes://kept"]);
    assert_eq!(loaded.log_level.as_deref(), Some("warning"));
    assert_eq!(loaded.protocol_version, "2025-11-25");

    // An ended session stays ended, and its subscriptions go with it.
    assert!(one.remove_session("s").await.unwrap());
    other.change_session("s", &a, IDLE).await.unwrap();
    assert_eq!(one.load_session("s", IDLE).await.unwrap(), None);
    one.create_session("s", &SessionRecord::new("2025-11-25", "connection:2"), IDLE)
        .await
        .unwrap();
    let fresh = one.load_session("s", IDLE).await.unwrap().unwrap();
    assert!(fresh.subscriptions.is_empty(), "{fresh:?}");
}

#[tokio::test]
async fn a_session_expires_when_unused_and_each_use_pushes_its_expiry_back() {
    let redis = RedisServer::start();
    let store = store(&redis, "a:");
    let idle = Duration::from_millis(400);
    let record = SessionRecord::new("2025-06-18", "connection:2");
    store.create_session("s", &record, idle).await.unwrap();
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(store.load_session("s", idle).await.unwrap().is_some());
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(store.load_session("s", idle).await.unwrap(), None);
}

#[tokio::test]
async fn stream_events_are_kept_in_order_trimmed_and_end_once() {
    let redis = RedisServer::start();
    let (runner, reader) = (store(&redis, "a:"), store(&redis, "a:"));
    let key = stream("s", 7);
    let origin = StreamOrigin::new("instance-a", json!([3]));
    assert_eq!(reader.read_events(&key, None).await.unwrap(), None);
    // Without an origin, a stream not stored takes nothing.
    let lone = [StreamEvent::new(0, "x", false)];
    assert!(!append(&runner, &key, None, &lone, bounds(4)).await);

    // The first write creates the stream; a batch lands in order.
    let first: Vec<StreamEvent> = (0..3).map(event).collect();
    assert!(append(&runner, &key, Some(&origin), &first, bounds(4)).await);
    for seq in 3..6 {
        assert!(append(&runner, &key, Some(&origin), &[event(seq)], bounds(4)).await);
    }
    let read = reader.read_events(&key, None).await.unwrap().unwrap();
    let seqs: Vec<u64> = read.events.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(seqs, [2, 3, 4, 5], "the newest 4 are kept");
    assert_eq!(read.events[0].1, "event 2: with a colon");
    assert!(!read.ended);
    assert_eq!(read.runner, "instance-a");
    assert_eq!(read.requests, json!([3]));
    let after = reader.read_events(&key, Some(4)).await.unwrap().unwrap();
    assert_eq!(after.events, [(5, "event 5: with a colon".to_owned())]);

    // Two instances end the stream at once (the runner's response, another's error for a
    // runner it took for dead): exactly one lands.
    let response = [StreamEvent::new(6, "response", true)];
    let error = [StreamEvent::new(6, "error", true)];
    let (response, error) = tokio::join!(
        append(&runner, &key, Some(&origin), &response, bounds(4)),
        append(&reader, &key, None, &error, bounds(4)),
    );
    assert!(response ^ error, "exactly one end lands");
    let ended = reader.read_events(&key, Some(5)).await.unwrap().unwrap();
    assert!(ended.ended);
    assert_eq!(ended.events.len(), 1);
    assert!(!append(&runner, &key, Some(&origin), &[event(7)], bounds(4)).await);
}

/// A resumed stream reads from the newest event back, as far as the events after its
/// cursor can reach: right also where events were dropped (numbers skipped) or trimmed.
#[tokio::test]
async fn events_after_a_cursor_are_read_from_the_newest_back() {
    let redis = RedisServer::start();
    let store = store(&redis, "a:");
    let key = stream("s", 8);
    let origin = StreamOrigin::new("i", json!([1]));
    let gapped: Vec<StreamEvent> = [0, 1, 5, 6, 10].into_iter().map(event).collect();
    assert!(append(&store, &key, Some(&origin), &gapped, bounds(4)).await);
    let after = |cursor| {
        let store = &store;
        let key = &key;
        async move {
            let read = store.read_events(key, cursor).await.unwrap().unwrap();
            read.events
                .iter()
                .map(|(seq, _)| *seq)
                .collect::<Vec<u64>>()
        }
    };
    assert_eq!(after(None).await, [1, 5, 6, 10], "the newest 4 are kept");
    assert_eq!(after(Some(0)).await, [1, 5, 6, 10]);
    assert_eq!(after(Some(1)).await, [5, 6, 10]);
    assert_eq!(after(Some(5)).await, [6, 10]);
    assert_eq!(after(Some(7)).await, [10]);
    assert_eq!(after(Some(10)).await, Vec::<u64>::new());
    assert_eq!(after(Some(99)).await, Vec::<u64>::new());
    // A stream's last event is kept even when numbered below the newest (an error for a dead
    // runner, numbered after the reader's cursor).
    assert!(
        append(
            &store,
            &key,
            None,
            &[StreamEvent::new(7, "end", true)],
            bounds(4)
        )
        .await
    );
    let read = store.read_events(&key, Some(6)).await.unwrap().unwrap();
    assert!(read.ended);
    assert_eq!(read.events.last(), Some(&(7, "end".to_owned())));
}

/// Event `seq`, not the last.
fn event(seq: u64) -> StreamEvent {
    StreamEvent::new(seq, format!("event {seq}: with a colon"), false)
}

async fn append(
    store: &RedisFleetStore,
    key: &StreamKey,
    origin: Option<&StreamOrigin>,
    events: &[StreamEvent],
    bounds: StreamBounds,
) -> bool {
    store
        .append_events(key, origin, events, bounds)
        .await
        .unwrap()
}

#[tokio::test]
async fn stream_events_are_trimmed_to_their_bytes_but_the_newest_is_kept() {
    let redis = RedisServer::start();
    let store = store(&redis, "a:");
    let key = stream("s", 9);
    let origin = StreamOrigin::new("i", json!([1]));
    let kilobyte: Vec<StreamEvent> = (0..5)
        .map(|seq| StreamEvent::new(seq, "k".repeat(1000), false))
        .collect();
    let small = StreamBounds::new(100, 2500, IDLE);
    assert!(append(&store, &key, Some(&origin), &kilobyte, small).await);
    let read = store.read_events(&key, None).await.unwrap().unwrap();
    let seqs: Vec<u64> = read.events.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(seqs, [3, 4], "two events of about 1 KB fit in 2.5 KB");
    let huge = "h".repeat(10_000);
    let last = [StreamEvent::new(5, huge.as_str(), true)];
    assert!(append(&store, &key, Some(&origin), &last, small).await);
    let read = store.read_events(&key, None).await.unwrap().unwrap();
    assert_eq!(
        read.events,
        [(5, huge)],
        "the newest is kept, whatever its size"
    );
}

#[tokio::test]
async fn heartbeats_expire() {
    let redis = RedisServer::start();
    let store = store(&redis, "a:");
    assert!(!store.is_alive("i1").await.unwrap());
    store
        .heartbeat("i1", Duration::from_millis(300))
        .await
        .unwrap();
    assert!(store.is_alive("i1").await.unwrap());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!store.is_alive("i1").await.unwrap());
}

#[tokio::test]
async fn messages_reach_every_subscriber_also_after_redis_restarts() {
    let mut redis = RedisServer::start();
    let (one, other) = (store(&redis, "a:"), store(&redis, "a:"));
    let mut heard = other.subscribe();
    let mut heard_by_sender = one.subscribe();
    // Subscribing happens in the background, for each subscriber on its own: publish until
    // both have heard, the sender's own subscription too.
    publish_until_heard(&one, [&mut heard, &mut heard_by_sender], "hello").await;
    // Another prefix hears nothing of it.
    let mut elsewhere = store(&redis, "b:").subscribe();
    one.publish("not for b").await.unwrap();
    assert!(
        tokio::time::timeout(Duration::from_millis(300), elsewhere.next())
            .await
            .is_err()
    );

    redis.stop();
    let started = Instant::now();
    let failed = one.publish("lost").await;
    assert!(failed.is_err(), "publishing while Redis is down fails");
    assert!(started.elapsed() < Duration::from_secs(5), "and fails fast");
    let message = failed.unwrap_err().to_string();
    assert!(message.contains("cannot reach Redis"), "{message}");

    redis.start_again();
    publish_until_heard(&one, [&mut heard, &mut heard_by_sender], "back").await;
}

/// Publishes `message` every 100 ms until each subscriber has heard it (at most 10 s); other
/// messages and repeats are skipped.
async fn publish_until_heard<const N: usize>(
    store: &RedisFleetStore,
    mut subscribers: [&mut mcp_runtime::fleet::FleetMessages; N],
    message: &str,
) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut heard = [false; N];
    while !heard.iter().all(|heard| *heard) {
        assert!(
            Instant::now() < deadline,
            "not every subscriber heard {message:?}: {heard:?}"
        );
        let _ = store.publish(message).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        for (subscriber, heard) in subscribers.iter_mut().zip(heard.iter_mut()) {
            while let Ok(Some(text)) =
                tokio::time::timeout(Duration::from_millis(1), subscriber.next()).await
            {
                *heard |= text == message;
            }
        }
    }
}
