//! Whether this instance hears the other instances' notes, and waiting until every instance
//! listening has heard one. Together they let an instance trust its copy of a session
//! between requests: whoever ends or changes a session waits until every copy heard of it.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::oneshot;

/// How long the instance that ended or changed a session waits for the others to hear it:
/// one that has not by then is stalled, and its copy is out of date until it catches up.
pub(super) const HEARD_WITHIN: Duration = Duration::from_secs(1);

/// This instance's hearing of the fleet's notes.
#[derive(Default)]
pub(crate) struct Hearing {
    /// The generation of the subscription to the notes: 0 while it is down (or the store
    /// does not say), else one more than at the subscription before.
    generation: AtomicU64,
    subscriptions: AtomicU64,
    /// How many notes about sessions were handled: a copy read from the store while one
    /// was may have missed it, and is not trusted.
    handled: AtomicU64,
    /// The notes this instance waits to hear acknowledged, by their `ack` id.
    waiting: Mutex<HashMap<String, Waiting>>,
}

struct Waiting {
    heard: usize,
    /// How many subscriptions received the note, once the store said.
    needed: Option<usize>,
    done: Option<oneshot::Sender<()>>,
}

impl Waiting {
    fn finish_if_heard(&mut self) {
        if self.needed.is_some_and(|needed| self.heard >= needed)
            && let Some(done) = self.done.take()
        {
            let _ = done.send(());
        }
    }
}

impl Hearing {
    /// The subscription's generation; 0 while it is down.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The subscription was made: copies read from the store from now on may be trusted.
    pub fn subscribed(&self) {
        let generation = self.subscriptions.fetch_add(1, Ordering::AcqRel) + 1;
        self.generation.store(generation, Ordering::Release);
    }

    /// The subscription broke: no copy is trusted until it is made again and the copy
    /// read again.
    pub fn unsubscribed(&self) {
        self.generation.store(0, Ordering::Release);
    }

    /// How many notes about sessions were handled so far.
    pub fn handled(&self) -> u64 {
        self.handled.load(Ordering::Acquire)
    }

    /// A note about a session is being handled: counted before the copy changes.
    pub fn handling(&self) {
        self.handled.fetch_add(1, Ordering::AcqRel);
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, HashMap<String, Waiting>> {
        self.waiting.lock().expect("hearing poisoned")
    }

    /// Starts waiting for acknowledgements of the note `ack`: the receiver fires once as
    /// many came as [`Hearing::needs`] says.
    pub fn expect(&self, ack: &str) -> oneshot::Receiver<()> {
        let (done, heard) = oneshot::channel();
        let waiting = Waiting {
            heard: 0,
            needed: None,
            done: Some(done),
        };
        self.waiting().insert(ack.to_owned(), waiting);
        heard
    }

    /// How many acknowledgements of the note `ack` are needed (as many as subscriptions
    /// received it).
    pub fn needs(&self, ack: &str, needed: usize) {
        if let Some(waiting) = self.waiting().get_mut(ack) {
            waiting.needed = Some(needed);
            waiting.finish_if_heard();
        }
    }

    /// An instance acknowledged the note `ack` (ignored unless this one waits for it).
    pub fn heard(&self, ack: &str) {
        if let Some(waiting) = self.waiting().get_mut(ack) {
            waiting.heard += 1;
            waiting.finish_if_heard();
        }
    }

    /// Stops waiting for the note `ack`.
    pub fn stop_waiting(&self, ack: &str) {
        self.waiting().remove(ack);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_heard_once_every_subscription_acknowledged_it() {
        let hearing = Hearing::default();
        let mut heard = hearing.expect("a");
        // Acknowledgements may come before the store says how many are needed.
        hearing.heard("a");
        assert!(heard.try_recv().is_err());
        hearing.needs("a", 2);
        assert!(heard.try_recv().is_err());
        hearing.heard("b");
        assert!(heard.try_recv().is_err());
        hearing.heard("a");
        assert!(heard.try_recv().is_ok());
        hearing.stop_waiting("a");
        assert!(hearing.waiting().is_empty());
    }

    #[test]
    fn each_subscription_is_a_new_generation_and_none_while_down() {
        let hearing = Hearing::default();
        assert_eq!(hearing.generation(), 0);
        hearing.subscribed();
        let first = hearing.generation();
        assert_ne!(first, 0);
        hearing.unsubscribed();
        assert_eq!(hearing.generation(), 0);
        hearing.subscribed();
        assert_ne!(hearing.generation(), first);
        assert_ne!(hearing.generation(), 0);
    }
}
