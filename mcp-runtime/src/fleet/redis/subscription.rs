//! A subscription to one Redis channel that stays made: it is made again whenever it
//! breaks, also when its connection falls silent without closing (a NAT or proxy that
//! forgot an idle connection), which only an unanswered `PING` shows. Its `PING`s also keep
//! such a connection from being idle.

use std::fmt::Display;
use std::future::Future;
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{PubSubSink, PubSubStream};
use tokio::time::error::Elapsed;
use tokio::time::{Instant, MissedTickBehavior};

use super::link::{CONNECTION_TIMEOUT, RESPONSE_TIMEOUT};

/// How long to wait before subscribing again after the subscription broke.
const RESUBSCRIBE_AFTER: Duration = Duration::from_millis(250);
/// How often the subscription's connection is asked for a `PING`.
const PING_EVERY: Duration = Duration::from_secs(2);
/// How long a new connection has to connect and answer, as the link allows a command.
const NEW_CONNECTION_WITHIN: Duration = CONNECTION_TIMEOUT.saturating_add(RESPONSE_TIMEOUT);

/// What a subscription hears.
#[derive(Debug)]
pub(super) enum Heard {
    /// Subscribed, or subscribed again: nothing published while it was broken was heard.
    Subscribed,
    /// A message's payload.
    Message(String),
    /// The subscription broke; it is being made again.
    Broke,
}

/// Listens to `channel` until `stop` completes, handing what it hears to `hear`. `what`
/// names the messages in the log ("the fleet's messages").
pub(super) async fn listen(
    client: &redis::Client,
    channel: &str,
    what: &str,
    stop: impl Future<Output = ()>,
    mut hear: impl FnMut(Heard),
) {
    tokio::pin!(stop);
    let mut failing = false;
    loop {
        tokio::select! {
            () = hear_until_broken(client, channel, what, &mut failing, &mut hear) => {}
            () = &mut stop => return,
        }
        tokio::select! {
            () = tokio::time::sleep(RESUBSCRIBE_AFTER) => {}
            () = &mut stop => return,
        }
    }
}

/// Subscribes, then hands on what is heard until the subscription breaks. `failing`: whether
/// the last attempt failed (so a failure is logged once, and the recovery too).
async fn hear_until_broken(
    client: &redis::Client,
    channel: &str,
    what: &str,
    failing: &mut bool,
    hear: &mut impl FnMut(Heard),
) {
    let (mut sink, mut messages) = match subscribe(client, channel).await {
        Ok(halves) => halves,
        Err(error) => {
            *failing = lost(*failing, what, &error);
            return;
        }
    };
    if std::mem::take(failing) {
        tracing::info!("subscribed to {what} again");
    }
    hear(Heard::Subscribed);
    let mut ping = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let error = loop {
        tokio::select! {
            message = messages.next() => match message {
                Some(message) => {
                    if let Ok(text) = message.get_payload::<String>() {
                        hear(Heard::Message(text));
                    }
                }
                None => break "the connection closed".to_owned(),
            },
            _ = ping.tick() => match answer(&mut sink).await {
                Ok(Ok(_)) => {}
                Ok(Err(error)) => break error.to_string(),
                Err(_) if lost_in_silence(client, &mut sink).await => {
                    break "no answer to a PING, while Redis answers on a new connection".to_owned();
                }
                Err(_) => {}
            },
        }
    };
    *failing = lost(false, what, &error);
    hear(Heard::Broke);
}

/// The subscription's connection's answer to a `PING`, if it came within the link's
/// response timeout.
async fn answer(sink: &mut PubSubSink) -> Result<redis::RedisResult<redis::Value>, Elapsed> {
    tokio::time::timeout(RESPONSE_TIMEOUT, sink.ping()).await
}

/// Whether the subscription's connection, which did not answer a `PING`, is lost while Redis
/// lives: Redis answers on a new connection, and then still not on this one. A Redis that
/// answers nowhere is stalled or out of this instance's reach; nothing published meanwhile
/// is lost to a connection that is kept (it comes once Redis answers, or the connection
/// fails), and the instances keep trusting their copies of sessions through a stall.
async fn lost_in_silence(client: &redis::Client, sink: &mut PubSubSink) -> bool {
    let ping = async {
        let mut connection = client.get_multiplexed_async_connection().await?;
        redis::cmd("PING")
            .query_async::<redis::Value>(&mut connection)
            .await
    };
    let alive = tokio::time::timeout(NEW_CONNECTION_WITHIN, ping).await;
    matches!(alive, Ok(Ok(_))) && !matches!(answer(sink).await, Ok(Ok(_)))
}

/// A new connection subscribed to `channel`, within the link's time limits.
async fn subscribe(
    client: &redis::Client,
    channel: &str,
) -> Result<(PubSubSink, PubSubStream), String> {
    let subscribing = async {
        let mut pubsub = client.get_async_pubsub().await?;
        pubsub.subscribe(channel).await?;
        Ok::<_, redis::RedisError>(pubsub.split())
    };
    let within = NEW_CONNECTION_WITHIN;
    match tokio::time::timeout(within, subscribing).await {
        Ok(subscribed) => subscribed.map_err(|error| error.to_string()),
        Err(_) => Err(format!("Redis did not subscribe within {within:?}")),
    }
}

/// Logs that the subscription is lost, unless the last attempt had failed too; `true`.
fn lost(failing: bool, what: &str, error: &dyn Display) -> bool {
    if !failing {
        tracing::warn!(%error, "lost the subscription to {what}; subscribing again");
    }
    true
}
