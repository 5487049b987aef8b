//! `skill!("folder")`: reading an Agent Skills folder at compile time and checking what the
//! Skills extension (SEP-2640) and the Agent Skills specification require of it.
//!
//! A leaf beside `attr`: it reads files and text, builds no tokens (`expand::skill` does) and
//! uses no other module of the crate. The runtime parses the frontmatter in full at start-up
//! (to send it as JSON); the checks here are those that can fail the build: a folder with a
//! `SKILL.md` that starts with a frontmatter block, a valid `name` equal to the folder's
//! name, a `description`, and no `metadata` key under the prefix MCP reserves.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The most files one skill may have, and their most bytes together (the extension's limits:
/// a host need not load a skill past them).
pub const MAX_FILES: usize = 512;
pub const MAX_TOTAL_SIZE: u64 = 16 * 1024 * 1024;
/// `metadata` keys under this prefix are reserved for MCP extensions, which define none yet.
const RESERVED_METADATA_PREFIX: &str = "io.modelcontextprotocol/";

/// One file of a skill, read at compile time.
pub struct SkillFile {
    /// Relative to the skill's folder, `/`-separated (`SKILL.md`, `templates/invoice.md`).
    pub relative: String,
    /// Where `include_bytes!` finds it.
    pub absolute: PathBuf,
    /// `sha256:` and 64 lowercase hex digits.
    pub digest: String,
    pub size: u64,
}

/// A skill folder that passed the checks.
pub struct SkillFolder {
    /// The frontmatter's `name`: the folder's name, and the last segment of the skill path.
    pub name: String,
    /// Its files, sorted by relative path, `SKILL.md` among them.
    pub files: Vec<SkillFile>,
}

