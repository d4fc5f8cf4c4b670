#!/usr/bin/env bash
# Checks the Debian package that scripts/package built: tests/package/check_package.sh DEB
#   - its version is project(VERSION), and so are the changelog's, the metainfo's release (its
#     date the changelog's), mhaviz-cli --version and mhaviz_capture.__version__
#   - lintian: no error and no warning; desktop-file-validate; appstreamcli validate --no-net
#   - installed into a scratch root (dpkg -x, no root needed), from there: the manual pages and
#     the bash completion, mhaviz-cli --version, mhaviz-cli export of an example,
#     import mhaviz_capture, a TransformerEncoderLayer captured by the installed module
#     (capture_model under torch.no_grad(), PyTorch's fused path, and capture()) and checked by
#     the installed mhaviz-cli (model --check; run + python3 -m mhaviz_capture compare), and the
#     installed window started on it by mhaviz_capture.show() (offscreen)
#   - pip install of tools/ into a virtual environment (offline: Debian's setuptools, numpy
#     and torch through --system-site-packages)
# The package holds no libraries of its own: the programs run from the scratch root with the
# system's Qt; PATH and PYTHONPATH point into the root.
set -euo pipefail
deb="$(realpath "$1")"
cd "$(dirname "$0")/../.."
python=/usr/bin/python3
work="$(mktemp -d "${TMPDIR:-/tmp}/mhaviz-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/root"
failures=0

check() {  # check WHAT COMMAND...: runs the command, prints "ok: WHAT" or "FAILED: WHAT"
  local what="$1"
  shift
  if "$@" >"$work/out" 2>&1; then
    echo "ok: $what"
  else
    echo "FAILED: $what"
    sed 's/^/    /' "$work/out"
    failures=$((failures + 1))
  fi
}
same() { [ "$1" = "$2" ] || { echo "'$1' is not '$2'"; return 1; }; }
contains() { grep -qF -- "$2" <<<"$1" || { echo "'$2' not in: $1"; return 1; }; }

version="$(sed -nE 's/^project\(mhaviz VERSION ([0-9.]+).*/\1/p' CMakeLists.txt)"
check "package version is project(VERSION) $version" same "$(dpkg-deb -f "$deb" Version)" "$version"
echo "package: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB, $(dpkg-deb -f "$deb" Installed-Size) KiB installed"
echo "Depends: $(dpkg-deb -f "$deb" Depends)"

lint() {
  local rc=0
  lintian --fail-on error,warning "$deb" >"$work/lintian" 2>&1 || rc=$?
  grep -v '^running with root privileges' "$work/lintian" || true
  return $rc
}
check "lintian: no error, no warning" lint
cat "$work/out"

dpkg -x "$deb" "$root"
share="$root/usr/share"
check "desktop-file-validate" desktop-file-validate "$share/applications/mhaviz.desktop"
# The component ID is not a reverse domain name: the project has no domain of its own yet.
validate() { appstreamcli validate --no-net --override=cid-desktopapp-is-not-rdns=info "$@"; }
check "appstreamcli validate --no-net (installed metainfo)" validate "$share/metainfo/mhaviz.metainfo.xml"
sed 's|@MHAVIZ_SCREENSHOT_BASE_URL@|https://example.org/docs/images|' \
  resources/package/mhaviz.metainfo.xml.in >"$work/mhaviz.metainfo.xml"
