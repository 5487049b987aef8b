//! The pauses between tries of a write that a store refused: short at first, so a store that
//! comes back is found quickly, then doubling, so one that stays down is not hammered. A
//! leaf, below both `task` and the HTTP fleet, which retry their writes this way.

use std::time::Duration;

/// The first pause.
const FIRST: Duration = Duration::from_millis(250);
/// The longest pause.
const MOST: Duration = Duration::from_secs(5);

/// The pauses of one run of tries: 250 ms, doubling up to 5 s.
#[derive(Debug)]
pub(crate) struct Backoff {
    next: Duration,
}

impl Backoff {
    pub(crate) fn new() -> Self {
        Backoff { next: FIRST }
    }

    /// Whether no pause was taken yet: the first failure, the one worth a warning.
    pub(crate) fn is_fresh(&self) -> bool {
        self.next == FIRST
    }

    /// The pause to take now; the next one is twice as long, up to the most.
    pub(crate) fn pause(&mut self) -> Duration {
        let pause = self.next;
        self.next = (self.next * 2).min(MOST);
        pause
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_up_to_the_most() {
        let mut backoff = Backoff::new();
        assert!(backoff.is_fresh());
        let pauses: Vec<u128> = (0..8).map(|_| backoff.pause().as_millis()).collect();
        assert_eq!(pauses, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
        assert!(!backoff.is_fresh());
    }
}
