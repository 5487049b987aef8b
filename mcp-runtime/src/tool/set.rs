//! [`ToolSet`]: the server's tools while it runs — disable and enable them by name or tag,
//! add tools that were not known at compile time ([`DynamicTool`]), remove them again —
//! and the change notifications that tell clients to list the tools again.
//!
//! [`DynamicTool`]: crate::DynamicTool

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::watch;

use crate::error::Error;
use crate::tool::catalog::{Catalog, CatalogTool, ToolSource};
use crate::tool::descriptor::registered_tools;
use crate::tool::dynamic::DynamicTool;
use crate::tool::extract::States;

/// A handle on a server's tools while it runs: disable and enable tools by name or by tag,
/// add and remove [`DynamicTool`]s. Every connection sees a change at once, and clients are
/// told: `notifications/tools/list_changed` for handshake-era clients, and on
/// `subscriptions/listen` streams that asked for `toolsListChanged` under 2026-07-28.
///
/// Get it from [`Server::tool_set`](crate::Server::tool_set) before serving; it is cheap to
/// clone and can be used from any thread or task, including from inside a tool.
///
/// A tool is listed (and callable) unless its name is disabled or one of its tags is.
///
/// ```
/// use mcp_runtime::{mcp_tool, Server};
///
/// /// Drop every table.
/// #[mcp_tool(destructive, tags = ["admin"])]
/// async fn drop_all() -> &'static str {
///     "dropped"
/// }
///
/// let server = Server::new("db", "1.0.0");
/// let tools = server.tool_set();
/// tools.disable_tag("admin"); // until someone logs in as an administrator
/// assert!(!tools.is_enabled("drop_all"));
/// tools.enable_tag("admin");
/// assert!(tools.is_enabled("drop_all"));
/// ```
#[derive(Clone)]
pub struct ToolSet {
    inner: Arc<ToolSetInner>,
}

struct ToolSetInner {
    state: Mutex<ToolSetState>,
    /// What requests see: rebuilt as a whole on every change.
    current: RwLock<Arc<Catalog>>,
    /// Bumped, under `current`'s write lock, whenever `current` is replaced: a connection
    /// that kept the catalog it saw reads it again only then ([`ToolSet::seen`]).
    version: AtomicU64,
    /// Bumped on every change of the listed tools; connections watch it.
    changes: watch::Sender<u64>,
    /// Whether clients are told the list may change (`listChanged: true`): once someone
    /// holds a handle that can change it.
    announced: AtomicBool,
    /// Whether any tool, enabled or not, may run as a task: kept up to date on every change,
    /// since every `initialize` and `tasks/*` request asks.
    offers_tasks: AtomicBool,
    /// The generation of the last change relayed from another instance of a fleet.
    #[cfg(feature = "http")]
    relayed: AtomicU64,
}

/// The catalog a connection saw last, and its version ([`ToolSet::seen`]).
pub(crate) struct SeenCatalog {
    version: u64,
    catalog: Arc<Catalog>,
}

#[derive(Default)]
struct ToolSetState {
    /// The `#[mcp_tool]`s linked in, once the server has started.
    statics: Option<Vec<Arc<CatalogTool>>>,
    dynamic: BTreeMap<String, Arc<CatalogTool>>,
    disabled_names: BTreeSet<String>,
    disabled_tags: BTreeSet<String>,
}

impl fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.inner.state.lock().expect("tool set poisoned");
        f.debug_struct("ToolSet")
            .field("dynamic", &state.dynamic.keys().collect::<Vec<_>>())
            .field("disabled_names", &state.disabled_names)
            .field("disabled_tags", &state.disabled_tags)
            .finish_non_exhaustive()
    }
}

impl ToolSet {
    pub(crate) fn new() -> Self {
        ToolSet {
            inner: Arc::new(ToolSetInner {
                state: Mutex::new(ToolSetState::default()),
                current: RwLock::new(Arc::new(Catalog::default())),
                version: AtomicU64::new(0),
                changes: watch::channel(0).0,
                announced: AtomicBool::new(false),
                offers_tasks: AtomicBool::new(false),
                #[cfg(feature = "http")]
                relayed: AtomicU64::new(0),
            }),
        }
    }

