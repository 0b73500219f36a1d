#!/usr/bin/env bash
# make scaling-bundle: puts in .scaling/ (ignored by git) what make bench-scaling needs on a Linux
# x86-64 machine that has none of our packages: the release binary, h2load and nghttpd, every
# shared library they load (glibc and its loader too, so that a machine with an older glibc runs
# them), bench-scaling.sh, and run.sh, which runs it with them. There, with python3 and taskset:
#
#   bash .scaling/run.sh                      (SCALING_THREADS, SCALING_RUNS, ... as for bench-scaling)
#   SCALING_PIN=1 SCALING_THREADS="1 8" SCALING_RUNS=3 bash .scaling/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/push-emulator}
OUT=.scaling
rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/real" "$OUT/lib" "$OUT/scripts"
cp "$BIN" "$OUT/real/push-emulator"
cp "$(command -v h2load)" "$(command -v nghttpd)" "$OUT/real/"
for program in "$OUT"/real/*; do
  ldd "$program" | awk '$3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'
done | sort -u | while read -r library; do cp -L "$library" "$OUT/lib/"; done
# Each program runs through the bundled loader with the bundled libraries only.
for program in "$OUT"/real/*; do
  name=$(basename "$program")
  cat > "$OUT/bin/$name" <<WRAPPER
#!/usr/bin/env bash
here=\$(cd "\$(dirname "\$0")/.." && pwd)
exec "\$here/lib/ld-linux-x86-64.so.2" --library-path "\$here/lib" "\$here/real/$name" "\$@"
WRAPPER
  chmod +x "$OUT/bin/$name"
done
cp scripts/bench-scaling.sh "$OUT/scripts/"
cat > "$OUT/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs make bench-scaling's workloads with the bundled programs (scripts/scaling-bundle.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export PATH="$here/bin:$PATH"
exec bash "$here/scripts/bench-scaling.sh" "$here/bin/push-emulator"
RUN
echo "scaling-bundle: $(du -sh "$OUT" | cut -f1) in $OUT; run there: bash $OUT/run.sh"
