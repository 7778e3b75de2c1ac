# SPDX-License-Identifier: GPL-2.0-or-later
# Debian package of the plugin: `cpack -G DEB` (or `cmake --build build --target package`)
# in a build tree makes build/wireshark-plugin-bthome_<version>-<release>_<arch>.deb that
#   - installs bthome.so into the global plugin folder of the Wireshark it was built
#     against (/usr/lib/<triplet>/wireshark/plugins/X.Y/epan),
#   - depends on that Wireshark's ABI package (libwireshark16 for 4.0, found with dpkg -S on
#     the libwireshark the build links) within the plugin's X.Y, plus what dpkg-shlibdeps
#     finds (libwsutil, glib, libgcrypt, libc), and recommends tshark or wireshark,
#   - installs tools/bthome-keys (the key importer, a Python 3 launcher) as /usr/bin/bthome-keys
#     and its modules (tools/bthome_keys) in /usr/share/bthome-keys when the tree has it,
#     and then also recommends python3,
#   - installs the extcap (extcap/bthome-proxy and its modules) into Wireshark's global
#     extcap folder, and then recommends python3 and python3-cryptography,
#   - carries /usr/share/doc/<package>/copyright (cmake/debian/copyright), its
#     changelog.Debian.gz (cmake/debian/changelog.in) and bthome-keys' man page made from
#     its --help by help2man (cmake/BTHomeKeysMan.cmake),
#   - says in its postinst when a personal plugin folder holds another bthome.so, which
#     Wireshark then skips with a warning (cmake/debian/postinst.in).
# Include it after bthome_install_plugin(); it can also be injected into an unchanged
# tree with -DCMAKE_PROJECT_INCLUDE=<this file> (it then waits for the end of the
# configuration). Needs dpkg-dev (dpkg-shlibdeps) and help2man when packaging; lintian
# finds no error or warning in the package (tests/stages/package.sh checks it).
include_guard(GLOBAL)

set(BTHOME_PACKAGE_NAME "wireshark-plugin-bthome" CACHE STRING "Debian package name")
set(BTHOME_PACKAGE_RELEASE "1" CACHE STRING "Debian revision of the package")
# The project's maintainers address (the one its repository's commits carry).
set(BTHOME_PACKAGE_MAINTAINER
    "BTHome Wireshark plugin maintainers <maintainers@users.noreply.a-seed-fe114d7e.example>"
    CACHE STRING "Maintainer field of the Debian package")
if(BTHOME_PACKAGE_MAINTAINER MATCHES "@localhost>$")   # the placeholder of older trees
    set_property(CACHE BTHOME_PACKAGE_MAINTAINER PROPERTY VALUE
        "BTHome Wireshark plugin maintainers <maintainers@users.noreply.a-seed-fe114d7e.example>")
endif()

