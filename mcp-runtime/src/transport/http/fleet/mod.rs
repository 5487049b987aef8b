//! The endpoint's side of a fleet (see [`crate::fleet`]): this instance's id and
//! heartbeat, the notes it exchanges with the other instances through the store, and what it
//! does with theirs. Resumable streams across instances are in `streams`.

mod streams;

use std::sync::{Arc, Weak};

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::endpoint::Endpoint;
use crate::changes::Change;
use crate::fleet::{FleetStore, HEARTBEAT_EVERY, HEARTBEAT_TTL, StoreError};
use crate::protocol::outbox::Outbox;

pub(crate) use streams::remote_stream;

/// This instance's membership of a fleet.
pub(crate) struct Fleet {
    pub store: Arc<dyn FleetStore>,
    /// This instance's id, random per process.
    pub instance: Arc<str>,
}

/// A message between instances.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "snake_case")]
enum Note {
    /// An instance's tool list changed.
    ToolsChanged { from: String },
    /// An instance's resource or prompt list changed, or one of its resources.
    Changed { from: String, change: ChangeNote },
    /// A session ended (DELETE): every instance forgets it.
    SessionEnded { session: String },
    /// A session's log level or subscriptions changed: instances holding it reload it.
    SessionChanged { from: String, session: String },
    /// A client's answer to a request one instance's tool sent it.
    ClientAnswer { session: String, message: Value },
    /// A client cancelled a request running on some instance.
    Cancel { session: String, request: Value },
    /// A message for a session's standalone (GET) stream, wherever it is held: what a task
    /// sends once its request was answered.
    Standalone { session: String, message: Value },
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum ChangeNote {
    ResourceUpdated { uri: String },
    ResourceListChanged,
    PromptListChanged,
}

impl From<&Change> for ChangeNote {
    fn from(change: &Change) -> Self {
        match change {
            Change::ResourceUpdated(uri) => ChangeNote::ResourceUpdated {
                uri: uri.to_string(),
            },
            Change::ResourceListChanged => ChangeNote::ResourceListChanged,
            Change::PromptListChanged => ChangeNote::PromptListChanged,
        }
    }
}

impl From<ChangeNote> for Change {
    fn from(note: ChangeNote) -> Self {
        match note {
            ChangeNote::ResourceUpdated { uri } => Change::ResourceUpdated(uri.into()),
            ChangeNote::ResourceListChanged => Change::ResourceListChanged,
            ChangeNote::PromptListChanged => Change::PromptListChanged,
        }
    }
}

impl Fleet {
    /// This instance (`instance`: its id, random per process) in the fleet of `store`.
    pub fn new(store: Arc<dyn FleetStore>, instance: Arc<str>) -> Self {
        Fleet { store, instance }
    }

    /// Sends this instance's first heartbeat: fails when the store cannot be reached.
    pub async fn check(&self) -> Result<(), StoreError> {
        self.store.heartbeat(&self.instance, HEARTBEAT_TTL).await
    }

    async fn publish(&self, note: &Note) -> Result<(), StoreError> {
        let text = serde_json::to_string(note).expect("a note always serializes");
        self.store.publish(&text).await
    }

    /// Passes a client's answer to the instance whose tool waits for it.
    pub async fn forward_answer(&self, session: &str, message: Value) -> Result<(), StoreError> {
        let session = session.to_owned();
        self.publish(&Note::ClientAnswer { session, message }).await
    }

    /// Passes a cancellation to the instance running the request.
    pub async fn forward_cancel(&self, session: &str, request: Value) -> Result<(), StoreError> {
        let session = session.to_owned();
        self.publish(&Note::Cancel { session, request }).await
    }

    /// Tells every instance that a session ended.
    pub async fn session_ended(&self, session: &str) -> Result<(), StoreError> {
        let session = session.to_owned();
        self.publish(&Note::SessionEnded { session }).await
    }

    /// Tells every instance that a session's record changed.
    pub async fn session_changed(&self, session: &str) -> Result<(), StoreError> {
        let note = Note::SessionChanged {
            from: self.instance.to_string(),
            session: session.to_owned(),
        };
        self.publish(&note).await
    }

    /// An outbox for the messages of a session's standalone stream: they go to every
    /// instance, and the one holding the stream sends them. The forwarding ends when every
    /// sender is gone.
    pub fn standalone_outbox(self: &Arc<Self>, session: &str) -> Outbox {
        let (outbox, mut lines) = Outbox::channel();
        let fleet = Arc::clone(self);
        let session = session.to_owned();
        tokio::spawn(async move {
            while let Some(line) = lines.recv().await {
                if line.is_empty() {
                    break;
                }
                let Ok(message) = serde_json::from_slice(&line) else {
                    continue;
                };
                let note = Note::Standalone {
                    session: session.clone(),
                    message,
                };
                if let Err(error) = fleet.publish(&note).await {
                    tracing::warn!(%error, "a message for a session's stream was lost");
                }
            }
        });
        outbox
    }

    /// Starts this instance's part: its heartbeat, passing its own changes on to the
    /// others, and handling their notes. Each stops once the endpoint is gone.
    pub fn start(self: &Arc<Self>, endpoint: &Arc<Endpoint>) {
        self.spawn_heartbeat(Arc::downgrade(endpoint));
        self.spawn_change_relay(endpoint);
        self.spawn_note_handler(Arc::downgrade(endpoint));
    }

    fn spawn_heartbeat(self: &Arc<Self>, endpoint: Weak<Endpoint>) {
        let fleet = Arc::clone(self);
        tokio::spawn(async move {
            let mut failing = false;
            while endpoint.strong_count() > 0 {
                match fleet.check().await {
                    Ok(()) if failing => {
                        tracing::info!("the fleet's store is reachable again");
                        failing = false;
                    }
                    Ok(()) => {}
                    Err(error) if !failing => {
                        tracing::warn!(%error, "cannot send this instance's heartbeat");
                        failing = true;
                    }
                    Err(_) => {}
                }
                tokio::time::sleep(HEARTBEAT_EVERY).await;
            }
        });
    }

    /// Publishes the changes made here, so every instance's clients hear of them.
    fn spawn_change_relay(self: &Arc<Self>, endpoint: &Arc<Endpoint>) {
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

    fn spawn_note_handler(self: &Arc<Self>, endpoint: Weak<Endpoint>) {
        let fleet = Arc::clone(self);
        let mut notes = self.store.subscribe();
        tokio::spawn(async move {
            while let Some(text) = notes.next().await {
                let Some(endpoint) = endpoint.upgrade() else {
                    return;
                };
                match serde_json::from_str::<Note>(&text) {
                    Ok(note) => fleet.handle(&endpoint, note).await,
                    Err(error) => {
                        tracing::debug!(%error, "ignoring a note this instance cannot read")
                    }
                }
            }
        });
    }

    async fn handle(&self, endpoint: &Endpoint, note: Note) {
        let core = endpoint.core();
        let sessions = endpoint.sessions();
        match note {
            Note::ToolsChanged { from } if *from != *self.instance => core.tools.relay_change(),
            Note::Changed { from, change } if *from != *self.instance => {
                core.notifier.relay(change.into());
            }
            Note::ToolsChanged { .. } | Note::Changed { .. } => {}
            Note::SessionEnded { session } => sessions.forget(&session),
            Note::SessionChanged { from, session } if *from != *self.instance => {
                sessions.reload(&session).await;
            }
            Note::SessionChanged { .. } => {}
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
