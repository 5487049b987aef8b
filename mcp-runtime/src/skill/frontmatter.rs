//! A `SKILL.md`'s YAML frontmatter, rendered as the JSON object `skills/list` sends
//! ("verbatim": every field the author wrote), and the Agent Skills checks of it.
//!
//! The YAML read is what frontmatter uses: block mappings and sequences, plain, single- and
//! double-quoted scalars, literal (`|`) and folded (`>`) block scalars, flow sequences of
//! scalars (`[a, b]`), comments, and the core schema's nulls, booleans and numbers. Anchors,
//! aliases, tags, flow mappings and multi-line quoted scalars are refused with a sentence
//! that says so, rather than sent as something the author did not write.

use serde_json::{Map, Number, Value};

/// The text between the opening `---` line and the closing one.
pub(crate) fn block(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(&rest[..offset]);
        }
        offset += line.len();
    }
    None
}

/// The frontmatter of `skill_md` as JSON, checked: `name` (by the Agent Skills rules) and a
/// non-empty `description` present.
pub(crate) fn parse(skill_md: &str) -> Result<Map<String, Value>, String> {
    let block = block(skill_md).ok_or(
        "SKILL.md must begin with YAML frontmatter: a `---` line, `name: ...` and \
         `description: ...`, and a closing `---` line",
    )?;
    let mut parser = Parser {
        lines: block.lines().collect(),
        pos: 0,
    };
    let value = parser.node(0)?;
    parser.skip_blank();
    if parser.pos < parser.lines.len() {
        return Err(format!(
            "frontmatter line {} is indented less than the lines before it",
            parser.pos + 2
        ));
    }
    let Value::Object(map) = value else {
        return Err("the frontmatter must be a mapping of `key: value` lines".into());
    };
    match map.get("name") {
        Some(Value::String(name)) => check_name(name)?,
        _ => return Err("the frontmatter has no `name` string".into()),
    }
    match map.get("description") {
        Some(Value::String(description)) if !description.is_empty() => {}
        _ => return Err("the frontmatter has no non-empty `description` string".into()),
    }
    Ok(map)
}

/// The Agent Skills naming rules: 1 to 64 characters, lowercase letters, digits and hyphens,
/// no hyphen first, last or twice in a row.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let valid = (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if valid {
        Ok(())
    } else {
        Err(format!(
            "the skill name `{name}` breaks the Agent Skills naming rules: 1 to 64 lowercase \
             letters, digits and hyphens, with no hyphen first, last or twice in a row"
        ))
    }
}

struct Parser<'a> {
    lines: Vec<&'a str>,
    pos: usize,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.is_empty() || trimmed.starts_with('#')
}

fn is_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

impl<'a> Parser<'a> {
    fn skip_blank(&mut self) {
        while self.pos < self.lines.len() && is_blank(self.lines[self.pos]) {
            self.pos += 1;
        }
    }

    fn here(&self) -> String {
        format!("frontmatter line {}", self.pos + 2)
    }

    /// The mapping or sequence that starts at the next line, if it is indented at least
    /// `min`; `null` otherwise.
    fn node(&mut self, min: usize) -> Result<Value, String> {
        self.skip_blank();
        let Some(line) = self.lines.get(self.pos) else {
            return Ok(Value::Null);
        };
        if line.starts_with('\t') {
            return Err(format!("{}: YAML does not indent with tabs", self.here()));
        }
        let at = indent(line);
        if at < min {
            return Ok(Value::Null);
        }
        if is_item(&line[at..]) {
            self.sequence(at)
        } else {
            self.mapping(at, None)
        }
    }

