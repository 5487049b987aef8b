//! MCP Apps (the `io.modelcontextprotocol/ui` extension): a tool names an HTML view, a
//! `ui://` resource the host renders in a sandboxed frame; see the
//! [apps chapter](crate::manual::apps).
//!
//! A view is an ordinary `#[mcp_resource]` whose URI starts with `ui://` and which returns a
//! [`View`]; a tool links to it with `#[mcp_tool(ui = "ui://...")]`, and states who may call
//! it with `visibility = [...]` ([`Visibility`]).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

/// The extension's identifier, the key of `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The MIME type of an HTML view, which the spec requires of every view's contents.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The deprecated flat form of `_meta.ui.resourceUri`, which older hosts read.
const FLAT_URI_KEY: &str = "ui/resourceUri";

/// Who may call a tool (`_meta.ui.visibility`): the model, the view, or both.
///
/// The server lists every tool with its visibility; the host keeps a tool whose visibility
/// lacks `"model"` out of the model's tool list and refuses a view's call of a tool whose
/// visibility lacks `"app"` (the spec puts both rules on the host).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Visibility {
    /// `["model", "app"]`, the spec's default: not written in the listing.
    #[default]
    ModelAndApp,
    /// `["model"]`: the view may not call it.
    Model,
    /// `["app"]`: only the view calls it; the host hides it from the model.
    App,
}

impl Visibility {
    /// The listing's `visibility` array, or `None` for the default.
    fn json(self) -> Option<Value> {
        match self {
            Visibility::ModelAndApp => None,
            Visibility::Model => Some(json!(["model"])),
            Visibility::App => Some(json!(["app"])),
        }
    }
}

/// What `#[mcp_tool(ui = "...", visibility = [...])]` (or [`DynamicTool::view`] and
/// [`DynamicTool::visibility`]) states: the tool's `_meta.ui`.
///
/// [`DynamicTool::view`]: crate::DynamicTool::view
/// [`DynamicTool::visibility`]: crate::DynamicTool::visibility
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolUi<'a> {
    /// `ui = "ui://..."`: the view the host renders the tool's results in.
    pub resource_uri: Option<&'a str>,
    /// `visibility = [...]`.
    pub visibility: Visibility,
}

impl ToolUi<'_> {
    /// A tool with neither a view nor a visibility of its own.
    pub const NONE: ToolUi<'static> = ToolUi {
        resource_uri: None,
        visibility: Visibility::ModelAndApp,
    };

    /// The tool's `_meta` (`{"ui": {...}}`), or `None` when it states nothing. A view's URI
    /// is also written under the deprecated flat key `ui/resourceUri`, for hosts older than
    /// the nested form, as the extension's own server helper (`registerAppTool`) does.
    pub(crate) fn meta(&self) -> Option<Value> {
        let mut ui = Map::new();
        if let Some(uri) = self.resource_uri {
            ui.insert("resourceUri".into(), uri.into());
        }
        if let Some(visibility) = self.visibility.json() {
            ui.insert("visibility".into(), visibility);
        }
        if ui.is_empty() {
            return None;
        }
        let mut meta = Map::from_iter([("ui".to_owned(), Value::Object(ui))]);
        if let Some(uri) = self.resource_uri {
            meta.insert(FLAT_URI_KEY.into(), uri.into());
        }
        Some(Value::Object(meta))
    }
}

/// Why `uri` cannot name a view, if it cannot: the spec gives views the `ui://` scheme (the
/// rule `#[mcp_tool(ui = ...)]` applies at compile time).
pub(crate) fn view_uri_problem(uri: &str) -> Option<String> {
    match uri.strip_prefix("ui://") {
        Some(rest) if !rest.is_empty() => None,
        _ => Some(format!(
            "a tool's view is a resource whose URI starts with `ui://`, not `{uri}`"
        )),
    }
}

/// A browser feature a view asks the host to allow in its frame (`_meta.ui.permissions`);
/// hosts may refuse, so a view should detect the feature rather than assume it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permission {
    /// The Permission Policy feature `camera`.
    Camera,
    /// `microphone`.
    Microphone,
    /// `geolocation`.
    Geolocation,
    /// `clipboard-write`.
    ClipboardWrite,
}

impl Permission {
    fn key(self) -> &'static str {
        match self {
            Permission::Camera => "camera",
            Permission::Microphone => "microphone",
            Permission::Geolocation => "geolocation",
            Permission::ClipboardWrite => "clipboardWrite",
        }
    }
}

/// An HTML view, what a `ui://` resource returns: the document and what its frame needs
/// (`_meta.ui` of the read's contents: content-security policy, permissions, domain,
/// border), served as `text/html;profile=mcp-app`.
///
/// With no domain declared the host applies the spec's restrictive policy: inline scripts
/// and styles only, no network, no nested frames.
///
/// ```
/// use mcp_runtime::apps::{Permission, View};
/// # let _ =
/// View::html("<!doctype html><html><body>...</body></html>")
///     .connect_domains(["https://api.example.com"])
///     .permission(Permission::ClipboardWrite)
///     .prefers_border(true)
/// # ;
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    html: Cow<'static, str>,
    csp: Map<String, Value>,
    permissions: Map<String, Value>,
    domain: Option<String>,
    prefers_border: Option<bool>,
}

