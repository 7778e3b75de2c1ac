/* The objects' display-filter fields: packet-bthome-object-fields.c, which
 * tools/gen_object_fields.c writes from the object table (core/bthome_objects.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PACKET_BTHOME_OBJECT_FIELDS_H
#define PACKET_BTHOME_OBJECT_FIELDS_H

#include <epan/packet.h>     /* value_string: epan/ up to 4.4, wsutil/ from 4.6 */

/* Registers one field per distinct field of the table, under proto. */
void bthome_register_object_fields(int proto);

/* The field of object ID id; -1 for an ID the table does not have. */
int bthome_object_field(unsigned id);

/* Each object ID's label, for the object ID field's VALS(). */
extern const value_string bthome_object_id_vals[];

#endif
