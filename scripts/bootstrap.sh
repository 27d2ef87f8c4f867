#!/usr/bin/env bash
# Installs what Tandem needs on a fresh Debian machine; safe to run again (does nothing when
# everything is there). Used by `make demo`, `make test` and CI.
#
#   clang-16, llvm-16-dev, libpolly-16-dev, libzstd-dev  C++ front end (llvm-ir, feature llvm-16)
#                                                        and the native build of NFs
#   tcpdump                                              tests check that our pcaps open with it
#   valgrind                                             `tandem bench` counts instructions with
#                                                        callgrind
#   chromium                                             the HTML report's test renders it in a
#                                                        real headless browser
#   Rust (rustup) with rustfmt and clippy                the workspace (rust-toolchain.toml)
set -euo pipefail

APT_PACKAGES=(clang-16 llvm-16-dev libpolly-16-dev libzstd-dev tcpdump valgrind chromium)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    echo "bootstrap: Rust is missing; install it with rustup (https://rustup.rs), then rerun" >&2
    exit 1
  fi
fi
if command -v rustup >/dev/null 2>&1; then
  for c in rustfmt clippy; do
    rustup component list --installed 2>/dev/null | grep -q "^$c" || rustup component add "$c"
  done
fi

command -v clang++-16 >/dev/null 2>&1 || [ -x /usr/lib/llvm-16/bin/clang++ ] || {
  echo "bootstrap: clang++-16 not found after installing clang-16" >&2
  exit 1
}
[ -x /usr/lib/llvm-16/bin/llvm-config ] || {
  echo "bootstrap: /usr/lib/llvm-16/bin/llvm-config missing (llvm-16-dev)" >&2
  exit 1
}
