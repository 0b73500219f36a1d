#!/usr/bin/env bash
# Installs what building, running and testing push-emulator needs, only when it is missing:
# Debian packages (nghttp2, OpenSSL and tcmalloc headers, curl, h2load/nghttp, nghttpd, wrk, prlimit) and, with
# --python, Debian's Chromium and chromedriver (the web inbox's browser tests), a local virtualenv (.venv)
# with the test clients from PyPI (Selenium drives that Chromium) and one (.build-legacy/venv) with
# the old SDK versions that used FCM's removed endpoints; with --perf, valgrind and strip
# for scripts/perf-count.sh; with --docker, only what scripts/docker-test.sh needs: podman, runc,
# debootstrap, and podman-compose from PyPI in its own virtualenv (.build-docker/venv).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
if [ "${1:-}" = "--docker" ]; then
  command -v podman >/dev/null || missing+=(podman)
  command -v runc >/dev/null || missing+=(runc)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  command -v python3 >/dev/null || missing+=(python3)
  python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
else
  pkg-config --exists libnghttp2 2>/dev/null || missing+=(libnghttp2-dev)
  pkg-config --exists openssl 2>/dev/null || missing+=(libssl-dev)
  pkg-config --exists libtcmalloc_minimal 2>/dev/null || missing+=(libgoogle-perftools-dev)
  command -v pkg-config >/dev/null || missing+=(pkg-config)
  command -v curl >/dev/null || missing+=(curl)
  command -v h2load >/dev/null || missing+=(nghttp2-client)
fi
if [ "${1:-}" = "--bench" ] || [ "${1:-}" = "--python" ]; then
  command -v nghttpd >/dev/null || missing+=(nghttp2-server)
  command -v wrk >/dev/null || missing+=(wrk)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v ss >/dev/null || missing+=(iproute2)
  command -v prlimit >/dev/null || missing+=(util-linux)
fi
if [ "${1:-}" = "--python" ]; then
  command -v chromium >/dev/null || missing+=(chromium)
  command -v chromedriver >/dev/null || missing+=(chromium-driver)
fi
if [ "${1:-}" = "--perf" ]; then
  command -v nghttpd >/dev/null || missing+=(nghttp2-server)
  command -v valgrind >/dev/null || missing+=(valgrind)
  command -v strip >/dev/null || missing+=(binutils)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "${1:-}" = "--python" ]; then
  if [ ! -x .venv/bin/python ] || ! cmp -s Tests/EndToEnd/requirements.txt .venv/requirements.installed; then
    echo "install-deps: preparing .venv from Tests/EndToEnd/requirements.txt"
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check -r Tests/EndToEnd/requirements.txt
    cp Tests/EndToEnd/requirements.txt .venv/requirements.installed
  fi
  # The client versions that used FCM's removed endpoints, apart: they pin what .venv's SDKs outgrew.
  legacy=.build-legacy/venv
  if [ ! -x $legacy/bin/python ] || ! cmp -s Tests/EndToEnd/legacy-requirements.txt $legacy/requirements.installed; then
    echo "install-deps: preparing $legacy from Tests/EndToEnd/legacy-requirements.txt"
    python3 -m venv $legacy
    $legacy/bin/pip install -q --disable-pip-version-check -r Tests/EndToEnd/legacy-requirements.txt
    cp Tests/EndToEnd/legacy-requirements.txt $legacy/requirements.installed
  fi
fi

if [ "${1:-}" = "--docker" ]; then
  venv=.build-docker/venv
  if [ ! -x $venv/bin/podman-compose ] || ! cmp -s docker/test/requirements.txt $venv/requirements.installed; then
    echo "install-deps: preparing $venv from docker/test/requirements.txt"
    python3 -m venv $venv
    $venv/bin/pip install -q --disable-pip-version-check -r docker/test/requirements.txt
    cp docker/test/requirements.txt $venv/requirements.installed
  fi
fi
