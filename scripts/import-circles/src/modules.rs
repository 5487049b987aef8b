//! A crate read into its tree of modules: for each module, the file it is written in, its
//! child modules, the names of the items it defines, its `use` declarations and every path
//! its code writes. Test code (`#[cfg(test)]` items and the files they name) is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::lex::{Kind, Token, lex};

pub type ModuleId = usize;
pub type FileId = usize;

#[derive(Debug, Default)]
pub struct Crate {
    pub files: Vec<PathBuf>,
    pub modules: Vec<Module>,
}

#[derive(Debug)]
pub struct Module {
    pub file: FileId,
    pub parent: Option<ModuleId>,
    pub children: BTreeMap<String, ModuleId>,
    /// Names of the items defined here (functions, types, type aliases, traits, constants,
    /// statics), not those brought in by `use`.
    pub items: BTreeSet<String>,
    pub imports: Vec<Import>,
    /// Paths written in code (`crate::a::f()`, `super::X`), two segments or more.
    pub paths: Vec<Written>,
}

/// One leaf of a `use` tree: `use a::{b, c::d as e}` has two.
#[derive(Debug, Clone)]
pub struct Import {
    pub path: Vec<String>,
    /// The name it brings into scope; `None` for `as _` and for globs.
    pub alias: Option<String>,
    pub glob: bool,
    pub line: u32,
}

impl Import {
    pub fn text(&self) -> String {
        let mut text = format!("use {}", self.path.join("::"));
        if self.glob {
            text.push_str("::*");
        } else if self.alias.as_ref() != self.path.last() {
            text.push_str(&format!(" as {}", self.alias.as_deref().unwrap_or("_")));
        }
        text
    }
}

#[derive(Debug, Clone)]
pub struct Written {
    pub path: Vec<String>,
    pub line: u32,
}

/// Reads the crate whose root file is `root` (`src/lib.rs`), following its `mod` declarations.
pub fn read_crate(root: &Path) -> Result<Crate, String> {
    let mut krate = Crate::default();
    let dir = root.parent().unwrap_or(Path::new("")).to_path_buf();
    krate.read_file(root, None, dir)?;
    Ok(krate)
}

impl Crate {
    fn read_file(
        &mut self,
        path: &Path,
        parent: Option<ModuleId>,
        dir: PathBuf,
    ) -> Result<ModuleId, String> {
        let source = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let tokens = lex(&source);
        self.files.push(path.to_path_buf());
        let file = self.files.len() - 1;
        let module = self.new_module(file, parent);
        Reader {
            krate: self,
            tokens: &tokens,
            file,
            path,
        }
        .module(module, 0, tokens.len(), dir)?;
        Ok(module)
    }

    fn new_module(&mut self, file: FileId, parent: Option<ModuleId>) -> ModuleId {
        self.modules.push(Module {
            file,
            parent,
            children: BTreeMap::new(),
            items: BTreeSet::new(),
            imports: Vec::new(),
            paths: Vec::new(),
        });
        self.modules.len() - 1
    }
}

struct Reader<'a> {
    krate: &'a mut Crate,
    tokens: &'a [Token],
    file: FileId,
    path: &'a Path,
}

/// Keywords after which the next identifier is the name of an item.
const DEFINING: [&str; 8] = [
    "fn", "struct", "enum", "union", "trait", "type", "const", "static",
];

