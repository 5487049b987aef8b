//! [`ToolHints`]: what a tool says of its behaviour, for clients and for layers.

/// Behaviour hints (`annotations` in `tools/list`). `None` means "not stated": the
/// spec's defaults then apply on the client, and nothing is emitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// `readOnlyHint`: the tool does not modify its environment.
    pub read_only: Option<bool>,
    /// `destructiveHint`: the tool may destroy or overwrite data.
    pub destructive: Option<bool>,
    /// `idempotentHint`: repeating a call with the same arguments has no further effect.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: the tool interacts with external entities.
    pub open_world: Option<bool>,
}
