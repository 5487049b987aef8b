//! What the draft 2020-12 meta-schema asks of each keyword's value, checked as a schema is
//! compiled, so a malformed schema (`"type": "integr"`, `"minimum": "5"`) is refused where
//! it is given rather than misread later. The messages are those the meta-schema's own
//! check would give.

use serde_json::Value;

use super::error::{self, SchemaError};
use super::refs::escape;
use super::types::{Types, is_integer};

/// The value of a keyword whose value is a count (`minLength`, `maxItems`, ...).
pub(super) fn count(pointer: &str, keyword: &str, value: &Value) -> Result<u64, SchemaError> {
    let at = format!("{pointer}/{keyword}");
    match value {
        Value::Number(number) if is_integer(number) => {
            if number.as_f64().is_some_and(|f| f < 0.0) {
                return Err(SchemaError::new(
                    &at,
                    error::minimum(value, &Value::from(0)),
                ));
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Ok(number
                .as_u64()
                .unwrap_or_else(|| number.as_f64().map_or(u64::MAX, |f| f as u64)))
        }
        _ => Err(SchemaError::new(&at, not_of_type(value, "integer"))),
    }
}

/// `"5" is not of type "number"`.
pub(super) fn not_of_type(value: &Value, name: &str) -> String {
    format!(r#"{value} is not of type "{name}""#)
}

/// A subschema's value: an object or a boolean.
pub(super) fn subschema(pointer: &str, value: &Value) -> Result<(), SchemaError> {
    if value.is_object() || value.is_boolean() {
        Ok(())
    } else {
        Err(SchemaError::new(
            pointer,
            format!(r#"{value} is not of types "boolean", "object""#),
        ))
    }
}

/// A keyword's value where the meta-schema asks for a non-empty list of subschemas.
pub(super) fn schema_list<'v>(
    pointer: &str,
    keyword: &str,
    value: &'v Value,
) -> Result<&'v [Value], SchemaError> {
    let at = format!("{pointer}/{keyword}");
    let Value::Array(items) = value else {
        return Err(SchemaError::new(&at, not_of_type(value, "array")));
    };
    if items.is_empty() {
        return Err(SchemaError::new(&at, error::min_items(value, 1)));
    }
    Ok(items)
}

/// A keyword's value where the meta-schema asks for an object of subschemas.
pub(super) fn schema_map<'v>(
    pointer: &str,
    keyword: &str,
    value: &'v Value,
) -> Result<&'v serde_json::Map<String, Value>, SchemaError> {
    value.as_object().ok_or_else(|| {
        SchemaError::new(
            &format!("{pointer}/{keyword}"),
            not_of_type(value, "object"),
        )
    })
}

/// A list of property names, each once (`required`, `dependentRequired`'s lists).
pub(super) fn names(at: &str, value: &Value) -> Result<Vec<String>, SchemaError> {
    let Value::Array(items) = value else {
        return Err(SchemaError::new(at, not_of_type(value, "array")));
    };
    let mut names = Vec::with_capacity(items.len());
    for (position, item) in items.iter().enumerate() {
        let Value::String(name) = item else {
            return Err(SchemaError::new(
                &format!("{at}/{position}"),
                not_of_type(item, "string"),
            ));
        };
        if names.contains(name) {
            return Err(SchemaError::new(at, error::unique_items(value)));
        }
        names.push(name.clone());
    }
    Ok(names)
}

/// A regular expression of `pattern` or `patternProperties`.
pub(super) fn regex(at: &str, pattern: &str) -> Result<regex_lite::Regex, SchemaError> {
    regex_lite::Regex::new(pattern)
        .map_err(|_| SchemaError::new(at, format!(r#"{} is not a "regex""#, Value::from(pattern))))
}

/// The keywords whose value is checked only for its shape (the rest are compiled).
pub(super) fn plain_keyword(
    pointer: &str,
    keyword: &str,
    value: &Value,
) -> Result<(), SchemaError> {
    let at = format!("{pointer}/{}", escape(keyword));
    let wrong = |name: &str| Err(SchemaError::new(&at, not_of_type(value, name)));
    match keyword {
        "type" if Types::parse(value).is_none() => Err(SchemaError::new(
            &at,
            format!("{value} is not valid under any of the schemas listed in the 'anyOf' keyword"),
        )),
        "enum" | "examples" if !value.is_array() => wrong("array"),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" if !value.is_number() => {
            wrong("number")
        }
        "multipleOf" => match value.as_f64() {
            None => wrong("number"),
            Some(multiple) if multiple <= 0.0 => Err(SchemaError::new(
                &at,
                error::exclusive_minimum(value, &Value::from(0)),
            )),
            Some(_) => Ok(()),
        },
        "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" if !value.is_boolean() => {
            wrong("boolean")
        }
        "$id" | "$schema" | "$ref" | "$dynamicRef" | "$comment" | "format" | "title"
        | "description" | "contentEncoding" | "contentMediaType" | "pattern" | "$anchor"
        | "$dynamicAnchor"
            if !value.is_string() =>
        {
            wrong("string")
        }
        "$anchor" | "$dynamicAnchor" => {
            let anchor = value.as_str().unwrap_or_default();
            let valid = anchor.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && anchor
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-._".contains(c));
            if valid {
                Ok(())
            } else {
                Err(SchemaError::new(
                    &at,
                    format!(r#"{value} does not match "^[A-Za-z_][-A-Za-z0-9._]*$""#),
                ))
            }
        }
        "$id"
            if value
                .as_str()
                .is_some_and(|id| id.trim_end_matches('#').contains('#')) =>
        {
            Err(SchemaError::new(
                &at,
                format!(r#"{value} does not match "^[^#]*#?$""#),
            ))
        }
        "$vocabulary" if !value.is_object() => wrong("object"),
        _ => Ok(()),
    }
}
