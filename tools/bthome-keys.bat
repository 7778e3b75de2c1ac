@echo off
rem SPDX-License-Identifier: GPL-2.0-or-later
rem bthome-keys on Windows: runs bthome-keys.py from this folder with Python 3 (the py
rem launcher of python.org's installer, else python on PATH), with the same arguments.
setlocal
where py >nul 2>nul
if %errorlevel% equ 0 (
    py -3 "%~dp0bthome-keys.py" %*
) else (
    python "%~dp0bthome-keys.py" %*
)
exit /b %errorlevel%
