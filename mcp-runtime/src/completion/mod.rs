//! Completions (`completion/complete`): candidate values for a prompt argument or a
//! resource template variable, from the function named in `#[mcp(complete = f)]`.
//!
//! A completion function takes the text typed so far and returns candidates, in any of
//! these shapes (sync or async, with or without the whole request):
//!
//! ```
//! use mcp_runtime::Completing;
//!
//! fn languages(prefix: &str) -> Vec<&'static str> {
//!     ["rust", "python", "typescript"].into_iter().filter(|l| l.starts_with(prefix)).collect()
//! }
//!
//! fn files(prefix: &str, request: &Completing) -> Vec<String> {
//!     let folder = request.argument("folder").unwrap_or(".");
//!     vec![format!("{folder}/{prefix}")]
//! }
//!
//! async fn cities(prefix: String) -> Vec<String> {
//!     vec![format!("{prefix}ville")]
//! }
//!
//! async fn users(request: Completing) -> Vec<String> {
//!     let _asked_by = request.context().client_info();
//!     vec![request.value().to_owned()]
//! }
//! ```
//!
//! The runtime keeps the first 100 candidates (the spec's limit per answer), and says how
//! many there were in all (`total`) and whether some were left out (`hasMore`).

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use std::sync::Arc;

use crate::context::Context;
use crate::tool::extract::States;

/// At most this many values go into one answer (the spec's limit).
pub(crate) const MAX_VALUES: usize = 100;

/// The future of one completion: every candidate, before the runtime cuts it to 100.
#[doc(hidden)]
pub type CompletionFuture = Pin<Box<dyn Future<Output = Vec<String>> + Send + 'static>>;

/// `#[mcp(complete = f)]` on one parameter, as the macro registers it.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ArgumentCompletion {
    /// The argument's (or template variable's) published name.
    pub argument: &'static str,
    /// Runs the completion function.
    pub complete: fn(Completing) -> CompletionFuture,
}

impl std::fmt::Debug for ArgumentCompletion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArgumentCompletion")
            .field("argument", &self.argument)
            .finish_non_exhaustive()
    }
}

/// One `completion/complete` request, as a completion function may see it: the argument
/// being completed, the text typed so far, the arguments the client already gave, and the
/// request's [`Context`].
#[derive(Clone, Debug)]
pub struct Completing {
    argument: String,
    value: String,
    arguments: BTreeMap<String, String>,
    context: Context,
    states: Arc<States>,
}

impl Completing {
    pub(crate) fn new(
        argument: String,
        value: String,
        arguments: BTreeMap<String, String>,
        context: Context,
        states: Arc<States>,
    ) -> Self {
        Completing {
            argument,
            value,
            arguments,
            context,
            states,
        }
    }

    /// The name of the argument (or template variable) being completed.
    pub fn argument_name(&self) -> &str {
        &self.argument
    }

    /// The text typed so far.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Another argument the client already gave (`context.arguments`, 2025-06-18 on).
    pub fn argument(&self, name: &str) -> Option<&str> {
        self.arguments.get(name).map(String::as_str)
    }

    /// Every argument the client already gave.
    pub fn arguments(&self) -> &BTreeMap<String, String> {
        &self.arguments
    }

    /// The request's context: who asks, cancellation, logging.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The value of type `T` registered with [`Server::state`](crate::Server::state), as a
    /// `State<T>` parameter would get it: candidates often come from the server's own data.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.states.get::<T>()
    }
}

/// A function `#[mcp(complete = f)]` may name. The shapes (`Marker` tells them apart):
/// `fn(&str) -> I`, `fn(&str, &Completing) -> I`, `async fn(String) -> I` and
/// `async fn(Completing) -> I`, where `I` is any list of strings (`Vec<String>`,
/// `Vec<&str>`, an iterator).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot complete an argument",
    label = "not a completion function",
    note = "a completion function is `fn(&str) -> Vec<String>`, `fn(&str, &Completing) -> Vec<String>`, `async fn(String) -> Vec<String>` or `async fn(Completing) -> Vec<String>` (any iterator of strings will do for `Vec<String>`)"
)]
pub trait CompletionSource<Marker>: Copy + Send + Sync + 'static {
    /// Runs the function for one request.
    fn complete(self, request: Completing) -> CompletionFuture;
}

fn collect<I>(values: I) -> Vec<String>
where
    I: IntoIterator,
    I::Item: Into<String>,
{
    // Every candidate: `completion_json` sends the first 100 and counts them all for
    // `total` and `hasMore`.
    values.into_iter().map(Into::into).collect()
}

#[doc(hidden)]
pub struct PrefixOnly;
#[doc(hidden)]
pub struct PrefixAndRequest;
#[doc(hidden)]
pub struct AsyncPrefix;
#[doc(hidden)]
pub struct AsyncRequest;

impl<F, I> CompletionSource<(PrefixOnly, I)> for F
where
    F: Fn(&str) -> I + Copy + Send + Sync + 'static,
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn complete(self, request: Completing) -> CompletionFuture {
        Box::pin(std::future::ready(collect(self(request.value()))))
    }
}

impl<F, I> CompletionSource<(PrefixAndRequest, I)> for F
where
    F: Fn(&str, &Completing) -> I + Copy + Send + Sync + 'static,
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn complete(self, request: Completing) -> CompletionFuture {
        Box::pin(std::future::ready(collect(self(request.value(), &request))))
    }
}

impl<F, Fut, I> CompletionSource<(AsyncPrefix, Fut, I)> for F
where
    F: Fn(String) -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = I> + Send + 'static,
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn complete(self, request: Completing) -> CompletionFuture {
        let running = self(request.value);
        Box::pin(async move { collect(running.await) })
    }
}

impl<F, Fut, I> CompletionSource<(AsyncRequest, Fut, I)> for F
where
    F: Fn(Completing) -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = I> + Send + 'static,
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn complete(self, request: Completing) -> CompletionFuture {
        let running = self(request);
        Box::pin(async move { collect(running.await) })
    }
}

/// Runs `function` for one request: what the macro's `complete` entry calls.
#[doc(hidden)]
pub fn complete_with<F, Marker>(request: Completing, function: F) -> CompletionFuture
where
    F: CompletionSource<Marker>,
{
    function.complete(request)
}

/// The `completion` member of a result: at most 100 values, with `total` and `hasMore`.
pub(crate) fn completion_json(values: Vec<String>) -> serde_json::Value {
    let total = values.len();
    let values: Vec<String> = values.into_iter().take(MAX_VALUES).collect();
    serde_json::json!({
        "values": values,
        "total": total,
        "hasMore": total > MAX_VALUES,
    })
}
