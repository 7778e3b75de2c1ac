/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of plugin/bthome_adv.c: finding the advertisement (AdvData) around a BTHome
 * service data in the frame bytes of each link type, and its Local Name.
 *
 * Frames are written out by hand from the Bluetooth Core specification's layouts (LL
 * advertising PDU; HCI LE Advertising Report and LE Extended Advertising Report).
 */
#include "bthome_adv.h"
#include "bthome_core.h"
#include "check.h"

static const uint8_t ADDR[6] = { 0xA4, 0xC1, 0x38, 0x00, 0x00, 0x01 };  /* display order */
#define ADDR_WIRE "01 00 00 38 c1 a4"
#define FLAGS     "02 01 06"
#define NAME_AD   "08 09 57 65 61 74 68 65 72"          /* Complete Local Name "Weather" */
#define SVC_AD    "07 16 d2 fc 40 02 c4 09"             /* BTHome: temperature 25.00 */

/* Offset of the service data AD (its length byte) in in[]: the first "16 d2 fc". */
static size_t service_ad_pos(void)
{
    for (size_t i = 1; i + 2 < in_len; i++)
        if (in[i] == 0x16 && in[i + 1] == 0xd2 && in[i + 2] == 0xfc)
            return i - 1;
    return 0;
}

static void check_name(const char *frame_hex, const char *want_name)
{
    bthome_adv_span_t adv;
    size_t pos = 0, len = 0;
    char name[64] = "";

    load(frame_hex);
    CHECK(bthome_locate_adv_data(in, in_len, in_len, service_ad_pos(), ADDR, &adv));
    if (failed)
        return;     /* the rest would read an unset span */
    if (!want_name) {
        CHECK_BOOL(bthome_adv_local_name(in, &adv, &pos, &len), false);
        return;
    }
    CHECK(bthome_adv_local_name(in, &adv, &pos, &len));
    if (len < sizeof name)
        memcpy(name, in + pos, len), name[len] = '\0';
    CHECK_STR(name, want_name);
}

static void test_link_types(void)
{
    /* LE link layer: access address, header (ADV_NONCONN_IND, length 6 + 22), AdvA,
     * AdvData, CRC */
    check_name("d6 be 89 8e 02 1a " ADDR_WIRE " " FLAGS " " NAME_AD " " SVC_AD " 11 22 33",
               "Weather");
    /* the name after the service data */
    check_name("d6 be 89 8e 02 1a " ADDR_WIRE " " FLAGS " " SVC_AD " " NAME_AD " 11 22 33",
               "Weather");
    /* nRF Sniffer and PHDR add a header before the LL packet: same bytes after it */
    check_name("00 2a 00 03 01 00 02 0a 01 25 3c 00 00 00 00 00 00 "
               "d6 be 89 8e 02 1a " ADDR_WIRE " " FLAGS " " NAME_AD " " SVC_AD " 11 22 33",
               "Weather");
    /* LL extended advertising, AUX_ADV_IND: header (length 1 + 9 + 20), extended header
     * of 9 bytes (AdvMode 0): flags (AdvA, ADI), AdvA, ADI; then AdvData, CRC */
    check_name("d6 be 89 8e 07 1e 09 09 " ADDR_WIRE " 01 10 " FLAGS " " NAME_AD " " SVC_AD
               " 11 22 33", "Weather");
    /* the same with TxPower after the ADI: the header length, not the flags, places it */
    check_name("d6 be 89 8e 07 1f 0a 49 " ADDR_WIRE " 01 10 f4 " FLAGS " " NAME_AD " " SVC_AD
               " 11 22 33", "Weather");
    /* HCI LE Advertising Report: event type, address type, address, length, data, RSSI */
    check_name("04 3e 25 02 01 03 00 " ADDR_WIRE " 14 " FLAGS " " NAME_AD " " SVC_AD " c4",
               "Weather");
    /* HCI LE Extended Advertising Report: 14 bytes between address and data length */
    check_name("04 3e 34 0d 01 10 00 00 " ADDR_WIRE " 01 00 ff 7f c4 00 00 00 "
               "00 00 00 00 00 00 14 " FLAGS " " NAME_AD " " SVC_AD, "Weather");
    /* no name at all */
    check_name("d6 be 89 8e 02 11 " ADDR_WIRE " " FLAGS " " SVC_AD " 11 22 33", NULL);
    /* a Shortened Local Name when there is no complete one; the complete one first */
    check_name("04 3e 1e 02 01 03 00 " ADDR_WIRE " 0d " "04 08 57 65 61 " SVC_AD " c4", "Wea");
    check_name("04 3e 29 02 01 03 00 " ADDR_WIRE " 16 " "04 08 57 65 61 " NAME_AD " " SVC_AD
               " c4", "Weather");
}

