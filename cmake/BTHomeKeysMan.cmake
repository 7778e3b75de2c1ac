# SPDX-License-Identifier: GPL-2.0-or-later
# bthome-keys' man page from its --help, by help2man:
#   cmake -DTOOL=tools/bthome-keys -DVERSION=0.1.0 -DOUT=bthome-keys.1 -P cmake/BTHomeKeysMan.cmake
# Used by the Debian package (cmake/debian/install-doc.cmake.in) and by
# tests/stages/package.sh, which makes it again to check the packaged page is this one. The
# page's date is the one of the newest entry of cmake/debian/changelog.in.
foreach(var TOOL VERSION OUT)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "BTHomeKeysMan.cmake: -D${var}=... is missing")
    endif()
endforeach()
find_program(HELP2MAN help2man)
if(NOT HELP2MAN)
    message(FATAL_ERROR "help2man is missing (apt install help2man): it makes "
        "bthome-keys' man page")
endif()
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in" trailer REGEX "^ -- " LIMIT_COUNT 1)
string(REGEX REPLACE "^ -- .*  " "" date "${trailer}")
execute_process(COMMAND date -d "${date}" +%s OUTPUT_VARIABLE epoch RESULT_VARIABLE rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${CMAKE_COMMAND} -E env COLUMNS=80 LC_ALL=C.UTF-8
    SOURCE_DATE_EPOCH=${epoch}
    ${HELP2MAN} --no-info --section=1 --version-string=${VERSION}
    "--name=import BTHome keys into Wireshark's BTHome keys table" --output=${OUT} ${TOOL}
    RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "help2man ${TOOL} failed")
endif()
