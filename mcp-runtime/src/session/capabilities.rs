//! What a server declares it offers, revision by revision: the capabilities `initialize`
//! (handshake era) and `server/discover` (2026-07-28) answer with, extensions among them.

use serde_json::{Map, Value, json};

use super::Session;
use crate::protocol::version::ProtocolVersion;

impl Session {
    /// What this server offers, for `version`: tools and logging always; resources,
    /// prompts and completions only when the binary has them.
    pub(super) fn capabilities(&self, version: ProtocolVersion) -> Value {
        let mut capabilities = Map::new();
        let tools_change = self.core.tools.announces_changes();
        capabilities.insert("tools".into(), json!({ "listChanged": tools_change }));
        capabilities.insert("logging".into(), json!({}));
        let lists_change = self.core.notifier.announces_list_changes();
        if self.offers_resources() {
            capabilities.insert(
                "resources".into(),
                json!({ "subscribe": true, "listChanged": lists_change }),
            );
        }
        if self.offers_prompts() {
            capabilities.insert("prompts".into(), json!({ "listChanged": lists_change }));
        }
        if self.offers_completions() && version.has_completions_capability() {
            capabilities.insert("completions".into(), json!({}));
        }
        // Tasks and skills are declared only from 2026-07-28, the first revision with
        // `capabilities.extensions`.
        let mut extensions = Map::new();
        if self.offers_tasks() && version.is_stateless() {
            extensions.insert(crate::task::wire::EXTENSION.into(), json!({}));
        }
        if self.offers_skills() && version.is_stateless() {
            // Settings inline under the identifier (SEP-2133): skill directories are served.
            extensions.insert(
                crate::skill::EXTENSION.into(),
                json!({ "directoryRead": true }),
            );
        }
        if self.core.tools.catalog().names_views() {
            // In every revision, unlike the others: the MCP Apps spec negotiates it through
            // `capabilities.extensions` whatever the revision, and older schemas let it pass.
            extensions.insert(
                crate::apps::EXTENSION.into(),
                json!({ "mimeTypes": [crate::apps::MIME_TYPE] }),
            );
        }
        if !extensions.is_empty() {
            capabilities.insert("extensions".into(), Value::Object(extensions));
        }
        if self.offers_tasks() && version.has_task_support_listing() {
            capabilities.insert(
                "tasks".into(),
                json!({ "list": {}, "cancel": {}, "requests": { "tools": { "call": {} } } }),
            );
        }
        Value::Object(capabilities)
    }

    pub(super) fn offers_resources(&self) -> bool {
        self.core.resources.offers_any()
    }

    pub(super) fn offers_prompts(&self) -> bool {
        self.core.prompts.offers_any()
    }

    pub(super) fn offers_completions(&self) -> bool {
        self.core.prompts.catalog().has_completions()
            || self.core.resources.catalog().has_completions()
    }

    /// Whether the server has skills, or may have: whether it declares the extension.
    pub(super) fn offers_skills(&self) -> bool {
        self.core.skills.offers_any()
    }
}
