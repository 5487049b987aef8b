//! This instance's membership of a fleet: its id, the store, and the notes it sends the
//! other instances through it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::gather::Gathering;
use super::hearing::{HEARD_WITHIN, Hearing};
use crate::changes::Change;
use crate::fleet::{FleetStore, HEARTBEAT_TTL, StoreError};
use crate::protocol::outbox::Outbox;
use crate::protocol::random_id::random_id;

/// This instance's membership of a fleet.
pub(crate) struct Fleet {
    pub store: Arc<dyn FleetStore>,
    /// This instance's id, random per process.
    pub instance: Arc<str>,
    /// Whether this instance hears the others' notes now.
    pub hearing: Hearing,
    /// The copies of call streams on their way to the store.
    pub gathering: Gathering,
}

/// A message between instances.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub(super) enum Note {
    /// An instance's tool list changed.
    ToolsChanged { from: String },
    /// An instance's resource or prompt list changed, or one of its resources.
    Changed { from: String, change: ChangeNote },
    /// A session ended (DELETE): every instance forgets it, then acknowledges `ack`.
    SessionEnded {
        session: String,
        #[serde(default)]
        ack: Option<String>,
    },
    /// A session's log level or subscriptions changed: instances holding it reload it,
    /// then acknowledge `ack`.
    SessionChanged {
        from: String,
        session: String,
        #[serde(default)]
        ack: Option<String>,
    },
    /// An instance handled the note whose `ack` this is.
    Heard { ack: String },
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
pub(super) enum ChangeNote {
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
        Fleet {
            store,
            instance,
            hearing: Hearing::default(),
            gathering: Gathering::default(),
        }
    }

    /// Sends this instance's first heartbeat: fails when the store cannot be reached.
    pub async fn check(&self) -> Result<(), StoreError> {
        self.store.heartbeat(&self.instance, HEARTBEAT_TTL).await
    }

    pub(super) async fn publish(&self, note: &Note) -> Result<(), StoreError> {
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

    /// Tells every instance that a session ended, and waits until they all heard.
    pub async fn session_ended(&self, session: &str) -> Result<(), StoreError> {
        let session = session.to_owned();
        self.publish_heard(|ack| Note::SessionEnded { session, ack })
            .await
    }

    /// Tells every instance that a session's record changed, and waits until they all
    /// reloaded it.
    pub async fn session_changed(&self, session: &str) -> Result<(), StoreError> {
        let from = self.instance.to_string();
        let session = session.to_owned();
        self.publish_heard(|ack| Note::SessionChanged { from, session, ack })
            .await
    }

    /// Publishes the note `note` makes with an `ack` id, and waits until as many instances
    /// acknowledged it as the store says received it (at most [`HEARD_WITHIN`]): a request
    /// that ended or changed a session is answered once no copy of it is out of date.
    async fn publish_heard(
        &self,
        note: impl FnOnce(Option<String>) -> Note,
    ) -> Result<(), StoreError> {
        let ack = random_id();
        let heard = self.hearing.expect(&ack);
        let text =
            serde_json::to_string(&note(Some(ack.clone()))).expect("a note always serializes");
        let received = self.store.publish_counted(&text).await;
        if let Ok(Some(received)) = received {
            self.hearing.needs(&ack, received);
            if tokio::time::timeout(HEARD_WITHIN, heard).await.is_err() {
                tracing::warn!(
                    "not every instance heard within {HEARD_WITHIN:?} that a session ended or changed; a stalled one may serve its old copy until it catches up"
                );
            }
        }
        self.hearing.stop_waiting(&ack);
        received.map(drop)
    }

    /// Acknowledges a note whose `ack` this is, to the instance that waits for it.
    pub(super) async fn acknowledge(&self, ack: Option<String>) {
        let Some(ack) = ack else { return };
        if let Err(error) = self.publish(&Note::Heard { ack }).await {
            tracing::debug!(%error, "a note was not acknowledged");
        }
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
}
