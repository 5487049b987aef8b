//! The skills a server offers, as `skills/list`, `skills/get` and `resources/directory/read`
//! serve them: each skill's entry (its `SKILL.md` URI, its frontmatter as JSON, and every
//! file's URI, digest and size), checked once when the skill is loaded or added, and the
//! directories under `skill://` with their direct children.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::location::SourceLocation;
use crate::protocol::version::ProtocolVersion;
use crate::registry::{Entry, FromEntries};
use crate::resource::contents::{IntoResourceContents, ReadOutcome};
use crate::resource::dynamic::DynamicResource;
use crate::skill::frontmatter;

/// The scheme skill files are served under.
pub(crate) const SCHEME: &str = "skill://";
/// What `resources/directory/read` lists a directory as.
pub(crate) const DIRECTORY_MIME_TYPE: &str = "inode/directory";
/// The most files, and bytes in all, a skill may have: what every host accepts.
pub(crate) const MAX_FILES: usize = 512;
pub(crate) const MAX_TOTAL_SIZE: u64 = 16 * 1024 * 1024;

/// A file's bytes: embedded by `skill!`, or held for a skill added at run time.
#[derive(Clone)]
pub(crate) enum Bytes {
    Static(&'static [u8]),
    Shared(Arc<[u8]>),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Static(bytes) => bytes,
            Bytes::Shared(bytes) => bytes,
        }
    }
}

/// One file of a skill.
pub(crate) struct CatalogFile {
    pub uri: String,
    /// Relative to the skill's root, `/`-separated.
    pub relative: String,
    bytes: Bytes,
    pub digest: String,
    pub mime_type: &'static str,
}

/// One skill of the catalog.
pub(crate) struct CatalogSkill {
    /// `skill://<path>/SKILL.md`: the skill's identity and key.
    pub uri: String,
    /// The frontmatter's `name`: the path's last segment.
    pub name: String,
    pub description: String,
    pub files: Vec<CatalogFile>,
    /// Where its `skill!` is; `None` for a skill added at run time.
    pub location: Option<SourceLocation>,
    /// Its entry in `skills/list` and `skills/get`, made once.
    entry: Value,
}

impl Entry for CatalogSkill {
    fn key(&self) -> &str {
        &self.uri
    }

    fn listing(&self, _version: ProtocolVersion) -> Value {
        self.entry.clone()
    }

    fn scopes(&self) -> impl Iterator<Item = &str> {
        std::iter::empty()
    }
}

