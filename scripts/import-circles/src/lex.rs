//! Rust source cut into the few kinds of token the reader needs: identifiers, `::`, single
//! punctuation and literals. Comments (doc comments too) are dropped, so a path in prose or
//! in a doc example is never taken for an import.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    /// A string literal's text: `#[path = "..."]` needs it.
    Str(String),
    /// Numbers, characters, byte strings and lifetimes: nothing to resolve.
    Other,
}

#[derive(Debug, Clone)]
pub struct Token {
    pub kind: Kind,
    pub line: u32,
}

impl Token {
    pub fn is_ident(&self, word: &str) -> bool {
        matches!(&self.kind, Kind::Ident(name) if name == word)
    }

    pub fn is_punct(&self, c: char) -> bool {
        self.kind == Kind::Punct(c)
    }

    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            Kind::Ident(name) => Some(name),
            _ => None,
        }
    }
}

pub fn lex(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut lexer = Lexer {
        chars: &chars,
        at: 0,
        line: 1,
        tokens: Vec::new(),
    };
    lexer.run();
    lexer.tokens
}

struct Lexer<'a> {
    chars: &'a [char],
    at: usize,
    line: u32,
    tokens: Vec<Token>,
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn push(&mut self, kind: Kind, line: u32) {
        self.tokens.push(Token { kind, line });
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            let line = self.line;
            if c.is_whitespace() {
                self.bump();
            } else if c == '/' && self.peek(1) == Some('/') {
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c == '/' && self.peek(1) == Some('*') {
                self.block_comment();
            } else if c == '"' {
                self.bump();
                let text = self.quoted();
                self.push(Kind::Str(text), line);
            } else if c == '\'' {
                self.quote_or_lifetime();
                self.push(Kind::Other, line);
            } else if c.is_ascii_digit() {
                while self
                    .peek(0)
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
                {
                    self.bump();
                }
                self.push(Kind::Other, line);
            } else if c == '_' || c.is_alphabetic() {
                self.word(line);
            } else if c == ':' && self.peek(1) == Some(':') {
                self.bump();
                self.bump();
                self.push(Kind::PathSep, line);
            } else {
                self.bump();
                self.push(Kind::Punct(c), line);
            }
        }
    }

    fn block_comment(&mut self) {
        // Block comments nest in Rust.
        let mut depth = 0;
        while let Some(c) = self.peek(0) {
            if c == '/' && self.peek(1) == Some('*') {
                depth += 1;
                self.bump();
            } else if c == '*' && self.peek(1) == Some('/') {
                depth -= 1;
                self.bump();
                if depth == 0 {
                    self.bump();
                    return;
                }
            }
            self.bump();
        }
    }

    /// The rest of a `"..."` literal, its opening quote already read.
    fn quoted(&mut self) -> String {
        let mut text = String::new();
        while let Some(c) = self.bump() {
            match c {
                '"' => break,
                '\\' => {
                    self.bump();
                }
                c => text.push(c),
            }
        }
        text
    }

    /// A character literal (`'a'`, `'\''`) or a lifetime (`'a`); neither matters.
    fn quote_or_lifetime(&mut self) {
        self.bump();
        if self.peek(0) == Some('\\') {
            self.bump();
            self.bump();
            while self.peek(0).is_some_and(|c| c != '\'') {
                self.bump();
            }
            self.bump();
        } else if self.peek(1) == Some('\'') {
            self.bump();
            self.bump();
        } else {
            while self
                .peek(0)
                .is_some_and(|c| c == '_' || c.is_alphanumeric())
            {
                self.bump();
            }
        }
    }

    fn word(&mut self, line: u32) {
        let start = self.at;
        while self
            .peek(0)
            .is_some_and(|c| c == '_' || c.is_alphanumeric())
        {
            self.bump();
        }
        let word: String = self.chars[start..self.at].iter().collect();
        match (word.as_str(), self.peek(0)) {
            // Raw strings: r"...", r#"..."#, br"...", cr#"..."#.
            ("r" | "br" | "cr", Some('"')) => self.raw_string(line),
            ("r" | "br" | "cr", Some('#')) if self.raw_string_follows() => self.raw_string(line),
            // A raw identifier: `r#type` is the identifier `type`.
            ("r", Some('#')) => {
                self.bump();
                self.word(line);
            }
            ("b" | "c", Some('"')) => {
                self.bump();
                self.quoted();
                self.push(Kind::Other, line);
            }
            ("b", Some('\'')) => {
                self.quote_or_lifetime();
                self.push(Kind::Other, line);
            }
            _ => self.push(Kind::Ident(word), line),
        }
    }

    fn raw_string_follows(&self) -> bool {
        let mut ahead = 0;
        while self.peek(ahead) == Some('#') {
            ahead += 1;
        }
        self.peek(ahead) == Some('"')
    }

    /// A raw string, its prefix read: as many `#` close it as opened it.
    fn raw_string(&mut self, line: u32) {
        let mut hashes = 0;
        while self.peek(0) == Some('#') {
            hashes += 1;
            self.bump();
        }
        self.bump();
        let mut text = String::new();
        while let Some(c) = self.bump() {
            if c == '"' && (0..hashes).all(|i| self.peek(i) == Some('#')) {
                for _ in 0..hashes {
                    self.bump();
                }
                break;
            }
            text.push(c);
        }
        self.push(Kind::Str(text), line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(source: &str) -> Vec<String> {
        lex(source)
            .into_iter()
            .filter_map(|t| t.ident().map(str::to_owned))
            .collect()
    }

    #[test]
    fn comments_strings_and_characters_hide_their_words() {
        let source = r####"
            // crate::a
            /* crate::b /* nested */ crate::c */
            /// crate::d
            let s = "crate::e \" crate::f";
            let r = r#"crate::g " still"#;
            let c = '"'; let q = '\''; fn f<'a>(x: &'a str) {}
            keep
        "####;
        assert_eq!(
            idents(source),
            [
                "let", "s", "let", "r", "let", "c", "let", "q", "fn", "f", "x", "str", "keep"
            ]
        );
    }

    #[test]
    fn lines_are_counted_through_comments_and_strings() {
        let tokens = lex("a\n/* x\n y */ \"p\nq\"\nb");
        let b = tokens.iter().find(|t| t.is_ident("b")).unwrap();
        assert_eq!(b.line, 5);
    }

    #[test]
    fn raw_identifiers_lose_their_prefix() {
        assert_eq!(idents("r#type::x"), ["type", "x"]);
    }
}
