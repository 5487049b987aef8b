//! What a failed check says: each error's instance path, keyword and message, worded as
//! `jsonschema` 0.61 words them (users and tests read these words), and what a schema that
//! cannot be compiled says.

use std::fmt::{self, Write as _};

use serde_json::Value;

use super::types::Types;

/// One way an instance fails its schema.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValidationError {
    instance_path: String,
    keyword: &'static str,
    kind: ErrorKind,
    message: String,
}

/// What the wording of a call's refusal (`tool::problems`) needs beyond the message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ErrorKind {
    /// A required property is missing.
    Required(String),
    /// Properties `additionalProperties` does not allow.
    AdditionalProperties(Vec<String>),
    /// Properties `unevaluatedProperties` does not allow.
    UnevaluatedProperties(Vec<String>),
    /// Anything else: the message says it all.
    Other,
}

impl ValidationError {
    pub(super) fn new(
        instance_path: &str,
        keyword: &'static str,
        kind: ErrorKind,
        message: String,
    ) -> Self {
        ValidationError {
            instance_path: instance_path.to_owned(),
            keyword,
            kind,
            message,
        }
    }

    /// Where in the instance, as a JSON pointer (`""` for the instance itself).
    pub(crate) fn instance_path(&self) -> &str {
        &self.instance_path
    }

    /// The keyword that failed, as `jsonschema` names it (`falseSchema` for a `false`
    /// schema, `required` for `dependentRequired`).
    #[cfg_attr(
        not(any(test, feature = "testing")),
        expect(dead_code, reason = "read by `testing::schema_problems` and the tests")
    )]
    pub(crate) fn keyword(&self) -> &'static str {
        self.keyword
    }

    pub(crate) fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Why a schema cannot be compiled, and where in it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SchemaError {
    pointer: String,
    message: String,
}

impl SchemaError {
    pub(super) fn new(pointer: &str, message: String) -> Self {
        SchemaError {
            pointer: pointer.to_owned(),
            message,
        }
    }

    /// Where in the schema, as a JSON pointer.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests only"))]
    pub(crate) fn pointer(&self) -> &str {
        &self.pointer
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SchemaError {}

/// `s` when `count` is not one, for "1 character" and "2 characters".
fn plural(count: u64, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

pub(super) fn false_schema(instance: &Value) -> String {
    format!("False schema does not allow {instance}")
}

pub(super) fn type_error(instance: &Value, types: Types) -> String {
    if types.single {
        let name = types.names().next().unwrap_or("null");
        return format!(r#"{instance} is not of type "{name}""#);
    }
    let mut message = format!("{instance} is not of types ");
    for (index, name) in types.names().enumerate() {
        if index > 0 {
            message.push_str(", ");
        }
        let _ = write!(message, r#""{name}""#);
    }
    message
}

/// The options of an `enum`: all of them up to three, else the first two and how many more.
pub(super) fn enum_error(instance: &Value, options: &[Value]) -> String {
    let mut message = format!("{instance} is not one of ");
    let total = options.len();
    if total <= 3 {
        for (index, option) in options.iter().enumerate() {
            if index == 0 {
                let _ = write!(message, "{option}");
            } else if index == total - 1 {
                let _ = write!(message, " or {option}");
            } else {
                let _ = write!(message, ", {option}");
            }
        }
    } else {
        for (index, option) in options.iter().take(2).enumerate() {
            if index > 0 {
                message.push_str(", ");
            }
            let _ = write!(message, "{option}");
        }
        let _ = write!(message, " or {} other candidates", total - 2);
    }
    message
}

pub(super) fn const_error(expected: &Value) -> String {
    format!("{expected} was expected")
}

pub(super) fn multiple_of(instance: &Value, multiple: f64) -> String {
    format!("{instance} is not a multiple of {multiple}")
}

pub(super) fn minimum(instance: &Value, limit: &Value) -> String {
    format!("{instance} is less than the minimum of {limit}")
}

pub(super) fn maximum(instance: &Value, limit: &Value) -> String {
    format!("{instance} is greater than the maximum of {limit}")
}

pub(super) fn exclusive_minimum(instance: &Value, limit: &Value) -> String {
    format!("{instance} is less than or equal to the minimum of {limit}")
}

pub(super) fn exclusive_maximum(instance: &Value, limit: &Value) -> String {
    format!("{instance} is greater than or equal to the maximum of {limit}")
}

pub(super) fn min_length(instance: &Value, limit: u64) -> String {
    let s = plural(limit, "", "s");
    format!("{instance} is shorter than {limit} character{s}")
}

pub(super) fn max_length(instance: &Value, limit: u64) -> String {
    let s = plural(limit, "", "s");
    format!("{instance} is longer than {limit} character{s}")
}

pub(super) fn pattern(instance: &Value, pattern: &str) -> String {
    format!(r#"{instance} does not match "{pattern}""#)
}

pub(super) fn min_items(instance: &Value, limit: u64) -> String {
    let s = plural(limit, "", "s");
    format!("{instance} has less than {limit} item{s}")
}

pub(super) fn max_items(instance: &Value, limit: u64) -> String {
    let s = plural(limit, "", "s");
    format!("{instance} has more than {limit} item{s}")
}

pub(super) fn unique_items(instance: &Value) -> String {
    format!("{instance} has non-unique elements")
}

pub(super) fn contains(instance: &Value) -> String {
    format!("None of {instance} are valid under the given schema")
}

pub(super) fn min_properties(instance: &Value, limit: u64) -> String {
    let ies = plural(limit, "y", "ies");
    format!("{instance} has less than {limit} propert{ies}")
}

pub(super) fn max_properties(instance: &Value, limit: u64) -> String {
    let ies = plural(limit, "y", "ies");
    format!("{instance} has more than {limit} propert{ies}")
}

pub(super) fn required(property: &str) -> String {
    format!("{} is a required property", Value::from(property))
}

/// `Additional properties are not allowed ('a', 'b' were unexpected)`, and its siblings.
pub(super) fn unexpected(what: &str, names: &[String]) -> String {
    let mut message = format!("{what} are not allowed (");
    for (index, name) in names.iter().enumerate() {
        if index > 0 {
            message.push_str(", ");
        }
        let _ = write!(message, "'{name}'");
    }
    message.push_str(if names.len() == 1 {
        " was unexpected)"
    } else {
        " were unexpected)"
    });
    message
}

pub(super) fn any_of(instance: &Value) -> String {
    format!("{instance} is not valid under any of the schemas listed in the 'anyOf' keyword")
}

pub(super) fn one_of_none(instance: &Value) -> String {
    format!("{instance} is not valid under any of the schemas listed in the 'oneOf' keyword")
}

pub(super) fn one_of_many(instance: &Value) -> String {
    format!("{instance} is valid under more than one of the schemas listed in the 'oneOf' keyword")
}

pub(super) fn not(schema: &Value, instance: &Value) -> String {
    format!("{schema} is not allowed for {instance}")
}
