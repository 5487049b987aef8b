//! `skill URI`: a skill's entry, then each of its files read and checked against the digest
//! and size the entry gives, as a host checks them before use.

use std::io::Write as _;

use super::output::{FAILURE, pretty, say};
use crate::client::{ClientCore, ResponseError, SkillResources};

/// Prints the entry of the skill at `uri` and verifies its files; the exit status.
pub(super) async fn print_skill(client: &ClientCore, uri: &str) -> Result<i32, ResponseError> {
    let skill = match client.get_skill(uri).await {
        Ok(skill) => skill,
        Err(error) if error.code == ResponseError::METHOD_NOT_FOUND => {
            eprintln!("error: this server offers no skills");
            return Ok(FAILURE);
        }
        Err(error) => return Err(error),
    };
    say!("{} — {}", skill.name(), skill.description().trim_end());
    say!("frontmatter:\n{}", pretty(&skill.frontmatter));
    let files = match &skill.resources {
        SkillResources::Files(files) => files,
        SkillResources::Dynamic(_) => {
            say!("files: dynamic (the server publishes no digests)");
            return Ok(0);
        }
    };
    say!("files:");
    let mut failed = false;
    for file in files {
        match client.read_skill_file(file).await {
            Ok(_) => say!(
                "  ok        {} ({} bytes, {})",
                file.uri,
                file.size,
                file.digest
            ),
            Err(error) => {
                failed = true;
                say!("  MISMATCH  {}: {}", file.uri, error.message);
            }
        }
    }
    Ok(if failed { FAILURE } else { 0 })
}
