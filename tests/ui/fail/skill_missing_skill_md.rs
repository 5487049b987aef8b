// `.` is the crate's own directory (here the project trybuild builds this case in): a folder,
// but no skill, since it has no SKILL.md.
mcp_runtime::skill!(".");

fn main() {}
