#!/usr/bin/env bash
# Fuzzes the runtime with cargo-fuzz (libFuzzer): each target in fuzz/ runs for FUZZ_SECS
# seconds (default 60), all at the same time (libFuzzer uses one core per target), starting
# from the committed seeds (fuzz/seeds/<target>) and the corpus earlier runs grew
# (fuzz/corpus/<target>, not committed). A crash, a panic or a failed check stops that
# target: the input is saved under fuzz/artifacts/<target>/, its log is printed, and the
# script fails. Each target's log is kept in fuzz/artifacts/<target>.log.
#
#   FUZZ_SECS=3600 scripts/fuzz.sh              # an hour per target
#   FUZZ_SECS=600 scripts/fuzz.sh dispatch      # one target
#   FUZZ_SANITIZER=address scripts/fuzz.sh      # with AddressSanitizer (needs nightly)
#
# Builds on stable Rust: without a sanitizer (`--sanitizer none`), cargo-fuzz passes rustc
# only stable flags (coverage instrumentation, `--cfg fuzzing`). Sanitizers take nightly-only
# `-Z` flags; Rust code has little for them to find, and a panic, an abort or a failed
# assertion is caught either way. Needs cargo-fuzz: `cargo install cargo-fuzz --locked`.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

secs="${FUZZ_SECS:-60}"
sanitizer="${FUZZ_SANITIZER:-none}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(dispatch arguments http)

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "scripts/fuzz.sh: cargo-fuzz is not installed; run: cargo install cargo-fuzz --locked" >&2
  exit 1
fi

# The longest input libFuzzer makes: whole sessions for the dispatcher and the HTTP
# endpoint, one `arguments` object for the argument decoder.
max_len() {
  case "$1" in
    dispatch | http) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

echo "== fuzz: build (${targets[*]}; sanitizer: $sanitizer)"
for target in "${targets[@]}"; do
  # The dependencies are built once, for the first target.
  cargo fuzz build --sanitizer "$sanitizer" "$target"
done

echo "== fuzz: ${targets[*]} for ${secs} s"
mkdir -p artifacts
pids=()
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  # New inputs go to the first corpus directory; the seeds are only read.
  # -timeout: one input running over 10 s counts as a hang (a failure).
  cargo fuzz run --sanitizer "$sanitizer" "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$secs" \
    -dict="$target.dict" \
    -max_len="$(max_len "$target")" \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -print_final_stats=1 \
    >"artifacts/$target.log" 2>&1 &
  pids+=($!)
done

failed=()
for i in "${!targets[@]}"; do
  target="${targets[$i]}"
  if wait "${pids[$i]}"; then
    echo "-- $target: $(grep -E '^Done [0-9]+ runs' "artifacts/$target.log" || echo done)," \
      "$(grep -E 'stat::new_units_added' "artifacts/$target.log" | awk '{print $2}') new corpus entries"
  else
    failed+=("$target")
    echo "-- $target FAILED; its log (fuzz/artifacts/$target.log):"
    grep -vE '^#[0-9]+.*(NEW|REDUCE|pulse)|^\s+NEW_FUNC|# Uses: ' "artifacts/$target.log" | tail -n 80
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "== fuzz: ${failed[*]} failed; the inputs are in fuzz/artifacts/<target>/. Replay one with" \
    "(cd fuzz && cargo fuzz run --sanitizer $sanitizer <target> artifacts/<target>/<file>)" >&2
  exit 1
fi
echo "== fuzz: ${#targets[@]} targets ran ${secs} s each without a failure"
