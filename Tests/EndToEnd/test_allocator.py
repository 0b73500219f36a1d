"""The binary under test links the allocator it should: tcmalloc normally, the sanitizer's own in a
sanitizer build (Package.swift leaves tcmalloc out when PUSH_EMULATOR_SANITIZER is set)."""
import subprocess

import pytest

from conftest import BIN, SANITIZER


def linked_libraries():
    return subprocess.run(["ldd", BIN], capture_output=True, text=True, check=True, timeout=30).stdout


@pytest.mark.skipif(bool(SANITIZER), reason="sanitizer builds leave tcmalloc out")
def test_the_emulator_links_tcmalloc():
    assert "libtcmalloc" in linked_libraries()


@pytest.mark.skipif(not SANITIZER, reason="only sanitizer builds leave tcmalloc out")
def test_a_sanitizer_build_leaves_tcmalloc_out():
    assert "libtcmalloc" not in linked_libraries()
