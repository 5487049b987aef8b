//! A read-only file server confined to one directory.
//!
//! Run it with `cargo run -p example-files -- <ROOT>`. Every path a client gives
//! is resolved inside ROOT; a path that leads outside it — `..`, an absolute path, a
//! symbolic link pointing out — is refused with a tool error.
//!
//! Files and directories are opened beneath ROOT, one step at a time, with
//! [`cap_std`]: a symbolic link is followed only while it stays inside, and since nothing is
//! checked first and opened by its path later, a directory swapped for a link to outside
//! while a request is served cannot lead out either.
//!
//! The same files are resources too: the template `file:///{+path}` reads any file under
//! ROOT (text as text, anything else as a blob), refusing the same ways out, and completes
//! paths as a client types them.

use std::io::Read as _;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use cap_std::fs::Dir;
use mcp_runtime::{EmbeddedResource, Json, ResourceContents, Server, mcp_resource, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

/// The directory the server may read, opened at start-up: everything is opened beneath it.
static ROOT: OnceLock<Dir> = OnceLock::new();

/// Files larger than this are refused by `read_file`.
const MAX_FILE_SIZE: u64 = 1024 * 1024;

/// The served directory, once `main` has opened it.
fn root() -> Result<&'static Dir, String> {
    ROOT.get()
        .ok_or_else(|| "the server has no root directory".to_owned())
}

/// `path` (relative to the root) as a path beneath the root, `.` for the root itself.
///
/// Lexically: `..` may not climb above the root, and an absolute path is read as relative
/// to it — so nothing outside is even looked at, and whether it exists is not revealed.
/// Symbolic links, which may point anywhere, are left to the open beneath the root.
fn inside(path: &str) -> Result<PathBuf, String> {
    let mut inside = PathBuf::from(".");
    for component in Path::new(path).components() {
        match component {
            Component::Normal(part) => inside.push(part),
            Component::ParentDir => {
                if inside == Path::new(".") {
                    return Err(format!("`{path}` is outside the served directory"));
                }
                inside.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    Ok(inside)
}

/// How a path beneath the root is shown: relative to it, `.` for the root itself.
fn display_path(inside: &Path) -> String {
    let relative = inside.strip_prefix(".").unwrap_or(inside);
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
    let inside = inside(path)?;
    let root = root()?;
    let (opened, shown) = (inside.clone(), path.to_owned());
    let bytes = tokio::task::spawn_blocking(move || read_beneath(root, &opened, &shown))
        .await
        .map_err(|error| format!("cannot read `{path}`: {error}"))??;
    Ok((inside, bytes))
}

/// The bytes of the file at `inside`, opened beneath `root`.
fn read_beneath(root: &Dir, inside: &Path, path: &str) -> Result<Vec<u8>, String> {
    // Looked at before it is opened, so that opening a named pipe cannot hang the call;
    // what is read is still only what was opened beneath the root.
    let is_file = |metadata: &cap_std::fs::Metadata| {
        if !metadata.is_file() {
            return Err(format!("`{path}` is not a file"));
        }
        if metadata.len() > MAX_FILE_SIZE {
            return Err(format!(
                "`{path}` is {} bytes; files over {MAX_FILE_SIZE} bytes are not read",
                metadata.len()
            ));
        }
        Ok(())
    };
    is_file(
        &root
            .metadata(inside)
            .map_err(|error| format!("cannot open `{path}`: {error}"))?,
    )?;
    let file = root
        .open(inside)
        .map_err(|error| format!("cannot open `{path}`: {error}"))?;
    let unreadable = |error: std::io::Error| format!("cannot read `{path}`: {error}");
    is_file(&file.metadata().map_err(unreadable)?)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_SIZE)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    Ok(bytes)
}

/// A file under the served directory.
#[mcp_resource(uri = "file:///{+path}", name = "file", title = "A served file")]
async fn file(
    /// Path of the file, relative to the served directory.
    #[mcp(complete = complete_path)]
    path: String,
) -> Result<EmbeddedResource, String> {
    let (inside, bytes) = read_inside(&path).await?;
    let uri = format!("file:///{}", display_path(&inside));
    Ok(match String::from_utf8(bytes) {
        Ok(text) => EmbeddedResource {
            uri,
            mime_type: Some(mime_type(&inside).unwrap_or("text/plain").to_owned()),
            contents: ResourceContents::Text(text),
        },
        Err(not_text) => {
            use base64::Engine as _;
            EmbeddedResource {
                uri,
                mime_type: Some(
                    mime_type(&inside)
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
    let (Ok(inside), Ok(root)) = (inside(directory), root()) else {
        return Vec::new();
    };
    let Ok(entries) = root.read_dir(inside) else {
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
    let inside = inside(&path)?;
    let root = root()?;
    let (opened, shown) = (inside.clone(), path.clone());
    let entries = tokio::task::spawn_blocking(move || list_beneath(root, &opened, &shown))
        .await
        .map_err(|error| format!("cannot list `{path}`: {error}"))??;
    Ok(Json(Listing {
        directory: display_path(&inside),
        entries,
    }))
}

/// The entries of the directory at `inside`, opened beneath `root`, sorted by name.
fn list_beneath(root: &Dir, inside: &Path, path: &str) -> Result<Vec<Entry>, String> {
    let unlistable = |error: std::io::Error| format!("cannot list `{path}`: {error}");
    let mut entries = Vec::new();
    for entry in root.read_dir(inside).map_err(unlistable)? {
        let entry = entry.map_err(unlistable)?;
        let (kind, size) = match entry.file_type() {
            Ok(t) if t.is_file() => ("file", entry.metadata().ok().map(|m| m.len())),
            Ok(t) if t.is_dir() => ("directory", None),
            _ => ("other", None),
        };
        entries.push(Entry {
            name: entry.file_name().to_string_lossy().into_owned(),
            kind,
            size,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
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
    let root = match Dir::open_ambient_dir(&root, cap_std::ambient_authority()) {
        Ok(root) => root,
        Err(error) => {
            eprintln!("files: cannot open {}: {error}", root.display());
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
