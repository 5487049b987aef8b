//! What a fleet of instances shares of a handshake-era session (see [`crate::fleet`]): the
//! record every instance rebuilds the session from, and how a request changes it.

use std::sync::Arc;

use serde_json::Value;

use super::Session;
use crate::context::LogLevel;
use crate::fleet::SessionRecord;
use crate::protocol::client_info::ClientInfo;
use crate::protocol::version::ProtocolVersion;
use crate::task::TaskOwner;

impl Session {
    /// Whether handling a request with this method may change what the fleet shares of its
    /// session (so the record is saved again after it).
    pub(crate) fn changes_record(method: &str) -> bool {
        matches!(
            method,
            "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe"
        )
    }

    /// What the other instances need to serve this session's requests.
    pub fn record(&self) -> Option<SessionRecord> {
        let version = self.negotiated?;
        let mut record = SessionRecord::new(version.as_str(), self.connection_owner().0.clone());
        record.client_info = self.client_info.as_deref().map(|info| info.value().clone());
        record.client_capabilities = (*self.client_capabilities).clone();
        record.log_level = Some(self.log_level().get().as_str().to_owned());
        record.subscriptions = self.subscriptions.iter().cloned().collect();
        Some(record)
    }

    /// Takes on the state another instance left in the store (this instance may never have
    /// seen the session, or hold an older copy).
    pub fn apply_record(&mut self, record: &SessionRecord) {
        if let Some(version) = ProtocolVersion::parse(&record.protocol_version) {
            self.negotiated = Some(version);
        }
        if self.client_info.as_deref().map(ClientInfo::value) != record.client_info.as_ref() {
            self.client_info = record
                .client_info
                .clone()
                .map(ClientInfo::parsed)
                .map(Arc::new);
            self.caller_changed();
        }
        if *self.client_capabilities != record.client_capabilities {
            self.client_capabilities = Arc::new(record.client_capabilities.clone());
            self.caller_changed();
        }
        if let Some(level) = record.log_level.as_deref().and_then(LogLevel::parse) {
            self.log_level().set(level);
        }
        if self.subscriptions.len() != record.subscriptions.len()
            || !record
                .subscriptions
                .iter()
                .all(|uri| self.subscriptions.contains(uri))
        {
            self.subscriptions = record.subscriptions.iter().cloned().collect();
        }
        self.task_owner = TaskOwner(record.task_owner.clone()).into();
    }

    /// Puts `prefix` before the ids of this session's requests to the client: each
    /// instance's copy of a session has its own, so a client's answer names the request of
    /// exactly one.
    pub fn prefix_client_requests(&self, prefix: String) {
        self.client_requests().prefix_ids(prefix);
    }

    /// Whether a tool of this instance waits for the client's answer with this id.
    pub fn awaits_client_answer(&self, id: &Value) -> bool {
        self.client_requests().is_waiting(id)
    }
}
