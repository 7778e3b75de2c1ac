/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Check helpers shared by the unit tests: plain C, no framework. Each CHECK counts a
 * pass or prints file:line, the input, the expected and the actual value; a test's last
 * output line is check_summary()'s "N passed, M failed".
 */
#ifndef BTHOME_TEST_CHECK_H
#define BTHOME_TEST_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_UNUSED __attribute__((unused))

/* ---------------------------------------------------------------- check helpers */

static int passed, failed;
static const char *cur = "";        /* input (hex) of the case being checked */

TEST_UNUSED static void fail(const char *file, int line, const char *what, const char *exp,
                 const char *act)
{
    failed++;
    printf("%s:%d: FAIL %s\n  input:    %s\n  expected: %s\n  actual:   %s\n",
           file, line, what, cur, exp, act);
}

#define CHECK_INT(act, exp) do {                                                  \
        long long a_ = (long long)(act), e_ = (long long)(exp);                   \
        if (a_ == e_) { passed++; break; }                                        \
        char as_[32], es_[32];                                                    \
        snprintf(as_, sizeof as_, "%lld", a_);                                    \
        snprintf(es_, sizeof es_, "%lld", e_);                                    \
        fail(__FILE__, __LINE__, #act, es_, as_);                                 \
    } while (0)

#define CHECK_BOOL(act, exp) do {                                                 \
        bool a_ = (act), e_ = (exp);                                              \
        if (a_ == e_) { passed++; break; }                                        \
        fail(__FILE__, __LINE__, #act, e_ ? "true" : "false", a_ ? "true" : "false"); \
    } while (0)
#define CHECK(cond) CHECK_BOOL(cond, true)

/* Exact comparison: bthome_scale divides an exact integer by a power of ten. */
#define CHECK_DBL(act, exp) do {                                                  \
        double a_ = (act), e_ = (exp);                                            \
        if (a_ == e_ || (a_ != a_ && e_ != e_)) { passed++; break; } /* NaN too */ \
        char as_[40], es_[40];                                                    \
        snprintf(as_, sizeof as_, "%.17g", a_);                                   \
        snprintf(es_, sizeof es_, "%.17g", e_);                                   \
        fail(__FILE__, __LINE__, #act, es_, as_);                                 \
    } while (0)

#define CHECK_STR(act, exp) do {                                                  \
        const char *a_ = (act), *e_ = (exp);                                      \
        if (a_ && strcmp(a_, e_) == 0) { passed++; break; }                       \
        char as_[1100], es_[1100];                                                \
        snprintf(as_, sizeof as_, a_ ? "\"%s\"" : "%s", a_ ? a_ : "NULL");        \
        snprintf(es_, sizeof es_, "\"%s\"", e_);                                  \
        fail(__FILE__, __LINE__, #act, es_, as_);                                 \
    } while (0)

#define CHECK_PTR(act, exp) do {                                                  \
        const void *a_ = (act), *e_ = (exp);                                      \
        if (a_ == e_) { passed++; break; }                                        \
        char as_[32], es_[32];                                                    \
        snprintf(as_, sizeof as_, "%p", a_);                                      \
        snprintf(es_, sizeof es_, "%p", e_);                                      \
        fail(__FILE__, __LINE__, #act, es_, as_);                                 \
    } while (0)

/* ---------------------------------------------------------------- input helpers */

TEST_UNUSED static uint8_t in[1024];            /* the bytes of the current case */
TEST_UNUSED static size_t in_len;

/* "02 ca 09" -> bytes in in[]; spaces are ignored. A malformed string is a test bug. */
TEST_UNUSED static void load(const char *hex)
{
    cur = hex;
    in_len = 0;
    for (const char *s = hex; *s;) {
        if (*s == ' ') { s++; continue; }
        unsigned byte;
        if (sscanf(s, "%2x", &byte) != 1 || !s[1] || s[1] == ' ' || in_len == sizeof in) {
            fprintf(stderr, "bad test hex: %s\n", hex);
            exit(2);
        }
        in[in_len++] = (uint8_t)byte;
        s += 2;
    }
}

/* Description of a case built at run time (for the "input:" line of a failure). */
TEST_UNUSED static void describe(const char *fmt, unsigned v)
{
    static char cur_buf[2200];

    snprintf(cur_buf, sizeof cur_buf, fmt, v);
    cur = cur_buf;
}

#define CHECK_HEX(act, len, exp_hex) do {                                        \
        char as_[1100] = "", es_[1100];                                           \
        const uint8_t *a_ = (act);                                                \
        for (size_t i_ = 0; i_ < (size_t)(len) && 2 * i_ + 3 < sizeof as_; i_++)   \
            snprintf(as_ + 2 * i_, 3, "%02x", a_[i_]);                            \
        snprintf(es_, sizeof es_, "%s", (exp_hex));                               \
        if (strcmp(as_, es_) == 0) { passed++; break; }                           \
        fail(__FILE__, __LINE__, #act, es_, as_);                                 \
    } while (0)

TEST_UNUSED static int check_summary(void)
{
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}

#endif
