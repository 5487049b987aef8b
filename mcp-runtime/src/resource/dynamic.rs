//! [`DynamicResource`]: a resource (or resource template) defined at run time — from a
//! configuration file, a plugin, a directory scanned at start-up — rather than by an
//! `#[mcp_resource]` function, and added through a [`ResourceSet`](crate::ResourceSet).

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use crate::context::Context;
use crate::resource::contents::{IntoResourceContents, ResourceFuture};

/// One read of a [`DynamicResource`]: the URI read and, for a template, its variables.
#[derive(Clone, Debug)]
pub struct ReadRequest {
    uri: String,
    variables: BTreeMap<String, String>,
}

impl ReadRequest {
    pub(crate) fn new(uri: String, variables: BTreeMap<String, String>) -> Self {
        ReadRequest { uri, variables }
    }

    /// The URI read.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// A variable of the template, percent-decoded (`None` for a fixed URI, or a name the
    /// template does not have).
    pub fn variable(&self, name: &str) -> Option<&str> {
        self.variables.get(name).map(String::as_str)
    }

    /// Every variable of the template.
    pub fn variables(&self) -> &BTreeMap<String, String> {
        &self.variables
    }
}

type Reader = dyn Fn(ReadRequest, Context) -> ResourceFuture + Send + Sync;

/// A resource defined at run time: a URI (fixed, or a template with `{var}` and `{+var}` as
/// `#[mcp_resource]` takes), a name, and an async function that reads it and returns what an
/// `#[mcp_resource]` function may return.
///
/// ```
/// use mcp_runtime::{DynamicResource, Server};
///
/// let server = Server::new("config", "1.0.0");
/// let resources = server.resource_set();
/// resources
///     .add(
///         DynamicResource::new("config://{section}", "config-section", |request, _context| async move {
///             format!("[{}]", request.variable("section").unwrap_or_default())
///         })
///         .mime_type("text/plain")
///         .description("One section of the live configuration."),
///     )
///     .expect("a new URI");
/// ```
#[derive(Clone)]
pub struct DynamicResource {
    pub(crate) uri: String,
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) mime_type: Option<String>,
    pub(crate) size: Option<u64>,
    /// What a caller must hold to read it.
    pub(crate) scopes: Vec<String>,
    pub(crate) read: Arc<Reader>,
}

impl fmt::Debug for DynamicResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicResource")
            .field("uri", &self.uri)
            .field("name", &self.name)
            .field("mime_type", &self.mime_type)
            .finish_non_exhaustive()
    }
}

impl DynamicResource {
    /// A resource of this URI and name, read by `read`.
    pub fn new<F, Fut>(uri: impl Into<String>, name: impl Into<String>, read: F) -> Self
    where
        F: Fn(ReadRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoResourceContents,
    {
        let uri = uri.into();
        // A `ui://` resource is an MCP Apps view, whose type the spec fixes (as for
        // `#[mcp_resource]`).
        let mime_type = uri
            .starts_with("ui://")
            .then(|| crate::apps::MIME_TYPE.to_owned());
        DynamicResource {
            uri,
            name: name.into(),
            title: None,
            description: None,
            mime_type,
            size: None,
            scopes: Vec::new(),
            read: Arc::new(move |request, context| {
                let reading = read(request, context);
                Box::pin(async move { reading.await.into_read_outcome() })
            }),
        }
    }

    /// The display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the resource is, for the model.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The MIME type of what a read returns, unless the read says otherwise.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The size in bytes, if known before reading (listed for a fixed URI only).
    pub fn size(mut self, bytes: u64) -> Self {
        self.size = Some(bytes);
        self
    }

    /// Requires the caller's principal to hold `scope` to read it (as
    /// `#[mcp_resource(scopes = [...])]`); each call adds one. See
    /// [`Server::scopes_of`](crate::Server::scopes_of).
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes.push(scope.into());
        self
    }

    /// Why this resource cannot be served, if it cannot: a URI without a scheme.
    pub(crate) fn problem(&self) -> Option<String> {
        let scheme = self.uri.split_once(':').map(|(scheme, _)| scheme);
        let valid = scheme.is_some_and(|scheme| {
            scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        });
        if !valid {
            return Some(format!(
                "`{}` is not a URI: it needs a scheme such as `config:` or `file:`",
                self.uri
            ));
        }
        if self.name.is_empty() {
            return Some("a resource needs a name".to_owned());
        }
        None
    }
}
