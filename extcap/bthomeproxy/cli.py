# SPDX-License-Identifier: GPL-2.0-or-later
"""Wireshark's extcap interface: --extcap-interfaces, --extcap-dlts, --extcap-config and
--capture --fifo. Wireshark turns each option into a preference named after it without
dashes: --encryption-key-file is extcap.esphome_ble.encryptionkeyfile."""
import argparse
import base64
import binascii
import os
import signal
import sys

from . import VERSION, CaptureError, frames, netio
from .esphome import option

INTERFACES = {
    "esphome-ble": "ESPHome Bluetooth proxy (BLE advertisements, for BTHome)",
    "hass-ble": "Home Assistant Bluetooth (BLE advertisements, for BTHome)",
}
CONFIG = {
    "esphome-ble": [
        ("--host", "Proxy host", "string", "{required=true}",
         "Name or address of the ESPHome Bluetooth proxy"),
        ("--port", "API port", "integer", "{default=6053}{range=1,65535}",
         "The native API's TCP port"),
        ("--encryption-key", "Encryption key", "password", "",
         "api: encryption: key: of the device's YAML (base64); empty: plaintext API"),
        ("--encryption-key-file", "Encryption key file", "fileselect", "{mustexist=true}",
         "A file holding the base64 key (what tshark can pass)"),
        ("--password", "API password", "password", "",
         "Only firmware before 2026.1 with api: password:"),
        ("--password-file", "API password file", "fileselect", "{mustexist=true}",
         "A file holding the API password"),
        ("--stream-timeout", "Seconds to wait for the stream", "integer",
         "{default=30}{range=1,600}",
         "No scanner state and no advertisement this long after the first subscription: "
         "another client holds the proxy's stream"),
        ("--take-stream", "Take the stream from Home Assistant", "boolflag", "",
         "ESPHome 2026.7 and later stream to the newest subscriber only: Home Assistant "
         "loses this proxy until its entry is reloaded or the proxy reboots"),
    ],
    "hass-ble": [
        ("--url", "Home Assistant URL", "string", "{required=true}",
         "e.g. https://homeassistant.local:8123 (http sends the token in clear)"),
        ("--token", "Long-lived access token", "password", "",
         "Profile > Security > Long-lived access tokens (an administrator's)"),
        ("--token-file", "Token file", "fileselect", "{mustexist=true}",
         "A file holding the token (what tshark can pass)"),
        ("--source", "Only from source", "string", "",
         "Only what this proxy or adapter heard (its address, as Home Assistant shows)"),
        ("--ca-file", "CA certificate file", "fileselect", "{mustexist=true}",
         "PEM certificate(s) that https trusts besides the system's (a self-signed one)"),
        ("--skip-history", "Leave out history", "boolflag", "{default=false}",
         "Leave out what Home Assistant heard before each subscription"),
    ],
}
MAX_SECRET_FILE = 4096


def print_interfaces():
    print(f"extcap {{version={VERSION}}}{{display=BTHome live capture from ESPHome "
          "proxies and Home Assistant}")
    for value, display in INTERFACES.items():
        print(f"interface {{value={value}}}{{display={display}}}")


def print_dlts():
    print(f"dlt {{number={frames.LINKTYPE_BLE_LL_PHDR}}}{{name=BLUETOOTH_LE_LL_WITH_PHDR}}"
          "{display=Bluetooth Low Energy Link Layer with RF pseudo-header}")


def print_config(interface):
    for number, (call, display, kind, extra, tooltip) in enumerate(CONFIG[interface]):
        print(f"arg {{number={number}}}{{call={call}}}{{display={display}}}"
              f"{{type={kind}}}{extra}{{tooltip={tooltip}}}")


def parser():
    p = argparse.ArgumentParser(prog="bthome-proxy", description=__doc__)
    p.add_argument("--extcap-interfaces", action="store_true")
    p.add_argument("--extcap-dlts", action="store_true")
    p.add_argument("--extcap-config", action="store_true")
    p.add_argument("--extcap-interface")
    p.add_argument("--extcap-version")
    p.add_argument("--extcap-capture-filter")
    p.add_argument("--capture", action="store_true")
    p.add_argument("--fifo")
    p.add_argument("--host")
    p.add_argument("--port", type=int, default=6053)
    p.add_argument("--encryption-key")
    p.add_argument("--encryption-key-file")
    p.add_argument("--password")
    p.add_argument("--password-file")
    p.add_argument("--stream-timeout", type=float, default=30)
    p.add_argument("--take-stream", action="store_true")
    p.add_argument("--url")
    p.add_argument("--token")
    p.add_argument("--token-file")
    p.add_argument("--source")
    p.add_argument("--ca-file")
    p.add_argument("--skip-history", action="store_true")
    return p


