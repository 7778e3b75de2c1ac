/* Pure-C core of the BTHome dissector; see bthome_core.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bthome_core.h"
#include "bthome_objects.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define BTHOME_ROW(id_, name_, field_, kind_, type_, len_, factor_, unit_, words_) \
    [id_] = { id_, name_, field_, BTHOME_KIND_##kind_, BTHOME_TYPE_##type_, len_,  \
              factor_, unit_, words_ },
static const bthome_object_def_t defs_by_id[256] = { BTHOME_OBJECT_TABLE(BTHOME_ROW) };

#define BTHOME_ROW_PTR(id_, ...) &defs_by_id[id_],
static const bthome_object_def_t *const defs_in_order[] = {
    BTHOME_OBJECT_TABLE(BTHOME_ROW_PTR)
};

const bthome_object_def_t *bthome_object_def(uint8_t id)
{
    /* a row the table lacks is all zeros: no name */
    return defs_by_id[id].name ? &defs_by_id[id] : NULL;
}

const bthome_object_def_t *const *bthome_object_defs(size_t *count)
{
    *count = sizeof defs_in_order / sizeof defs_in_order[0];
    return defs_in_order;
}

bool bthome_type_is_signed(bthome_type_t type)
{
    return type == BTHOME_TYPE_S8 || type == BTHOME_TYPE_S16 || type == BTHOME_TYPE_S32;
}

unsigned bthome_factor_decimals(const bthome_object_def_t *def)
{
    const char *dot = strchr(def->factor, '.');
    return dot ? (unsigned)strlen(dot + 1) : 0;
}

int64_t bthome_factor_digits(const bthome_object_def_t *def)
{
    int64_t digits = 0;
    for (const char *c = def->factor; *c; c++)
        if (*c >= '0' && *c <= '9')
            digits = digits * 10 + (*c - '0');
    return digits;
}

/* What parsing needs of a row, worked out from its text once (bthome_core_init). */
typedef struct {
    uint8_t first_id;       /* lowest ID sharing the row's field: numbers "Temperature 2" */
    uint8_t decimals;
    int64_t digits;         /* the factor is digits / 10^decimals */
    double divisor;         /* 10^decimals */
} row_facts_t;

static row_facts_t facts_by_id[256];
static bool facts_ready;

void bthome_core_init(void)
{
    size_t n = sizeof defs_in_order / sizeof defs_in_order[0];

    if (facts_ready)
        return;

    for (size_t i = 0; i < n; i++) {
        const bthome_object_def_t *def = defs_in_order[i];
        row_facts_t *f = &facts_by_id[def->id];
        size_t first = 0;

        while (strcmp(defs_in_order[first]->field, def->field) != 0)
            first++;
        f->first_id = defs_in_order[first]->id;
        f->decimals = (uint8_t)bthome_factor_decimals(def);
        f->digits = bthome_factor_digits(def);
        f->divisor = 1.0;
        for (unsigned k = f->decimals; k > 0; k--)
            f->divisor *= 10.0;
    }
    facts_ready = true;
}

double bthome_scale(const bthome_object_def_t *def, int64_t raw)
{
    const row_facts_t *f = &facts_by_id[def->id];

    /* an exact integer over a power of ten: 2506 x 0.01 is the double nearest 25.06 */
    return (double)(raw * f->digits) / f->divisor;
}

/* A word's value: the table writes plain decimals. */
static int64_t word_value(const char *w)
{
    int64_t v = 0;

    for (; *w >= '0' && *w <= '9'; w++)
        v = v * 10 + (*w - '0');
    return v;
}

/* Words are "false|true" for BINARY rows and "value=word|..." for the others. */
bool bthome_words_next(const char **cursor, int64_t *position, bthome_word_t *out)
{
    const char *w = *cursor;
    if (!*w)
        return false;
    const char *end = strchr(w, '|');
    size_t len = end ? (size_t)(end - w) : strlen(w);
    const char *eq = memchr(w, '=', len);
    out->value = eq ? word_value(w) : *position;
    out->word = eq ? eq + 1 : w;
    out->word_len = len - (size_t)(out->word - w);
    *cursor = end ? end + 1 : w + len;
    (*position)++;
    return true;
}

