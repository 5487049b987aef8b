//! [`DynamicPrompt`]: a prompt defined at run time — from a file of templates, a plugin —
//! rather than by an `#[mcp_prompt]` function, and added through a
//! [`PromptSet`](crate::PromptSet).

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use crate::context::Context;
use crate::prompt::message::{IntoPromptMessages, PromptFuture};

type Renderer = dyn Fn(BTreeMap<String, String>, Context) -> PromptFuture + Send + Sync;

/// One argument of a [`DynamicPrompt`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DynamicArgument {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}

/// A prompt defined at run time: a name, its arguments, and an async function that renders
/// it from the arguments given (as text, the way they travel) and returns what an
/// `#[mcp_prompt]` function may return. The runtime checks the arguments before the function
/// runs: every required one given, none it does not declare.
///
/// ```
/// use mcp_runtime::{DynamicPrompt, Server};
///
/// let server = Server::new("templates", "1.0.0");
/// let prompts = server.prompt_set();
/// prompts
///     .add(
///         DynamicPrompt::new("translate", |arguments, _context| async move {
///             format!("Translate into {}: {}", arguments["language"], arguments["text"])
///         })
///         .description("Translate a text.")
///         .required_argument("text", "What to translate.")
///         .required_argument("language", "Into which language."),
///     )
///     .expect("a new name");
/// ```
#[derive(Clone)]
pub struct DynamicPrompt {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) arguments: Vec<DynamicArgument>,
    /// What a caller must hold to get it.
    pub(crate) scopes: Vec<String>,
    pub(crate) render: Arc<Renderer>,
}

impl fmt::Debug for DynamicPrompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicPrompt")
            .field("name", &self.name)
            .field("arguments", &self.arguments)
            .finish_non_exhaustive()
    }
}

impl DynamicPrompt {
    /// A prompt of this name, rendered by `render` from the arguments given.
    pub fn new<F, Fut>(name: impl Into<String>, render: F) -> Self
    where
        F: Fn(BTreeMap<String, String>, Context) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoPromptMessages,
    {
        DynamicPrompt {
            name: name.into(),
            title: None,
            description: None,
            arguments: Vec::new(),
            scopes: Vec::new(),
            render: Arc::new(move |arguments, context| {
                let rendering = render(arguments, context);
                Box::pin(async move { rendering.await.into_prompt_outcome() })
            }),
        }
    }

    /// The display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the prompt is for.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Requires the caller's principal to hold `scope` to get it (as
    /// `#[mcp_prompt(scopes = [...])]`); each call adds one. See
    /// [`Server::scopes_of`](crate::Server::scopes_of).
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes.push(scope.into());
        self
    }

    /// An argument the client must give.
    pub fn required_argument(
        mut self,
        name: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        self.arguments.push(DynamicArgument {
            name: name.into(),
            description: Some(description.into()),
            required: true,
        });
        self
    }

    /// An argument the client may leave out (then absent from the map).
    pub fn optional_argument(
        mut self,
        name: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        self.arguments.push(DynamicArgument {
            name: name.into(),
            description: Some(description.into()),
            required: false,
        });
        self
    }

    /// Why this prompt cannot be served, if it cannot.
    pub(crate) fn problem(&self) -> Option<String> {
        if self.name.is_empty() {
            return Some("a prompt needs a name".to_owned());
        }
        let mut names: Vec<&str> = self.arguments.iter().map(|a| a.name.as_str()).collect();
        names.sort_unstable();
        names
            .windows(2)
            .find(|pair| pair[0] == pair[1])
            .map(|pair| format!("argument `{}` is declared twice", pair[0]))
    }
}
