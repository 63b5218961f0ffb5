#!/usr/bin/env bash
# Fuzzing with libFuzzer. Builds caddie-fuzz with -sanitize=fuzzer (in .build-fuzz) and runs each
# harness for a bounded time from its committed seed corpus (Fuzz/corpus/HARNESS). New interesting inputs
# go to a scratch folder, so the committed corpus only changes by hand. A crash, trap or timeout fails the
# run; libFuzzer writes the input to Fuzz/crashes/HARNESS-... (replay it with
# `caddie-fuzz HARNESS Fuzz/crashes`, then fix the bug and move the file to Fuzz/regressions/HARNESS/).
#
#   bash Deploy/fuzz.sh [SECONDS_PER_HARNESS] [HARNESS...]   default: 60 s for each harness that `caddie-fuzz --list` names
#
# Prints one line per harness and a total; with CADDIE_FUZZ_JSON=FILE also writes the figures as JSON.
# CADDIE_FUZZ_BUILD_NICE=N builds at that CPU niceness (19: only with what other work leaves idle; the harnesses
# then run at the caller's own priority, so a starved harness never trips libFuzzer's timeout).
# CADDIE_FUZZ_CONFIG=release builds optimised. The default is a debug build: on this 2-core machine it takes about
# 3 minutes against the release build's 10 or more, and runs about as many inputs a second (15,000-17,000 for
# the op and frame harnesses), since most of the time is libFuzzer's and the sanitizer's, not the harness's.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
seconds="${1:-60}"
[ $# -gt 0 ] && shift
harnesses=("$@")

echo "fuzz: building caddie-fuzz with libFuzzer"
build_log="$(mktemp /tmp/caddie-fuzz-build.XXXXXX)"
# A failed build must fail the run: a binary left by an earlier build would fuzz old code.
config="${CADDIE_FUZZ_CONFIG:-debug}"
case "$config" in debug|release) ;; *) echo "fuzz: CADDIE_FUZZ_CONFIG must be debug or release, got '$config'" >&2; exit 2;; esac
rm -f ".build-fuzz/$config/caddie-fuzz"
build_started=$(date +%s)
if ! nice -n "${CADDIE_FUZZ_BUILD_NICE:-0}" swift build -c "$config" --product caddie-fuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DCADDIE_LIBFUZZER > "$build_log" 2>&1; then
    { grep -E "error" "$build_log" || tail -20 "$build_log"; } | head -20 >&2
    echo "fuzz: the libFuzzer build failed (log: $build_log)" >&2
    exit 1
fi
bin=".build-fuzz/$config/caddie-fuzz"
echo "fuzz: built in $(($(date +%s) - build_started)) s"
[ -x "$bin" ] || { echo "fuzz: the libFuzzer build made no $bin" >&2; exit 1; }

# The harnesses are listed once, in the binary (the Harness enum); every one must have a seed corpus and
# every corpus folder a harness.
mapfile -t known < <("$bin" --list)
[ ${#known[@]} -gt 0 ] || { echo "fuzz: caddie-fuzz --list named no harness" >&2; exit 1; }
folders=$(cd Fuzz/corpus && ls -1 | sort)
if [ "$(printf '%s\n' "${known[@]}" | sort)" != "$folders" ]; then
    echo "fuzz: the harnesses ($(echo ${known[*]})) and the corpus folders in Fuzz/corpus ($(echo $folders)) differ" >&2
    exit 1
fi
[ ${#harnesses[@]} -eq 0 ] && harnesses=("${known[@]}")

work="$(mktemp -d /tmp/caddie-fuzz.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p Fuzz/crashes
status=0
total=0
json="{"
for harness in "${harnesses[@]}"; do
    [ -d "Fuzz/corpus/$harness" ] || { echo "fuzz: no harness '$harness' (Fuzz/corpus/$harness is missing)" >&2; exit 2; }
    mkdir -p "$work/$harness"
    regressions=()
    [ -d "Fuzz/regressions/$harness" ] && regressions=("Fuzz/regressions/$harness")
    if CADDIE_FUZZ="$harness" "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="Fuzz/crashes/$harness-" -print_final_stats=1 \
        "$work/$harness" "Fuzz/corpus/$harness" "${regressions[@]}" > "$work/$harness.log" 2>&1; then
        result="no crash"
    else
        result="CRASH"
        status=1
    fi
    runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$work/$harness.log" | grep -oE "[0-9]+$" || echo 0)
    coverage=$(grep -oE "cov: [0-9]+" "$work/$harness.log" | tail -1 | grep -oE "[0-9]+" || echo 0)
    total=$((total + runs))
    printf "fuzz: %-10s %10s executions in %s s, %s coverage points, %s\n" "$harness" "$runs" "$seconds" "$coverage" "$result"
    json="$json\"$harness\": {\"executions\": $runs, \"seconds\": $seconds, \"coverage\": $coverage, \"crashed\": $([ "$result" = CRASH ] && echo true || echo false)}, "
    if [ "$result" = CRASH ]; then
        grep -E "ERROR|Fatal error|SUMMARY|artifact|Test unit written" "$work/$harness.log" | head -20 >&2
    fi
done
echo "fuzz: $total executions in all, $([ $status = 0 ] && echo "no crash" || echo "CRASHES FOUND")"
if [ -n "${CADDIE_FUZZ_JSON:-}" ]; then echo "${json}\"total\": $total}" > "$CADDIE_FUZZ_JSON"; fi
exit $status
