#!/usr/bin/python3
"""check_baseline_code.py PROGRAM...: fails when a program has instructions beyond the x86-64
baseline (VEX/EVEX-encoded, ymm/zmm or mask registers) outside the code that chooses them at
run time: the core's per-instruction-set kernels (namespaces isa_avx2, isa_avx512, and the
renamed Eigen each of them alone uses, mhaviz_eigen_avx2 and mhaviz_eigen_avx512, out of line
in builds that inline less, e.g. the sanitizers'; cmake/IsaKernels.cmake) and libxsmm's own dispatched helpers (internal_*_avx2 and the like).
Such an instruction would stop the program with SIGILL on a CPU without AVX."""
import re
import subprocess
import sys

HEADER = re.compile(r'^[0-9a-f]+ <(.*)>:$')
WIDE_REGISTER = re.compile(r'%[yz]mm\d|%k[0-7]\b')
CHOSEN_AT_RUN_TIME = re.compile(r'::isa_avx(2|512)::|mhaviz_eigen_avx(2|512)::|^internal_\w+_avx(2|512)\w*$|^libxsmm_\w+_avx(2|512)\w*$')


def wide_functions(program):
    listing = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-C', program],
                             capture_output=True, text=True, check=True).stdout
    found, function = {}, None
    for line in listing.splitlines():
        header = HEADER.match(line)
        if header:
            function = header.group(1)
            continue
        fields = line.split('\t')
        if len(fields) < 2 or function is None:
            continue
        instruction = fields[-1].strip()
        mnemonic = instruction.split(' ')[0]
        if (mnemonic.startswith('v') and mnemonic not in ('verr', 'verw')) or \
                WIDE_REGISTER.search(instruction):
            found[function] = found.get(function, 0) + 1
    return found


status = 0
for program in sys.argv[1:]:
    found = wide_functions(program)
    foreign = {f: n for f, n in found.items() if not CHOSEN_AT_RUN_TIME.search(f)}
    if foreign:
        status = 1
        print(f'{program}: {len(foreign)} function(s) with instructions beyond x86-64 '
              'that are not chosen at run time:', file=sys.stderr)
        for f, n in sorted(foreign.items(), key=lambda item: -item[1])[:15]:
            print(f'  {n:5d}  {f[:160]}', file=sys.stderr)
    else:
        print(f'{program}: baseline x86-64, wider code only in {len(found)} function(s) '
              'chosen at run time')
sys.exit(status)
