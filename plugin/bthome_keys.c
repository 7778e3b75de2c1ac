/* The "BTHome keys" preferences table (UAT file bthome_keys): rows of device MAC (or
 * "*"), AES key and name, checked when entered, parsed once with their cipher set up.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/uat.h>

#include "bthome_core.h"
#include "bthome_keys.h"
#include "ws_compat.h"

typedef struct {
    char *mac;      /* "AA:BB:CC:DD:EE:FF" or "*" */
    char *key;      /* 32 hex digits */
    char *name;
} key_row_t;

static key_row_t *key_rows;
static unsigned key_row_count;

UAT_CSTRING_CB_DEF(key_row, mac, key_row_t)
UAT_CSTRING_CB_DEF(key_row, key, key_row_t)
UAT_CSTRING_CB_DEF(key_row, name, key_row_t)

/* A valid row, parsed once with its cipher set up: rebuilt whenever the table changes,
 * exact MACs first so that they are tried before "*". */
typedef struct {
    uint8_t mac[BTHOME_MAC_LEN];
    bool wildcard;
    char *mac_text;             /* "54:48:E6:8F:80:A5" or "*" */
    char *name;
    bthome_cipher_t *cipher;
    uint64_t address;           /* mac as a number: the index key */
    unsigned row;               /* table order, kept among the rows of one MAC */
} key_entry_t;

/* Exact entries sorted by MAC (a MAC's rows in table order), then the "*" entries in
 * table order; exact_index maps a MAC to 1 + its first entry, so that a lookup costs
 * the same with 5 keys or 5000 (it runs for every advert: the audit asks whether the
 * device has a key). */
static key_entry_t *key_entries;
static unsigned key_entry_count;
static unsigned wildcard_first;
static GHashTable *exact_index;

/* Error texts never show a key, not even a rejected one: they land in dialogs and
 * tshark's output that people paste into forums. A MAC field is quoted only when it
 * cannot be (part of) a key: no three hex digits in a row and at most the 12 of a MAC. */
static bool may_show(const char *text)
{
    unsigned digits = 0, run = 0;

    for (const char *p = text; *p; p++) {
        if (g_ascii_isxdigit(*p)) {
            digits++;
            if (++run >= 3)
                return false;
        } else {
            run = 0;
        }
    }
    return digits <= 12;
}

static unsigned hex_digits(const char *text)
{
    unsigned digits = 0;

    for (const char *p = text; *p; p++)
        digits += g_ascii_isxdigit(*p) ? 1 : 0;
    return digits;
}

static char *mac_error(const char *text)
{
    if (!text)
        text = "";
    if (may_show(text))
        return g_strdup_printf("Bad MAC \"%s\": write AA:BB:CC:DD:EE:FF, or * for every device",
                               text);
    return g_strdup_printf("Bad MAC (%u characters, %u hex digits, not shown: it may be a key): "
                           "write AA:BB:CC:DD:EE:FF, or * for every device",
                           (unsigned)strlen(text), hex_digits(text));
}

/* How many hex digits, and the first character that is none (separators aside). */
static char *key_error(const char *text)
{
    unsigned position = 0;

    if (!text)
        text = "";
    for (const char *p = text; *p; p++) {
        if (!g_ascii_isxdigit(*p) && *p != ':' && *p != '-' && *p != ' ') {
            position = (unsigned)(p - text) + 1;
            break;
        }
    }
    if (position && g_ascii_isprint(text[position - 1]))
        return g_strdup_printf("Bad key: %u hex digits, and '%c' (character %u) is not hex; "
                               "it must be 32 hex digits (16 bytes)",
                               hex_digits(text), text[position - 1], position);
    if (position)
        return g_strdup_printf("Bad key: %u hex digits, and character %u (byte 0x%02x) is not "
                               "hex; it must be 32 hex digits (16 bytes)",
                               hex_digits(text), position, (unsigned char)text[position - 1]);
    return g_strdup_printf("Bad key: %u hex digits; it must be 32 hex digits (16 bytes)",
                           hex_digits(text));
}

static wsc_uat_bool check_mac_field(void *rec _U_, const char *ptr, unsigned len,
                                    const void *u1 _U_, const void *u2 _U_, char **err)
{
    char *text = g_strndup(ptr, len);
    uint8_t mac[BTHOME_MAC_LEN];
    bool wildcard;
    bool ok = bthome_parse_mac(text, mac, &wildcard);

    if (!ok)
        *err = mac_error(text);
    g_free(text);
    return ok;
}

static wsc_uat_bool check_key_field(void *rec _U_, const char *ptr, unsigned len,
                                    const void *u1 _U_, const void *u2 _U_, char **err)
{
    char *text = g_strndup(ptr, len);
    uint8_t key[BTHOME_KEY_LEN];
    bool ok = bthome_parse_key(text, key);

    if (!ok)
        *err = key_error(text);
    g_free(text);
    return ok;
}

static wsc_uat_bool key_row_update(void *rec, char **err)
{
    const key_row_t *row = (const key_row_t *)rec;
    uint8_t mac[BTHOME_MAC_LEN], key[BTHOME_KEY_LEN];
    bool wildcard;

    if (!bthome_parse_mac(row->mac, mac, &wildcard)) {
        *err = mac_error(row->mac);
        return false;
    }
    if (!bthome_parse_key(row->key, key)) {
        *err = key_error(row->key);
        return false;
    }
    return true;
}

static void *key_row_copy(void *dest, const void *src, size_t len _U_)
{
    const key_row_t *from = (const key_row_t *)src;
    key_row_t *to = (key_row_t *)dest;

    to->mac = g_strdup(from->mac);
    to->key = g_strdup(from->key);
    to->name = g_strdup(from->name);
    return dest;
}

