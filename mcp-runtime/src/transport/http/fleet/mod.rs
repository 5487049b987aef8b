//! The endpoint's side of a fleet (see [`crate::fleet`]): this instance's id and
//! heartbeat, the notes it exchanges with the other instances through the store, and what it
//! does with theirs. The membership and the notes it sends are in `membership`; resumable
//! streams across instances are in `streams`.

mod gather;
mod hearing;
mod membership;
mod streams;

use std::sync::{Arc, Weak};

use futures_util::StreamExt;

use super::sessions::Sessions;
use crate::fleet::{SUBSCRIBED, UNSUBSCRIBED, spawn_beats};
use crate::session::ServerCore;
use membership::{ChangeNote, Note};

pub(crate) use gather::Mirror;
pub(crate) use membership::Fleet;
pub(crate) use streams::{claim_here, remote_stream};

/// The endpoint, as the fleet's work sees it: the server and the sessions the other
/// instances' notes reach. That work stops once the endpoint is gone.
pub(crate) trait FleetEndpoint: Send + Sync + 'static {
    fn core(&self) -> &Arc<ServerCore>;
    fn sessions(&self) -> &Sessions;
}

impl Fleet {
    /// Starts this instance's part: its heartbeat, passing its own changes on to the
    /// others, and handling their notes. Each stops once the endpoint is gone.
    pub fn start<E: FleetEndpoint>(self: &Arc<Self>, endpoint: &Arc<E>) {
        self.spawn_heartbeat(Arc::downgrade(endpoint));
        self.spawn_change_relay(endpoint);
        self.spawn_note_handler(Arc::downgrade(endpoint));
    }

    fn spawn_heartbeat<E: FleetEndpoint>(self: &Arc<Self>, endpoint: Weak<E>) {
        let fleet = Arc::clone(self);
        spawn_beats(
            move || {
                let fleet = Arc::clone(&fleet);
                async move { fleet.check().await }
            },
            move || endpoint.strong_count() > 0,
        );
    }

    /// Publishes the changes made here, so every instance's clients hear of them.
    fn spawn_change_relay<E: FleetEndpoint>(self: &Arc<Self>, endpoint: &Arc<E>) {
        let fleet = Arc::clone(self);
        let core = Arc::clone(endpoint.core());
        let mut tools = core.tools.subscribe();
        let mut changes = core.notifier.subscribe_local();
        let weak = Arc::downgrade(endpoint);
        tokio::spawn(async move {
            loop {
                let note = tokio::select! {
                    changed = tools.changed() => {
                        if changed.is_err() {
                            return;
                        }
                        let generation = *tools.borrow_and_update();
                        if !core.tools.changed_here(generation) {
                            continue;
                        }
                        Note::ToolsChanged { from: fleet.instance.to_string() }
                    }
                    change = changes.recv() => match change {
                        Ok(change) => Note::Changed {
                            from: fleet.instance.to_string(),
                            change: ChangeNote::from(&change),
                        },
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                    },
                };
                if weak.strong_count() == 0 {
                    return;
                }
                if let Err(error) = fleet.publish(&note).await {
                    tracing::warn!(%error, "a change was not passed on to the other instances");
                }
            }
        });
    }

    fn spawn_note_handler<E: FleetEndpoint>(self: &Arc<Self>, endpoint: Weak<E>) {
        let fleet = Arc::clone(self);
        let mut notes = self.store.subscribe();
        tokio::spawn(async move {
            while let Some(text) = notes.next().await {
                let Some(endpoint) = endpoint.upgrade() else {
                    return;
                };
                match text.as_str() {
                    SUBSCRIBED => {
                        fleet.hearing.subscribed();
                        continue;
                    }
                    UNSUBSCRIBED => {
                        fleet.hearing.unsubscribed();
                        continue;
                    }
                    _ => {}
                }
                match serde_json::from_str::<Note>(&text) {
                    Ok(note) => fleet.handle(&*endpoint, note).await,
                    Err(error) => {
                        tracing::debug!(%error, "ignoring a note this instance cannot read")
                    }
                }
            }
        });
    }

    async fn handle<E: FleetEndpoint>(&self, endpoint: &E, note: Note) {
        let core = endpoint.core();
        let sessions = endpoint.sessions();
        match note {
            Note::ToolsChanged { from } if *from != *self.instance => core.tools.relay_change(),
            Note::Changed { from, change } if *from != *self.instance => {
                core.notifier.relay(change.into());
            }
            Note::ToolsChanged { .. } | Note::Changed { .. } => {}
            Note::SessionEnded { session, ack } => {
                // Counted first: a copy being read from the store meanwhile is not trusted.
                self.hearing.handling();
                sessions.forget(&session);
                self.acknowledge(ack).await;
            }
            Note::SessionChanged { from, session, ack } => {
                self.hearing.handling();
                if *from != *self.instance {
                    sessions.reload(&session).await;
                }
                self.acknowledge(ack).await;
            }
            Note::Heard { ack } => self.hearing.heard(&ack),
            Note::ClientAnswer { session, message } => {
                if let Some(session) = sessions.local(&session) {
                    session.take_answer(message);
                }
            }
            Note::Cancel { session, request } => {
                if let Some(session) = sessions.local(&session) {
                    session.calls.cancel(&request);
                }
            }
            Note::Standalone { session, message } => {
                if let Some(session) = sessions.local(&session) {
                    session.standalone().push(&message.to_string());
                }
            }
        }
    }
}
