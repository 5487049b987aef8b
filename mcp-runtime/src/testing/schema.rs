//! The runtime's own JSON Schema check, as a test sees it: what a call's arguments would be
//! refused for, before the wording of the refusal.

use serde_json::Value;

use crate::json_schema::validate::Schema;

/// One problem the runtime's validator finds in a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    /// Where in the value, as a JSON pointer (`""` for the value itself).
    pub instance_path: String,
    /// The keyword that failed (`falseSchema` for a `false` schema).
    pub keyword: String,
    /// What is wrong, in the words of `jsonschema`'s errors.
    pub message: String,
}

/// Checks `instance` against `schema` (draft 2020-12) as the runtime checks a call's
/// arguments against its tool's `inputSchema`: every problem, in order, or `Err` if the
/// schema does not compile (a dynamic tool with it would be refused).
///
/// ```
/// use mcp_runtime::testing::schema_problems;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"year": {"maximum": 65535}}});
/// let problems = schema_problems(&schema, &json!({"year": 70000})).unwrap();
/// assert_eq!(problems[0].instance_path, "/year");
/// assert_eq!(problems[0].message, "70000 is greater than the maximum of 65535");
/// ```
pub fn schema_problems(schema: &Value, instance: &Value) -> Result<Vec<SchemaProblem>, String> {
    let schema = Schema::compile(schema).map_err(|error| error.to_string())?;
    Ok(schema
        .errors(instance)
        .into_iter()
        .map(|error| SchemaProblem {
            instance_path: error.instance_path().to_owned(),
            keyword: error.keyword().to_owned(),
            message: error.to_string(),
        })
        .collect())
}
