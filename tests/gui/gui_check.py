# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin in the real Wireshark window: screenshots and checks under Xvfb.

Starts Debian's Wireshark (Qt) on a private virtual display, as an unprivileged user,
with a temporary HOME, profile and plugin folder that holds only the plugin under test
(Wireshark ignores personal plugin folders and WIRESHARK_PLUGIN_DIR for root, and the
plugin folder given replaces the global one, so an installed copy is never loaded), and a
private copy of Wireshark's global data folder without its profiles (WIRESHARK_DATA_DIR:
a profile installed there, such as the BTHome one `cmake --install` puts there as root,
would change the dialogs, e.g. I/O Graphs' "Copy from"). Each scene is a fresh
Wireshark: open a capture, drive it with xdotool, read what it shows through its own Copy
actions (the X clipboard), and save a PNG of the window.

    python3 -m tests.gui.gui_check --plugin build/bthome.so --out docs/screenshots
    python3 -m tests.gui.gui_check --plugin build/bthome.so         # checks only (temp dir)
    python3 -m tests.gui.gui_check --plugin build/bthome.so --compare docs/screenshots
    python3 -m tests.gui.gui_check --without-plugin --expect-failure # proves the checks bite

Fails (exit 1) when the plugin is not mapped into the Wireshark process, when the packet
list, the details tree, the decrypted tree, the expert dialog, the statistics tree or
the I/O graph or the BTHome profile (profile/BTHome, imported from the zip the build
makes) or a live capture through the extcap (extcap/bthome-proxy) from the simulated
ESPHome proxy of tests/extcap does not show what BTHome must show, and with --compare
when the pictures differ from the committed ones (they are byte-identical from run to run on Debian 12).
Needs wireshark-qt, xvfb, xdotool, xclip, imagemagick and tesseract-ocr
(tests/gui/screenshots.sh installs them).

