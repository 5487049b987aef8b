//! [`DynamicSkill`]: a skill defined at run time — read from a folder chosen at start-up,
//! fetched, generated — rather than embedded by `skill!`, and added through a
//! [`SkillSet`](crate::SkillSet).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A skill added at run time: its path and its files' bytes, held in memory. The runtime
/// computes each file's SHA-256 digest when the skill is added.
///
/// ```
/// use mcp_runtime::DynamicSkill;
///
/// let skill = DynamicSkill::new(
///     "acme/billing/refunds", // served at skill://acme/billing/refunds/SKILL.md
///     "---\nname: refunds\ndescription: Process refund requests.\n---\n# Refunds\n",
/// )
/// .file("examples/email.md", "Dear customer, ...");
/// assert_eq!(skill.uri(), "skill://acme/billing/refunds/SKILL.md");
/// ```
#[derive(Clone)]
pub struct DynamicSkill {
    pub(crate) path: String,
    pub(crate) files: BTreeMap<String, Arc<[u8]>>,
}

impl fmt::Debug for DynamicSkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicSkill")
            .field("path", &self.path)
            .field("files", &self.files.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl DynamicSkill {
    /// A skill at `path` (`pdf-forms`, or `acme/billing/refunds` under a prefix: its last
    /// segment is the skill's name, as its frontmatter must say), with this `SKILL.md`.
    pub fn new(path: impl Into<String>, skill_md: impl Into<Vec<u8>>) -> Self {
        let mut files = BTreeMap::new();
        files.insert("SKILL.md".to_owned(), Arc::from(skill_md.into()));
        DynamicSkill {
            path: path.into(),
            files,
        }
    }

    /// Adds (or replaces) a file, at `path` relative to the skill's root
    /// (`templates/invoice.md`).
    pub fn file(mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        self.files.insert(path.into(), Arc::from(bytes.into()));
        self
    }

    /// Every file of `folder` and its subfolders (hidden ones, whose names start with `.`,
    /// left out), as a skill named after the folder, under `prefix` if given
    /// (`acme/billing`).
    pub fn from_folder(folder: impl AsRef<Path>, prefix: Option<&str>) -> std::io::Result<Self> {
        let folder = folder.as_ref();
        let name = folder
            .canonicalize()?
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let path = match prefix {
            Some(prefix) => format!("{prefix}/{name}"),
            None => name,
        };
        let mut skill = DynamicSkill {
            path,
            files: BTreeMap::new(),
        };
        read_folder(folder, "", &mut skill.files)?;
        Ok(skill)
    }

    /// The URI the skill is served at: `skill://<path>/SKILL.md`.
    pub fn uri(&self) -> String {
        format!("skill://{}/SKILL.md", self.path)
    }
}

fn read_folder(
    folder: &Path,
    prefix: &str,
    files: &mut BTreeMap<String, Arc<[u8]>>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let relative = format!("{prefix}{name}");
        if entry.file_type()?.is_dir() {
            read_folder(&entry.path(), &format!("{relative}/"), files)?;
        } else {
            files.insert(relative, Arc::from(std::fs::read(entry.path())?));
        }
    }
    Ok(())
}
