//! The crates of tools the linker left out. A binary links a dependency only when its code
//! names it, so a crate that holds nothing but tools vanishes, tools and all, unless the
//! binary writes `use my_tools as _;`. Each attribute records its crate's dependencies that
//! register tools, resources or prompts of their own (read from `Cargo.toml` and
//! `Cargo.lock` as it expands); at start, any of them with nothing registered is named.

use std::collections::BTreeSet;

use crate::prompt::descriptor::registered_prompts;
use crate::resource::descriptor::registered_resources;
use crate::tool::descriptor::registered_tools;

/// A dependency that registers tools, resources or prompts, as the dependent's attributes
/// recorded it.
#[doc(hidden)]
#[derive(Debug)]
pub struct Dependency {
    /// How the dependent names it in code (its key in `Cargo.toml`, `-` as `_`).
    pub name: &'static str,
    /// The crate name its registrations carry (`module_path!()`'s first segment).
    pub crate_name: &'static str,
    /// Its package name, as `[package.metadata.mcp-runtime] unlinked` lists it.
    pub package: &'static str,
}

/// A package's dependencies of tools, submitted by each of its attributes.
#[doc(hidden)]
#[derive(Debug)]
pub struct DependencyCheck {
    /// The dependent package.
    pub package: &'static str,
    /// Those of its dependencies that register something.
    pub dependencies: &'static [Dependency],
}

inventory::collect!(DependencyCheck);

/// One warning per dependency of tools that registered nothing in this binary.
pub(crate) fn unlinked_dependencies() -> Vec<String> {
    let checks: Vec<&DependencyCheck> = inventory::iter::<DependencyCheck>.into_iter().collect();
    if checks.is_empty() {
        return Vec::new();
    }
    let linked: BTreeSet<&str> = registered_tools()
        .map(|tool| tool.location.module_path)
        .chain(registered_resources().map(|resource| resource.location.module_path))
        .chain(registered_prompts().map(|prompt| prompt.location.module_path))
        .map(|path| path.split("::").next().unwrap_or(path))
        .collect();
    let mut named = BTreeSet::new();
    let mut warnings = Vec::new();
    for check in checks {
        for dependency in check.dependencies {
            if linked.contains(dependency.crate_name) || !named.insert(dependency.crate_name) {
                continue;
            }
            warnings.push(unlinked(check.package, dependency));
        }
    }
    warnings
}

fn unlinked(package: &str, dependency: &Dependency) -> String {
    let Dependency {
        name,
        crate_name,
        package: dependency_package,
    } = dependency;
    format!(
        "the tools, resources and prompts of `{crate_name}` are missing from this binary: \
         `{package}` depends on it, but the linker leaves out a crate the binary's code never \
         names. Add `use {name} as _;` to the binary's main.rs. If it is left out on purpose, \
         or defines none, say so in {package}'s Cargo.toml:\n  \
         [package.metadata.mcp-runtime]\n  unlinked = [\"{dependency_package}\"]"
    )
}
