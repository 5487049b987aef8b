//! [`SkillSet`]: the server's skills while it runs — disable and enable them, add skills that
//! were not known at compile time ([`DynamicSkill`]), remove them again. Each skill's files
//! are served as resources of the server's [`ResourceSet`](crate::ResourceSet), changed
//! with the skill, so clients hear of a change as of any resources'.

use std::fmt;
use std::sync::Arc;

use crate::changes::Notifier;
use crate::error::Error;
use crate::registry::{Refusal, Registry};
use crate::resource::set::ResourceSet;
use crate::skill::catalog::{Bytes, CatalogSkill, SkillCatalog};
use crate::skill::descriptor::{SkillDescriptor, registered_skills};
use crate::skill::dynamic::DynamicSkill;

/// A handle on a server's skills while it runs: disable and enable them by the URI of their
/// `SKILL.md`, add and remove [`DynamicSkill`]s. Every connection sees a change at once.
///
/// The extension names no notification of its own: a skill's files are resources, so a
/// change is a `notifications/resources/list_changed` (under 2026-07-28, on
/// `subscriptions/listen` streams that asked for `resourcesListChanged`), after which a
/// client lists skills again.
///
/// Get it from [`Server::skill_set`](crate::Server::skill_set) before serving; it is cheap to
/// clone and can be used from any thread or task, including from inside a tool.
///
/// ```
/// use mcp_runtime::{DynamicSkill, Server};
///
/// let server = Server::new("docs", "1.0.0");
/// let skills = server.skill_set();
/// let uri = skills
///     .add(DynamicSkill::new(
///         "release-notes",
///         "---\nname: release-notes\ndescription: Write release notes.\n---\n# Steps\n",
///     ))
///     .expect("a valid skill");
/// assert_eq!(uri, "skill://release-notes/SKILL.md");
/// assert!(skills.disable(&uri));
/// assert!(!skills.is_enabled(&uri));
/// assert!(skills.remove(&uri));
/// ```
#[derive(Clone)]
pub struct SkillSet {
    registry: Arc<Registry<CatalogSkill, SkillCatalog>>,
    resources: ResourceSet,
}

impl fmt::Debug for SkillSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkillSet")
            .field("skills", &self.registry.catalog().skills().len())
            .finish_non_exhaustive()
    }
}

/// The skills' own registry tells nobody: their files' resources do.
fn no_notification(_: &Notifier) {}

impl SkillSet {
    pub(crate) fn new(notifier: Notifier, resources: ResourceSet) -> Self {
        SkillSet {
            registry: Arc::new(Registry::new(notifier, no_notification)),
            resources,
        }
    }

    /// Marks the set as changeable: the extension (and the `resources` capability, which it
    /// needs) are declared even while there is no skill yet, with `listChanged: true`.
    pub(crate) fn announce_changes(&self) {
        self.registry.announce_changes();
        self.resources.announce_changes();
    }

    /// Loads the `skill!`s linked in (once), refusing two of one name, and adds their files
    /// to the resources; the server's start, after the resources' own.
    pub(crate) fn prepare(&self) -> Result<(), Error> {
        self.registry.prepare(
            || {
                let skills = static_skills(registered_skills())?;
                let files = skills.iter().flat_map(|skill| skill.resources()).collect();
                self.resources
                    .add_all(files)
                    .map_err(|error| Error::InvalidSkill {
                        uri: skills
                            .iter()
                            .find(|skill| {
                                matches!(&error, Error::InvalidResource { uri, .. }
                                    if skill.files.iter().any(|file| &file.uri == uri))
                            })
                            .map_or_else(String::new, |skill| skill.uri.clone()),
                        problem: error.to_string(),
                    })?;
                Ok(skills)
            },
            |taken| Error::InvalidSkill {
                uri: taken.uri.clone(),
                problem: "a skill! of the same URI is linked into the binary".into(),
            },
        )
    }

    /// The skills requests see now.
    pub(crate) fn catalog(&self) -> Arc<SkillCatalog> {
        self.registry.catalog()
    }

    /// Whether the server has skills (enabled or not) or may have: whether the extension is
    /// declared.
    pub(crate) fn offers_any(&self) -> bool {
        self.registry.offers_any()
    }

    /// Adds a skill defined at run time, and serves its files; its URI
    /// (`skill://<path>/SKILL.md`). Refused, with nothing changed, if it is not a valid
    /// skill (no `SKILL.md`, frontmatter without a valid `name` matching the path's last
    /// segment or without a `description`, a file path that is no URI path), or another
    /// skill or resource has its URI or one of its files'.
    pub fn add(&self, skill: DynamicSkill) -> Result<String, Error> {
        let uri = skill.uri();
        let files = skill
            .files
            .into_iter()
            .map(|(relative, bytes)| (relative, Bytes::Shared(bytes), None))
            .collect();
        let entry =
            CatalogSkill::new(&skill.path, files, None).map_err(|problem| Error::InvalidSkill {
                uri: uri.clone(),
                problem,
            })?;
        let file_uris = entry.file_uris();
        if self.registry.get(&uri).is_some() {
            return Err(Error::InvalidSkill {
                uri,
                problem: "another skill has this URI".into(),
            });
        }
        self.resources
            .add_all(entry.resources())
            .map_err(|error| Error::InvalidSkill {
                uri: uri.clone(),
                problem: error.to_string(),
            })?;
        if let Err(Refusal::Taken) = self.registry.add(entry) {
            self.resources.remove_all(&file_uris);
            return Err(Error::InvalidSkill {
                uri,
                problem: "another skill has this URI".into(),
            });
        }
        if !self.registry.is_enabled(&uri) {
            // Disabled before it was added: its files are not served either.
            self.resources.set_all_enabled(&file_uris, false);
        }
        Ok(uri)
    }