def secret(value, path, what, name):
    """An option's secret, or the content of its file; the error names the file, never
    the content."""
    if value:
        return value.strip()
    if not path:
        return ""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SECRET_FILE + 1)
    except OSError as e:
        raise CaptureError(f"{name}: cannot read the {what} file {path}: "
                           f"{e.strerror}") from None
    if len(raw) > MAX_SECRET_FILE:
        raise CaptureError(f"{name}: the {what} file {path} is too large to be one")
    return raw.decode("utf-8", "replace").strip().strip('"\'')


def noise_key(text):
    if not text:
        return None
    try:
        key = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if len(key) != 32:
        raise CaptureError("esphome-ble: the encryption key is not base64 of 32 bytes "
                           "(the device's api: encryption: key:; "
                           f"{option('--encryption-key-file')})")
    return key


class StopFlag:
    """Set by SIGTERM (how Wireshark stops an extcap) or SIGINT, or when the process that
    started the extcap is gone: a Wireshark that ends without stopping it leaves it to
    init, and an orphan reconnecting to its proxy for ever would take the proxy's stream
    from the next capture."""

    def __init__(self):
        self.stop = False
        self.parent = os.getppid()
        self.ancestors = None
        if os.name == "nt":         # the parent id of an orphan does not change there
            from . import winparent
            try:
                self.ancestors = winparent.Ancestors()
            except (OSError, AttributeError):
                pass
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._set)

    def _set(self, *_):
        self.stop = True

    def __call__(self):
        if self.ancestors is not None:
            return self.stop or self.ancestors.gone()
        return self.stop or os.getppid() != self.parent


def capture(args):
    stop = StopFlag()
    if not args.fifo:
        raise CaptureError("bthome-proxy: --capture needs --fifo")
    # Open the fifo first: Wireshark waits for it, and an error before the pcapng header
    # reaches Wireshark as the error, with no capture.
    # The sessions are imported only to capture: Wireshark runs every extcap at its start
    # (--extcap-interfaces), where the cryptography import would cost a tenth of a second.
    from . import esphome_session, hass
    with open(args.fifo, "wb") as fifo:
        if args.extcap_interface == "esphome-ble":
            if not args.host:
                raise CaptureError(f"esphome-ble: no proxy host ({option('--host')})")
            psk = noise_key(secret(args.encryption_key, args.encryption_key_file,
                                   "encryption key", "esphome-ble"))
            password = secret(args.password, args.password_file, "password",
                              "esphome-ble")
            port = "" if args.port == 6053 else f" port {args.port}"
            writer = frames.PcapngWriter(fifo, f"ESPHome Bluetooth proxy {args.host}{port}")
            esphome_session.Session(args, writer, stop, psk, password).run()
        else:
            if not args.url:
                raise CaptureError(f"hass-ble: no Home Assistant URL ({hass.option('--url')})")
            token = secret(args.token, args.token_file, "token", "hass-ble")
            if not token:
                raise CaptureError("hass-ble: no access token (--token or "
                                   f"{hass.option('--token-file')})")
            writer = frames.PcapngWriter(fifo, "Home Assistant Bluetooth " +
                                         (f"(source {args.source})" if args.source
                                          else "(all sources)"))
            hass.Session(args, writer, stop, token).run()


def main(argv):
    args, _unknown = parser().parse_known_args(argv)   # newer Wireshark may add options
    if args.extcap_interfaces:
        print_interfaces()
        return 0
    if args.extcap_interface not in INTERFACES:
        print(f"bthome-proxy: unknown interface {args.extcap_interface!r} "
              f"(one of {', '.join(INTERFACES)})", file=sys.stderr)
        return 2
    if args.extcap_dlts:
        print_dlts()
        return 0
    if args.extcap_config:
        print_config(args.extcap_interface)
        return 0
    if not args.capture:
        print("bthome-proxy: nothing to do (--capture, --extcap-config, ...)",
              file=sys.stderr)
        return 2
    try:
        capture(args)
    except CaptureError as e:
        print(e.args[0], file=sys.stderr)
        return 1
    except Exception as e:
        if isinstance(e, OSError) and netio.output_closed(e):
            return 0    # Wireshark closed the fifo (EINVAL on Windows): the capture is over
        # Never a traceback: it could show a key in a local variable's repr.
        print(f"bthome-proxy: internal error: {type(e).__name__}", file=sys.stderr)
        return 3
    return 0