impl Reader<'_> {
    /// Reads tokens `start..end` as the body of `module`, whose `mod x;` files live in `dir`.
    fn module(
        &mut self,
        module: ModuleId,
        start: usize,
        end: usize,
        dir: PathBuf,
    ) -> Result<(), String> {
        let t = self.tokens;
        let mut depth = 0usize;
        let mut path_attribute: Option<String> = None;
        let mut i = start;
        while i < end {
            let token = &t[i];
            if token.is_punct('#') {
                let inner = t.get(i + 1).is_some_and(|t| t.is_punct('!'));
                let open = if inner { i + 2 } else { i + 1 };
                if t.get(open).is_some_and(|t| t.is_punct('[')) {
                    let close = matching(t, open);
                    let attribute = &t[open + 1..close];
                    if is_cfg_test(attribute) {
                        if inner && depth == 0 {
                            // `#![cfg(test)]`: the whole module is test code.
                            return Ok(());
                        }
                        i = item_end(t, close + 1, end);
                        continue;
                    }
                    if let Some(path) = path_of(attribute) {
                        path_attribute = Some(path);
                    }
                    // The attribute's own tokens are read as code: `#[serde(with = ...)]`
                    // takes strings, but a derive may name a path.
                    i = open + 1;
                    continue;
                }
            } else if token.is_punct('{') {
                depth += 1;
            } else if token.is_punct('}') {
                depth = depth.saturating_sub(1);
            } else if token.is_ident("use") && !next_is(t, i, |n| n.is_punct('<')) {
                let semicolon = find_semicolon(t, i + 1, end);
                let mut leaves = Vec::new();
                use_tree(t, i + 1, semicolon, Vec::new(), &mut leaves);
                self.krate.modules[module].imports.extend(leaves);
                i = semicolon + 1;
                continue;
            } else if token.is_ident("mod") && next_is(t, i, |n| n.ident().is_some()) {
                let name = t[i + 1].ident().unwrap_or_default().to_owned();
                let attribute = path_attribute.take();
                if next_is(t, i + 1, |n| n.is_punct('{')) {
                    let open = i + 2;
                    let close = matching(t, open);
                    let child = self.krate.new_module(self.file, Some(module));
                    self.krate.modules[module]
                        .children
                        .insert(name.clone(), child);
                    self.module(child, open + 1, close, dir.join(&name))?;
                    i = close + 1;
                    continue;
                }
                if next_is(t, i + 1, |n| n.is_punct(';')) {
                    self.file_module(module, &name, attribute, &dir)?;
                    i += 3;
                    continue;
                }
            } else if depth == 0 && DEFINING.iter().any(|k| token.is_ident(k)) {
                // `static mut X` names the item a word later; `const fn f` is read at `fn`.
                let at = i + 1 + usize::from(next_is(t, i, |n| n.is_ident("mut")));
                if let Some(name) = t.get(at).and_then(Token::ident)
                    && !matches!(name, "fn" | "_")
                {
                    self.krate.modules[module].items.insert(name.to_owned());
                }
            } else if let Some(path) = written_path(t, i) {
                let line = token.line;
                let next = i + 2 * path.len() - 1 + usize::from(token.is_punct('$'));
                self.krate.modules[module]
                    .paths
                    .push(Written { path, line });
                i = next;
                continue;
            } else if is_quote(t, i) {
                // Code that a proc macro generates for another crate: its paths are not ours.
                i = matching(t, i + 2) + 1;
                continue;
            }
            i += 1;
        }
        Ok(())
    }

    fn file_module(
        &mut self,
        module: ModuleId,
        name: &str,
        attribute: Option<String>,
        dir: &Path,
    ) -> Result<(), String> {
        let (path, child_dir) = if let Some(relative) = attribute {
            // `#[path]` outside an inline module is relative to the directory of this file.
            let path = self.path.parent().unwrap_or(Path::new("")).join(relative);
            let child_dir = path.with_extension("");
            (path, child_dir)
        } else {
            let flat = dir.join(format!("{name}.rs"));
            if flat.exists() {
                (flat, dir.join(name))
            } else {
                (dir.join(name).join("mod.rs"), dir.join(name))
            }
        };
        let is_mod_rs = path.file_name().is_some_and(|n| n == "mod.rs");
        let child_dir = if is_mod_rs {
            path.parent().unwrap_or(Path::new("")).to_path_buf()
        } else {
            child_dir
        };
        let child = self.krate.read_file(&path, Some(module), child_dir)?;
        self.krate.modules[module]
            .children
            .insert(name.to_owned(), child);
        Ok(())
    }
}