    /// Marks the set as changeable: clients are told `listChanged: true`.
    pub(crate) fn announce_changes(&self) {
        self.inner.announced.store(true, Ordering::Relaxed);
    }

    /// Whether clients are told the tool list may change.
    pub(crate) fn announces_changes(&self) -> bool {
        self.inner.announced.load(Ordering::Relaxed)
    }

    /// Loads the `#[mcp_tool]`s linked in (once) and checks them; the server's start.
    pub(crate) fn prepare(&self, states: &States) -> Result<(), Error> {
        let mut state = self.inner.state.lock().expect("tool set poisoned");
        if state.statics.is_none() {
            let statics = Catalog::static_tools(registered_tools())?;
            Catalog::check_extractors(&statics, states)?;
            Catalog::check_headers(&statics)?;
            if let Some(clash) = statics
                .iter()
                .find(|tool| state.dynamic.contains_key(tool.name()))
            {
                return Err(Error::InvalidTool {
                    name: clash.name().to_owned(),
                    problem: "an #[mcp_tool] of the same name is linked into the binary".into(),
                });
            }
            state.statics = Some(statics);
        }
        self.refresh(&state);
        Ok(())
    }

    /// Refuses a tool whose view (`ui = "ui://..."`, [`DynamicTool::view`]) is not a resource
    /// `exists` knows: every `#[mcp_tool]`, and the dynamic tools added before the server
    /// starts; after [`prepare`](Self::prepare).
    pub(crate) fn check_views(&self, exists: impl Fn(&str) -> bool) -> Result<(), Error> {
        let state = self.inner.state.lock().expect("tool set poisoned");
        let statics = state.statics.iter().flatten();
        Catalog::check_views(statics.chain(state.dynamic.values()), exists)
    }

    /// Whether there is no tool at all, enabled or not: no `#[mcp_tool]` linked in and no
    /// dynamic tool added.
    pub(crate) fn has_no_tools(&self) -> bool {
        let state = self.inner.state.lock().expect("tool set poisoned");
        let no_statics = match &state.statics {
            Some(statics) => statics.is_empty(),
            None => registered_tools().next().is_none(),
        };
        no_statics && state.dynamic.is_empty()
    }

    /// Whether any tool, enabled or not, may run as a task: the server then offers tasks.
    pub(crate) fn offers_tasks(&self) -> bool {
        self.inner.offers_tasks.load(Ordering::Relaxed)
    }

    /// The tools requests see now.
    pub(crate) fn catalog(&self) -> Arc<Catalog> {
        Arc::clone(&self.inner.current.read().expect("tool set poisoned"))
    }

