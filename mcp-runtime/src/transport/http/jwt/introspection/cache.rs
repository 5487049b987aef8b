//! The introspection answers kept: bounded, by the hash of their token.

use std::collections::HashMap;
use std::time::Instant;

use crate::transport::http::jwt::claims::TokenClaims;

/// Active answers by the SHA-256 of their token (never the token itself), each until it
/// must be asked again; at most `max` of them.
pub(super) struct Cache {
    entries: HashMap<[u8; 32], (TokenClaims, Instant)>,
    max: usize,
}

impl Cache {
    pub fn new(max: usize) -> Self {
        Cache {
            entries: HashMap::new(),
            max,
        }
    }

    pub fn get(&self, key: &[u8; 32], now: Instant) -> Option<TokenClaims> {
        self.entries
            .get(key)
            .filter(|(_, until)| *until > now)
            .map(|(claims, _)| claims.clone())
    }

    pub fn insert(&mut self, key: [u8; 32], claims: TokenClaims, until: Instant) {
        if self.max == 0 {
            return;
        }
        if self.entries.len() >= self.max && !self.entries.contains_key(&key) {
            let now = Instant::now();
            self.entries.retain(|_, (_, until)| *until > now);
            // Still full: the entry expiring soonest goes rather than the new one, so a
            // cache full of old answers does not make every new client's token be
            // introspected on each request. The scan runs at most once per introspection,
            // itself a network round trip, so it costs little next to it.
            if self.entries.len() >= self.max {
                let soonest = self
                    .entries
                    .iter()
                    .min_by_key(|(_, (_, until))| *until)
                    .map(|(key, _)| *key);
                if let Some(soonest) = soonest {
                    self.entries.remove(&soonest);
                }
            }
        }
        self.entries.insert(key, (claims, until));
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::Map;

    use super::*;

    fn claims() -> TokenClaims {
        TokenClaims::new(Map::new())
    }

    #[test]
    fn the_cache_keeps_at_most_its_bound_dropping_the_expired_then_the_soonest() {
        let now = Instant::now();
        let later = |secs| now + Duration::from_secs(secs);
        let mut cache = Cache::new(3);
        cache.insert([1; 32], claims(), now - Duration::from_secs(1));
        cache.insert([2; 32], claims(), later(50));
        cache.insert([3; 32], claims(), later(10));
        assert!(cache.get(&[1; 32], now).is_none(), "expired");
        // Full: the expired entry goes first.
        cache.insert([4; 32], claims(), later(30));
        assert_eq!(cache.entries.len(), 3);
        assert!(!cache.entries.contains_key(&[1; 32]));
        // Full of live entries: the one expiring soonest goes.
        cache.insert([5; 32], claims(), later(40));
        assert_eq!(cache.entries.len(), 3);
        assert!(!cache.entries.contains_key(&[3; 32]));
        for key in [[2; 32], [4; 32], [5; 32]] {
            assert!(cache.get(&key, now).is_some());
        }
        let mut none = Cache::new(0);
        none.insert([1; 32], claims(), later(10));
        assert!(none.entries.is_empty());
    }
}