impl CatalogSkill {
    /// A skill at `path` (its last segment the skill's name) of these files, checked: a
    /// `SKILL.md` whose frontmatter names the skill as its path does, file paths that make
    /// URIs, and the extension's limits. `digests` are those `skill!` computed, if it did.
    pub fn new(
        path: &str,
        files: Vec<(String, Bytes, Option<&str>)>,
        location: Option<SourceLocation>,
    ) -> Result<Self, String> {
        check_path(path)?;
        let skill_md = files
            .iter()
            .find(|(relative, _, _)| relative == "SKILL.md")
            .ok_or("the skill has no `SKILL.md` at its root")?;
        let text = std::str::from_utf8(skill_md.1.as_slice())
            .map_err(|_| "its `SKILL.md` is not UTF-8")?;
        let frontmatter = frontmatter::parse(text)?;
        let name = frontmatter["name"].as_str().unwrap_or_default().to_owned();
        let description = frontmatter["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let last = path.rsplit('/').next().unwrap_or(path);
        if name != last {
            return Err(format!(
                "its SKILL.md names it `{name}`, but its path ends in `{last}`: the last \
                 segment of a skill's path must be its name"
            ));
        }
        if files.len() > MAX_FILES {
            return Err(format!(
                "it has {} files; a host may refuse a skill of more than {MAX_FILES}",
                files.len()
            ));
        }
        let total: u64 = files
            .iter()
            .map(|(_, bytes, _)| bytes.as_slice().len() as u64)
            .sum();
        if total > MAX_TOTAL_SIZE {
            return Err(format!(
                "its files take {total} bytes; a host may refuse a skill of more than \
                 {MAX_TOTAL_SIZE} (16 MiB)"
            ));
        }
        let mut catalog_files = Vec::with_capacity(files.len());
        for (relative, bytes, digest) in files {
            check_relative(&relative)?;
            let digest = digest.map_or_else(|| sha256(bytes.as_slice()), str::to_owned);
            catalog_files.push(CatalogFile {
                uri: format!("{SCHEME}{path}/{relative}"),
                mime_type: mime_type(&relative, bytes.as_slice()),
                relative,
                bytes,
                digest,
            });
        }
        catalog_files.sort_by(|a, b| a.relative.cmp(&b.relative));
        if let Some(pair) = catalog_files
            .windows(2)
            .find(|pair| pair[0].relative == pair[1].relative)
        {
            return Err(format!("it has two files at `{}`", pair[0].relative));
        }
        let uri = format!("{SCHEME}{path}/SKILL.md");
        let resources: Vec<Value> = catalog_files
            .iter()
            .map(|file| {
                json!({
                    "uri": file.uri,
                    "digest": file.digest,
                    "size": file.bytes.as_slice().len(),
                })
            })
            .collect();
        let entry = json!({
            "uri": uri,
            "frontmatter": Value::Object(frontmatter),
            "resources": resources,
        });
        Ok(CatalogSkill {
            uri,
            name,
            description,
            files: catalog_files,
            location,
            entry,
        })
    }

    /// The URIs of its files.
    pub fn file_uris(&self) -> Vec<String> {
        self.files.iter().map(|file| file.uri.clone()).collect()
    }

    /// Its files as resources, for `resources/list` and `resources/read`.
    pub fn resources(&self) -> Vec<DynamicResource> {
        self.files
            .iter()
            .map(|file| {
                let contents = FileContents::of(&file.bytes);
                let mut resource = DynamicResource::new(
                    file.uri.clone(),
                    self.file_name(file),
                    move |_request, _context| {
                        let contents = contents.clone();
                        async move { contents }
                    },
                )
                .mime_type(file.mime_type)
                .size(file.bytes.as_slice().len() as u64);
                if file.relative == "SKILL.md" {
                    resource = resource.description(self.description.clone());
                }
                resource
            })
            .collect()
    }

    /// A file's resource name: the skill's name for its `SKILL.md`, else the file's own.
    fn file_name(&self, file: &CatalogFile) -> String {
        if file.relative == "SKILL.md" {
            self.name.clone()
        } else {
            file.relative
                .rsplit('/')
                .next()
                .unwrap_or(&file.relative)
                .to_owned()
        }
    }

    /// A file's entry in a directory's listing: what `resources/list` says of it.
    fn child_json(&self, file: &CatalogFile) -> Value {
        let mut child = json!({
            "uri": file.uri,
            "name": self.file_name(file),
            "mimeType": file.mime_type,
            "size": file.bytes.as_slice().len(),
        });
        if file.relative == "SKILL.md" {
            child["description"] = self.description.clone().into();
        }
        child
    }
}

/// What reading a skill file returns: its text if it is UTF-8, else its bytes (a blob).
#[derive(Clone)]
enum FileContents {
    StaticText(&'static str),
    Bytes(Bytes),
    SharedText(Arc<[u8]>),
}

impl FileContents {
    fn of(bytes: &Bytes) -> Self {
        match bytes {
            Bytes::Static(bytes) => match std::str::from_utf8(bytes) {
                Ok(text) => FileContents::StaticText(text),
                Err(_) => FileContents::Bytes(Bytes::Static(bytes)),
            },
            Bytes::Shared(shared) if std::str::from_utf8(shared).is_ok() => {
                FileContents::SharedText(Arc::clone(shared))
            }
            Bytes::Shared(_) => FileContents::Bytes(bytes.clone()),
        }
    }
}

impl IntoResourceContents for FileContents {
    fn into_read_outcome(self) -> ReadOutcome {
        match self {
            FileContents::StaticText(text) => ReadOutcome::Text(text.to_owned()),
            FileContents::SharedText(bytes) => {
                ReadOutcome::Text(String::from_utf8_lossy(&bytes).into_owned())
            }
            FileContents::Bytes(bytes) => ReadOutcome::Blob(bytes.as_slice().to_vec()),
        }
    }
}

/// The skills a server offers at one moment, and the directories their files make.
#[derive(Default)]
pub(crate) struct SkillCatalog {
    /// Sorted by URI.
    skills: Vec<Arc<CatalogSkill>>,
    /// Each directory's URI (no trailing `/`) and its direct children, by URI.
    directories: BTreeMap<String, BTreeMap<String, Value>>,
}

impl FromEntries<CatalogSkill> for SkillCatalog {
    fn from_entries(skills: Vec<Arc<CatalogSkill>>) -> Self {
        let mut directories: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        for skill in &skills {
            for file in &skill.files {
                let path = &file.uri[SCHEME.len()..];
                let segments: Vec<&str> = path.split('/').collect();
                for depth in 1..segments.len() {
                    let directory = format!("{SCHEME}{}", segments[..depth].join("/"));
                    let children = directories.entry(directory).or_default();
                    if depth + 1 == segments.len() {
                        children.insert(file.uri.clone(), skill.child_json(file));
                    } else {
                        let child = format!("{SCHEME}{}", segments[..=depth].join("/"));
                        children.entry(child.clone()).or_insert_with(|| {
                            json!({
                                "uri": child,
                                "name": segments[depth],
                                "mimeType": DIRECTORY_MIME_TYPE,
                            })
                        });
                    }
                }
            }
        }
        SkillCatalog {
            skills,
            directories,
        }
    }
}

impl SkillCatalog {
    /// The skills, sorted by URI.
    pub fn skills(&self) -> &[Arc<CatalogSkill>] {
        &self.skills
    }

