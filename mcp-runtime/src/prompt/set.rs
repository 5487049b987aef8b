//! [`PromptSet`]: the server's prompts while it runs — disable and enable them by name, add
//! prompts that were not known at compile time ([`DynamicPrompt`]), remove them again — and
//! the list change notifications that tell clients to list them again.

use std::fmt;
use std::sync::Arc;

use crate::changes::Notifier;
use crate::error::Error;
use crate::prompt::catalog::{CatalogPrompt, PromptCatalog, PromptSource};
use crate::prompt::descriptor::registered_prompts;
use crate::prompt::dynamic::DynamicPrompt;
use crate::registry::{Refusal, Registry};
use crate::tool::extract::States;

/// A handle on a server's prompts while it runs: disable and enable them by name, add and
/// remove [`DynamicPrompt`]s. Every connection sees a change at once, and clients are told
/// (`notifications/prompts/list_changed`; under 2026-07-28 on `subscriptions/listen` streams
/// that asked for `promptsListChanged`).
///
/// Get it from [`Server::prompt_set`](crate::Server::prompt_set) before serving; it is cheap
/// to clone and can be used from any thread or task, including from inside a tool.
///
/// ```
/// use mcp_runtime::{mcp_prompt, DynamicPrompt, Server};
///
/// /// Draft a release announcement.
/// #[mcp_prompt]
/// async fn announce(version: String) -> String {
///     format!("Announce version {version}.")
/// }
///
/// let server = Server::new("releases", "1.0.0");
/// let prompts = server.prompt_set();
/// prompts.disable("announce"); // until the release is tagged
/// assert!(!prompts.is_enabled("announce"));
/// prompts
///     .add(DynamicPrompt::new("hello", |_arguments, _context| async { "Say hello." }))
///     .expect("a new name");
/// ```
#[derive(Clone)]
pub struct PromptSet {
    registry: Arc<Registry<CatalogPrompt, PromptCatalog>>,
}

impl fmt::Debug for PromptSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PromptSet")
            .field("prompts", &self.registry.catalog().prompts().len())
            .finish_non_exhaustive()
    }
}

impl PromptSet {
    pub(crate) fn new(notifier: Notifier) -> Self {
        PromptSet {
            registry: Arc::new(Registry::new(notifier, Notifier::prompt_list_changed)),
        }
    }

    /// Marks the set as changeable: clients are told `listChanged: true`, and the `prompts`
    /// capability is declared even while there is none yet.
    pub(crate) fn announce_changes(&self) {
        self.registry.announce_changes();
    }

    /// Loads the `#[mcp_prompt]`s linked in (once) and checks them; the server's start.
    pub(crate) fn prepare(&self, states: &States) -> Result<(), Error> {
        self.registry.prepare(
            || PromptCatalog::static_prompts(registered_prompts(), states),
            |taken| Error::InvalidPrompt {
                name: taken.name().to_owned(),
                problem: "an #[mcp_prompt] of the same name is linked into the binary".into(),
            },
        )
    }

    /// The prompts requests see now.
    pub(crate) fn catalog(&self) -> Arc<PromptCatalog> {
        self.registry.catalog()
    }

    /// Whether the server has prompts (enabled or not) or may have: whether the `prompts`
    /// capability is declared.
    pub(crate) fn offers_any(&self) -> bool {
        self.registry.offers_any()
    }

    /// Adds a prompt defined at run time. Refused, with nothing changed, if another prompt
    /// has its name or it declares an argument twice.
    pub fn add(&self, prompt: DynamicPrompt) -> Result<(), Error> {
        if let Some(problem) = prompt.problem() {
            return Err(Error::InvalidPrompt {
                name: prompt.name,
                problem,
            });
        }
        let name = prompt.name.clone();
        match self
            .registry
            .add(CatalogPrompt::new(PromptSource::Dynamic(prompt)))
        {
            Ok(()) => Ok(()),
            Err(Refusal::Taken) => Err(Error::InvalidPrompt {
                name,
                problem: "another prompt has this name".into(),
            }),
        }
    }

    /// Removes a prompt added at run time; `false` if none has this name (an `#[mcp_prompt]`
    /// is disabled instead).
    pub fn remove(&self, name: &str) -> bool {
        self.registry.remove(name)
    }

    /// Stops listing and serving the prompt of this name: `prompts/get` answers it as an
    /// unknown prompt. `true` if it was listed.
    pub fn disable(&self, name: &str) -> bool {
        self.registry.set_enabled(name, false)
    }

    /// Lists and serves the prompt of this name again. `true` if it was disabled.
    pub fn enable(&self, name: &str) -> bool {
        self.registry.set_enabled(name, true)
    }

    /// Whether a prompt of this name is listed and served now.
    pub fn is_enabled(&self, name: &str) -> bool {
        self.registry.is_enabled(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt(name: &str) -> DynamicPrompt {
        DynamicPrompt::new(name, |_arguments, _context| async { "hi" })
    }

    #[test]
    fn prompts_are_added_disabled_and_removed() {
        let set = PromptSet::new(Notifier::new());
        set.prepare(&States::default()).unwrap();
        set.add(prompt("b").required_argument("x", "An x."))
            .unwrap();
        set.add(prompt("a")).unwrap();
        let names = |set: &PromptSet| -> Vec<String> {
            set.catalog()
                .prompts()
                .iter()
                .map(|prompt| prompt.name().to_owned())
                .collect()
        };
        assert_eq!(names(&set), ["a", "b"], "sorted by name");
        assert!(matches!(
            set.add(prompt("a")),
            Err(Error::InvalidPrompt { .. })
        ));
        assert!(set.disable("a"));
        assert_eq!(names(&set), ["b"]);
        assert!(set.remove("a"));
        assert!(!set.enable("a"), "removed: nothing to list again");
        assert_eq!(names(&set), ["b"]);
    }

    #[test]
    fn an_argument_declared_twice_is_refused() {
        let set = PromptSet::new(Notifier::new());
        let twice = prompt("p")
            .required_argument("x", "One.")
            .optional_argument("x", "Two.");
        let Err(Error::InvalidPrompt { problem, .. }) = set.add(twice) else {
            panic!("refused");
        };
        assert_eq!(problem, "argument `x` is declared twice");
        assert!(set.add(prompt("")).is_err());
    }
}
