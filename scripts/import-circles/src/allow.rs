//! The allow-list: the circles that exist today, one per line (its files, separated by
//! spaces). A circle not on it fails the check; so does a line whose circle is gone or has
//! become smaller, so the list only ever shrinks.

use std::collections::BTreeSet;

#[derive(Debug, PartialEq, Eq)]
pub struct Listed {
    /// 1-based, for the messages.
    pub line: usize,
    pub files: BTreeSet<String>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Problem {
    New {
        files: BTreeSet<String>,
        /// The lines of the listed circles it contains: they grew, or a new import joined them.
        takes_in: Vec<usize>,
    },
    /// The listed circle broke into these smaller ones (or lost files).
    Shrunk {
        line: usize,
        now: Vec<BTreeSet<String>>,
    },
    Gone {
        line: usize,
    },
}

pub fn parse(text: &str) -> Vec<Listed> {
    text.lines()
        .enumerate()
        .filter_map(|(n, line)| {
            let line_text = line.split('#').next().unwrap_or_default();
            let files: BTreeSet<String> = line_text.split_whitespace().map(str::to_owned).collect();
            (!files.is_empty()).then_some(Listed { line: n + 1, files })
        })
        .collect()
}

/// `listed` against the circles `found`; empty when they are the same.
pub fn check(listed: &[Listed], found: &[BTreeSet<String>]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut shrunk: Vec<Vec<BTreeSet<String>>> = vec![Vec::new(); listed.len()];
    // Whether a line's circle is accounted for: found as it is, or inside a new circle (whose
    // message names the line, rather than calling it gone).
    let mut matched = vec![false; listed.len()];
    for circle in found {
        if let Some(k) = listed.iter().position(|l| &l.files == circle) {
            matched[k] = true;
        } else if let Some(k) = listed.iter().position(|l| circle.is_subset(&l.files)) {
            shrunk[k].push(circle.clone());
        } else {
            let mut takes_in = Vec::new();
            for (k, l) in listed.iter().enumerate() {
                if l.files.is_subset(circle) {
                    matched[k] = true;
                    takes_in.push(l.line);
                }
            }
            problems.push(Problem::New {
                files: circle.clone(),
                takes_in,
            });
        }
    }
    for (k, listed) in listed.iter().enumerate() {
        if matched[k] {
            continue;
        }
        if shrunk[k].is_empty() {
            problems.push(Problem::Gone { line: listed.line });
        } else {
            problems.push(Problem::Shrunk {
                line: listed.line,
                now: std::mem::take(&mut shrunk[k]),
            });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(files: &str) -> BTreeSet<String> {
        files.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let listed = parse("# header\n\na.rs b.rs  # why\n");
        assert_eq!(
            listed,
            [Listed {
                line: 3,
                files: set("a.rs b.rs")
            }]
        );
    }

    #[test]
    fn new_gone_and_shrunk_circles_are_problems() {
        let listed = parse("a b c\nd e\nf g\n");
        let found = [set("a b"), set("f g"), set("x y")];
        assert_eq!(
            check(&listed, &found),
            [
                Problem::New {
                    files: set("x y"),
                    takes_in: vec![]
                },
                Problem::Shrunk {
                    line: 1,
                    now: vec![set("a b")]
                },
                Problem::Gone { line: 2 },
            ]
        );
    }

    #[test]
    fn a_circle_that_grew_names_its_line_rather_than_calling_it_gone() {
        let listed = parse("a b\nc d\n");
        assert_eq!(
            check(&listed, &[set("a b c d e")]),
            [Problem::New {
                files: set("a b c d e"),
                takes_in: vec![1, 2]
            }]
        );
    }

    #[test]
    fn the_same_circles_are_no_problem() {
        let listed = parse("b a\n");
        assert!(check(&listed, &[set("a b")]).is_empty());
    }
}
