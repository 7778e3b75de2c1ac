/* Pure-C core of the BTHome dissector; see bthome_core.h. */
#include "bthome_core.h"
#include "bthome_objects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIN_SIZE(a, b) ((a) < (b) ? (a) : (b))

#define BTHOME_ROW(id_, name_, field_, kind_, type_, len_, factor_, unit_, words_) \
    [id_] = { id_, name_, field_, BTHOME_KIND_##kind_, BTHOME_TYPE_##type_, len_,  \
              factor_, unit_, words_, sizeof(name_) - 1, name_ " " },
static const bthome_object_def_t defs_by_id[256] = { BTHOME_OBJECT_TABLE(BTHOME_ROW) };

/* label holds the name, a space and the NUL that ends them */
#define BTHOME_LABEL_FITS(id_, name_, ...) \
    _Static_assert(sizeof(name_) + 1 <= BTHOME_LABEL_SIZE, "name too long: " name_);
BTHOME_OBJECT_TABLE(BTHOME_LABEL_FITS)

#define BTHOME_ROW_PTR(id_, ...) &defs_by_id[id_],
static const bthome_object_def_t *const defs_in_order[] = {
    BTHOME_OBJECT_TABLE(BTHOME_ROW_PTR)
};

/* NULL for the IDs the table lacks: one load per object, where testing the row's name
 * was a multiply, a load and a test */
#define BTHOME_ROW_AT(id_, ...) [id_] = &defs_by_id[id_],
static const bthome_object_def_t *const def_at_id[256] = { BTHOME_OBJECT_TABLE(BTHOME_ROW_AT) };

