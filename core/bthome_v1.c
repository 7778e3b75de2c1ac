/* Legacy BTHome v1 object lists; see bthome_v1.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bthome_v1.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Single and double values are reinterpreted from their wire bits: IEEE 754 binary32 and
 * binary64, as on every platform Wireshark runs on. */
_Static_assert(sizeof(float) == 4 && sizeof(double) == 8, "IEEE float sizes");

#define TWO_POW_53 9007199254740992.0
#define TWO_POW_63 9223372036854775808.0

const char *bthome_v1_format_name(unsigned format)
{
    static const char *const names[] = { "uint", "int", "float", "string", "mac",
                                         "timestamp" };
    return format < sizeof names / sizeof names[0] ? names[format] : NULL;
}

const char *bthome_v1_status_name(bthome_v1_status_t status)
{
    static const char *const names[] = { "ok", "truncated", "zero length", "bad format",
                                         "bad size", "unknown object ID", "out of range" };
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "?";
}

void bthome_v1_parser_init(bthome_v1_parser_t *p, const uint8_t *data, size_t len)
{
    memset(p, 0, sizeof *p);
    p->data = data;
    p->len = len;
}

/* Which formats a kind can take and how many value bytes each allows (bthome_v1.h). */
static bthome_v1_status_t check_shape(unsigned format, const bthome_object_def_t *def,
                                      size_t n)
{
    bthome_kind_t kind = def->kind;
    bool integer = format == BTHOME_V1_UINT || format == BTHOME_V1_INT;
    bool numeric = kind == BTHOME_KIND_NUMBER || kind == BTHOME_KIND_BINARY ||
                   kind == BTHOME_KIND_ENUM || kind == BTHOME_KIND_EVENT;
    bool ok_size;

    if (integer && numeric)
        ok_size = n >= 1 && n <= 8;
    else if (integer && (kind == BTHOME_KIND_DIMMER || kind == BTHOME_KIND_FIRMWARE))
        ok_size = n == def->length;
    else if ((format == BTHOME_V1_UINT || format == BTHOME_V1_TIMESTAMP) &&
             kind == BTHOME_KIND_TIMESTAMP)
        ok_size = n == 4;
    else if (format == BTHOME_V1_FLOAT && kind == BTHOME_KIND_NUMBER)
        ok_size = n == 2 || n == 4 || n == 8;
    else if (format == BTHOME_V1_STRING && kind == BTHOME_KIND_TEXT)
        ok_size = true;
    else if (format == BTHOME_V1_MAC && kind == BTHOME_KIND_RAW)
        ok_size = n == BTHOME_MAC_LEN;
    else
        return BTHOME_V1_BAD_FORMAT;
    return ok_size ? BTHOME_V1_OK : BTHOME_V1_BAD_SIZE;
}

static uint64_t read_le(const uint8_t *v, size_t n)
{
    uint64_t u = 0;
    for (size_t i = n; i > 0; i--)
        u = (u << 8) | v[i - 1];
    return u;
}

/* n (1..8) bytes as a two's complement integer, without implementation-defined casts. */
static int64_t read_signed(const uint8_t *v, size_t n)
{
    uint64_t u = read_le(v, n);
    if (n < 8)
        return (u >> (8 * n - 1)) & 1 ? (int64_t)u - ((int64_t)1 << (8 * n)) : (int64_t)u;
    return u > INT64_MAX ? -(int64_t)~u - 1 : (int64_t)u;
}

static double half_to_double(uint16_t h)
{
    int exp = (h >> 10) & 0x1F;
    unsigned mant = h & 0x3FF;
    double v = exp == 0  ? ldexp(mant, -24)                  /* zero, subnormals */
             : exp == 31 ? (mant ? NAN : INFINITY)
             : ldexp(mant | 0x400, exp - 25);                /* 1.mant x 2^(exp-15) */
    return h & 0x8000 ? -v : v;
}

