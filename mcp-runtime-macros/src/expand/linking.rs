//! The dependencies whose tools the binary should hold: a crate of tools that the binary
//! never names is left out by the linker, and its tools vanish without a word. Each
//! registration also records the crate's dependencies that register tools, resources or
//! prompts of their own, so that the runtime can name any of them that is missing at start.
//!
//! A leaf of `expand`. Read from the compiled crate's `Cargo.toml` (as `runtime_path` reads
//! it), the workspace's, and `Cargo.lock`:
//!
//! - a `path` dependency counts when its `src/` uses one of the attributes;
//! - any other dependency counts when `Cargo.lock` says it depends on `mcp-runtime`.
//!
//! Optional and platform-specific dependencies, and those listed under
//! `[package.metadata.mcp-runtime] unlinked = [...]`, are left out: they may be missing on
//! purpose.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use proc_macro2::TokenStream;
use quote::quote;
use toml_edit::{DocumentMut, Item, TableLike};

/// The runtime's own packages, which hold no registrations a binary could miss.
const RUNTIME_PACKAGES: [&str; 2] = ["mcp-runtime", "mcp-runtime-macros"];
/// What a crate's source must mention to count as a crate of tools (or of skills).
const ATTRIBUTES: [&str; 4] = ["mcp_tool", "mcp_resource", "mcp_prompt", "skill!("];
/// Bounds the scan of a path dependency's sources.
const MAX_SCANNED_FILES: usize = 2_000;

/// One dependency that registers something: how the dependent names it (`use #name as _;`),
/// the crate name its registrations carry, and its package name (for `unlinked`).
#[derive(Clone)]
struct Dependency {
    name: String,
    crate_name: String,
    package: String,
}

/// The compiled package and its dependencies that register something.
#[derive(Clone)]
struct Dependents {
    package: String,
    dependencies: Vec<Dependency>,
}

/// The registration of the compiled crate's dependencies of tools, or nothing if it has
/// none (or its manifest cannot be read, where the check is simply not made).
pub fn dependency_check(private: &TokenStream) -> TokenStream {
    let Some(Dependents {
        package,
        dependencies,
    }) = dependents()
    else {
        return TokenStream::new();
    };
    if dependencies.is_empty() {
        return TokenStream::new();
    }
    let entries = dependencies.iter().map(
        |Dependency {
             name,
             crate_name,
             package,
         }| {
            quote!(#private::Dependency { name: #name, crate_name: #crate_name, package: #package })
        },
    );
    quote! {
        #private::inventory::submit! {
            #private::DependencyCheck { package: #package, dependencies: &[#(#entries),*] }
        }
    }
}

/// The compiled package's name and its dependencies of tools, read once per manifest: a
/// crate with many attributes expands them in one compiler process.
fn dependents() -> Option<Dependents> {
    static CACHE: Mutex<BTreeMap<PathBuf, Option<Dependents>>> = Mutex::new(BTreeMap::new());
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    cache
        .entry(manifest_dir.clone())
        .or_insert_with(|| read(&manifest_dir))
        .clone()
}

