// The folder must be a string literal.
mcp_runtime::skill!(skills / pdf);

// Only `prefix` may follow it.
mcp_runtime::skill!("skills/changelog", name = "other");

// A prefix is URI path segments, none empty.
mcp_runtime::skill!("skills/changelog", prefix = "acme//billing");

fn main() {}
