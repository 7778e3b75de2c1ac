/* Statistics > BTHome (tshark -z bthome,tree): per device, per property and per event,
 * and Statistics > BTHome Readings (tshark -z bthome,readings): a table of every
 * device's properties, a row per property and unit, with count, min, average, max and
 * last value. Both are fed by the
 * "bthome" tap (bthome_tap.h). Readings of retransmitted adverts are not counted twice.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/stats_tree.h>
#include <epan/tap.h>

#include "bthome_stats.h"
#include "bthome_tap.h"

/* The three top nodes, found by name in each tree: every -z bthome,tree and every
 * Statistics window is a tree of its own (Wireshark resets and frees its nodes). */
#define DEVICES_NODE "Devices"
#define PROPERTIES_NODE "Properties"
#define EVENTS_NODE "Events"

static void stats_init(stats_tree *st)
{
    stats_tree_create_node(st, DEVICES_NODE, 0, STAT_DT_INT, TRUE);
    stats_tree_create_node(st, PROPERTIES_NODE, 0, STAT_DT_INT, TRUE);
    stats_tree_create_node(st, EVENTS_NODE, 0, STAT_DT_INT, TRUE);
}

static const char *device_label(packet_info *pinfo, const bthome_advert_t *ad)
{
    char mac[BTHOME_MAC_TEXT_LEN];

    if (!ad->has_device)
        return "(unknown address)";
    bthome_format_mac(ad->device, mac);
    return ad->device_name ? wmem_strdup_printf(pinfo->pool, "%s %s", mac, ad->device_name)
                           : wmem_strdup(pinfo->pool, mac);
}

/* "Temperature (°C)": a property with its unit, as the per-property nodes read. */
static const char *property_label(packet_info *pinfo, const bthome_object_def_t *def)
{
    return def->unit[0] ? wmem_strdup_printf(pinfo->pool, "%s (%s)", def->name, def->unit)
                        : def->name;
}

/* Sequence numbers are no measurement. */
static bool is_measurement(const bthome_reading_t *r)
{
    return r->def->id != BTHOME_OBJECT_PACKET_ID;
}

static bool is_event(const bthome_object_def_t *def)
{
    return def->kind == BTHOME_KIND_EVENT || def->kind == BTHOME_KIND_DIMMER ||
           def->kind == BTHOME_KIND_COMMAND;
}

/* Numbers: count, average, min and max (stats trees cannot show a last value; the
 * readings table does); anything else: how often each value was seen ("Door: open"),
 * events also in the Events view. */
static void add_reading(stats_tree *st, packet_info *pinfo, int device, const char *who,
                        const bthome_reading_t *r)
{
    if (r->def->kind == BTHOME_KIND_NUMBER) {
        const char *property = property_label(pinfo, r->def);
        int across = avg_stat_node_add_value_float(st, property,
                                                   stats_tree_parent_id_by_name(st, PROPERTIES_NODE), TRUE,
                                                   (float)r->value);
        avg_stat_node_add_value_float(st, property, device, FALSE, (float)r->value);
        avg_stat_node_add_value_float(st, who, across, FALSE, (float)r->value);
        return;
    }
    /* the value word alone: "press", "open"; the unit-less text otherwise */
    const char *state = wmem_strdup_printf(pinfo->pool, "%s: %s", r->def->name, r->text);
    tick_stat_node(st, state, device, FALSE);
    if (is_event(r->def)) {
        int node = tick_stat_node(st, state, stats_tree_parent_id_by_name(st, EVENTS_NODE), TRUE);
        tick_stat_node(st, who, node, FALSE);
    }
}

static tap_packet_status stats_packet(stats_tree *st, packet_info *pinfo,
                                      epan_dissect_t *edt _U_, const void *data,
                                      tap_flags_t flags _U_)
{
    const bthome_advert_t *ad = (const bthome_advert_t *)data;
    const char *who = device_label(pinfo, ad);
    int device;

    device = tick_stat_node(st, who, tick_stat_node(st, DEVICES_NODE, 0, TRUE), TRUE);
    increase_stat_node(st, "Duplicates", device, FALSE, ad->duplicate ? 1 : 0);
    increase_stat_node(st, "Encrypted", device, FALSE, ad->encrypted ? 1 : 0);
    increase_stat_node(st, "Decrypted", device, FALSE, ad->decrypted ? 1 : 0);
    increase_stat_node(st, "Not decrypted", device, FALSE,
                       ad->encrypted && !ad->decrypted ? 1 : 0);
    for (unsigned i = 0; i < ad->reading_count && !ad->duplicate; i++)
        if (is_measurement(&ad->readings[i]))
            add_reading(st, pinfo, device, who, &ad->readings[i]);
    return TAP_PACKET_REDRAW;
}

