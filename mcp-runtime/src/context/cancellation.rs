//! A request's cancellation: a flag, and a token made only when something waits on it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering, fence};

use tokio_util::sync::CancellationToken;

/// A request's cancellation. Most calls finish without anyone asking, and a token is an
/// allocation of its own.
#[derive(Default)]
pub(super) struct Cancellation {
    cancelled: AtomicBool,
    token: OnceLock<CancellationToken>,
}

impl Cancellation {
    pub(super) fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        // Either this sees a token made concurrently, or its maker sees the flag: the
        // fences rule out both missing each other.
        fence(Ordering::SeqCst);
        if let Some(token) = self.token.get() {
            token.cancel();
        }
    }

    pub(super) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// The token, made on first use and already cancelled if the request was.
    pub(super) fn token(&self) -> &CancellationToken {
        let token = self.token.get_or_init(CancellationToken::new);
        fence(Ordering::SeqCst);
        if self.cancelled.load(Ordering::SeqCst) {
            token.cancel();
        }
        token
    }
}

#[cfg(test)]
mod tests {
    use super::Cancellation;

    #[test]
    fn a_token_made_before_cancelling_is_cancelled_with_the_request() {
        let cancellation = Cancellation::default();
        let token = cancellation.token().clone();
        assert!(!cancellation.is_cancelled() && !token.is_cancelled());
        cancellation.cancel();
        assert!(cancellation.is_cancelled() && token.is_cancelled());
    }

    #[test]
    fn a_token_made_after_cancelling_is_cancelled_already() {
        let cancellation = Cancellation::default();
        cancellation.cancel();
        assert!(cancellation.is_cancelled());
        assert!(cancellation.token().is_cancelled());
        assert!(cancellation.token().child_token().is_cancelled());
    }

    #[test]
    fn a_token_made_while_cancelling_on_another_thread_is_never_missed() {
        for _ in 0..1_000 {
            let cancellation = std::sync::Arc::new(Cancellation::default());
            let canceller = {
                let cancellation = std::sync::Arc::clone(&cancellation);
                std::thread::spawn(move || cancellation.cancel())
            };
            let token = cancellation.token().clone();
            canceller.join().expect("the cancelling thread panicked");
            assert!(token.is_cancelled());
        }
    }
}
