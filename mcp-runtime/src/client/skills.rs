//! Skills from the client's side (the `io.modelcontextprotocol/skills` extension, 2026-07-28):
//! every page of `skills/list`, `skills/get`, `resources/directory/read`, and a skill file
//! read and verified against its entry's digest and size, as a host must before using it.

use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::ResponseError;
use super::core::ClientCore;
use super::primitives::{Resource, entries, typed};

/// A skill as `skills/list` and `skills/get` describe it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct Skill {
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// Its `SKILL.md` frontmatter as JSON (`name`, `description`, and all the author wrote).
    pub frontmatter: Value,
    /// Its files, or `"dynamic"` (no digests published).
    pub resources: SkillResources,
}

impl Skill {
    /// The frontmatter's `name`.
    pub fn name(&self) -> &str {
        self.frontmatter["name"].as_str().unwrap_or_default()
    }

    /// The frontmatter's `description`.
    pub fn description(&self) -> &str {
        self.frontmatter["description"].as_str().unwrap_or_default()
    }

    /// Its files (none when `"dynamic"`).
    pub fn files(&self) -> &[SkillResource] {
        match &self.resources {
            SkillResources::Files(files) => files,
            SkillResources::Dynamic(_) => &[],
        }
    }
}

/// A skill's `resources`: every file with its digest, or `"dynamic"`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum SkillResources {
    /// Every file of the skill, `SKILL.md` among them.
    Files(Vec<SkillResource>),
    /// `"dynamic"`: generated content, no digests.
    Dynamic(String),
}

/// One file of a skill: where it is, and the digest and size its content must have.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct SkillResource {
    /// Its resource URI.
    pub uri: String,
    /// `sha256:` and 64 lowercase hex digits.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

impl ClientCore {
    /// Every skill, following `nextCursor` through all pages.
    pub async fn list_skills(&self) -> Result<Vec<Skill>, ResponseError> {
        let result = self.list_all("skills/list", "skills").await?;
        entries(&result["skills"], |_: &mut Skill, _| {})
    }

    /// `skills/get`.
    pub async fn get_skill(&self, uri: &str) -> Result<Skill, ResponseError> {
        let result = self.request("skills/get", json!({ "uri": uri })).await?;
        typed(result["skill"].clone())
    }

    /// Every direct child of a directory resource, following `nextCursor`.
    pub async fn read_directory(&self, uri: &str) -> Result<Vec<Resource>, ResponseError> {
        let mut children = Vec::new();
        let mut params = json!({ "uri": uri });
        loop {
            let page = self
                .request("resources/directory/read", params.clone())
                .await?;
            children.extend(entries(&page["resources"], |entry: &mut Resource, raw| {
                entry.raw = raw;
            })?);
            match page.get("nextCursor") {
                Some(Value::String(next)) => params["cursor"] = next.clone().into(),
                _ => return Ok(children),
            }
        }
    }

    /// Reads a skill file and checks its bytes against `file`'s size and digest; its bytes.
    /// A mismatch is `Err` with [`ResponseError::VERIFICATION_FAILED`] and says which.
    pub async fn read_skill_file(&self, file: &SkillResource) -> Result<Vec<u8>, ResponseError> {
        let read = self.read_resource(&file.uri).await?;
        let content = read
            .contents
            .first()
            .ok_or_else(|| unverified(format!("{} was read with no contents", file.uri)))?;
        let bytes = content
            .bytes()
            .or_else(|| content.text().map(|text| text.as_bytes().to_vec()))
            .ok_or_else(|| {
                unverified(format!("{} was read with neither text nor blob", file.uri))
            })?;
        if bytes.len() as u64 != file.size {
            return Err(unverified(format!(
                "{} is {} bytes, but its skill entry says {}",
                file.uri,
                bytes.len(),
                file.size
            )));
        }
        let digest = sha256(&bytes);
        if digest != file.digest {
            return Err(unverified(format!(
                "{} hashes to {digest}, but its skill entry says {}",
                file.uri, file.digest
            )));
        }
        Ok(bytes)
    }
}

fn unverified(message: String) -> ResponseError {
    ResponseError::new(ResponseError::VERIFICATION_FAILED, message)
}

/// `sha256:` and the hex SHA-256 of `bytes`.
fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::from("sha256:"), |mut text, byte| {
            use std::fmt::Write as _;
            let _ = write!(text, "{byte:02x}");
            text
        })
}
