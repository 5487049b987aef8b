//! The reader and the resolver on small crates written to a temporary directory.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::Graph;

/// A crate on disk for one test, removed when the test ends.
struct TempCrate {
    dir: PathBuf,
    graph: Graph,
}

impl TempCrate {
    /// `files`: paths under `src/` and their text; `src/lib.rs` is the root.
    fn new(files: &[(&str, &str)]) -> TempCrate {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "import-circles-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        for (path, text) in files {
            let path = dir.join("src").join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let graph = Graph::read(&[dir.join("src/lib.rs")]).unwrap();
        TempCrate { dir, graph }
    }

    fn short(&self, file: usize) -> String {
        let path = &self.graph.files[file];
        let short = path.strip_prefix(self.dir.join("src")).unwrap();
        short.display().to_string()
    }

    /// Every edge, as `from -> to`.
    fn edges(&self) -> BTreeSet<String> {
        self.graph
            .sites
            .iter()
            .map(|s| format!("{} -> {}", self.short(s.from), self.short(s.to)))
            .collect()
    }

    /// What makes each edge, as `from:line: text -> to`.
    fn sites(&self) -> BTreeSet<String> {
        self.graph
            .sites
            .iter()
            .map(|s| {
                let from = self.short(s.from);
                format!("{from}:{}: {} -> {}", s.line, s.text, self.short(s.to))
            })
            .collect()
    }

    fn circles(&self) -> Vec<Vec<String>> {
        self.graph
            .circles()
            .iter()
            .map(|c| c.iter().map(|&f| self.short(f)).collect())
            .collect()
    }

    fn files(&self) -> Vec<String> {
        (0..self.graph.files.len()).map(|f| self.short(f)).collect()
    }
}

impl Drop for TempCrate {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn set<const N: usize>(items: [&str; N]) -> BTreeSet<String> {
    items.into_iter().map(str::to_owned).collect()
}

#[test]
fn a_use_of_a_re_export_is_an_edge_to_the_file_that_defines_the_item() {
    let krate = TempCrate::new(&[
        (
            "lib.rs",
            "mod session;\nmod user;\npub use session::Done as Finished;\n",
        ),
        (
            "session/mod.rs",
            "mod call;\nmod reply;\npub(crate) use reply::Done;\n",
        ),
        ("session/reply.rs", "pub struct Done;\n"),
        ("session/call.rs", "use super::Done;\n"),
        ("user.rs", "use crate::Finished;\n"),
    ]);
    assert_eq!(
        krate.sites(),
        set([
            "lib.rs:3: use session::Done as Finished -> session/reply.rs",
            "session/call.rs:1: use super::Done -> session/reply.rs",
            "session/mod.rs:3: use reply::Done -> session/reply.rs",
            "user.rs:1: use crate::Finished -> session/reply.rs",
        ])
    );
    assert!(krate.circles().is_empty());
}

#[test]
fn a_type_alias_is_a_definition() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod server;\nmod core;\n"),
        (
            "server/mod.rs",
            "mod tasks;\npub(crate) use tasks::Owner;\n",
        ),
        ("server/tasks.rs", "pub(crate) type Owner = fn() -> u32;\n"),
        ("core.rs", "use crate::server::Owner;\n"),
    ]);
    assert!(krate.edges().contains("core.rs -> server/tasks.rs"));
    assert!(!krate.edges().contains("core.rs -> server/mod.rs"));
}

#[test]
fn grouped_and_multi_line_uses_make_one_edge_per_leaf() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod a;\nmod c;\nmod user;\n"),
        ("a.rs", "pub mod b;\npub struct A;\n"),
        ("a/b.rs", "pub struct B;\npub fn c() {}\n"),
        ("c.rs", "pub struct D;\n"),
        (
            "user.rs",
            "use crate::{\n    a::{A, b::{self as bee, B}},\n    c::D as Dee,\n};\nuse std::fmt;\n\
             fn f() { bee::c(); }\n",
        ),
    ]);
    assert_eq!(
        krate.sites(),
        set([
            "user.rs:2: use crate::a::A -> a.rs",
            "user.rs:2: use crate::a::b::B -> a/b.rs",
            "user.rs:3: use crate::c::D as Dee -> c.rs",
            "user.rs:6: bee::c -> a/b.rs",
        ])
    );
}

