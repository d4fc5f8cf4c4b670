#!/usr/bin/python3
"""Side-by-side: PyTorch's nn.MultiheadAttention forward against mhaviz-bench, in one run.

Usage:  /usr/bin/python3 tests/bench/compare_torch.py [--bench build/bin/mhaviz-bench]
            [--kernels-bench build/bin/mhaviz-kernels-bench] [--threads 1 2] [--repeat 5]
            [--json FILE]

For each size of issue 9 and each thread count it prints PyTorch's time (eval mode,
need_weights=True, average_attn_weights=False, float32, same shapes, same thread count),
mhaviz's warm time and its first-run time (one pass in a fresh process), the ratio
torch/mhaviz (above 1: mhaviz is faster), each side's share of the FMA peak (the FP32 FMA
peak of one core that `mhaviz-kernels-bench --peak` measures in the same run, times the
thread count) and the share of that peak mhaviz would need to reach the goal of issue 30
(1 thread: torch/mhaviz 4x at the smallest size, 1.5x at the others); a share above 100 %
is a goal the arithmetic does not allow.

PyTorch is measured at its best: the script re-runs itself with
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295
so that glibc keeps freed blocks and reuses them (on VMs where first touching fresh memory
costs seconds per GiB, torch otherwise faults its buffers in again on every call), and without
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, so that OpenBLAS picks its kernels for the CPU it runs
on (a machine may set them, e.g. OPENBLAS_CORETYPE=Haswell, which holds it to AVX2). When the
kernels OpenBLAS picks are narrower than the CPU's vectors (an OpenBLAS too old to know the
CPU falls back to generic SSE3 ones such as Prescott), the script measures a 2048^3 sgemm of
each wider kernel set the CPU can run (SkylakeX, Cooperlake: AVX-512; Haswell: AVX2) in a
process of its own, checks its product against a float64 one, and runs torch with the fastest
(OPENBLAS_CORETYPE set in torch's process); it prints what it tried and why. Every size is
warmed up before it is timed. Only torch's process runs that way: mhaviz-bench and
mhaviz-kernels-bench are started with the environment this script was started with. --json
FILE also writes every figure to FILE (scripts/perf-report reads it). Needs Debian's
python3-torch; for a comparison against OpenBLAS rather than the reference BLAS install
libopenblas0-pthread.
"""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import time

SIZES = [(2, 16, 16, 64, 4), (4, 128, 128, 256, 8), (1, 512, 512, 512, 8),
         (8, 512, 512, 768, 12), (1, 2048, 2048, 512, 8)]


def goal(size, threads):
    """Issue 30's goal for torch/mhaviz at `size` (set for 1 thread only), or None."""
    if threads != 1:
        return None
    return 4.0 if size == SIZES[0] else 1.5


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


def best_time(fn, repeat, min_seconds=0.3, warm=3):
    for _ in range(warm):  # warm up: buffers allocated, caches and allocator settled
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


