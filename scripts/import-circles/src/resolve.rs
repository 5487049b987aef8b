//! Which file each `use` and each written path depends on: the file that defines the item
//! it names, found by following re-exports (`pub use`, and plain `use`, which a child module
//! may reach through `super::`) and glob imports, as rustc resolves names.

use crate::modules::{Crate, FileId, Import, Module, ModuleId};

/// What a path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Module(ModuleId),
    /// An item defined in this module.
    Item(ModuleId),
    /// A name this reader cannot find, most likely made by a macro: the deepest module the
    /// path names stands for it, as the file the item is most likely written in.
    Unresolved(ModuleId),
    /// Another crate, the prelude, a local variable's type: nothing in this crate.
    External,
}

/// One place that makes a file depend on another.
#[derive(Debug, Clone)]
pub struct Site {
    pub from: FileId,
    pub to: FileId,
    pub line: u32,
    pub text: String,
    pub unresolved: bool,
}

/// Re-export chains longer than this are taken for a loop (`use a as b; use b as a`).
const MAX_DEPTH: usize = 24;

pub fn sites(krate: &Crate) -> Vec<Site> {
    let mut sites = Vec::new();
    for (id, module) in krate.modules.iter().enumerate() {
        let mut push = |target: Target, line: u32, text: String| {
            let (to, unresolved) = match target {
                Target::Module(m) | Target::Item(m) => (krate.modules[m].file, false),
                Target::Unresolved(m) => (krate.modules[m].file, true),
                Target::External => return,
            };
            if to != module.file {
                sites.push(Site {
                    from: module.file,
                    to,
                    line,
                    text,
                    unresolved,
                });
            }
        };
        for import in &module.imports {
            let target = walk(krate, id, &import.path, 0);
            // A module imported by name is a dependency on what the code then names through
            // it (`catalog::Entry` may live in a child of `catalog/`); only an import no path
            // goes through stands for the module's own file.
            if let Target::Module(_) = target
                && !import.glob
                && import
                    .alias
                    .as_ref()
                    .is_some_and(|a| names_through(module, a))
            {
                continue;
            }
            push(target, import.line, import.text());
        }
        for written in &module.paths {
            let target = walk(krate, id, &written.path, 0);
            push(target, written.line, written.path.join("::"));
        }
    }
    sites
}

/// Whether some path of `module` starts with `alias` and goes on past it.
fn names_through(module: &Module, alias: &str) -> bool {
    let starts = |path: &[String]| path.len() > 1 && path[0] == alias;
    module.paths.iter().any(|w| starts(&w.path))
        || module.imports.iter().any(|i: &Import| starts(&i.path))
}

/// Resolves `path` as written in module `from`.
pub fn walk(krate: &Crate, from: ModuleId, path: &[String], depth: usize) -> Target {
    if depth > MAX_DEPTH || path.is_empty() {
        return Target::External;
    }
    let (mut at, rest, in_scope) = match path[0].as_str() {
        "crate" => (0, &path[1..], false),
        "self" => (from, &path[1..], false),
        "super" => match krate.modules[from].parent {
            Some(parent) => (parent, &path[1..], false),
            None => return Target::External,
        },
        "Self" | "::" => return Target::External,
        // Edition 2018 paths: the first name is looked up in the scope of `from`.
        _ => (from, path, true),
    };
    for (k, name) in rest.iter().enumerate() {
        match name.as_str() {
            "super" => match krate.modules[at].parent {
                Some(parent) => at = parent,
                None => return Target::External,
            },
            "self" => {}
            _ => {
                let more = k + 1 < rest.len();
                match lookup(krate, at, name, more, depth) {
                    Some(Target::Module(m)) => at = m,
                    Some(found) => return found,
                    None if in_scope && k == 0 => return Target::External,
                    None => return Target::Unresolved(at),
                }
            }
        }
    }
    Target::Module(at)
}

/// `name` in module `at`: a child module, an item defined there, or what an import or a glob
/// import there brings in.
fn lookup(krate: &Crate, at: ModuleId, name: &str, more: bool, depth: usize) -> Option<Target> {
    let module = &krate.modules[at];
    let child = module.children.get(name).copied();
    let item = module.items.contains(name);
    // A module and a function may share a name (they live in different namespaces): a path
    // that goes on names the module.
    match (child, item) {
        (Some(child), false) => return Some(Target::Module(child)),
        (Some(child), true) if more => return Some(Target::Module(child)),
        (_, true) => return Some(Target::Item(at)),
        (None, false) => {}
    }
    if let Some(import) = module
        .imports
        .iter()
        .find(|i| i.alias.as_deref() == Some(name))
    {
        return Some(walk(krate, at, &import.path, depth + 1));
    }
    for glob in module.imports.iter().filter(|i| i.glob) {
        if let Target::Module(source) = walk(krate, at, &glob.path, depth + 1)
            && source != at
            && depth < MAX_DEPTH
            && let Some(found) = lookup(krate, source, name, more, depth + 1)
        {
            return Some(found);
        }
    }
    None
}
