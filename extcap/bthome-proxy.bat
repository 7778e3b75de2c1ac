@echo off
rem Wireshark on Windows runs extcaps that are programs or batch files: this one
rem runs bthome-proxy, beside it, with the Python 3 launcher (py) or python.
where py >nul 2>nul && (py -3 "%~dp0bthome-proxy" %*) || (python "%~dp0bthome-proxy" %*)
