// The folder is relative to the crate's directory, and there is none of this name.
mcp_runtime::skill!("skills/no-such-skill");

fn main() {}
