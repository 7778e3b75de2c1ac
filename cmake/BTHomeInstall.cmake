# SPDX-License-Identifier: GPL-2.0-or-later
# Where `cmake --install` puts the plugin (and tools/bthome-keys, installed TYPE BIN,
# with its modules in share/bthome-keys beside that bin folder: bthome_install_keys).
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

# The BTHome configuration profile (profile/BTHome, issue 28):
#   default                      Wireshark's global profiles folder,
#                                <prefix>/share/wireshark/profiles/BTHome (`tshark -G folders`
#                                "Global configuration" + /profiles), offered to every user
#   -DBTHOME_USER_INSTALL=ON     the personal profiles folder, only when no profile of that
#                                name is there (cmake/install-personal-profile.cmake)
set(BTHOME_GLOBAL_PROFILES_DIR "share/wireshark/profiles" CACHE STRING
    "Wireshark's global profiles folder, relative to the install prefix")
function(bthome_install_profile source_dir)
    get_filename_component(name "${source_dir}" NAME)
    if(BTHOME_USER_INSTALL)
        install(CODE "set(BTHOME_PROFILE_SOURCE \"${source_dir}\")
            include(\"${PROJECT_SOURCE_DIR}/cmake/install-personal-profile.cmake\")")
        message(STATUS "Profile ${name} installs to your personal profiles folder "
            "unless you have one of that name")
    else()
        install(DIRECTORY "${source_dir}" DESTINATION "${BTHOME_GLOBAL_PROFILES_DIR}")
        message(STATUS "Profile ${name} installs to "
            "${CMAKE_INSTALL_PREFIX}/${BTHOME_GLOBAL_PROFILES_DIR}/${name}")
    endif()
endfunction()

# The extcap (extcap/: bthome-proxy, its modules in bthomeproxy/, and on Windows the
# bthome-proxy.bat launcher; issue 40):
#   default                      Wireshark's global extcap folder (`tshark -G folders`
#                                "Extcap path"), relative to the prefix as the plugin's
#   -DBTHOME_USER_INSTALL=ON     the personal extcap folder: Wireshark 4.0 reads the
#                                extcap folder of its configuration folder
#                                (~/.config/wireshark/extcap), 4.1 and later
#                                ~/.local/lib/wireshark/extcap (cmake/install-personal-extcap.cmake)
if(DEFINED Wireshark_EXTCAP_INSTALL_DIR AND DEFINED Wireshark_INSTALL_PREFIX)
    file(RELATIVE_PATH extcap_dir "${Wireshark_INSTALL_PREFIX}" "${Wireshark_EXTCAP_INSTALL_DIR}")
else()      # plugins/X.Y's sibling, as Wireshark lays them out
    get_filename_component(extcap_dir "${Wireshark_PLUGIN_LIBDIR}/../../extcap" ABSOLUTE
        BASE_DIR "/")
    string(REGEX REPLACE "^/" "" extcap_dir "${extcap_dir}")
endif()
set(BTHOME_GLOBAL_EXTCAP_DIR "${extcap_dir}" CACHE STRING
    "Wireshark's global extcap folder, relative to the install prefix")
function(bthome_install_extcap source_dir)
    if(BTHOME_USER_INSTALL)
        install(CODE "set(BTHOME_EXTCAP_SOURCE \"${source_dir}\")
            set(BTHOME_WS_VERSION ${BTHOME_WS_VERSION})
            include(\"${PROJECT_SOURCE_DIR}/cmake/install-personal-extcap.cmake\")")
        message(STATUS "Extcap bthome-proxy installs to your personal extcap folder")
        return()
    endif()
    install(PROGRAMS "${source_dir}/bthome-proxy" DESTINATION "${BTHOME_GLOBAL_EXTCAP_DIR}")
    install(DIRECTORY "${source_dir}/bthomeproxy" DESTINATION "${BTHOME_GLOBAL_EXTCAP_DIR}"
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
    if(WIN32)
        install(FILES "${source_dir}/bthome-proxy.bat" DESTINATION "${BTHOME_GLOBAL_EXTCAP_DIR}")
    endif()
    message(STATUS "Extcap bthome-proxy installs to "
        "${CMAKE_INSTALL_PREFIX}/${BTHOME_GLOBAL_EXTCAP_DIR}")
endfunction()

# bthome-keys: its launcher (TOOLS_DIR/bthome-keys) into the bin folder, its package
# (TOOLS_DIR/bthome_keys) into share/bthome-keys beside that bin folder, where the launcher
# looks for it: /usr/bin and /usr/share/bthome-keys, ~/.local/bin and
# ~/.local/share/bthome-keys.
function(bthome_install_keys tools_dir)
    install(PROGRAMS "${tools_dir}/bthome-keys" TYPE BIN)
    set(bin_parent "")
    if(CMAKE_INSTALL_BINDIR)
        get_filename_component(bin_parent "${CMAKE_INSTALL_BINDIR}" DIRECTORY)
    endif()
    if(bin_parent)
        set(share "${bin_parent}/share/bthome-keys")
    else()
        set(share "share/bthome-keys")
    endif()
    install(DIRECTORY "${tools_dir}/bthome_keys" DESTINATION "${share}"
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
endfunction()
