//! [`ResourceSet`]: the server's resources while it runs — disable and enable them by URI,
//! add resources and templates that were not known at compile time ([`DynamicResource`]),
//! remove them again — and the list change notifications that tell clients to list them
//! again.

use std::fmt;
use std::sync::Arc;

use crate::changes::Notifier;
use crate::error::Error;
use crate::registry::{Refusal, Registry};
use crate::resource::catalog::{CatalogResource, ResourceCatalog, ResourceSource};
use crate::resource::descriptor::registered_resources;
use crate::resource::dynamic::DynamicResource;
use crate::tool::extract::States;

/// A handle on a server's resources and resource templates while it runs: disable and enable
/// them by URI (a template by its URI template), add and remove [`DynamicResource`]s. Every
/// connection sees a change at once, and clients are told
/// (`notifications/resources/list_changed`; under 2026-07-28 on `subscriptions/listen`
/// streams that asked for `resourcesListChanged`).
///
/// Get it from [`Server::resource_set`](crate::Server::resource_set) before serving; it is
/// cheap to clone and can be used from any thread or task, including from inside a tool.
///
/// ```
/// use mcp_runtime::{mcp_resource, DynamicResource, Server};
///
/// /// The admin handbook.
/// #[mcp_resource(uri = "docs://admin")]
/// async fn admin_handbook() -> &'static str {
///     "..."
/// }
///
/// let server = Server::new("docs", "1.0.0");
/// let resources = server.resource_set();
/// resources.disable("docs://admin"); // until someone logs in as an administrator
/// assert!(!resources.is_enabled("docs://admin"));
/// resources
///     .add(DynamicResource::new("docs://motd", "motd", |_request, _context| async {
///         "Maintenance tonight."
///     }))
///     .expect("a new URI");
/// assert!(resources.is_enabled("docs://motd"));
/// ```
#[derive(Clone)]
pub struct ResourceSet {
    registry: Arc<Registry<CatalogResource, ResourceCatalog>>,
}

impl fmt::Debug for ResourceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let catalog = self.registry.catalog();
        f.debug_struct("ResourceSet")
            .field("resources", &catalog.resources().len())
            .field("templates", &catalog.templates().len())
            .finish_non_exhaustive()
    }
}

impl ResourceSet {
    pub(crate) fn new(notifier: Notifier) -> Self {
        ResourceSet {
            registry: Arc::new(Registry::new(notifier, Notifier::resource_list_changed)),
        }
    }

    /// Marks the set as changeable: clients are told `listChanged: true`, and the
    /// `resources` capability is declared even while there is none yet.
    pub(crate) fn announce_changes(&self) {
        self.registry.announce_changes();
    }

    /// Loads the `#[mcp_resource]`s linked in (once) and checks them; the server's start.
    pub(crate) fn prepare(&self, states: &States) -> Result<(), Error> {
        self.registry.prepare(
            || ResourceCatalog::static_resources(registered_resources(), states),
            |taken| Error::InvalidResource {
                uri: taken.uri().to_owned(),
                problem: "an #[mcp_resource] of the same URI is linked into the binary".into(),
            },
        )
    }

    /// The resources requests see now.
    pub(crate) fn catalog(&self) -> Arc<ResourceCatalog> {
        self.registry.catalog()
    }

    /// Whether the server has resources (enabled or not) or may have: whether the
    /// `resources` capability is declared.
    pub(crate) fn offers_any(&self) -> bool {
        self.registry.offers_any()
    }

    /// Adds a resource (or a template) defined at run time. Refused, with nothing changed,
    /// if its URI is not one, or another resource has it.
    pub fn add(&self, resource: DynamicResource) -> Result<(), Error> {
        if let Some(problem) = resource.problem() {
            return Err(Error::InvalidResource {
                uri: resource.uri,
                problem,
            });
        }
        let uri = resource.uri.clone();
        let entry = CatalogResource::new(ResourceSource::Dynamic(resource));
        match self.registry.add(entry) {
            Ok(()) => Ok(()),
            Err(Refusal::Taken) => Err(Error::InvalidResource {
                uri,
                problem: "another resource has this URI".into(),
            }),
        }
    }

