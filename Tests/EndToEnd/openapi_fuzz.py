"""Runs schemathesis against a live emulator with the document it serves (docs/openapi.json).

Used by test_openapi.py (a short run with a fixed seed, in `make test`) and by
scripts/fuzz-openapi.sh (a longer run with a fresh seed, in `make fuzz`):

    python Tests/EndToEnd/openapi_fuzz.py --seconds 60 [--examples 200] [--seed N]

Left out of the run, and why:
- `:stream` and `/events` never end (Server-Sent Events until the client leaves);
- `PUT /emulator/v1/state` replaces the whole state with a snapshot whose full format is in
  docs/state.md rather than in the document's schema, so generated snapshots are refused by design;
- operations the binary does not serve (`x-push-emulator-optional`: metrics and state snapshots in
  a build without them), found by asking the emulator;
- the `allow_header_conformance` check: a registration token may contain `:`, so
  `/devices/abc:connect` is also the path of the device `abc:connect`, and the `Allow` of a 405
  there rightly lists the methods of both routes, which the check reads as undocumented.

A read of the message log never waits (`waitSeconds` 0): a wait of up to a minute on a log that
stays empty would only slow the run; tests/test_waiting_reads.py checks waiting.

A webhook may be refused to a schema-valid body (`positive_data_acceptance` of `addWebhook`): its
`url` must parse as an http or https URL and its `caCertificate` as PEM, which the schema's strings
do not say, and the run adds more than the 8 a project may have.

And one check is widened: a `PATCH` of a device may be answered 400 to a schema-valid body
(`positive_data_acceptance` of `updateDevice`): which fields apply depends on the stored device's
platform (`channels` on an Android device only), which the body does not name and the document
cannot express. Registration names the platform, and its schema has a branch for each.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

ALWAYS_EXCLUDED = ["streamDevice", "watchEvents", "importState"]
SKIPPED_CHECKS = ["allow_header_conformance"]
CONFIG = """
[[operations]]
include-operation-id = "updateDevice"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "404"]

[[operations]]
include-operation-id = "addWebhook"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "429"]

[[operations]]
include-operation-id = "listMessages"
parameters = { "query.waitSeconds" = 0 }
"""


def served(base_url, method, path):
    """Whether the emulator has a route for `method path` (not a 404 or 405)."""
    request = urllib.request.Request(base_url + path, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10):
            return True
    except urllib.error.HTTPError as error:
        return error.code not in (404, 405)


def excluded_operations(base_url, document):
    """ALWAYS_EXCLUDED, and the optional GET operations the binary does not serve (a PUT of an
    optional path goes with its GET)."""
    excluded = list(ALWAYS_EXCLUDED)
    for path, item in document["paths"].items():
        optional = [op for op in item.values() if isinstance(op, dict) and op.get("x-push-emulator-optional")]
        if optional and not served(base_url, "GET", path):
            excluded += [op["operationId"] for op in optional]
    return sorted(set(excluded))


def run(base_url, *, examples, seconds=None, seed=None, workers=1, timeout=600):
    """Runs schemathesis; returns (exit code, output). One worker: with more, Hypothesis 6.170's
    lambda-source cache races between threads and the run reports its own "Runtime Error"."""
    with urllib.request.urlopen(base_url + "/emulator/v1/openapi.json", timeout=10) as response:
        document = json.load(response)
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", "schemathesis.toml", "run",
        base_url + "/emulator/v1/openapi.json",
        "--url", base_url, "--checks", "all", "--exclude-checks", ",".join(SKIPPED_CHECKS),
        "--max-examples", str(examples), "--workers", str(workers),
        "--generation-database", "none", "--no-color", "--request-timeout", "30",
    ]
    for operation in excluded_operations(base_url, document):
        command += ["--exclude-operation-id", operation]
    if seed is not None:
        command += ["--seed", str(seed)]
    if seconds is not None:
        command += ["--max-time", str(seconds)]
    # In a scratch directory: schemathesis keeps a cache (.schemathesis/) in its working directory.
    with tempfile.TemporaryDirectory(prefix="push-emulator-schemathesis-") as scratch:
        with open(os.path.join(scratch, "schemathesis.toml"), "w") as config:
            config.write(CONFIG)
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=scratch)
    return done.returncode, done.stdout + done.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--seed", type=int)
    arguments = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from conftest import Emulator

    emulator = Emulator()
    try:
        code, output = run(emulator.http, examples=arguments.examples, seconds=arguments.seconds,
                           seed=arguments.seed, timeout=arguments.seconds + 600)
        print(output)
        if not emulator.alive():
            print("the emulator died during the run:\n" + emulator.stderr()[-3000:])
            code = code or 1
    finally:
        emulator.stop()
    if code == 0:
        # The last line every fuzz target prints (test_fuzz_targets.py looks for it).
        print(f"Done: schemathesis found nothing in {arguments.seconds} s", file=sys.stderr)
    sys.exit(code)


if __name__ == "__main__":
    main()
