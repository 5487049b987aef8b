//! How a schema check's refusal of a call's arguments is worded: every problem names the
//! field it is about, first, in backquotes, as the checks of decoding and of ranges do —
//! `` `year`: 70000 is greater than the maximum of 65535 ``, `` `author`: missing
//! (required) ``, `` `isbn`: not a parameter of this tool `` — rather than in the
//! validator's own voice (`"author" is a required property`).

use crate::json_schema::validate::{ErrorKind, ValidationError};

/// The problems `error` stands for, one a field (an unexpected-properties error names
/// several).
pub(crate) fn describe(error: &ValidationError) -> Vec<String> {
    let pointer = error.instance_path();
    // The instance path is a JSON pointer; people read fields joined by dots.
    let parent = pointer
        .strip_prefix('/')
        .unwrap_or(pointer)
        .replace('/', ".");
    let field = |name: &str| {
        if parent.is_empty() {
            name.to_owned()
        } else {
            format!("{parent}.{name}")
        }
    };
    match error.kind() {
        ErrorKind::Required(name) => vec![format!("`{}`: missing (required)", field(name))],
        ErrorKind::AdditionalProperties(unexpected)
        | ErrorKind::UnevaluatedProperties(unexpected) => unexpected
            .iter()
            .map(|name| {
                if parent.is_empty() {
                    format!("`{name}`: not a parameter of this tool")
                } else {
                    format!("`{}`: not a field of `{parent}`", field(name))
                }
            })
            .collect(),
        _ if parent.is_empty() => vec![error.to_string()],
        _ => vec![format!("`{parent}`: {error}")],
    }
}

/// The problems of every error, in the validator's order, joined as one message.
pub(crate) fn describe_all(errors: &[ValidationError]) -> String {
    errors
        .iter()
        .flat_map(describe)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json_schema::validate::Schema;
    use serde_json::{Value, json};

    /// The message for `arguments` checked against `schema`, as a call's refusal words it.
    fn problems(schema: &Value, arguments: &Value) -> String {
        let schema = Schema::compile(schema).expect("a valid schema");
        describe_all(&schema.errors(arguments))
    }

    fn book_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "author": {"type": "string"},
                "year": {"type": "integer", "minimum": 0, "maximum": 65535},
                "book": {
                    "type": "object",
                    "properties": {"title": {"type": "string"}},
                    "required": ["title"],
                    "additionalProperties": false,
                },
            },
            "required": ["author"],
            "additionalProperties": false,
        })
    }

    #[test]
    fn a_missing_argument_is_named_as_missing() {
        assert_eq!(
            problems(&book_schema(), &json!({})),
            "`author`: missing (required)"
        );
    }

    #[test]
    fn an_unknown_argument_is_named_as_no_parameter() {
        assert_eq!(
            problems(
                &book_schema(),
                &json!({"author": "A", "isbn": 1, "pages": 2})
            ),
            "`isbn`: not a parameter of this tool; `pages`: not a parameter of this tool"
        );
    }

    #[test]
    fn problems_inside_an_argument_name_its_path() {
        assert_eq!(
            problems(
                &book_schema(),
                &json!({"author": "A", "book": {"subtitle": "B"}})
            ),
            "`book.subtitle`: not a field of `book`; `book.title`: missing (required)"
        );
    }

    #[test]
    fn a_value_out_of_range_is_named_by_its_field() {
        assert_eq!(
            problems(&book_schema(), &json!({"author": "A", "year": 70000})),
            "`year`: 70000 is greater than the maximum of 65535"
        );
    }
}