    /// The tools requests see now, through the copy a connection kept (`seen`): read again
    /// only when they changed since. A stdio connection asks on every message, and reading
    /// `current` costs a lock and a reference count, each an atomic read-modify-write.
    #[inline]
    pub(crate) fn seen<'s>(&self, seen: &'s mut Option<SeenCatalog>) -> &'s Arc<Catalog> {
        let version = self.inner.version.load(Ordering::Acquire);
        if seen.as_ref().is_none_or(|seen| seen.version != version) {
            let current = self.inner.current.read().expect("tool set poisoned");
            *seen = Some(SeenCatalog {
                // Read under the lock: the version of the catalog taken.
                version: self.inner.version.load(Ordering::Relaxed),
                catalog: Arc::clone(&current),
            });
        }
        &seen.as_ref().expect("set above").catalog
    }

    /// Changes of the listed tools, for a connection to pass on to its client.
    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.inner.changes.subscribe()
    }

    /// Tells this process's clients that another instance of a fleet changed its tools
    /// (see [`ToolSet::changed_here`]).
    #[cfg(feature = "http")]
    pub(crate) fn relay_change(&self) {
        self.inner.changes.send_modify(|generation| {
            *generation += 1;
            self.inner.relayed.store(*generation, Ordering::Relaxed);
        });
    }

    /// Whether change `generation` (a value [`ToolSet::subscribe`] gave) was made in this
    /// process, rather than relayed from another instance: only those go to the others.
    #[cfg(feature = "http")]
    pub(crate) fn changed_here(&self, generation: u64) -> bool {
        self.inner.relayed.load(Ordering::Relaxed) != generation
    }

    /// Lists and allows the tool called `name` again (unless one of its tags is disabled).
    /// Returns false if no tool has that name.
    pub fn enable(&self, name: &str) -> bool {
        self.change(|state| {
            state.disabled_names.remove(name);
            state.knows(name)
        })
    }

    /// Stops listing the tool called `name`; calls to it get "unknown tool" until it is
    /// enabled again. Calls already running finish. Returns false if no tool has that name.
    pub fn disable(&self, name: &str) -> bool {
        self.change(|state| {
            state.disabled_names.insert(name.to_owned());
            state.knows(name)
        })
    }

    /// Enables every tool tagged `tag` (those not disabled by name or by another tag).
    /// Returns how many tools carry the tag.
    pub fn enable_tag(&self, tag: &str) -> usize {
        self.change(|state| {
            state.disabled_tags.remove(tag);
            state.count_tagged(tag)
        })
    }

    /// Disables every tool tagged `tag`. Returns how many tools carry the tag.
    pub fn disable_tag(&self, tag: &str) -> usize {
        self.change(|state| {
            state.disabled_tags.insert(tag.to_owned());
            state.count_tagged(tag)
        })
    }

    /// Adds a tool; it is listed at once (unless its name or a tag of it is disabled).
    /// Fails if the tool is malformed or its name is taken.
    pub fn add(&self, tool: DynamicTool) -> Result<(), Error> {
        let invalid = |problem: String| Error::InvalidTool {
            name: tool.name.clone(),
            problem,
        };
        tool.check().map_err(invalid)?;
        let mut failure = None;
        self.change(|state| {
            if state.knows(&tool.name) {
                failure = Some(invalid("a tool of that name already exists".into()));
                return;
            }
            let name = tool.name.clone();
            let entry = Arc::new(CatalogTool::new(ToolSource::Dynamic(Arc::new(
                tool.clone(),
            ))));
            state.dynamic.insert(name, entry);
        });
        failure.map_or(Ok(()), Err)
    }

    /// Removes a tool added with [`add`](ToolSet::add). Returns false if there is no such
    /// tool (`#[mcp_tool]`s cannot be removed; [`disable`](ToolSet::disable) them).
    pub fn remove(&self, name: &str) -> bool {
        self.change(|state| state.dynamic.remove(name).is_some())
    }

    /// Whether the tool called `name` exists and is enabled.
    pub fn is_enabled(&self, name: &str) -> bool {
        let state = self.inner.state.lock().expect("tool set poisoned");
        state.with_all(|tools| {
            tools
                .iter()
                .any(|tool| tool.name() == name && state.enabled(tool))
        })
    }

    /// Applies a change, then rebuilds what requests see and tells connections if the
    /// listed tools changed.
    fn change<T>(&self, apply: impl FnOnce(&mut ToolSetState) -> T) -> T {
        let mut state = self.inner.state.lock().expect("tool set poisoned");
        let outcome = apply(&mut state);
        self.refresh(&state);
        outcome
    }

    fn refresh(&self, state: &ToolSetState) {
        let Some(statics) = &state.statics else {
            // Not serving yet: the catalog is built when the server starts.
            return;
        };
        let offers_tasks = statics
            .iter()
            .chain(state.dynamic.values())
            .any(|tool| tool.policy().task != crate::task::TaskSupport::Forbidden);
        self.inner
            .offers_tasks
            .store(offers_tasks, Ordering::Relaxed);
        let listed: Vec<Arc<CatalogTool>> = statics
            .iter()
            .chain(state.dynamic.values())
            .filter(|tool| state.enabled(tool))
            .cloned()
            .collect();
        let catalog = Catalog::new(listed);
        let mut current = self.inner.current.write().expect("tool set poisoned");
        if current.same_tools(&catalog) {
            return;
        }
        *current = Arc::new(catalog);
        self.inner.version.fetch_add(1, Ordering::Release);
        drop(current);
        self.inner
            .changes
            .send_modify(|generation| *generation += 1);
    }
}

