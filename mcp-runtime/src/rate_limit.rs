//! Rate limits: a tool's own (`#[mcp_tool(rate = "10/s")]`, [`DynamicTool::rate`]) and the
//! server's ([`Server::rate_limit`]), and what happens to a call over a limit
//! ([`RateLimitMode`]).
//!
//! Each limit is a GCRA ("generic cell rate algorithm") limiter from the `governor` crate:
//! `rate = "10/s"` lets a burst of up to 10 calls through at once, then one more every
//! 100 ms — a token bucket of 10 refilled evenly over the second, kept in one atomic word
//! and shared by every connection of the server.
//!
//! [`DynamicTool::rate`]: crate::DynamicTool::rate
//! [`Server::rate_limit`]: crate::Server::rate_limit

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use crate::catalog::CatalogTool;
use crate::result::CallToolResult;

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

    /// `calls` calls per second (at least 1).
    pub const fn per_second(calls: u32) -> Rate {
        Rate::new(calls, Period::Second)
    }

    /// `calls` calls per minute (at least 1).
    pub const fn per_minute(calls: u32) -> Rate {
        Rate::new(calls, Period::Minute)
    }

    /// `calls` calls per hour (at least 1).
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
    fn describe(&self) -> String {
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

/// One limit: a rate and its GCRA state.
pub(crate) struct Limiter {
    rate: Rate,
    state: DefaultDirectRateLimiter,
}

impl Limiter {
    pub fn new(rate: Rate) -> Arc<Limiter> {
        Arc::new(Limiter {
            rate,
            state: RateLimiter::direct(rate.quota()),
        })
    }

    /// Counts one call if the limit allows it now; otherwise says how long until it would.
    fn try_admit(&self) -> Result<(), Duration> {
        self.state
            .check()
            .map_err(|not_until| not_until.wait_time_from(Instant::now()))
    }
}

/// The server-wide limit and mode, shared by every connection.
pub(crate) struct RateLimits {
    server: Option<Arc<Limiter>>,
    mode: RateLimitMode,
}

impl RateLimits {
    pub fn new(server: Option<Rate>, mode: RateLimitMode) -> RateLimits {
        RateLimits {
            server: server.map(Limiter::new),
            mode,
        }
    }

    /// What one call of `tool` must pass before it runs.
    pub fn admission(&self, tool: &CatalogTool) -> Admission {
        Admission {
            tool: tool.rate_limiter.clone(),
            server: self.server.clone(),
            mode: self.mode,
        }
    }
}

/// The limits one call must pass.
pub(crate) struct Admission {
    tool: Option<Arc<Limiter>>,
    server: Option<Arc<Limiter>>,
    mode: RateLimitMode,
}

impl Admission {
    /// Passes the tool's limit, then the server's (so calls a tool's own limit refuses do
    /// not use up the server's), waiting or refusing as the mode says. `Err` is the call's
    /// answer.
    pub async fn admit(self, tool_name: &str) -> Result<(), CallToolResult> {
        if let Some(limiter) = &self.tool {
            self.pass(limiter).await.map_err(|retry_in| {
                CallToolResult::error(format!(
                    "Tool `{tool_name}` is rate-limited to {}; this call was refused. Retry in {}.",
                    limiter.rate.describe(),
                    describe_wait(retry_in)
                ))
            })?;
        }
        if let Some(limiter) = &self.server {
            self.pass(limiter).await.map_err(|retry_in| {
                CallToolResult::error(format!(
                    "The server is rate-limited to {} across all tools; this call to `{tool_name}` was refused. Retry in {}.",
                    limiter.rate.describe(),
                    describe_wait(retry_in)
                ))
            })?;
        }
        Ok(())
    }

    async fn pass(&self, limiter: &Limiter) -> Result<(), Duration> {
        loop {
            match (limiter.try_admit(), self.mode) {
                (Ok(()), _) => return Ok(()),
                (Err(retry_in), RateLimitMode::Reject) => {
                    tracing::debug!(rate = %limiter.rate, ?retry_in, "a call was refused by a rate limit");
                    return Err(retry_in);
                }
                // Another waiting call may take the freed allowance first: check again.
                (Err(retry_in), RateLimitMode::Wait) => tokio::time::sleep(retry_in).await,
            }
        }
    }
}

/// "250 ms", "13 s" (rounded up, so retrying then succeeds).
fn describe_wait(wait: Duration) -> String {
    let millis = wait.as_millis().max(1);
    if millis < 1000 {
        format!("{millis} ms")
    } else {
        format!("{} s", millis.div_ceil(1000))
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

    #[test]
    fn waits_are_rounded_up() {
        assert_eq!(describe_wait(Duration::from_micros(10)), "1 ms");
        assert_eq!(describe_wait(Duration::from_millis(250)), "250 ms");
        assert_eq!(describe_wait(Duration::from_millis(12_001)), "13 s");
    }
}