/// Reads and checks the skill folder `relative` (to `manifest_dir`). The error is a sentence
/// for the user, spanned on their string by the caller.
pub fn read_folder(manifest_dir: &Path, relative: &str) -> Result<SkillFolder, String> {
    let folder = manifest_dir.join(relative);
    if !folder.is_dir() {
        return Err(format!(
            "no skill folder at `{relative}`: the path is relative to the crate's directory \
             (CARGO_MANIFEST_DIR, where its Cargo.toml is)"
        ));
    }
    let folder_name = folder
        .canonicalize()
        .ok()
        .and_then(|path| {
            path.file_name()
                .map(|name| name.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    let skill_md = folder.join("SKILL.md");
    if !skill_md.is_file() {
        return Err(format!(
            "the skill folder `{relative}` has no `SKILL.md`: every skill needs one at its \
             root, starting with YAML frontmatter that gives its `name` and `description`"
        ));
    }
    let text = fs::read_to_string(&skill_md)
        .map_err(|error| format!("cannot read `{relative}/SKILL.md`: {error}"))?;
    let name =
        check_frontmatter(&text).map_err(|problem| format!("`{relative}/SKILL.md`: {problem}"))?;
    if name != folder_name {
        return Err(format!(
            "the skill is named `{name}` in its SKILL.md, but its folder is `{folder_name}`: \
             the Agent Skills specification requires the name to match the folder's name"
        ));
    }
    let mut files = Vec::new();
    collect(&folder, "", &mut files)?;
    files.sort_by(|a, b| a.relative.cmp(&b.relative));
    if files.len() > MAX_FILES {
        return Err(format!(
            "the skill has {} files; the Skills extension lets a host refuse a skill of more \
             than {MAX_FILES}",
            files.len()
        ));
    }
    let total: u64 = files.iter().map(|file| file.size).sum();
    if total > MAX_TOTAL_SIZE {
        return Err(format!(
            "the skill's files take {total} bytes; the Skills extension lets a host refuse a \
             skill of more than {MAX_TOTAL_SIZE} (16 MiB)"
        ));
    }
    Ok(SkillFolder { name, files })
}

/// Every file under `folder` (hidden ones, `.DS_Store` and the like, left out).
fn collect(folder: &Path, prefix: &str, files: &mut Vec<SkillFile>) -> Result<(), String> {
    let entries = fs::read_dir(folder)
        .map_err(|error| format!("cannot read the folder `{}`: {error}", folder.display()))?;
    for entry in entries {
        let entry =
            entry.map_err(|error| format!("cannot read `{}`: {error}", folder.display()))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Err(format!(
                "`{}` is not named in UTF-8, so it has no resource URI",
                entry.path().display()
            ));
        };
        if name.starts_with('.') {
            continue;
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=@".contains(c))
        {
            return Err(format!(
                "`{prefix}{name}` cannot be served: a skill file's URI takes its path as it is, \
                 so each name must be letters, digits and `-._~!$&'()*+,;=@` (no spaces)"
            ));
        }
        let relative = format!("{prefix}{name}");
        let path = entry.path();
        if path.is_dir() {
            collect(&path, &format!("{relative}/"), files)?;
        } else {
            let bytes = fs::read(&path)
                .map_err(|error| format!("cannot read `{}`: {error}", path.display()))?;
            let absolute = path.canonicalize().unwrap_or(path);
            files.push(SkillFile {
                relative,
                absolute,
                digest: digest(&bytes),
                size: bytes.len() as u64,
            });
        }
    }
    Ok(())
}

/// `sha256:` and the hex SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut text = String::with_capacity(71);
    text.push_str("sha256:");
    for byte in hash {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

/// Checks the frontmatter of a `SKILL.md`; its `name`.
pub fn check_frontmatter(text: &str) -> Result<String, String> {
    let block = frontmatter_block(text).ok_or_else(|| {
        "SKILL.md must begin with YAML frontmatter: a `---` line, `name: ...` and \
         `description: ...`, and a closing `---` line"
            .to_owned()
    })?;
    let lines: Vec<&str> = block.lines().collect();
    let name = top_level(&lines, "name")
        .ok_or("the SKILL.md frontmatter has no `name`")?
        .scalar();
    check_name(&name)?;
    let description = top_level(&lines, "description")
        .ok_or("the SKILL.md frontmatter has no `description`: the Agent Skills specification requires one")?;
    if description.is_empty() {
        return Err("the SKILL.md frontmatter's `description` is empty".into());
    }
    if let Some(metadata) = top_level(&lines, "metadata") {
        for line in metadata.nested {
            let key = line.trim_start();
            let key = key.trim_start_matches(['"', '\'']);
            if key.starts_with(RESERVED_METADATA_PREFIX) {
                return Err(format!(
                    "`metadata` keys under `{RESERVED_METADATA_PREFIX}` are reserved for MCP \
                     extensions, which define none yet: `{}`",
                    key.split(':')
                        .next()
                        .unwrap_or(key)
                        .trim_end_matches(['"', '\''])
                ));
            }
        }
    }
    Ok(name)
}

/// The Agent Skills naming rules: 1 to 64 characters, lowercase letters, digits and hyphens,
/// no hyphen first, last or twice in a row.
pub fn check_name(name: &str) -> Result<(), String> {
    let valid = (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if valid {
        Ok(())
    } else {
        Err(format!(
            "the skill name `{name}` breaks the Agent Skills naming rules: 1 to 64 lowercase \
             letters, digits and hyphens, with no hyphen first, last or twice in a row"
        ))
    }
}

/// The text between the opening `---` line and the closing one.
fn frontmatter_block(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(&rest[..offset]);
        }
        offset += line.len();
    }
    None
}

/// A top-level key's value: the text after its colon, and the indented lines below it.
struct TopLevel<'a> {
    inline: &'a str,
    nested: Vec<&'a str>,
}

impl TopLevel<'_> {
    /// The inline value as a plain or quoted scalar (without a trailing comment).
    fn scalar(&self) -> String {
        let value = self.inline.trim();
        for quote in ['"', '\''] {
            if let Some(inner) = value
                .strip_prefix(quote)
                .and_then(|rest| rest.rsplit_once(quote))
            {
                return inner.0.to_owned();
            }
        }
        match value.split_once(" #") {
            Some((value, _comment)) => value.trim_end().to_owned(),
            None => value.to_owned(),
        }
    }

    /// Whether the value is missing: nothing inline (or `~`, `null`, `""`) and nothing below.
    fn is_empty(&self) -> bool {
        let inline = self.scalar();
        let block_indicator = inline.starts_with('|') || inline.starts_with('>');
        let nested = self.nested.iter().any(|line| !line.trim().is_empty());
        if block_indicator {
            return !nested;
        }
        (inline.is_empty() || inline == "~" || inline == "null") && !nested
            || self.inline.trim() == "\"\""
            || self.inline.trim() == "''"
    }
}

/// The top-level `key` of the frontmatter block's lines.
fn top_level<'a>(lines: &[&'a str], key: &str) -> Option<TopLevel<'a>> {
    let (index, inline) =
        lines
            .iter()
            .enumerate()
            .find_map(|(index, line)| match key_of(line) {
                Some((found, inline)) if found == key => Some((index, inline)),
                _ => None,
            })?;
    let nested = lines[index + 1..]
        .iter()
        .take_while(|line| line.trim().is_empty() || line.starts_with([' ', '\t']))
        .copied()
        .collect();
    Some(TopLevel { inline, nested })
}