def sgemm_rate(torch, n, repeat, warm=3):
    """GFLOP/s of torch's n^3 sgemm, best of `repeat`."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    t = best_time(lambda: torch.mm(a, b), repeat, min_seconds=0.0, warm=warm)
    return 2 * n ** 3 / t / 1e9


TUNABLES = "glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295"
# Unset in torch's process only (never in mhaviz's, never in tests).
RIVAL_UNSET = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
# Set by the re-run: the values the script was started with, as JSON ({name: value or null}).
STARTED_WITH = "MHAVIZ_COMPARE_STARTED_WITH"
# Set by the re-run: which OpenBLAS kernels torch runs with and why (JSON, see choose_blas).
BLAS_CHOICE = "MHAVIZ_COMPARE_BLAS_CHOICE"

# OpenBLAS's kernel sets by the widest vectors they use; the others (Prescott, Nehalem, Core2,
# Sandybridge, ...) are narrower than AVX2.
AVX512_CORES = ("skylakex", "cooperlake", "sapphirerapids")
AVX2_CORES = AVX512_CORES + ("haswell", "zen")
# What each wider set needs of the CPU (/proc/cpuinfo flags), widest first.
CANDIDATES = [("SkylakeX", ("avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd")),
              ("Cooperlake", ("avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd",
                              "avx512_bf16")),
              ("Haswell", ("avx2", "fma"))]
PROBE_SIZE = 2048


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def vector_width(core, flags=None):
    """512, 256 or 128: the widest vectors of OpenBLAS kernel set `core`, or of the CPU whose
    /proc/cpuinfo flags are `flags`."""
    if flags is not None:
        return 512 if "avx512f" in flags else 256 if {"avx2", "fma"} <= flags else 128
    name = (core or "").lower()
    return 512 if name in AVX512_CORES else 256 if name in AVX2_CORES else 128


def probe_blas():
    """--probe-blas (in a process of its own): the kernel set OpenBLAS runs, the GFLOP/s of a
    PROBE_SIZE^3 sgemm on one thread and its largest error against a float64 product (relative
    to the largest element), as one JSON line."""
    import torch
    torch.set_num_threads(1)
    torch.randn(64, 64) @ torch.randn(64, 64)
    libs = blas_libraries()
    set_blas_threads(libs, 1)
    a, b = torch.randn(PROBE_SIZE, PROBE_SIZE), torch.randn(PROBE_SIZE, PROBE_SIZE)
    want = a.double() @ b.double()
    error = float(((a @ b).double() - want).abs().max() / want.abs().max())
    print(json.dumps({"core": openblas_core(libs), "gflops": sgemm_rate(torch, PROBE_SIZE, 3, 1),
                      "error": error}))


def run_probe(env):
    """probe_blas() in a child process with `env`; None when it failed (e.g. a kernel set
    this CPU cannot run stops it with SIGILL)."""
    done = subprocess.run([sys.executable, os.path.abspath(__file__), "--probe-blas"],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return None
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def choose_blas(env):
    """The OpenBLAS kernel set torch runs with: its own choice, unless that is narrower than
    this CPU's vectors; then the fastest correct one of its own and CANDIDATES. Sets
    OPENBLAS_CORETYPE in `env` when it is not OpenBLAS's own choice. Returns {"core": name,
    "reason": text, "tried": {name: GFLOP/s or null}}."""
    own = run_probe(env)
    if own is None or own["core"] is None:
        return {"core": None, "reason": "not OpenBLAS (or it could not be probed)", "tried": {}}
    flags = cpu_flags()
    cpu_width = vector_width(None, flags)
    if vector_width(own["core"]) >= cpu_width:
        return {"core": own["core"], "reason": "OpenBLAS's own choice for this CPU",
                "tried": {}}
    good = lambda p: p is not None and p["error"] < 1e-4
    results = {own["core"]: own}
    for name, needs in CANDIDATES:
        if set(needs) <= flags:
            results[name] = run_probe(dict(env, OPENBLAS_CORETYPE=name))
            if results[name] is not None and results[name]["core"] != name:
                results[name] = None  # OpenBLAS did not take the name
    tried = {name: (round(p["gflops"], 1) if good(p) else None) for name, p in results.items()}
    best = max((name for name in results if good(results[name])),
               key=lambda name: results[name]["gflops"], default=own["core"])
    measured = ", ".join(f"{name} {rate} GFLOP/s" if rate is not None else
                         f"{name} failed or wrong"
                         for name, rate in tried.items())
    reason = (f"by itself OpenBLAS chose {own['core']}, kernels for {vector_width(own['core'])}-bit "
              f"vectors on a CPU with {cpu_width}-bit ones (it does not know this CPU); sgemm "
              f"{PROBE_SIZE}³ on 1 thread, checked against float64: {measured}; the fastest kept")
    if best != own["core"]:
        env["OPENBLAS_CORETYPE"] = best
    return {"core": best, "reason": reason, "tried": tried}


def rival_environment(tunables):
    """The environment torch's process runs in: glibc's tunables set (unless not `tunables`),
    RIVAL_UNSET unset, OpenBLAS's kernels chosen (choose_blas), and the values they replace
    kept in STARTED_WITH."""
    names = ("GLIBC_TUNABLES",) + RIVAL_UNSET
    env = dict(os.environ)
    env[STARTED_WITH] = json.dumps({k: os.environ.get(k) for k in names})
    for name in RIVAL_UNSET:
        env.pop(name, None)
    if tunables:
        env["GLIBC_TUNABLES"] = TUNABLES
    env[BLAS_CHOICE] = json.dumps(choose_blas(env))
    return env


def mhaviz_environment():
    """The environment this script was started with, for mhaviz's programs."""
    env = dict(os.environ)
    env.pop(BLAS_CHOICE, None)
    for name, value in json.loads(env.pop(STARTED_WITH, "{}")).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def fma_peak(kernels_bench, repeat):
    """The FP32 FMA peak of one core in GFLOP/s (the widest vectors the CPU has), as
    mhaviz-kernels-bench --peak measures it, and the line it printed; (None, line) when the
    CPU has no AVX2+FMA."""
    line = subprocess.run([kernels_bench, "--peak", "--reps", str(repeat)], check=True,
                          capture_output=True, text=True, env=mhaviz_environment()).stdout.strip()
    rate = re.search(r"one core: [^(]*?([\d.]+) GFLOP/s", line)
    return (float(rate.group(1)) if rate else None), line


