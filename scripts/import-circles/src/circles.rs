//! The circles of a graph of files: its strongly connected components of two files or more
//! (Tarjan's algorithm), each file reaching every other through imports.

use std::collections::BTreeSet;

/// The components of two nodes or more of the graph with `nodes` nodes and `edges`, each
/// sorted, in the order of their smallest node.
pub fn circles(nodes: usize, edges: &BTreeSet<(usize, usize)>) -> Vec<Vec<usize>> {
    let mut next = vec![Vec::new(); nodes];
    for &(from, to) in edges {
        next[from].push(to);
    }
    let mut tarjan = Tarjan {
        next: &next,
        index: vec![None; nodes],
        low: vec![0; nodes],
        on_stack: vec![false; nodes],
        stack: Vec::new(),
        counter: 0,
        found: Vec::new(),
    };
    for node in 0..nodes {
        if tarjan.index[node].is_none() {
            tarjan.visit(node);
        }
    }
    let mut found: Vec<Vec<usize>> = tarjan
        .found
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|mut c| {
            c.sort_unstable();
            c
        })
        .collect();
    found.sort();
    found
}

struct Tarjan<'a> {
    next: &'a [Vec<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    counter: usize,
    found: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    // Recursive: a crate has a few hundred files, far from any stack limit.
    fn visit(&mut self, node: usize) {
        self.index[node] = Some(self.counter);
        self.low[node] = self.counter;
        self.counter += 1;
        self.stack.push(node);
        self.on_stack[node] = true;
        for &to in self.next[node].iter() {
            match self.index[to] {
                None => {
                    self.visit(to);
                    self.low[node] = self.low[node].min(self.low[to]);
                }
                Some(index) if self.on_stack[to] => self.low[node] = self.low[node].min(index),
                Some(_) => {}
            }
        }
        if Some(self.low[node]) == self.index[node] {
            let mut component = Vec::new();
            while let Some(top) = self.stack.pop() {
                self.on_stack[top] = false;
                component.push(top);
                if top == node {
                    break;
                }
            }
            self.found.push(component);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_circles_and_a_bridge_between_them() {
        let edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 3), (5, 0)];
        let found = circles(6, &edges.into_iter().collect());
        assert_eq!(found, [vec![0, 1, 2], vec![3, 4]]);
    }

    #[test]
    fn a_chain_is_no_circle() {
        let edges = [(0, 1), (1, 2), (0, 2)];
        assert!(circles(3, &edges.into_iter().collect()).is_empty());
    }
}
