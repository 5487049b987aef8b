//! The closed loop: `concurrency` `tools/call` requests kept in flight over one connection.
//!
//! A writer thread owns the server's stdin and the reader (the calling thread) owns its
//! stdout. Each request occupies one of `concurrency` slots; its id encodes the slot
//! (`sequence << SLOT_BITS | slot`), so the reader finds the send time without a map and
//! knows at once whether an id is unknown or answered twice. When responses arrive the
//! reader hands their slots back to the writer, which refills them all with one `write`.
//! Requests are preformatted and no message allocates.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use mcp_loadgen::procfs;

use crate::connection::Server;
use crate::protocol::{CallOutcome, CallTemplate, check_echo};

const SLOT_BITS: u32 = 16;
const SLOT_MASK: u64 = (1 << SLOT_BITS) - 1;
/// Most requests in flight.
pub const MAX_CONCURRENCY: usize = 1 << SLOT_BITS;

/// How long (or how many calls) to warm up and to measure.
#[derive(Clone, Copy, Debug)]
pub enum Window {
    Time { warmup: Duration, measure: Duration },
    Calls { warmup: u64, measure: u64 },
}

/// What the measured window saw.
pub struct Measured {
    pub calls: u64,
    pub elapsed: Duration,
    /// Send → receive latency of every call in the window, in nanoseconds.
    pub latencies_ns: Vec<u32>,
    pub server_cpu: Duration,
    pub client_cpu: Duration,
}

/// One slot: the id of the request occupying it (0 when free) and when it was sent.
#[derive(Default)]
struct Slot {
    id: AtomicU64,
    sent_ns: AtomicU64,
}

/// Slots handed from the reader back to the writer.
struct Refills {
    free: Vec<u16>,
    stop: bool,
}

struct Shared {
    slots: Vec<Slot>,
    refills: Mutex<Refills>,
    wake: Condvar,
    epoch: Instant,
}

impl Shared {
    fn now_ns(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// Tells the writer to send nothing more; returns how many freed slots it had not
    /// taken yet (they will never be sent).
    fn stop_writer(&self) -> usize {
        let mut refills = self.refills.lock().unwrap_or_else(PoisonError::into_inner);
        refills.stop = true;
        let unsent = refills.free.len();
        refills.free.clear();
        drop(refills);
        self.wake.notify_one();
        unsent
    }
}

/// Who writes the requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Writer {
    /// `inline` at concurrency 1 (there is never more than one request to send, so a
    /// hand-off would only add a wake-up to every round trip), `thread` above.
    Auto,
    /// A dedicated writer thread, woken by the reader with the slots to refill.
    Thread,
    /// The reader writes the refills itself, right after reading the answers.
    Inline,
}

/// Runs one phase and returns what its measured window saw. `pin` is applied to the load
/// generator's threads.
pub fn run(
    server: &mut Server,
    template: &CallTemplate,
    text: &str,
    concurrency: usize,
    window: Window,
    writer: Writer,
    pin: Option<&mcp_loadgen::CpuList>,
) -> Result<Measured> {
    if !(1..=MAX_CONCURRENCY).contains(&concurrency) {
        bail!("concurrency must be between 1 and {MAX_CONCURRENCY}");
    }
    let shared = Shared {
        slots: (0..concurrency).map(|_| Slot::default()).collect(),
        refills: Mutex::new(Refills {
            free: (0..concurrency).map(|slot| slot as u16).collect(),
            stop: false,
        }),
        wake: Condvar::new(),
        epoch: Instant::now(),
    };
    let pid = server.pid();
    let Server { input, output, .. } = server;
    if let Some(cpus) = pin {
        procfs::pin_current_thread(cpus)?;
    }
    let inline = match writer {
        Writer::Auto => concurrency == 1,
        Writer::Inline => true,
        Writer::Thread => false,
    };
    if inline {
        let mut inline = Inline {
            shared: &shared,
            batcher: Batcher::new(template, concurrency),
            input,
            stopped: false,
        };
        let mut all: Vec<u16> = (0..concurrency).map(|slot| slot as u16).collect();
        inline.refill(&mut all)?;
        return read_loop(&shared, output, text, window, pid, &mut inline);
    }
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            let result = write_loop(&shared, input, template, concurrency, pin);
            if result.is_err() {
                // Nothing more will be sent; the reader notices the missing answers.
                let _ = shared.stop_writer();
            }
            result
        });
        let read = read_loop(&shared, output, text, window, pid, &mut Threaded(&shared));
        let _ = shared.stop_writer();
        let written = writer
            .join()
            .map_err(|_| anyhow!("the writer thread panicked"))?;
        let measured = read?;
        written?;
        Ok(measured)
    })
}

