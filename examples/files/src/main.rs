//! A read-only file server confined to one directory.
//!
//! Run it with `cargo run -p example-files -- <ROOT>`. Every path a client gives
//! is resolved inside ROOT; a path that leads outside it — `..`, an absolute path, a
//! symbolic link pointing out — is refused with a tool error.
//!
//! The same files are resources too: the template `file:///{+path}` reads any file under
//! ROOT (text as text, anything else as a blob), refusing the same ways out, and completes
//! paths as a client types them.

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use mcp_runtime::{EmbeddedResource, Json, ResourceContents, Server, mcp_resource, mcp_tool};
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
    let (_, bytes) = read_inside(&path).await?;
    String::from_utf8(bytes).map_err(|_| format!("`{path}` is not a UTF-8 text file"))
}

/// The bytes of the file at `path`, and where it is: refused outside the root, for anything
/// but a file, and over [`MAX_FILE_SIZE`]. The tool and the resource read through this one
/// function, so they refuse exactly the same things.
async fn read_inside(path: &str) -> Result<(PathBuf, Vec<u8>), String> {
    let resolved = resolve(path)?;
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
    Ok((resolved, bytes))
}

/// A file under the served directory.
#[mcp_resource(uri = "file:///{+path}", name = "file", title = "A served file")]
async fn file(
    /// Path of the file, relative to the served directory.
    #[mcp(complete = complete_path)]
    path: String,
) -> Result<EmbeddedResource, String> {
    let (resolved, bytes) = read_inside(&path).await?;
    let uri = format!("file:///{}", display_path(&resolved));
    Ok(match String::from_utf8(bytes) {
        Ok(text) => EmbeddedResource {
            uri,
            mime_type: Some(mime_type(&resolved).unwrap_or("text/plain").to_owned()),
            contents: ResourceContents::Text(text),
        },
        Err(not_text) => {
            use base64::Engine as _;
            EmbeddedResource {
                uri,
                mime_type: Some(
                    mime_type(&resolved)
                        .unwrap_or("application/octet-stream")
                        .to_owned(),
                ),
                contents: ResourceContents::Blob(
                    base64::engine::general_purpose::STANDARD.encode(not_text.into_bytes()),
                ),
            }
        }
    })
}

/// The MIME type a file's extension says, for the common ones.
fn mime_type(path: &Path) -> Option<&'static str> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match extension.as_str() {
        "txt" => "text/plain",
        "md" => "text/markdown",
        "json" => "application/json",
        "html" | "htm" => "text/html",
        "csv" => "text/csv",
        "rs" => "text/x-rust",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "pdf" => "application/pdf",
        _ => return None,
    })
}

/// Paths under the served directory that start with what the client typed: the entries of
/// the directory it names so far (directories end with `/`), refused ways out giving none.
fn complete_path(prefix: &str) -> Vec<String> {
    let (directory, start) = match prefix.rfind('/') {
        Some(slash) => (&prefix[..slash], &prefix[slash + 1..]),
        None => ("", prefix),
    };
    let Ok(resolved) = resolve(if directory.is_empty() { "." } else { directory }) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(resolved) else {
        return Vec::new();
    };
    let mut candidates: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if !name.starts_with(start) {
                return None;
            }
            let slash = if entry.file_type().ok()?.is_dir() {
                "/"
            } else {
                ""
            };
            Some(if directory.is_empty() {
                format!("{name}{slash}")
            } else {
                format!("{directory}/{name}{slash}")
            })
        })
        .collect();
    candidates.sort();
    candidates
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
