#!/usr/bin/python3
"""Side-by-side: PyTorch's nn.MultiheadAttention forward against mhaviz-bench, in one run.

Usage:  /usr/bin/python3 tests/bench/compare_torch.py [--bench build/bin/mhaviz-bench]
            [--threads 1 2] [--repeat 5] [--json FILE]

For each size of issue 9 and each thread count it prints PyTorch's time (eval mode,
need_weights=True, average_attn_weights=False, float32, same shapes, same thread count),
mhaviz's warm time and its first-run time (one pass in a fresh process), the ratio
torch/mhaviz (above 1: mhaviz is faster) and mhaviz's share of the sgemm rate (a 4096^3
sgemm with the same BLAS torch uses, same thread count).

PyTorch is measured at its best: the script re-runs itself with
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295
so that glibc keeps freed blocks and reuses them (on VMs where first touching fresh memory
costs seconds per GiB, torch otherwise faults its buffers in again on every call), and without
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, so that OpenBLAS picks its kernels for the CPU it runs
on (a machine may set them, e.g. OPENBLAS_CORETYPE=Haswell, which holds it to AVX2); every size
is warmed up before it is timed. Only torch's process runs that way: mhaviz-bench is started
with the environment this script was started with. --json FILE also writes every figure to
FILE (scripts/perf-report reads it). Needs Debian's python3-torch; for a comparison against
OpenBLAS rather than the reference BLAS install libopenblas0-pthread.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys
import time

SIZES = [(2, 16, 16, 64, 4), (4, 128, 128, 256, 8), (1, 512, 512, 512, 8),
         (8, 512, 512, 768, 12), (1, 2048, 2048, 512, 8)]


def flops(n, l, s, e, h):
    """Same count as mhaviz-bench: projections, scores, weights @ v, out_proj."""
    hd = e // h
    return 2 * n * l * e * e + 4 * n * s * e * e + 4 * n * h * l * s * hd + 2 * n * l * e * e


def blas_libraries():
    with open("/proc/self/maps") as maps:
        return sorted({line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line})


def openblas_core(libs):
    """The kernel set OpenBLAS chose for this CPU ("Haswell", "Cooperlake", ...), or None."""
    for path in libs:
        lib = ctypes.CDLL(path)
        if hasattr(lib, "openblas_get_corename"):
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return lib.openblas_get_corename().decode()
    return None


def set_blas_threads(libs, threads):
    """torch.set_num_threads does not reach OpenBLAS's own pool in Debian's torch: without
    this, a "1 thread" torch run would multiply matrices on every core. Returns whether the
    BLAS in use could be told."""
    for path in libs:
        lib = ctypes.CDLL(path)
        if hasattr(lib, "openblas_set_num_threads"):
            lib.openblas_set_num_threads(threads)
            return True
    return False


def best_time(fn, repeat, min_seconds=0.3):
    for _ in range(3):  # warm up: buffers allocated, caches and allocator settled
        fn()
    best = float("inf")
    for _ in range(repeat):
        count, start = 0, time.perf_counter()
        while True:
            fn()
            count += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds or count >= 50:
                break
        best = min(best, elapsed / count)
    return best


def torch_time(torch, size, repeat):
    n, l, s, e, h = size
    mha = torch.nn.MultiheadAttention(e, h).eval()
    q, k, v = torch.randn(l, n, e), torch.randn(s, n, e), torch.randn(s, n, e)

    def run():
        with torch.no_grad():  # distinct q/k/v and need_weights=True: general path anyway
            mha(q, k, v, need_weights=True, average_attn_weights=False)
    return best_time(run, repeat)


def sgemm_peak(torch, repeat):
    a, b = torch.randn(4096, 4096), torch.randn(4096, 4096)
    t = best_time(lambda: torch.mm(a, b), repeat)
    return 2 * 4096 ** 3 / t / 1e9


TUNABLES = "glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295"
# Unset in torch's process only (never in mhaviz's, never in tests).
RIVAL_UNSET = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
# Set by the re-run: the values the script was started with, as JSON ({name: value or null}).
STARTED_WITH = "MHAVIZ_COMPARE_STARTED_WITH"


def rival_environment(tunables):
    """The environment torch's process runs in: glibc's tunables set (unless not `tunables`),
    RIVAL_UNSET unset, and the values they replace kept in STARTED_WITH."""
    names = ("GLIBC_TUNABLES",) + RIVAL_UNSET
    env = dict(os.environ)
    env[STARTED_WITH] = json.dumps({k: os.environ.get(k) for k in names})
    for name in RIVAL_UNSET:
        env.pop(name, None)
    if tunables:
        env["GLIBC_TUNABLES"] = TUNABLES
    return env


def mhaviz_environment():
    """The environment this script was started with, for mhaviz-bench."""
    env = dict(os.environ)
    for name, value in json.loads(env.pop(STARTED_WITH, "{}")).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def mhaviz_first_run(bench, size, threads):
    """One forward pass in a fresh mhaviz-bench process (memory never touched before)."""
    arg = "--first-run=%s/%d" % ("/".join(map(str, size)), threads)
    out = subprocess.run([bench, arg], check=True, capture_output=True, text=True,
                         env=mhaviz_environment()).stdout
    return float(out.split()[-2]) * 1e-3  # "first run N/L/S/E/H/T: X ms"


def mhaviz_times(bench, size, threads, repeat):
    """mhaviz-bench's median time for one size and thread count."""
    pattern = "^forward/%s/%d/real_time$" % ("/".join(map(str, size)), threads)
    out = subprocess.run([bench, "--benchmark_filter=" + pattern, "--benchmark_format=json",
                          "--benchmark_repetitions=%d" % repeat,
                          "--benchmark_report_aggregates_only=true"],
                         check=True, capture_output=True, text=True,
                         env=mhaviz_environment()).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "min" and b.get("aggregate_name") != "median":
            continue
        parts = b["run_name"].split("/")
        key = (tuple(int(x) for x in parts[1:6]), int(parts[6]))
        scale = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9, "s": 1.0}[b["time_unit"]]
        if b["aggregate_name"] == "median" or key not in times:
            times[key] = b["real_time"] * scale
    return times


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(root, "build", "bin", "mhaviz-bench"))
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-tunables", action="store_true",
                    help="measure torch with glibc's default malloc settings (not its best)")
    ap.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    args = ap.parse_args()
    if STARTED_WITH not in os.environ:  # re-run in the environment torch is best in
        env = rival_environment(not args.no_tunables)
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    try:
        import torch
    except ImportError:
        sys.exit("compare_torch: PyTorch is not installed (Debian package python3-torch)")
    if not os.path.exists(args.bench):
        sys.exit("compare_torch: %s not found; build it with scripts/build release" % args.bench)

    torch.randn(64, 64) @ torch.randn(64, 64)
    libs = blas_libraries()
    core = openblas_core(libs)
    started = json.loads(os.environ[STARTED_WITH])
    unset = ", ".join("%s (was %s)" % (k, started[k]) if started.get(k) else k
                      for k in RIVAL_UNSET)
    malloc = ("GLIBC_TUNABLES=" + os.environ["GLIBC_TUNABLES"]
              if os.environ.get("GLIBC_TUNABLES") else "glibc defaults")
    print("torch %s, BLAS: %s%s" % (torch.__version__, ", ".join(libs) or "unknown",
                                    ", OpenBLAS core: %s" % core if core else ""))
    print("torch's malloc: %s" % malloc)
    print("unset in torch's process: %s" % unset)
    report = {"torch": torch.__version__, "blas": libs, "openblas_core": core,
              "torch_malloc": malloc, "unset_for_torch": unset, "repeat": args.repeat,
              "runs": []}
    for threads in args.threads:
        torch.set_num_threads(threads)
        if not set_blas_threads(libs, threads):
            print("note: not OpenBLAS; its thread count follows its own environment variables")
        peak = sgemm_peak(torch, args.repeat)
        print("\n%d thread(s): sgemm 4096^3 peak %.1f GFLOP/s" % (threads, peak))
        print("%-22s %10s %10s %8s %9s %6s %12s" % ("size N/L/S/E/H", "torch ms", "mhaviz ms",
                                                  "ratio", "GFLOP/s", "%sgemm",
                                                  "mh first ms"))
        run = {"threads": threads, "sgemm_gflops": peak, "rows": []}
        report["runs"].append(run)
        for size in SIZES:
            # One size at a time, mhaviz then torch, so that a change in the machine's speed
            # during the run (other work, a shared host) touches both sides of a ratio alike.
            t_mh = mhaviz_times(args.bench, size, threads, args.repeat)[(size, threads)]
            t_torch = torch_time(torch, size, args.repeat)
            t_first = mhaviz_first_run(args.bench, size, threads)
            rate = flops(*size) / t_mh / 1e9
            print("%-22s %10.3f %10.3f %7.2fx %9.1f %5.0f%% %12.1f" % (
                "/".join(map(str, size)), t_torch * 1e3, t_mh * 1e3, t_torch / t_mh, rate,
                100 * rate / peak, t_first * 1e3), flush=True)
            run["rows"].append({"size": list(size), "torch_ms": t_torch * 1e3,
                                "mhaviz_ms": t_mh * 1e3, "ratio": t_torch / t_mh,
                                "gflops": rate, "sgemm_share": rate / peak,
                                "first_ms": t_first * 1e3})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