    /// Removes a skill added at run time, and its files; `false` if none has this URI (a
    /// `skill!` is disabled instead).
    pub fn remove(&self, uri: &str) -> bool {
        let Some(skill) = self.registry.get(uri) else {
            return false;
        };
        if !self.registry.remove(uri) {
            return false;
        }
        self.resources.remove_all(&skill.file_uris());
        true
    }

    /// Stops listing and serving the skill whose `SKILL.md` is at `uri`, and its files.
    /// `true` if it was listed.
    pub fn disable(&self, uri: &str) -> bool {
        self.set_enabled(uri, false)
    }

    /// Lists and serves the skill again. `true` if it was disabled.
    pub fn enable(&self, uri: &str) -> bool {
        self.set_enabled(uri, true)
    }

    fn set_enabled(&self, uri: &str, enabled: bool) -> bool {
        let changed = self.registry.set_enabled(uri, enabled);
        if let Some(skill) = self.registry.get(uri) {
            self.resources.set_all_enabled(&skill.file_uris(), enabled);
        }
        changed
    }

    /// Whether the skill whose `SKILL.md` is at `uri` is listed and served now.
    pub fn is_enabled(&self, uri: &str) -> bool {
        self.registry.is_enabled(uri)
    }
}

/// The skills of every `skill!` linked in, checked, refusing two of one name (naming both).
fn static_skills(
    descriptors: impl IntoIterator<Item = &'static SkillDescriptor>,
) -> Result<Vec<Arc<CatalogSkill>>, Error> {
    let mut skills = Vec::new();
    for descriptor in descriptors {
        let files = descriptor
            .files
            .iter()
            .map(|file| {
                (
                    file.path.to_owned(),
                    Bytes::Static(file.bytes),
                    Some(file.digest),
                )
            })
            .collect();
        let skill = CatalogSkill::new(descriptor.path, files, Some(descriptor.location)).map_err(
            |problem| Error::InvalidSkill {
                uri: format!("skill://{}/SKILL.md", descriptor.path),
                problem: format!("{problem} (embedded at {})", descriptor.location),
            },
        )?;
        skills.push(Arc::new(skill));
    }
    skills.sort_by(|a, b| {
        (&a.name, a.location.map(|l| (l.file, l.line)))
            .cmp(&(&b.name, b.location.map(|l| (l.file, l.line))))
    });
    if let Some(pair) = skills.windows(2).find(|pair| pair[0].name == pair[1].name)
        && let (Some(first), Some(second)) = (pair[0].location, pair[1].location)
    {
        return Err(Error::DuplicateSkill {
            name: pair[0].name.clone(),
            first,
            second,
        });
    }
    Ok(skills)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::extract::States;

    fn set() -> (SkillSet, ResourceSet) {
        let notifier = Notifier::new();
        let resources = ResourceSet::new(notifier.clone());
        resources.prepare(&States::default()).unwrap();
        let skills = SkillSet::new(notifier, resources.clone());
        skills.prepare().unwrap();
        (skills, resources)
    }

    fn skill(path: &str, name: &str) -> DynamicSkill {
        DynamicSkill::new(
            path,
            format!("---\nname: {name}\ndescription: Does {name}.\n---\n# {name}\n"),
        )
        .file("templates/a.md", "A")
    }

    fn resource_uris(resources: &ResourceSet) -> Vec<String> {
        let catalog = resources.catalog();
        catalog
            .resources()
            .iter()
            .map(|r| r.uri().to_owned())
            .collect()
    }

    #[test]
    fn a_skill_and_its_files_come_and_go_together() {
        let (skills, resources) = set();
        let uri = skills.add(skill("acme/refunds", "refunds")).unwrap();
        assert_eq!(uri, "skill://acme/refunds/SKILL.md");
        assert_eq!(
            resource_uris(&resources),
            [
                "skill://acme/refunds/SKILL.md",
                "skill://acme/refunds/templates/a.md"
            ]
        );
        let catalog = skills.catalog();
        let children = catalog.directory("skill://acme/refunds").unwrap();
        assert_eq!(children.len(), 2);
        assert_eq!(
            children["skill://acme/refunds/templates"]["mimeType"],
            "inode/directory"
        );
        assert!(catalog.directory("skill://acme").is_some());
        assert!(catalog.directory("skill://acme/refunds/SKILL.md").is_none());
        assert!(skills.disable(&uri));
        assert!(resource_uris(&resources).is_empty());
        assert!(skills.catalog().skills().is_empty());
        assert!(skills.enable(&uri));
        assert_eq!(resource_uris(&resources).len(), 2);
        assert!(skills.remove(&uri));
        assert!(!skills.remove(&uri));
        assert!(resource_uris(&resources).is_empty());
    }

    #[test]
    fn invalid_or_clashing_skills_are_refused_with_nothing_changed() {
        let (skills, resources) = set();
        skills.add(skill("refunds", "refunds")).unwrap();
        for (refused, expected) in [
            (skill("refunds", "refunds"), "another skill has this URI"),
            (skill("other", "refunds"), "path ends in `other`"),
            (skill("Bad", "bad"), "naming rules"),
            (skill("a//b", "b"), "not a skill path"),
            (
                DynamicSkill::new("x", "---\nname: x\n---\n"),
                "`description`",
            ),
            (skill("x", "x").file("../escape", "no"), "not a file path"),
        ] {
            let Err(Error::InvalidSkill { problem, .. }) = skills.add(refused) else {
                panic!("refused: {expected}");
            };
            assert!(problem.contains(expected), "{problem}");
        }
        assert_eq!(skills.catalog().skills().len(), 1);
        assert_eq!(resource_uris(&resources).len(), 2);
    }
}
