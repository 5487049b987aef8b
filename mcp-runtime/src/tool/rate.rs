//! Rate limits: a tool's own (`#[mcp_tool(rate = "10/s")]`, [`DynamicTool::rate`]) and the
//! server's ([`Server::rate_limit`]), and what happens to a call over a limit
//! ([`RateLimitMode`]).
//!
//! Each limit is a GCRA ("generic cell rate algorithm") limiter from the `governor` crate:
//! `rate = "10/s"` lets a burst of up to 10 calls through at once, then one more every
//! 100 ms — a token bucket of 10 refilled evenly over the second, kept in one atomic word
//! and shared by every connection of the server.
//!
//! The limiters read tokio's clock, the one `tokio::time::sleep` waits on, so a call that
//! waits for its turn wakes when the limit allows it, and a test on a paused clock
//! (`#[tokio::test(start_paused = true)]`) sees limits refill as its virtual time passes.
//!
//! [`DynamicTool::rate`]: crate::DynamicTool::rate
//! [`Server::rate_limit`]: crate::Server::rate_limit

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

/// A number of calls per second, minute or hour: `Rate::per_second(10)`, or parsed from
/// `"10/s"`, `"100/min"`, `"1000/h"` (the spelling of `#[mcp_tool(rate = "...")]`).
///
/// The calls may come in one burst; the allowance then refills evenly over the period
/// (`10/s`: one more call every 100 ms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rate {
    calls: NonZeroU32,
    period: Period,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Period {
    Second,
    Minute,
    Hour,
}

impl Period {
    fn duration(self) -> Duration {
        match self {
            Period::Second => Duration::from_secs(1),
            Period::Minute => Duration::from_secs(60),
            Period::Hour => Duration::from_secs(3600),
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Period::Second => "s",
            Period::Minute => "min",
            Period::Hour => "h",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Period::Second => "second",
            Period::Minute => "minute",
            Period::Hour => "hour",
        }
    }
}

impl Rate {
    const fn new(calls: u32, period: Period) -> Rate {
        let calls = match NonZeroU32::new(calls) {
            Some(calls) => calls,
            None => NonZeroU32::MIN,
        };
        Rate { calls, period }
    }

    /// `calls` calls per second (at least 1: `0` is taken as 1).
    pub const fn per_second(calls: u32) -> Rate {
        Rate::new(calls, Period::Second)
    }

    /// `calls` calls per minute (at least 1: `0` is taken as 1).
    pub const fn per_minute(calls: u32) -> Rate {
        Rate::new(calls, Period::Minute)
    }

    /// `calls` calls per hour (at least 1: `0` is taken as 1).
    pub const fn per_hour(calls: u32) -> Rate {
        Rate::new(calls, Period::Hour)
    }

    /// How many calls the period allows (and the largest burst).
    pub fn calls(&self) -> u32 {
        self.calls.get()
    }

    /// The period the calls are counted over.
    pub fn period(&self) -> Duration {
        self.period.duration()
    }

    fn quota(&self) -> Quota {
        match self.period {
            Period::Second => Quota::per_second(self.calls),
            Period::Minute => Quota::per_minute(self.calls),
            Period::Hour => Quota::per_hour(self.calls),
        }
    }

    /// "10 calls per second".
    pub(crate) fn describe(&self) -> String {
        let calls = self.calls.get();
        let noun = if calls == 1 { "call" } else { "calls" };
        format!("{calls} {noun} per {}", self.period.word())
    }
}

/// `10/s`.
impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.calls, self.period.unit())
    }
}

/// Why a text is not a [`Rate`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a rate: write a number of calls (at least 1) per `s`, `min` or `h`, e.g. `10/s`, `100/min`, `1000/h`"
)]
pub struct ParseRateError(String);

impl FromStr for Rate {
    type Err = ParseRateError;