/// A top-level line's key (plain or quoted) and the text after its colon.
fn key_of(line: &str) -> Option<(&str, &str)> {
    for quote in ['"', '\''] {
        if let Some(rest) = line.strip_prefix(quote) {
            let (key, after) = rest.split_once(quote)?;
            return Some((key, after.trim_start().strip_prefix(':')?));
        }
    }
    if line.starts_with([' ', '\t', '#', '-']) {
        return None;
    }
    let (key, inline) = line.split_once(':')?;
    Some((key.trim_end(), inline))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_agent_skills_rules() {
        for good in ["pdf-forms", "a", "x9", &"a".repeat(64)] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in ["", "-a", "a-", "a--b", "PDF", "pdf_forms", &"a".repeat(65)] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn frontmatter_gives_its_name_and_needs_a_description() {
        let ok = "---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\n# Body\n";
        assert_eq!(check_frontmatter(ok).unwrap(), "pdf-forms");
        let quoted = "---\n\"name\": 'pdf-forms'\ndescription: >\n  Folded\n  text.\n---\n";
        assert_eq!(check_frontmatter(quoted).unwrap(), "pdf-forms");
        let cases = [
            ("# no frontmatter\n", "must begin with YAML frontmatter"),
            (
                "---\nname: a\ndescription: b\n",
                "must begin with YAML frontmatter",
            ),
            ("---\ndescription: b\n---\n", "has no `name`"),
            ("---\nname: a\n---\n", "has no `description`"),
            (
                "---\nname: a\ndescription:\n---\n",
                "`description` is empty",
            ),
            (
                "---\nname: a\ndescription: |\n---\n",
                "`description` is empty",
            ),
            ("---\nname: Bad_Name\ndescription: b\n---\n", "naming rules"),
            (
                "---\nname: a\ndescription: b\nmetadata:\n  io.modelcontextprotocol/x: y\n---\n",
                "reserved",
            ),
        ];
        for (text, expected) in cases {
            let error = check_frontmatter(text).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn a_folder_needs_a_skill_md_naming_it() {
        let base = std::env::temp_dir().join(format!("mcp-skill-macro-{}", std::process::id()));
        let folder = base.join("pdf-forms");
        fs::create_dir_all(folder.join("templates")).unwrap();
        let missing = read_folder(&base, "pdf-forms").err().unwrap();
        assert!(missing.contains("has no `SKILL.md`"), "{missing}");
        fs::write(
            folder.join("SKILL.md"),
            "---\nname: other\ndescription: d\n---\n",
        )
        .unwrap();
        let mismatch = read_folder(&base, "pdf-forms").err().unwrap();
        assert!(
            mismatch.contains("but its folder is `pdf-forms`"),
            "{mismatch}"
        );
        fs::write(
            folder.join("SKILL.md"),
            "---\nname: pdf-forms\ndescription: d\n---\n",
        )
        .unwrap();
        fs::write(folder.join("templates/a.md"), "A").unwrap();
        fs::write(folder.join(".hidden"), "left out").unwrap();
        let skill = read_folder(&base, "pdf-forms").unwrap();
        let files: Vec<&str> = skill
            .files
            .iter()
            .map(|file| file.relative.as_str())
            .collect();
        assert_eq!(files, ["SKILL.md", "templates/a.md"]);
        assert_eq!(skill.files[1].digest, digest(b"A"));
        assert!(
            read_folder(&base, "nothing")
                .err()
                .unwrap()
                .contains("no skill folder at `nothing`")
        );
        fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_digest_is_sha256_in_lowercase_hex() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
