//! How many commands Redis has processed (`INFO stats`), over a connection of its own.

use std::collections::BTreeMap;

use anyhow::{Context, Result, anyhow, bail};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// What Redis has done since it started.
#[derive(Clone, Debug)]
pub struct Counters {
    pub commands: u64,
    pub reads: u64,
    /// Calls of each command (`INFO commandstats`), by lower-case name.
    pub by_command: BTreeMap<String, u64>,
}

impl Counters {
    /// What others asked of Redis from `self` to `later`, leaving out what the two `INFO`s
    /// add to it (the first one's command, the second one's read).
    pub fn since(&self, later: &Counters) -> Counters {
        let by_command = later
            .by_command
            .iter()
            .filter(|(name, _)| name.as_str() != "info")
            .map(|(name, &calls)| {
                let before = self.by_command.get(name).copied().unwrap_or(0);
                (name.clone(), calls.saturating_sub(before))
            })
            .filter(|&(_, calls)| calls > 0)
            .collect();
        Counters {
            commands: later.commands.saturating_sub(self.commands + 1),
            reads: later.reads.saturating_sub(self.reads + 1),
            by_command,
        }
    }
}

pub struct RedisInfo {
    stream: BufReader<TcpStream>,
}

impl RedisInfo {
    pub async fn connect(addr: &str) -> Result<Self> {
        let stream = TcpStream::connect(addr)
            .await
            .with_context(|| format!("connecting to Redis at {addr}"))?;
        stream.set_nodelay(true)?;
        Ok(RedisInfo {
            stream: BufReader::new(stream),
        })
    }

    /// `total_commands_processed` and `total_reads_processed`: a command counts once it
    /// has run (this `INFO` only from the next one on), a read once it was made (this
    /// `INFO`'s own included).
    pub async fn counters(&mut self) -> Result<Counters> {
        let info = self.info().await?;
        Ok(Counters {
            commands: counter(&info, "total_commands_processed")?,
            reads: counter(&info, "total_reads_processed")?,
            by_command: command_calls(&info),
        })
    }

    /// `INFO stats commandstats` (several sections at once: Redis 7).
    async fn info(&mut self) -> Result<String> {
        self.stream
            .get_mut()
            .write_all(b"*3\r\n$4\r\nINFO\r\n$5\r\nstats\r\n$12\r\ncommandstats\r\n")
            .await?;
        let mut header = String::new();
        self.stream.read_line(&mut header).await?;
        let length: usize = header
            .strip_prefix('$')
            .and_then(|length| length.trim_end().parse().ok())
            .ok_or_else(|| anyhow!("Redis answered INFO with {header:?}"))?;
        let mut payload = vec![0; length + 2];
        self.stream.read_exact(&mut payload).await?;
        payload.truncate(length);
        String::from_utf8(payload).context("INFO is not UTF-8")
    }
}

/// `cmdstat_<name>:calls=<n>,…` lines (`cmdstat_script|load` for subcommands).
fn command_calls(info: &str) -> BTreeMap<String, u64> {
    info.lines()
        .filter_map(|line| {
            let (name, stats) = line.strip_prefix("cmdstat_")?.split_once(':')?;
            let calls = stats
                .split(',')
                .find_map(|stat| stat.strip_prefix("calls="))?;
            Some((name.to_owned(), calls.parse().ok()?))
        })
        .collect()
}

fn counter(info: &str, name: &str) -> Result<u64> {
    let Some(count) = info
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
    else {
        bail!("INFO stats has no {name}");
    };
    count
        .trim()
        .parse()
        .with_context(|| format!("{name} is not a number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_command_count() {
        let info = "# Stats\r\ntotal_connections_received:3\r\ntotal_commands_processed:42\r\n";
        assert_eq!(counter(info, "total_commands_processed").unwrap(), 42);
        assert!(counter(info, "total_commands").is_err());
        assert!(counter("# Stats\r\n", "total_reads_processed").is_err());
    }

    #[test]
    fn reads_the_calls_of_each_command() {
        let info = "# Commandstats\r\ncmdstat_hset:calls=10,usec=9,usec_per_call=0.9\r\n\
                    cmdstat_script|load:calls=1,usec=49\r\ncmdstat_info:calls=2,usec=3\r\n";
        let before = Counters {
            commands: 5,
            reads: 5,
            by_command: command_calls(info),
        };
        assert_eq!(before.by_command["hset"], 10);
        assert_eq!(before.by_command["script|load"], 1);
        let later = "cmdstat_hset:calls=14,usec=9\r\ncmdstat_get:calls=1\r\ncmdstat_info:calls=3\r\n\
                     cmdstat_script|load:calls=1,usec=49\r\n";
        let later = Counters {
            commands: 11,
            reads: 9,
            by_command: command_calls(later),
        };
        let work = before.since(&later);
        assert_eq!((work.commands, work.reads), (5, 3));
        assert_eq!(
            work.by_command.into_iter().collect::<Vec<_>>(),
            [("get".to_owned(), 1), ("hset".to_owned(), 4)]
        );
    }
}
