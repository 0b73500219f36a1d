"""Every fuzz target still builds from the sources it lists and runs clean for a moment.

The fuzz scripts compile their own file lists with swiftc, outside the package build, so a
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

# The repository's root, wherever pytest runs from: a glob relative to the working directory
# would find no scripts elsewhere, and a test with no cases passes.
ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("scripts/fuzz-*.sh"))


def test_there_are_fuzz_targets():
    assert SCRIPTS, f"no scripts/fuzz-*.sh under {ROOT}"


@pytest.mark.parametrize("script", SCRIPTS)
def test_fuzz_target_builds_and_runs(script):
    # fuzz-openapi.sh runs schemathesis from this Python, whose environment has it.
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run(["sh", script, "2"], capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    assert "Done" in done.stderr, done.stderr[-2000:]
