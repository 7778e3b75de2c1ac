/* The "BTHome keys" preferences table; see bthome_keys.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_KEYS_H
#define BTHOME_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <epan/prefs.h>

#include "bthome_crypto.h"

/* Registers the table under the protocol's preferences. */
void bthome_register_keys(module_t *module);

/* A row names this device (a "*" row does not). */
bool bthome_keys_device_has_key(const uint8_t mac[6]);

typedef struct {
    const char *mac_text;   /* the row's MAC, "54:48:E6:8F:80:A5", or "*" */
    const char *name;       /* its free text, "" when none */
} bthome_key_match_t;

/* Tries the device's own rows, then the "*" rows, in table order, until one verifies the
 * MIC; plain receives the plaintext. version 1 authenticates the associated byte 0x11,
 * version 2 none. *tried says whether any row applied at all (no row: no key). */
bool bthome_keys_decrypt(const uint8_t mac[6], unsigned version, const uint8_t *nonce,
                         size_t nonce_len, const bthome_sealed_t *sealed, uint8_t *plain,
                         bthome_key_match_t *match, bool *tried);

#endif
