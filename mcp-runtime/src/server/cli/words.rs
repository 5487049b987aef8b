//! The command's words: the line split as a shell would (JSON values kept whole), and
//! `key=value` pairs read as a tool's arguments (typed by its input schema) or a prompt's (text).

use serde_json::{Map, Value};

/// The environment variable holding the command line.
pub(super) const CLI_ENV: &str = "MCP_CLI";

/// `key=value` words as a JSON object of strings (prompt arguments are text).
pub(super) fn text_pairs(words: &[String]) -> Result<Map<String, Value>, String> {
    words
        .iter()
        .map(|word| match word.split_once('=') {
            Some((key, value)) if !key.is_empty() => {
                Ok((key.to_owned(), Value::String(value.to_owned())))
            }
            _ => Err(format!(
                "`{word}` is not an argument: give key=value (prompt arguments are text)"
            )),
        })
        .collect()
}

/// Splits the command line like a shell would, except that JSON is taken as written: a
/// word that is a JSON object or array, or a `key=` / `key:=` followed by one, keeps its
/// quotes and spaces. So `call add_todo todo={"title": "a b"}` passes the object as typed,
/// where shell rules would strip its quotes and split it at the space.
pub(super) fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let length = match json_word(rest) {
            Some(length) => {
                words.push(rest[..length].to_owned());
                length
            }
            None if rest.starts_with('#') => break, // a comment, as in a shell
            None => {
                let Some(length) = shell_word(rest) else {
                    return Err("a quote is not closed".to_owned());
                };
                let word = shell_words::split(&rest[..length]).map_err(|e| e.to_string())?;
                words.extend(word);
                length
            }
        };
        rest = rest[length..].trim_start();
    }
    Ok(words)
}

/// The length of the word `text` starts with, if it is JSON as written: an object or array,
/// alone or after `key=` / `key:=`, ending where the word ends.
pub(super) fn json_word(text: &str) -> Option<usize> {
    let key = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || "_-.".contains(c)))
        .unwrap_or(text.len());
    let value = match &text[key..] {
        value if key == 0 => value,
        value => value
            .strip_prefix(":=")
            .or_else(|| value.strip_prefix('='))?,
    };
    if !value.starts_with(['{', '[']) {
        return None;
    }
    let json = &value[..json_length(value)?];
    let after = &value[json.len()..];
    if !(after.is_empty() || after.starts_with(char::is_whitespace)) {
        return None;
    }
    serde_json::from_str::<serde::de::IgnoredAny>(json).ok()?;
    Some(text.len() - after.len())
}

/// The length of the bracketed JSON `text` starts with (brackets balanced outside strings).
pub(super) fn json_length(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The length of the shell word `text` starts with (up to whitespace outside quotes);
/// `None` if a quote is not closed.
pub(super) fn shell_word(text: &str) -> Option<usize> {
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => return Some(at),
            '\\' => {
                chars.next();
            }
            '\'' => loop {
                match chars.next()?.1 {
                    '\'' => break,
                    _ => continue,
                }
            },
            '"' => loop {
                match chars.next()?.1 {
                    '"' => break,
                    '\\' => {
                        chars.next();
                    }
                    _ => continue,
                }
            },
            _ => {}
        }
    }
    Some(text.len())
}

/// Builds the arguments object: one JSON object, or key=value pairs read as the type the
/// tool's input schema gives each property.
pub(super) fn parse_arguments(
    tool: &str,
    words: &[String],
    schema: Option<&Value>,
) -> Result<Value, String> {
    if let [only] = words
        && only.trim_start().starts_with('{')
    {
        return serde_json::from_str(only)
            .map_err(|error| format!("the arguments are not JSON: {error}"));
    }
    let mut arguments = Map::new();
    for word in words {
        let (key, value) = if let Some((key, json)) = word.split_once(":=") {
            let value = serde_json::from_str(json)
                .map_err(|error| format!("`{key}:=` needs JSON: {error}"))?;
            (key, value)
        } else if let Some((key, text)) = word.split_once('=') {
            let property = schema.and_then(|schema| schema["properties"].get(key));
            let value =
                coerce(text, property).map_err(|wanted| not_json(tool, key, text, wanted))?;
            (key, value)
        } else {
            return Err(format!(
                "`{word}` is not an argument: give key=value, key:=JSON or one JSON object"
            ));
        };
        arguments.insert(key.to_owned(), value);
    }
    Ok(Value::Object(arguments))
}

/// Reads `text` as the property's type. Text that does not parse stays a string, so the
/// server's own validation reports it the way a client would see it — but an object or an
/// array must be JSON: `Err` names which the property takes.
pub(super) fn coerce(text: &str, property: Option<&Value>) -> Result<Value, &'static str> {
    let kind = property.map(|property| &property["type"]);
    let kind = match kind {
        Some(Value::Array(kinds)) => kinds.iter().find(|kind| *kind != "null"),
        other => other,
    };
    let parsed = match kind.and_then(Value::as_str) {
        Some("string") => None,
        Some("integer") => text
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| text.parse::<u64>().map(Value::from))
            .ok(),
        Some("number") => text.parse::<i64>().map(Value::from).ok().or_else(|| {
            text.parse::<f64>()
                .ok()
                .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
        }),
        Some("boolean") => text.parse::<bool>().ok().map(Value::Bool),
        Some(kind @ ("object" | "array")) => {
            return serde_json::from_str(text).map_err(|_| {
                if kind == "object" {
                    "a JSON object"
                } else {
                    "a JSON array"
                }
            });
        }
        // Properties without a plain type: JSON if it is JSON.
        _ => serde_json::from_str(text).ok(),
    };
    Ok(parsed.unwrap_or_else(|| Value::String(text.to_owned())))
}

