//! The skills of the `sep-2640-skills-*` scenarios (the `io.modelcontextprotocol/skills`
//! extension): two folders beside `src/`, embedded at compile time. `pdf-forms` has nested
//! folders (`templates/regional/`) for `resources/directory/read` to descend into;
//! `refunds` is served under a prefix, at `skill://acme/billing/refunds/SKILL.md`.

mcp_runtime::skill!("skills/pdf-forms");
mcp_runtime::skill!("skills/refunds", prefix = "acme/billing");
