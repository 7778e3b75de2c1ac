# SPDX-License-Identifier: GPL-2.0-or-later
# Install the extcap (BTHOME_EXTCAP_SOURCE: extcap/) into the personal extcap folder of
# Wireshark BTHOME_WS_VERSION (X.Y). Run by `cmake --install` with -DBTHOME_USER_INSTALL=ON.
# Wireshark 4.0 reads <configuration folder>/extcap (wsutil/filesystem.c: the personal
# configuration file "extcap"); 4.1 and later ~/.local/lib/wireshark/extcap.
if(NOT BTHOME_EXTCAP_SOURCE OR NOT BTHOME_WS_VERSION)
    message(FATAL_ERROR "set BTHOME_EXTCAP_SOURCE and BTHOME_WS_VERSION")
endif()
if(BTHOME_WS_VERSION VERSION_LESS 4.1)
    include("${CMAKE_CURRENT_LIST_DIR}/wireshark-config-dir.cmake")   # sets config
    set(dest "${config}/extcap")
else()
    set(dest "$ENV{HOME}/.local/lib/wireshark/extcap")
endif()
file(INSTALL "${BTHOME_EXTCAP_SOURCE}/bthome-proxy" DESTINATION "${dest}"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)
file(INSTALL "${BTHOME_EXTCAP_SOURCE}/bthomeproxy" DESTINATION "${dest}"
    FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
message(STATUS "Extcap bthome-proxy: installed into ${dest}")
