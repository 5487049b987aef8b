//! `RedisFleetStore` against a real `redis-server`: session records and their expiry, stream
//! events (order, trimming, the atomic end), heartbeats, keys recorded once, and messages
//! between instances, also across a restart of Redis, a stall of Redis, and a subscription
//! cut off in silence.
//!
//! Run with `cargo test -p mcp-runtime --features redis,testing --test redis_fleet_store`
//! (needs `redis-server`: `apt-get install redis-server`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use mcp_runtime::fleet::{
    FleetStore, RedisFleetStore, RedisLink, SUBSCRIBED, SessionChange, SessionRecord, StreamAppend,
    StreamBounds, StreamEvent, StreamEvents, StreamKey, StreamOrigin, UNSUBSCRIBED,
};
use mcp_runtime::testing::RedisServer;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

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

/// Appends to several streams in one call: each as its own append would, whatever its
/// neighbours, and an append sent again (after a timeout, say) is not doubled.
#[tokio::test]
async fn appends_to_many_streams_at_once_are_each_as_alone() {
    let redis = RedisServer::start();
    let store = store(&redis, "a:");
    let origin = StreamOrigin::new("i", json!([1]));
    let (running, answered, unknown, empty) = (
        stream("s", 1),
        stream("s", 2),
        stream("s", 3),
        stream("s", 4),
    );
    assert!(append(&store, &running, Some(&origin), &[event(0)], bounds(4)).await);
    let more = [event(1), event(2)];
    let whole = [event(0), StreamEvent::new(1, "response", true)];
    let appends = [
        StreamAppend::new(&running, Some(&origin), &more, bounds(4)),
        StreamAppend::new(&answered, Some(&origin), &whole, bounds(4)),
        StreamAppend::new(&unknown, None, &more, bounds(4)),
        StreamAppend::new(&empty, Some(&origin), &[], bounds(4)),
    ];
    let added = store.append_many(&appends).await.unwrap();
    assert_eq!(added, [true, true, false, false]);
    // Sent again: the running stream's events are already there, the answered one ended.
    let again = store.append_many(&appends).await.unwrap();
    assert_eq!(again, [true, false, false, false]);
    let seqs = |read: StreamEvents| read.events.iter().map(|(seq, _)| *seq).collect::<Vec<_>>();
    let read = store.read_events(&running, None).await.unwrap().unwrap();
    assert!(!read.ended);
    assert_eq!(seqs(read), [0, 1, 2]);
    let read = store.read_events(&answered, None).await.unwrap().unwrap();
    assert!(read.ended);
    assert_eq!(read.events[1], (1, "response".to_owned()));
    assert_eq!(read.runner, "i");
    assert!(store.read_events(&unknown, None).await.unwrap().is_none());
    assert!(store.read_events(&empty, None).await.unwrap().is_none());
}

