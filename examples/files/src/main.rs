//! A read-only file server confined to one directory.
//!
//! Run it with `cargo run -p example-files -- <ROOT>`. Every path a client gives
//! is resolved inside ROOT; a path that leads outside it — `..`, an absolute path, a
//! symbolic link pointing out — is refused with a tool error.

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use mcp_runtime::{Json, Server, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

/// The directory the server may read, canonicalized at start-up.
static ROOT: OnceLock<PathBuf> = OnceLock::new();

/// Files larger than this are refused by `read_file`.
const MAX_FILE_SIZE: u64 = 1024 * 1024;

/// Resolves `path` (relative to the root) and makes sure the result is inside the root.
///
/// First lexically: `..` may not climb above the root, and an absolute path is read as
/// relative to it — so nothing outside is even looked at, and whether it exists is not
/// revealed. Then after following symbolic links, which may point anywhere.
fn resolve(path: &str) -> Result<PathBuf, String> {
    let root = ROOT.get().ok_or("the server has no root directory")?;
    let mut inside = PathBuf::new();
    for component in Path::new(path).components() {
        match component {
            Component::Normal(part) => inside.push(part),
            Component::ParentDir => {
                if !inside.pop() {
                    return Err(format!("`{path}` is outside the served directory"));
                }
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    let resolved = root
        .join(inside)
        .canonicalize()
        .map_err(|error| format!("cannot open `{path}`: {error}"))?;
    if !resolved.starts_with(root) {
        return Err(format!("`{path}` is outside the served directory"));
    }
    Ok(resolved)
}

fn display_path(path: &Path) -> String {
    let root = ROOT.get().map(PathBuf::as_path).unwrap_or(Path::new(""));
    let relative = path.strip_prefix(root).unwrap_or(path);
    if relative.as_os_str().is_empty() {
        ".".to_owned()
    } else {
        relative.display().to_string()
    }
}

/// Read a UTF-8 text file.
#[mcp_tool(read_only, idempotent, open_world = false)]
async fn read_file(
    /// Path of the file, relative to the served directory.
    path: String,
) -> Result<String, String> {
    let resolved = resolve(&path)?;
    let metadata = tokio::fs::metadata(&resolved)
        .await
        .map_err(|error| format!("cannot read `{path}`: {error}"))?;
    if !metadata.is_file() {
        return Err(format!("`{path}` is not a file"));
    }
    if metadata.len() > MAX_FILE_SIZE {
        return Err(format!(
            "`{path}` is {} bytes; files over {MAX_FILE_SIZE} bytes are not read",
            metadata.len()
        ));
    }
    let bytes = tokio::fs::read(&resolved)
        .await
        .map_err(|error| format!("cannot read `{path}`: {error}"))?;
    String::from_utf8(bytes).map_err(|_| format!("`{path}` is not a UTF-8 text file"))
}

/// One entry of a directory listing.
#[derive(Serialize, JsonSchema)]
struct Entry {
    /// The entry's name.
    name: String,
    /// `file`, `directory` or `other`.
    kind: &'static str,
    /// Size in bytes (files only).
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
}

/// The contents of a directory.
#[derive(Serialize, JsonSchema)]
struct Listing {
    /// The directory, relative to the served directory.
    directory: String,
    /// Its entries, sorted by name.
    entries: Vec<Entry>,
}

/// List a directory's entries.
#[mcp_tool(read_only, idempotent, open_world = false)]
async fn list_directory(
    /// Path of the directory, relative to the served directory; the served directory itself
    /// when left out.
    path: Option<String>,
) -> Result<Json<Listing>, String> {
    let path = path.unwrap_or_else(|| ".".to_owned());
    let resolved = resolve(&path)?;
    let mut reader = tokio::fs::read_dir(&resolved)
        .await
        .map_err(|error| format!("cannot list `{path}`: {error}"))?;
    let mut entries = Vec::new();
    while let Some(entry) = reader
        .next_entry()
        .await
        .map_err(|error| format!("cannot list `{path}`: {error}"))?
    {
        let file_type = entry.file_type().await.ok();
        let (kind, size) = match file_type {
            Some(t) if t.is_file() => ("file", entry.metadata().await.ok().map(|m| m.len())),
            Some(t) if t.is_dir() => ("directory", None),
            _ => ("other", None),
        };
        entries.push(Entry {
            name: entry.file_name().to_string_lossy().into_owned(),
            kind,
            size,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Json(Listing {
        directory: display_path(&resolved),
        entries,
    }))
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let Some(root) = std::env::args_os().nth(1) else {
        eprintln!(
            "usage: files <ROOT>\n\nServes the files under ROOT, read-only, over MCP on stdio."
        );
        std::process::exit(2);
    };
    let root = match Path::new(&root).canonicalize() {
        Ok(root) if root.is_dir() => root,
        Ok(root) => {
            eprintln!("files: {} is not a directory", root.display());
            std::process::exit(2);
        }
        Err(error) => {
            eprintln!("files: cannot open {}: {error}", Path::new(&root).display());
            std::process::exit(2);
        }
    };
    ROOT.set(root).expect("the root is set once");
    Server::new("files", env!("CARGO_PKG_VERSION"))
        .title("Read-only files")
        .instructions("Read text files and list directories under one served directory.")
        .serve_stdio()
        .await
}