    /// A block mapping at `at`; `first` is a key and value already read (a sequence item's).
    fn mapping(&mut self, at: usize, first: Option<(String, &'a str)>) -> Result<Value, String> {
        let mut map = Map::new();
        if let Some((key, rest)) = first {
            let value = self.value(rest, at)?;
            map.insert(key, value);
        }
        loop {
            self.skip_blank();
            let Some(line) = self.lines.get(self.pos).copied() else {
                break;
            };
            let found = indent(line);
            if found < at {
                break;
            }
            if found > at {
                return Err(format!("{}: unexpected indentation", self.here()));
            }
            let content = &line[at..];
            if is_item(content) {
                return Err(format!(
                    "{}: a sequence item where a `key: value` was expected",
                    self.here()
                ));
            }
            let (key, rest) = split_key(content)
                .ok_or_else(|| format!("{}: expected `key: value`", self.here()))?;
            self.pos += 1;
            if map.contains_key(&key) {
                return Err(format!("{}: the key `{key}` appears twice", self.here()));
            }
            let value = self.value(rest, at)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }

    /// A block sequence at `at`.
    fn sequence(&mut self, at: usize) -> Result<Value, String> {
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            let Some(line) = self.lines.get(self.pos).copied() else {
                break;
            };
            if indent(line) != at || !is_item(&line[at..]) {
                break;
            }
            let content = line[at + 1..].trim_start();
            self.pos += 1;
            let item_at = at + 1 + (line[at + 1..].len() - content.len());
            let item = if content.is_empty() || content.starts_with('#') {
                self.node(at + 1)?
            } else if let (Some((key, rest)), false) =
                (split_key(content), content.starts_with(['"', '\'', '[']))
            {
                self.mapping(item_at, Some((key, rest)))?
            } else {
                self.value(content, at)?
            };
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    /// The value after a key's colon (or of a sequence item), whose line is indented `at`.
    fn value(&mut self, rest: &'a str, at: usize) -> Result<Value, String> {
        let rest = rest.trim();
        if rest.is_empty() || rest.starts_with('#') {
            // A nested block, a sequence at the key's own indentation, or null.
            self.skip_blank();
            if let Some(line) = self.lines.get(self.pos) {
                let found = indent(line);
                if found > at || (found == at && is_item(&line[at..])) {
                    return self.node(found);
                }
            }
            return Ok(Value::Null);
        }
        match rest.as_bytes()[0] {
            b'|' | b'>' => self.block_scalar(rest, at),
            b'[' => flow_sequence(rest).map_err(|problem| format!("{}: {problem}", self.here())),
            b'{' if rest == "{}" => Ok(Value::Object(Map::new())),
            b'{' | b'&' | b'*' | b'!' | b'%' | b'@' | b'`' => Err(format!(
                "{}: `{rest}` uses YAML this server does not read (flow mappings, anchors, \
                 aliases, tags); write it as plain `key: value` lines",
                self.here()
            )),
            b'"' | b'\'' => scalar(rest).map_err(|problem| format!("{}: {problem}", self.here())),
            _ => {
                // A plain scalar may go on over more indented lines, folded with spaces.
                let mut text = strip_comment(rest).to_owned();
                let mut more = false;
                while let Some(line) = self.lines.get(self.pos) {
                    if line.trim().is_empty()
                        || indent(line) <= at
                        || split_key(line.trim()).is_some()
                    {
                        break;
                    }
                    text.push(' ');
                    text.push_str(strip_comment(line.trim()));
                    self.pos += 1;
                    more = true;
                }
                if more {
                    Ok(Value::String(text))
                } else {
                    Ok(plain(&text))
                }
            }
        }
    }

    /// `|` or `>` with its chomping (`-`, `+`) and the more indented lines below.
    fn block_scalar(&mut self, header: &str, at: usize) -> Result<Value, String> {
        let header = strip_comment(header);
        let folded = header.starts_with('>');
        let chomp = if header.contains('-') {
            Chomp::Strip
        } else if header.contains('+') {
            Chomp::Keep
        } else {
            Chomp::Clip
        };
        let mut lines = Vec::new();
        let mut content_indent = None;
        while let Some(line) = self.lines.get(self.pos).copied() {
            if line.trim().is_empty() {
                lines.push("");
                self.pos += 1;
                continue;
            }
            let found = indent(line);
            if found <= at {
                break;
            }
            let content_at = *content_indent.get_or_insert(found);
            if found < content_at {
                break;
            }
            lines.push(&line[content_at..]);
            self.pos += 1;
        }
        // Trailing blank lines belong to the chomping, not the text.
        let kept_blank = lines
            .iter()
            .rev()
            .take_while(|line| line.is_empty())
            .count();
        lines.truncate(lines.len() - kept_blank);
        let mut text = String::new();
        for (index, line) in lines.iter().enumerate() {
            if index > 0 {
                let previous = lines[index - 1];
                let joins = folded
                    && !line.is_empty()
                    && !previous.is_empty()
                    && !line.starts_with(' ')
                    && !previous.starts_with(' ');
                if joins {
                    text.push(' ');
                } else if !(folded
                    && previous.is_empty()
                    && index > 1
                    && !lines[index - 2].is_empty()
                    && !line.is_empty())
                {
                    text.push('\n');
                }
            }
            text.push_str(line);
        }
        if !lines.is_empty() {
            match chomp {
                Chomp::Strip => {}
                Chomp::Clip => text.push('\n'),
                Chomp::Keep => text.push_str(&"\n".repeat(1 + kept_blank)),
            }
        }
        Ok(Value::String(text))
    }
}

enum Chomp {
    Strip,
    Clip,
    Keep,
}

/// `key: rest` (the key plain or quoted), if `content` is one.
fn split_key(content: &str) -> Option<(String, &str)> {
    if content.starts_with(['"', '\'']) {
        let quote = content.chars().next()?;
        let close = content[1..].find(quote)? + 1;
        let after = content[close + 1..].trim_start().strip_prefix(':')?;
        if !(after.is_empty() || after.starts_with([' ', '\t'])) {
            return None;
        }
        let Value::String(key) = scalar(&content[..=close]).ok()? else {
            return None;
        };
        return Some((key, after));
    }
    let mut search = 0;
    while let Some(found) = content[search..].find(':') {
        let colon = search + found;
        let after = &content[colon + 1..];
        if after.is_empty() || after.starts_with([' ', '\t']) {
            let key = content[..colon].trim_end();
            if key.is_empty() || key.contains(" #") {
                return None;
            }
            return Some((key.to_owned(), after));
        }
        search = colon + 1;
    }
    None
}

/// A plain scalar without its ` # comment`.
fn strip_comment(text: &str) -> &str {
    match text.find(" #") {
        Some(at) => text[..at].trim_end(),
        None => text.trim_end(),
    }
}

/// A quoted or plain scalar on one line.
fn scalar(text: &str) -> Result<Value, String> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix('\'') {
        let mut value = String::new();
        let mut chars = rest.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\'' {
                if chars.peek() == Some(&'\'') {
                    chars.next();
                    value.push('\'');
                    continue;
                }
                return after_quote(chars.collect::<String>().as_str(), value);
            }
            value.push(c);
        }
        return Err("a single-quoted string is not closed on its line".into());
    }
    if let Some(rest) = text.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = rest.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => return after_quote(chars.as_str(), value),
                '\\' => {
                    let escaped = chars.next().ok_or("a `\\` ends a double-quoted string")?;
                    match escaped {
                        'n' => value.push('\n'),
                        't' => value.push('\t'),
                        'r' => value.push('\r'),
                        '0' => value.push('\0'),
                        '"' | '\\' | '/' | ' ' => value.push(escaped),
                        'u' => {
                            let hex: String = chars.by_ref().take(4).collect();
                            let code = u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or_else(|| format!("`\\u{hex}` is not a character"))?;
                            value.push(code);
                        }
                        other => {
                            return Err(format!(
                                "`\\{other}` is an escape this server does not read"
                            ));
                        }
                    }
                }
                _ => value.push(c),
            }
        }
        return Err("a double-quoted string is not closed on its line".into());
    }
    Ok(plain(strip_comment(text)))
}

