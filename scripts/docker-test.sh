#!/usr/bin/env bash
# Builds docker/Dockerfile with podman and tests the image and docker/compose.yaml, on a machine
# without a Docker engine or an image registry (docs/docker.md, "How make docker-test builds without a registry"):
#   1. podman, runc, debootstrap and podman-compose, when missing (scripts/install-deps.sh --docker);
#   2. the base image debian:bookworm-slim, debootstrapped from the Debian mirror apt uses, and a
#      local swift:6.3-bookworm made from the host's toolchain (/opt/swift) — both under the official
#      names the Dockerfiles use, each built only when missing (--force rebuilds them);
#   3. the project's image; a container of it until healthy (the start-to-healthy time), an FCM send
#      from the host to its published port, the device receiving it; the image's size;
#   4. examples/testcontainers-python (docs/testing.md) through podman's Docker-compatible API;
#   5. compose.yaml under podman-compose: the sample backend must exit 0.
# Containers it started are removed on exit. Usage: scripts/docker-test.sh [--force]
set -euo pipefail
cd "$(dirname "$0")/.."

force=0
[ "${1:-}" = "--force" ] && force=1

work=.build-docker
base_image=docker.io/library/debian:bookworm-slim
builder_image=docker.io/library/swift:6.3-bookworm
image=localhost/push-emulator:latest
backend_image=localhost/push-emulator-sample-backend:latest
build_stage_image=localhost/push-emulator-build-stage:latest   # kept: the next run's layer cache
container=push-emulator-docker-test
host_port=${DOCKER_TEST_PORT:-19499}
compose=(podman-compose --project-name push-emulator-example -f docker/compose.yaml)
export EMULATOR_HOST_PORT=${DOCKER_TEST_COMPOSE_PORT:-19500}   # compose.yaml's published port
total_start=$(date +%s)