/// A stream appended whole (its first event to its last, as a call answered at once has it)
/// reads as any other: after a cursor, trimmed to its bounds, ended, with its origin; its
/// data kept byte for byte; appended again, it is not doubled, and no later append lands.
#[tokio::test]
async fn a_stream_appended_whole_reads_as_any_other() {
    let redis = RedisServer::start();
    let store = store(&redis, "a:");
    let key = stream("s", 5);
    let origin = StreamOrigin::new("instance-a", json!([7, "eight"]));
    let mut whole: Vec<StreamEvent> = (0..6).map(event).collect();
    whole.push(StreamEvent::new(6, "line one\nline: two", true));
    whole.push(StreamEvent::new(7, "after the last", false));
    assert!(append(&store, &key, Some(&origin), &whole, bounds(4)).await);
    let read = store.read_events(&key, None).await.unwrap().unwrap();
    assert!(read.ended);
    assert_eq!(read.runner, "instance-a");
    assert_eq!(read.requests, json!([7, "eight"]));
    let seqs: Vec<u64> = read.events.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(seqs, [3, 4, 5, 6], "the newest 4 up to the last are kept");
    assert_eq!(read.events[3].1, "line one\nline: two");
    let after = store.read_events(&key, Some(4)).await.unwrap().unwrap();
    assert_eq!(after.events.len(), 2);
    assert_eq!(after.events[0], (5, "event 5: with a colon".to_owned()));
    assert!(!append(&store, &key, Some(&origin), &whole, bounds(4)).await);
    assert!(
        !append(
            &store,
            &key,
            None,
            &[StreamEvent::new(8, "error", true)],
            bounds(4)
        )
        .await
    );
    let read = store.read_events(&key, None).await.unwrap().unwrap();
    assert_eq!(read.events.len(), 4);
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
async fn a_key_is_recorded_once_per_prefix_until_its_ttl() {
    let redis = RedisServer::start();
    let (one, other) = (store(&redis, "a:"), store(&redis, "a:"));
    let ttl = Duration::from_millis(300);
    assert_eq!(one.record_once("k", ttl).await.unwrap(), Some(true));
    assert_eq!(other.record_once("k", ttl).await.unwrap(), Some(false));
    assert_eq!(other.record_once("j", ttl).await.unwrap(), Some(true));
    let elsewhere = store(&redis, "b:");
    assert_eq!(elsewhere.record_once("k", ttl).await.unwrap(), Some(true));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(one.record_once("k", ttl).await.unwrap(), Some(true));
}

#[tokio::test]
async fn messages_reach_every_subscriber_also_after_redis_restarts() {
    let mut redis = RedisServer::start();
    let (one, other) = (store(&redis, "a:"), store(&redis, "a:"));
    let mut heard = other.subscribe();
    let mut heard_by_sender = one.subscribe();
    // Subscribing happens in the background, for each subscriber on its own: publish until
    // both have heard, the sender's own subscription too.
    let seen = publish_until_heard(&one, [&mut heard, &mut heard_by_sender], "hello").await;
    assert_eq!(
        seen[0].first().map(String::as_str),
        Some(SUBSCRIBED),
        "a subscriber hears first that it subscribed: {seen:?}"
    );
    // Both subscriptions received a message, as the store counts them.
    assert_eq!(one.publish_counted("counted").await.unwrap(), Some(2));
    // Another prefix hears nothing of it, once subscribed.
    let mut elsewhere = store(&redis, "b:").subscribe();
    let subscribed = tokio::time::timeout(Duration::from_secs(5), elsewhere.next()).await;
    assert_eq!(subscribed.unwrap().as_deref(), Some(SUBSCRIBED));
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
    let seen = publish_until_heard(&one, [&mut heard, &mut heard_by_sender], "back").await;
    // What was published while a subscription was broken may be lost: each says when it
    // broke and when it was made again, in that order.
    for seen in seen {
        let broke = seen.iter().position(|text| text == UNSUBSCRIBED);
        let again = seen.iter().position(|text| text == SUBSCRIBED);
        assert!(
            broke.is_some() && again.is_some() && broke < again,
            "the subscription broke, then was made again: {seen:?}"
        );
    }
}

#[tokio::test]
async fn a_subscription_cut_off_in_silence_is_made_again() {
    let redis = RedisServer::start();
    let relay = Relay::start(redis.port()).await;
    let through_relay = RedisFleetStore::new(RedisLink::open(&relay.url(), "s:").unwrap());
    let mut heard = through_relay.subscribe();
    let subscribed = tokio::time::timeout(Duration::from_secs(5), heard.next()).await;
    assert_eq!(subscribed.unwrap().as_deref(), Some(SUBSCRIBED));
    // As a NAT that forgot the connection: it stays open and nothing passes any more, while
    // Redis is well and new connections get through.
    relay.cut_off_open_connections();
    let broke = tokio::time::timeout(Duration::from_secs(15), heard.next()).await;
    assert_eq!(
        broke.expect("a connection cut off is noticed").as_deref(),
        Some(UNSUBSCRIBED)
    );
    let [seen] = publish_until_heard(&store(&redis, "s:"), [&mut heard], "back").await;
    assert!(
        seen.iter().any(|text| text == SUBSCRIBED),
        "subscribed again: {seen:?}"
    );
}

#[tokio::test]
async fn a_stalled_redis_keeps_its_subscriptions() {
    let redis = RedisServer::start();
    let store = store(&redis, "t:");
    let mut heard = store.subscribe();
    let subscribed = tokio::time::timeout(Duration::from_secs(5), heard.next()).await;
    assert_eq!(subscribed.unwrap().as_deref(), Some(SUBSCRIBED));
    // Long enough for unanswered `PING`s; nobody can publish meanwhile, so the instances may
    // keep trusting what they heard.
    redis.pause();
    let during = tokio::time::timeout(Duration::from_secs(7), heard.next()).await;
    redis.resume();
    assert!(
        during.is_err(),
        "nothing is heard during a stall: {during:?}"
    );
    let [seen] = publish_until_heard(&store, [&mut heard], "after").await;
    assert_eq!(seen, ["after"], "the same subscription hears on");
}

/// A TCP relay to Redis on a port of its own, whose open connections can be cut off in
/// silence: they stay open both ways and nothing passes. Connections made later pass.
struct Relay {
    port: u16,
    open: Arc<Mutex<Vec<oneshot::Sender<()>>>>,
}

impl Relay {
    async fn start(redis: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::clone(&open);
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let Ok(mut server) = TcpStream::connect(("127.0.0.1", redis)).await else {
                    continue;
                };
                let (cut, cut_off) = oneshot::channel();
                connections.lock().unwrap().push(cut);
                tokio::spawn(async move {
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cut_off => {
                            // Both ends held open, and nothing read or written.
                            std::future::pending::<()>().await;
                        }
                    }
                });
            }
        });
        Relay { port, open }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn cut_off_open_connections(&self) {
        for cut in self.open.lock().unwrap().drain(..) {
            let _ = cut.send(());
        }
    }
}

/// Publishes `message` every 100 ms until each subscriber has heard it (at most 10 s); what
/// each heard on the way, `message` the last.
async fn publish_until_heard<const N: usize>(
    store: &RedisFleetStore,
    mut subscribers: [&mut mcp_runtime::fleet::FleetMessages; N],
    message: &str,
) -> [Vec<String>; N] {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut heard = [false; N];
    let mut seen: [Vec<String>; N] = std::array::from_fn(|_| Vec::new());
    while !heard.iter().all(|heard| *heard) {
        assert!(
            Instant::now() < deadline,
            "not every subscriber heard {message:?}: {heard:?}"
        );
        let _ = store.publish(message).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        for ((subscriber, heard), seen) in subscribers.iter_mut().zip(&mut heard).zip(&mut seen) {
            while !*heard
                && let Ok(Some(text)) =
                    tokio::time::timeout(Duration::from_millis(1), subscriber.next()).await
            {
                *heard = text == message;
                seen.push(text);
            }
        }
    }
    seen
}
