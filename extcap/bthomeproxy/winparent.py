# SPDX-License-Identifier: GPL-2.0-or-later
"""Windows: Wireshark stops an extcap by ending the process it started, here the .bat's
cmd.exe (TerminateProcess reaches no child), and Python, started by it directly or through
the py launcher, is left running, subscribed: it watches its ancestors up to that cmd.exe
and stops when one of them is gone. (POSIX needs none of this: an orphan's parent id
changes, cli.StopFlag.)"""
import ctypes
import os

SYNCHRONIZE = 0x00100000
TH32CS_SNAPPROCESS = 0x2
WAIT_OBJECT_0 = 0
MAX_DEPTH = 3                   # python.exe <- py.exe <- cmd.exe


def watched(processes, pid):
    """The ancestors of pid to watch, nearest first: up to and including the first
    cmd.exe (the .bat's), at most MAX_DEPTH. processes: {pid: (parent pid, exe name)}."""
    out = []
    while len(out) < MAX_DEPTH and pid in processes:
        parent = processes[pid][0]
        if not parent or parent not in processes or parent in out:
            break
        out.append(parent)
        if processes[parent][1].lower() == "cmd.exe":
            break
        pid = parent
    return out


class Ancestors:
    """gone(): True once a watched ancestor has ended."""

    def __init__(self):
        from ctypes import wintypes

        class Entry(ctypes.Structure):                  # PROCESSENTRY32W
            _fields_ = [("dwSize", wintypes.DWORD), ("cntUsage", wintypes.DWORD),
                        ("th32ProcessID", wintypes.DWORD),
                        ("th32DefaultHeapID", ctypes.c_size_t),
                        ("th32ModuleID", wintypes.DWORD), ("cntThreads", wintypes.DWORD),
                        ("th32ParentProcessID", wintypes.DWORD),
                        ("pcPriClassBase", ctypes.c_long), ("dwFlags", wintypes.DWORD),
                        ("szExeFile", ctypes.c_wchar * 260)]

        k32 = ctypes.WinDLL("kernel32", use_last_error=True)
        k32.CreateToolhelp32Snapshot.restype = wintypes.HANDLE
        k32.CreateToolhelp32Snapshot.argtypes = (wintypes.DWORD, wintypes.DWORD)
        k32.Process32FirstW.argtypes = k32.Process32NextW.argtypes = (
            wintypes.HANDLE, ctypes.POINTER(Entry))
        k32.OpenProcess.restype = wintypes.HANDLE
        k32.OpenProcess.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
        k32.WaitForSingleObject.argtypes = (wintypes.HANDLE, wintypes.DWORD)
        k32.CloseHandle.argtypes = (wintypes.HANDLE,)
        self.k32 = k32
        processes = {}
        snap = k32.CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0)
        if snap and snap != wintypes.HANDLE(-1).value:
            entry = Entry()
            entry.dwSize = ctypes.sizeof(Entry)
            more = k32.Process32FirstW(snap, ctypes.byref(entry))
            while more:
                processes[entry.th32ProcessID] = (entry.th32ParentProcessID,
                                                  entry.szExeFile)
                more = k32.Process32NextW(snap, ctypes.byref(entry))
            k32.CloseHandle(snap)
        self.handles = [h for h in (k32.OpenProcess(SYNCHRONIZE, False, pid)
                                    for pid in watched(processes, os.getpid())) if h]

    def gone(self):
        return any(self.k32.WaitForSingleObject(h, 0) == WAIT_OBJECT_0
                   for h in self.handles)
