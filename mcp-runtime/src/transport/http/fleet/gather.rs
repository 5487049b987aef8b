//! The copies of call streams on their way to the store: each event goes to one task per
//! instance, which sends every stream's new events in one call of the store a millisecond
//! (one round trip a millisecond costs the store and the instance far less than one a call),
//! and keeps them, trying again, while the store refuses them.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::backoff::Backoff;
use crate::fleet::{FleetStore, StreamAppend, StreamBounds, StreamEvent, StreamKey, StreamOrigin};

/// How long the first event of a round waits for others to join it.
const GATHER_FOR: Duration = Duration::from_millis(1);
/// At most this many streams' events go in one round; the rest go in the next.
const GATHER_AT_MOST: usize = 256;

/// A stream whose events are copied to the store.
pub(crate) struct Mirrored {
    key: StreamKey,
    /// This instance and the ids of the requests the stream answers.
    origin: StreamOrigin,
    /// How much of it is kept (a replay buffer's worth), and how long while it is open: also
    /// how long its events are tried again before they are given up.
    bounds: StreamBounds,
    /// How long it is kept once it ended.
    retain_ended: Duration,
}

/// What a stream holds to copy its events: the stream, and the way to the task.
pub(crate) struct Mirror {
    stream: Arc<Mirrored>,
    queue: mpsc::UnboundedSender<Copied>,
}

impl Mirror {
    /// Sends one of the stream's events (in order) on its way to the store.
    pub fn copy(&self, event: StreamEvent) {
        let stream = Arc::clone(&self.stream);
        let _ = self.queue.send(Copied { stream, event });
    }
}

struct Copied {
    stream: Arc<Mirrored>,
    event: StreamEvent,
}

/// The task that copies streams to the store, started at the first stream (it needs a
/// runtime). It ends once every stream and the instance are gone, and what it holds is
/// stored or given up.
#[derive(Default)]
pub(crate) struct Gathering {
    queue: OnceLock<mpsc::UnboundedSender<Copied>>,
}

impl Gathering {
    /// A mirror for the stream `key` of this instance (`origin`), kept within `bounds`,
    /// for `retain_ended` once it ended.
    pub fn mirror(
        &self,
        store: &Arc<dyn FleetStore>,
        key: StreamKey,
        origin: StreamOrigin,
        bounds: StreamBounds,
        retain_ended: Duration,
    ) -> Mirror {
        let queue = self.queue.get_or_init(|| start(Arc::clone(store)));
        Mirror {
            stream: Arc::new(Mirrored {
                key,
                origin,
                bounds,
                retain_ended,
            }),
            queue: queue.clone(),
        }
    }
}

/// A stream's events not stored yet.
struct Pending {
    stream: Arc<Mirrored>,
    events: Vec<StreamEvent>,
    /// When its oldest event came: it is given up once it is past the stream's time.
    since: Instant,
}

impl Pending {
    /// The stream's bounds, kept as long as an open or an ended one is.
    fn bounds(&self) -> StreamBounds {
        let mut bounds = self.stream.bounds;
        if self.events.iter().any(|event| event.last) {
            bounds.retain = self.stream.retain_ended;
        }
        bounds
    }

    /// Drops the oldest events beyond the stream's bounds (never the newest, which may be
    /// the response).
    fn trim(&mut self) {
        let StreamBounds {
            max_events,
            max_bytes,
            ..
        } = self.stream.bounds;
        let mut bytes: usize = self.events.iter().map(|event| event.data.len()).sum();
        let mut drop = 0;
        while self.events.len() - drop > 1
            && (self.events.len() - drop > max_events || bytes > max_bytes)
        {
            bytes -= self.events[drop].data.len();
            drop += 1;
        }
        self.events.drain(..drop);
    }
}

/// The streams with events not stored yet, in the order their events came.
#[derive(Default)]
struct Waiting {
    /// By the address of the stream's [`Mirrored`].
    streams: HashMap<usize, Pending>,
    order: Vec<usize>,
}

impl Waiting {
    fn add(&mut self, copied: Copied) {
        let id = Arc::as_ptr(&copied.stream) as usize;
        let pending = self.streams.entry(id).or_insert_with(|| {
            self.order.push(id);
            Pending {
                stream: copied.stream,
                events: Vec::new(),
                since: Instant::now(),
            }
        });
        pending.events.push(copied.event);
    }

    fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The streams of the next round, oldest first.
    fn round(&self) -> &[usize] {
        &self.order[..self.order.len().min(GATHER_AT_MOST)]
    }

    /// The round's streams were stored.
    fn stored(&mut self, round: usize) {
        for id in self.order.drain(..round) {
            self.streams.remove(&id);
        }
    }

    /// The store refused the round: each stream keeps a replay buffer's worth, and those
    /// past their time are given up.
    fn refused(&mut self) {
        let streams = &mut self.streams;
        self.order.retain(|id| {
            let Some(pending) = streams.get_mut(id) else {
                return false;
            };
            pending.trim();
            if pending.since.elapsed() < pending.bounds().retain {
                return true;
            }
            tracing::warn!("events of a response stream were not copied to the fleet's store");
            streams.remove(id);
            false
        });
    }
}

