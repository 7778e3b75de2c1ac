# SPDX-License-Identifier: GPL-2.0-or-later
# Where `cmake --install` puts the plugin (and tools/bthome-keys, installed TYPE BIN).
#   default                      Wireshark's global plugin folder (as packaged plugins),
#                                bthome-keys in <prefix>/bin
#   -DBTHOME_USER_INSTALL=ON     the personal folder ~/.local/lib/wireshark/plugins/X.Y/epan,
#                                bthome-keys in ~/.local/bin
# Wireshark ignores the personal folder when it runs as root, so root installs globally.
option(BTHOME_USER_INSTALL "Install into the personal Wireshark plugin folder" OFF)
if(BTHOME_USER_INSTALL AND NOT DEFINED CMAKE_INSTALL_BINDIR)
    set(CMAKE_INSTALL_BINDIR "$ENV{HOME}/.local/bin")   # what install(... TYPE BIN) uses
endif()

set(BTHOME_WS_VERSION "${Wireshark_MAJOR_VERSION}.${Wireshark_MINOR_VERSION}")
if(CMAKE_INSTALL_PREFIX_INITIALIZED_TO_DEFAULT)  # else /usr/local, which is not scanned
    set(CMAKE_INSTALL_PREFIX "${Wireshark_INSTALL_PREFIX}" CACHE PATH "" FORCE)
endif()

function(bthome_install_plugin target)
    if(BTHOME_USER_INSTALL)
        set(dest "$ENV{HOME}/.local/lib/wireshark/plugins/${BTHOME_WS_VERSION}/epan")
    else()
        set(dest "${Wireshark_PLUGIN_LIBDIR}/epan")
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION "${dest}" NAMELINK_SKIP)
    # A bthome.so of another install in the other plugin folder: say which one runs.
    install(CODE "set(BTHOME_OWN_DIR \"${dest}\")
        set(BTHOME_GLOBAL_DIR \"${Wireshark_PLUGIN_LIBDIR}/epan\")
        set(BTHOME_WS_VERSION ${BTHOME_WS_VERSION})
        set(BTHOME_USER_INSTALL ${BTHOME_USER_INSTALL})
        include(\"${PROJECT_SOURCE_DIR}/cmake/BTHomeOtherCopy.cmake\")")
    message(STATUS "BTHome plugin for Wireshark ${BTHOME_WS_VERSION} installs to ${dest}")
endfunction()