/// Formats requests for free slots and records their ids and send times.
struct Batcher<'a> {
    template: &'a CallTemplate,
    sequence: u64,
    bytes: Vec<u8>,
}

impl<'a> Batcher<'a> {
    fn new(template: &'a CallTemplate, concurrency: usize) -> Self {
        Batcher {
            template,
            sequence: 0,
            bytes: Vec::with_capacity(concurrency * 256),
        }
    }

    /// Sends one request per slot in `batch`, with one `write`.
    fn send(&mut self, shared: &Shared, batch: &[u16], input: &mut impl Write) -> Result<()> {
        self.bytes.clear();
        for &slot in batch {
            self.sequence += 1;
            let id = self.sequence << SLOT_BITS | u64::from(slot);
            self.template.write(id, &mut self.bytes);
            shared.slots[usize::from(slot)]
                .id
                .store(id, Ordering::Relaxed);
        }
        let now = shared.now_ns();
        for &slot in batch {
            // Release: the reader sees the id and the time once it sees the answer.
            shared.slots[usize::from(slot)]
                .sent_ns
                .store(now, Ordering::Release);
        }
        input.write_all(&self.bytes).context("writing requests")
    }
}

/// How the reader hands answered slots back to be sent again.
trait Refill {
    fn refill(&mut self, freed: &mut Vec<u16>) -> Result<()>;
    /// Sends nothing more; returns how many handed-back slots will never be sent.
    fn stop(&mut self) -> usize;
}

/// To the writer thread.
struct Threaded<'a>(&'a Shared);

impl Refill for Threaded<'_> {
    fn refill(&mut self, freed: &mut Vec<u16>) -> Result<()> {
        let mut refills = self
            .0
            .refills
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        refills.free.append(freed);
        drop(refills);
        self.0.wake.notify_one();
        Ok(())
    }

    fn stop(&mut self) -> usize {
        self.0.stop_writer()
    }
}

/// Written by the reader itself.
struct Inline<'a, W> {
    shared: &'a Shared,
    batcher: Batcher<'a>,
    input: W,
    stopped: bool,
}

impl<W: Write> Refill for Inline<'_, W> {
    fn refill(&mut self, freed: &mut Vec<u16>) -> Result<()> {
        if !self.stopped {
            self.batcher.send(self.shared, freed, &mut self.input)?;
        }
        freed.clear();
        Ok(())
    }

    fn stop(&mut self) -> usize {
        self.stopped = true;
        0
    }
}

