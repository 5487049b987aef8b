//! The Skills extension's methods (2026-07-28, `io.modelcontextprotocol/skills`):
//! `skills/list`, `skills/get` and `resources/directory/read`. A skill's files are read with
//! `resources/read` like any resource (`resources`).

use serde_json::{Map, Value, json};

use super::Session;
use super::params::required_string;
use crate::protocol::cursor;
use crate::protocol::jsonrpc::RpcError;
use crate::protocol::version::ProtocolVersion;
use crate::skill::catalog::skill_result;

/// The lists a `skills/list` and a `resources/directory/read` cursor belong to.
const SKILLS: &str = "skill";
const DIRECTORY: &str = "directory";

impl Session {
    /// One of the extension's methods.
    pub(super) fn skill_method(
        &self,
        version: ProtocolVersion,
        method: &str,
        params: &Map<String, Value>,
    ) -> Result<Value, RpcError> {
        match method {
            "skills/list" => {
                let catalog = self.core.skills.catalog();
                self.list_page(version, params, "skills", SKILLS, catalog.skills())
            }
            "skills/get" => self.get_skill(params),
            _ => self.read_directory(params),
        }
    }

    /// `skills/get`: the entry of the skill whose `SKILL.md` is at `params.uri`.
    fn get_skill(&self, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let uri = required_string(
            params,
            "uri",
            "`skills/get` needs `uri`, the URI of the skill's SKILL.md.",
        )?;
        let catalog = self.core.skills.catalog();
        let skill = catalog.find(uri).ok_or_else(|| {
            RpcError::invalid_params(format!("Invalid params: no skill is served at {uri}."))
                .with_data(json!({ "uri": uri }))
        })?;
        let mut result = skill_result(skill);
        self.insert_cache_hints(&mut result);
        Ok(Value::Object(result))
    }

    /// `resources/directory/read`: one page of the direct children of the directory at
    /// `params.uri` (a skill's root, a folder within it, or a prefix above skills).
    fn read_directory(&self, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let uri = required_string(
            params,
            "uri",
            "`resources/directory/read` needs `uri`, the URI of a directory resource.",
        )?;
        let catalog = self.core.skills.catalog();
        let children = catalog.directory(uri).ok_or_else(|| {
            let problem = if self.core.resources.catalog().find(uri).is_some() {
                "is not a directory resource"
            } else {
                "is no resource this server serves"
            };
            RpcError::invalid_params(format!("Invalid params: {uri} {problem}."))
                .with_data(json!({ "uri": uri }))
        })?;
        let list = format!("{DIRECTORY}:{uri}");
        let (range, next) = cursor::page(
            &list,
            children.keys().map(String::as_str),
            cursor::from_params(params)?,
            self.core.page_size,
        )?;
        let listed: Vec<Value> = children
            .values()
            .skip(range.start)
            .take(range.len())
            .cloned()
            .collect();
        let mut result = Map::new();
        result.insert("resources".into(), listed.into());
        if let Some(next) = next {
            result.insert("nextCursor".into(), next.into());
        }
        Ok(Value::Object(result))
    }
}
