//! Introspections under way, by token: requests that bring the same new token at once wait
//! for one answer from the issuer rather than each asking it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::OnceCell;

use super::super::claims::TokenClaims;
use crate::transport::http::auth::AuthRejection;

/// What the issuer's answer about a token came to.
pub(super) type Outcome = Result<TokenClaims, AuthRejection>;

type Shared = Arc<OnceCell<Outcome>>;

/// The introspections under way, by the digest of their token. An entry lives while
/// requests wait for it, so there are never more than requests being authenticated.
#[derive(Default)]
pub(super) struct UnderWay(Mutex<HashMap<[u8; 32], Shared>>);

impl UnderWay {
    /// The outcome for the token `key` digests: that of the introspection already under way
    /// for it, or `introspect`'s. If the request running it is dropped, one still waiting
    /// runs it in its place.
    pub async fn outcome<F>(&self, key: [u8; 32], introspect: impl FnOnce() -> F) -> Outcome
    where
        F: Future<Output = Outcome>,
    {
        let shared = Arc::clone(self.lock().entry(key).or_default());
        let joined = Joined {
            under_way: self,
            key,
            shared: Some(shared),
        };
        let shared = joined.shared.as_ref().expect("held until dropped");
        shared.get_or_init(introspect).await.clone()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<[u8; 32], Shared>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }
}

/// One request's part in an introspection. The first to let go of a finished one removes
/// it (later requests read the cache, or ask again after a refusal), and so does the last
/// to let go of an unfinished one (all of its requests were dropped): none stays behind.
struct Joined<'a> {
    under_way: &'a UnderWay,
    key: [u8; 32],
    shared: Option<Shared>,
}

impl Drop for Joined<'_> {
    fn drop(&mut self) {
        let mut under_way = self.under_way.lock();
        let shared = self.shared.take().expect("taken only here");
        // Counted under the lock, where every reference to it is made and let go of.
        let last = Arc::strong_count(&shared) == 2;
        if under_way
            .get(&self.key)
            .is_some_and(|entry| Arc::ptr_eq(entry, &shared))
            && (shared.initialized() || last)
        {
            under_way.remove(&self.key);
        }
        drop(shared);
    }
}
