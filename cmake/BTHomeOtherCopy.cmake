# SPDX-License-Identifier: GPL-2.0-or-later
# Run by `cmake --install` (and so ./quickstart.sh) right after the plugin is installed,
# from bthome_install_plugin() in cmake/BTHomeInstall.cmake, with
#   BTHOME_OWN_DIR       the folder just installed into (absolute, or under the prefix)
#   BTHOME_GLOBAL_DIR    Wireshark's global plugin folder, under the prefix
#   BTHOME_WS_VERSION    X.Y
#   BTHOME_USER_INSTALL  whether BTHOME_OWN_DIR is the personal folder
# It looks for a bthome.so of another install in the other plugin folder of the same
# Wireshark X.Y and says which copy Wireshark loads and how to remove the other.
# Wireshark 4.0 to 4.6 (wsutil/plugins.c, plugins_init) scan the global folder first, then
# the personal one (only when not run as root); a file name already seen is skipped with
# the warning "The plugin 'bthome.so' was found in multiple directories". So the global
# copy is the one that runs, and the personal one costs a warning on every run.
# The copy in the folder installed into is simply replaced, as with any install.

function(bthome_under_prefix dir out)     # a folder of the install as it is on disk
    if(NOT IS_ABSOLUTE "${dir}")
        set(dir "${CMAKE_INSTALL_PREFIX}/${dir}")
    endif()
    set(${out} "$ENV{DESTDIR}${dir}" PARENT_SCOPE)
endfunction()

function(bthome_how_to_remove file out)   # the package's remove command, or rm
    find_program(BTHOME_DPKG_QUERY dpkg-query)
    if(BTHOME_DPKG_QUERY)
        execute_process(COMMAND ${BTHOME_DPKG_QUERY} -S "${file}" OUTPUT_VARIABLE owner
            RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(rc EQUAL 0 AND owner MATCHES "^([^:, ]+)")
            set(${out} "sudo apt remove ${CMAKE_MATCH_1}" PARENT_SCOPE)
            return()
        endif()
    endif()
    set(${out} "rm '${file}'" PARENT_SCOPE)
endfunction()

bthome_under_prefix("${BTHOME_OWN_DIR}" own)
set(own "${own}/bthome.so")
set(warning "\"The plugin 'bthome.so' was found in multiple directories\"")
if(BTHOME_USER_INSTALL)
    bthome_under_prefix("${BTHOME_GLOBAL_DIR}" global)
    set(global "${global}/bthome.so")
    if(EXISTS "${global}" AND NOT global STREQUAL own)
        bthome_how_to_remove("${global}" remove)
        if(NOT remove MATCHES "^sudo")
            set(remove "sudo ${remove}")
        endif()
        message("bthome: another bthome.so is in Wireshark ${BTHOME_WS_VERSION}'s global "
            "plugin folder: ${global}\n"
            "bthome: Wireshark loads that one, not the one just installed (${own}): it "
            "reads the global folder first and skips the personal copy with the warning "
            "${warning} on every run.\n"
            "bthome: to use the new one, remove the global copy: ${remove}\n"
            "bthome: to keep the global one, remove the new one: rm '${own}'")
    endif()
else()
    # The personal folders of who installs: $HOME, and the user behind sudo.
    set(homes "$ENV{HOME}")
    if(DEFINED ENV{SUDO_USER} AND NOT "$ENV{SUDO_USER}" STREQUAL "root")
        execute_process(COMMAND getent passwd "$ENV{SUDO_USER}" OUTPUT_VARIABLE entry
            RESULT_VARIABLE rc ERROR_QUIET)
        if(rc EQUAL 0 AND entry MATCHES "^[^:]*:[^:]*:[^:]*:[^:]*:[^:]*:([^:]*):")
            list(APPEND homes "${CMAKE_MATCH_1}")
        endif()
    endif()
    foreach(home IN LISTS homes)
        set(personal "$ENV{DESTDIR}${home}/.local/lib/wireshark/plugins/${BTHOME_WS_VERSION}/epan/bthome.so")
        if(home AND EXISTS "${personal}" AND NOT personal STREQUAL own)
            message("bthome: another bthome.so is in a personal plugin folder: ${personal}\n"
                "bthome: Wireshark ${BTHOME_WS_VERSION} loads the global one just installed "
                "(${own}) and skips that copy with the warning ${warning} on every run of "
                "its user.\n"
                "bthome: remove it: rm '${personal}'")
        endif()
    endforeach()
endif()
