"""Every fuzz target still builds from the sources it lists and runs clean for a moment.

scripts/fuzz.sh compiles each target's files with swiftc, outside the package build, so a
change that adds a file the parser needs breaks `make fuzz` without breaking `make test`; this
test makes it break `make test` too.
"""
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import SANITIZER

# They build their own binaries (with AddressSanitizer) and never start the emulator, so a run of
# this suite against a sanitizer build (`make sanitize`) leaves them to `make test`.
pytestmark = pytest.mark.skipif(bool(SANITIZER), reason="the fuzz targets do not use the emulator binary; make test runs them")

# The repository's root, wherever pytest runs from: the runner is found and run there, and a test
# with no cases would pass.
ROOT = pathlib.Path(__file__).resolve().parents[2]
RUNNER = "scripts/fuzz.sh"
TARGETS = subprocess.run(["sh", RUNNER, "--list"], capture_output=True, text=True, cwd=ROOT).stdout.split()


def test_there_are_fuzz_targets():
    assert TARGETS, f"{RUNNER} --list names no target under {ROOT}"


@pytest.mark.parametrize("target", TARGETS)
def test_fuzz_target_builds_and_runs(target):
    # The openapi target runs schemathesis from this Python, whose environment has it.
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run(["sh", RUNNER, target, "2"], capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert done.returncode == 0, f"{RUNNER} {target} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    assert "Done" in done.stderr, done.stderr[-2000:]