def mhaviz_first_run(bench, size, threads):
    """One forward pass in a fresh mhaviz-bench process (memory never touched before)."""
    arg = "--first-run=%s/%d" % ("/".join(map(str, size)), threads)
    out = subprocess.run([bench, arg], check=True, capture_output=True, text=True,
                         env=mhaviz_environment()).stdout
    return float(out.split()[-2]) * 1e-3  # "first run N/L/S/E/H/T: X ms"


def mhaviz_times(bench, size, threads, repeat):
    """mhaviz-bench's median time for one size and thread count (with one repetition, Google
    Benchmark reports that run and no aggregates)."""
    pattern = "^forward/%s/%d/real_time$" % ("/".join(map(str, size)), threads)
    out = subprocess.run([bench, "--benchmark_filter=" + pattern, "--benchmark_format=json",
                          "--benchmark_repetitions=%d" % repeat,
                          "--benchmark_report_aggregates_only=true"],
                         check=True, capture_output=True, text=True,
                         env=mhaviz_environment()).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        kind = b.get("aggregate_name") if b.get("run_type") == "aggregate" else "run"
        if kind not in ("median", "run"):
            continue
        parts = b["run_name"].split("/")
        key = (tuple(int(x) for x in parts[1:6]), int(parts[6]))
        scale = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9, "s": 1.0}[b["time_unit"]]
        if kind == "median" or key not in times:
            times[key] = b["real_time"] * scale
    return times


