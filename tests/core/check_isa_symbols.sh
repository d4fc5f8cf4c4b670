#!/bin/sh
# check_isa_symbols.sh ISA OBJECT...: fails when an object compiled for ISA (cmake/IsaKernels.cmake)
# defines a global symbol outside that instruction set's own namespaces (mhaviz_eigen_ISA, the
# renamed Eigen, and mhaviz::detail::kernels::isa_ISA). Such a symbol, an inline function or a
# template instantiated under its usual name, could be chosen by the linker for the copy that
# baseline code elsewhere calls, and stop the program with SIGILL on a CPU without ISA.
# DW.ref.__gxx_personality_v0 is not code: the one pointer to the C++ exception personality
# routine that every object with cleanups shares (builds that inline less, e.g. ASan's).
set -eu
isa=$1
shift
nm="${NM:-nm}"
status=0
for object in "$@"; do
  foreign=$("$nm" --defined-only --extern-only "$object" | awk '{print $3}' |
    grep -v -e "mhaviz_eigen_${isa}" -e "isa_${isa}" -e '^DW\.ref\.__gxx_personality_v0$' || true)
  count=$(printf '%s' "$foreign" | grep -c . || true)
  if [ "$count" -gt 0 ]; then
    echo "$object: $count symbol(s) outside the $isa namespaces:" >&2
    printf '%s\n' "$foreign" | "${CXXFILT:-c++filt}" | head -20 >&2
    status=1
  else
    echo "$object: every defined symbol is in the $isa namespaces"
  fi
done
exit "$status"
