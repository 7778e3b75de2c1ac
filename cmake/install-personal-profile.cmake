# SPDX-License-Identifier: GPL-2.0-or-later
# Install a configuration profile into the personal profiles folder, unless a profile of
# that name is already there: a user's own profile is never overwritten. Run by
# `cmake --install` with -DBTHOME_USER_INSTALL=ON, or alone:
#   cmake -DBTHOME_PROFILE_SOURCE=profile/BTHome -P cmake/install-personal-profile.cmake
# The folder is where Wireshark looks: $WIRESHARK_CONFIG_DIR, else ~/.wireshark when it
# exists, else $XDG_CONFIG_HOME/wireshark (~/.config/wireshark); then profiles/<name>.
if(NOT BTHOME_PROFILE_SOURCE)
    message(FATAL_ERROR "set BTHOME_PROFILE_SOURCE to the profile folder")
endif()
get_filename_component(name "${BTHOME_PROFILE_SOURCE}" NAME)
include("${CMAKE_CURRENT_LIST_DIR}/wireshark-config-dir.cmake")   # sets config
if(EXISTS "${config}/profiles/${name}")
    message(STATUS "Profile ${name}: kept your own ${config}/profiles/${name} "
        "(not overwritten; rename or remove it to get the plugin's)")
else()
    file(INSTALL "${BTHOME_PROFILE_SOURCE}" DESTINATION "${config}/profiles")
    message(STATUS "Profile ${name}: installed into ${config}/profiles/${name}")
endif()
