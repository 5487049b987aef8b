//! Prompts: what `#[mcp_prompt]` registers (`descriptor`), what a prompt renders to
//! (`message`), and the catalog `prompts/list` and `prompts/get` serve (`catalog`).

pub(crate) mod catalog;
pub(crate) mod descriptor;
pub(crate) mod dynamic;
pub(crate) mod message;
pub(crate) mod set;