def percent(share):
    return "-" if share is None else "%.0f%%" % (100 * share)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if sys.argv[1:] == ["--probe-blas"]:
        probe_blas()
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(root, "build", "bin", "mhaviz-bench"))
    ap.add_argument("--kernels-bench", help="mhaviz-kernels-bench (default: beside --bench)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-tunables", action="store_true",
                    help="measure torch with glibc's default malloc settings (not its best)")
    ap.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    names = ["/".join(map(str, size)) for size in SIZES]
    ap.add_argument("--sizes", nargs="+", metavar="N/L/S/E/H", choices=names, default=names,
                    help="only these of mhaviz-bench's sizes (default: all: %s)" % " ".join(names))
    args = ap.parse_args()
    sizes = [size for size, name in zip(SIZES, names) if name in args.sizes]
    if args.repeat < 1:
        ap.error("--repeat wants 1 or more")
    kernels_bench = args.kernels_bench or os.path.join(os.path.dirname(args.bench),
                                                       "mhaviz-kernels-bench")
    for exe in (args.bench, kernels_bench):
        if not os.path.exists(exe):
            sys.exit("compare_torch: %s not found; build it with scripts/build release" % exe)
    if STARTED_WITH not in os.environ:  # re-run in the environment torch is best in
        try:
            import torch  # noqa: F401 (only whether it is there)
        except ImportError:
            sys.exit("compare_torch: PyTorch is not installed (Debian package python3-torch)")
        env = rival_environment(not args.no_tunables)
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    import torch

    torch.randn(64, 64) @ torch.randn(64, 64)
    libs = blas_libraries()
    core = openblas_core(libs)
    choice = json.loads(os.environ.get(BLAS_CHOICE, "{}"))
    started = json.loads(os.environ[STARTED_WITH])
    unset = ", ".join("%s (was %s)" % (k, started[k]) if started.get(k) else k
                      for k in RIVAL_UNSET)
    malloc = ("GLIBC_TUNABLES=" + os.environ["GLIBC_TUNABLES"]
              if os.environ.get("GLIBC_TUNABLES") else "glibc defaults")
    kernels = "%s (%s)" % (core, choice.get("reason", "")) if core else None
    print("torch %s, BLAS: %s" % (torch.__version__, ", ".join(libs) or "unknown"))
    if kernels:
        print("OpenBLAS kernels: %s" % kernels)
    print("torch's malloc: %s" % malloc)
    print("unset in torch's process: %s%s" % (
        unset, "; set: OPENBLAS_CORETYPE=%s" % os.environ["OPENBLAS_CORETYPE"]
        if os.environ.get("OPENBLAS_CORETYPE") else ""))
    report = {"torch": torch.__version__, "blas": libs, "openblas_core": core,
              "openblas_choice": choice, "torch_malloc": malloc, "unset_for_torch": unset,
              "set_for_torch": os.environ.get("OPENBLAS_CORETYPE"), "repeat": args.repeat,
              "runs": []}
    for threads in args.threads:
        torch.set_num_threads(threads)
        if not set_blas_threads(libs, threads):
            print("note: not OpenBLAS; its thread count follows its own environment variables")
        one_core, peak_line = fma_peak(kernels_bench, args.repeat)
        peak = one_core * threads if one_core else None
        share = (lambda gflops: gflops / peak) if peak else (lambda gflops: None)
        sgemm = sgemm_rate(torch, 4096, args.repeat)
        print("\n%d thread(s): %s" % (threads, peak_line))
        print("FMA peak x %d thread(s) = %s; torch's sgemm 4096^3 %.1f GFLOP/s (%s of it)" % (
            threads, "%.1f GFLOP/s" % peak if peak else "-", sgemm, percent(share(sgemm))))
        print("%-20s %9s %9s %7s %8s %9s %9s %5s %9s %10s" % (
            "size N/L/S/E/H", "torch ms", "mhaviz ms", "ratio", "GFLOP/s", "mh %peak",
            "tch %peak", "goal", "goal %pk", "mh 1st ms"))
        run = {"threads": threads, "fma_peak_one_core": one_core, "fma_peak": peak,
               "fma_peak_line": peak_line, "sgemm_gflops": sgemm, "rows": []}
        report["runs"].append(run)
        for size in sizes:
            # One size at a time, mhaviz then torch, so that a change in the machine's speed
            # during the run (other work, a shared host) touches both sides of a ratio alike.
            t_mh = mhaviz_times(args.bench, size, threads, args.repeat)[(size, threads)]
            t_torch = torch_time(torch, size, args.repeat)
            t_first = mhaviz_first_run(args.bench, size, threads)
            rate, torch_rate = flops(*size) / t_mh / 1e9, flops(*size) / t_torch / 1e9
            target = goal(size, threads)
            needs = share(torch_rate * target) if target else None  # mhaviz's share at the goal
            print("%-20s %9.3f %9.3f %6.2fx %8.1f %9s %9s %5s %9s %10.1f" % (
                "/".join(map(str, size)), t_torch * 1e3, t_mh * 1e3, t_torch / t_mh, rate,
                percent(share(rate)), percent(share(torch_rate)),
                "%.1fx" % target if target else "-", percent(needs), t_first * 1e3), flush=True)
            run["rows"].append({"size": list(size), "torch_ms": t_torch * 1e3,
                                "mhaviz_ms": t_mh * 1e3, "ratio": t_torch / t_mh,
                                "gflops": rate, "peak_share": share(rate),
                                "torch_peak_share": share(torch_rate), "goal": target,
                                "goal_peak_share": needs, "first_ms": t_first * 1e3})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