say() { echo "docker-test: $*"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

scripts/install-deps.sh --docker
export PATH="$PWD/$work/venv/bin:$PATH"

# podman's settings for this run only (the system's containers.conf stays untouched): the open-files
# limit the host allows, and runc.
mkdir -p "$work"
nofile=$(ulimit -Hn)
[ "$nofile" = unlimited ] && nofile=1048576
cat > "$work/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$PWD/$work/containers.conf"

service_pid=
socket_dir=
cleanup() {
  # Testcontainers' own, left by an interrupted example (Ryuk, which would remove them, is off).
  podman ps -aq --filter label=org.testcontainers=true 2>/dev/null | xargs -r podman rm -f -v -t 5 >/dev/null 2>&1 || true
  if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null || true; fi
  if [ -n "$socket_dir" ]; then rm -rf "$socket_dir"; fi
  podman rm -f -v -t 5 "$container" >/dev/null 2>&1 || true
  "${compose[@]}" down -v -t 5 >/dev/null 2>&1 || true
}
trap cleanup EXIT

# --- 2. the base and builder images, under the official names ---
if [ $force -eq 1 ] || ! podman image exists "$base_image"; then
  mirror=${DEBIAN_MIRROR:-$(awk '/^URIs:/ && !/security/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)}
  mirror=${mirror:-http://deb.debian.org/debian}
  rootfs=$(mktemp -d /var/tmp/push-emulator-rootfs.XXXXXX)
  say "debootstrapping bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; exit 1; }
  # What the official slim image leaves out: apt's caches and lists, documentation, locales —
  # removed now, and kept out of later layers by the same apt and dpkg settings it carries.
  cat > "$rootfs/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
  echo 'Acquire::GzipIndexes "true";' > "$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
  echo 'Acquire::Languages "none";' > "$rootfs/etc/apt/apt.conf.d/docker-no-languages"
  echo 'Apt::AutoRemove::SuggestsImportant "false";' > "$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
  printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
    'path-exclude /usr/share/groff/*' 'path-exclude /usr/share/info/*' 'path-exclude /usr/share/linda/*' \
    'path-exclude /usr/share/lintian/overrides/*' 'path-exclude /usr/share/locale/*' \
    'path-include /usr/share/locale/locale.alias' 'path-exclude /usr/share/man/*' \
    > "$rootfs/etc/dpkg/dpkg.cfg.d/docker"
  rm -rf "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
         "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
         "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/*
  tar -C "$rootfs" -c . | podman import -q --change 'CMD ["bash"]' - "$base_image" >/dev/null
  rm -rf "$rootfs"
  say "imported $base_image"
fi

if [ $force -eq 1 ] || ! podman image exists "$builder_image"; then
  say "building $builder_image from /opt/swift (a few minutes)"
  podman build --format docker --pull=never -t "$builder_image" -v /opt/swift:/swift-src:ro \
    -f docker/test/swift-bookworm.Dockerfile docker/test
fi

# The Swift package mirror, for machines where git redirects github.com to a local folder: the same
# insteadOf lines in a gitconfig, both given to the build as read-only volumes only, so the image
# stays the one users build from GitHub.
swift_volumes=()
gitconfig="$work/gitconfig"
: > "$gitconfig"
git config -f "$gitconfig" safe.directory '*'
while read -r key value; do
  prefix=${key#url.}
  prefix=${prefix%.insteadof}
  git config -f "$gitconfig" --add "url.$prefix.insteadOf" "$value"
  if [ -d "$prefix" ] && [[ " ${swift_volumes[*]} " != *" $prefix:"* ]]; then
    swift_volumes+=(-v "$prefix:$prefix:ro")
  fi
done < <(git config --get-regexp '^url\..*\.insteadof$' || true)
swift_volumes+=(-v "$PWD/$gitconfig:/etc/gitconfig:ro")

# --- 3. the project's image ---
say "building $image"
build_start=$(date +%s)
# First the build stage with those volumes; then the whole image without them, its build stage
# from the layer cache, so the runtime stage's layers hold not even the empty mount points.
podman build --format docker --pull=never --target build -t "$build_stage_image" "${swift_volumes[@]}" -f docker/Dockerfile .
podman build --format docker --pull=never -t "$image" -f docker/Dockerfile .
build_seconds=$(( $(date +%s) - build_start ))
image_bytes=$(podman image inspect --format '{{.Size}}' "$image")
image_mb=$(awk -v b="$image_bytes" 'BEGIN { printf "%.0f", b / 1000000 }')

podman rm -f -v "$container" >/dev/null 2>&1 || true
run_start=$(date +%s.%N)
# Without systemd, podman logs that it cannot add a timer for the health check: the loop below runs
# the check itself.
podman run -d --name "$container" -p "127.0.0.1:$host_port:9499" "$image" >/dev/null 2>"$work/run.err" \
  || { cat "$work/run.err"; exit 1; }
deadline=$(( $(date +%s) + 60 ))
until podman healthcheck run "$container" >/dev/null 2>&1; do
  if [ "$(date +%s)" -gt "$deadline" ]; then podman logs "$container"; say "FAIL: not healthy after 60 s"; exit 1; fi
  sleep 0.1
done
healthy_seconds=$(elapsed "$run_start" "$(date +%s.%N)")
say "healthy ${healthy_seconds} s after podman run"

say "sending an FCM message from the host to 127.0.0.1:$host_port"
python3 - "$host_port" <<'PY'
import json, sys, urllib.request

base = f"http://127.0.0.1:{sys.argv[1]}"
devices = f"{base}/emulator/v1/projects/demo-project/devices"

def post(url, body, headers={}):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.status, json.load(resp)

status, device = post(devices, {"platform": "ios", "bundleId": "com.example.app"})
assert status == 201, (status, device)
token = device["token"]
status, sent = post(f"{base}/v1/projects/demo-project/messages:send",
                    {"message": {"token": token, "notification": {"title": "from the host"}}},
                    {"Authorization": "Bearer anything"})
assert status == 200 and sent["name"].startswith("projects/demo-project/messages/"), (status, sent)
status, received = post(f"{devices}/{token}:connect", {})
titles = [event["payload"]["aps"]["alert"]["title"] for event in received["events"]]
assert titles == ["from the host"], received
print(f"docker-test: sent {sent['name']}, the device received it")
PY
stop_start=$(date +%s.%N)
podman stop -t 10 "$container" >/dev/null 2>&1
stop_seconds=$(elapsed "$stop_start" "$(date +%s.%N)")
podman rm -f -v "$container" >/dev/null 2>&1

# --- 4. the Testcontainers example ---
# docs/testing.md's Python example, through podman's Docker-compatible API. Ryuk, the reaper
# container, comes from a registry not reachable here; the example removes its own container.
# The connection mode is named: run inside a container itself, Testcontainers would otherwise look
# for a shared bridge network, which podman's container list does not describe.
say "running examples/testcontainers-python through podman's Docker API"
# In /tmp: a socket's path must fit in 108 bytes, which a deep checkout's would not.
socket_dir=$(mktemp -d /tmp/push-emulator-podman.XXXXXX)
socket="$socket_dir/podman.sock"
podman system service --time=0 "unix://$socket" >"$work/podman-service.log" 2>&1 &
service_pid=$!
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { cat "$work/podman-service.log"; say "FAIL: podman system service did not start"; exit 1; }
testcontainers_status=0
DOCKER_HOST="unix://$socket" TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_CONNECTION_MODE=docker_host \
  PUSH_EMULATOR_IMAGE="$image" \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider examples/testcontainers-python || testcontainers_status=$?
kill "$service_pid" 2>/dev/null || true
wait "$service_pid" 2>/dev/null || true
service_pid=
[ $testcontainers_status -eq 0 ] || { say "FAIL: the Testcontainers example"; exit 1; }

# --- 5. compose.yaml under podman-compose ---
# The images compose.yaml names are built here with the build-time volumes this machine needs (the
# host's CA bundle reaches PyPI); podman-compose then runs them as they are.
# pip trusts the host's roots through a pip.conf given at build time only (the image's own
# ca-certificates must stay writable while apt configures it).
printf '[global]\ncert = /run/host-ca-certificates.crt\n' > "$work/pip.conf"
say "building $backend_image"
podman build --format docker --pull=never -t "$backend_image" \
  -v /etc/ssl/certs/ca-certificates.crt:/run/host-ca-certificates.crt:ro \
  -v "$PWD/$work/pip.conf:/etc/pip.conf:ro" docker/sample-backend
say "running docker/compose.yaml"
"${compose[@]}" down -v -t 5 >/dev/null 2>&1 || true
compose_status=0
"${compose[@]}" up --abort-on-container-exit --exit-code-from backend || compose_status=$?
"${compose[@]}" down -v -t 5 >/dev/null 2>&1 || true
if [ "$compose_status" -ne 0 ]; then say "FAIL: the sample backend exited $compose_status"; exit 1; fi

cat <<SUMMARY

== docker-test: passed in $(( $(date +%s) - total_start )) s
   image              $image
   image size         ${image_mb} MB (${image_bytes} bytes)
   start to healthy   ${healthy_seconds} s (podman run until the first passing push-emulator healthcheck)
   stop (SIGTERM)     ${stop_seconds} s
   image build        ${build_seconds} s
   compose            the sample backend exited 0 after its message was delivered
SUMMARY
