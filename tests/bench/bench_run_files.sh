#!/usr/bin/env bash
# The benchmark line of `mhaviz-cli run` writing its results (not a test: nothing is asserted).
# At (N,L,S,E,H) = (1,2048,2048,512,8), float32, default flags (need_weights, averaged weights):
#   - the forward pass alone: mhaviz-bench --first-run=1/2048/2048/512/8/2 (2 threads, as the
#     CLI uses on 2 cores), one pass in a fresh process, so that it pays the first touch of its
#     memory as a run does (inputs and weights are made before the timed pass; the case keeps
#     per-head weights where the run averages them, milliseconds apart);
#   - mhaviz-cli run --out r.npz, r.npz --compress and r.safetensors: wall and CPU time and
#     peak RSS ("Maximum resident set size") from /usr/bin/time -v;
#   - dd writing the same number of bytes as each file (to the page cache, no sync, as the
#     writers do).
# Each is measured twice: "first" after a pause of PAUSE seconds (default 10), "steady" right
# after it. On this VM, memory left free for a few seconds goes back to the host and its next
# first touch costs about 3 s/GiB, page cache included (dd of 583 MB: ~2 s first, ~0.2 s
# steady), so the first figures are cold and the steady ones warm. The load average is printed
# at the start and the end: other work on the machine stretches wall times, so compare only
# the ratios of one run of the script.
#
#   tests/bench/bench_run_files.sh [BUILD_DIR] [PAUSE]      # BUILD_DIR defaults to build
set -euo pipefail

build=${1:-build}
pause=${2:-10}
cli=$build/bin/mhaviz-cli
bench=$build/bin/mhaviz-bench
for exe in "$cli" "$bench" /usr/bin/time; do
  [ -x "$exe" ] || { echo "bench_run_files: $exe is missing (build mhaviz-cli and mhaviz-bench)" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/mhaviz-bench-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo '{"batch_size": 1, "tgt_len": 2048, "src_len": 2048, "embed_dim": 512, "num_heads": 8}' \
  >"$work/big.json"

# timed LABEL COMMAND...: runs COMMAND under /usr/bin/time -v; sets wall and cpu (user + system)
# in seconds and rss (MiB).
# Each starts after a sync, so that no measurement pays for writing back the one before.
timed() {
  local label=$1
  shift
  sync
  if ! /usr/bin/time -v -o "$work/time" "$@" >"$work/out" 2>"$work/err"; then
    echo "bench_run_files: $label failed:" >&2
    cat "$work/err" >&2
    exit 1
  fi
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0;
                     for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s}' "$work/time")
  cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ {s += $2} END {printf "%.2f", s}' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time")
}

forward_seconds() {
  "$bench" --first-run=1/2048/2048/512/8/2 | awk '/^first run/ {printf "%.2f", $(NF-1) / 1e3}'
}

# twice OUTPUT LABEL COMMAND...: after the pause, runs COMMAND twice through timed, removing
# OUTPUT after each (its bytes are kept in $bytes); sets first, steady ("wall s / cpu s") and
# rss_first, rss_steady (MiB).
twice() {
  local output=$1
  shift
  sleep "$pause"
  timed "$@"
  first="$wall / $cpu" rss_first=$rss bytes=$(stat -c %s "$output")
  rm -f "$output"
  timed "$@"
  steady="$wall / $cpu" rss_steady=$rss
  rm -f "$output"
}

row() {  # what bytes first steady [rss_first rss_steady]
  printf '%-30s %10s %13s %13s %13s\n' "$1" "$2" "$3" "$4" "${5:+$5${6:+, $6}}"
}

ratio() {  # "run wall / cpu" forward "dd wall / cpu": wall ratios only
  awk -v r="${1%% *}" -v f="$2" -v d="${3%% *}" 'BEGIN {printf "%.2fx", r / (f + d)}'
}

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "(N,L,S,E,H) = (1,2048,2048,512,8), float32; first after a ${pause} s pause (cold), then steady"
echo "load average (1, 5, 15 min) at the start: $(load)"
row "what" "bytes" "first s" "steady s" "peak RSS MiB"
row "" "" "wall / cpu" "wall / cpu" "first, steady"
sleep "$pause"
fwd_first=$(forward_seconds)
fwd_steady=$(forward_seconds)
row "forward pass (mhaviz-bench)" "-" "$fwd_first" "$fwd_steady"
summary=()
for format in npz npz-compress safetensors; do
  out=$work/r.${format%-compress}
  args=(run --config "$work/big.json" --out "$out")
  [ "$format" = npz-compress ] && args+=(--compress)
  twice "$out" "$format" "$cli" "${args[@]}"
  run_first=$first run_steady=$steady
  row "run --out r.${format/-/ --}" "$bytes" "$first" "$steady" "$rss_first" "$rss_steady"
  [ "$format" = npz-compress ] && continue
  twice "$work/dd.bin" dd dd if=/dev/zero of="$work/dd.bin" bs=4M iflag=count_bytes count="$bytes"
  row "dd of the same bytes" "$bytes" "$first" "$steady"
  summary+=("$format: first $(ratio "$run_first" "$fwd_first" "$first"), steady $(ratio "$run_steady" "$fwd_steady" "$steady")")
done
echo "run / (forward + dd), wall times (cpu = user + system of the process; the forward pass"
echo "is mhaviz-bench's real time of one pass):"
printf '  %s\n' "${summary[@]}"
echo "load average (1, 5, 15 min) at the end: $(load)"