impl View {
    /// A view of this HTML document, e.g. `include_str!("view.html")`, embedded in the binary.
    pub fn html(html: impl Into<Cow<'static, str>>) -> View {
        View {
            html: html.into(),
            csp: Map::new(),
            permissions: Map::new(),
            domain: None,
            prefers_border: None,
        }
    }

    fn domains(mut self, key: &str, domains: impl IntoIterator<Item = impl Into<String>>) -> View {
        let list = self
            .csp
            .entry(key)
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.extend(
                domains
                    .into_iter()
                    .map(|domain| Value::String(domain.into())),
            );
        }
        self
    }

    /// Origins the view may `fetch`, open a WebSocket to, ... (CSP `connect-src`).
    pub fn connect_domains(self, domains: impl IntoIterator<Item = impl Into<String>>) -> View {
        self.domains("connectDomains", domains)
    }

    /// Origins of its scripts, styles, images, fonts and media (`script-src`, `img-src`, ...);
    /// `https://*.example.com` covers the subdomains.
    pub fn resource_domains(self, domains: impl IntoIterator<Item = impl Into<String>>) -> View {
        self.domains("resourceDomains", domains)
    }

    /// Origins of frames nested in the view (`frame-src`).
    pub fn frame_domains(self, domains: impl IntoIterator<Item = impl Into<String>>) -> View {
        self.domains("frameDomains", domains)
    }

    /// Origins a `<base href>` may name (`base-uri`).
    pub fn base_uri_domains(self, domains: impl IntoIterator<Item = impl Into<String>>) -> View {
        self.domains("baseUriDomains", domains)
    }

    /// Asks the host to allow a browser feature in the view's frame.
    pub fn permission(mut self, permission: Permission) -> View {
        self.permissions
            .insert(permission.key().into(), Value::Object(Map::new()));
        self
    }

    /// A dedicated origin for the view's frame, in the form the host documents.
    pub fn domain(mut self, domain: impl Into<String>) -> View {
        self.domain = Some(domain.into());
        self
    }

    /// Whether the host should draw a border and background around the view.
    pub fn prefers_border(mut self, prefers_border: bool) -> View {
        self.prefers_border = Some(prefers_border);
        self
    }

    /// The document and the contents' `_meta` (`{"ui": {...}}`, `None` when nothing is
    /// declared).
    pub(crate) fn into_parts(self) -> (String, Option<Map<String, Value>>) {
        let mut ui = Map::new();
        if !self.csp.is_empty() {
            ui.insert("csp".into(), Value::Object(self.csp));
        }
        if !self.permissions.is_empty() {
            ui.insert("permissions".into(), Value::Object(self.permissions));
        }
        if let Some(domain) = self.domain {
            ui.insert("domain".into(), domain.into());
        }
        if let Some(prefers_border) = self.prefers_border {
            ui.insert("prefersBorder".into(), prefers_border.into());
        }
        let meta = (!ui.is_empty()).then(|| Map::from_iter([("ui".to_owned(), Value::Object(ui))]));
        (self.html.into_owned(), meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_declares_only_what_it_states() {
        let (html, meta) = View::html("<p>hi</p>").into_parts();
        assert_eq!(html, "<p>hi</p>");
        assert_eq!(meta, None);
        let (_, meta) = View::html("")
            .connect_domains(["https://a.example"])
            .connect_domains(["wss://b.example"])
            .base_uri_domains(["https://c.example"])
            .permission(Permission::Camera)
            .permission(Permission::ClipboardWrite)
            .domain("x.example")
            .prefers_border(false)
            .into_parts();
        assert_eq!(
            Value::Object(meta.unwrap()),
            json!({"ui": {
                "csp": {
                    "connectDomains": ["https://a.example", "wss://b.example"],
                    "baseUriDomains": ["https://c.example"],
                },
                "permissions": {"camera": {}, "clipboardWrite": {}},
                "domain": "x.example",
                "prefersBorder": false,
            }})
        );
    }

    #[test]
    fn a_tool_meta_is_nested_and_omits_the_default_visibility() {
        assert_eq!(ToolUi::NONE.meta(), None);
        let view = ToolUi {
            resource_uri: Some("ui://w/view"),
            visibility: Visibility::ModelAndApp,
        };
        assert_eq!(
            view.meta(),
            Some(json!({"ui": {"resourceUri": "ui://w/view"}, "ui/resourceUri": "ui://w/view"}))
        );
        let app_only = ToolUi {
            resource_uri: None,
            visibility: Visibility::App,
        };
        assert_eq!(
            app_only.meta(),
            Some(json!({"ui": {"visibility": ["app"]}}))
        );
    }
}