fn next_is(t: &[Token], i: usize, test: impl Fn(&Token) -> bool) -> bool {
    t.get(i + 1).is_some_and(test)
}

/// The index of the bracket closing the one at `open` (or the end, in a broken file).
fn matching(t: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, token) in t.iter().enumerate().skip(open) {
        match token.kind {
            Kind::Punct('(' | '[' | '{') => depth += 1,
            Kind::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    t.len()
}

fn find_semicolon(t: &[Token], start: usize, end: usize) -> usize {
    (start..end).find(|&i| t[i].is_punct(';')).unwrap_or(end)
}

/// Where the item starting at `start` (after an attribute) ends: further attributes, then up
/// to its `;`, or its closing brace for items that end with a block.
fn item_end(t: &[Token], start: usize, end: usize) -> usize {
    let mut i = start;
    while i < end && t[i].is_punct('#') && t.get(i + 1).is_some_and(|t| t.is_punct('[')) {
        i = matching(t, i + 1) + 1;
    }
    // `const X: T = S { .. };` ends at its semicolon, past a brace; `const fn` at its body.
    let keyword = t[i..end].iter().position(|token| {
        token.ident().is_some_and(|w| {
            matches!(
                w,
                "const"
                    | "static"
                    | "type"
                    | "use"
                    | "let"
                    | "fn"
                    | "struct"
                    | "enum"
                    | "union"
                    | "trait"
                    | "impl"
                    | "mod"
                    | "macro_rules"
            )
        })
    });
    let ends_with_semicolon = keyword.is_some_and(|k| {
        let word = t[i + k].ident().unwrap_or_default();
        matches!(word, "const" | "static" | "type" | "use" | "let")
            && !t.get(i + k + 1).is_some_and(|n| n.is_ident("fn"))
    });
    let mut depth = 0usize;
    while i < end {
        match t[i].kind {
            Kind::Punct('(' | '[' | '{') => depth += 1,
            Kind::Punct(')' | ']') => depth = depth.saturating_sub(1),
            Kind::Punct('}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 && !ends_with_semicolon {
                    return i + 1;
                }
            }
            Kind::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    end
}

/// `cfg(test)` or `cfg(all(test, ...))`: code compiled only for the crate's own tests.
fn is_cfg_test(attribute: &[Token]) -> bool {
    if !attribute.first().is_some_and(|t| t.is_ident("cfg")) {
        return false;
    }
    let words: Vec<&Token> = attribute.iter().skip(2).collect();
    match words.first() {
        Some(first) if first.is_ident("test") => words.len() == 2,
        Some(first) if first.is_ident("all") => {
            // Only `test` directly inside `all(...)`; `all(any(test, x))` is not test-only.
            let mut depth = 0;
            words.iter().skip(1).any(|t| {
                match t.kind {
                    Kind::Punct('(') => depth += 1,
                    Kind::Punct(')') => depth -= 1,
                    _ => {}
                }
                depth == 1 && t.is_ident("test")
            })
        }
        _ => false,
    }
}

/// The file of `#[path = "..."]`.
fn path_of(attribute: &[Token]) -> Option<String> {
    match attribute {
        [name, eq, value] if name.is_ident("path") && eq.is_punct('=') => match &value.kind {
            Kind::Str(path) => Some(path.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// `quote!(...)`, `quote_spanned!{...}`, `parse_quote!(...)` at `i`.
fn is_quote(t: &[Token], i: usize) -> bool {
    t[i].ident()
        .is_some_and(|w| w.starts_with("quote") || w.starts_with("parse_quote"))
        && next_is(t, i, |n| n.is_punct('!'))
        && t.get(i + 2)
            .is_some_and(|n| matches!(n.kind, Kind::Punct('(' | '[' | '{')))
}

/// A path written in code starting at `i`: `a::b::c` (two identifiers or more), not the tail
/// of a longer one, a method's turbofish (`x.f::<T>`), nor a macro variable (`$x::y`).
/// `$crate` is read as `crate`.
fn written_path(t: &[Token], i: usize) -> Option<Vec<String>> {
    let (first, mut j) = if t[i].is_punct('$') && next_is(t, i, |n| n.is_ident("crate")) {
        ("crate".to_owned(), i + 2)
    } else {
        (t[i].ident()?.to_owned(), i + 1)
    };
    if i > 0 {
        let before = &t[i - 1];
        if before.kind == Kind::PathSep
            || before.is_punct('.')
            || before.is_punct('#')
            || (before.is_punct('$') && first != "crate")
        {
            return None;
        }
    }
    let mut path = vec![first];
    while t.get(j).is_some_and(|t| t.kind == Kind::PathSep) {
        match t.get(j + 1).and_then(Token::ident) {
            Some(name) => path.push(name.to_owned()),
            None => break,
        }
        j += 2;
    }
    (path.len() >= 2).then_some(path)
}

/// The leaves of the `use` tree in `t[i..end]`, each with the path before it.
fn use_tree(
    t: &[Token],
    mut i: usize,
    end: usize,
    prefix: Vec<String>,
    out: &mut Vec<Import>,
) -> usize {
    let mut path = prefix;
    if t.get(i).is_some_and(|t| t.kind == Kind::PathSep) {
        // `use ::name`: another crate.
        path.push("::".to_owned());
        i += 1;
    }
    while i < end {
        let token = &t[i];
        let line = token.line;
        if token.is_punct('$') && next_is(t, i, |n| n.is_ident("crate")) {
            path.push("crate".to_owned());
            i += 2;
        } else if let Some(name) = token.ident() {
            path.push(name.to_owned());
            i += 1;
        } else if token.is_punct('*') {
            out.push(Import {
                path,
                alias: None,
                glob: true,
                line,
            });
            return i + 1;
        } else if token.is_punct('{') {
            let close = matching(t, i);
            i += 1;
            while i < close {
                i = use_tree(t, i, close, path.clone(), out);
                if t.get(i).is_some_and(|t| t.is_punct(',')) {
                    i += 1;
                }
            }
            return close + 1;
        } else {
            return i;
        }
        if t.get(i).is_some_and(|t| t.kind == Kind::PathSep) {
            i += 1;
            continue;
        }
        // The end of this leaf: `a::b`, `a::b as c`, `a::{self}`.
        let mut alias = path.last().cloned();
        if t.get(i).is_some_and(|t| t.is_ident("as")) {
            alias = t.get(i + 1).and_then(Token::ident).map(str::to_owned);
            i += 2;
        }
        if path.last().is_some_and(|last| last == "self") {
            path.pop();
            if alias.as_deref() == Some("self") {
                alias = path.last().cloned();
            }
        }
        if alias.as_deref() == Some("_") {
            alias = None;
        }
        out.push(Import {
            path,
            alias,
            glob: false,
            line,
        });
        return i;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imports(source: &str) -> Vec<String> {
        let tokens = lex(source);
        let mut out = Vec::new();
        use_tree(&tokens, 0, tokens.len(), Vec::new(), &mut out);
        out.iter().map(Import::text).collect()
    }

    #[test]
    fn use_trees_are_cut_into_leaves() {
        assert_eq!(
            imports("a::{b, c::{d, e as f}, self, g::*, h as _}"),
            [
                "use a::b",
                "use a::c::d",
                "use a::c::e as f",
                "use a",
                "use a::g::*",
                "use a::h as _"
            ]
        );
    }

    #[test]
    fn cfg_test_is_test_only_when_nothing_else_is_needed() {
        let test = |s: &str| is_cfg_test(&lex(s));
        assert!(test("cfg(test)"));
        assert!(test("cfg(all(test, feature = \"x\"))"));
        assert!(!test("cfg(any(test, feature = \"x\"))"));
        assert!(!test("cfg(feature = \"testing\")"));
        assert!(!test("cfg(all(any(test, unix), windows))"));
    }
}
