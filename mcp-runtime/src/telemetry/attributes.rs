//! The attribute keys, spelled once.

pub const METHOD: &str = "mcp.method.name";
pub const TOOL_NAME: &str = "gen_ai.tool.name";
pub const PROMPT_NAME: &str = "gen_ai.prompt.name";
pub const OPERATION_NAME: &str = "gen_ai.operation.name";
pub const PROTOCOL_VERSION: &str = "mcp.protocol.version";
pub const TRANSPORT: &str = "network.transport";
pub const PROTOCOL_NAME: &str = "network.protocol.name";
pub const ERROR_TYPE: &str = "error.type";
pub const STATUS_CODE: &str = "rpc.response.status_code";
/// Ours: which rate limit refused a call, `tool` or `server`.
pub const RATE_LIMIT_SCOPE: &str = "mcp.rate_limit.scope";
