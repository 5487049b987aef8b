//! What [`ResourceSet`](crate::ResourceSet), [`PromptSet`](crate::PromptSet) and
//! [`SkillSet`](crate::SkillSet) share: the
//! entries a server offers while it runs — those linked in with an attribute, those added at
//! run time — which of them are disabled, and the catalog requests read, rebuilt as a whole on
//! every change so a request never sees half of one.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use serde_json::Value;

use crate::changes::Notifier;
use crate::error::Error;
use crate::protocol::version::ProtocolVersion;

/// One entry of a registry: a resource (keyed by its URI), a prompt (by its name) or a skill
/// (by its `SKILL.md` URI).
pub(crate) trait Entry: Send + Sync + 'static {
    fn key(&self) -> &str;
    /// The entry in its list method's result, shaped for `version`.
    fn listing(&self, version: ProtocolVersion) -> Value;
    /// The scopes a caller must hold to use it (`scopes = [...]`).
    fn scopes(&self) -> impl Iterator<Item = &str>;
}

/// What requests read: built from the enabled entries, sorted by key.
pub(crate) trait FromEntries<E>: Send + Sync + 'static {
    fn from_entries(entries: Vec<Arc<E>>) -> Self;
}

pub(crate) struct Registry<E, C> {
    /// Tells clients that the listing changed (resources' or prompts' list change).
    notifier: Notifier,
    list_changed: fn(&Notifier),
    state: Mutex<State<E>>,
    current: RwLock<Arc<C>>,
    /// Whether clients are told the list may change: once someone holds a handle that can
    /// change it.
    announced: AtomicBool,
}

struct State<E> {
    /// The entries linked in with an attribute, once the server has started.
    statics: Option<Vec<Arc<E>>>,
    dynamic: BTreeMap<String, Arc<E>>,
    disabled: BTreeSet<String>,
}

/// Why an entry could not be added.
pub(crate) enum Refusal {
    /// Another entry has the key.
    Taken,
}

impl<E: Entry, C: FromEntries<E>> Registry<E, C> {
    pub fn new(notifier: Notifier, list_changed: fn(&Notifier)) -> Self {
        Registry {
            notifier,
            list_changed,
            state: Mutex::new(State {
                statics: None,
                dynamic: BTreeMap::new(),
                disabled: BTreeSet::new(),
            }),
            current: RwLock::new(Arc::new(C::from_entries(Vec::new()))),
            announced: AtomicBool::new(false),
        }
    }

    /// Marks the list as changeable: clients are told `listChanged: true`, and the
    /// capability is declared even while the list is empty.
    pub fn announce_changes(&self) {
        self.announced.store(true, Ordering::Relaxed);
        self.notifier.announce_list_changes();
    }

    pub fn announces_changes(&self) -> bool {
        self.announced.load(Ordering::Relaxed)
    }

    /// Loads the entries linked in (once) and builds the catalog; the server's start.
    /// `clash` is the error for an entry added at run time whose key one linked in has.
    pub fn prepare(
        &self,
        load: impl FnOnce() -> Result<Vec<Arc<E>>, Error>,
        clash: impl FnOnce(&E) -> Error,
    ) -> Result<(), Error> {
        let mut state = self.state.lock().expect("registry poisoned");
        if state.statics.is_none() {
            let statics = load()?;
            if let Some(taken) = statics
                .iter()
                .find(|entry| state.dynamic.contains_key(entry.key()))
            {
                return Err(clash(taken));
            }
            state.statics = Some(statics);
        }
        self.refresh(&state, false);
        Ok(())
    }

    /// The catalog requests see now.
    pub fn catalog(&self) -> Arc<C> {
        Arc::clone(&self.current.read().expect("registry poisoned"))
    }

    /// Whether the server has any entry, enabled or not, or announced that it may: what
    /// decides whether the capability is declared.
    pub fn offers_any(&self) -> bool {
        if self.announces_changes() {
            return true;
        }
        let state = self.state.lock().expect("registry poisoned");
        !state.dynamic.is_empty() || state.statics.as_ref().is_some_and(|s| !s.is_empty())
    }

    /// Adds an entry (listed unless its key was disabled ahead of it).
    pub fn add(&self, entry: E) -> Result<(), Refusal> {
        // The key is checked against the entries linked in once they are loaded, and again
        // when they are (`prepare`).
        let mut state = self.state.lock().expect("registry poisoned");
        let key = entry.key().to_owned();
        let linked_in = state
            .statics
            .iter()
            .flatten()
            .any(|existing| existing.key() == key);
        if linked_in || state.dynamic.contains_key(&key) {
            return Err(Refusal::Taken);
        }
        state.dynamic.insert(key.clone(), Arc::new(entry));
        let listed = !state.disabled.contains(&key);
        self.refresh(&state, listed);
        Ok(())
    }