const bthome_object_def_t *bthome_object_def(uint8_t id)
{
    return def_at_id[id];
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

/* What the per-object path needs of a row, worked out from its text once, on first use:
 * the rows are constant, and reading the factor text (or searching the rows for the
 * field) per object would cost more than the rest of parsing. */
typedef struct {
    uint8_t first_id;       /* lowest ID sharing the row's field */
    uint8_t decimals;
    bool plain_factor;      /* 1, 0.1, 0.01, ...: formatted without printf */
    bool fast_number;       /* plain_factor, and suffix holds the unit: format_number_fast */
    int suffix_len;         /* of the unit with its space, 0 without a unit */
    int64_t digits;
    double divisor;         /* 10^decimals */
    size_t unit_len;
    char suffix[16];        /* " °C": the unit with its space, NUL-padded, if it fits */
    uint16_t first_word;    /* the row's words, split: words_of_rows[first_word..] */
    uint16_t word_count;
} row_facts_t;

static row_facts_t facts_by_id[256];
static bool facts_ready;
/* The rows' words, split once: looking one up walked its row's text, for every event and
 * binary object of every advert. A row's text holds no more words than bytes, so the
 * table's text sizes bound them all. */
#define BTHOME_WORD_BYTES(id_, name_, field_, kind_, type_, len_, factor_, unit_, words_) \
    char row_##id_[sizeof(words_)];
struct all_word_bytes { BTHOME_OBJECT_TABLE(BTHOME_WORD_BYTES) };
static bthome_word_t words_of_rows[sizeof(struct all_word_bytes)];

static void split_words(const bthome_object_def_t *def, row_facts_t *f, size_t *used)
{
    const char *cursor = def->words;
    int64_t index = 0;
    bthome_word_t w;

    f->first_word = (uint16_t)*used;
    while (bthome_words_next(&cursor, &index, &w))
        words_of_rows[(*used)++] = w;
    f->word_count = (uint16_t)(*used - f->first_word);
}

static void work_out_row_facts(void)
{
    size_t n = sizeof defs_in_order / sizeof defs_in_order[0], words_used = 0;

    for (size_t i = 0; i < n; i++) {
        const bthome_object_def_t *def = defs_in_order[i];
        row_facts_t *f = &facts_by_id[def->id];
        size_t j = 0;
        while (strcmp(defs_in_order[j]->field, def->field) != 0)
            j++;
        f->first_id = defs_in_order[j]->id;
        f->decimals = (uint8_t)bthome_factor_decimals(def);
        f->digits = bthome_factor_digits(def);
        f->plain_factor = f->decimals == 0 || (f->digits == 1 && f->decimals < 10);
        f->unit_len = strlen(def->unit);
        bool short_suffix = f->unit_len + 2 <= sizeof f->suffix;     /* most units */
        f->fast_number = f->plain_factor && short_suffix;
        f->suffix_len = f->unit_len ? (int)f->unit_len + 1 : 0;
        if (f->unit_len && short_suffix)
            snprintf(f->suffix, sizeof f->suffix, " %s", def->unit);
        f->divisor = 1.0;
        for (unsigned k = f->decimals; k > 0; k--)
            f->divisor *= 10.0;
        split_words(def, f, &words_used);
    }
    facts_ready = true;
}

static inline void ensure_row_facts(void)
{
    if (__builtin_expect(!facts_ready, 0))
        work_out_row_facts();
}

/* For paths that ran ensure_row_facts before: the parser's (bthome_parser_init), and
 * format_number_fast, which zeroed facts send to the checked path. The check was a
 * load and a branch, read several times per object. */
static inline const row_facts_t *ready_row_facts(uint8_t id)
{
    return &facts_by_id[id];
}

static inline const row_facts_t *row_facts(uint8_t id)
{
    ensure_row_facts();
    return ready_row_facts(id);
}

/* Facts ready (ensure_row_facts). */
static inline double scale(const bthome_object_def_t *def, int64_t raw)
{
    const row_facts_t *f = ready_row_facts(def->id);

    return (double)(raw * f->digits) / f->divisor;
}

double bthome_scale(const bthome_object_def_t *def, int64_t raw)
{
    ensure_row_facts();
    return scale(def, raw);
}

/* Words are "false|true" for BINARY rows and "value=word|..." for the others. */
/* The table's word values are plain decimals; strtoll's locale and base handling is not
 * needed on the per-advert path. */
static int64_t word_value(const char *w)
{
    bool negative = *w == '-';
    int64_t v = 0;

    for (w += negative; *w >= '0' && *w <= '9'; w++)
        v = v * 10 + (*w - '0');
    return negative ? -v : v;
}

bool bthome_words_next(const char **cursor, int64_t *index, bthome_word_t *out)
{
    const char *w = *cursor;
    if (!*w)
        return false;
    const char *end = strchr(w, '|');
    size_t len = end ? (size_t)(end - w) : strlen(w);
    const char *eq = memchr(w, '=', len);
    out->value = eq ? word_value(w) : *index;
    out->word = eq ? eq + 1 : w;
    out->word_len = len - (size_t)(out->word - w);
    *cursor = end ? end + 1 : w + len;
    (*index)++;
    return true;
}

bool bthome_word(const bthome_object_def_t *def, int64_t value, char *buf, size_t size)
{
    const row_facts_t *f = row_facts(def->id);

    for (unsigned i = 0; i < f->word_count; i++) {
        const bthome_word_t *w = &words_of_rows[f->first_word + i];
        if (w->value == value) {
            size_t n = size ? MIN_SIZE(w->word_len, size - 1) : 0;
            if (size) {
                memcpy(buf, w->word, n);
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

static inline int64_t read_le(const uint8_t *p, bthome_type_t type)
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
    p->data = data;
    p->len = len;
    p->pos = 0;
    p->prev_id = -1;
    p->stopped = false;
    bthome_ordinals_init(&p->seen);
    ensure_row_facts();     /* the per-object paths do not check */
}

void bthome_ordinals_init(bthome_ordinals_t *seen)
{
    memset(seen->valid, 0, sizeof seen->valid);
}

/* Objects are numbered per field: 0x02 then 0x45 are "Temperature", "Temperature 2".
 * The count sits at the field's first (lowest) ID. Inline in the v2 parser: it runs for
 * every object. Facts ready (ensure_row_facts). */
static inline unsigned next_ordinal(bthome_ordinals_t *seen, const bthome_object_def_t *def)
{
    unsigned at = ready_row_facts(def->id)->first_id;
    uint32_t bit = (uint32_t)1 << (at % 32);
    uint16_t *count = &seen->count[at];

    if (!(seen->valid[at / 32] & bit)) {
        seen->valid[at / 32] |= bit;
        *count = 0;
    }
    if (*count < UINT16_MAX)
        (*count)++;
    return *count;
}

unsigned bthome_next_ordinal(bthome_ordinals_t *seen, const bthome_object_def_t *def)
{
    ensure_row_facts();
    return next_ordinal(seen, def);
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

    /* most objects are numbers: tested first, not through the switch's jump table */
    if (def->kind == BTHOME_KIND_NUMBER) {
        obj->raw = read_le(v, def->type);
        obj->value = scale(def, obj->raw);
        return;
    }
    switch (def->kind) {
    case BTHOME_KIND_NUMBER:    /* above */
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
    obj->ordinal = next_ordinal(&p->seen, obj->def);
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

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* mag x 10^-decimals as "%.*f" writes it, written leftwards so that it ends at end;
 * returns its start. The sign is the caller's. Every wire type of the table is 32 bits or
 * fewer, so a 32-bit magnitude holds every raw: its divisions by 100 are a multiply and a
 * shift, two digits each. decimals < 10: 12 characters hold the result. */
static inline char *magnitude_leftwards(uint32_t mag, unsigned decimals, char *end)
{
    char *p = end;
    unsigned left = decimals;

    /* the table's usual factors written out: a loop's set-up cost more than its digits */
    switch (decimals) {
    case 0:
        break;
    case 1:
        p -= 2;
        p[1] = (char)('0' + mag % 10);
        p[0] = '.';
        mag /= 10;
        break;
    case 2:
        p -= 3;
        memcpy(p + 1, &digit_pairs[2 * (mag % 100)], 2);
        p[0] = '.';
        mag /= 100;
        break;
    default:
        for (; left >= 2; left -= 2, mag /= 100) {
            p -= 2;
            memcpy(p, &digit_pairs[2 * (mag % 100)], 2);
        }
        if (left) {
            *--p = (char)('0' + mag % 10);
            mag /= 10;
        }
        *--p = '.';
    }
    while (mag >= 100) {
        p -= 2;
        memcpy(p, &digit_pairs[2 * (mag % 100)], 2);
        mag /= 100;
    }
    if (mag >= 10) {
        p -= 2;
        memcpy(p, &digit_pairs[2 * mag], 2);
    } else {
        *--p = (char)('0' + mag);
    }
    return p;
}

#define UNIT_MAX_FAST 48

/* "25.06 °C" into buf when size holds FAST_NUMBER_COPY bytes, the row's unit fits its
 * suffix and the magnitude 32 bits; -1 otherwise. The digits go leftwards from the middle
 * of a buffer, the suffix after them, and the whole is copied out at a constant size: no
 * call is made (a copy of a variable size is one, twice per object of every advert). */
#define FAST_NUMBER_COPY 32
_Static_assert(12 + sizeof((row_facts_t *)0)->suffix <= FAST_NUMBER_COPY,
               "the copy holds the digits and the suffix");

static inline int format_number_fast(int64_t raw, const row_facts_t *f, char *buf,
                                     size_t size)
{
    /* 12 characters hold a 32-bit magnitude with its point and sign, left of mid, and
     * the suffix 16 bytes from mid: the text and its NUL fit 28. The copy reads
     * FAST_NUMBER_COPY bytes from the first digit, at most up to mid + 31: the digits,
     * the suffix and zeros, all defined */
    char text[16 + FAST_NUMBER_COPY];
    char *mid = text + 16;
    uint64_t mag = raw < 0 ? (uint64_t)0 - (uint64_t)raw : (uint64_t)raw;
    char *p;

    if (!f->fast_number || size < FAST_NUMBER_COPY || mag > UINT32_MAX)
        return -1;
    p = magnitude_leftwards((uint32_t)mag, f->decimals, mid);
    if (raw < 0)
        *--p = '-';
    memcpy(mid, f->suffix, sizeof f->suffix);
    memset(mid + sizeof f->suffix, 0, FAST_NUMBER_COPY - sizeof f->suffix);
    memcpy(buf, p, FAST_NUMBER_COPY);
    return (int)(mid - p) + f->suffix_len;
}

/* "25.06 °C", truncated to size like snprintf; returns its length. Factors 1, 0.1, 0.01,
 * ...: the raw integer with a decimal point, built from the right after the unit and
 * copied once (no printf: this runs for most objects of every advert). Not inline: the
 * fast path serves nearly every object, and a larger caller costs those more. */
static __attribute__((noinline)) int format_number(const bthome_object_t *obj, char *buf,
                                                   size_t size)
{
    const bthome_object_def_t *def = obj->def;
    const row_facts_t *f = row_facts(def->id);
    char text[16 + 1 + UNIT_MAX_FAST + 1];
    char *end = text + sizeof text, *p = end;
    uint64_t mag = obj->raw < 0 ? (uint64_t)0 - (uint64_t)obj->raw : (uint64_t)obj->raw;
    size_t n;

    /* printf for other factors, and for a wider type than the table has */
    if (!f->plain_factor || f->unit_len > UNIT_MAX_FAST || mag > UINT32_MAX) {
        if (f->unit_len)
            snprintf(buf, size, "%.*f %s", (int)f->decimals, obj->value, def->unit);
        else
            snprintf(buf, size, "%.*f", (int)f->decimals, obj->value);
        return (int)strlen(buf);
    }
    *--p = '\0';
    if (f->unit_len) {
        p -= f->unit_len;
        memcpy(p, def->unit, f->unit_len);
        *--p = ' ';
    }
    p = magnitude_leftwards((uint32_t)mag, f->decimals, p);
    if (obj->raw < 0)
        *--p = '-';
    n = (size_t)(end - p);          /* the NUL included */
    if (n <= size) {
        memcpy(buf, p, n);
        return (int)n - 1;
    }
    memcpy(buf, p, size - 1);
    buf[size - 1] = '\0';
    return (int)size - 1;
}

static void format_word(const bthome_object_t *obj, char *buf, size_t size)
{
    if (!bthome_word(obj->def, obj->raw, buf, size))
        snprintf(buf, size, "unknown (0x%02llx)", (unsigned long long)obj->raw);
}

/* bthome_format_value_len past its fast path, for a decoded object and a buffer of at
 * least one byte. Not inline: that path is small enough to inline into the callers'
 * loops, this is not. */
static __attribute__((noinline)) int format_value_other(const bthome_object_t *obj,
                                                        const uint8_t *data, char *buf,
                                                        size_t size)
{
    const uint8_t *v = data + obj->value_offset;
    size_t n = obj->value_length;
    buf[0] = '\0';
    switch (obj->def->kind) {
    case BTHOME_KIND_NUMBER:
        return format_number(obj, buf, size);
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
        time_t t = (time_t)obj->raw;
        struct tm tm;
        if (!gmtime_r(&t, &tm) || strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
            return -1;
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
    return (int)strlen(buf);
}

/* Numbers first, without the rest: most objects of every advert are numbers. Inline into
 * the dissector's loop (link-time): a call's register saving was a fifth of the cost. */
__attribute__((always_inline)) inline int bthome_format_value_len(const bthome_object_t *obj,
                                                                  const uint8_t *data,
                                                                  char *buf, size_t size)
{
    if (size == 0 || !obj->def || obj->status != BTHOME_OBJ_OK)
        return -1;
    if (obj->def->kind == BTHOME_KIND_NUMBER) {
        int fast = format_number_fast(obj->raw, ready_row_facts(obj->id), buf, size);
        if (fast >= 0)
            return fast;
    }
    return format_value_other(obj, data, buf, size);
}

bool bthome_format_value(const bthome_object_t *obj, const uint8_t *data,
                         char *buf, size_t size)
{
    return bthome_format_value_len(obj, data, buf, size) >= 0;
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
    static const char hex[] = "0123456789ABCDEF";
    char *p = out;

    /* by hand: snprintf costs twenty times more, on every encrypted advert */
    for (int i = 0; i < BTHOME_MAC_LEN; i++) {
        if (i)
            *p++ = ':';
        *p++ = hex[mac[i] >> 4];
        *p++ = hex[mac[i] & 0x0F];
    }
    *p = '\0';
}

/* As a 32-bit and a 16-bit big-endian read: compilers make each one load and a byte
 * swap, where six bytes shifted into 64 bits took a load, a shift and an OR each (every
 * advert). */
uint64_t bthome_mac_number(const uint8_t mac[BTHOME_MAC_LEN])
{
    uint32_t high = (uint32_t)mac[0] << 24 | (uint32_t)mac[1] << 16 | (uint32_t)mac[2] << 8 |
                    mac[3];
    uint16_t low = (uint16_t)(mac[4] << 8 | mac[5]);

    return (uint64_t)high << 16 | low;
}