bool bthome_word(const bthome_object_def_t *def, int64_t value, char *buf, size_t size)
{
    const char *cursor = def->words;
    int64_t position = 0;
    bthome_word_t w;

    while (bthome_words_next(&cursor, &position, &w)) {
        if (w.value == value) {
            size_t n = w.word_len < size ? w.word_len : size - 1;
            if (size) {
                memcpy(buf, w.word, n);
                buf[n] = '\0';
            }
            return true;
        }
    }
    return false;
}

bthome_header_status_t bthome_parse_v2_header(const uint8_t *data, size_t len,
                                              bthome_v2_header_t *hdr)
{
    memset(hdr, 0, sizeof *hdr);
    if (len == 0)
        return BTHOME_HEADER_EMPTY;
    hdr->info = data[0];
    hdr->encrypted = hdr->info & BTHOME_INFO_ENCRYPTED;
    hdr->mac_included = hdr->info & BTHOME_INFO_MAC_INCLUDED;
    hdr->trigger_based = hdr->info & BTHOME_INFO_TRIGGER_BASED;
    hdr->reserved = (hdr->info & BTHOME_INFO_RESERVED) >> 3;
    hdr->version = (hdr->info & BTHOME_INFO_VERSION) >> BTHOME_INFO_VERSION_SHIFT;
    hdr->body_offset = 1;
    if (!hdr->mac_included)
        return BTHOME_HEADER_OK;
    hdr->mac_offset = 1;
    if (len < 1 + BTHOME_MAC_LEN) {
        hdr->body_offset = len;
        return BTHOME_HEADER_MAC_CUT;
    }
    bthome_mac_reverse(hdr->mac, data + 1);
    hdr->has_mac = true;
    hdr->body_offset = 1 + BTHOME_MAC_LEN;
    return BTHOME_HEADER_OK;
}

unsigned bthome_type_size(bthome_type_t type)
{
    switch (type) {
    case BTHOME_TYPE_U8: case BTHOME_TYPE_S8: return 1;
    case BTHOME_TYPE_U16: case BTHOME_TYPE_S16: return 2;
    case BTHOME_TYPE_U24: return 3;
    case BTHOME_TYPE_U32: case BTHOME_TYPE_S32: return 4;
    default: return 0;
    }
}

void bthome_type_range(bthome_type_t type, int64_t *min, int64_t *max)
{
    unsigned bits = 8 * (bthome_type_size(type) ? bthome_type_size(type) : 1);
    if (bthome_type_is_signed(type)) {
        *min = -((int64_t)1 << (bits - 1));
        *max = ((int64_t)1 << (bits - 1)) - 1;
    } else {
        *min = 0;
        *max = ((int64_t)1 << bits) - 1;
    }
}

