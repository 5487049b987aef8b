//! An instance's heartbeat, sent from a thread of its own.

use std::future::Future;

use super::store::{HEARTBEAT_EVERY, HEARTBEAT_RETRY, StoreError};

/// Calls `beat` every [`HEARTBEAT_EVERY`] (every [`HEARTBEAT_RETRY`] after a failure, so the
/// instance is known alive as soon as the store is back) for as long as `keep_going` says
/// so. It runs on a thread and a Tokio runtime of its own: tools that keep the server's
/// threads busy cannot delay it and get their instance taken for dead. A failure is logged
/// once per outage.
pub(crate) fn spawn_beats<B, F>(mut beat: B, keep_going: impl Fn() -> bool + Send + 'static)
where
    B: FnMut() -> F + Send + 'static,
    F: Future<Output = Result<(), StoreError>>,
{
    let spawned = std::thread::Builder::new()
        .name("mcp-heartbeat".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(error) => {
                    tracing::error!(%error, "cannot start this instance's heartbeat");
                    return;
                }
            };
            runtime.block_on(async move {
                let mut failing = false;
                while keep_going() {
                    let pause = match beat().await {
                        Ok(()) => {
                            if failing {
                                tracing::info!("the fleet's store is reachable again");
                                failing = false;
                            }
                            HEARTBEAT_EVERY
                        }
                        Err(error) => {
                            if !failing {
                                tracing::warn!(%error, "cannot send this instance's heartbeat");
                                failing = true;
                            }
                            HEARTBEAT_RETRY
                        }
                    };
                    tokio::time::sleep(pause).await;
                }
            });
        });
    if let Err(error) = spawned {
        tracing::error!(%error, "cannot start this instance's heartbeat");
    }
}
