/* SPDX-License-Identifier: GPL-2.0-or-later
 * A pass-through libintl for the Windows cross build (tests/lib/build-windows.sh): GLib's
 * meson build wants an "intl" dependency on Windows and would otherwise download its
 * proxy-libintl subproject. tshark is built without translations, so every message is
 * returned untranslated. */
#ifndef BTHOME_PASSTHROUGH_LIBINTL_H
#define BTHOME_PASSTHROUGH_LIBINTL_H

/* As in GNU libintl: the result is a format string when the message is, so that
 * printf-style checks (GLib builds with -Werror=format=2) see through the call. */
#ifdef __GNUC__
#define INTL_FORMAT_ARG(n) __attribute__((format_arg(n)))
#else
#define INTL_FORMAT_ARG(n)
#endif

#ifdef __cplusplus
extern "C" {
#endif

char *gettext(const char *msgid) INTL_FORMAT_ARG(1);
char *dgettext(const char *domain, const char *msgid) INTL_FORMAT_ARG(2);
char *dcgettext(const char *domain, const char *msgid, int category) INTL_FORMAT_ARG(2);
char *ngettext(const char *msgid, const char *msgid_plural, unsigned long n)
    INTL_FORMAT_ARG(1) INTL_FORMAT_ARG(2);
char *dngettext(const char *domain, const char *msgid, const char *msgid_plural,
                unsigned long n) INTL_FORMAT_ARG(2) INTL_FORMAT_ARG(3);
char *dcngettext(const char *domain, const char *msgid, const char *msgid_plural,
                 unsigned long n, int category) INTL_FORMAT_ARG(2) INTL_FORMAT_ARG(3);
char *textdomain(const char *domain);
char *bindtextdomain(const char *domain, const char *dirname);
char *bind_textdomain_codeset(const char *domain, const char *codeset);

#ifdef __cplusplus
}
#endif

#endif
