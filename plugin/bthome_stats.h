/* Statistics > BTHome; see bthome_stats.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_STATS_H
#define BTHOME_STATS_H

/* The statistics tree and the readings table; called from protocol registration, so
 * both exist before the UIs (tshark -z, the Statistics menu) list them, whichever build
 * registers the plugin (see plugin/standalone_plugin.c). */
void bthome_register_stats(void);

#endif
