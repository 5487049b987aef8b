//! [`free_loopback_port`]: a port of 127.0.0.1 for a test's own server, which no other test
//! of the process gets.

use std::net::{Ipv4Addr, TcpListener};
use std::sync::atomic::{AtomicU32, Ordering};

/// The ports handed out: below the ephemeral range of Linux (32768–60999), macOS and Windows
/// (49152–65535), so neither an outgoing connection nor a bind to port 0 elsewhere takes
/// one between the time it is handed out and the time the test's server binds it.
const FIRST: u32 = 20_000;
const COUNT: u32 = 32_768 - FIRST;

/// How many ports this process has handed out (or skipped because something held them).
static HANDED_OUT: AtomicU32 = AtomicU32::new(0);

/// A port of 127.0.0.1 that nothing listens on now and that no other call in this process
/// returns, for a server a test starts itself (a process, nginx, a Redis).
///
/// A port from binding port 0 is not enough for that: once released, the same port can be
/// the next one a parallel test gets, or the local end of an outgoing connection, and a test
/// that waits until "something listens on it" then talks to the wrong server. These ports
/// come from below the ephemeral range, one after another from a place of this process's
/// own (its id), each checked free by binding it.
///
/// # Panics
/// When every port of the range is taken.
pub fn free_loopback_port() -> u16 {
    let start = std::process::id().wrapping_mul(7_919) % COUNT;
    for _ in 0..COUNT {
        let offset = (start + HANDED_OUT.fetch_add(1, Ordering::Relaxed)) % COUNT;
        let port = u16::try_from(FIRST + offset).expect("a port below 32768");
        if TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok() {
            return port;
        }
    }
    panic!(
        "no free port of 127.0.0.1 between {FIRST} and {}",
        FIRST + COUNT - 1
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_are_distinct_free_and_below_the_ephemeral_range() {
        let ports: Vec<u16> = (0..200).map(|_| free_loopback_port()).collect();
        let distinct: std::collections::BTreeSet<u16> = ports.iter().copied().collect();
        assert_eq!(distinct.len(), ports.len(), "a port was handed out twice");
        for port in ports {
            assert!((20_000..32_768).contains(&port), "{port}");
            TcpListener::bind((Ipv4Addr::LOCALHOST, port)).expect("the port is free");
        }
    }
}
