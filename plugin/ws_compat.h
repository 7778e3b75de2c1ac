/* Shims so that one source builds against Wireshark 4.0 through 4.6.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_WS_COMPAT_H
#define BTHOME_WS_COMPAT_H

#include <wireshark.h>

#define WSC_AT_LEAST(M, m) (WIRESHARK_VERSION_MAJOR > (M) || \
    (WIRESHARK_VERSION_MAJOR == (M) && WIRESHARK_VERSION_MINOR >= (m)))

#if WSC_AT_LEAST(4, 2)
typedef bool wsc_uat_bool;      /* UAT update and field-check callbacks return bool */
#else
typedef gboolean wsc_uat_bool;
#endif

#ifndef UNS     /* 4.4 added it for unit strings in hf[] */
#define UNS(x) ((const void *)(x))
#endif

#endif