/* Two reports in one HCI event: the second report's service data gets its own name. */
static void test_multi_report(void)
{
    static const uint8_t other[6] = { 0xA4, 0xC1, 0x38, 0x00, 0x00, 0x02 };
    bthome_adv_span_t adv;
    size_t pos, len;

    load("04 3e 40 02 02 "
         "03 00 02 00 00 38 c1 a4 10 " FLAGS " 05 09 44 6f 6f 72 " "06 16 d2 fc 40 1a 01"
         " c0 "
         "03 00 " ADDR_WIRE " 0b " FLAGS " " SVC_AD " c4");
    size_t second = 0;
    for (size_t i = in_len - 2; i > 0; i--)
        if (in[i] == 0x07 && in[i + 1] == 0x16) { second = i; break; }
    CHECK(bthome_locate_adv_data(in, in_len, in_len, second, ADDR, &adv));
    CHECK_BOOL(bthome_adv_local_name(in, &adv, &pos, &len), false);  /* not "Door" */
    /* the first report's own address finds its name */
    CHECK(bthome_locate_adv_data(in, in_len, in_len, service_ad_pos(), other, &adv));
    CHECK(bthome_adv_local_name(in, &adv, &pos, &len));
    CHECK_INT(len, 4);
    CHECK(memcmp(in + pos, "Door", 4) == 0);
}

static void test_refusals(void)
{
    static const uint8_t stranger[6] = { 1, 2, 3, 4, 5, 6 };
    bthome_adv_span_t adv;

    /* another device's address: no advertisement found */
    load("d6 be 89 8e 02 11 " ADDR_WIRE " " FLAGS " " SVC_AD " 11 22 33");
    CHECK_BOOL(bthome_locate_adv_data(in, in_len, in_len, service_ad_pos(), stranger, &adv), false);
    /* lengths that do not chain onto the service data */
    load("d6 be 89 8e 02 11 " ADDR_WIRE " 03 01 06 " SVC_AD " 11 22 33");
    CHECK_BOOL(bthome_locate_adv_data(in, in_len, in_len, service_ad_pos(), ADDR, &adv), false);
    /* LL extended advertising without the AdvA flag: the address is not AdvA */
    load("d6 be 89 8e 07 1e 09 08 " ADDR_WIRE " 01 10 " FLAGS " " NAME_AD " " SVC_AD " 11 22 33");
    CHECK_BOOL(bthome_locate_adv_data(in, in_len, in_len, service_ad_pos(), ADDR, &adv), false);
    /* the LL length runs past the captured bytes */
    load("d6 be 89 8e 02 3f " ADDR_WIRE " " FLAGS " " SVC_AD);
    CHECK_BOOL(bthome_locate_adv_data(in, in_len, in_len, service_ad_pos(), ADDR, &adv), false);
    /* the service data position past the end, and no frame at all */
    CHECK_BOOL(bthome_locate_adv_data(in, in_len, in_len, in_len, ADDR, &adv), false);
    CHECK_BOOL(bthome_locate_adv_data(NULL, 0, 0, 0, ADDR, &adv), false);
    /* a name AD that runs past the end of the advertisement is no name */
    load("0a 09 57 65");
    adv.start = 0;
    adv.end = in_len;
    size_t pos, len;
    CHECK_BOOL(bthome_adv_local_name(in, &adv, &pos, &len), false);
}

/* Arbitrary bytes, every service data position and address: never out of bounds (run
 * under ASan in the robustness stage), and a span found is always inside the frame. */
static void test_random_frames(void)
{
    uint32_t seed = 12345;
    uint8_t frame[80];

    for (int round = 0; round < 20000; round++) {
        size_t len = 1 + round % (sizeof frame - 1);
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            frame[i] = (uint8_t)(seed >> 16);
        }
        if (round % 3 == 0 && len > 4) {   /* a service data header, empty or not */
            size_t at = seed % (len - 3);
            memcpy(frame + at, (round / 3) % 2 ? "\x03\x16\xd2\xfc" : "\x05\x16\x1e\x18", 4);
        }
        bthome_adv_span_t adv;
        bthome_service_data_t sd;
        size_t ad_pos = (seed >> 8) % len, pos, name_len, search = 0;

        /* the search ends, and what it finds lies in the frame */
        while (bthome_next_service_data(frame, len, len, NULL, &search, &sd))
            CHECK(sd.start <= len && sd.adv.end <= len);
        if (bthome_locate_adv_data(frame, len, len, ad_pos, frame + (len > 6 ? len - 6 : 0),
                                   &adv)) {
            CHECK(adv.start <= ad_pos && ad_pos < adv.end && adv.end <= len);
            if (bthome_adv_local_name(frame, &adv, &pos, &name_len))
                CHECK(pos + name_len <= adv.end);
        }
    }
    passed++;
}