fn after_quote(rest: &str, value: String) -> Result<Value, String> {
    let rest = rest.trim();
    if rest.is_empty() || rest.starts_with('#') {
        Ok(Value::String(value))
    } else {
        Err(format!("`{rest}` follows a quoted string"))
    }
}

/// A plain scalar under the YAML 1.2 core schema: null, a boolean, a number, or a string.
fn plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && let Ok(integer) = text.parse::<i64>()
    {
        return Value::Number(integer.into());
    }
    let numeric = !digits.is_empty()
        && digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && digits.bytes().any(|b| b.is_ascii_digit());
    if numeric && let Some(number) = text.parse::<f64>().ok().and_then(Number::from_f64) {
        return Value::Number(number);
    }
    Value::String(text.to_owned())
}

/// `[a, "b", 3]`: a flow sequence of scalars.
fn flow_sequence(text: &str) -> Result<Value, String> {
    let text = strip_comment(text);
    let inner = text
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or("a flow sequence must open and close on its line")?;
    if inner.trim().is_empty() {
        return Ok(Value::Array(Vec::new()));
    }
    let mut items = Vec::new();
    let mut current = String::new();
    let mut quote = None;
    for c in inner.chars() {
        match (quote, c) {
            (None, '[' | '{') => return Err("nested flow collections are not read".into()),
            (None, ',') => {
                items.push(scalar(&current)?);
                current.clear();
                continue;
            }
            (None, '"' | '\'') => quote = Some(c),
            (Some(open), _) if c == open => quote = None,
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        items.push(scalar(&current)?);
    }
    Ok(Value::Array(items))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn json_of(frontmatter: &str) -> Value {
        Value::Object(parse(&format!("---\n{frontmatter}---\n# Body\n")).unwrap())
    }

    #[test]
    fn frontmatter_is_read_as_written() {
        let read = json_of(
            "name: pdf-forms\n\
             description: Fill PDF forms # a comment\n\
             license: \"Apache-2.0\"\n\
             version: 2\n\
             ratio: 1.5\n\
             beta: false\n\
             nothing: ~\n\
             allowed-tools: [Read, 'Bash(git:*)']\n\
             metadata:\n  author: 'Ann O''Neil'\n  tags:\n    - pdf\n    - forms\n\
             steps:\n- one\n- name: two\n  done: true\n",
        );
        assert_eq!(
            read,
            json!({
                "name": "pdf-forms",
                "description": "Fill PDF forms",
                "license": "Apache-2.0",
                "version": 2,
                "ratio": 1.5,
                "beta": false,
                "nothing": null,
                "allowed-tools": ["Read", "Bash(git:*)"],
                "metadata": { "author": "Ann O'Neil", "tags": ["pdf", "forms"] },
                "steps": ["one", { "name": "two", "done": true }],
            })
        );
    }

    #[test]
    fn block_scalars_keep_or_fold_their_lines() {
        let read = json_of(
            "name: a\ndescription: >\n  Folded\n  text.\n\n  Second.\nliteral: |\n  one\n    two\nstripped: |-\n  x\n",
        );
        assert_eq!(read["description"], "Folded text.\nSecond.\n");
        assert_eq!(read["literal"], "one\n  two\n");
        assert_eq!(read["stripped"], "x");
        let plain = json_of("name: a\ndescription: a long\n  description\n");
        assert_eq!(plain["description"], "a long description");
    }

    #[test]
    fn what_is_not_read_or_not_a_skill_is_refused() {
        for (text, expected) in [
            ("name: a\n", "`description`"),
            ("description: b\n", "`name`"),
            ("name: A\ndescription: b\n", "naming rules"),
            ("name: a\ndescription: &x b\n", "anchors"),
            ("name: a\ndescription: {k: v}\n", "flow mappings"),
            ("name: a\nname: b\ndescription: c\n", "twice"),
            ("name: a\ndescription: \"open\n", "not closed"),
        ] {
            let error = parse(&format!("---\n{text}---\n")).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
        assert!(parse("no frontmatter").is_err());
    }
}