/* ---- The readings table ------------------------------------------------------------ */

enum { COL_DEVICE, COL_NAME, COL_PROPERTY, COL_UNIT, COL_COUNT, COL_MIN, COL_AVERAGE, COL_MAX,
       COL_LAST, COL_LAST_FRAME, READING_COLUMNS };

static stat_tap_table_item reading_columns[READING_COLUMNS] = {
    { TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Device", "%s" },
    { TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Name", "%s" },
    { TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Property", "%s" },
    { TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Unit", "%s" },
    { TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Count", "%u" },
    { TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "Min", "%g" },
    { TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "Average", "%g" },
    { TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "Max", "%g" },
    { TABLE_ITEM_FLOAT, TAP_ALIGN_RIGHT, "Last", "%g" },
    { TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Last frame", "%u" },   /* when it last reported */
};

#define READINGS_TABLE "BTHome Readings"

static stat_tap_table_ui readings_table;

/* One readings instance: a tshark -z bthome,readings, or one run of a Statistics
 * window. Wireshark hands every instance the same registered stat_tap_table_ui and
 * draws the tables of the instance's stat_data->stat_tap_data; so an instance's first
 * record gives it a copy of that ui with a table and a row index of its own, and two
 * instances with different filters never fill one table. The copy, its table and row
 * index are kept for good (one table per tshark -z or per GUI run): the GUI's window
 * keeps pointing into its table after the run, and Wireshark tells no one when it
 * closes. */
typedef struct {
    stat_tap_table_ui ui;       /* what stat_data->stat_tap_data points to */
    GHashTable *rows;           /* "device|property|unit" -> row + 1 */
} readings_instance_t;

static void readings_init(stat_tap_table_ui *ui)
{
    stat_tap_table *table = stat_tap_find_table(ui, READINGS_TABLE);

    if (table) {
        if (ui->stat_tap_reset_table_cb)
            ui->stat_tap_reset_table_cb(table);
        return;
    }
    stat_tap_add_table(ui, stat_tap_init_table(READINGS_TABLE, READING_COLUMNS, 0, NULL));
}

static readings_instance_t *readings_instance(stat_data_t *stat_data)
{
    readings_instance_t *inst;

    if (stat_data->stat_tap_data != &readings_table)
        return (readings_instance_t *)stat_data->stat_tap_data;
    inst = g_new0(readings_instance_t, 1);
    inst->ui = readings_table;
    inst->ui.tables = NULL;
    inst->ui.refcount = 0;
    readings_init(&inst->ui);
    inst->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    stat_data->stat_tap_data = &inst->ui;
    return inst;
}

/* The instance's table; a reset (readings_reset, which sees the table only) empties
 * it, and the row index follows. */
static stat_tap_table *instance_table(readings_instance_t *inst)
{
    stat_tap_table *table = stat_tap_find_table(&inst->ui, READINGS_TABLE);

    if (!table) {       /* freed by free_stat_tables */
        readings_init(&inst->ui);
        table = stat_tap_find_table(&inst->ui, READINGS_TABLE);
    }
    if (table->num_elements != g_hash_table_size(inst->rows))
        g_hash_table_remove_all(inst->rows);
    return table;
}

static stat_tap_table_item_type string_item(const char *text)
{
    stat_tap_table_item_type item;

    memset(&item, 0, sizeof item);
    item.type = TABLE_ITEM_STRING;
    item.value.string_value = g_strdup(text);
    return item;
}

static stat_tap_table_item_type number_item(stat_tap_table_item_enum type, double value)
{
    stat_tap_table_item_type item;

    memset(&item, 0, sizeof item);
    item.type = type;
    if (type == TABLE_ITEM_UINT)
        item.value.uint_value = 0;
    else
        item.value.float_value = value;
    return item;
}

static unsigned reading_row(readings_instance_t *inst, stat_tap_table *table,
                            const bthome_advert_t *ad, const char *device_text,
                            const bthome_reading_t *r)
{
    /* A row per property and unit: "Mass" in kg and in lb are two rows (their numbers do
     * not mix); two resolutions of one unit (Temperature 0x02 and 0x45, both °C) one. */
    char *key = g_strdup_printf("%s|%s|%s", device_text, r->def->name, r->def->unit);
    unsigned row = GPOINTER_TO_UINT(g_hash_table_lookup(inst->rows, key));
    stat_tap_table_item_type items[READING_COLUMNS];

    if (row) {
        g_free(key);
        return row - 1;
    }
    row = table->num_elements;
    items[COL_DEVICE] = string_item(device_text);
    items[COL_NAME] = string_item(ad->device_name ? ad->device_name : "");
    items[COL_PROPERTY] = string_item(r->def->name);
    items[COL_UNIT] = string_item(r->def->unit);
    items[COL_COUNT] = number_item(TABLE_ITEM_UINT, 0);
    for (int col = COL_MIN; col <= COL_LAST; col++)
        items[col] = number_item(TABLE_ITEM_FLOAT, r->value);
    items[COL_LAST_FRAME] = number_item(TABLE_ITEM_UINT, 0);
    stat_tap_init_table_row(table, row, READING_COLUMNS, items);
    g_hash_table_insert(inst->rows, key, GUINT_TO_POINTER(row + 1));
    return row;
}

static void add_to_row(stat_tap_table *table, unsigned row, double value, uint32_t frame)
{
    stat_tap_table_item_type *items = table->elements[row];
    unsigned n = ++items[COL_COUNT].value.uint_value;

    items[COL_MIN].value.float_value = MIN(items[COL_MIN].value.float_value, value);
    items[COL_MAX].value.float_value = MAX(items[COL_MAX].value.float_value, value);
    items[COL_AVERAGE].value.float_value += (value - items[COL_AVERAGE].value.float_value) / n;
    items[COL_LAST].value.float_value = value;
    items[COL_LAST_FRAME].value.uint_value = frame;
}

static tap_packet_status readings_packet(void *tapdata, packet_info *pinfo _U_,
                                         epan_dissect_t *edt _U_, const void *data,
                                         tap_flags_t flags _U_)
{
    const bthome_advert_t *ad = (const bthome_advert_t *)data;
    readings_instance_t *inst;
    stat_tap_table *table;
    char device_text[BTHOME_MAC_TEXT_LEN];

    if (ad->duplicate || !ad->has_device)
        return TAP_PACKET_DONT_REDRAW;
    inst = readings_instance((stat_data_t *)tapdata);
    table = instance_table(inst);
    bthome_format_mac(ad->device, device_text);
    for (unsigned i = 0; i < ad->reading_count; i++) {
        const bthome_reading_t *r = &ad->readings[i];
        if (r->def->kind == BTHOME_KIND_NUMBER && is_measurement(r))
            add_to_row(table, reading_row(inst, table, ad, device_text, r), r->value,
                       ad->frame);
    }
    return TAP_PACKET_REDRAW;
}

/* Rows come and go with the devices of the capture: a reset drops them all. */
static void readings_reset(stat_tap_table *table)
{
    for (unsigned row = 0; row < table->num_elements; row++) {
        for (unsigned col = COL_DEVICE; col <= COL_UNIT; col++)
            g_free((char *)table->elements[row][col].value.string_value);
        g_free(table->elements[row]);
    }
    table->num_elements = 0;
}

static stat_tap_table_ui readings_table = {
    REGISTER_STAT_GROUP_GENERIC, "BTHome Readings", BTHOME_TAP_NAME, "bthome,readings",
    readings_init, readings_packet, readings_reset, NULL, NULL,
    READING_COLUMNS, reading_columns, 0, NULL, NULL, 0
};

void bthome_register_stats(void)
{
    register_stat_tap_table_ui(&readings_table);
    stats_tree_register_plugin(BTHOME_TAP_NAME, "bthome", "BTHome", 0, stats_packet,
                               stats_init, NULL);
}
