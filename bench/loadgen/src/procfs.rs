//! What `/proc` says about a process, and CPU pinning of processes and threads (shared by
//! `mcp-loadgen`, `mcp-httpload` and the driver).

use std::fs;
use std::time::Duration;

use crate::CpuList;
use anyhow::{Context, Result, anyhow};
use nix::sched::{CpuSet, sched_setaffinity};
use nix::unistd::{Pid, SysconfVar, sysconf};

/// CPU time (utime + stime) of every thread of `pid`, living or exited.
pub fn cpu_time(pid: u32) -> Result<Duration> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat"))
        .with_context(|| format!("reading /proc/{pid}/stat"))?;
    cpu_time_from_stat(&stat, clock_ticks()?)
}

/// CPU time of the calling process.
pub fn own_cpu_time() -> Result<Duration> {
    cpu_time(std::process::id())
}

fn clock_ticks() -> Result<u64> {
    let ticks = sysconf(SysconfVar::CLK_TCK)?.ok_or_else(|| anyhow!("no CLK_TCK"))?;
    u64::try_from(ticks).context("CLK_TCK")
}

fn cpu_time_from_stat(stat: &str, ticks_per_second: u64) -> Result<Duration> {
    // The command name may hold spaces and parentheses; fields resume after the last ')'.
    let fields = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .ok_or_else(|| anyhow!("malformed /proc stat line"))?;
    // After the name: state is field 3, utime field 14, stime field 15.
    let mut fields = fields.split_ascii_whitespace().skip(11);
    let mut next = || -> Result<u64> {
        fields
            .next()
            .ok_or_else(|| anyhow!("short /proc stat line"))?
            .parse()
            .context("a /proc stat time field")
    };
    let ticks = next()? + next()?;
    Ok(Duration::from_nanos(
        ticks * 1_000_000_000 / ticks_per_second,
    ))
}

/// A `kB` figure from `/proc/<pid>/status`, e.g. `VmRSS` or `VmHWM`.
pub fn status_kb(pid: u32, key: &str) -> Result<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("reading /proc/{pid}/status"))?;
    status_field_kb(&status, key).ok_or_else(|| anyhow!("/proc/{pid}/status has no {key}"))
}

fn status_field_kb(status: &str, key: &str) -> Option<u64> {
    status.lines().find_map(|line| {
        let value = line.strip_prefix(key)?.strip_prefix(':')?;
        value.trim().strip_suffix("kB")?.trim().parse().ok()
    })
}

fn cpu_set(cpus: &CpuList) -> Result<CpuSet> {
    let mut set = CpuSet::new();
    for &cpu in cpus.cpus() {
        set.set(cpu).with_context(|| format!("CPU {cpu}"))?;
    }
    Ok(set)
}

/// Pins the calling thread (what `taskset -c` does to a command before it starts).
pub fn pin_current_thread(cpus: &CpuList) -> Result<()> {
    sched_setaffinity(Pid::from_raw(0), &cpu_set(cpus)?)
        .with_context(|| format!("pinning this thread to CPUs {cpus}"))
}

/// Pins every thread of a running process (what `taskset -a -p` does). Threads it starts
/// later inherit the mask from the thread that starts them.
pub fn pin_process(pid: u32, cpus: &CpuList) -> Result<()> {
    let set = cpu_set(cpus)?;
    for task in fs::read_dir(format!("/proc/{pid}/task"))? {
        let Some(tid) = task?.file_name().to_str().and_then(|tid| tid.parse().ok()) else {
            continue;
        };
        match sched_setaffinity(Pid::from_raw(tid), &set) {
            // A thread that exited in the meantime.
            Ok(()) | Err(nix::errno::Errno::ESRCH) => {}
            Err(error) => {
                return Err(error).with_context(|| format!("pinning thread {tid} to CPUs {cpus}"));
            }
        }
    }
    Ok(())
}

/// CPUs this process may run on.
pub fn allowed_cpus() -> Result<CpuList> {
    let set = nix::sched::sched_getaffinity(Pid::from_raw(0))?;
    let allowed: Vec<String> = (0..CpuSet::count())
        .filter(|&cpu| set.is_set(cpu).unwrap_or(false))
        .map(|cpu| cpu.to_string())
        .collect();
    allowed
        .join(",")
        .parse()
        .map_err(|error: String| anyhow!(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_times_after_a_name_with_parentheses() {
        let stat = "42 (a (b) c) S 1 42 42 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 3 0 1";
        let time = cpu_time_from_stat(stat, 100).unwrap();
        assert_eq!(time, Duration::from_secs(3));
    }

    #[test]
    fn reads_status_figures() {
        let status = "Name:\tx\nVmHWM:\t    2048 kB\nVmRSS:\t    1024 kB\n";
        assert_eq!(status_field_kb(status, "VmRSS"), Some(1024));
        assert_eq!(status_field_kb(status, "VmHWM"), Some(2048));
        assert_eq!(status_field_kb(status, "VmSwap"), None);
    }
}