#[test]
fn paths_written_in_code_are_edges_and_prose_is_not() {
    let krate = TempCrate::new(&[
        (
            "lib.rs",
            "mod deep;\nmod top;\nmod user;\npub struct Root;\n",
        ),
        ("deep/mod.rs", "pub mod leaf;\n"),
        ("deep/leaf.rs", "pub fn f() {}\n"),
        ("top.rs", "pub fn g() {}\npub mod inner { pub fn h() {} }\n"),
        (
            "user.rs",
            r#"
//! crate::top::g in a comment
use crate::deep;
/// super::Root in a doc comment
fn f() -> Vec<super::Root> {
    crate::top::g();
    let _ = "crate::deep::leaf::f in a string";
    crate::top::inner::h();
    deep::leaf::f();
    Vec::new()
}
"#,
        ),
    ]);
    assert_eq!(
        krate.sites(),
        set([
            "user.rs:5: super::Root -> lib.rs",
            "user.rs:6: crate::top::g -> top.rs",
            "user.rs:8: crate::top::inner::h -> top.rs",
            "user.rs:9: deep::leaf::f -> deep/leaf.rs",
        ])
    );
}

#[test]
fn test_code_is_left_out() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod a;\nmod b;\n#[cfg(test)]\nmod tests;\n"),
        (
            "a.rs",
            r#"
pub struct A;
#[cfg(test)]
fn helper() { crate::b::f(); }
#[cfg(test)]
mod tests {
    use crate::b::f;
    mod nested { fn g() {} }
}
#[cfg(all(test, feature = "x"))]
use crate::b::f;
pub fn after() {}
"#,
        ),
        (
            "b.rs",
            "pub fn f() {}\nfn g() { let _ = crate::a::after; }\n",
        ),
        ("tests.rs", "use crate::a::A;\n"),
    ]);
    assert_eq!(krate.sites(), set(["b.rs:2: crate::a::after -> a.rs"]));
    assert_eq!(krate.files(), ["lib.rs", "a.rs", "b.rs"]);
}

#[test]
fn two_files_that_import_each_other_are_a_circle() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::B;\npub struct A;\n"),
        (
            "b.rs",
            "pub struct B;\nfn f() -> crate::a::A { crate::a::A }\n",
        ),
        ("c.rs", "use crate::a::A;\n"),
    ]);
    assert_eq!(krate.circles(), [["a.rs", "b.rs"]]);
    let report = krate.graph.describe(&krate.graph.circles()[0]);
    assert!(report.contains("a.rs:1: use crate::b::B"), "{report}");
    assert!(report.contains("b.rs:2: crate::a::A"), "{report}");
}

#[test]
fn a_child_importing_its_parents_item_is_a_circle() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod parent;\n"),
        (
            "parent/mod.rs",
            "mod child;\nuse child::C;\npub struct P;\nfn f(_: C) {}\n",
        ),
        (
            "parent/child.rs",
            "use super::P;\npub struct C;\nfn g(_: P) {}\n",
        ),
    ]);
    assert_eq!(krate.circles(), [["parent/child.rs", "parent/mod.rs"]]);
}

#[test]
fn a_parent_and_children_that_import_only_downwards_are_no_circle() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod parent;\nmod leaf;\n"),
        (
            "parent/mod.rs",
            "mod one;\nmod two;\npub use one::One;\npub use two::Two;\n",
        ),
        (
            "parent/one.rs",
            "use super::Two;\nuse crate::leaf::L;\npub struct One;\n",
        ),
        ("parent/two.rs", "use crate::leaf::*;\npub struct Two;\n"),
        ("leaf.rs", "pub struct L;\n"),
    ]);
    assert_eq!(
        krate.edges(),
        set([
            "parent/mod.rs -> parent/one.rs",
            "parent/mod.rs -> parent/two.rs",
            "parent/one.rs -> leaf.rs",
            "parent/one.rs -> parent/two.rs",
            "parent/two.rs -> leaf.rs",
        ])
    );
    assert!(krate.circles().is_empty());
}