/* HCI without the address (when Wireshark built no tree): the same advertisement, read
 * from the event's reports, and where its address is. */
static void check_hci_report(const char *frame_hex)
{
    static const uint8_t wire[6] = { 0x01, 0x00, 0x00, 0x38, 0xc1, 0xa4 };
    bthome_adv_span_t known, found;

    load(frame_hex);
    cur = frame_hex;
    CHECK(bthome_locate_adv_data(in, in_len, in_len, service_ad_pos(), ADDR, &known));
    CHECK(bthome_locate_hci_report(in, in_len, in_len, service_ad_pos(), &found));
    if (failed)
        return;
    CHECK_INT(found.start, known.start);
    CHECK_INT(found.end, known.end);
    CHECK_INT(found.address, known.address);
    CHECK(known.address + 6 <= in_len && memcmp(in + known.address, wire, 6) == 0);
}

static void test_hci_reports(void)
{
    bthome_adv_span_t adv;
    size_t second = 0;

    check_hci_report("04 3e 20 02 01 03 00 " ADDR_WIRE " 14 " FLAGS " " NAME_AD " " SVC_AD
                     " c4");
    check_hci_report("04 3e 2e 0d 01 10 00 00 " ADDR_WIRE " 01 00 ff 7f c4 00 00 00 "
                     "00 00 00 00 00 00 14 " FLAGS " " NAME_AD " " SVC_AD);
    /* an empty service data, BTHome's "03 16 d2 fc"; a btmon frame has no H4 type byte */
    check_hci_report("04 3e 13 02 01 03 00 " ADDR_WIRE " 07 " FLAGS " 03 16 d2 fc c4");
    check_hci_report("3e 13 02 01 03 00 " ADDR_WIRE " 07 " FLAGS " 03 16 d2 fc c4");
    /* the second of two reports */
    load("04 3e 31 02 02 "
         "03 00 02 00 00 38 c1 a4 10 " FLAGS " 05 09 44 6f 6f 72 " "06 16 d2 fc 40 1a 01"
         " c0 "
         "03 00 " ADDR_WIRE " 0b " FLAGS " " SVC_AD " c4");
    cur = "two reports";
    for (size_t i = in_len - 2; i > 0; i--)
        if (in[i] == 0x07 && in[i + 1] == 0x16) { second = i; break; }
    CHECK(bthome_locate_hci_report(in, in_len, in_len, second, &adv));
    CHECK_INT(adv.address, 33);
    CHECK(bthome_locate_hci_report(in, in_len, in_len, service_ad_pos(), &adv));
    CHECK_INT(adv.address, 7);
    /* the LL link layer is no HCI event; an event length that is not the frame's */
    load("d6 be 89 8e 02 11 " ADDR_WIRE " " FLAGS " " SVC_AD " 11 22 33");
    CHECK_BOOL(bthome_locate_hci_report(in, in_len, in_len, service_ad_pos(), &adv), false);
    load("04 3e 21 02 01 03 00 " ADDR_WIRE " 14 " FLAGS " " NAME_AD " " SVC_AD " c4");
    CHECK_BOOL(bthome_locate_hci_report(in, in_len, in_len, service_ad_pos(), &adv), false);
    /* a data length that does not chain onto the service data */
    load("04 3e 20 02 01 03 00 " ADDR_WIRE " 13 " FLAGS " " NAME_AD " " SVC_AD " c4");
    CHECK_BOOL(bthome_locate_hci_report(in, in_len, in_len, service_ad_pos(), &adv), false);
    CHECK_BOOL(bthome_locate_hci_report(NULL, 0, 0, 0, &adv), false);
    cur = "";
}