static void key_row_free(void *rec)
{
    key_row_t *row = (key_row_t *)rec;

    g_free(row->mac);
    g_free(row->key);
    g_free(row->name);
}

static void free_key_entries(void)
{
    for (unsigned i = 0; i < key_entry_count; i++) {
        bthome_cipher_free(key_entries[i].cipher);
        g_free(key_entries[i].mac_text);
        g_free(key_entries[i].name);
    }
    g_free(key_entries);
    key_entries = NULL;
    key_entry_count = 0;
    wildcard_first = 0;
    if (exact_index)
        g_hash_table_destroy(exact_index);
    exact_index = NULL;
}

static int by_mac_then_row(const void *a, const void *b)
{
    const key_entry_t *x = (const key_entry_t *)a, *y = (const key_entry_t *)b;

    if (x->address != y->address)
        return x->address < y->address ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static void add_key_entry(const key_row_t *row, bool wildcard_pass)
{
    key_entry_t e = { { 0 }, false, NULL, NULL, NULL, 0, 0 };
    uint8_t key[BTHOME_KEY_LEN];
    char text[BTHOME_MAC_TEXT_LEN];

    /* A row that update_cb refused stays in the table (Wireshark keeps it): skip it. */
    if (!bthome_parse_mac(row->mac, e.mac, &e.wildcard) || e.wildcard != wildcard_pass ||
        !bthome_parse_key(row->key, key) || !(e.cipher = bthome_cipher_new(key)))
        return;
    bthome_format_mac(e.mac, text);
    e.mac_text = g_strdup(e.wildcard ? "*" : text);
    e.name = g_strdup(row->name ? row->name : "");
    e.address = bthome_mac_number(e.mac);
    e.row = key_entry_count;
    key_entries[key_entry_count++] = e;
}

static void key_rows_changed(void)
{
    free_key_entries();
    key_entries = g_new0(key_entry_t, key_row_count ? key_row_count : 1);
    for (unsigned i = 0; i < key_row_count; i++)
        add_key_entry(&key_rows[i], false);
    wildcard_first = key_entry_count;
    for (unsigned i = 0; i < key_row_count; i++)
        add_key_entry(&key_rows[i], true);
    qsort(key_entries, wildcard_first, sizeof *key_entries, by_mac_then_row);
    exact_index = g_hash_table_new(g_int64_hash, g_int64_equal);
    for (unsigned i = wildcard_first; i > 0; i--)   /* last insert wins: the first row */
        g_hash_table_insert(exact_index, &key_entries[i - 1].address, GUINT_TO_POINTER(i));
}

/* The first exact entry of mac, or wildcard_first when it has none. */
static unsigned first_exact(const uint8_t *mac)
{
    uint64_t mac_number;
    unsigned at;

    if (!exact_index || wildcard_first == 0)
        return wildcard_first;      /* no per-device rows: spare the lookup */
    mac_number = bthome_mac_number(mac);
    at = GPOINTER_TO_UINT(g_hash_table_lookup(exact_index, &mac_number));
    return at ? at - 1 : wildcard_first;
}

static bool key_applies(const key_entry_t *e, const uint8_t *mac)
{
    return e->wildcard || memcmp(e->mac, mac, BTHOME_MAC_LEN) == 0;
}

bool bthome_keys_device_has_key(const uint8_t mac[6])
{
    return first_exact(mac) < wildcard_first;
}

bool bthome_keys_decrypt(const uint8_t mac[6], unsigned version, const uint8_t *nonce,
                         size_t nonce_len, const bthome_sealed_t *sealed, uint8_t *plain,
                         bthome_key_match_t *match, bool *tried)
{
    static const uint8_t v1_aad = BTHOME_V1_AAD;

    *tried = false;
    for (unsigned i = first_exact(mac); i < key_entry_count; i++) {
        const key_entry_t *e = &key_entries[i];
        if (!key_applies(e, mac)) {     /* past this MAC's rows: on to the "*" ones */
            i = wildcard_first - 1;
            continue;
        }
        *tried = true;
        if (bthome_ccm_decrypt(e->cipher, nonce, nonce_len, version == 1 ? &v1_aad : NULL,
                               version == 1 ? 1 : 0,
                               sealed->ciphertext, sealed->ciphertext_len, sealed->mic,
                               plain) == BTHOME_CRYPT_OK) {
            match->mac_text = e->mac_text;
            match->name = e->name;
            return true;
        }
    }
    return false;
}

void bthome_register_keys(module_t *module)
{
    static uat_field_t key_fields[] = {
        UAT_FLD_CSTRING_OTHER(key_row, mac, "MAC", check_mac_field,
            "Device address AA:BB:CC:DD:EE:FF (any case), or * to try on every device"),
        UAT_FLD_CSTRING_OTHER(key_row, key, "Key", check_key_field,
            "AES-128 key: 32 hex digits"),
        UAT_FLD_CSTRING(key_row, name, "Name", "Free text, e.g. kitchen"),
        UAT_END_FIELDS
    };
    uat_t *keys = uat_new("BTHome keys", sizeof(key_row_t), "bthome_keys", true, &key_rows,
                          &key_row_count, UAT_AFFECTS_DISSECTION, NULL, key_row_copy,
                          key_row_update, key_row_free, key_rows_changed, NULL, key_fields);

    prefs_register_uat_preference(module, "keys", "BTHome keys",
        "Keys of encrypted devices: exact MACs are tried before * entries", keys);
    register_shutdown_routine(free_key_entries);
}