function(_bthome_package)
    if(BTHOME_USER_INSTALL)
        message(STATUS "BTHome: no Debian package with BTHOME_USER_INSTALL (personal folder)")
        return()
    endif()
    find_program(BTHOME_DPKG_QUERY dpkg-query)
    find_program(BTHOME_DPKG dpkg)
    if(NOT BTHOME_DPKG_QUERY OR NOT BTHOME_DPKG)
        message(STATUS "BTHome: not a Debian system, no Debian package")
        return()
    endif()

    # The libwireshark this build links, and the Debian package that ships it: the ABI
    # package (its name carries the soname, e.g. libwireshark16).
    get_target_property(configs epan IMPORTED_CONFIGURATIONS)
    set(lib "")
    foreach(config IN LISTS configs)
        get_target_property(lib epan IMPORTED_LOCATION_${config})
        if(lib)
            break()
        endif()
    endforeach()
    if(NOT lib)
        get_target_property(lib epan IMPORTED_LOCATION)
    endif()
    get_filename_component(lib "${lib}" REALPATH)
    execute_process(COMMAND ${BTHOME_DPKG_QUERY} -S "${lib}" OUTPUT_VARIABLE owner
        RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0 OR NOT owner MATCHES "^([^:, ]+)")
        message(STATUS "BTHome: ${lib} belongs to no Debian package, no Debian package")
        return()
    endif()
    set(abi_package "${CMAKE_MATCH_1}")
    math(EXPR next_minor "${Wireshark_MINOR_VERSION} + 1")
    set(ws "${Wireshark_MAJOR_VERSION}.${Wireshark_MINOR_VERSION}")
    execute_process(COMMAND ${BTHOME_DPKG} --print-architecture OUTPUT_VARIABLE arch
        OUTPUT_STRIP_TRAILING_WHITESPACE)

    set(CPACK_GENERATOR "DEB" PARENT_SCOPE)
    set(CPACK_PACKAGE_NAME "${BTHOME_PACKAGE_NAME}" PARENT_SCOPE)
    set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}" PARENT_SCOPE)
    set(CPACK_PACKAGE_VENDOR "BTHome Wireshark plugin" PARENT_SCOPE)
    set(CPACK_PACKAGE_CONTACT "${BTHOME_PACKAGE_MAINTAINER}" PARENT_SCOPE)
    set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
        "Wireshark/tshark dissector for BTHome BLE sensor advertisements" PARENT_SCOPE)
    # bthome-keys (installed by the top-level CMakeLists.txt) needs python3 to run.
    set(recommends "tshark | wireshark")
    set(keys_tool_text "")
    if(EXISTS "${PROJECT_SOURCE_DIR}/tools/bthome-keys")
        string(APPEND recommends ", python3")
        string(CONCAT keys_tool_text "bthome-keys brings the keys in from Home Assistant, a plain\n"
            "list or an ESPHome configuration: into a Wireshark profile, or as -o options.\n")
    endif()
    # The extcap (extcap/bthome-proxy, in Wireshark's global extcap folder) is Python 3 too,
    # with python3-cryptography for encrypted ESPHome proxies.
    if(EXISTS "${PROJECT_SOURCE_DIR}/extcap/bthome-proxy")
        if(NOT recommends MATCHES "python3")
            string(APPEND recommends ", python3")
        endif()
        string(APPEND recommends ", python3-cryptography")
    endif()
    # CPack puts the summary first and turns the text below into the extended description.
    string(CONCAT description
        "Decodes BTHome v2 and legacy v1 service data (UUIDs 0xFCD2, 0x181C, 0x181E)\n"
        "from BLE link-layer, nRF Sniffer, HCI, btmon and btsnoop captures: every\n"
        "sensor object as a tree item and a display-filter field (bthome.temperature,\n"
        "bthome.button, ...), expert infos for malformed adverts, decryption with keys\n"
        "from the BTHome keys preference table, a per-device counter audit and a\n"
        "BTHome statistics tree.\n"
        "${keys_tool_text}"
        "\n"
        "Built for Wireshark ${ws} (${abi_package}).")
    set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${description}" PARENT_SCOPE)
    set(CPACK_DEBIAN_PACKAGE_SECTION "net" PARENT_SCOPE)
    set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional" PARENT_SCOPE)
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE "${arch}" PARENT_SCOPE)
    set(CPACK_DEBIAN_PACKAGE_RELEASE "${BTHOME_PACKAGE_RELEASE}" PARENT_SCOPE)
    set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT" PARENT_SCOPE)
    # The plugin loads only in Wireshark X.Y: pin the ABI package to it. dpkg-shlibdeps
    # adds the minimum versions of every library the .so links.
    set(CPACK_DEBIAN_PACKAGE_DEPENDS
        "${abi_package} (>= ${ws}), ${abi_package} (<< ${Wireshark_MAJOR_VERSION}.${next_minor}~)"
        PARENT_SCOPE)
    find_program(BTHOME_DPKG_SHLIBDEPS dpkg-shlibdeps)
    if(BTHOME_DPKG_SHLIBDEPS)
        set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON PARENT_SCOPE)
    else()
        message(STATUS "BTHome: no dpkg-shlibdeps (dpkg-dev): the package will depend on "
            "${abi_package} only")
    endif()
    set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${recommends}" PARENT_SCOPE)
    set(CPACK_DEBIAN_PACKAGE_ENHANCES "tshark, wireshark" PARENT_SCOPE)
    set(CPACK_STRIP_FILES ON PARENT_SCOPE)
    set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}" PARENT_SCOPE)
    # /usr/share/doc/<package>/{copyright,changelog.Debian.gz} and the man page only in
    # the package, not in `cmake --install`.
    set(BTHOME_PACKAGE_DOC "share/doc/${BTHOME_PACKAGE_NAME}")
    set(BTHOME_PACKAGE_COPYRIGHT "${PROJECT_SOURCE_DIR}/cmake/debian/copyright")
    set(BTHOME_PACKAGE_CHANGELOG "${PROJECT_BINARY_DIR}/package-doc/changelog")
    configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in"
        "${BTHOME_PACKAGE_CHANGELOG}" @ONLY)
    file(STRINGS "${BTHOME_PACKAGE_CHANGELOG}" newest LIMIT_COUNT 1)
    if(NOT newest MATCHES "\\(${PROJECT_VERSION}-${BTHOME_PACKAGE_RELEASE}\\)")
        message(WARNING "cmake/debian/changelog.in has no entry for "
            "${PROJECT_VERSION}-${BTHOME_PACKAGE_RELEASE} at its top: add one")
    endif()
    configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/install-doc.cmake.in"
        "${PROJECT_BINARY_DIR}/bthome-package-doc.cmake" @ONLY)
    set(CPACK_INSTALL_SCRIPTS "${PROJECT_BINARY_DIR}/bthome-package-doc.cmake" PARENT_SCOPE)
    # postinst: a personal copy of the plugin is named (Wireshark skips it from now on).
    set(BTHOME_GLOBAL_PLUGIN "${CMAKE_INSTALL_PREFIX}/${Wireshark_PLUGIN_LIBDIR}/epan/bthome.so")
    configure_file("${PROJECT_SOURCE_DIR}/cmake/debian/postinst.in"
        "${PROJECT_BINARY_DIR}/package-control/postinst" @ONLY)
    set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${PROJECT_BINARY_DIR}/package-control/postinst"
        PARENT_SCOPE)
    set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON PARENT_SCOPE)
    message(STATUS "BTHome: cpack -G DEB makes ${BTHOME_PACKAGE_NAME} for Wireshark ${ws}, "
        "depending on ${abi_package}")
endfunction()

macro(_bthome_package_now)
    _bthome_package()
    if(CPACK_GENERATOR)
        include(CPack)
    endif()
endmacro()

if(DEFINED Wireshark_VERSION AND TARGET bthome)
    _bthome_package_now()
else()
    # Injected with CMAKE_PROJECT_INCLUDE, before find_package(Wireshark): run at the end.
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _bthome_package_now)
endif()
