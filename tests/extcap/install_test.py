# SPDX-License-Identifier: GPL-2.0-or-later
"""`cmake --install` puts the extcap where the Wireshark built against finds it: globally
into its extcap folder (under a temporary prefix here, which tshark is pointed at with
WIRESHARK_EXTCAP_DIR), personally (-DBTHOME_USER_INSTALL=ON) into a temporary HOME's
personal extcap folder (4.0: ~/.config/wireshark/extcap; 4.1 and later
~/.local/lib/wireshark/extcap). tshark -D then lists both interfaces.

    python3 -m tests.extcap.install_test --plugin build/bthome.so
"""
import argparse
import os
import shutil
import stat
import subprocess
import sys
import tempfile

from tests.extcap.common import ROOT, wsrun

INTERFACES = ("esphome-ble (ESPHome Bluetooth proxy", "hass-ble (Home Assistant Bluetooth")


def install(tmp, name, plugin, env, user):
    build = os.path.join(tmp, name)
    subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DBUILD_TESTING=OFF",
                    f"-DBTHOME_USER_INSTALL={'ON' if user else 'OFF'}"],
                   env=env, check=True, capture_output=True)
    shutil.copy(plugin, os.path.join(build, "bthome.so"))    # no compiling: the built one
    prefix = os.path.join(tmp, "prefix")
    proc = subprocess.run(["cmake", "--install", build, "--prefix", prefix], env=env,
                          capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"install_test: cmake --install failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def listed(env):
    cmd = ["tshark", "-D"]
    if os.getuid() == 0:
        cmd = ["setpriv", f"--reuid={wsrun.NOBODY}", f"--regid={wsrun.NOBODY}",
               "--clear-groups"] + cmd
    return subprocess.run(cmd, env=env, capture_output=True, text=True,
                          cwd=env["HOME"]).stdout


def folder_ok(check, folder, what):
    launcher = os.path.join(folder, "bthome-proxy")
    modules = os.path.join(folder, "bthomeproxy")
    ok = os.path.isfile(launcher) and os.stat(launcher).st_mode & stat.S_IXOTH
    files = sorted(os.listdir(modules)) if os.path.isdir(modules) else []
    want = sorted(f for f in os.listdir(os.path.join(ROOT, "extcap", "bthomeproxy"))
                  if f.endswith(".py"))
    modes_ok = all(not os.stat(os.path.join(modules, f)).st_mode & 0o111 for f in files)
    check(ok and files == want and modes_ok and
          not os.path.exists(os.path.join(folder, "bthome-proxy.bat")),
          f"{what}: {folder} holds bthome-proxy (executable) and its modules (not "
          "executable), no .bat", f"{files}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    args = ap.parse_args()
    check = wsrun.Checks()
    version = wsrun.tshark_version()
    tmp = tempfile.mkdtemp(prefix="bthome-extcap-install-")
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        env = dict(os.environ, HOME=home, LC_ALL="C.UTF-8")
        for var in ("WIRESHARK_CONFIG_DIR", "XDG_CONFIG_HOME", "SUDO_USER"):
            env.pop(var, None)
        out = install(tmp, "global", args.plugin, env, user=False)
        globals_ = [line.split(": ", 1)[1] for line in out.splitlines()
                    if line.endswith("/bthome-proxy") and ": " in line]
        global_dir = os.path.dirname(globals_[0]) if globals_ else ""
        check(global_dir.endswith("/wireshark/extcap"),
              "global install: into <prefix>/.../wireshark/extcap", out[-400:])
        folder_ok(check, global_dir, "global install")
        install(tmp, "personal", args.plugin, env, user=True)
        personal = (os.path.join(home, ".config", "wireshark", "extcap")
                    if tuple(map(int, version.split("."))) < (4, 1)
                    else os.path.join(home, ".local", "lib", "wireshark", "extcap"))
        folder_ok(check, personal, f"personal install for Wireshark {version}")
        for root, dirs, files in os.walk(tmp):       # tshark runs as nobody when root
            for name in dirs + files:
                path = os.path.join(root, name)
                os.chmod(path, os.stat(path).st_mode | 0o555 if os.path.isdir(path)
                         else os.stat(path).st_mode | 0o444)
        os.chmod(tmp, 0o755)
        empty = os.path.join(tmp, "empty-home")
        os.makedirs(empty, mode=0o755)
        out = listed(dict(env, HOME=empty, WIRESHARK_EXTCAP_DIR=global_dir))
        check(all(i in out for i in INTERFACES), "tshark -D lists both interfaces from "
              "the global install", out[-500:])
        no_global = os.path.join(tmp, "empty-extcap")    # must exist: 4.0 skips the
        os.makedirs(no_global, mode=0o755)                 # personal folder otherwise
        out = listed(dict(env, WIRESHARK_EXTCAP_DIR=no_global))
        check(all(i in out for i in INTERFACES), "tshark -D lists both interfaces from "
              "the personal install", out[-500:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.summary("extcap install")


if __name__ == "__main__":
    sys.exit(main())
