"""`push-emulator healthcheck` and `push-emulator ca`: what a container's HEALTHCHECK and a user
handing the CA to their app run (docs/server.md, docs/interception.md)."""
import os
import subprocess
import urllib.request

from conftest import BIN


def run(*args, env=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=30,
                          env={**os.environ, **(env or {})})


def test_healthcheck_passes_while_serving_and_fails_otherwise(start_emulator):
    emu = start_emulator()
    # The container sets PUSH_EMULATOR_* for serve; healthcheck reads the port from it and ignores the rest.
    ok = run("healthcheck", env={"PUSH_EMULATOR_PORT": str(emu.port), "PUSH_EMULATOR_TOKENS": "strict"})
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert run("healthcheck", "--port", str(emu.port)).returncode == 0
    emu.stop()
    down = run("healthcheck", "--port", str(emu.port), "--timeout", "2")
    assert down.returncode == 1 and "Connection refused" in down.stdout, down.stdout + down.stderr


def test_ca_prints_the_served_ca_and_the_bundle_ends_with_it(start_emulator):
    emu = start_emulator()
    served = urllib.request.urlopen(f"{emu.http}/emulator/v1/ca.pem", timeout=10).read().decode()
    printed = run("ca", "--data-dir", emu.data_dir)
    assert printed.returncode == 0 and printed.stdout == served
    bundle = run("ca", "--bundle", env={"PUSH_EMULATOR_DATA_DIR": emu.data_dir})
    assert bundle.returncode == 0
    assert bundle.stdout.endswith(served) and bundle.stdout.count("BEGIN CERTIFICATE") > 10


def test_serve_on_a_port_in_use_fails_instead_of_sharing_it(start_emulator, tmp_path):
    """The loops share their port through SO_REUSEPORT, which any process of the same user may
    join: a second emulator on the port started and took about half of the connections, each
    answered from its own state and CA."""
    emu = start_emulator()
    second = subprocess.run([BIN, "serve", "--port", str(emu.port), "--data-dir", str(tmp_path)],
                            capture_output=True, text=True, timeout=30)
    assert second.returncode != 0
    assert "Address already in use" in second.stderr, second.stdout + second.stderr
    served = {urllib.request.urlopen(f"{emu.http}/emulator/v1/ca.pem", timeout=10).read() for _ in range(12)}
    assert served == {open(emu.ca, "rb").read()}
