//! Resources and resource templates: what `#[mcp_resource]` registers (`descriptor`), what a
//! read returns (`contents`), URI templates (`template`), and the catalog `resources/list`,
//! `resources/templates/list` and `resources/read` serve (`catalog`).

pub(crate) mod catalog;
pub(crate) mod contents;
pub(crate) mod descriptor;
pub(crate) mod dynamic;
pub(crate) mod set;
pub(crate) mod template;