check "appstreamcli validate --no-net (with screenshots)" validate "$work/mhaviz.metainfo.xml"
screenshots_exist() {
  local image
  for image in $(sed -nE 's|.*@/([^<]+)</image>.*|\1|p' resources/package/mhaviz.metainfo.xml.in); do
    [ -f "docs/images/$image" ] || { echo "docs/images/$image is missing"; return 1; }
  done
}
check "the screenshots are in docs/images" screenshots_exist
release="$(sed -nE 's|.*<release version="([^"]+)".*|\1|p' "$share/metainfo/mhaviz.metainfo.xml" | head -1)"
check "metainfo's release is $version" same "$release" "$version"
zcat "$share/doc/mhaviz/changelog.gz" >"$work/changelog"
check "changelog's version is $version" same "$(dpkg-parsechangelog -l "$work/changelog" -S Version)" "$version"
release_date="$(sed -nE 's|.*<release version="[^"]+" date="([^"]+)".*|\1|p' "$share/metainfo/mhaviz.metainfo.xml" | head -1)"
check "metainfo's release date is the changelog's" \
  same "$release_date" "$(date -u -d "$(dpkg-parsechangelog -l "$work/changelog" -S Date)" +%F)"
manpages() {
  local page
  for page in mhaviz mhaviz-cli; do
    man -l "$share/man/man1/$page.1.gz" 2>&1 | grep -q "^SYNOPSIS" || return 1
  done
  man -l "$share/man/man1/mhaviz-cli.1.gz" 2>/dev/null | grep -qE '^   export$'
}
check "manual pages mhaviz(1), mhaviz-cli(1) with its commands" manpages

export PATH="$root/usr/bin:$PATH" PYTHONPATH="$root/usr/lib/python3/dist-packages"
export QT_QPA_PLATFORM=offscreen
completes() {  # completes "WORDS" EXPECTED: bash completion of the last word offers EXPECTED
  local got
  got="$(bash -c 'source "$1"; read -ra COMP_WORDS <<<"$2"; [[ $2 == *" " ]] && COMP_WORDS+=("")
                  COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _mhaviz_cli; echo "${COMPREPLY[*]}"' \
         _ "$share/bash-completion/completions/mhaviz-cli" "$1")"
  same "$got" "$2"
}
completion() {
  completes "mhaviz-cli ex" export &&
    completes "mhaviz-cli export --ima" --image &&
    completes "mhaviz-cli stats --format " "csv json" &&
    completes "mhaviz-cli model --check --tol" --tolerance &&
    completes "mhaviz-cli model --check --max-m" --max-memory &&
    completes "mhaviz-cli run --batch " "" &&
    completes "mhaviz-cli export --config $share/mhaviz/examples/causal_" \
      "$share/mhaviz/examples/causal_self_attention.json"
}
check "bash completion of commands, options, choices and files" completion

check "mhaviz-cli --version" same "$(mhaviz-cli --version)" "mhaviz-cli $version"
export_example() {
  mhaviz-cli export --config "$share/mhaviz/examples/causal_self_attention.json" \
    --image "$work/causal.png" && same "$(head -c 4 "$work/causal.png" | tail -c 3)" PNG
}
check "mhaviz-cli export of an installed example" export_example
imports() {
  same "$($python -c 'import mhaviz_capture as m; print(m.__file__, m.__version__)')" \
    "$PYTHONPATH/mhaviz_capture/__init__.py $version"
}
check "import mhaviz_capture from the package" imports

cat >"$work/capture.py" <<'PY'
import sys, time
import torch
import mhaviz_capture
prefix = sys.argv[1]
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(16, 4, 32, batch_first=True).eval()
x = torch.randn(2, 6, 16)
pad = torch.zeros(2, 6, dtype=torch.bool)
pad[1, 4:] = True
with torch.no_grad(), mhaviz_capture.capture_model(layer, prefix + "model", tokens=list("abcdef")):
    layer(x, src_key_padding_mask=pad)
with torch.no_grad(), mhaviz_capture.capture(layer.self_attn, prefix + "layer") as cap:
    layer(x, src_key_padding_mask=pad)
assert cap.fused, "PyTorch's fused encoder-layer path did not run"
window = mhaviz_capture.show(prefix + "model")
time.sleep(4)
assert window.poll() is None, f"the window exited with {window.returncode}"
window.terminate()
window.wait()
print("captured; the window stayed open")
PY
check "python3 capture of a TransformerEncoderLayer; mhaviz_capture.show() opens it" \
  $python "$work/capture.py" "$work/"
cat "$work/out"
model_check() {
  local out
  out="$(mhaviz-cli model --model "$work/model.json" --check)" && contains "$out" "match PyTorch"
}
check "installed mhaviz-cli model --check of the capture" model_check
check "installed mhaviz-cli run + python3 -m mhaviz_capture compare" bash -c '
  mhaviz-cli run --config "$1layer.json" --tensors "$1layer.npz" --out "$1mhaviz.npz" &&
  '"$python"' -m mhaviz_capture compare "$1layer.torch.npz" "$1mhaviz.npz"' _ "$work/"

unset PYTHONPATH
pip_install() {
  cp -r tools "$work/tools" && rm -rf "$work/tools/build" "$work/tools/"*.egg-info &&
    $python -m venv --system-site-packages "$work/venv" &&
    "$work/venv/bin/pip" install --no-build-isolation --no-index "$work/tools" &&
    same "$("$work/venv/bin/python" -c 'import importlib.metadata as m, mhaviz_capture as c
print(m.version("mhaviz-capture"), c.__file__.startswith("'"$work/venv"'"))')" "$version True"
}
check "pip install ./tools in a virtual environment" pip_install

if [ "$failures" -gt 0 ]; then
  echo "package check: $failures failed"
  exit 1
fi
echo "package check: all passed"
