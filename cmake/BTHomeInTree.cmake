# SPDX-License-Identifier: GPL-2.0-or-later
# The in-tree build: this checkout as plugins/epan/bthome of a Wireshark source tree,
# configured with -DCUSTOM_PLUGIN_SRC_DIR=plugins/epan/bthome (tools/build-in-tree.sh).
# Included by CMakeLists.txt in Wireshark's own CMake run; written like Wireshark's
# plugins/epan/*/CMakeLists.txt: its registration (plugin.c generated from
# packet-bthome.c's proto_register_bthome and proto_reg_handoff_bthome), its warning
# flags, output folder (run/plugins/X.Y/epan), install rule and checkAPI target. The core
# is compiled into the plugin; the tests and the Debian package belong to the standalone
# build only.
include(WiresharkPlugin)

string(REPLACE "." ";" _bthome_version "${BTHOME_VERSION}")
list(GET _bthome_version 0 _bthome_major)
list(GET _bthome_version 1 _bthome_minor)
list(GET _bthome_version 2 _bthome_micro)
set_module_info(bthome ${_bthome_major} ${_bthome_minor} ${_bthome_micro} 0)

set(DISSECTOR_SRC ${BTHOME_PLUGIN_SOURCES})
set(PLUGIN_FILES plugin.c ${DISSECTOR_SRC} ${BTHOME_CORE_SOURCES})

# Wireshark's warnings as errors when the tree has them (ENABLE_WERROR); BTHOME_WERROR
# keeps them for the plugin alone in a tree whose own code warns on its compiler (the
# MinGW-w64 build of tests/lib/build-windows.sh).
option(BTHOME_WERROR "The plugin's warnings as errors, whatever ENABLE_WERROR says" OFF)
set(_bthome_werror "${WERROR_COMMON_FLAGS}")
if(BTHOME_WERROR AND NOT _bthome_werror)
    set(_bthome_werror $<IF:$<C_COMPILER_ID:MSVC>,/WX,-Werror>)
endif()
set_source_files_properties(${PLUGIN_FILES} PROPERTIES
    COMPILE_OPTIONS "${_bthome_werror}")

register_plugin_files(plugin.c plugin ${DISSECTOR_SRC})

add_wireshark_plugin_library(bthome epan)
target_include_directories(bthome PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/core
    ${CMAKE_CURRENT_SOURCE_DIR}/plugin)
# The core calls libgcrypt (AES-CCM) and libm (v1 floats) itself, linked as Wireshark
# links its own programs to them.
target_include_directories(bthome SYSTEM PRIVATE ${GCRYPT_INCLUDE_DIRS})
target_link_libraries(bthome epan ${GCRYPT_LIBRARIES} ${M_LIBRARIES})

install_plugin(bthome epan)

# Wireshark's fuzz harness with the plugin linked in, in a tree configured with
# ENABLE_FUZZER (tests/fuzz/run-fuzzshark.sh): fuzz/fuzzshark.c, whose target the
# environment names (FUZZSHARK_TARGET), the plugin, and tests/fuzz/fuzzshark_bthome.c,
# which registers it (fuzzshark loads no plugins). The -coverage twin also records which
# lines of plugin/ and core/ an input reaches (clang's source-based coverage).
if(ENABLE_FUZZER)
    set_source_files_properties(tests/fuzz/fuzzshark_bthome.c PROPERTIES
        COMPILE_OPTIONS "${_bthome_werror}")
    foreach(_fuzzer fuzzshark-bthome fuzzshark-bthome-coverage)
        add_executable(${_fuzzer} EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/fuzz/fuzzshark.c
            tests/fuzz/fuzzshark_bthome.c ${CMAKE_CURRENT_BINARY_DIR}/plugin.c
            ${DISSECTOR_SRC} ${BTHOME_CORE_SOURCES})
        # as Wireshark's own fuzzers: the sanitizers want a C++ runtime
        set_target_properties(${_fuzzer} PROPERTIES LINKER_LANGUAGE CXX
            LINK_FLAGS "${WS_LINK_FLAGS} -fsanitize=fuzzer")
        target_include_directories(${_fuzzer} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/core
            ${CMAKE_CURRENT_SOURCE_DIR}/plugin)
        target_include_directories(${_fuzzer} SYSTEM PRIVATE ${GCRYPT_INCLUDE_DIRS})
        target_link_libraries(${_fuzzer} ui wiretap epan version_info ${GCRYPT_LIBRARIES}
            ${M_LIBRARIES})
    endforeach()
    target_compile_options(fuzzshark-bthome-coverage PRIVATE -fprofile-instr-generate
        -fcoverage-mapping)
    target_link_options(fuzzshark-bthome-coverage PRIVATE -fprofile-instr-generate)
endif()

if(COMMAND CHECKAPI)
    file(GLOB _bthome_headers RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}" "plugin/*.h")
    CHECKAPI(
        NAME
          bthome
        SWITCHES
          --group dissectors-prohibited
          --group dissectors-restricted
        SOURCES
          ${DISSECTOR_SRC}
          ${_bthome_headers}
    )
endif()
