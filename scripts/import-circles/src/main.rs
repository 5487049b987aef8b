//! Prints the import circles between the files of the crates whose root files it is given:
//! groups of files each of which reaches every other through `use` declarations and paths
//! written in code (a child importing its parent's items counts). With `--allow FILE`, fails
//! on any circle not listed there and on any listed circle that is gone or smaller.
//!
//! Usage: import-circles [--allow FILE] [--unresolved] CRATE_ROOT...
//! (`scripts/import-circles.sh` runs it on mcp-runtime and mcp-runtime-macros.)

mod allow;
mod circles;
mod lex;
mod modules;
mod resolve;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use allow::Problem;
use resolve::Site;

/// The files of every crate read, and what makes each depend on another.
pub struct Graph {
    pub files: Vec<PathBuf>,
    pub sites: Vec<Site>,
}

impl Graph {
    pub fn read(roots: &[PathBuf]) -> Result<Graph, String> {
        let mut graph = Graph {
            files: Vec::new(),
            sites: Vec::new(),
        };
        for root in roots {
            let krate = modules::read_crate(root)?;
            let offset = graph.files.len();
            graph
                .sites
                .extend(resolve::sites(&krate).into_iter().map(|site| Site {
                    from: site.from + offset,
                    to: site.to + offset,
                    ..site
                }));
            graph.files.extend(krate.files);
        }
        Ok(graph)
    }

    /// Each circle: its files, sorted by name, in the order of their first file's name.
    pub fn circles(&self) -> Vec<Vec<usize>> {
        let edges = self.sites.iter().map(|s| (s.from, s.to)).collect();
        let mut circles = circles::circles(self.files.len(), &edges);
        for circle in &mut circles {
            circle.sort_by_key(|&f| self.name(f));
        }
        circles.sort_by_key(|c| self.name(c[0]));
        circles
    }

    pub fn name(&self, file: usize) -> String {
        self.files[file].display().to_string()
    }

    /// A circle's files, then each edge inside it with the lines that make it.
    pub fn describe(&self, circle: &[usize]) -> String {
        let inside: BTreeSet<usize> = circle.iter().copied().collect();
        // Per edge, per line: what that line names (a grouped `use` names several things).
        let mut edges: BTreeMap<(String, String), BTreeMap<u32, Vec<&Site>>> = BTreeMap::new();
        for site in &self.sites {
            if inside.contains(&site.from) && inside.contains(&site.to) {
                edges
                    .entry((self.name(site.from), self.name(site.to)))
                    .or_default()
                    .entry(site.line)
                    .or_default()
                    .push(site);
            }
        }
        let mut text = String::new();
        for &file in circle {
            let _ = writeln!(text, "    {}", self.name(file));
        }
        let _ = writeln!(text, "  edges:");
        for ((from, to), lines) in edges {
            let _ = writeln!(text, "    {from} -> {to}");
            for (line, sites) in lines {
                let mut names: Vec<&str> = sites.iter().map(|s| s.text.as_str()).collect();
                names.dedup();
                let guess = if sites.iter().any(|s| s.unresolved) {
                    "   (not found: taken to be in that file)"
                } else {
                    ""
                };
                let _ = writeln!(text, "        {from}:{line}: {}{guess}", collapse(&names));
            }
        }
        text
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("import-circles: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<bool, String> {
    let mut allow_file = None;
    let mut show_unresolved = false;
    let mut roots = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--allow" => allow_file = Some(args.next().ok_or("--allow needs a file")?),
            "--unresolved" => show_unresolved = true,
            "-h" | "--help" => {
                println!("usage: import-circles [--allow FILE] [--unresolved] CRATE_ROOT...");
                return Ok(true);
            }
            _ => roots.push(PathBuf::from(arg)),
        }
    }
    if roots.is_empty() {
        return Err("no crate root given (e.g. mcp-runtime/src/lib.rs)".to_owned());
    }
    let graph = Graph::read(&roots)?;
    if show_unresolved {
        for site in graph.sites.iter().filter(|s| s.unresolved) {
            println!(
                "not found, taken to be in {}: {}:{}: {}",
                graph.name(site.to),
                graph.name(site.from),
                site.line,
                site.text
            );
        }
    }

    let circles = graph.circles();
    println!("{} import circle(s)", circles.len());
    for (n, circle) in circles.iter().enumerate() {
        println!("\ncircle {}: {} files", n + 1, circle.len());
        print!("{}", graph.describe(circle));
    }

    let Some(allow_file) = allow_file else {
        return Ok(true);
    };
    let text = std::fs::read_to_string(&allow_file).map_err(|e| format!("{allow_file}: {e}"))?;
    let found: Vec<BTreeSet<String>> = circles
        .iter()
        .map(|c| c.iter().map(|&f| graph.name(f)).collect())
        .collect();
    let problems = allow::check(&allow::parse(&text), &found);
    for problem in &problems {
        match problem {
            Problem::New { files, takes_in } => {
                println!("\nNEW CIRCLE, not in {allow_file}: {}", line_of(files));
                if !takes_in.is_empty() {
                    let lines: Vec<String> = takes_in.iter().map(usize::to_string).collect();
                    println!(
                        "  It takes in the circle(s) on line(s) {} there: a new import made \
                         them larger or joined them.",
                        lines.join(", ")
                    );
                }
                println!(
                    "  Break it (see the edges above): a child must not import its parent's \
                     items; an item two files need lives in the lower one or in a leaf of its \
                     own. The list only shrinks: do not add the circle to it."
                );
            }
            Problem::Shrunk { line, now } => {
                println!(
                    "\nSMALLER: the circle on line {line} of {allow_file} is now smaller. \
                     Replace that line with:"
                );
                for files in now {
                    println!("{}", line_of(files));
                }
            }
            Problem::Gone { line } => println!(
                "\nGONE: the circle on line {line} of {allow_file} no longer exists. Delete \
                 the line."
            ),
        }
    }
    if problems.is_empty() {
        println!("\nevery circle is on {allow_file}, and every line of it is a circle");
    }
    Ok(problems.is_empty())
}

/// A circle as written in the allow-list.
fn line_of(files: &BTreeSet<String>) -> String {
    files.iter().cloned().collect::<Vec<_>>().join(" ")
}

/// The leaves of one grouped `use` written as one again: `use a::{B, C}`.
fn collapse(texts: &[&str]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for text in texts {
        let leaf = text
            .strip_prefix("use ")
            .and_then(|path| path.rsplit_once("::"))
            .filter(|(_, last)| !last.contains(' ') && *last != "*");
        match (leaf, groups.last_mut()) {
            (Some((prefix, last)), Some((group, names)))
                if !names.is_empty() && group.strip_prefix("use ") == Some(prefix) =>
            {
                names.push(last)
            }
            (Some((prefix, last)), _) => groups.push((format!("use {prefix}"), vec![last])),
            (None, _) => groups.push((text.to_string(), Vec::new())),
        }
    }
    let written: Vec<String> = groups
        .into_iter()
        .map(|(prefix, names)| match names.as_slice() {
            [] => prefix,
            [one] => format!("{prefix}::{one}"),
            many => format!("{prefix}::{{{}}}", many.join(", ")),
        })
        .collect();
    written.join("; ")
}
