@echo off
rem Wireshark runs programs and batch files from its extcap folders, not Python scripts:
rem this runs bthome-proxy, beside it, with the Python launcher (py -3) or else python,
rem and passes its exit code on (Wireshark shows its error line when it is not 0).
where py >nul 2>nul || goto python
py -3 "%~dp0bthome-proxy" %*
exit /b %errorlevel%
:python
python "%~dp0bthome-proxy" %*
exit /b %errorlevel%