    /// The skill whose `SKILL.md` is at `uri`.
    pub fn find(&self, uri: &str) -> Option<&Arc<CatalogSkill>> {
        self.skills
            .binary_search_by(|skill| skill.uri.as_str().cmp(uri))
            .ok()
            .map(|index| &self.skills[index])
    }

    /// The direct children of the directory at `uri`, by URI; `None` if it is none.
    pub fn directory(&self, uri: &str) -> Option<&BTreeMap<String, Value>> {
        self.directories.get(uri)
    }
}

/// `sha256:` and the hex SHA-256 of `bytes`.
pub(crate) fn sha256(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut text = String::with_capacity(71);
    text.push_str("sha256:");
    for byte in hash {
        use std::fmt::Write as _;
        let _ = write!(text, "{byte:02x}");
    }
    text
}

/// A skill path: `/`-separated segments, each a valid URI path segment (the first is the
/// URI's authority), the last the skill's name.
fn check_path(path: &str) -> Result<(), String> {
    let valid = path.split('/').all(|segment| {
        !segment.is_empty()
            && segment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
    });
    if !valid {
        return Err(format!(
            "`{path}` is not a skill path: `/`-separated segments of letters, digits, `-`, `.`, \
             `_` and `~`, the last one the skill's name"
        ));
    }
    frontmatter::check_name(path.rsplit('/').next().unwrap_or(path))
}

/// A file's path within its skill: relative, `/`-separated, each segment a URI path segment
/// as it is (letters, digits and `-._~!$&'()*+,;=@`), none empty, `.` or `..`.
pub(crate) fn check_relative(relative: &str) -> Result<(), String> {
    let valid = relative.split('/').all(|segment| {
        !segment.is_empty()
            && segment != "."
            && segment != ".."
            && segment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=@".contains(c))
    });
    if valid {
        Ok(())
    } else {
        Err(format!(
            "`{relative}` is not a file path within a skill: relative, `/`-separated, each \
             segment of letters, digits and `-._~!$&'()*+,;=@` (no spaces), none `.` or `..`"
        ))
    }
}

/// The MIME type of a skill file, by its extension; else `text/plain` for UTF-8 and
/// `application/octet-stream` for other bytes.
pub(crate) fn mime_type(relative: &str, bytes: &[u8]) -> &'static str {
    let extension = relative
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase());
    match extension.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("txt") => "text/plain",
        Some("py") => "text/x-python",
        Some("sh") => "text/x-shellscript",
        Some("js" | "mjs") => "text/javascript",
        Some("ts") => "text/x-typescript",
        Some("html" | "htm") => "text/html",
        Some("css") => "text/css",
        Some("csv") => "text/csv",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        Some("toml") => "application/toml",
        Some("xml") => "application/xml",
        Some("pdf") => "application/pdf",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("svg") => "image/svg+xml",
        _ if std::str::from_utf8(bytes).is_ok() => "text/plain",
        _ => "application/octet-stream",
    }
}

/// The entry of a skill as `skills/get` and `skills/list` send it, with the `Map` of a result.
pub(crate) fn skill_result(skill: &CatalogSkill) -> Map<String, Value> {
    let mut result = Map::new();
    result.insert("skill".into(), skill.entry.clone());
    result
}
