/* Statistics > BTHome; see bthome_stats.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_STATS_H
#define BTHOME_STATS_H

/* The statistics tree; called from the plugin's tap registration. */
void bthome_register_stats(void);
/* The readings table; called from protocol registration (before the UIs list tables). */
void bthome_register_readings_table(void);

#endif