#[test]
fn a_glob_import_is_an_edge_to_the_modules_file() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod parent;\n"),
        ("parent/mod.rs", "mod child;\npub struct P;\n"),
        ("parent/child.rs", "use super::*;\n"),
    ]);
    assert_eq!(krate.edges(), set(["parent/child.rs -> parent/mod.rs"]));
}

#[test]
fn a_mod_declaration_is_no_edge_and_path_attributes_are_followed() {
    let krate = TempCrate::new(&[
        (
            "lib.rs",
            "mod a;\n#[path = \"private.rs\"]\npub mod __private;\n",
        ),
        ("a.rs", "mod b;\n"),
        ("a/b.rs", "pub fn f() { crate::__private::g(); }\n"),
        ("private.rs", "pub fn g() {}\n"),
    ]);
    assert_eq!(krate.files(), ["lib.rs", "a.rs", "a/b.rs", "private.rs"]);
    assert_eq!(krate.edges(), set(["a/b.rs -> private.rs"]));
}

#[test]
fn an_item_no_file_defines_falls_back_to_the_deepest_module_named() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod made;\nmod user;\n"),
        ("made.rs", "make_fn!(generated);\n"),
        ("user.rs", "fn f() { crate::made::generated(); }\n"),
    ]);
    let sites = &krate.graph.sites;
    assert_eq!(krate.edges(), set(["user.rs -> made.rs"]));
    assert!(sites[0].unresolved);
}

#[test]
fn a_module_imported_by_name_is_an_edge_through_what_is_named_through_it() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod outer;\nmod user;\nmod unused;\n"),
        ("outer/mod.rs", "pub mod inner;\n"),
        ("outer/inner.rs", "pub fn f() {}\n"),
        (
            "user.rs",
            "use crate::outer::inner as named;\nfn g() { named::f(); }\n",
        ),
        ("unused.rs", "pub use crate::outer;\n"),
    ]);
    assert_eq!(
        krate.sites(),
        set([
            "unused.rs:1: use crate::outer -> outer/mod.rs",
            "user.rs:2: named::f -> outer/inner.rs",
        ])
    );
}

#[test]
fn quoted_code_and_other_crates_are_not_this_crates_paths() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod private;\nmod expand;\n"),
        ("private.rs", "pub fn f() {}\n"),
        (
            "expand.rs",
            "use std::fmt::Write;\nuse ::private::x;\n\
             fn e() { quote! { private::f(); #private::f() }; serde_json::json!(1); }\n",
        ),
    ]);
    assert!(krate.edges().is_empty(), "{:?}", krate.sites());
}

#[test]
fn every_kind_of_item_is_a_definition_and_items_inside_others_are_not() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod defs;\nmod user;\n"),
        (
            "defs.rs",
            r#"
pub const fn konst() {}
pub static mut COUNT: u32 = 0;
pub(crate) enum E { A }
pub union U { a: u32 }
pub trait T { type Inner; fn inside(); }
impl E { pub fn method() {} }
fn outer() { fn nested() {} }
"#,
        ),
        (
            "user.rs",
            "use crate::defs::{konst, COUNT, E, U, T};\n\
             fn f() { crate::defs::E::method(); crate::defs::nested(); }\n",
        ),
    ]);
    let sites = krate.graph.sites.iter();
    let unresolved: Vec<&str> = sites
        .filter(|s| s.unresolved)
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(unresolved, ["crate::defs::nested"]);
    assert_eq!(krate.edges(), set(["user.rs -> defs.rs"]));
}

#[test]
fn braces_in_characters_and_precise_captures_do_not_derail_the_reader() {
    let krate = TempCrate::new(&[
        ("lib.rs", "mod a;\nmod user;\n"),
        (
            "a.rs",
            "fn open() -> char { '{' }\n\
             fn cap<'a>(x: &'a str) -> impl Sized + use<'a> { x }\n\
             pub struct After;\n",
        ),
        ("user.rs", "use crate::a::After;\n"),
    ]);
    let site = &krate.graph.sites[0];
    assert!(!site.unresolved, "{:?}", krate.sites());
    assert_eq!(krate.edges(), set(["user.rs -> a.rs"]));
}
