use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::Server;

/// Pings from a client that reads no answer until its writes stop: the connection stops
/// reading once its output backlog passes the limit, and answers every ping once the
/// client reads.
#[tokio::test]
async fn a_client_that_stops_reading_is_not_read_until_it_reads_again() {
    const PINGS: usize = 20_000;
    let (mut requests, input) = tokio::io::duplex(16 * 1024);
    let (output, answers) = tokio::io::duplex(16 * 1024);
    let server = Server::new("backlog", "0")
        .allow_no_tools()
        .max_output_backlog(32 * 1024);
    let serving = tokio::spawn(server.serve_io(input, output));
    let written = Arc::new(AtomicUsize::new(0));
    let writer = tokio::spawn({
        let written = Arc::clone(&written);
        async move {
            for id in 0..PINGS {
                let ping = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n");
                requests.write_all(ping.as_bytes()).await.unwrap();
                written.store(id + 1, Ordering::Relaxed);
            }
            requests
        }
    });
    let mut last = usize::MAX;
    loop {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let now = written.load(Ordering::Relaxed);
        if now == last {
            break;
        }
        last = now;
    }
    // The limit, the pipes and one read of input: a few thousand pings, not all.
    assert!(last < PINGS / 4, "{last} of {PINGS} pings were read");

    let mut answers = BufReader::new(answers).lines();
    let mut answered = vec![false; PINGS];
    for _ in 0..PINGS {
        let answer = answers.next_line().await.unwrap().expect("an answer");
        let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
        let id = answer["id"].as_u64().expect("an id") as usize;
        assert_eq!(answer["result"], serde_json::json!({}), "{answer}");
        assert!(!std::mem::replace(&mut answered[id], true), "{id} twice");
    }
    drop(writer.await.unwrap());
    serving.await.unwrap().unwrap();
    assert_eq!(answers.next_line().await.unwrap(), None);
}
