//! CPU lists in `taskset -c` syntax: `0`, `0,2`, `0-3`, `0-1,4`.

use std::fmt;
use std::str::FromStr;

/// A set of CPU numbers, sorted and without duplicates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuList(Vec<usize>);

impl CpuList {
    /// The list of one CPU.
    pub fn single(cpu: usize) -> Self {
        CpuList(vec![cpu])
    }

    /// The CPU numbers.
    pub fn cpus(&self) -> &[usize] {
        &self.0
    }
}

impl FromStr for CpuList {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let number = |part: &str| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{part}` is not a CPU number (in `{text}`)"))
        };
        let mut cpus = Vec::new();
        for item in text.split(',') {
            match item.split_once('-') {
                Some((first, last)) => {
                    let (first, last) = (number(first)?, number(last)?);
                    if first > last {
                        return Err(format!("`{item}` is an empty range"));
                    }
                    cpus.extend(first..=last);
                }
                None => cpus.push(number(item)?),
            }
        }
        cpus.sort_unstable();
        cpus.dedup();
        Ok(CpuList(cpus))
    }
}

impl fmt::Display for CpuList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0.as_slice();
        let mut first = true;
        while let Some((&start, _)) = rest.split_first() {
            let run = rest
                .iter()
                .enumerate()
                .take_while(|&(offset, &cpu)| cpu == start + offset)
                .count();
            if !first {
                f.write_str(",")?;
            }
            first = false;
            match run {
                1 => write!(f, "{start}")?,
                _ => write!(f, "{start}-{}", start + run - 1)?,
            }
            rest = &rest[run..];
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_taskset_lists() {
        let list: CpuList = "3,0-1, 1".parse().unwrap();
        assert_eq!(list.cpus(), [0, 1, 3]);
        assert_eq!(list.to_string(), "0-1,3");
        assert_eq!(CpuList::single(1).to_string(), "1");
        assert!("2-1".parse::<CpuList>().is_err());
        assert!("x".parse::<CpuList>().is_err());
    }
}
