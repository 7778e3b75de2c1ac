/* Legacy BTHome v1 object lists; see bthome_v1.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bthome_v1.h"
#include "bthome_crypto.h"

#include <math.h>
#include <stdint.h>
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

bool bthome_v1_is_bthome(bool encrypted, const uint8_t *data, size_t captured,
                         size_t reported)
{
    bthome_v1_parser_t p;
    bthome_v1_object_t first;

    if (encrypted)
        return reported >= 2 + BTHOME_SEALED_MIN;
    bthome_v1_parser_init(&p, data, captured);
    if (!bthome_v1_parser_next(&p, &first))
        return false;
    return first.status == BTHOME_V1_OK ||
           (first.status == BTHOME_V1_TRUNCATED && captured < reported &&
            first.declared_length > 0 && 1u + first.declared_length <= reported &&
            (captured < 2 || bthome_object_def(data[1]) != NULL));
}

/* ------------------------------------------------------------------ formatting */

static void append_unit(const bthome_object_def_t *def, char *buf, size_t size)
{
    size_t used = strlen(buf);
    if (def->unit[0] && used + 1 < size)
        snprintf(buf + used, size - used, " %s", def->unit);
}

/* Float text never depends on the locale (%f, %g and strtod would write and read
 * "25,06" in a German one): the value's exact decimal digits come from %e, of which
 * only the digits and the exponent are read, and the text is built from integers by
 * bthome_format_number. */

#define EXPANSION_DIGITS 36     /* past any rounding position used (18) by 18 */
#define MAX_TEXT_DIGITS 18      /* digits an int64_t holds */

typedef struct {
    char digits[EXPANSION_DIGITS];  /* of |v|, '0'..'9', leading digit non-zero */
    int exp10;                      /* |v| = d.ddd... x 10^exp10 */
} expansion_t;

static void expand(double v, expansion_t *e)
{
    char text[64];
    const char *p = text;
    size_t n = 0;
    int sign = 1;

    snprintf(text, sizeof text, "%.*e", EXPANSION_DIGITS - 1, fabs(v));
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && n < EXPANSION_DIGITS)
            e->digits[n++] = *p;
    while (n < EXPANSION_DIGITS)
        e->digits[n++] = '0';
    e->exp10 = 0;
    if (*p == 'e')
        p++;
    if (*p == '-' || *p == '+')
        sign = *p++ == '-' ? -1 : 1;
    for (; *p >= '0' && *p <= '9'; p++)
        e->exp10 = e->exp10 * 10 + (*p - '0');
    e->exp10 *= sign;
}

/* |v| rounded to n significant digits (0..MAX_TEXT_DIGITS), half to even: the digits
 * as an integer, the exponent of the first (one more after a carry: 9.99 -> 10.0;
 * with no digits, 0.6 -> 1 x 10^0 keeps it), and the rounding error relative to |v|. */
static int64_t round_digits(const expansion_t *e, int n, int *exp10, double *rel_err)
{
    int64_t m = 0;
    double rest = 0, lead = 0;
    bool tail_zero = true, up;

    for (int i = 0; i < n; i++)
        m = m * 10 + (e->digits[i] - '0');
    for (int i = n + 17; i >= n; i--)           /* 0.d[n]d[n+1]... */
        rest = (rest + (e->digits[i] - '0')) / 10;
    for (int i = 16; i >= 0; i--)               /* d.ddd, in [1, 10) */
        lead = lead / 10 + (e->digits[i] - '0');
    for (int i = n + 1; i < EXPANSION_DIGITS; i++)
        tail_zero = tail_zero && e->digits[i] == '0';
    up = e->digits[n] > '5' || (e->digits[n] == '5' && (!tail_zero || (m & 1)));
    *rel_err = (up ? 1 - rest : rest) * pow(10, 1 - n) / lead;
    *exp10 = e->exp10;
    if (up && ++m == (int64_t)pow(10, n) && n > 0) {
        m /= 10;
        ++*exp10;
    }
    return m;
}

/* Whether the text m x 10^k, |v| rounded with rel_err, lies within half a unit of the
 * source float's precision (mant_bits), or reads back as the very double (whose unit is
 * fixed below 2^-1022). */
