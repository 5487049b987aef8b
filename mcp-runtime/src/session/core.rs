//! What every connection of one server shares: its identity, its tools, its limits and
//! settings. Built once by `Server`, then read by every session.

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use super::call::ServerSlots;
use crate::access::Access;
use crate::changes::Notifier;
use crate::icon::{Icon, icons_json};
use crate::middleware::ServerLayers;
use crate::prompt::set::PromptSet;
use crate::protocol::version::ProtocolVersion;
use crate::resource::set::ResourceSet;
use crate::session::admission::RateLimits;
use crate::skill::set::SkillSet;
use crate::task::engine::Tasks;
use crate::task::store::OwnerOfPrincipal;
use crate::tool::extract::States;
use crate::tool::set::ToolSet;

/// What the server says about itself.
#[derive(Clone, Debug)]
pub(crate) struct ServerInfo {
    pub name: String,
    pub version: String,
    pub title: Option<String>,
    /// Sent from 2025-11-25 on.
    pub icons: Vec<Icon>,
}

/// Everything shared by all connections of one server.
pub(crate) struct ServerCore {
    pub info: ServerInfo,
    /// `info` as every 2026-07-28 result carries it, made once.
    pub stateless_info: OnceLock<Arc<Value>>,
    /// `{}`: the capabilities of a client that declared none, shared by every session.
    pub no_capabilities: Arc<Value>,
    pub instructions: Option<String>,
    /// The tools offered (changeable at run time).
    pub tools: ToolSet,
    /// The resources and templates offered (changeable at run time).
    pub resources: ResourceSet,
    /// The prompts offered (changeable at run time).
    pub prompts: PromptSet,
    /// The skills offered (changeable at run time); their files are among `resources`.
    pub skills: SkillSet,
    /// Resource updates and list changes, for every connection to pass on.
    pub notifier: Notifier,
    pub page_size: usize,
    pub list_ttl_ms: u64,
    /// Calls allowed to run at once across the server; the rest wait their turn, in a
    /// queue of bounded length.
    pub call_slots: Arc<ServerSlots>,
    /// How long a call may run before it is stopped with an `isError` result.
    pub call_timeout: Option<std::time::Duration>,
    /// The server-wide rate limit, and what happens to calls over any rate limit.
    pub rate_limits: RateLimits,
    /// Whether `tracing` events inside tools are forwarded to clients as log messages.
    pub forward_tracing: bool,
    /// Whether the messages of errors not marked public are hidden from clients.
    pub mask_error_details: bool,
    /// How long a tool waits for the client to answer one of its requests.
    pub client_request_timeout: std::time::Duration,
    /// Values registered with `Server::state`.
    pub states: Arc<States>,
    /// The tasks of this server, and their store.
    pub tasks: Arc<Tasks>,
    /// Makes a task owner from an authenticated principal (`Server::task_owner`).
    pub task_owner: Option<OwnerOfPrincipal>,
    /// The layers around tool calls (`Server::layer`, `Server::layer_for_tag`).
    pub layers: ServerLayers,
    /// Scopes and principals: who may call which tool.
    pub access: Access,
    /// The instruments requests and sessions are recorded in.
    #[cfg(feature = "otel")]
    pub metrics: crate::telemetry::Metrics,
}

pub(crate) fn supported_versions() -> Value {
    ProtocolVersion::ALL
        .iter()
        .rev()
        .map(|version| Value::from(version.as_str()))
        .collect()
}

impl ServerCore {
    /// The server's identity as every 2026-07-28 result carries it in `_meta`.
    pub fn stateless_server_info(&self) -> &Arc<Value> {
        self.stateless_info
            .get_or_init(|| Arc::new(server_info_json(self, ProtocolVersion::V2026_07_28)))
    }
}

pub(crate) fn server_info_json(core: &ServerCore, version: ProtocolVersion) -> Value {
    let mut info = Map::new();
    info.insert("name".into(), core.info.name.clone().into());
    info.insert("version".into(), core.info.version.clone().into());
    if let (true, Some(title)) = (version.has_structured_output(), &core.info.title) {
        info.insert("title".into(), title.clone().into());
    }
    if version.has_icons()
        && let Some(icons) = icons_json(&core.info.icons)
    {
        info.insert("icons".into(), icons);
    }
    Value::Object(info)
}