static double read_float(const uint8_t *v, size_t n)
{
    uint64_t bits = read_le(v, n);
    if (n == 2)
        return half_to_double((uint16_t)bits);
    if (n == 4) {
        uint32_t b32 = (uint32_t)bits;
        float f;
        memcpy(&f, &b32, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static bool in_type_range(const bthome_object_def_t *def, int64_t raw)
{
    int64_t min, max;
    bthome_type_range(def->type, &min, &max);
    return raw >= min && raw <= max;
}

/* raw x factor digits must stay an exact int64 (bthome_scale multiplies them). */
static bool scale_fits(const bthome_object_def_t *def, int64_t raw)
{
    int64_t digits = bthome_factor_digits(def);
    return raw >= INT64_MIN / digits && raw <= INT64_MAX / digits;
}

static bthome_v1_status_t decode_integer(bthome_v1_object_t *o, const uint8_t *v, size_t n)
{
    bthome_object_t *obj = &o->obj;
    const bthome_object_def_t *def = obj->def;

    if (def->kind == BTHOME_KIND_DIMMER) {      /* as v2: event byte, then steps */
        obj->raw = v[0];
        obj->steps = v[1];
        obj->has_steps = true;
        return BTHOME_V1_OK;
    }
    if (def->kind == BTHOME_KIND_FIRMWARE)      /* bytes, formatted by the v2 core */
        return BTHOME_V1_OK;
    if (o->format == BTHOME_V1_UINT && read_le(v, n) > INT64_MAX)
        return BTHOME_V1_OUT_OF_RANGE;
    obj->raw = o->format == BTHOME_V1_INT ? read_signed(v, n) : (int64_t)read_le(v, n);
    if (def->kind == BTHOME_KIND_NUMBER) {
        if (!scale_fits(def, obj->raw))
            return BTHOME_V1_OUT_OF_RANGE;
        obj->value = bthome_scale(def, obj->raw);
    }
    o->exceeds_type = !in_type_range(def, obj->raw);
    return BTHOME_V1_OK;
}

static void decode_float(bthome_v1_object_t *o, const uint8_t *v, size_t n)
{
    bthome_object_t *obj = &o->obj;
    double f = read_float(v, n), divisor = 1.0;
    for (unsigned i = bthome_factor_decimals(obj->def); i > 0; i--)
        divisor *= 10.0;
    /* the same arithmetic as bthome_scale: an integral float gives the v2 value */
    obj->value = f * (double)bthome_factor_digits(obj->def) / divisor;
    /* a double-to-integer conversion out of range is undefined: clamp first */
    obj->raw = isnan(f) ? 0 : f >= TWO_POW_63 ? INT64_MAX : f < -TWO_POW_63 ? INT64_MIN
             : (int64_t)f;
    o->is_float = true;
    o->exceeds_type = !isfinite(f) || !in_type_range(obj->def, obj->raw);
}

static bthome_v1_status_t decode_value(bthome_v1_object_t *o, const uint8_t *v, size_t n)
{
    bthome_object_t *obj = &o->obj;
    switch (o->format) {
    case BTHOME_V1_UINT: case BTHOME_V1_INT:
        return decode_integer(o, v, n);
    case BTHOME_V1_FLOAT:
        decode_float(o, v, n);
        break;
    case BTHOME_V1_STRING:
        obj->invalid_utf8 = !bthome_utf8_valid(v, n);
        break;
    case BTHOME_V1_MAC:
        bthome_mac_reverse(o->mac, v);
        break;
    case BTHOME_V1_TIMESTAMP:
        obj->raw = (int64_t)read_le(v, n);
        break;
    }
    return BTHOME_V1_OK;
}

/* Sets the status of both views; the v2 one only says whether the value is usable. */
static void set_status(bthome_v1_object_t *o, bthome_v1_status_t status)
{
    o->status = status;
    o->obj.status = status == BTHOME_V1_OK         ? BTHOME_OBJ_OK
                  : status == BTHOME_V1_UNKNOWN_ID ? BTHOME_OBJ_UNKNOWN
                  : BTHOME_OBJ_TRUNCATED;
}

/* A complete object (its declared bytes are all there): known, well-shaped, decoded? */
static bthome_v1_status_t classify(bthome_v1_parser_t *p, bthome_v1_object_t *o)
{
    bthome_object_t *obj = &o->obj;
    if (!obj->def)
        return BTHOME_V1_UNKNOWN_ID;
    obj->ordinal = bthome_next_ordinal(&p->seen, obj->def);
    bthome_v1_status_t st = check_shape(o->format, obj->def, obj->value_length);
    return st != BTHOME_V1_OK ? st : decode_value(o, p->data + obj->value_offset,
                                                  obj->value_length);
}

bool bthome_v1_parser_next(bthome_v1_parser_t *p, bthome_v1_object_t *out)
{
    bthome_object_t *obj = &out->obj;
    memset(out, 0, sizeof *out);
    if (p->stopped || p->pos >= p->len)
        return false;

    size_t avail = p->len - p->pos;             /* >= 1: the control byte */
    out->offset = p->pos;
    out->control = p->data[p->pos];
    out->declared_length = out->control & BTHOME_V1_LENGTH_MASK;
    out->format = out->control >> BTHOME_V1_FORMAT_SHIFT;
    out->length = (size_t)out->declared_length + 1;

    /* the v2 view starts at the ID byte; clamped to what is there */
    obj->offset = p->pos + 1;
    obj->length = out->declared_length;
    if (out->length > avail)
        obj->length = avail - 1;
    obj->value_offset = p->pos + 2;
    obj->value_length = obj->length ? obj->length - 1 : 0;
    if (obj->length) {
        obj->id = p->data[obj->offset];
        obj->def = bthome_object_def(obj->id);
    }

    if (out->declared_length == 0 || out->length > avail) {
        /* nothing tells where the next object starts: stop */
        set_status(out, out->declared_length == 0 ? BTHOME_V1_ZERO_LENGTH
                                                  : BTHOME_V1_TRUNCATED);
        if (obj->def)
            obj->ordinal = bthome_next_ordinal(&p->seen, obj->def);
        out->length = out->declared_length == 0 ? 1 : avail;
        p->stopped = true;
        return true;
    }
    set_status(out, classify(p, out));
    p->pos += out->length;
    return true;
}

/* ------------------------------------------------------------------ formatting */

static void append_unit(const bthome_object_def_t *def, char *buf, size_t size)
{
    size_t used = strlen(buf);
    if (def->unit[0] && used + 1 < size)
        snprintf(buf + used, size - used, " %s", def->unit);
}

/* Whether text read back lies within half a unit of the source float's precision. */
static bool reads_back(const char *text, double v, int mant_bits)
{
    double back = strtod(text, NULL);
    int exp;
    frexp(v, &exp);
    return back == v || fabs(back - v) < ldexp(1.0, exp - mant_bits - 2);
}

static void format_float(const bthome_v1_object_t *o, char *buf, size_t size)
{
    static const struct { int digits, mant_bits; } prec[] = {
        [2] = { 5, 10 }, [4] = { 9, 23 }, [8] = { 17, 52 },
    };
    double v = o->obj.value;
    size_t n = o->obj.value_length;
    char num[64];

    if (isnan(v) || isinf(v)) {
        snprintf(num, sizeof num, "%s", isnan(v) ? "NaN" : v > 0 ? "inf" : "-inf");
    } else {
        if (v == 0)
            v = 0;      /* IEEE -0 reads 0 */
        /* the factor's decimals, as v2 prints, when that is the value itself (past
         * 2^53 a double has no fraction left to show, and %f would print 300 digits) */
        bool fixed = fabs(v) < TWO_POW_53;
        if (fixed) {
            snprintf(num, sizeof num, "%.*f", (int)bthome_factor_decimals(o->obj.def), v);
            fixed = strtod(num, NULL) == v;
        }
        if (!fixed) {
            for (int digits = 1; digits <= prec[n].digits; digits++) {
                snprintf(num, sizeof num, "%.*g", digits, v);
                if (reads_back(num, v, prec[n].mant_bits))
                    break;
            }
        }
    }
    snprintf(buf, size, "%s", num);
    append_unit(o->obj.def, buf, size);
}

bool bthome_v1_format_value(const bthome_v1_object_t *o, const uint8_t *data,
                            char *buf, size_t size)
{
    const bthome_object_t *obj = &o->obj;
    if (size == 0 || o->status != BTHOME_V1_OK || !obj->def)
        return false;
    buf[0] = '\0';
    if (o->is_float) {
        format_float(o, buf, size);
        return true;
    }
    if (o->format == BTHOME_V1_MAC) {
        const uint8_t *m = o->mac;
        snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4],
                 m[5]);
        return true;
    }
    return bthome_format_value(obj, data, buf, size);
}
