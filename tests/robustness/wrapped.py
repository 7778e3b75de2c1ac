# SPDX-License-Identifier: GPL-2.0-or-later
"""tshark in the tests' isolated environment (tests/lib/wsrun.py), behind a wrapper command
(valgrind, or env LD_PRELOAD=... for a sanitizer-built plugin) and with extra variables.
The wrapper goes between setpriv and tshark, so that it applies to tshark alone."""
import os
import subprocess
from pathlib import Path

from tests.lib.wsrun import IsolatedTshark

# Wireshark's own debugging switches (tools/valgrind-wireshark.sh, fuzz-test.sh): every
# wmem and GLib allocation is its own malloc, so memory checkers see its bounds.
DEBUG_ENV = {"WIRESHARK_DEBUG_WMEM_OVERRIDE": "simple", "G_SLICE": "always-malloc"}


class WrappedTshark(IsolatedTshark):
    def __init__(self, plugin, wrapper=(), extra_env=None):
        super().__init__(plugin)
        self.wrapper = list(wrapper)
        self.extra_env = dict(DEBUG_ENV, **(extra_env or {}))

    def command(self, args):
        cmd = super().command(args)
        i = cmd.index(self.tshark)
        return cmd[:i] + self.wrapper + cmd[i:]

    def env(self):
        env = super().env()
        env.update(self.extra_env)
        return env

    def writable_dir(self, name):
        """A folder tshark (nobody, when we are root) can write to."""
        path = os.path.join(self.tmp, name)
        os.makedirs(path, exist_ok=True)
        os.chmod(path, 0o777)
        return path

    def run_to_file(self, args, stdout_path, timeout):
        """Runs tshark with its output in a file (-V output is large); returns
        (returncode, stderr). A run past timeout is killed and reported as -9."""
        with open(stdout_path, "wb") as out:
            proc = subprocess.Popen(self.command(args), env=self.env(), stdout=out,
                                    stderr=subprocess.PIPE, cwd=self.tmp)
            try:
                _, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
                return -9, err.decode("utf-8", "replace") + "\n[timeout]"
        return proc.returncode, err.decode("utf-8", "replace")


def key_options(captures):
    """-o uat:bthome_keys rows of every captures/*.keys, each row once."""
    rows = []
    for path in sorted(Path(captures).glob("*.keys")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and line not in rows:
                rows.append(line)
    return [opt for row in rows for opt in ("-o", f"uat:bthome_keys:{row}")]


def sample_captures(captures):
    return sorted(p for pattern in ("*.pcap", "*.pcapng", "*.log")
                  for p in Path(captures).glob(pattern))


def merge(inputs, output):
    """Concatenates captures of any link types into one pcapng (one IDB each)."""
    subprocess.run(["mergecap", "-F", "pcapng", "-a", "-w", str(output)]
                   + [str(p) for p in inputs], check=True, capture_output=True)
    os.chmod(output, 0o644)