/* Every BTHome service data AD structure of a frame that an advertisement holds, in order. */
static void test_service_data_search(void)
{
    static const uint8_t stranger[6] = { 1, 2, 3, 4, 5, 6 };
    bthome_service_data_t sd;
    size_t pos = 0;

    /* two reports: both found, each with its report's address; the Flags' 0x06 and the
     * name's bytes are no candidates */
    load("04 3e 31 02 02 "
         "03 00 02 00 00 38 c1 a4 10 " FLAGS " 05 09 44 6f 6f 72 " "06 16 d2 fc 40 1a 01"
         " c0 "
         "03 00 " ADDR_WIRE " 0b " FLAGS " " SVC_AD " c4");
    cur = "search, two reports";
    CHECK(bthome_next_service_data(in, in_len, in_len, NULL, &pos, &sd));
    CHECK_INT(sd.ad, 23);
    CHECK_INT(sd.start, 27);
    CHECK_INT(sd.length, 3);
    CHECK_INT(sd.uuid, 0xFCD2);
    CHECK_INT(sd.adv.address, 7);
    CHECK(bthome_next_service_data(in, in_len, in_len, NULL, &pos, &sd));
    CHECK_INT(sd.length, 4);
    CHECK_INT(sd.adv.address, 33);
    CHECK_BOOL(bthome_next_service_data(in, in_len, in_len, NULL, &pos, &sd),
               false);
    /* LL: an empty v1 service data after the link's AdvA */
    load("d6 be 89 8e 02 0d " ADDR_WIRE " " FLAGS " 03 16 1c 18 11 22 33");
    cur = "search, LL empty v1";
    pos = 0;
    CHECK(bthome_next_service_data(in, in_len, in_len, ADDR, &pos, &sd));
    CHECK_INT(sd.length, 0);
    CHECK_INT(sd.uuid, 0x181C);
    /* another advertiser's address: the pattern, but no advertisement holds it */
    pos = 0;
    CHECK_BOOL(bthome_next_service_data(in, in_len, in_len, stranger, &pos, &sd), false);
    /* cut before its UUID's last byte: none */
    pos = 0;
    CHECK_BOOL(bthome_next_service_data(in, in_len - 4, in_len - 4, ADDR, &pos, &sd), false);
    /* a UUID that is not BTHome's, a 0x16 at the very start or end, no frame */
    load("16 03 16 0f 18 06 16");
    pos = 0;
        CHECK_BOOL(bthome_next_service_data(in, in_len, in_len, ADDR, &pos, &sd),
               false);
    CHECK_BOOL(bthome_next_service_data(NULL, 0, 0, ADDR, &pos, &sd), false);
    cur = "";
}

/* A frame cut short by the capture's snap length: the last service data runs past the
 * captured bytes. Found with the frame's length on the wire, refused without it. */
static void test_cut_frames(void)
{
    bthome_service_data_t sd;
    size_t pos = 0;

    /* LL: AdvA, Flags, the service data cut two bytes into its objects (the temperature's
     * value, then the CRC, not captured) */
    load("d6 be 89 8e 02 11 " ADDR_WIRE " " FLAGS " 07 16 d2 fc 40 02");
    cur = "cut LL";
    CHECK(bthome_next_service_data(in, in_len, in_len + 5, ADDR, &pos, &sd));
    CHECK_INT(sd.start, 19);
    CHECK_INT(sd.length, 4);            /* the AD structure's, past the captured end */
    CHECK_INT(sd.adv.end, 23);
    pos = 0;
    CHECK_BOOL(bthome_next_service_data(in, in_len, in_len, ADDR, &pos, &sd),
               false);
    /* cut right after the UUID */
    load("d6 be 89 8e 02 11 " ADDR_WIRE " " FLAGS " 07 16 d2 fc");
    pos = 0;
    CHECK(bthome_next_service_data(in, in_len, in_len + 7, ADDR, &pos, &sd));
    CHECK_INT(sd.start, 19);
    CHECK_INT(sd.length, 4);
    /* a PDU length longer than the frame on the wire is no advertisement */
    pos = 0;
    CHECK_BOOL(bthome_next_service_data(in, in_len, in_len + 3, ADDR, &pos, &sd), false);
    /* HCI: the event's parameter length counts the bytes the capture lost (the rest of the
     * service data and the RSSI) */
    load("04 3e 17 02 01 03 00 " ADDR_WIRE " 0b " FLAGS " 07 16 d2 fc 40");
    cur = "cut HCI";
    pos = 0;
    CHECK(bthome_next_service_data(in, in_len, in_len + 4, NULL, &pos, &sd));
    CHECK_INT(sd.start, 21);
    CHECK_INT(sd.length, 4);
    CHECK_INT(sd.adv.address, 7);
    pos = 0;
    CHECK_BOOL(bthome_next_service_data(in, in_len, in_len, NULL, &pos, &sd),
               false);
    cur = "";
}

int main(void)
{
    bthome_core_init();
    test_service_data_search();
    test_cut_frames();
    test_link_types();
    test_multi_report();
    test_hci_reports();
    test_refusals();
    test_random_frames();
    return check_summary();
}