impl ToolSetState {
    fn enabled(&self, tool: &CatalogTool) -> bool {
        !self.disabled_names.contains(tool.name())
            && !self.disabled_tags.iter().any(|tag| tool.has_tag(tag))
    }

    /// Runs `look` over every tool, enabled or not (statics read from the registry if the
    /// server has not started yet).
    fn with_all<T>(&self, look: impl FnOnce(&[Arc<CatalogTool>]) -> T) -> T {
        let mut tools: Vec<Arc<CatalogTool>> = match &self.statics {
            Some(statics) => statics.clone(),
            None => registered_tools()
                .map(|descriptor| Arc::new(CatalogTool::new(ToolSource::Static(descriptor))))
                .collect(),
        };
        tools.extend(self.dynamic.values().cloned());
        look(&tools)
    }

    fn knows(&self, name: &str) -> bool {
        self.dynamic.contains_key(name) || registered_tools().any(|tool| tool.name == name)
    }

    fn count_tagged(&self, tag: &str) -> usize {
        self.with_all(|tools| tools.iter().filter(|tool| tool.has_tag(tag)).count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo(name: &str) -> DynamicTool {
        DynamicTool::new(name, serde_json::json!({"type": "object"}), |_, _| async {
            ""
        })
    }

    #[cfg(feature = "http")]
    #[test]
    fn a_tool_mirroring_what_a_header_cannot_carry_is_refused() {
        let tools = ToolSet::new();
        let with = |name: &str, property: serde_json::Value| {
            let schema = serde_json::json!({ "type": "object", "properties": { "p": property } });
            DynamicTool::new(name, schema, |_, _| async { "" })
        };
        let error = tools
            .add(with(
                "scored",
                serde_json::json!({ "type": "number", "x-mcp-header": "Score" }),
            ))
            .unwrap_err()
            .to_string();
        assert!(error.contains("string, integer or boolean"), "{error}");
        let error = tools
            .add(with(
                "spaced",
                serde_json::json!({ "type": "string", "x-mcp-header": "A B" }),
            ))
            .unwrap_err()
            .to_string();
        assert!(error.contains("must be a header name"), "{error}");
        tools.add(echo("plain")).unwrap();
        tools.prepare(&States::default()).unwrap();
        assert!(tools.catalog().get("plain").is_some());
        assert!(!tools.catalog().has_mirrored_headers());
        tools
            .add(with(
                "routed",
                serde_json::json!({ "type": "string", "x-mcp-header": "Region" }),
            ))
            .unwrap();
        let catalog = tools.catalog();
        assert!(catalog.has_mirrored_headers());
        let routed = catalog.get("routed").unwrap();
        assert_eq!(routed.header_params()[0].header(), "Mcp-Param-Region");
    }

    #[test]
    fn a_seen_catalog_is_read_again_exactly_when_the_tools_changed() {
        let tools = ToolSet::new();
        tools.add(echo("first")).unwrap();
        tools.prepare(&States::default()).unwrap();
        let mut seen = None;
        let before = Arc::clone(tools.seen(&mut seen));
        assert!(before.get("first").is_some());
        // Nothing changed: the same catalog, not read again.
        assert!(Arc::ptr_eq(&before, tools.seen(&mut seen)));
        tools.add(echo("second")).unwrap();
        let after = Arc::clone(tools.seen(&mut seen));
        assert!(!Arc::ptr_eq(&before, &after));
        assert!(after.get("second").is_some());
        assert!(Arc::ptr_eq(&after, &tools.catalog()));
        tools.disable("first");
        assert!(tools.seen(&mut seen).get("first").is_none());
        tools.enable("first");
        assert!(tools.seen(&mut seen).get("first").is_some());
        // A change that leaves the listed tools as they were replaces nothing.
        let unchanged = Arc::clone(tools.seen(&mut seen));
        tools.enable("first");
        assert!(Arc::ptr_eq(&unchanged, tools.seen(&mut seen)));
    }
}
