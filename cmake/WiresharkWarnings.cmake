# SPDX-License-Identifier: GPL-2.0-or-later
# Wireshark's usual C warning set (its CMakeLists.txt: the common and C-only flags it
# builds every dissector with, as errors), for the robustness stage's warnings build.
# Included without touching the project, after project():
#   cmake -S . -B build-warnings -DCMAKE_PROJECT_INCLUDE=$PWD/cmake/WiresharkWarnings.cmake
# Flags the compiler does not know are skipped (gcc lacks -Wcomma, -Wshorten-64-to-32;
# clang lacks -Wlogical-op, -Wjump-misses-init). Wireshark's ENABLE_EXTRA_COMPILER_WARNINGS
# set (-Wconversion, -Wfloat-equal, -Wc++-compat, ...) is not used: Wireshark itself does
# not build clean with it and never makes it an error.
include(CheckCCompilerFlag)

set(WIRESHARK_WARNINGS
    -Wall -Wextra -Wendif-labels -Wpointer-arith -Wformat-security -Wvla -Waddress
    -Wattributes -Wdiv-by-zero -Wignored-qualifiers -Wpragmas -Wno-overlength-strings
    -Wno-long-long -Wheader-guard -Wcomma -Wshorten-64-to-32 -Wredundant-decls
    # C only
    -Wunused-const-variable=1 -Wshadow -Wold-style-definition -Wstrict-prototypes
    -Wmissing-prototypes -Wlogical-op -Wjump-misses-init -Wframe-larger-than=32768)

foreach(flag ${WIRESHARK_WARNINGS})
    string(MAKE_C_IDENTIFIER "BTHOME_CC_HAS${flag}" var)
    check_c_compiler_flag(${flag} ${var})
    if(${var})
        add_compile_options(${flag})
    endif()
endforeach()
# Wireshark's code generation flags that change what the warnings see.
add_compile_options(-fwrapv $<$<C_COMPILER_ID:GNU>:-fno-strict-overflow> -Werror)