/// Why `key=text` is refused, and how to write it so the JSON survives the shell.
pub(super) fn not_json(tool: &str, key: &str, text: &str, wanted: &str) -> String {
    let problem = serde_json::from_str::<Value>(text)
        .err()
        .map(|error| format!(" ({error})"))
        .unwrap_or_default();
    let example = if wanted == "a JSON object" {
        r#"{"name": "value"}"#
    } else {
        r#"["a", "b"]"#
    };
    format!(
        "`{key}` takes {wanted}, and `{text}` is not JSON{problem}.\n\
         Write the JSON as is after `{key}=`, and put the value of {CLI_ENV} in single quotes \
         so the shell keeps the JSON's double quotes:\n    \
         {CLI_ENV}='call {tool} {key}={example}' ..."
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn words(line: &str) -> Vec<String> {
        split_command(line).unwrap()
    }

    #[test]
    fn reads_key_value_pairs_as_the_schema_types() {
        let schema = json!({"properties": {
            "n": {"type": "integer"}, "x": {"type": "number"}, "ok": {"type": "boolean"},
            "name": {"type": "string"}, "values": {"type": "array"},
            "maybe": {"type": ["integer", "null"]}, "any": {},
        }});
        let arguments = parse_arguments(
            "t",
            &words(
                r#"n=3 x=1.5 ok=true name=42 values=[1,2] maybe=7 any=null 'free=a b' 'raw:={"k":1}'"#,
            ),
            Some(&schema),
        )
        .unwrap();
        assert_eq!(
            arguments,
            json!({"n": 3, "x": 1.5, "ok": true, "name": "42", "values": [1, 2], "maybe": 7,
                   "any": null, "free": "a b", "raw": {"k": 1}})
        );
        // What does not parse is left for the server to reject.
        assert_eq!(
            parse_arguments("t", &words("n=three"), Some(&schema)).unwrap(),
            json!({"n": "three"})
        );
        assert_eq!(
            parse_arguments("t", &words(r#"'{"n": 1}'"#), None).unwrap(),
            json!({"n": 1})
        );
        assert!(parse_arguments("t", &words("lonely"), None).is_err());
    }

    #[test]
    fn json_is_taken_as_written() {
        assert_eq!(
            words(r#"call add_todo todo={"title": "a b"} tags=["x", "y z"] n=1"#),
            [
                "call",
                "add_todo",
                r#"todo={"title": "a b"}"#,
                r#"tags=["x", "y z"]"#,
                "n=1"
            ]
        );
        assert_eq!(
            words(r#"call add {"a": 1, "b": 2} raw:=[1, 2]"#),
            ["call", "add", r#"{"a": 1, "b": 2}"#, "raw:=[1, 2]"]
        );
        // Shell rules for the rest: quotes, escapes, comments; and for what is not JSON.
        assert_eq!(
            words(r#"'free=a b' note="it's" x=\ y t=[draft] # c"#),
            ["free=a b", "note=it's", "x= y", "t=[draft]"]
        );
        assert_eq!(words(r#"t={a:1} u=[1,2]x"#), ["t={a:1}", "u=[1,2]x"]);
        assert_eq!(words(r#"'{"n": 1}'"#), [r#"{"n": 1}"#]);
        assert!(split_command("call add 'a=1").is_err());
    }

    #[test]
    fn an_object_that_is_not_json_says_how_to_quote_it() {
        let schema = json!({"properties": {
            "todo": {"type": "object"}, "tags": {"type": ["array", "null"]},
        }});
        let line = r#"call add_todo todo={"title":"x"} tags=["a"]"#;
        let arguments = &words(line)[2..];
        assert_eq!(
            parse_arguments("add_todo", arguments, Some(&schema)).unwrap(),
            json!({"todo": {"title": "x"}, "tags": ["a"]})
        );
        // What a shell leaves of the JSON inside double quotes.
        let problem =
            parse_arguments("add_todo", &words("todo={title:x}"), Some(&schema)).unwrap_err();
        assert_eq!(
            problem,
            "`todo` takes a JSON object, and `{title:x}` is not JSON (key must be a string at \
             line 1 column 2).\n\
             Write the JSON as is after `todo=`, and put the value of MCP_CLI in single quotes \
             so the shell keeps the JSON's double quotes:\n    \
             MCP_CLI='call add_todo todo={\"name\": \"value\"}' ..."
        );
        let problem = parse_arguments("add_todo", &words("tags=a,b"), Some(&schema)).unwrap_err();
        assert!(
            problem.starts_with("`tags` takes a JSON array"),
            "{problem}"
        );
    }

    #[test]
    fn prompt_arguments_are_text_pairs() {
        assert_eq!(
            text_pairs(&words("language=rust n=3 'focus=a = b' empty=")).unwrap(),
            *json!({"language": "rust", "n": "3", "focus": "a = b", "empty": ""})
                .as_object()
                .unwrap()
        );
        assert_eq!(
            text_pairs(&words("rust")).unwrap_err(),
            "`rust` is not an argument: give key=value (prompt arguments are text)"
        );
        assert!(text_pairs(&words("=x")).is_err());
    }
}
