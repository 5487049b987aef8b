//! When shutdown's grace period ends with a call still running, the call is answered with an
//! error and its `Context` is cancelled, so work the tool handed off (a spawned task, a
//! thread) learns it should stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_runtime::testing::TestClient;
use mcp_runtime::{Context, Server, mcp_tool};
use serde_json::json;

static HANDED_OFF_WORK_STOPPED: AtomicBool = AtomicBool::new(false);

/// Starts background work tied to the call, then never returns.
#[mcp_tool]
async fn never_finishes(ctx: Context) -> String {
    let token = ctx.cancellation_token();
    tokio::spawn(async move {
        token.cancelled().await;
        HANDED_OFF_WORK_STOPPED.store(true, Ordering::SeqCst);
    });
    std::future::pending::<()>().await;
    unreachable!()
}

#[tokio::test]
async fn the_grace_period_ending_cancels_the_calls_context() {
    let server = Server::new("shutdown", "1.0.0").shutdown_grace(Duration::from_millis(100));
    let client = TestClient::connect(server).await.unwrap();
    let call = client.start_call("never_finishes", json!({}));
    // Let the call start before the input ends.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!HANDED_OFF_WORK_STOPPED.load(Ordering::SeqCst));
    let answer = tokio::spawn(call.result());
    client.close().await.unwrap();
    let error = answer.await.unwrap();
    assert!(
        error.is_err() || error.as_ref().is_ok_and(|result| result.is_error),
        "{error:?}"
    );
    for _ in 0..100 {
        if HANDED_OFF_WORK_STOPPED.load(Ordering::SeqCst) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the handed-off work was never told to stop");
}
