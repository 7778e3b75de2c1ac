/* standalone_plugin.c
 * The plugin's registration with Wireshark, compiled only in the standalone build
 * (against installed development files). Built inside Wireshark's source tree, the
 * tree's CMake generates the same from packet-bthome.c (tools/make-plugin-reg.py
 * writes plugin.c), so there this file would be a second registration.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_BUILD_DLL    /* the symbols below are the plugin's exports */
#include <wireshark.h>
#include <epan/proto.h>

#include "packet-bthome.h"
#include "ws_compat.h"

WS_DLL_PUBLIC_DEF const char plugin_version[] = PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;
WS_DLL_PUBLIC void plugin_register(void);
#if WSC_AT_LEAST(4, 4)
#include <wsutil/plugins.h>
WS_DLL_PUBLIC uint32_t plugin_describe(void);
#endif

void plugin_register(void)
{
    static proto_plugin plugin_bthome;

    plugin_bthome.register_protoinfo = proto_register_bthome;
    plugin_bthome.register_handoff = proto_reg_handoff_bthome;
    proto_register_plugin(&plugin_bthome);
}

#if WSC_AT_LEAST(4, 4)
uint32_t plugin_describe(void)
{
    return WS_PLUGIN_DESC_DISSECTOR;
}
#endif
