//! Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640): what `skill!` registers
//! (`descriptor`), skills added at run time (`dynamic`), the frontmatter read as JSON
//! (`frontmatter`), the catalog `skills/list`, `skills/get` and `resources/directory/read`
//! serve (`catalog`), and the run-time set (`set`), which also serves every file of every
//! skill as a `skill://` resource through the server's [`ResourceSet`](crate::ResourceSet).

pub(crate) mod catalog;
pub(crate) mod descriptor;
pub(crate) mod dynamic;
pub(crate) mod frontmatter;
pub(crate) mod set;

/// The extension's identifier, in `capabilities.extensions` (2026-07-28).
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/skills";