    fn from_str(text: &str) -> Result<Rate, ParseRateError> {
        let invalid = || ParseRateError(text.to_owned());
        let (calls, unit) = text.split_once('/').ok_or_else(invalid)?;
        let calls: u32 = calls.trim().parse().map_err(|_| invalid())?;
        let period = match unit.trim() {
            "s" => Period::Second,
            "min" => Period::Minute,
            "h" => Period::Hour,
            _ => return Err(invalid()),
        };
        if calls == 0 {
            return Err(invalid());
        }
        Ok(Rate::new(calls, period))
    }
}

/// What happens to a call over a rate limit (set with
/// [`Server::rate_limit_mode`](crate::Server::rate_limit_mode); one mode for all of a server's
/// limits, since it is about what its clients can handle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RateLimitMode {
    /// Answer it at once with an `isError` result naming the limit and when to retry
    /// (the default: the model sees why and can wait, retry or do something else).
    #[default]
    Reject,
    /// Hold it until the limit allows it, then run it (for clients that cannot retry). A
    /// waiting call can be cancelled; the tool's timeout starts when it runs.
    Wait,
}

/// tokio's clock, as time since the limiter's first check (taken then rather than when the
/// limiter is made, which may be outside the runtime whose clock a test pauses).
#[derive(Debug, Default)]
struct TokioClock {
    origin: OnceLock<tokio::time::Instant>,
}

impl Clock for TokioClock {
    type Instant = Nanos;

    fn now(&self) -> Nanos {
        let now = tokio::time::Instant::now();
        Nanos::from(now.saturating_duration_since(*self.origin.get_or_init(|| now)))
    }
}

/// One limit: a rate and its GCRA state.
pub(crate) struct Limiter {
    pub(crate) rate: Rate,
    state: RateLimiter<NotKeyed, InMemoryState, TokioClock, NoOpMiddleware<Nanos>>,
}

impl Limiter {
    pub fn new(rate: Rate) -> Arc<Limiter> {
        Arc::new(Limiter {
            rate,
            state: RateLimiter::direct_with_clock(rate.quota(), TokioClock::default()),
        })
    }

    /// Counts one call if the limit allows it now; otherwise says how long until it would.
    pub(crate) fn try_admit(&self) -> Result<(), Duration> {
        self.state
            .check()
            .map_err(|not_until| not_until.wait_time_from(self.state.clock().now()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_rates() {
        assert_eq!("10/s".parse(), Ok(Rate::per_second(10)));
        assert_eq!("100/min".parse(), Ok(Rate::per_minute(100)));
        assert_eq!(" 1000 / h ".parse(), Ok(Rate::per_hour(1000)));
        for bad in [
            "0/s",
            "10",
            "10/sec",
            "ten/s",
            "-1/s",
            "10/m",
            "/s",
            "99999999999/s",
        ] {
            assert!(bad.parse::<Rate>().is_err(), "{bad}");
        }
        assert_eq!(Rate::per_minute(100).to_string(), "100/min");
        assert_eq!(Rate::per_second(0), Rate::per_second(1));
        assert_eq!(Rate::per_hour(1).describe(), "1 call per hour");
    }

    #[test]
    fn a_burst_passes_up_to_the_rate_then_is_refused() {
        let limiter = Limiter::new(Rate::per_hour(3));
        assert!((0..3).all(|_| limiter.try_admit().is_ok()));
        let retry_in = limiter
            .try_admit()
            .expect_err("the fourth call is over the limit");
        assert!(retry_in > Duration::from_secs(1000), "{retry_in:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn the_allowance_refills_as_tokios_clock_advances() {
        let limiter = Limiter::new(Rate::per_second(4));
        assert!((0..4).all(|_| limiter.try_admit().is_ok()));
        let retry_in = limiter
            .try_admit()
            .expect_err("a fifth call in the same instant");
        assert!(retry_in <= Duration::from_millis(250), "{retry_in:?}");
        tokio::time::advance(retry_in).await;
        assert!(limiter.try_admit().is_ok(), "one more after 250 ms");
        assert!(limiter.try_admit().is_err());
        tokio::time::advance(Duration::from_secs(1)).await;
        assert!(
            (0..4).all(|_| limiter.try_admit().is_ok()),
            "a whole burst again"
        );
    }
}