fn write_loop(
    shared: &Shared,
    input: &mut std::process::ChildStdin,
    template: &CallTemplate,
    concurrency: usize,
    pin: Option<&mcp_loadgen::CpuList>,
) -> Result<()> {
    if let Some(cpus) = pin {
        procfs::pin_current_thread(cpus)?;
    }
    let mut batcher = Batcher::new(template, concurrency);
    let mut batch: Vec<u16> = Vec::with_capacity(concurrency);
    loop {
        {
            let mut refills = shared
                .refills
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            while refills.free.is_empty() && !refills.stop {
                refills = shared
                    .wake
                    .wait(refills)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if refills.stop {
                return Ok(());
            }
            std::mem::swap(&mut refills.free, &mut batch);
        }
        batcher.send(shared, &batch, input)?;
        batch.clear();
    }
}

/// Where the measured window began.
struct WindowStart {
    at_ns: u64,
    server_cpu: Duration,
    client_cpu: Duration,
    answered: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Warmup,
    Measuring,
    Draining,
}

fn read_loop(
    shared: &Shared,
    output: &mut crate::connection::Lines,
    text: &str,
    window: Window,
    pid: u32,
    refill: &mut impl Refill,
) -> Result<Measured> {
    let concurrency = shared.slots.len();
    let mut stage = Stage::Warmup;
    let mut answered: u64 = 0;
    let mut in_flight = concurrency;
    let mut freed: Vec<u16> = Vec::with_capacity(concurrency);
    let mut latencies_ns: Vec<u32> = Vec::with_capacity(expected_calls(window));
    let mut window_start: Option<WindowStart> = None;
    let mut result = None;
    let start = shared.now_ns();

    while in_flight > 0 {
        if !output.fill()? {
            bail!("the server closed its stdout with {in_flight} calls unanswered");
        }
        let now = shared.now_ns();
        while let Some(line) = output.next_buffered() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let id = match check_echo(line, text)? {
                CallOutcome::Echo(id) => id,
                CallOutcome::FromServer => continue,
            };
            let slot = shared
                .slots
                .get(usize::try_from(id & SLOT_MASK).unwrap_or(usize::MAX))
                .filter(|slot| slot.id.load(Ordering::Relaxed) == id)
                .ok_or_else(|| {
                    anyhow!(
                        "response to id {id}, which is not in flight (unknown, or answered twice)"
                    )
                })?;
            let sent = slot.sent_ns.load(Ordering::Acquire);
            slot.id.store(0, Ordering::Relaxed);
            in_flight -= 1;
            answered += 1;
            if stage == Stage::Measuring {
                latencies_ns.push(u32::try_from(now.saturating_sub(sent)).unwrap_or(u32::MAX));
            }
            freed.push((id & SLOT_MASK) as u16);
        }

        // Move between stages at the first response batch past each boundary.
        let elapsed = Duration::from_nanos(now - start);
        match (stage, window) {
            (Stage::Warmup, Window::Time { warmup, .. }) if elapsed >= warmup => {
                stage = Stage::Measuring;
            }
            (Stage::Warmup, Window::Calls { warmup, .. }) if answered >= warmup => {
                stage = Stage::Measuring;
            }
            (Stage::Measuring, Window::Time { warmup, measure }) if elapsed >= warmup + measure => {
                stage = Stage::Draining;
            }
            (Stage::Measuring, Window::Calls { warmup, measure })
                if answered >= warmup + measure =>
            {
                stage = Stage::Draining;
            }
            _ => {}
        }
        match stage {
            Stage::Measuring if window_start.is_none() => {
                window_start = Some(WindowStart {
                    at_ns: now,
                    server_cpu: procfs::cpu_time(pid)?,
                    client_cpu: procfs::own_cpu_time()?,
                    answered,
                });
                latencies_ns.clear();
            }
            Stage::Draining if result.is_none() => {
                in_flight -= refill.stop();
                let started = window_start.take().context("no measured window")?;
                result = Some(Measured {
                    calls: answered - started.answered,
                    elapsed: Duration::from_nanos(now - started.at_ns),
                    latencies_ns: Vec::new(),
                    server_cpu: procfs::cpu_time(pid)?.saturating_sub(started.server_cpu),
                    client_cpu: procfs::own_cpu_time()?.saturating_sub(started.client_cpu),
                });
            }
            _ => {}
        }
        if stage == Stage::Draining {
            freed.clear();
        } else if !freed.is_empty() {
            in_flight += freed.len();
            refill.refill(&mut freed)?;
        }
    }
    let mut measured = result.context("the run ended before its measured window did")?;
    measured.latencies_ns = latencies_ns;
    Ok(measured)
}

/// A guess at the calls in the window, to size the latency buffer once.
fn expected_calls(window: Window) -> usize {
    match window {
        Window::Time { measure, .. } => {
            usize::try_from((measure.as_secs_f64() * 300_000.0) as u64).unwrap_or(1 << 20)
        }
        Window::Calls { measure, .. } => usize::try_from(measure).unwrap_or(1 << 20),
    }
    .min(1 << 24)
}