fn read(manifest_dir: &Path) -> Option<Dependents> {
    let manifest = parse(&manifest_dir.join("Cargo.toml"))?;
    let package = manifest.get("package")?.get("name")?.as_str()?.to_owned();
    let unlinked: BTreeSet<String> = manifest
        .get("package")
        .and_then(|package| package.get("metadata"))
        .and_then(|metadata| metadata.get("mcp-runtime"))
        .and_then(|ours| ours.get("unlinked"))
        .and_then(Item::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|name| name.as_str())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let root = workspace_root(manifest_dir);
    let workspace = root
        .as_deref()
        .and_then(|root| parse(&root.join("Cargo.toml")));
    let workspace_dependencies = workspace.as_ref().and_then(|workspace| {
        workspace
            .get("workspace")?
            .get("dependencies")?
            .as_table_like()
    });
    let locked = lock_dependents(root.as_deref().unwrap_or(manifest_dir));

    let mut dependencies = Vec::new();
    let Some(table) = manifest.get("dependencies").and_then(Item::as_table_like) else {
        return Some(Dependents {
            package,
            dependencies,
        });
    };
    for (key, entry) in table.iter() {
        if entry.get("optional").and_then(Item::as_bool) == Some(true) {
            continue;
        }
        // `foo.workspace = true` takes its package and path from the workspace's table.
        let inherited = entry.get("workspace").and_then(Item::as_bool) == Some(true);
        let (source, base): (Option<&Item>, &Path) = if inherited {
            (
                workspace_dependencies.and_then(|table: &dyn TableLike| table.get(key)),
                root.as_deref().unwrap_or(manifest_dir),
            )
        } else {
            (Some(entry), manifest_dir)
        };
        let dependency_package = source
            .and_then(|source| source.get("package"))
            .and_then(Item::as_str)
            .unwrap_or(key)
            .to_owned();
        if RUNTIME_PACKAGES.contains(&dependency_package.as_str())
            || dependency_package == package
            || unlinked.contains(&dependency_package)
            || unlinked.contains(key)
        {
            continue;
        }
        let path = source
            .and_then(|source| source.get("path"))
            .and_then(Item::as_str)
            .map(|path| base.join(path));
        let crate_name = match &path {
            Some(path) if uses_attributes(&path.join("src")) => lib_name(path, &dependency_package),
            Some(_) => continue,
            None if locked.contains(&dependency_package) => dependency_package.replace('-', "_"),
            None => continue,
        };
        dependencies.push(Dependency {
            name: key.replace('-', "_"),
            crate_name,
            package: dependency_package,
        });
    }
    Some(Dependents {
        package,
        dependencies,
    })
}

fn parse(path: &Path) -> Option<DocumentMut> {
    std::fs::read_to_string(path).ok()?.parse().ok()
}

/// The nearest directory at or above `start` whose `Cargo.toml` has a `[workspace]`.
fn workspace_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| {
            std::fs::read_to_string(dir.join("Cargo.toml"))
                .ok()
                .and_then(|text| text.parse::<DocumentMut>().ok())
                .is_some_and(|manifest| manifest.contains_key("workspace"))
        })
        .map(Path::to_path_buf)
}

/// The packages of `Cargo.lock` that depend on `mcp-runtime` directly.
fn lock_dependents(root: &Path) -> BTreeSet<String> {
    let Some(lock) = parse(&root.join("Cargo.lock")) else {
        return BTreeSet::new();
    };
    let Some(packages) = lock.get("package").and_then(Item::as_array_of_tables) else {
        return BTreeSet::new();
    };
    packages
        .iter()
        .filter(|package| {
            package
                .get("dependencies")
                .and_then(Item::as_array)
                .is_some_and(|dependencies| {
                    dependencies.iter().any(|dependency| {
                        dependency
                            .as_str()
                            .and_then(|text| text.split_whitespace().next())
                            == Some("mcp-runtime")
                    })
                })
        })
        .filter_map(|package| package.get("name")?.as_str().map(str::to_owned))
        .collect()
}

/// The crate name a path dependency's registrations carry: its `[lib] name`, else its
/// package name with `-` as `_`.
fn lib_name(dir: &Path, package: &str) -> String {
    parse(&dir.join("Cargo.toml"))
        .and_then(|manifest| {
            manifest
                .get("lib")?
                .get("name")?
                .as_str()
                .map(str::to_owned)
        })
        .unwrap_or_else(|| package.replace('-', "_"))
}

/// Whether a Rust file of the library under `dir` (its `src/`, not `src/bin/`, whose
/// binaries a dependent never links) mentions one of the attributes.
fn uses_attributes(dir: &Path) -> bool {
    let binaries = dir.join("bin");
    let mut pending = vec![dir.to_path_buf()];
    let mut scanned = 0;
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path != binaries {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                scanned += 1;
                if scanned > MAX_SCANNED_FILES {
                    return false;
                }
                if std::fs::read_to_string(&path)
                    .is_ok_and(|text| ATTRIBUTES.iter().any(|name| text.contains(name)))
                {
                    return true;
                }
            }
        }
    }
    false
}