    /// Adds entries all at once, with one change of the listing: none if any key is taken
    /// (by another entry, or twice among them), and then the first key taken.
    pub fn add_all(&self, entries: Vec<E>) -> Result<(), (Refusal, String)> {
        let mut state = self.state.lock().expect("registry poisoned");
        let mut keys = BTreeSet::new();
        for entry in &entries {
            let key = entry.key();
            let linked_in = state
                .statics
                .iter()
                .flatten()
                .any(|existing| existing.key() == key);
            if linked_in || state.dynamic.contains_key(key) || !keys.insert(key.to_owned()) {
                return Err((Refusal::Taken, key.to_owned()));
            }
        }
        let listed = keys.iter().any(|key| !state.disabled.contains(key));
        for entry in entries {
            state
                .dynamic
                .insert(entry.key().to_owned(), Arc::new(entry));
        }
        self.refresh(&state, listed);
        Ok(())
    }

    /// Removes the entries of these keys added at run time, with one change of the listing;
    /// how many there were.
    pub fn remove_all(&self, keys: &[String]) -> usize {
        let mut state = self.state.lock().expect("registry poisoned");
        let removed: Vec<&String> = keys
            .iter()
            .filter(|key| state.dynamic.remove(key.as_str()).is_some())
            .collect();
        let listed = removed
            .iter()
            .any(|key| !state.disabled.contains(key.as_str()));
        if !removed.is_empty() {
            self.refresh(&state, listed);
        }
        removed.len()
    }

    /// Disables or enables the entries of these keys, with one change of the listing.
    pub fn set_all_enabled(&self, keys: &[String], enabled: bool) {
        let mut state = self.state.lock().expect("registry poisoned");
        let mut changed = false;
        for key in keys {
            changed |= if enabled {
                state.disabled.remove(key)
            } else {
                state.disabled.insert(key.clone())
            };
        }
        if changed {
            self.refresh(&state, true);
        }
    }

    /// The entry of this key, linked in or added, enabled or not.
    pub fn get(&self, key: &str) -> Option<Arc<E>> {
        let state = self.state.lock().expect("registry poisoned");
        state.dynamic.get(key).cloned().or_else(|| {
            state
                .statics
                .iter()
                .flatten()
                .find(|entry| entry.key() == key)
                .cloned()
        })
    }

    /// Removes an entry added at run time; `false` if there is none of this key.
    pub fn remove(&self, key: &str) -> bool {
        let mut state = self.state.lock().expect("registry poisoned");
        if state.dynamic.remove(key).is_none() {
            return false;
        }
        let listed = !state.disabled.contains(key);
        self.refresh(&state, listed);
        true
    }

    /// Disables (`enabled == false`) or enables the entry `key`, linked in or added; whether
    /// the listing changed. A key no entry has yet may be disabled ahead of it.
    pub fn set_enabled(&self, key: &str, enabled: bool) -> bool {
        let mut state = self.state.lock().expect("registry poisoned");
        let changed = if enabled {
            state.disabled.remove(key)
        } else {
            state.disabled.insert(key.to_owned())
        };
        let exists = state.dynamic.contains_key(key)
            || state
                .statics
                .iter()
                .flatten()
                .any(|entry| entry.key() == key);
        if changed {
            self.refresh(&state, exists);
        }
        changed && exists
    }

    /// Whether `key` is listed and served now.
    pub fn is_enabled(&self, key: &str) -> bool {
        let state = self.state.lock().expect("registry poisoned");
        let exists = state.dynamic.contains_key(key)
            || state
                .statics
                .iter()
                .flatten()
                .any(|entry| entry.key() == key);
        exists && !state.disabled.contains(key)
    }

    /// Rebuilds the catalog and, when `listing_changed`, tells clients.
    fn refresh(&self, state: &State<E>, listing_changed: bool) {
        let mut enabled: Vec<Arc<E>> = state
            .statics
            .iter()
            .flatten()
            .chain(state.dynamic.values())
            .filter(|entry| !state.disabled.contains(entry.key()))
            .cloned()
            .collect();
        enabled.sort_by(|a, b| a.key().cmp(b.key()));
        *self.current.write().expect("registry poisoned") = Arc::new(C::from_entries(enabled));
        if listing_changed {
            (self.list_changed)(&self.notifier);
        }
    }
}