static bool within_precision(double v, int64_t m, int k, double rel_err, int mant_bits)
{
    int exp;
    double f = frexp(fabs(v), &exp);
    double own = ldexp(1.0, -mant_bits - 2) / f;
    double same_double = ldexp(1.0, (exp < -1021 ? -1021 - exp : 0) - 54) / f;
    double tol = fmax(own, same_double);

    if (fabs(rel_err - tol) > tol * 1e-9 || exp < 54)
        return rel_err < tol;
    /* A hair from half a unit: only integers from 2^53 on, whose unit is 2, 4, ...,
     * can be a text exactly half a unit away, which reads back as v when v's last
     * mantissa bit is 0 (half to even). Decided exactly in integers, here below 2^63
     * (beyond: one digit more, which reads back). */
    int64_t scale = 1, t, iv, half, diff;
    for (; k < 0 && m % 10 == 0; k++)
        m /= 10;
    for (; k < 0; k++)
        scale *= 10;
    if (fabs(v) >= 9223372036854775808.0 / (double)scale)
        return false;
    iv = (int64_t)fabs(v) * scale;
    half = ((int64_t)1 << (exp - 54)) * scale;
    for (t = m; k > 0; k--) {
        if (t > INT64_MAX / 10)
            return false;
        t *= 10;
    }
    diff = t > iv ? t - iv : iv - t;
    return diff < half || (diff == half && (((int64_t)fabs(v) >> (exp - 53)) & 1) == 0);
}

/* With the factor's decimals ("102.24"), when that text reads back as the very value. */
static bool format_fixed(double v, const expansion_t *e, unsigned decimals, char *num,
                         size_t size)
{
    int n = e->exp10 + 1 + (int)decimals, exp10;
    double rel_err;
    int64_t m;

    if (v == 0) {
        bthome_format_number(0, decimals, "", num, size);
        return true;
    }
    if (fabs(v) >= TWO_POW_53 || n < 0 || n > MAX_TEXT_DIGITS)
        return false;       /* past 2^53 a double has no fraction left to show */
    m = round_digits(e, n, &exp10, &rel_err);
    if (!within_precision(v, m, exp10 - n + 1, rel_err, 52))
        return false;
    if (exp10 > e->exp10)       /* carried: 9.999 -> 10.00 */
        m *= 10;
    bthome_format_number(v < 0 ? -m : m, decimals, "", num, size);
    return true;
}

/* m (precision significant digits, the first at 10^exp10) as %.{precision}g writes
 * it: "25.06", "6.104e-05", "1e+300". */
static void format_significant(double v, int64_t m, int precision, int exp10, char *num,
                               size_t size)
{
    bool fixed = exp10 >= -4 && exp10 < precision;
    int decimals = fixed ? precision - 1 - exp10 : precision - 1;
    char digits[32];

    while (decimals > 0 && m % 10 == 0) {   /* %g drops trailing zeros */
        m /= 10;
        decimals--;
    }
    bthome_format_number(v < 0 ? -m : m, (unsigned)decimals, "", digits, sizeof digits);
    if (fixed)
        snprintf(num, size, "%s", digits);
    else
        snprintf(num, size, "%se%c%02d", digits, exp10 < 0 ? '-' : '+', abs(exp10));
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
        expansion_t e;
        if (v == 0)
            v = 0;      /* IEEE -0 reads 0 */
        expand(v, &e);
        /* the factor's decimals, as v2 prints, when that is the value itself */
        if (!format_fixed(v, &e, bthome_factor_decimals(o->obj.def), num, sizeof num)) {
            /* else the fewest significant digits within the float's precision */
            int digits = 1, exp10;
            double rel_err;
            int64_t m = round_digits(&e, digits, &exp10, &rel_err);
            while (digits < prec[n].digits &&
                   !within_precision(v, m, exp10 - digits + 1, rel_err, prec[n].mant_bits))
                m = round_digits(&e, ++digits, &exp10, &rel_err);
            format_significant(v, m, digits, exp10, num, sizeof num);
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
