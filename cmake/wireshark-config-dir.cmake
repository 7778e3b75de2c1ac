# SPDX-License-Identifier: GPL-2.0-or-later
# Sets `config` to Wireshark's personal configuration folder, where Wireshark looks:
# $WIRESHARK_CONFIG_DIR, else ~/.wireshark when it exists, else $XDG_CONFIG_HOME/wireshark
# (~/.config/wireshark). Included by the personal profile and extcap installs.
if(DEFINED ENV{WIRESHARK_CONFIG_DIR})
    set(config "$ENV{WIRESHARK_CONFIG_DIR}")
elseif(IS_DIRECTORY "$ENV{HOME}/.wireshark")
    set(config "$ENV{HOME}/.wireshark")
elseif(DEFINED ENV{XDG_CONFIG_HOME})
    set(config "$ENV{XDG_CONFIG_HOME}/wireshark")
else()
    set(config "$ENV{HOME}/.config/wireshark")
endif()
