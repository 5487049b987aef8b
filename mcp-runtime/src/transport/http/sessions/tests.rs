use std::time::Duration;

use super::*;

/// What `forget_finished` replaced: every finished stream sorted by when it finished,
/// the oldest beyond the bound and the expired ones forgotten.
fn forget_by_sorting(by_number: &mut HashMap<u64, Arc<Replay>>, now: Instant) {
    let mut ended: Vec<(Instant, u64)> = by_number
        .values()
        .filter(|replay| replay.number() != STANDALONE)
        .filter_map(|replay| Some((replay.ended_at()?, replay.number())))
        .collect();
    ended.sort_unstable();
    let excess = ended.len().saturating_sub(RETAIN_ENDED_STREAMS - 1);
    for (index, (at, number)) in ended.into_iter().enumerate() {
        if index < excess || now.saturating_duration_since(at) > RETAIN_ENDED {
            by_number.remove(&number);
        }
    }
}

fn numbers(by_number: &HashMap<u64, Arc<Replay>>) -> Vec<u64> {
    let mut numbers: Vec<u64> = by_number.keys().copied().collect();
    numbers.sort_unstable();
    numbers
}

/// The numbers of the streams `streams` retains, each found by its number.
fn retained(streams: &Streams) -> Vec<u64> {
    let running = streams.running.iter();
    let finished = streams.finished.iter().map(|(_, _, replay)| replay);
    let mut numbers: Vec<u64> = std::iter::once(&streams.standalone)
        .chain(running)
        .chain(finished)
        .map(|replay| replay.number())
        .collect();
    numbers.sort_unstable();
    for number in &numbers {
        let found = streams.get(*number).expect("a retained stream is found");
        assert_eq!(found.number(), *number);
    }
    numbers
}

/// The same streams, started, finished and forgotten over time, kept by `Streams` and
/// by sorting them every time: the same ones are retained after every new stream.
/// Streams finish in random order, several between two new ones or none, some never;
/// the clock jumps past the retention time now and then.
#[test]
fn finished_streams_are_forgotten_as_sorting_them_would() {
    let standalone = Replay::new(STANDALONE);
    for seed in 1..=40_u64 {
        let mut random = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next_random = |below: u64| {
            // xorshift64: reproducible without a dependency.
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            random % below
        };
        let mut fast = Streams::new(Arc::clone(&standalone), STANDALONE);
        let mut sorted = HashMap::from([(STANDALONE, Arc::clone(&standalone))]);
        let mut running: Vec<Arc<Replay>> = Vec::new();
        let mut clock = Instant::now();
        for step in 0..400 {
            // Finish some of the running streams (rarely one that started long ago).
            for _ in 0..next_random(4) {
                if !running.is_empty() {
                    let index = next_random(running.len() as u64) as usize;
                    running.swap_remove(index).end();
                }
            }
            if step % 7 == 0 {
                std::thread::sleep(Duration::from_micros(next_random(200)));
            }
            // Mostly a moment later; now and then past the time retained streams keep.
            clock = Instant::now().max(clock)
                + match next_random(40) {
                    0 => RETAIN_ENDED + Duration::from_millis(next_random(3_000)),
                    1 => RETAIN_ENDED / 2,
                    _ => Duration::from_micros(next_random(100)),
                };
            fast.forget_finished(clock);
            forget_by_sorting(&mut sorted, clock);
            assert_eq!(
                retained(&fast),
                numbers(&sorted),
                "seed {seed}, step {step}"
            );
            fast.next += 1;
            let replay = Replay::new(fast.next);
            fast.insert(&replay);
            sorted.insert(replay.number(), Arc::clone(&replay));
            running.push(replay);
        }
        // Retention stayed within its bound (the running streams aside).
        assert!(fast.finished.len() < RETAIN_ENDED_STREAMS, "seed {seed}");
        assert_eq!(fast.running.len(), running.len(), "seed {seed}");
        assert!(fast.get(fast.next + 1).is_none(), "seed {seed}");
    }
}

/// Streams that finish together at one instant are forgotten by number, as sorting
/// them does.
#[test]
fn streams_finished_together_are_forgotten_lowest_number_first() {
    let standalone = Replay::new(STANDALONE);
    let mut fast = Streams::new(Arc::clone(&standalone), STANDALONE);
    let mut sorted = HashMap::from([(STANDALONE, standalone)]);
    for number in 1..=20 {
        fast.next = number;
        let replay = Replay::new(number);
        fast.insert(&replay);
        sorted.insert(number, replay);
    }
    let now = Instant::now();
    // Three instants, the streams of each in an order of their own.
    for (index, number) in [
        7, 3, 19, 1, 12, 5, 20, 2, 16, 9, 4, 14, 11, 18, 6, 8, 13, 10, 15, 17,
    ]
    .into_iter()
    .enumerate()
    {
        let at = now - Duration::from_millis(3 - index as u64 % 3);
        sorted[&number].end_at(at);
    }
    fast.forget_finished(now);
    forget_by_sorting(&mut sorted, now);
    assert_eq!(retained(&fast), numbers(&sorted));
    assert_eq!(fast.finished.len(), RETAIN_ENDED_STREAMS - 1);
}