    /// Adds resources all at once (a skill's files), with one list change: none of them if
    /// any URI is taken or not a URI.
    pub(crate) fn add_all(&self, resources: Vec<DynamicResource>) -> Result<(), Error> {
        if let Some((uri, problem)) = resources
            .iter()
            .find_map(|resource| Some((resource.uri.clone(), resource.problem()?)))
        {
            return Err(Error::InvalidResource { uri, problem });
        }
        let entries = resources
            .into_iter()
            .map(|resource| CatalogResource::new(ResourceSource::Dynamic(resource)))
            .collect();
        self.registry
            .add_all(entries)
            .map_err(|(Refusal::Taken, uri)| Error::InvalidResource {
                uri,
                problem: "another resource has this URI".into(),
            })
    }

    /// Removes resources added at run time, with one list change.
    pub(crate) fn remove_all(&self, uris: &[String]) {
        self.registry.remove_all(uris);
    }

    /// Disables or enables resources, with one list change.
    pub(crate) fn set_all_enabled(&self, uris: &[String], enabled: bool) {
        self.registry.set_all_enabled(uris, enabled);
    }

    /// Removes a resource added at run time; `false` if none has this URI (an
    /// `#[mcp_resource]` is disabled instead).
    pub fn remove(&self, uri: &str) -> bool {
        self.registry.remove(uri)
    }

    /// Stops listing and serving the resource (or template) of this URI: reads of it are
    /// answered "resource not found". `true` if it was listed.
    pub fn disable(&self, uri: &str) -> bool {
        self.registry.set_enabled(uri, false)
    }

    /// Lists and serves the resource of this URI again. `true` if it was disabled.
    pub fn enable(&self, uri: &str) -> bool {
        self.registry.set_enabled(uri, true)
    }

    /// Whether a resource (or template) of this URI is listed and served now.
    pub fn is_enabled(&self, uri: &str) -> bool {
        self.registry.is_enabled(uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn motd(uri: &str) -> DynamicResource {
        DynamicResource::new(uri, "motd", |_request, _context| async { "hello" })
    }

    fn listed(set: &ResourceSet) -> Vec<String> {
        let catalog = set.catalog();
        catalog
            .resources()
            .iter()
            .chain(catalog.templates())
            .map(|resource| resource.uri().to_owned())
            .collect()
    }

    #[test]
    fn resources_are_added_disabled_and_removed() {
        let set = ResourceSet::new(Notifier::new());
        set.prepare(&States::default()).unwrap();
        set.add(motd("motd://today")).unwrap();
        set.add(motd("motd://{day}")).unwrap();
        assert_eq!(listed(&set), ["motd://today", "motd://{day}"]);
        let Err(Error::InvalidResource { problem, .. }) = set.add(motd("motd://today")) else {
            panic!("a second resource of one URI is refused");
        };
        assert_eq!(problem, "another resource has this URI");
        assert!(set.disable("motd://today"));
        assert!(!set.disable("motd://today"), "already disabled");
        assert!(!set.is_enabled("motd://today"));
        assert_eq!(listed(&set), ["motd://{day}"]);
        assert!(set.enable("motd://today"));
        assert!(set.remove("motd://today"));
        assert!(!set.remove("motd://today"));
        assert_eq!(listed(&set), ["motd://{day}"]);
    }

    #[test]
    fn a_uri_can_be_disabled_before_its_resource_is_added() {
        let set = ResourceSet::new(Notifier::new());
        set.prepare(&States::default()).unwrap();
        assert!(!set.disable("motd://later"), "nothing was listed");
        set.add(motd("motd://later")).unwrap();
        assert!(!set.is_enabled("motd://later"));
        assert!(listed(&set).is_empty());
        assert!(set.enable("motd://later"));
        assert_eq!(listed(&set), ["motd://later"]);
    }

    #[test]
    fn what_is_no_uri_is_refused() {
        let set = ResourceSet::new(Notifier::new());
        for uri in ["no scheme", "://empty-scheme", "1st://digit-first"] {
            let Err(Error::InvalidResource { problem, .. }) = set.add(motd(uri)) else {
                panic!("{uri} is not a URI");
            };
            assert!(problem.contains("needs a scheme"), "{problem}");
        }
        assert!(set.add(motd("a+b.c-d://fine")).is_ok());
    }
}