How each picture is checked: the packet list row and the details trees through
Wireshark's Edit > Copy actions (As Plain Text, All Visible Items) read back from the
clipboard; the Statistics > BTHome entry and the stats dialog's Copy button found by OCR
(4.0's GUI takes no -z for stats trees); the expert dialog by the row colours of its
severities; the I/O graph by the red of the bthome.temperature line in the plot; the
profile by its columns in the copied row, its colouring rules' background colours and its
filter buttons found by OCR.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

from tests.lib.wsrun import NOBODY, IsolatedTshark

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

CAPTURES = os.path.join(ROOT, "captures")
WIDTH, HEIGHT = 1280, 800
IO_GRAPH_COLOR = (0xd6, 0x27, 0x28)       # the temperature line: red, found again in the PNG
# Row colours of the Expert Information dialog (Wireshark's defaults) by severity.
EXPERT_COLORS = {"warning": (0xf7, 0xf2, 0x53), "note": (0xa0, 0xff, 0xff)}


class CheckFailed(Exception):
    pass


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def scratch_output(cmd):
    """What cmd prints, run with a throwaway home and config folder (wireshark --version
    makes ~/.config/wireshark/profiles: the user's must stay untouched) and Wireshark's
    own global data folder."""
    with tempfile.TemporaryDirectory(prefix="bthome-gui-home-") as home:
        env = dict(os.environ, HOME=home, WIRESHARK_CONFIG_DIR=home, LC_ALL="C.UTF-8")
        for var in ("XDG_CONFIG_HOME", "WIRESHARK_DATA_DIR"):
            env.pop(var, None)
        return run(cmd, env=env).stdout


def wireshark_version():
    out = scratch_output(["wireshark", "--version"])
    m = re.search(r"Wireshark (\d+)\.(\d+)\.\d+", out)
    if not m:
        raise CheckFailed("cannot tell the Wireshark (Qt) version: is wireshark-qt installed?")
    return f"{m.group(1)}.{m.group(2)}"


def private_data_dir():
    """A copy of Wireshark's global data folder (colour filters, manuf, ...: its entries
    linked) whose profiles folder is empty, for WIRESHARK_DATA_DIR: the pictures must not
    depend on the profiles installed there. tshark names the folder (wireshark has no -G);
    both take it from the same library."""
    out = scratch_output(["tshark", "-G", "folders"])
    m = re.search(r"^Global configuration:\s*(\S.*?)\s*$", out, re.M)
    if not m or not os.path.isdir(m.group(1)):
        raise CheckFailed(f"tshark -G folders names no global configuration folder:\n{out}")
    dest = tempfile.mkdtemp(prefix="bthome-gui-data-")
    for name in os.listdir(m.group(1)):
        if name != "profiles":
            os.symlink(os.path.join(m.group(1), name), os.path.join(dest, name))
    os.mkdir(os.path.join(dest, "profiles"))
    for path in (dest, os.path.join(dest, "profiles")):
        os.chmod(path, 0o755)           # nobody reads it when we run as root
    return dest


class Display:
    """A private Xvfb display (-displayfd picks a free number)."""

    def __init__(self):
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", f"{WIDTH}x{HEIGHT}x24",
             "-nolisten", "tcp", "-dpi", "96"],
            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        number = b""
        deadline = time.time() + 20
        while not number.endswith(b"\n") and time.time() < deadline:
            chunk = os.read(r, 16)
            if not chunk:
                break
            number += chunk
        os.close(r)
        if not number.strip():
            self.close()
            raise CheckFailed("Xvfb did not start")
        self.name = ":" + number.decode().strip()

    def env(self):
        return dict(os.environ, DISPLAY=self.name)

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Wireshark:
    """One Wireshark window with a fresh temporary profile and plugin folder."""

    def __init__(self, display, plugin, version, data_dir, config, args, log):
        self.display = display
        self.tmp = tempfile.mkdtemp(prefix="bthome-gui-")
        os.chmod(self.tmp, 0o755)
        self.plugin_dir = os.path.join(self.tmp, "plugins")
        epan = os.path.join(self.plugin_dir, version, "epan")
        os.makedirs(epan)
        self.plugin_copy = None
        if plugin:
            self.plugin_copy = os.path.join(epan, os.path.basename(plugin))
            shutil.copy(plugin, self.plugin_copy)
        self.config = os.path.join(self.tmp, "config")
        self.home = os.path.join(self.tmp, "home")
        os.makedirs(self.config)
        os.makedirs(self.home)
        for name, text in config.items():     # a name may be profiles/<profile>/<file>
            path = os.path.join(self.config, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            if name == "extcap/bthome-proxy":  # 4.0's personal extcap folder: executable
                os.chmod(path, 0o755)
        args = [self._readable(a) for a in args]
        self.as_root = os.getuid() == 0
        if self.as_root:
            # Wireshark writes into its profile and home: nobody owns them.
            for top in (self.config, self.home):
                for root, dirs, files in os.walk(top):
                    for name in dirs + files:
                        os.chown(os.path.join(root, name), NOBODY, NOBODY)
                os.chown(top, NOBODY, NOBODY)
            for root, dirs, files in os.walk(self.plugin_dir):
                for name in dirs + files:
                    os.chmod(os.path.join(root, name), 0o755)
        os.chmod(self.home, 0o700)
        fonts_conf = os.path.join(self.tmp, "fonts.conf")
        with open(fonts_conf, "w", encoding="utf-8") as f:
            f.write(FONTS_CONF.format(cache=os.path.join(self.home, "fontconfig")))
        env = display.env()
        # The same pixels on every Debian 12 machine: only the DejaVu fonts (whatever else
        # is installed), Qt's Fusion style, no desktop theme, no scaling.
        env.update(HOME=self.home, WIRESHARK_CONFIG_DIR=self.config,
                   WIRESHARK_PLUGIN_DIR=self.plugin_dir, WIRESHARK_DATA_DIR=data_dir,
                   LC_ALL="C.UTF-8",
                   XDG_RUNTIME_DIR=self.home, QT_QPA_PLATFORM="xcb",
                   QT_QPA_PLATFORMTHEME="", QT_STYLE_OVERRIDE="Fusion",
                   FONTCONFIG_FILE=fonts_conf,
                   QT_AUTO_SCREEN_SCALE_FACTOR="0", QT_SCALE_FACTOR="1")
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CURRENT_DESKTOP",
                    "DESKTOP_SESSION", "SESSION_MANAGER", "DBUS_SESSION_BUS_ADDRESS",
                    "QT_FONT_DPI", "GDK_SCALE"):
            env.pop(var, None)
        cmd = ["wireshark"] + args
        if self.as_root:
            cmd = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] + cmd
        self.log = open(log, "w")
        self.proc = subprocess.Popen(cmd, env=env, cwd=self.tmp, stdout=self.log,
                                     stderr=subprocess.STDOUT)

    def _readable(self, arg):
        """Captures are copied in: nobody may not read the work tree."""
        if os.path.isfile(arg):
            dest = os.path.join(self.tmp, os.path.basename(arg))
            shutil.copy(arg, dest)
            os.chmod(dest, 0o644)
            return dest
        return arg

    # ---- the X side ----------------------------------------------------------------

    def xdo(self, *args, check=True):
        proc = run(["xdotool"] + [str(a) for a in args], env=self.display.env())
        if check and proc.returncode != 0:
            raise CheckFailed(f"xdotool {' '.join(map(str, args))}: {proc.stderr.strip()}")
        return proc.stdout.strip()

    def find_window(self, title_re, timeout=45):
        """The id of the visible window whose title matches, once it exists."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                self.log.flush()
                with open(self.log.name, errors="replace") as f:
                    tail = "".join(f.readlines()[-20:])
                raise CheckFailed(f"Wireshark exited ({self.proc.returncode}) before showing "
                                  f"a window matching {title_re!r}\n--- Wireshark output "
                                  f"---\n{tail}")
            ids = self.xdo("search", "--onlyvisible", "--name", title_re, check=False).split()
            for wid in ids:
                name = self.xdo("getwindowname", wid, check=False)
                if re.search(title_re, name):
                    return wid
            time.sleep(0.25)
        raise CheckFailed(f"no window matching {title_re!r} after {timeout} s")

    def geometry(self, wid):
        out = self.xdo("getwindowgeometry", "--shell", wid)
        g = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        return int(g["X"]), int(g["Y"]), int(g["WIDTH"]), int(g["HEIGHT"])

    def focus(self, wid):
        x, y, w, h = self.geometry(wid)
        self.xdo("mousemove", x + w // 2, y + 8)       # the X focus follows the pointer
        self.xdo("windowfocus", "--sync", wid, check=False)
        time.sleep(0.2)

    def key(self, *keys, delay=0.15):
        for k in keys:
            self.xdo("key", "--clearmodifiers", k)
            time.sleep(delay)

    def click(self, x, y):
        self.xdo("mousemove", x, y)
        self.xdo("click", 1)
        time.sleep(0.3)

    def grab(self, wid, path):
        proc = run(["import", "-window", wid, "-depth", "8", "+repage", "-strip",
                    "-define", "png:exclude-chunks=date,time", path],
                   env=self.display.env())
        if proc.returncode != 0:
            raise CheckFailed(f"screenshot failed: {proc.stderr.strip()}")

    def wait_settled(self, wid, timeout=30):
        """Until two captures of the window a moment apart differ by no more than a text
        cursor's blink: dissection and redraws are done."""
        prev = None
        deadline = time.time() + timeout
        while time.time() < deadline:
            proc = subprocess.run(["import", "-window", wid, "-depth", "8", "rgb:-"],
                                  env=self.display.env(), capture_output=True)
            cur = proc.stdout if proc.returncode == 0 else None
            if cur is not None and prev is not None and len(cur) == len(prev):
                diff = (int.from_bytes(cur, "big") ^ int.from_bytes(prev, "big")).bit_count()
                if diff < 4000:
                    return
            prev = cur
            time.sleep(0.5)
        raise CheckFailed("the window kept changing: Wireshark did not settle")

    def visible_windows(self):
        return set(self.xdo("search", "--onlyvisible", "--name", "", check=False).split())

    def open_menu(self, keys):
        """Open a menu of the focused window; the id of its popup window."""
        before = self.visible_windows()
        self.key(keys, delay=0.5)
        for _ in range(20):
            new = self.visible_windows() - before
            if new:
                wid = sorted(new, key=int)[-1]
                self.wait_settled(wid)
                return wid
            time.sleep(0.25)
        raise CheckFailed(f"{keys} opened no menu")

    def find_text(self, wid, word):
        """Screen position of the centre of `word` in the window, read by tesseract (on
        the picture scaled up twice), or None."""
        png = os.path.join(self.tmp, "ocr.png")
        self.grab(wid, png)
        big = os.path.join(self.tmp, "ocr-2x.png")
        run(["convert", png, "-resize", "200%", big])
        tsv = run(["tesseract", big, "-", "--psm", "11", "tsv"]).stdout
        x0, y0, _, _ = self.geometry(wid)
        for line in tsv.splitlines()[1:]:
            f = line.split("\t")
            if len(f) == 12 and f[11].strip() == word:
                left, top, width, height = (int(v) for v in f[6:10])
                return x0 + (left + width // 2) // 2, y0 + (top + height // 2) // 2
        return None

    def clipboard(self):
        """What the Copy action put on the clipboard ('' if nothing). Each scene is a new
        Wireshark, and the clipboard dies with its owner, so nothing is left over."""
        for _ in range(20):
            proc = run(["xclip", "-o", "-selection", "clipboard"], env=self.display.env(),
                       timeout=10)
            if proc.returncode == 0 and proc.stdout:
                return proc.stdout
            time.sleep(0.25)
        return ""

    # ---- the process side ----------------------------------------------------------

    def loaded_plugins(self):
        """Paths of every bthome*.so mapped into the Wireshark process."""
        try:
            with open(f"/proc/{self.proc.pid}/maps") as f:
                maps = f.read()
        except OSError as e:
            raise CheckFailed(f"cannot read the Wireshark process maps: {e}")
        return sorted({line.split()[-1] for line in maps.splitlines()
                       if re.search(r"/bthome[^/]*\.so$", line)})

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


# ---- profiles ------------------------------------------------------------------------

FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <cachedir>{cache}</cachedir>
  <match target="pattern">
    <test qual="all" name="family" compare="not_eq"><string>sans-serif</string></test>
    <test qual="all" name="family" compare="not_eq"><string>serif</string></test>
    <test qual="all" name="family" compare="not_eq"><string>monospace</string></test>
    <edit name="family" mode="append_last"><string>sans-serif</string></edit>
  </match>
  <alias><family>Sans Serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>Sans</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>serif</family><prefer><family>DejaVu Serif</family></prefer></alias>
  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
  <match target="font">
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="hinting" mode="assign"><bool>true</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintslight</const></edit>
    <edit name="rgba" mode="assign"><const>none</const></edit>
  </match>
</fontconfig>
"""

PREFERENCES = """\
# Written by tests/gui/gui_check.py: a fixed look for the screenshots.
gui.qt.font_name: DejaVu Sans Mono,10,-1,5,50,0,0,0,0,0
gui.layout_type: 1
gui.layout_content_1: PLIST
gui.layout_content_2: PDETAILS
gui.layout_content_3: PBYTES
gui.packet_list_show_minimap: FALSE
gui.update.enabled: FALSE
gui.ask_unsaved: FALSE
gui.console_open: NEVER
nameres.mac_name: FALSE
"""

RECENT_COMMON = f"""\
gui.geometry_main_x: 0
gui.geometry_main_y: 0
gui.geometry_main_width: {WIDTH}
gui.geometry_main_height: {HEIGHT}
gui.geometry_main_maximized: FALSE
privs.warn_if_elevated: FALSE
sys.warn_if_no_capture: FALSE
gui.last_used_profile: Default
"""


def recent(upper, lower):
    return f"""\
gui.toolbar_main_show: TRUE
gui.filter_toolbar_show: TRUE
gui.wireless_toolbar_show: FALSE
gui.packet_list_show: TRUE
gui.tree_view_show: TRUE
gui.byte_view_show: TRUE
gui.packet_diagram_show: FALSE
gui.statusbar_show: TRUE
gui.packet_list_colorize: TRUE
gui.time_format: RELATIVE
gui.zoom_level: 0
gui.geometry_main_upper_pane: {upper}
gui.geometry_main_lower_pane: {lower}
column.width:
        %m, 50,
        %t, 90,
        %s, 140,
        %d, 140,
        %p, 70,
        %L, 60,
        %i, 700
"""


def keys_file(keys):
    with open(keys, encoding="utf-8") as f:
        return f.read()


def profile(upper=430, lower=250, **files):
    config = {"preferences": PREFERENCES, "recent_common": RECENT_COMMON,
              "recent": recent(upper, lower)}
    config.update(files)
    return config


IO_GRAPHS = ('# This file is automatically generated, DO NOT MODIFY.\n'
             '"TRUE","Temperature (average)","bthome.temperature","#%02x%02x%02x","Line",'
             '"AVG(Y Field)","bthome.temperature","None","1"\n' % IO_GRAPH_COLOR)


# ---- the scenes ------------------------------------------------------------------------

class Session:
    def __init__(self, args):
        self.args = args
        self.version = wireshark_version()
        self.data_dir = private_data_dir()
        self.display = Display()
        self.out = args.out
        self.logs = tempfile.mkdtemp(prefix="bthome-gui-logs-")
        # One copy of the plugin for every scene, even if the build tree is rebuilt meanwhile.
        self.plugin = None
        if not args.without_plugin:
            self.plugin = os.path.join(self.logs, os.path.basename(args.plugin))
            shutil.copy(args.plugin, self.plugin)
        self.shots = []
        self.checks = 0

    def close(self):
        self.display.close()
        shutil.rmtree(self.logs, ignore_errors=True)
        shutil.rmtree(self.data_dir, ignore_errors=True)

    def open(self, scene, config, args):
        log = os.path.join(self.logs, scene + ".log")
        ws = Wireshark(self.display, self.plugin, self.version, self.data_dir, config, args,
                       log)
        ws.scene = scene
        ws.logfile = log
        return ws

    def ok(self, scene, what):
        self.checks += 1
        print(f"  ok   {scene}: {what}")

    def check(self, ws, cond, what):
        if not cond:
            with open(ws.logfile, errors="replace") as f:
                tail = "".join(f.readlines()[-15:])
            raise CheckFailed(f"{ws.scene}: {what}\n--- Wireshark output ---\n{tail}")
        self.ok(ws.scene, what)

    def check_output(self, scene, cond, what, output):
        """A check of a command's output, shown when it fails."""
        if not cond:
            raise CheckFailed(f"{scene}: {what}\n--- output ---\n{output.strip()}")
        self.ok(scene, what)

    def save(self, ws, wid, name):
        path = os.path.join(self.out, name)
        ws.grab(wid, path)
        self.shots.append(path)
        print(f"  shot {name}")
        return path

    def main_window(self, ws, capture):
        wid = ws.find_window(re.escape(os.path.basename(capture)) + r"$")
        ws.wait_settled(wid)
        mapped = ws.loaded_plugins()
        self.check(ws, ws.plugin_copy is not None and mapped == [ws.plugin_copy],
                   f"the plugin under test is loaded, and no other copy "
                   f"(mapped: {mapped or 'none'})")
        return wid

    def copy_selected_row(self, ws, wid):
        """Edit > Copy > As Plain Text: the selected packet list row."""
        ws.focus(wid)
        ws.key("alt+e", "Right", "Return", delay=0.4)
        return ws.clipboard()

    def expand_bthome(self, ws, wid, blank_y):
        """Select the last top-level item of the details pane (the BTHome tree on 4.0,
        where the postdissector adds it after the link layer; on 4.2+ it sits inside the
        Service Data AD entry and this would need another path), expand it with its
        subtrees and copy every visible item (Edit > Copy > All Visible Items)."""
        x, y, w, h = ws.geometry(wid)
        ws.click(x + 300, y + blank_y)          # blank space low in the details pane
        ws.key("End", "shift+Right", delay=0.3)
        ws.wait_settled(wid)
        ws.key("ctrl+alt+shift+a", delay=0.4)
        return ws.clipboard()

    # 0. Every Wireshark here reads the private global data folder, so a profile installed
    # globally (the BTHome one, after the quick start as root) is not seen. tshark shares
    # the GUI's code for its folders and runs as the GUI does (as nobody under root).
    def global_data(self):
        capture = os.path.join(CAPTURES, "bthome-demo.pcapng")
        with IsolatedTshark(self.plugin, data_dir=self.data_dir) as ts:
            out = ts.run(["-G", "folders"]).stdout
            self.check_output("global-data", re.search(
                r"^Global configuration:\s*" + re.escape(self.data_dir) + r"\s*$", out, re.M),
                "Wireshark's global data folder is the private copy", out)
            proc = ts.run(["-C", "BTHome", "-r", capture, "-c", "1"], check=False)
            self.check_output("global-data", proc.returncode != 0 and
                              "does not exist" in proc.stderr,
                              "no global profile is seen (-C BTHome: no such profile)",
                              proc.stdout + proc.stderr)

    # 10. a live capture through the extcap (extcap/bthome-proxy, in the profile's extcap
    # folder as 4.0 reads it) from the simulated ESPHome proxy of the extcap's tests,
    # sending the adverts of encrypted-ll-phdr.pcap, decrypted with their BTHome keys (the
    # proxy's API is plaintext here: its Noise needs python3-dissononce in the simulator,
    # which this interpreter may not have; the extcap's tests cover it).
    def live_capture(self):
        from tests.extcap import common, sim_esphome
        adverts = [a[:4] for a in common.read_ll_phdr("encrypted-ll-phdr.pcap")]
        extcap = {}
        for folder, _, names in os.walk(os.path.join(ROOT, "extcap")):
            for name in names:
                if name.endswith(".py") or name == "bthome-proxy":
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        extcap["extcap/" + os.path.relpath(path, os.path.join(ROOT, "extcap"))
                               ] = f.read()
        config = profile(upper=520, lower=150, bthome_keys=keys_file(
            os.path.join(CAPTURES, "encrypted.keys")), **extcap)
        # One message of every advert: one receive time, so the Time column is the same
        # on every run; ESPHome's own port, which the frames' interface description then
        # leaves out (another port would be in the picture).
        fw = sim_esphome.Firmware(adverts=adverts, batch=len(adverts))
        with sim_esphome.Proxy(fw, port=6053) as proxy:
            ws = self.open("live-capture", config, [
                "-i", "esphome-ble", "-k", "-o", "extcap.esphome_ble.host:127.0.0.1",
                "-o", f"extcap.esphome_ble.port:{proxy.port}"])
            try:
                wid = ws.find_window(r"^Capturing from ")
                deadline = time.time() + 30
                while "all adverts sent" not in proxy.log and time.time() < deadline:
                    time.sleep(0.25)
                time.sleep(1)           # dumpcap's next update (every 500 ms)
                ws.wait_settled(wid)
                x, y, w, h = ws.geometry(wid)
                row = ""
                for _ in range(3):      # the first row, once the list shows it
                    ws.click(x + 300, y + 116)
                    row = self.copy_selected_row(ws, wid)
                    if "BTHome" in row:
                        break
                    time.sleep(1)
                self.check(ws, re.search(r"\bBTHome\b", row) and "[decrypted]" in row
                           and "Temperature 25.06 °C" in row,
                           f"live from the simulated proxy, row 1 reads BTHome, decrypted "
                           f"({row.strip()!r})")
                ws.key("Escape")
                ws.wait_settled(wid)
                self.save(ws, wid, "live-capture.png")
            finally:
                ws.close()

    # 1. the packet list with the Info column
    def packet_list(self):
        capture = os.path.join(CAPTURES, "bthome-demo.pcapng")
        ws = self.open("packet-list", profile(upper=520, lower=150), ["-r", capture, "-g", "3"])
        try:
            wid = self.main_window(ws, capture)
            row = self.copy_selected_row(ws, wid)
            self.check(ws, re.search(r"\bBTHome\b", row) and "Temperature 21.53 °C" in row,
                       f"packet list row 3 reads BTHome + its readings ({row.strip()!r})")
            ws.key("Escape")
            ws.wait_settled(wid)
            self.save(ws, wid, "packet-list.png")
        finally:
            ws.close()

    # 2. the BTHome tree of a plaintext advertisement
    def details_plain(self):
        self.details_shot("details-plaintext", "bthome-demo.pcapng", "3", None,
                          ("BTHome Sensor Data v2", "Temperature: 21.53 °C", "Humidity: 48.10 %",
                           "Pressure: 1013.27 hPa"))

    # 3. the BTHome tree of a decrypted advertisement (keys in the profile's bthome_keys)
    def details_decrypted(self):
        self.details_shot("details-decrypted", "encrypted-ll.pcap", "1", "encrypted.keys",
                          ("BTHome Sensor Data v2 (decrypted)", "[Decrypted: True]",
                           "[Key: 54:48:E6:8F:80:A5 (kitchen)]", "Temperature: 25.06 °C"))

    def details_shot(self, name, capture_name, frame, keys_name, wants):
        """The BTHome tree of one frame, expanded: checks its lines, saves name.png."""
        capture = os.path.join(CAPTURES, capture_name)
        files = {"bthome_keys": keys_file(os.path.join(CAPTURES, keys_name))} if keys_name else {}
        config = profile(upper=150, lower=470, **files)
        ws = self.open(name, config, ["-r", capture, "-g", frame])
        try:
            wid = self.main_window(ws, capture)
            text = self.expand_bthome(ws, wid, 560)
            for want in wants:
                self.check(ws, want in text, f"{name} tree shows {want!r}")
            self.save(ws, wid, name + ".png")
        finally:
            ws.close()

    # 4. Analyze > Expert Information on the audit capture
    def expert(self):
        capture = os.path.join(CAPTURES, "encrypted-audit-ll.pcap")
        config = profile(bthome_keys=keys_file(os.path.join(CAPTURES, "encrypted-audit.keys")))
        ws = self.open("expert-info", config, ["-r", capture, "-z", "expert"])
        try:
            self.main_window(ws, capture)
            dlg = ws.find_window(r"Expert Information")
            self.xdo_resize(ws, dlg, 1000, 560)
            ws.wait_settled(dlg)
            # Open every group, from the last one up (Right opens, Up reaches the group
            # above since the opened one's rows are below it).
            x, y, w, h = ws.geometry(dlg)
            ws.click(x + 300, y + 40)           # a row (not the header: that sorts)
            ws.key("End", delay=0.2)
            for _ in range(12):
                ws.key("Right", "Up", delay=0.1)
            ws.key("Home", "Down")      # select a frame row: the group rows keep their colour
            ws.wait_settled(dlg)
            path = self.save(ws, dlg, "expert-info.png")
            for severity, rgb in EXPERT_COLORS.items():
                px = count_color(path, rgb)
                self.check(ws, px > 500, f"the dialog lists {severity} entries ({px} pixels "
                           f"of their colour)")
        finally:
            ws.close()

    @staticmethod
    def xdo_resize(ws, wid, w, h):
        ws.xdo("windowsize", "--sync", wid, w, h, check=False)
        ws.xdo("windowmove", "--sync", wid, 40, 40, check=False)

    # 5. Statistics > BTHome (the plugin's stats tree), when the plugin registers one.
    # Wireshark 4.0's GUI takes no -z for stats trees: open the menu and click the entry,
    # found by reading the menu (OCR).
    def stats_tree(self):
        if self.args.without_plugin:
            return
        with IsolatedTshark(self.plugin) as ts:
            proc = ts.run(["-z", "help"], check=False)
        if not re.search(r"^\s*bthome,tree\s*$", proc.stdout + proc.stderr, re.M):
            print("  skip stats-tree: this plugin registers no bthome,tree statistics")
            return
        capture = os.path.join(CAPTURES, "bthome-demo.pcapng")
        ws = self.open("stats-tree", profile(), ["-r", capture])
        try:
            wid = self.main_window(ws, capture)
            ws.focus(wid)
            menu = ws.open_menu("alt+s")
            where = ws.find_text(menu, "BTHome")
            self.check(ws, where is not None, "Statistics menu has a BTHome entry")
            ws.click(*where)
            dlg = ws.find_window(r"\bBTHome\b")
            self.xdo_resize(ws, dlg, 900, 560)
            ws.wait_settled(dlg)
            copy = ws.find_text(dlg, "Copy")
            self.check(ws, copy is not None, "the statistics dialog has its Copy button")
            ws.click(*copy)
            text = ws.clipboard()
            self.check(ws, "BTHome" in text and "Weather" in text,
                       f"the statistics tree counts the demo's devices "
                       f"({len(text.splitlines())} lines copied)")
            self.save(ws, dlg, "stats-tree.png")
        finally:
            ws.close()

    # 6. Statistics > I/O Graphs of bthome.temperature (the graph comes from the profile)
    def io_graph(self):
        capture = os.path.join(CAPTURES, "bthome-demo.pcapng")
        ws = self.open("io-graph", profile(io_graphs=IO_GRAPHS),
                       ["-r", capture, "-z", "io,stat,10"])
        try:
            path = self.grab_io_graphs(ws, capture, os.path.join(self.out, "io-graph.png"))
            px = count_red(path, top=0.7)       # the plot, not the table below it
            self.check(ws, px > 500, f"the bthome.temperature line is drawn ({px} red "
                       f"pixels in the plot)")
            self.shots.append(path)
            print(f"  shot {os.path.basename(path)}")
        finally:
            ws.close()

    def grab_io_graphs(self, ws, capture, path):
        """The I/O Graphs dialog (opened by -z io,stat), settled, as a PNG at path."""
        self.main_window(ws, capture)
        dlg = ws.find_window(r"I/O Graphs?")
        self.xdo_resize(ws, dlg, 1000, 600)
        ws.wait_settled(dlg)
        ws.grab(dlg, path)
        return path

    def bthome_profile_files(self):
        """The BTHome profile's files from the zip the build makes, as Wireshark's profile
        import unpacks it: {"profiles/BTHome/<file>": text}."""
        with zipfile.ZipFile(self.args.profile_zip) as z:
            return {"profiles/" + name: z.read(name).decode("utf-8") for name in z.namelist()
                    if not name.endswith("/")}

    # 7. The BTHome profile (imported from build/BTHome-profile.zip, as Wireshark's profile
    # import unpacks it) selected with -C: its columns, colours and filter buttons on the
    # audit capture, where every colouring rule has frames.
    def bthome_profile(self):
        capture = os.path.join(CAPTURES, "encrypted-audit-ll-phdr.pcap")
        files = self.bthome_profile_files()
        files["profiles/BTHome/preferences"] += "\n" + PREFERENCES   # the pictures' fixed look
        files["profiles/BTHome/recent"] = recent(560, 110).split("column.width:")[0] + \
            PROFILE_COLUMN_WIDTHS
        files["profiles/BTHome/bthome_keys"] = keys_file(
            os.path.join(CAPTURES, "encrypted-audit.keys"))
        ws = self.open("profile", profile(**files), ["-C", "BTHome", "-r", capture, "-g", "1"])
        try:
            wid = self.main_window(ws, capture)
            row = self.copy_selected_row(ws, wid)
            self.check(ws, re.search(r"54:48:e6:8f:80:a5\s+-60\s+\[decrypted\] Temperature", row),
                       f"frame 1 shows the profile's Device and RSSI columns before Info "
                       f"({row.strip()!r})")
            ws.key("Escape")
            ws.wait_settled(wid)
            path = self.save(ws, wid, "profile.png")
            for rule, rgb in PROFILE_COLORS.items():
                px = count_color(path, rgb)
                self.check(ws, px > 1000, f"the {rule} colouring rule colours rows ({px} pixels)")
            for label in ("Problems", "Decrypted", "Temperature"):
                self.check(ws, ws.find_text(wid, label) is not None,
                           f"the {label} filter button is in the toolbar")
        finally:
            ws.close()

    # 8. The profile's I/O graphs (profile/BTHome/io_graphs, which only the GUI reads): the
    # dialog takes them without an error and draws the temperature and humidity lines. No
    # picture: io-graph.png shows the same plot.
    def profile_io_graph(self):
        capture = os.path.join(CAPTURES, "bthome-demo.pcapng")
        ws = self.open("profile-io-graph", profile(**self.bthome_profile_files()),
                       ["-C", "BTHome", "-r", capture, "-z", "io,stat,10"])
        try:
            path = self.grab_io_graphs(ws, capture,
                                       os.path.join(self.logs, "profile-io-graph.png"))
            for graph, fx in PROFILE_IO_GRAPH_HUES.items():
                px = count_where(path, 0.7, fx)     # the plot, not the table below it
                self.check(ws, px > 200, f"the profile's {graph} graph is drawn ({px} pixels "
                           f"of its colour in the plot)")
        finally:
            ws.close()


# The graphs profile/BTHome/io_graphs enables: temperature red (#CC0000), humidity blue
# (#3465A4), anti-aliased pixels included.
PROFILE_IO_GRAPH_HUES = {"temperature": "(r-g>0.2 && r-b>0.2)", "humidity": "(b-r>0.2 && b-g>0.1)"}
# Backgrounds of profile/BTHome/colorfilters (16-bit values there, 8-bit on screen); the
# selected row (frame 1) shows the selection colour instead.
PROFILE_COLORS = {"counter reset or wrap": (0xfd, 0xe6, 0xc6),
                  "problem": (0xa4, 0x00, 0x00), "downgrade": (0xfc, 0xe9, 0x4f),
                  "duplicate": (0xee, 0xee, 0xec), "no key": (0xe0, 0xd0, 0xf0),
                  "decrypted": (0xc8, 0xf0, 0xc0), "BTHome": (0xdd, 0xee, 0xff)}
PROFILE_COLUMN_WIDTHS = """\
column.width:
        %m, 45,
        %t, 80,
        %s, 150,
        %d, 140,
        %p, 65,
        %L, 55,
        "%Cus:bthome.device_name || bthome.device", 150,
        "%Cus:nordic_ble.rssi || btle_rf.signal_dbm || bthci_evt.rssi", 45,
        %i, 520
"""


def count_red(png, top):
    """Red pixels, anti-aliased ones included, in the top part of the image."""
    return count_where(png, top, "(r-g>0.2 && r-b>0.2)")


def count_where(png, top, condition):
    """Pixels meeting an ImageMagick -fx condition in the top part of the image."""
    proc = run(["convert", png, "-gravity", "North", "-crop", f"100%x{top * 100:.0f}%+0+0",
                "+repage", "-alpha", "off", "-fx", f"{condition} ? 1 : 0",
                "-format", "%[fx:mean*w*h]", "info:"])
    try:
        return int(float(proc.stdout.strip()))
    except ValueError:
        return 0


def count_color(png, rgb):
    """Pixels of exactly this colour in the image (ImageMagick)."""
    color = "#%02x%02x%02x" % rgb
    proc = run(["convert", png, "-alpha", "off", "-fill", "black", "+opaque", color,
                "-fill", "white", "-opaque", color, "-format", "%[fx:mean*w*h]", "info:"])
    try:
        return int(float(proc.stdout.strip()))
    except ValueError:
        return 0


def compare_shots(shots, folder):
    """Names of the PNGs that differ from, or are missing in, or are only in folder."""
    made = {os.path.basename(p): p for p in shots}
    kept = {n for n in os.listdir(folder) if n.endswith(".png")} if os.path.isdir(folder) else set()
    drift = sorted(kept - set(made)) + sorted(n for n in made if n not in kept)
    for name, path in sorted(made.items()):
        if name in kept:
            with open(path, "rb") as a, open(os.path.join(folder, name), "rb") as b:
                if a.read() != b.read():
                    drift.append(name)
    return drift


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "bthome.so"))
    ap.add_argument("--profile-zip", default=os.path.join(ROOT, "build", "BTHome-profile.zip"),
                    help="the BTHome profile as the build zips it")
    ap.add_argument("--out", help="folder for the PNGs (default: a temporary one)")
    ap.add_argument("--only", metavar="SCENES",
                    help="comma-separated scenes to run (global_data, packet_list, "
                    "details_plain, details_decrypted, expert, stats_tree, io_graph, "
                    "bthome_profile, profile_io_graph, live_capture), for debugging")
    ap.add_argument("--compare", metavar="DIR",
                    help="fail unless the new PNGs are byte-identical to those in DIR")
    ap.add_argument("--without-plugin", action="store_true",
                    help="run with an empty plugin folder: every check must then fail")
    ap.add_argument("--expect-failure", action="store_true",
                    help="exit 0 only if the checks fail (with --without-plugin)")
    args = ap.parse_args()
    if not args.without_plugin and not os.path.isfile(args.plugin):
        sys.exit(f"gui_check: no plugin at {args.plugin} (build it first)")
    for tool in ("wireshark", "Xvfb", "xdotool", "xclip", "import", "convert", "tesseract"):
        if not shutil.which(tool):
            sys.exit(f"gui_check: {tool} is missing (tests/gui/screenshots.sh installs it)")
    # Pictures are made in a temporary folder; --out gets them (and loses its old ones)
    # only when every check passed.
    final_out = args.out
    temp_out = args.out = tempfile.mkdtemp(prefix="bthome-gui-shots-")
    os.chmod(temp_out, 0o755)

    start = time.time()
    failure = None
    session = Session(args)
    print(f"Wireshark {session.version} (Qt) on Xvfb {session.display.name}, plugin "
          f"{'(none)' if args.without_plugin else args.plugin}")
    try:
        scenes = (session.global_data, session.packet_list, session.details_plain,
                  session.details_decrypted, session.expert, session.stats_tree,
                  session.io_graph, session.bthome_profile, session.profile_io_graph,
                  session.live_capture)
        only = args.only.split(",") if args.only else None
        for scene in scenes:
            if not only or scene.__name__ in only:
                scene()
        if args.compare:
            drift = compare_shots(session.shots, args.compare)
            if drift:
                raise CheckFailed(f"the screenshots in {args.compare} are not what this code "
                                  f"shows ({', '.join(drift)}): run tests/gui/screenshots.sh")
            session.ok("compare", f"{len(session.shots)} screenshots identical to "
                       f"{args.compare}")
        if final_out:
            os.makedirs(final_out, exist_ok=True)
            for name in os.listdir(final_out):
                if name.endswith(".png"):
                    os.remove(os.path.join(final_out, name))
            for path in session.shots:
                shutil.copy(path, os.path.join(final_out, os.path.basename(path)))
            print(f"  wrote {len(session.shots)} screenshots to {final_out}")
    except CheckFailed as e:
        failure = str(e)
    finally:
        session.close()
        shutil.rmtree(temp_out, ignore_errors=True)
    took = time.time() - start
    if args.expect_failure:
        if failure:
            print(f"gui_check: failed as expected ({failure.splitlines()[0]})")
            print(f"1 passed, 0 failed ({took:.0f} s)")
            return 0
        print("gui_check: every check passed although they were expected to fail")
        print("0 passed, 1 failed")
        return 1
    if failure:
        print(f"FAILED {failure}")
        print(f"{session.checks} passed, 1 failed ({took:.0f} s)")
        return 1
    print(f"{session.checks} passed, 0 failed ({took:.0f} s, {len(session.shots)} screenshots)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
