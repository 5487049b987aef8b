//! Admission of a call under the rate limits: the tool's own, then the server's, waiting or
//! refusing as the server's [`RateLimitMode`] says. The limits themselves (GCRA state per
//! [`Rate`](crate::Rate)) are in `tool::rate`.

use std::sync::Arc;
use std::time::Duration;

use crate::tool::rate::{Limiter, Rate, RateLimitMode};
use crate::tool::result::CallToolResult;

/// The server-wide limit and mode, shared by every connection.
pub(crate) struct RateLimits {
    server: Option<Arc<Limiter>>,
    mode: RateLimitMode,
    /// Where refusals are counted.
    #[cfg(feature = "otel")]
    metrics: Option<crate::telemetry::Metrics>,
}

impl RateLimits {
    pub fn new(server: Option<Rate>, mode: RateLimitMode) -> RateLimits {
        RateLimits {
            server: server.map(Limiter::new),
            mode,
            #[cfg(feature = "otel")]
            metrics: None,
        }
    }

    /// Counts refusals in `metrics` (`mcp.server.rate_limit.refusals`).
    #[cfg(feature = "otel")]
    pub fn counted_in(mut self, metrics: &crate::telemetry::Metrics) -> RateLimits {
        self.metrics = Some(metrics.clone());
        self
    }

    /// What one call must pass before it runs, `tool` being its tool's own limit.
    pub fn admission(&self, tool: Option<Arc<Limiter>>) -> Admission {
        Admission {
            // Only a call that may be refused needs them.
            #[cfg(feature = "otel")]
            metrics: self
                .metrics
                .clone()
                .filter(|_| tool.is_some() || self.server.is_some()),
            tool,
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
    #[cfg(feature = "otel")]
    metrics: Option<crate::telemetry::Metrics>,
}

impl Admission {
    /// Whether no limit applies: admission then never waits nor refuses.
    pub fn is_unlimited(&self) -> bool {
        self.tool.is_none() && self.server.is_none()
    }

    /// Passes the tool's limit, then the server's (so calls a tool's own limit refuses do
    /// not use up the server's), waiting or refusing as the mode says. `Err` is the call's
    /// answer.
    pub async fn admit(self, tool_name: &str) -> Result<(), CallToolResult> {
        if let Some(limiter) = &self.tool {
            self.pass(limiter).await.map_err(|retry_in| {
                #[cfg(feature = "otel")]
                self.count_refusal(tool_name, "tool");
                CallToolResult::error(format!(
                    "Tool `{tool_name}` is rate-limited to {}; this call was refused. Retry in {}.",
                    limiter.rate.describe(),
                    describe_wait(retry_in)
                ))
            })?;
        }
        if let Some(limiter) = &self.server {
            self.pass(limiter).await.map_err(|retry_in| {
                #[cfg(feature = "otel")]
                self.count_refusal(tool_name, "server");
                CallToolResult::error(format!(
                    "The server is rate-limited to {} across all tools; this call to `{tool_name}` was refused. Retry in {}.",
                    limiter.rate.describe(),
                    describe_wait(retry_in)
                ))
            })?;
        }
        Ok(())
    }

    #[cfg(feature = "otel")]
    fn count_refusal(&self, tool_name: &str, scope: &'static str) {
        if let Some(metrics) = &self.metrics {
            metrics.refused(tool_name, scope);
        }
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

    fn admission(tool: Option<Rate>, server: Option<Rate>, mode: RateLimitMode) -> Admission {
        Admission {
            tool: tool.map(Limiter::new),
            server: server.map(Limiter::new),
            mode,
            #[cfg(feature = "otel")]
            metrics: None,
        }
    }

    fn refusal_text(refused: CallToolResult) -> String {
        assert!(refused.is_error, "{refused:?}");
        assert_eq!(refused.content.len(), 1, "{refused:?}");
        refused.content[0]
            .as_text()
            .expect("a text block")
            .to_owned()
    }

    #[tokio::test(start_paused = true)]
    async fn refusals_name_the_limit_and_when_to_retry() {
        let tool = Limiter::new(Rate::per_second(2));
        let server = Limiter::new(Rate::per_minute(3));
        let admit = || {
            Admission {
                tool: Some(Arc::clone(&tool)),
                server: Some(Arc::clone(&server)),
                mode: RateLimitMode::Reject,
                #[cfg(feature = "otel")]
                metrics: None,
            }
            .admit("search")
        };
        assert!(admit().await.is_ok());
        assert!(admit().await.is_ok());
        let refused = admit().await.expect_err("the tool's limit: 2 per second");
        assert_eq!(
            refusal_text(refused),
            "Tool `search` is rate-limited to 2 calls per second; this call was refused. \
             Retry in 500 ms."
        );
        tokio::time::advance(Duration::from_secs(1)).await;
        assert!(admit().await.is_ok(), "the server's third call this minute");
        let refused = admit().await.expect_err("the server's limit: 3 per minute");
        assert_eq!(
            refusal_text(refused),
            "The server is rate-limited to 3 calls per minute across all tools; this call to \
             `search` was refused. Retry in 19 s."
        );
    }

    #[tokio::test(start_paused = true)]
    async fn in_wait_mode_every_call_is_admitted_in_turn() {
        let server = Limiter::new(Rate::per_second(5));
        let calls = (0..12).map(|_| {
            Admission {
                tool: None,
                server: Some(Arc::clone(&server)),
                mode: RateLimitMode::Wait,
                #[cfg(feature = "otel")]
                metrics: None,
            }
            .admit("search")
        });
        let admitted = futures_util::future::join_all(calls).await;
        assert_eq!(admitted.iter().filter(|result| result.is_ok()).count(), 12);
        // Then the allowance is used up: the next call, rejected, would have to wait.
        let next = admission(None, None, RateLimitMode::Reject);
        assert!(next.admit("search").await.is_ok(), "no limit, no wait");
        assert!(server.try_admit().is_err());
    }

    #[test]
    fn waits_are_rounded_up() {
        assert_eq!(describe_wait(Duration::from_micros(10)), "1 ms");
        assert_eq!(describe_wait(Duration::from_millis(250)), "250 ms");
        assert_eq!(describe_wait(Duration::from_millis(12_001)), "13 s");
    }
}