fn start(store: Arc<dyn FleetStore>) -> mpsc::UnboundedSender<Copied> {
    let (queue, mut copies) = mpsc::unbounded_channel::<Copied>();
    tokio::spawn(async move {
        let mut waiting = Waiting::default();
        let mut backoff: Option<Backoff> = None;
        loop {
            if waiting.is_empty() {
                let Some(copied) = copies.recv().await else {
                    return;
                };
                waiting.add(copied);
            }
            let pause = backoff.as_mut().map_or(GATHER_FOR, Backoff::pause);
            tokio::time::sleep(pause).await;
            while let Ok(copied) = copies.try_recv() {
                waiting.add(copied);
            }
            let round = waiting.round();
            let appends: Vec<StreamAppend<'_>> = round
                .iter()
                .map(|id| {
                    let pending = &waiting.streams[id];
                    let origin = Some(&pending.stream.origin);
                    let (key, bounds) = (&pending.stream.key, pending.bounds());
                    StreamAppend::new(key, origin, &pending.events, bounds)
                })
                .collect();
            let outcome = store.append_many(&appends).await;
            let round = round.len();
            drop(appends);
            match outcome {
                Ok(_) => {
                    if backoff.take().is_some() {
                        tracing::info!(
                            "events of response streams are copied to the fleet's store again"
                        );
                    }
                    waiting.stored(round);
                }
                Err(error) => {
                    if backoff.is_none() {
                        tracing::warn!(%error, "events of response streams are not copied to the fleet's store yet; trying again");
                        backoff = Some(Backoff::new());
                    }
                    waiting.refused();
                }
            }
        }
    });
    queue
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPLAY_EVENTS: usize = 256;
    const RETAIN_ENDED: Duration = Duration::from_secs(60);

    fn stream(number: u64, retain: Duration) -> Arc<Mirrored> {
        Arc::new(Mirrored {
            key: StreamKey {
                session: "s".into(),
                number,
            },
            origin: StreamOrigin::new("i", serde_json::json!([number])),
            bounds: StreamBounds::new(REPLAY_EVENTS, 1024 * 1024, retain),
            retain_ended: RETAIN_ENDED,
        })
    }

    fn copied(stream: &Arc<Mirrored>, seq: u64, data: &str, last: bool) -> Copied {
        Copied {
            stream: Arc::clone(stream),
            event: StreamEvent::new(seq, data, last),
        }
    }

    fn seqs(waiting: &Waiting, stream: &Arc<Mirrored>) -> Vec<u64> {
        let pending = &waiting.streams[&(Arc::as_ptr(stream) as usize)];
        pending.events.iter().map(|event| event.seq).collect()
    }

    #[test]
    fn events_are_gathered_by_stream_in_the_order_their_streams_came() {
        let (one, two) = (stream(1, RETAIN_ENDED), stream(2, RETAIN_ENDED));
        let mut waiting = Waiting::default();
        waiting.add(copied(&two, 0, "", false));
        waiting.add(copied(&one, 0, "", false));
        waiting.add(copied(&two, 1, "response", true));
        assert_eq!(waiting.round().len(), 2);
        assert_eq!(waiting.round()[0], Arc::as_ptr(&two) as usize);
        assert_eq!(seqs(&waiting, &two), [0, 1]);
        assert_eq!(seqs(&waiting, &one), [0]);
        waiting.stored(1);
        assert_eq!(waiting.round(), [Arc::as_ptr(&one) as usize]);
        waiting.stored(1);
        assert!(waiting.is_empty());
    }

    #[test]
    fn a_round_holds_at_most_so_many_streams() {
        let streams: Vec<_> = (0..GATHER_AT_MOST as u64 + 3)
            .map(|number| stream(number, RETAIN_ENDED))
            .collect();
        let mut waiting = Waiting::default();
        for stream in &streams {
            waiting.add(copied(stream, 0, "", false));
        }
        assert_eq!(waiting.round().len(), GATHER_AT_MOST);
        waiting.stored(GATHER_AT_MOST);
        assert_eq!(waiting.round().len(), 3);
    }

    #[test]
    fn refused_events_are_kept_within_a_replay_buffer_until_their_time() {
        let (open, old) = (stream(1, Duration::from_secs(600)), stream(2, RETAIN_ENDED));
        let mut waiting = Waiting::default();
        for seq in 0..REPLAY_EVENTS as u64 + 10 {
            waiting.add(copied(&open, seq, "progress", false));
        }
        waiting.add(copied(&open, 999, "response", true));
        waiting.add(copied(&old, 0, "response", true));
        // The second stream's oldest event came longer ago than an ended stream is kept.
        let long_ago = Instant::now().checked_sub(RETAIN_ENDED * 2);
        if let Some(long_ago) = long_ago {
            waiting
                .streams
                .get_mut(&(Arc::as_ptr(&old) as usize))
                .expect("pending")
                .since = long_ago;
        }
        waiting.refused();
        let kept = seqs(&waiting, &open);
        assert_eq!(kept.len(), REPLAY_EVENTS);
        assert_eq!(kept.last(), Some(&999), "the response is never dropped");
        if long_ago.is_some() {
            assert_eq!(waiting.round(), [Arc::as_ptr(&open) as usize]);
        }
    }
}
