//! The [`Server`] settings for what wraps and guards tool calls: layers (middleware) and
//! per-tool scopes.

use std::sync::Arc;

use super::Server;
use crate::middleware::Layer;

/// Middleware and authorization (see [`middleware`](crate::middleware) and the
/// [production chapter](crate::manual::production)).
impl Server {
    /// Wraps every tool call in `layer`. Layers added first run outermost; see
    /// [`middleware`](crate::middleware) for where they sit among the other steps.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_runtime::Server;
    /// use mcp_runtime::middleware::{Audit, ResponseCache};
    ///
    /// let server = Server::new("notes", "1.0.0")
    ///     .layer(Audit::new())
    ///     .layer(ResponseCache::new(1_000, Duration::from_secs(30)));
    /// # drop(server);
    /// ```
    pub fn layer(mut self, layer: impl Layer) -> Self {
        self.layers.every_request.push(Arc::new(layer));
        self
    }

    /// Wraps the calls of the tools tagged `tag` (`#[mcp_tool(tags = ["admin"])]`) in
    /// `layer`, inside the layers of [`layer`](Server::layer) and outside the tool's own.
    pub fn layer_for_tag(mut self, tag: impl Into<String>, layer: impl Layer) -> Self {
        self.layers.by_tag.push((tag.into(), Arc::new(layer)));
        self
    }

    /// How to read the scopes a principal holds, for tools that require some
    /// (`#[mcp_tool(scopes = ["notes:write"])]`). `P` is the principal type your
    /// authentication hook returns ([`HttpServer::authenticate`](crate::HttpServer::authenticate))
    /// or that [`local_principal`](Server::local_principal) sets.
    ///
    /// A call without every required scope is refused before the tool (and any layer)
    /// runs: over HTTP with `403` and `WWW-Authenticate: Bearer error="insufficient_scope",
    /// scope="..."` (the 2025-11-25 authorization spec's step-up), otherwise with an
    /// `isError` result naming the missing scopes. Without this setting no principal holds
    /// any scope, so tools that require one cannot be called.
    ///
    /// ```
    /// use mcp_runtime::Server;
    ///
    /// struct User { name: String, scopes: Vec<String> }
    ///
    /// let server = Server::new("notes", "1.0.0").scopes_of(|user: &User| user.scopes.clone());
    /// # drop(server);
    /// ```
    pub fn scopes_of<P, I>(mut self, scopes_of: impl Fn(&P) -> I + Send + Sync + 'static) -> Self
    where
        P: Send + Sync + 'static,
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.access.set_scopes_of(scopes_of);
        self
    }

    /// The principal of connections that carry no credentials: stdio (the process that
    /// launched the server) and in-process clients ([`TestClient`](crate::testing::TestClient)).
    /// Tools read it through [`Principal<P>`](crate::Principal) as over HTTP, and its
    /// scopes ([`scopes_of`](Server::scopes_of)) open scoped tools. Without it, stdio has no
    /// principal: tools that require scopes answer with an `isError` result saying so.
    /// HTTP requests always carry their own (or none), never this one.
    pub fn local_principal<P: Send + Sync + 'static>(mut self, principal: P) -> Self {
        self.access.local_principal = Some(Arc::new(principal));
        self
    }

    /// Whether `tools/list` leaves out the tools the caller may not call for lack of scopes
    /// (default `true`). With `false` every client sees every tool, and a call without the
    /// scopes is refused as usual.
    pub fn hide_forbidden_tools(mut self, hide: bool) -> Self {
        self.access.hide_forbidden_tools = hide;
        self
    }
}