static int64_t read_le(const uint8_t *p, bthome_type_t type)
{
    switch (type) {
    case BTHOME_TYPE_U8: return p[0];
    case BTHOME_TYPE_S8: return (int8_t)p[0];
    case BTHOME_TYPE_U16: return (uint16_t)(p[0] | p[1] << 8);
    case BTHOME_TYPE_S16: return (int16_t)(p[0] | p[1] << 8);
    case BTHOME_TYPE_U24: return (int64_t)(p[0] | p[1] << 8 | (uint32_t)p[2] << 16);
    case BTHOME_TYPE_U32:
        return (int64_t)(p[0] | p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    case BTHOME_TYPE_S32:
        return (int32_t)(p[0] | p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    default: return 0;      /* not an integer type */
    }
}

void bthome_parser_init(bthome_parser_t *p, const uint8_t *data, size_t len)
{
    memset(p, 0, sizeof *p);
    p->data = data;
    p->len = len;
    p->prev_id = -1;
}

/* Objects are numbered per field: 0x02 then 0x45 are "Temperature", "Temperature 2". */
unsigned bthome_next_ordinal(bthome_ordinals_t *seen, const bthome_object_def_t *def)
{
    uint8_t *count = &seen->count[facts_by_id[def->id].first_id];

    if (*count < UINT8_MAX)
        (*count)++;
    return *count;
}

/* Sets the value bytes of a variable-length object; false when they overrun. */
static bool read_var_length(bthome_object_t *obj, const uint8_t *rest, size_t avail)
{
    bool command = obj->def->type == BTHOME_TYPE_CMD;
    size_t header = command ? 2 : 1;            /* length byte (+ opcode) */
    if (avail < header) {
        obj->status = BTHOME_OBJ_TRUNCATED;
        return false;
    }
    size_t n = command ? (rest[0] & 0x1F) : rest[0];
    obj->reserved_bits = command && (rest[0] & 0xE0);
    obj->value_offset = obj->offset + 2;       /* after the ID and the length byte */
    obj->value_length = command ? n + 1 : n;    /* a command's value: opcode + args */
    if (avail < header + n) {
        obj->status = BTHOME_OBJ_LENGTH_OVERRUN;
        return false;
    }
    return true;
}

static void decode_value(bthome_object_t *obj, const uint8_t *v)
{
    const bthome_object_def_t *def = obj->def;

    switch (def->kind) {
    case BTHOME_KIND_NUMBER:
        obj->raw = read_le(v, def->type);
        obj->value = bthome_scale(def, obj->raw);
        break;
    case BTHOME_KIND_BINARY: case BTHOME_KIND_ENUM: case BTHOME_KIND_EVENT:
    case BTHOME_KIND_TIMESTAMP:
        obj->raw = read_le(v, def->type);
        break;
    case BTHOME_KIND_TEXT:
        obj->invalid_utf8 = !bthome_utf8_valid(v, obj->value_length);
        break;
    case BTHOME_KIND_DIMMER:
        obj->raw = v[0];
        obj->steps = v[1];
        obj->has_steps = true;
        break;
    case BTHOME_KIND_COMMAND:
        obj->raw = v[0];
        /* step up (3) / step down (4) carry the number of steps as a 1-byte argument */
        obj->has_steps = (v[0] == 3 || v[0] == 4) && obj->value_length == 2;
        obj->steps = obj->has_steps ? v[1] : 0;
        break;
    case BTHOME_KIND_RAW: case BTHOME_KIND_FIRMWARE:
        break;
    }
}

bool bthome_parser_next(bthome_parser_t *p, bthome_object_t *obj)
{
    memset(obj, 0, sizeof *obj);
    if (p->stopped || p->pos >= p->len)
        return false;
    obj->offset = p->pos;
    obj->id = p->data[p->pos];
    obj->def = bthome_object_def(obj->id);
    obj->out_of_order = obj->id < p->prev_id;
    size_t avail = p->len - p->pos - 1;
    obj->length = avail + 1;
    if (!obj->def) {
        obj->status = BTHOME_OBJ_UNKNOWN;
        p->stopped = true;
        return true;
    }
    obj->ordinal = bthome_next_ordinal(&p->seen, obj->def);
    p->prev_id = obj->id;
    if (obj->def->length == 0) {
        if (!read_var_length(obj, p->data + p->pos + 1, avail)) {
            p->stopped = true;
            return true;
        }
    } else {
        obj->value_offset = obj->offset + 1;
        obj->value_length = obj->def->length;
        if (avail < obj->def->length) {
            obj->value_length = avail;
            obj->status = BTHOME_OBJ_TRUNCATED;
            p->stopped = true;
            return true;
        }
    }
    obj->length = obj->value_offset + obj->value_length - obj->offset;
    decode_value(obj, p->data + obj->value_offset);
    p->pos = obj->offset + obj->length;
    return true;
}

bool bthome_utf8_valid(const uint8_t *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint8_t c = s[i];
        size_t n;
        uint32_t cp;
        if (c < 0x80) { i++; continue; }
        else if (c >= 0xC2 && c <= 0xDF) { n = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { n = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { n = 3; cp = c & 0x07; }
        else return false;
        if (len - i - 1 < n)
            return false;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        /* overlong forms, UTF-16 surrogates and code points past U+10FFFF */
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
            return false;
        i += n + 1;
    }
    return true;
}

/* Printable copy of a text value: control characters and invalid bytes escaped. */
static void format_text(const uint8_t *s, size_t len, char *buf, size_t size)
{
    size_t out = 0;
    for (size_t i = 0; i < len && out + 5 < size;) {
        uint8_t c = s[i];
        size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (c >= 0x20 && c != 0x7F && n <= len - i && bthome_utf8_valid(s + i, n)) {
            if (out + n >= size)
                break;
            memcpy(buf + out, s + i, n);
            out += n;
            i += n;
        } else {
            out += (size_t)snprintf(buf + out, size - out, "\\x%02x", c);
            i++;
        }
    }
    buf[out] = '\0';
}

void bthome_format_number(int64_t scaled, unsigned decimals, const char *unit,
                          char *buf, size_t size)
{
    uint64_t mag = scaled < 0 ? 0 - (uint64_t)scaled : (uint64_t)scaled;
    size_t unit_len = strlen(unit);
    char digits[24];        /* the magnitude's digits, least significant first */
    char text[96];
    size_t n = 0, out = 0;

    do {
        digits[n++] = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag || n <= decimals);
    if (scaled < 0)
        text[out++] = '-';
    while (n > 0) {
        if (n == decimals)
            text[out++] = '.';
        text[out++] = digits[--n];
    }
    if (unit_len && out + 1 + unit_len < sizeof text) {
        text[out++] = ' ';
        memcpy(text + out, unit, unit_len + 1);
        out += unit_len;
    }
    if (size == 0)
        return;
    out = out < size ? out : size - 1;      /* truncated like snprintf */
    memcpy(buf, text, out);
    buf[out] = '\0';
}

/* gmtime_r is POSIX; the Windows build (MSVC, in Wireshark's tree) has gmtime_s. */
static bool utc_time(time_t t, struct tm *tm)
{
#ifdef _WIN32
    return gmtime_s(tm, &t) == 0;
#else
    return gmtime_r(&t, tm) != NULL;
#endif
}

static void format_word(const bthome_object_t *obj, char *buf, size_t size)
{
    if (!bthome_word(obj->def, obj->raw, buf, size))
        snprintf(buf, size, "unknown (0x%02llx)", (unsigned long long)obj->raw);
}

bool bthome_format_value(const bthome_object_t *obj, const uint8_t *data,
                         char *buf, size_t size)
{
    const uint8_t *v = data + obj->value_offset;
    size_t n = obj->value_length;

    if (size == 0 || !obj->def || obj->status != BTHOME_OBJ_OK)
        return false;
    buf[0] = '\0';
    switch (obj->def->kind) {
    case BTHOME_KIND_NUMBER: {
        const row_facts_t *f = &facts_by_id[obj->def->id];
        bthome_format_number(obj->raw * f->digits, f->decimals, obj->def->unit, buf, size);
        break;
    }
    case BTHOME_KIND_BINARY: case BTHOME_KIND_ENUM: case BTHOME_KIND_EVENT:
        format_word(obj, buf, size);
        break;
    case BTHOME_KIND_DIMMER: case BTHOME_KIND_COMMAND:
        format_word(obj, buf, size);
        if (obj->has_steps) {
            size_t used = strlen(buf);
            snprintf(buf + used, size - used, ", %u steps", obj->steps);
        }
        break;
    case BTHOME_KIND_TIMESTAMP: {
        struct tm tm;
        if (!utc_time((time_t)obj->raw, &tm) ||
            strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
            return false;
        break;
    }
    case BTHOME_KIND_TEXT:
        format_text(v, n, buf, size);
        break;
    case BTHOME_KIND_RAW:
        for (size_t i = 0, out = 0; i < n && out + 3 <= size; i++, out += 2)
            snprintf(buf + out, size - out, "%02x", v[i]);
        break;
    case BTHOME_KIND_FIRMWARE: {
        /* most significant byte last: 00 01 02 04 reads 4.2.1.0 */
        size_t out = 0;
        for (size_t i = n; i > 0 && out < size; i--)
            out += (size_t)snprintf(buf + out, size - out, i == n ? "%u" : ".%u", v[i - 1]);
        break;
    }
    }
    return true;
}

void bthome_format_label(const bthome_object_t *obj, char *buf, size_t size)
{
    if (!obj->def)
        snprintf(buf, size, "Unknown object 0x%02x", obj->id);
    else if (obj->ordinal > 1)
        snprintf(buf, size, "%s %u", obj->def->name, obj->ordinal);
    else
        snprintf(buf, size, "%s", obj->def->name);
}

void bthome_format_mac(const uint8_t mac[BTHOME_MAC_LEN], char out[BTHOME_MAC_TEXT_LEN])
{
    snprintf(out, BTHOME_MAC_TEXT_LEN, "%02X:%02X:%02X:%02X:%02X:%02X",
             mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
}

uint64_t bthome_mac_number(const uint8_t mac[BTHOME_MAC_LEN])
{
    uint64_t number = 0;

    for (int i = 0; i < BTHOME_MAC_LEN; i++)
        number = number << 8 | mac[i];
    return number;
}

void bthome_mac_reverse(uint8_t out[BTHOME_MAC_LEN], const uint8_t in[BTHOME_MAC_LEN])
{
    for (int i = 0; i < BTHOME_MAC_LEN; i++)
        out[i] = in[BTHOME_MAC_LEN - 1 - i];
}
