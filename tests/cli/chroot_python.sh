#!/bin/sh
# python3 of the Debian 13 chroot that tests/fixtures/make_torch2_fixtures.sh builds (PyTorch
# 2.x), run with this machine's /tmp and the source tree at the same paths and in the same
# working directory: the PyTorch bridge tests under 2.x (ctest cli-pytorch2, registered when the
# chroot exists). /proc is mounted in a private mount namespace so torch sees the CPU; that
# needs root. Without it, or without the chroot, this exits 1 with the reason, so the bridge
# tests see no torch.
#   MHAVIZ_TRIXIE  the chroot (default /var/tmp/mhaviz-trixie)
root=${MHAVIZ_TRIXIE:-/var/tmp/mhaviz-trixie}
src=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -x "$root/usr/bin/python3" ]; then
  echo "chroot_python.sh: no python3 in $root; build it with tests/fixtures/make_torch2_fixtures.sh" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chroot_python.sh: running python3 in $root needs root (mount namespaces, chroot)" >&2
  exit 1
fi
exec unshare --mount sh -c '
  root=$1 src=$2 cwd=$3
  shift 3
  mkdir -p "$root$src" "$root/tmp" || exit 1
  mount -t proc proc "$root/proc" && mount --bind /tmp "$root/tmp" &&
    mount --bind "$src" "$root$src" || exit 1
  exec chroot "$root" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec python3 \"\$@\"" "$cwd" "$@"
' chroot_python "$root" "$src" "$PWD" "$@"
