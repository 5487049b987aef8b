//! [`TestClient`]'s skill methods (the `io.modelcontextprotocol/skills` extension): list,
//! get, read a directory, and read a file verified against its skill's entry.

use super::{Resource, ResponseError, Skill, SkillResource, TestClient};

/// Skills: the extension's methods exist from protocol revision 2026-07-28 (connect with
/// `.revision(ProtocolVersion::V2026_07_28)`); under an earlier revision a skill's files are
/// still plain resources, and these methods answer `Err` with
/// [`ResponseError::METHOD_NOT_FOUND`].
///
/// ```
/// use mcp_runtime::testing::TestClient;
/// use mcp_runtime::{DynamicSkill, ProtocolVersion, Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = Server::new("docs", "1.0.0").allow_no_tools();
/// server
///     .skill_set()
///     .add(DynamicSkill::new(
///         "release-notes",
///         "---\nname: release-notes\ndescription: Write release notes.\n---\n# Steps\n",
///     ))
///     .unwrap();
/// let client = TestClient::builder()
///     .revision(ProtocolVersion::V2026_07_28)
///     .connect(server)
///     .await
///     .unwrap();
/// let skills = client.list_skills().await.unwrap();
/// assert_eq!(skills[0].name(), "release-notes");
/// let skill_md = client.read_skill_file(&skills[0].files()[0]).await.unwrap();
/// assert!(skill_md.starts_with(b"---\nname: release-notes"));
/// # }
/// ```
impl TestClient {
    /// Every skill, following `nextCursor` through all pages (`skills/list`).
    pub async fn list_skills(&self) -> Result<Vec<Skill>, ResponseError> {
        self.core.list_skills().await
    }

    /// The entry of the skill whose `SKILL.md` is at `uri` (`skills/get`); a URI no skill
    /// has is `Err` with [`ResponseError::INVALID_PARAMS`].
    pub async fn get_skill(&self, uri: &str) -> Result<Skill, ResponseError> {
        self.core.get_skill(uri).await
    }

    /// Every direct child of the directory at `uri` (`resources/directory/read`, every
    /// page): files, and folders with `mimeType` `inode/directory`.
    pub async fn read_directory(&self, uri: &str) -> Result<Vec<Resource>, ResponseError> {
        self.core.read_directory(uri).await
    }

    /// Reads a skill's file and checks it against the entry's size and SHA-256 digest, as a
    /// host must; its bytes, or `Err` with [`ResponseError::VERIFICATION_FAILED`] on a
    /// mismatch.
    pub async fn read_skill_file(&self, file: &SkillResource) -> Result<Vec<u8>, ResponseError> {
        self.core.read_skill_file(file).await
    }
}
