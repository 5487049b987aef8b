//! The MCP protocol revisions this runtime speaks, and what each one allows.

use std::fmt;

/// A revision of the Model Context Protocol.
///
/// One server binary speaks all of them: the four handshake-era ("legacy") revisions
/// negotiated through `initialize`, and the stateless 2026-07-28 revision named in each
/// request's `_meta`. What the server sends is shaped for the revision in use: a field
/// or content type that revision lacks is never sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// 2024-11-05: the first revision.
    V2024_11_05,
    /// 2025-03-26: tool annotations, audio content, JSON-RPC batches.
    V2025_03_26,
    /// 2025-06-18: structured output, titles, resource links; batches removed.
    V2025_06_18,
    /// 2025-11-25: argument errors are tool errors, JSON Schema 2020-12 by default.
    V2025_11_25,
    /// 2026-07-28: stateless; no handshake, every request carries its version in `_meta`.
    V2026_07_28,
}

impl ProtocolVersion {
    /// Every revision, oldest first.
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The newest revision negotiated through `initialize`.
    pub const LATEST_HANDSHAKE: ProtocolVersion = ProtocolVersion::V2025_11_25;

    /// The revision's date string, as sent on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Parses a revision's date string.
    pub fn parse(version: &str) -> Option<ProtocolVersion> {
        ProtocolVersion::ALL
            .into_iter()
            .find(|candidate| candidate.as_str() == version)
    }

    /// Whether this revision is the stateless one (no `initialize`, `_meta` on every request).
    pub const fn is_stateless(self) -> bool {
        matches!(self, ProtocolVersion::V2026_07_28)
    }

    /// Whether JSON-RPC batches (arrays of messages) are part of this revision.
    pub(crate) fn allows_batches(self) -> bool {
        self == ProtocolVersion::V2025_03_26
    }

    /// Tool `annotations` and `audio` content exist from 2025-03-26.
    pub(crate) fn has_tool_annotations(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// `title`, `outputSchema`, `structuredContent`, `resource_link` and `lastModified`
    /// exist from 2025-06-18.
    pub(crate) fn has_structured_output(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// `icons` on tools, resources, prompts and the server exist from 2025-11-25.
    pub(crate) fn has_icons(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }

    /// Tools list `execution.taskSupport` only in 2025-11-25, where tasks are core; in
    /// 2026-07-28 they are an extension the server offers per call.
    pub(crate) fn has_task_support_listing(self) -> bool {
        self == ProtocolVersion::V2025_11_25
    }

    /// The `completions` capability exists from 2025-03-26 (2024-11-05 has
    /// `completion/complete` but no capability to announce it).
    pub(crate) fn has_completions_capability(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// From 2025-11-25 an error response may omit an `id` that could not be read; before,
    /// JSON-RPC 2.0's `null` is sent.
    pub(crate) fn may_omit_unknown_id(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
