/* Shims so that one source builds against Wireshark 4.0 through 4.6
 * (see shared/wireshark-plugin-api.md section 4). */
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

#if !WSC_AT_LEAST(4, 4)
/* The C99-style tvb accessors arrived in 4.4; the g-names are deprecated there. */
#define tvb_get_uint8 tvb_get_guint8
#endif

#endif
