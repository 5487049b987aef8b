//! Appends of many streams gathered into one call of the store: an instance answering calls
//! copies each call's events to the store, and one round trip a millisecond costs the store
//! and the instance far less than one a call.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use crate::fleet::StreamOrigin;
use crate::fleet::{FleetStore, StoreError, StreamAppend, StreamBounds, StreamEvent, StreamKey};

/// How long the first append of a round waits for others to join it.
const GATHER_FOR: Duration = Duration::from_millis(1);
/// At most this many streams' appends go in one round.
const GATHER_AT_MOST: usize = 256;

/// One stream's append, waiting for its round.
struct Waiting {
    stream: StreamKey,
    origin: Arc<StreamOrigin>,
    events: Vec<StreamEvent>,
    bounds: StreamBounds,
    added: oneshot::Sender<Result<bool, StoreError>>,
}

/// The appends waiting for the next round, and the task that makes the rounds (started at
/// the first append, since it needs a runtime).
#[derive(Default)]
pub(crate) struct Gathering {
    queue: OnceLock<mpsc::UnboundedSender<Waiting>>,
}

impl Gathering {
    /// Appends `events` to `stream` (created with `origin` if it is not stored yet) in the
    /// next round: whether they were added, as
    /// [`append_events`](FleetStore::append_events) says.
    pub async fn append(
        &self,
        store: &Arc<dyn FleetStore>,
        stream: &StreamKey,
        origin: &Arc<StreamOrigin>,
        events: Vec<StreamEvent>,
        bounds: StreamBounds,
    ) -> Result<bool, StoreError> {
        let queue = self.queue.get_or_init(|| start(Arc::clone(store)));
        let (added, outcome) = oneshot::channel();
        let waiting = Waiting {
            stream: stream.clone(),
            origin: Arc::clone(origin),
            events,
            bounds,
            added,
        };
        let gone = || StoreError("the server is shutting down".to_owned());
        queue.send(waiting).map_err(|_| gone())?;
        outcome.await.map_err(|_| gone())?
    }
}

/// Starts the task that makes the rounds; it ends once every sender is gone. Its queue
/// holds at most one append per stream being copied (each waits for its outcome).
fn start(store: Arc<dyn FleetStore>) -> mpsc::UnboundedSender<Waiting> {
    let (queue, mut waiting) = mpsc::unbounded_channel::<Waiting>();
    tokio::spawn(async move {
        let mut round = Vec::new();
        while let Some(first) = waiting.recv().await {
            round.push(first);
            tokio::time::sleep(GATHER_FOR).await;
            while round.len() < GATHER_AT_MOST
                && let Ok(next) = waiting.try_recv()
            {
                round.push(next);
            }
            let appends: Vec<StreamAppend<'_>> = round
                .iter()
                .map(|waiting| {
                    StreamAppend::new(
                        &waiting.stream,
                        Some(&*waiting.origin),
                        &waiting.events,
                        waiting.bounds,
                    )
                })
                .collect();
            let outcome = store.append_many(&appends).await;
            drop(appends);
            for (index, waiting) in round.drain(..).enumerate() {
                let added = match &outcome {
                    Ok(added) => Ok(added.get(index).copied().unwrap_or(false)),
                    Err(error) => Err(error.clone()),
                };
                let _ = waiting.added.send(added);
            }
        }
    });
    queue
}
