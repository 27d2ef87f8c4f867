#include <core.p4>
#include <v1model.p4>

const bit<9> TANDEM_SERVER_PORT = 9w64;

const bit<16> TANDEM_ETHERTYPE = 16w0x88b5;

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> ethertype;
}

header tandem_t {
    bit<8> tag;
    bit<16> orig_ethertype;
    bit<32> v1;
    bit<1> v3;
    bit<1> v13;
    bit<1> v14;
    bit<1> v23;
    bit<16> v35;
    bit<16> v36;
    bit<8> v37;
    bit<1> v47;
    bit<1> v51;
    bit<1> v55;
    bit<1> v59;
    bit<1> v234;
    bit<17> fate;
    bit<8> v61;
    bit<1> v66;
    bit<1> v74;
    bit<1> v85;
    bit<1> v93;
    bit<1> v100;
    bit<1> v106;
    bit<1> v109;
    bit<1> v141;
    bit<1> v152;
    bit<1> v158;
    bit<1> v162;
    bit<3> pad;
}

header ipv4_vihl_t {
    bit<8> version_ihl;
}

header ipv4_t {
    bit<8> tos;
    bit<16> total_len;
    bit<16> id;
    bit<16> frag_off;
    bit<8> ttl;
    bit<8> protocol;
    bit<16> check;
    bit<32> saddr;
    bit<32> daddr;
}

header tcp_t {
    bit<16> sport;
    bit<16> dport;
    bit<32> seq;
    bit<32> ack_seq;
    bit<8> data_off;
    bit<8> flags;
    bit<16> window;
    bit<16> check;
    bit<16> urg_ptr;
}

header udp_t {
    bit<16> sport;
    bit<16> dport;
    bit<16> len;
    bit<16> check;
}

header ipv4_opt_t {
    bit<32> word;
}

struct headers_t {
    eth_t eth;
    tandem_t tandem;
    ipv4_vihl_t ipv4_vihl;
    ipv4_t ipv4;
    ipv4_opt_t ipv4_opt1;
    ipv4_opt_t ipv4_opt2;
    ipv4_opt_t ipv4_opt3;
    ipv4_opt_t ipv4_opt4;
    ipv4_opt_t ipv4_opt5;
    ipv4_opt_t ipv4_opt6;
    ipv4_opt_t ipv4_opt7;
    ipv4_opt_t ipv4_opt8;
    ipv4_opt_t ipv4_opt9;
    ipv4_opt_t ipv4_opt10;
    tcp_t tcp;
    udp_t udp;
}

struct meta_t {
    bit<1> to_server;
    bit<17> fate;
    bit<1> ipv4_ok;
    bit<32> table__class_k0;
    bit<32> table__class_k4;
    bit<16> table__class_k8;
    bit<16> table__class_k10;
    bit<8> table__class_k12;
    bit<8> table__class_k13;
    bit<8> table__class_k14;
    bit<8> table__class_k15;
    bit<32> table__class_h0;
    bit<32> table__class_h1;
    bit<32> table__class_h2;
    bit<32> table__class_h3;
    bit<32> table__class_hf;
    bit<16> table__class_fp;
    bit<1> table__class_alt;
    bit<8> table__class_way;
    bit<32> table__class_slot;
    bit<32> table__class_i;
    bit<32> table__class_c;
    bit<48> table__class_now;
    bit<48> table__class_tv;
    bit<1> table__class_stale;
    bit<1> table__class_fresh;
    bit<1> visible;
    bit<1> wb_hit;
    bit<16> in_port;
    bit<1> tmp1_0;
    bit<1> tmp1_1;
    bit<1> tmp1_2;
    bit<1> tmp1_3;
    bit<1> tmp1_4;
    bit<1> tmp1_5;
    bit<1> tmp1_6;
    bit<1> tmp1_7;
    bit<1> tmp1_8;
    bit<1> tmp1_9;
    bit<1> tmp1_10;
    bit<1> tmp1_11;
    bit<1> tmp1_12;
    bit<1> tmp1_13;
    bit<1> tmp1_14;
    bit<1> tmp1_15;
    bit<1> tmp1_16;
    bit<1> tmp1_17;
    bit<1> tmp1_18;
    bit<1> tmp1_19;
    bit<1> tmp1_20;
    bit<1> tmp1_21;
    bit<1> tmp1_22;
    bit<1> tmp1_23;
    bit<1> tmp1_24;
    bit<1> tmp1_25;
    bit<1> tmp1_26;
    bit<1> tmp1_27;
    bit<1> tmp1_28;
    bit<1> tmp1_29;
    bit<1> tmp1_30;
    bit<1> tmp1_31;
    bit<1> tmp1_32;
    bit<8> tmp8_0;
    bit<8> tmp8_1;
    bit<8> tmp8_2;
    bit<8> tmp8_3;
    bit<8> tmp8_4;
    bit<16> tmp16_0;
    bit<16> tmp16_1;
    bit<16> tmp16_2;
    bit<16> tmp16_3;
    bit<16> tmp16_4;
    bit<32> tmp32_0;
    bit<32> tmp32_1;
    bit<32> tmp32_2;
    bit<32> tmp32_3;
    bit<32> tmp32_4;
}

parser TandemParser(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.eth);
        transition select(standard_metadata.ingress_port, hdr.eth.ethertype) {
            (TANDEM_SERVER_PORT, TANDEM_ETHERTYPE): parse_tandem;
            (_, 16w0x800): parse_ipv4;
            default: accept;
        }
    }
    state parse_tandem {
        packet.extract(hdr.tandem);
        transition select(hdr.tandem.orig_ethertype) {
            16w0x800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4_vihl);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w69: parse_ipv4_rest;
            8w70: parse_ipv4_rest;
            8w71: parse_ipv4_rest;
            8w72: parse_ipv4_rest;
            8w73: parse_ipv4_rest;
            8w74: parse_ipv4_rest;
            8w75: parse_ipv4_rest;
            8w76: parse_ipv4_rest;
            8w77: parse_ipv4_rest;
            8w78: parse_ipv4_rest;
            8w79: parse_ipv4_rest;
            default: accept;
        }
    }
    state parse_ipv4_rest {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w69: parse_l4;
            default: parse_ipv4_opt1;
        }
    }
    state parse_ipv4_opt1 {
        packet.extract(hdr.ipv4_opt1);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w70: parse_l4;
            default: parse_ipv4_opt2;
        }
    }
    state parse_ipv4_opt2 {
        packet.extract(hdr.ipv4_opt2);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w71: parse_l4;
            default: parse_ipv4_opt3;
        }
    }
    state parse_ipv4_opt3 {
        packet.extract(hdr.ipv4_opt3);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w72: parse_l4;
            default: parse_ipv4_opt4;
        }
    }
    state parse_ipv4_opt4 {
        packet.extract(hdr.ipv4_opt4);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w73: parse_l4;
            default: parse_ipv4_opt5;
        }
    }
    state parse_ipv4_opt5 {
        packet.extract(hdr.ipv4_opt5);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w74: parse_l4;
            default: parse_ipv4_opt6;
        }
    }
    state parse_ipv4_opt6 {
        packet.extract(hdr.ipv4_opt6);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w75: parse_l4;
            default: parse_ipv4_opt7;
        }
    }
    state parse_ipv4_opt7 {
        packet.extract(hdr.ipv4_opt7);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w76: parse_l4;
            default: parse_ipv4_opt8;
        }
    }
    state parse_ipv4_opt8 {
        packet.extract(hdr.ipv4_opt8);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w77: parse_l4;
            default: parse_ipv4_opt9;
        }
    }
    state parse_ipv4_opt9 {
        packet.extract(hdr.ipv4_opt9);
        transition select(hdr.ipv4_vihl.version_ihl) {
            8w78: parse_l4;
            default: parse_ipv4_opt10;
        }
    }
    state parse_ipv4_opt10 {
        packet.extract(hdr.ipv4_opt10);
        transition parse_l4;
    }
    state parse_l4 {
        meta.ipv4_ok = 1w1;
        transition select(hdr.ipv4.protocol) {
            8w6: parse_tcp;
            8w17: parse_udp;
            default: accept;
        }
    }
    state parse_tcp {
        packet.extract(hdr.tcp);
        transition accept;
    }
    state parse_udp {
        packet.extract(hdr.udp);
        transition accept;
    }
}

control TandemVerifyChecksum(inout headers_t hdr, inout meta_t meta) {
    apply {
    }
}

control TandemIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t standard_metadata) {
    register<bit<32> >(32w1) open_from;
    register<bit<32> >(32w1) other_allowed_0;
    register<bit<32> >(32w1) other_allowed_1;
    register<bit<32> >(32w0x20000) table__class_w0;
    register<bit<32> >(32w0x20000) table__class_w1;
    register<bit<32> >(32w0x20000) table__class_w2;
    register<bit<32> >(32w0x20000) table__class_w3;
    register<bit<48> >(32w0x20000) table__class_t0;
    register<bit<48> >(32w0x20000) table__class_t1;
    register<bit<48> >(32w0x20000) table__class_t2;
    register<bit<48> >(32w0x20000) table__class_t3;
    const bit<48> table__class_ttl = 48w0x11e1a2ff;
    action table__class_col_alt(bit<8> way, bit<32> slot) {
        meta.table__class_alt = 1w1;
        meta.table__class_way = way;
        meta.table__class_slot = slot;
    }
    action table__class_col_none() {
        meta.table__class_alt = 1w0;
    }
    table table__class_col {
        key = {
            meta.table__class_k0: exact;
            meta.table__class_k4: exact;
            meta.table__class_k8: exact;
            meta.table__class_k10: exact;
            meta.table__class_k12: exact;
            meta.table__class_k13: exact;
            meta.table__class_k14: exact;
            meta.table__class_k15: exact;
        }
        actions = {
            table__class_col_alt;
            table__class_col_none;
        }
        default_action = table__class_col_none();
        size = 0x831;
    }
    action table__class_wb_hit(bit<8> class) {
        meta.tmp1_32 = 1w1;
        meta.tmp8_4 = class;
        meta.wb_hit = 1w1;
    }
    action table__class_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_32 = 1w0;
        meta.tmp8_4 = 8w0;
    }
    action table__class_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table table__class_wb {
        key = {
            meta.table__class_k0: exact;
            meta.table__class_k4: exact;
            meta.table__class_k8: exact;
            meta.table__class_k10: exact;
            meta.table__class_k12: exact;
            meta.table__class_k13: exact;
            meta.table__class_k14: exact;
            meta.table__class_k15: exact;
        }
        actions = {
            table__class_wb_hit;
            table__class_wb_deleted;
            table__class_wb_miss;
        }
        default_action = table__class_wb_miss();
        size = 0x400;
        support_timeout = true;
    }
    register<bit<1> >(32w1) tandem_visible;
    apply {
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.tmp32_0 = hdr.tandem.v1;
                meta.tmp1_0 = hdr.tandem.v3;
                meta.tmp1_1 = hdr.tandem.v13;
                meta.tmp1_2 = hdr.tandem.v14;
                meta.tmp1_3 = hdr.tandem.v23;
                meta.tmp16_0 = hdr.tandem.v35;
                meta.tmp16_1 = hdr.tandem.v36;
                meta.tmp8_0 = hdr.tandem.v37;
                meta.tmp1_4 = hdr.tandem.v47;
                meta.tmp1_5 = hdr.tandem.v51;
                meta.tmp1_6 = hdr.tandem.v55;
                meta.tmp1_7 = hdr.tandem.v59;
                meta.tmp1_8 = hdr.tandem.v234;
                meta.fate = hdr.tandem.fate;
                meta.tmp8_1 = hdr.tandem.v61;
                meta.tmp1_9 = hdr.tandem.v66;
                meta.tmp1_10 = hdr.tandem.v74;
                meta.tmp1_11 = hdr.tandem.v85;
                meta.tmp1_12 = hdr.tandem.v93;
                meta.tmp1_13 = hdr.tandem.v100;
                meta.tmp1_14 = hdr.tandem.v106;
                meta.tmp1_15 = hdr.tandem.v109;
                meta.tmp1_16 = hdr.tandem.v141;
                meta.tmp1_17 = hdr.tandem.v152;
                meta.tmp1_18 = hdr.tandem.v158;
                meta.tmp1_19 = hdr.tandem.v162;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
            } else {
                mark_to_drop(standard_metadata);
                exit;
            }
        } else {
            meta.in_port = (bit<16>) standard_metadata.ingress_port;
            meta.tmp16_2 = meta.in_port;
            meta.tmp1_8 = (meta.tmp16_2 > 16w1) ? 1w1 : 1w0;
            meta.tmp1_20 = hdr.tcp.isValid() ? 1w1 : 1w0;
            meta.tmp32_1 = hdr.ipv4.saddr;
            meta.tmp32_2 = hdr.ipv4.daddr;
            meta.tmp1_21 = (meta.tmp32_1 < meta.tmp32_2) ? 1w1 : 1w0;
            meta.tmp1_22 = (meta.tmp1_8 == 1w1) ? 1w0 : ((meta.tmp1_20 == 1w1) ? meta.tmp1_21 : 1w0);
            meta.tmp32_1 = ((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24];
            meta.tmp32_2 = ((meta.tmp32_2[7:0] ++ meta.tmp32_2[15:8]) ++ meta.tmp32_2[23:16]) ++ meta.tmp32_2[31:24];
            meta.tmp1_23 = (meta.tmp32_1 == meta.tmp32_2) ? 1w1 : 1w0;
            meta.tmp16_3 = hdr.tcp.sport;
            meta.tmp16_4 = hdr.tcp.dport;
            meta.tmp1_24 = (meta.tmp16_3 > meta.tmp16_4) ? 1w1 : 1w0;
            meta.tmp1_25 = (meta.tmp1_8 == 1w1) ? 1w0 : ((meta.tmp1_20 == 1w1) ? ((meta.tmp1_21 == 1w1) ? 1w0 : ((meta.tmp1_23 == 1w1) ? meta.tmp1_24 : 1w1)) : 1w0);
            meta.tmp16_3 = meta.tmp16_3[7:0] ++ meta.tmp16_3[15:8];
            meta.tmp16_4 = meta.tmp16_4[7:0] ++ meta.tmp16_4[15:8];
            meta.tmp8_2 = hdr.ipv4.protocol;
            other_allowed_0.read(meta.tmp32_3, 32w0);
            meta.tmp1_26 = (meta.tmp32_3 == 32w0) ? 1w1 : 1w0;
            meta.tmp32_3 = (bit<32>) meta.tmp16_2;
            meta.tmp16_2 = (bit<16>) (32w1 - meta.tmp32_3);
            meta.tmp8_3 = hdr.tcp.flags;
            meta.tmp32_4 = (bit<32>) meta.tmp8_3;
            meta.tmp1_27 = ((meta.tmp32_4 & 32w2) == 32w0) ? 1w1 : 1w0;
            meta.tmp1_28 = ((meta.tmp32_4 & 32w16) == 32w0) ? 1w1 : 1w0;
            meta.tmp1_29 = ((meta.tmp32_4 & 32w1) == 32w0) ? 1w1 : 1w0;
            meta.tmp1_30 = ((meta.tmp32_4 & 32w4) != 32w0) ? 1w1 : 1w0;
            open_from.read(meta.tmp32_4, 32w0);
            meta.tmp1_31 = ((meta.tmp32_4 & (32w1 << ((bit<8>) ((meta.tmp32_3 < 32w32) ? meta.tmp32_3 : 32w32)))) == 32w0) ? 1w1 : 1w0;
            meta.table__class_k0 = (meta.tmp1_22 == 1w1) ? meta.tmp32_1 : ((meta.tmp1_25 == 1w1) ? meta.tmp32_2 : meta.tmp32_1);
            meta.table__class_k4 = (meta.tmp1_22 == 1w1) ? meta.tmp32_2 : meta.tmp32_1;
            meta.table__class_k8 = (meta.tmp1_22 == 1w1) ? meta.tmp16_3 : ((meta.tmp1_25 == 1w1) ? meta.tmp16_4 : meta.tmp16_3);
            meta.table__class_k10 = (meta.tmp1_22 == 1w1) ? meta.tmp16_4 : ((meta.tmp1_25 == 1w1) ? meta.tmp16_3 : meta.tmp16_4);
            meta.table__class_k12 = meta.tmp8_2;
            meta.table__class_k13 = 8w0;
            meta.table__class_k14 = 8w0;
            meta.table__class_k15 = 8w0;
            meta.wb_hit = 1w0;
            if (meta.visible == 1w1) {
                table__class_wb.apply();
            }
            if (meta.wb_hit == 1w0) {
                {
                    hash(meta.table__class_h0, HashAlgorithm.crc32, 32w0, {meta.table__class_k0[31:24], meta.table__class_k0[23:16], meta.table__class_k0[15:8], meta.table__class_k0[7:0], meta.table__class_k4[31:24], meta.table__class_k4[23:16], meta.table__class_k4[15:8], meta.table__class_k4[7:0], meta.table__class_k8[15:8], meta.table__class_k8[7:0], meta.table__class_k10[15:8], meta.table__class_k10[7:0], meta.table__class_k12, meta.table__class_k13, meta.table__class_k14, meta.table__class_k15}, 64w0x100000000);
                    hash(meta.table__class_h1, HashAlgorithm.crc32, 32w0, {meta.table__class_k4[31:24], meta.table__class_k4[23:16], meta.table__class_k4[15:8], meta.table__class_k4[7:0], meta.table__class_k8[15:8], meta.table__class_k8[7:0], meta.table__class_k10[15:8], meta.table__class_k10[7:0], meta.table__class_k12, meta.table__class_k13, meta.table__class_k14, meta.table__class_k15, meta.table__class_k0[31:24], meta.table__class_k0[23:16], meta.table__class_k0[15:8], meta.table__class_k0[7:0]}, 64w0x100000000);
                    hash(meta.table__class_h2, HashAlgorithm.crc32, 32w0, {meta.table__class_k8[15:8], meta.table__class_k8[7:0], meta.table__class_k10[15:8], meta.table__class_k10[7:0], meta.table__class_k12, meta.table__class_k13, meta.table__class_k14, meta.table__class_k15, meta.table__class_k0[31:24], meta.table__class_k0[23:16], meta.table__class_k0[15:8], meta.table__class_k0[7:0], meta.table__class_k4[31:24], meta.table__class_k4[23:16], meta.table__class_k4[15:8], meta.table__class_k4[7:0]}, 64w0x100000000);
                    hash(meta.table__class_h3, HashAlgorithm.crc32, 32w0, {meta.table__class_k12, meta.table__class_k13, meta.table__class_k14, meta.table__class_k15, meta.table__class_k0[31:24], meta.table__class_k0[23:16], meta.table__class_k0[15:8], meta.table__class_k0[7:0], meta.table__class_k4[31:24], meta.table__class_k4[23:16], meta.table__class_k4[15:8], meta.table__class_k4[7:0], meta.table__class_k8[15:8], meta.table__class_k8[7:0], meta.table__class_k10[15:8], meta.table__class_k10[7:0]}, 64w0x100000000);
                    hash(meta.table__class_hf, HashAlgorithm.crc32, 32w0, {meta.table__class_k15, meta.table__class_k14, meta.table__class_k13, meta.table__class_k12, meta.table__class_k10[7:0], meta.table__class_k10[15:8], meta.table__class_k8[7:0], meta.table__class_k8[15:8], meta.table__class_k4[7:0], meta.table__class_k4[15:8], meta.table__class_k4[23:16], meta.table__class_k4[31:24], meta.table__class_k0[7:0], meta.table__class_k0[15:8], meta.table__class_k0[23:16], meta.table__class_k0[31:24]}, 64w0x100000000);
                    meta.table__class_fp = meta.table__class_hf[31:16];
                    if (meta.table__class_fp == 16w0) {
                        meta.table__class_fp = 16w1;
                    }
                    meta.tmp1_32 = 1w0;
                    meta.tmp8_4 = 8w0;
                    meta.table__class_alt = 1w0;
                    meta.table__class_now = standard_metadata.ingress_global_timestamp;
                    meta.table__class_stale = 1w0;
                    table__class_col.apply();
                    meta.table__class_i = (meta.table__class_alt == 1w1) ? meta.table__class_slot : ((bit<32>) meta.table__class_h0[16:0]);
                    if ((meta.table__class_alt == 1w0) || (meta.table__class_way == 8w0)) {
                        table__class_w0.read(meta.table__class_c, meta.table__class_i);
                        if (meta.table__class_c[23:8] == meta.table__class_fp) {
                            table__class_t0.read(meta.table__class_tv, meta.table__class_i);
                            if ((meta.table__class_now - meta.table__class_tv) <= table__class_ttl) {
                                meta.tmp1_32 = 1w1;
                                table__class_t0.write(meta.table__class_i, meta.table__class_now);
                                meta.tmp8_4 = meta.table__class_c[7:0];
                            } else {
                                meta.table__class_stale = 1w1;
                            }
                        }
                    }
                    meta.table__class_i = (meta.table__class_alt == 1w1) ? meta.table__class_slot : ((bit<32>) meta.table__class_h1[16:0]);
                    if (((meta.tmp1_32 == 1w0) && (meta.table__class_stale == 1w0)) && ((meta.table__class_alt == 1w0) || (meta.table__class_way == 8w1))) {
                        table__class_w1.read(meta.table__class_c, meta.table__class_i);
                        if (meta.table__class_c[23:8] == meta.table__class_fp) {
                            table__class_t1.read(meta.table__class_tv, meta.table__class_i);
                            if ((meta.table__class_now - meta.table__class_tv) <= table__class_ttl) {
                                meta.tmp1_32 = 1w1;
                                table__class_t1.write(meta.table__class_i, meta.table__class_now);
                                meta.tmp8_4 = meta.table__class_c[7:0];
                            } else {
                                meta.table__class_stale = 1w1;
                            }
                        }
                    }
                    meta.table__class_i = (meta.table__class_alt == 1w1) ? meta.table__class_slot : ((bit<32>) meta.table__class_h2[16:0]);
                    if (((meta.tmp1_32 == 1w0) && (meta.table__class_stale == 1w0)) && ((meta.table__class_alt == 1w0) || (meta.table__class_way == 8w2))) {
                        table__class_w2.read(meta.table__class_c, meta.table__class_i);
                        if (meta.table__class_c[23:8] == meta.table__class_fp) {
                            table__class_t2.read(meta.table__class_tv, meta.table__class_i);
                            if ((meta.table__class_now - meta.table__class_tv) <= table__class_ttl) {
                                meta.tmp1_32 = 1w1;
                                table__class_t2.write(meta.table__class_i, meta.table__class_now);
                                meta.tmp8_4 = meta.table__class_c[7:0];
                            } else {
                                meta.table__class_stale = 1w1;
                            }
                        }
                    }
                    meta.table__class_i = (meta.table__class_alt == 1w1) ? meta.table__class_slot : ((bit<32>) meta.table__class_h3[16:0]);
                    if (((meta.tmp1_32 == 1w0) && (meta.table__class_stale == 1w0)) && ((meta.table__class_alt == 1w0) || (meta.table__class_way == 8w3))) {
                        table__class_w3.read(meta.table__class_c, meta.table__class_i);
                        if (meta.table__class_c[23:8] == meta.table__class_fp) {
                            table__class_t3.read(meta.table__class_tv, meta.table__class_i);
                            if ((meta.table__class_now - meta.table__class_tv) <= table__class_ttl) {
                                meta.tmp1_32 = 1w1;
                                table__class_t3.write(meta.table__class_i, meta.table__class_now);
                                meta.tmp8_4 = meta.table__class_c[7:0];
                            } else {
                                meta.table__class_stale = 1w1;
                            }
                        }
                    }
                    if (meta.table__class_stale == 1w1) {
                        hdr.tandem.setValid();
                        hdr.tandem.tag = 8w3;
                        hdr.tandem.orig_ethertype = hdr.eth.ethertype;
                        hdr.eth.ethertype = TANDEM_ETHERTYPE;
                        hdr.tandem.v1 = 32w0;
                        hdr.tandem.v3 = 1w0;
                        hdr.tandem.v13 = 1w0;
                        hdr.tandem.v14 = 1w0;
                        hdr.tandem.v23 = 1w0;
                        hdr.tandem.v35 = 16w0;
                        hdr.tandem.v36 = 16w0;
                        hdr.tandem.v37 = 8w0;
                        hdr.tandem.v47 = 1w0;
                        hdr.tandem.v51 = 1w0;
                        hdr.tandem.v55 = 1w0;
                        hdr.tandem.v59 = 1w0;
                        hdr.tandem.v234 = 1w0;
                        hdr.tandem.fate = 17w0;
                        hdr.tandem.v61 = 8w0;
                        hdr.tandem.v66 = 1w0;
                        hdr.tandem.v74 = 1w0;
                        hdr.tandem.v85 = 1w0;
                        hdr.tandem.v93 = 1w0;
                        hdr.tandem.v100 = 1w0;
                        hdr.tandem.v106 = 1w0;
                        hdr.tandem.v109 = 1w0;
                        hdr.tandem.v141 = 1w0;
                        hdr.tandem.v152 = 1w0;
                        hdr.tandem.v158 = 1w0;
                        hdr.tandem.v162 = 1w0;
                        hdr.tandem.pad = 3w0;
                        standard_metadata.egress_spec = TANDEM_SERVER_PORT;
                        exit;
                    }
                }
            }
            if (meta.tmp1_32 == 1w1) {
                if (meta.tmp8_4 == 8w0) {
                    if (meta.tmp1_8 == 1w1) {
                        meta.fate = 17w0;
                        meta.tmp1_8 = 1w0;
                    } else {
                        if (meta.tmp1_20 == 1w1) {
                            if (meta.tmp1_27 == 1w1) {
                                meta.fate = 17w0;
                                meta.tmp1_8 = 1w0;
                            } else {
                                if (meta.tmp1_28 == 1w1) {
                                    if (meta.tmp1_29 == 1w1) {
                                        if (meta.tmp1_30 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            if (meta.tmp1_31 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                meta.tmp1_8 = 1w1;
                                            }
                                        }
                                    } else {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    }
                                } else {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                }
                            }
                        } else {
                            if (meta.tmp1_26 == 1w1) {
                                meta.fate = 17w0;
                                meta.tmp1_8 = 1w0;
                            } else {
                                meta.fate = 1w1 ++ meta.tmp16_2;
                                meta.tmp1_8 = 1w0;
                            }
                        }
                    }
                } else {
                    if (meta.tmp8_4 == 8w1) {
                        if (meta.tmp1_8 == 1w1) {
                            meta.fate = 17w0;
                            meta.tmp1_8 = 1w0;
                        } else {
                            if (meta.tmp1_20 == 1w1) {
                                if (meta.tmp1_30 == 1w1) {
                                    meta.tmp1_8 = 1w1;
                                } else {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                }
                            } else {
                                if (meta.tmp1_26 == 1w1) {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                } else {
                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                    meta.tmp1_8 = 1w0;
                                }
                            }
                        }
                    } else {
                        if (meta.tmp8_4 == 8w2) {
                            if (meta.tmp1_8 == 1w1) {
                                meta.fate = 17w0;
                                meta.tmp1_8 = 1w0;
                            } else {
                                if (meta.tmp1_20 == 1w1) {
                                    if (meta.tmp1_21 == 1w1) {
                                        if (meta.tmp1_27 == 1w1) {
                                            if (meta.tmp1_28 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_30 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_28 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                meta.tmp1_8 = 1w1;
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_27 == 1w1) {
                                            if (meta.tmp1_28 == 1w1) {
                                                if (meta.tmp1_30 == 1w1) {
                                                    if (meta.tmp1_23 == 1w1) {
                                                        if (meta.tmp1_24 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        meta.tmp1_8 = 1w1;
                                                    }
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            } else {
                                                if (meta.tmp1_30 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_28 == 1w1) {
                                                if (meta.tmp1_30 == 1w1) {
                                                    if (meta.tmp1_23 == 1w1) {
                                                        if (meta.tmp1_24 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        meta.tmp1_8 = 1w1;
                                                    }
                                                } else {
                                                    if (meta.tmp1_23 == 1w1) {
                                                        if (meta.tmp1_24 == 1w1) {
                                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_30 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    if (meta.tmp1_23 == 1w1) {
                                                        if (meta.tmp1_24 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        }
                                    }
                                } else {
                                    if (meta.tmp1_26 == 1w1) {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                        meta.tmp1_8 = 1w0;
                                    }
                                }
                            }
                        } else {
                            if (meta.tmp8_4 == 8w3) {
                                if (meta.tmp1_8 == 1w1) {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                } else {
                                    if (meta.tmp1_20 == 1w1) {
                                        if (meta.tmp1_21 == 1w1) {
                                            if (meta.tmp1_27 == 1w1) {
                                                if (meta.tmp1_30 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            } else {
                                                if (meta.tmp1_28 == 1w1) {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_27 == 1w1) {
                                                if (meta.tmp1_28 == 1w1) {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        if (meta.tmp1_23 == 1w1) {
                                                            if (meta.tmp1_24 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_28 == 1w1) {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        if (meta.tmp1_23 == 1w1) {
                                                            if (meta.tmp1_24 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_23 == 1w1) {
                                                            if (meta.tmp1_24 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        if (meta.tmp1_23 == 1w1) {
                                                            if (meta.tmp1_24 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_26 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                            meta.tmp1_8 = 1w0;
                                        }
                                    }
                                }
                            } else {
                                if (meta.tmp8_4 == 8w4) {
                                    if (meta.tmp1_8 == 1w1) {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        if (meta.tmp1_20 == 1w1) {
                                            if (meta.tmp1_21 == 1w1) {
                                                if (meta.tmp1_27 == 1w1) {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_28 == 1w1) {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_27 == 1w1) {
                                                    if (meta.tmp1_28 == 1w1) {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_29 == 1w1) {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                if (meta.tmp1_23 == 1w1) {
                                                                    if (meta.tmp1_24 == 1w1) {
                                                                        meta.tmp1_8 = 1w1;
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_28 == 1w1) {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            if (meta.tmp1_23 == 1w1) {
                                                                if (meta.tmp1_24 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_26 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                                meta.tmp1_8 = 1w0;
                                            }
                                        }
                                    }
                                } else {
                                    if (meta.tmp8_4 == 8w5) {
                                        if (meta.tmp1_8 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            if (meta.tmp1_20 == 1w1) {
                                                if (meta.tmp1_21 == 1w1) {
                                                    if (meta.tmp1_27 == 1w1) {
                                                        if (meta.tmp1_28 == 1w1) {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_29 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                if (meta.tmp1_30 == 1w1) {
                                                                    meta.tmp1_8 = 1w1;
                                                                } else {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_27 == 1w1) {
                                                        if (meta.tmp1_28 == 1w1) {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_29 == 1w1) {
                                                                if (meta.tmp1_30 == 1w1) {
                                                                    meta.tmp1_8 = 1w1;
                                                                } else {
                                                                    if (meta.tmp1_23 == 1w1) {
                                                                        if (meta.tmp1_24 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.tmp1_8 = 1w1;
                                                                        }
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_30 == 1w1) {
                                                                    meta.tmp1_8 = 1w1;
                                                                } else {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_28 == 1w1) {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                if (meta.tmp1_23 == 1w1) {
                                                                    if (meta.tmp1_24 == 1w1) {
                                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_26 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp8_4 == 8w6) {
                                            if (meta.tmp1_8 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_20 == 1w1) {
                                                    if (meta.tmp1_27 == 1w1) {
                                                        if (meta.tmp1_28 == 1w1) {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.tmp1_8 = 1w1;
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_29 == 1w1) {
                                                                if (meta.tmp1_30 == 1w1) {
                                                                    meta.tmp1_8 = 1w1;
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_26 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp8_4 == 8w7) {
                                                if (meta.tmp1_8 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_20 == 1w1) {
                                                        if (meta.tmp1_21 == 1w1) {
                                                            if (meta.tmp1_27 == 1w1) {
                                                                if (meta.tmp1_28 == 1w1) {
                                                                    if (meta.tmp1_30 == 1w1) {
                                                                        meta.tmp1_8 = 1w1;
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                if (meta.tmp1_30 == 1w1) {
                                                                    meta.tmp1_8 = 1w1;
                                                                } else {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_27 == 1w1) {
                                                                if (meta.tmp1_28 == 1w1) {
                                                                    if (meta.tmp1_30 == 1w1) {
                                                                        meta.tmp1_8 = 1w1;
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_30 == 1w1) {
                                                                        meta.tmp1_8 = 1w1;
                                                                    } else {
                                                                        if (meta.tmp1_23 == 1w1) {
                                                                            if (meta.tmp1_24 == 1w1) {
                                                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        } else {
                                                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_30 == 1w1) {
                                                                    meta.tmp1_8 = 1w1;
                                                                } else {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_26 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp8_4 == 8w8) {
                                                    if (meta.tmp1_8 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        if (meta.tmp1_20 == 1w1) {
                                                            if (meta.tmp1_21 == 1w1) {
                                                                if (meta.tmp1_27 == 1w1) {
                                                                    if (meta.tmp1_28 == 1w1) {
                                                                        if (meta.tmp1_30 == 1w1) {
                                                                            meta.tmp1_8 = 1w1;
                                                                        } else {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_30 == 1w1) {
                                                                            meta.tmp1_8 = 1w1;
                                                                        } else {
                                                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_30 == 1w1) {
                                                                        meta.tmp1_8 = 1w1;
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_27 == 1w1) {
                                                                    if (meta.tmp1_28 == 1w1) {
                                                                        if (meta.tmp1_30 == 1w1) {
                                                                            meta.tmp1_8 = 1w1;
                                                                        } else {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_30 == 1w1) {
                                                                            meta.tmp1_8 = 1w1;
                                                                        } else {
                                                                            if (meta.tmp1_23 == 1w1) {
                                                                                if (meta.tmp1_24 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_30 == 1w1) {
                                                                        meta.tmp1_8 = 1w1;
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_26 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp8_4 == 8w9) {
                                                        if (meta.tmp1_8 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            if (meta.tmp1_20 == 1w1) {
                                                                if (meta.tmp1_21 == 1w1) {
                                                                    if (meta.tmp1_27 == 1w1) {
                                                                        if (meta.tmp1_28 == 1w1) {
                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                meta.tmp1_8 = 1w1;
                                                                            } else {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_29 == 1w1) {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_30 == 1w1) {
                                                                            meta.tmp1_8 = 1w1;
                                                                        } else {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_27 == 1w1) {
                                                                        if (meta.tmp1_28 == 1w1) {
                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                meta.tmp1_8 = 1w1;
                                                                            } else {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_29 == 1w1) {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    if (meta.tmp1_23 == 1w1) {
                                                                                        if (meta.tmp1_24 == 1w1) {
                                                                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                            meta.tmp1_8 = 1w0;
                                                                                        } else {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        }
                                                                                    } else {
                                                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    }
                                                                                }
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_30 == 1w1) {
                                                                            meta.tmp1_8 = 1w1;
                                                                        } else {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_26 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp8_4 == 8w10) {
                                                            if (meta.tmp1_8 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                if (meta.tmp1_20 == 1w1) {
                                                                    if (meta.tmp1_21 == 1w1) {
                                                                        if (meta.tmp1_27 == 1w1) {
                                                                            if (meta.tmp1_28 == 1w1) {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                meta.tmp1_8 = 1w1;
                                                                            } else {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_27 == 1w1) {
                                                                            if (meta.tmp1_28 == 1w1) {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_29 == 1w1) {
                                                                                    if (meta.tmp1_30 == 1w1) {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    } else {
                                                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    }
                                                                                } else {
                                                                                    if (meta.tmp1_30 == 1w1) {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    } else {
                                                                                        if (meta.tmp1_23 == 1w1) {
                                                                                            if (meta.tmp1_24 == 1w1) {
                                                                                                meta.tmp1_8 = 1w1;
                                                                                            } else {
                                                                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                                meta.tmp1_8 = 1w0;
                                                                                            }
                                                                                        } else {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        }
                                                                                    }
                                                                                }
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                meta.tmp1_8 = 1w1;
                                                                            } else {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            }
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_26 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp8_4 == 8w11) {
                                                                if (meta.tmp1_8 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    if (meta.tmp1_20 == 1w1) {
                                                                        if (meta.tmp1_21 == 1w1) {
                                                                            if (meta.tmp1_27 == 1w1) {
                                                                                if (meta.tmp1_28 == 1w1) {
                                                                                    if (meta.tmp1_30 == 1w1) {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    } else {
                                                                                        meta.fate = 17w0;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    }
                                                                                } else {
                                                                                    if (meta.tmp1_30 == 1w1) {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    } else {
                                                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_27 == 1w1) {
                                                                                if (meta.tmp1_28 == 1w1) {
                                                                                    if (meta.tmp1_30 == 1w1) {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    } else {
                                                                                        meta.fate = 17w0;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    }
                                                                                } else {
                                                                                    if (meta.tmp1_29 == 1w1) {
                                                                                        if (meta.tmp1_30 == 1w1) {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        } else {
                                                                                            if (meta.tmp1_23 == 1w1) {
                                                                                                if (meta.tmp1_24 == 1w1) {
                                                                                                    meta.tmp1_8 = 1w1;
                                                                                                } else {
                                                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                                    meta.tmp1_8 = 1w0;
                                                                                                }
                                                                                            } else {
                                                                                                meta.tmp1_8 = 1w1;
                                                                                            }
                                                                                        }
                                                                                    } else {
                                                                                        if (meta.tmp1_30 == 1w1) {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        } else {
                                                                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                            meta.tmp1_8 = 1w0;
                                                                                        }
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                } else {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_26 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp8_4 == 8w12) {
                                                                    if (meta.tmp1_8 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        if (meta.tmp1_20 == 1w1) {
                                                                            if (meta.tmp1_21 == 1w1) {
                                                                                if (meta.tmp1_27 == 1w1) {
                                                                                    if (meta.tmp1_28 == 1w1) {
                                                                                        if (meta.tmp1_30 == 1w1) {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        } else {
                                                                                            meta.fate = 17w0;
                                                                                            meta.tmp1_8 = 1w0;
                                                                                        }
                                                                                    } else {
                                                                                        if (meta.tmp1_29 == 1w1) {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        } else {
                                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                                meta.tmp1_8 = 1w1;
                                                                                            } else {
                                                                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                                meta.tmp1_8 = 1w0;
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                } else {
                                                                                    if (meta.tmp1_30 == 1w1) {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    } else {
                                                                                        meta.fate = 17w0;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_27 == 1w1) {
                                                                                    if (meta.tmp1_28 == 1w1) {
                                                                                        if (meta.tmp1_30 == 1w1) {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        } else {
                                                                                            meta.fate = 17w0;
                                                                                            meta.tmp1_8 = 1w0;
                                                                                        }
                                                                                    } else {
                                                                                        if (meta.tmp1_29 == 1w1) {
                                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                                meta.tmp1_8 = 1w1;
                                                                                            } else {
                                                                                                if (meta.tmp1_23 == 1w1) {
                                                                                                    if (meta.tmp1_24 == 1w1) {
                                                                                                        meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                                        meta.tmp1_8 = 1w0;
                                                                                                    } else {
                                                                                                        meta.tmp1_8 = 1w1;
                                                                                                    }
                                                                                                } else {
                                                                                                    meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                                    meta.tmp1_8 = 1w0;
                                                                                                }
                                                                                            }
                                                                                        } else {
                                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                                meta.tmp1_8 = 1w1;
                                                                                            } else {
                                                                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                                meta.tmp1_8 = 1w0;
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                } else {
                                                                                    if (meta.tmp1_30 == 1w1) {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    } else {
                                                                                        meta.fate = 17w0;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    }
                                                                                }
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_26 == 1w1) {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                                                                meta.tmp1_8 = 1w0;
                                                                            }
                                                                        }
                                                                    }
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            } else {
                if (meta.tmp1_8 == 1w1) {
                    meta.fate = 17w0;
                    meta.tmp1_8 = 1w0;
                } else {
                    if (meta.tmp1_20 == 1w1) {
                        if (meta.tmp1_27 == 1w1) {
                            meta.fate = 17w0;
                            meta.tmp1_8 = 1w0;
                        } else {
                            if (meta.tmp1_28 == 1w1) {
                                if (meta.tmp1_29 == 1w1) {
                                    if (meta.tmp1_30 == 1w1) {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        if (meta.tmp1_31 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            meta.tmp1_8 = 1w1;
                                        }
                                    }
                                } else {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                }
                            } else {
                                meta.fate = 17w0;
                                meta.tmp1_8 = 1w0;
                            }
                        }
                    } else {
                        if (meta.tmp1_26 == 1w1) {
                            meta.fate = 17w0;
                            meta.tmp1_8 = 1w0;
                        } else {
                            meta.fate = 1w1 ++ meta.tmp16_2;
                            meta.tmp1_8 = 1w0;
                        }
                    }
                }
            }
            if (meta.tmp1_8 == 1w1) {
                meta.tmp16_2 = meta.in_port;
                meta.tmp32_0 = (bit<32>) meta.tmp16_2;
                meta.tmp1_0 = (meta.tmp16_2 > 16w1) ? 1w1 : 1w0;
                if (meta.tmp1_0 == 1w0) {
                    meta.tmp1_20 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.tmp1_20 = meta.tmp1_20 ^ 1w1;
                    if (meta.tmp1_20 == 1w0) {
                        meta.tmp32_1 = hdr.ipv4.saddr;
                        meta.tmp32_2 = hdr.ipv4.daddr;
                        meta.tmp1_1 = (meta.tmp32_1 < meta.tmp32_2) ? 1w1 : 1w0;
                        if (meta.tmp1_1 == 1w1) {
                            meta.tmp16_0 = hdr.tcp.sport;
                            meta.tmp16_1 = hdr.tcp.dport;
                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                            meta.tmp16_1 = meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8];
                            meta.tmp8_0 = 8w1;
                        } else {
                            meta.tmp1_2 = ((((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24]) == (((meta.tmp32_2[7:0] ++ meta.tmp32_2[15:8]) ++ meta.tmp32_2[23:16]) ++ meta.tmp32_2[31:24])) ? 1w1 : 1w0;
                            if (meta.tmp1_2 == 1w1) {
                                meta.tmp16_0 = hdr.tcp.sport;
                                meta.tmp16_1 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                meta.tmp16_2 = hdr.tcp.dport;
                                meta.tmp16_3 = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                meta.tmp1_3 = (meta.tmp16_0 > meta.tmp16_2) ? 1w1 : 1w0;
                                if (meta.tmp1_3 == 1w1) {
                                    meta.tmp16_1 = meta.tmp16_1;
                                    meta.tmp16_0 = meta.tmp16_3;
                                    meta.tmp16_0 = meta.tmp16_0;
                                    meta.tmp16_1 = meta.tmp16_1;
                                    meta.tmp8_0 = 8w0;
                                } else {
                                    meta.tmp16_0 = meta.tmp16_1;
                                    meta.tmp16_1 = meta.tmp16_3;
                                    meta.tmp8_0 = 8w1;
                                }
                            } else {
                                meta.tmp16_0 = hdr.tcp.dport;
                                meta.tmp16_1 = hdr.tcp.sport;
                                meta.tmp16_1 = meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8];
                                meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                meta.tmp16_0 = meta.tmp16_0;
                                meta.tmp16_1 = meta.tmp16_1;
                                meta.tmp8_0 = 8w0;
                            }
                        }
                        meta.to_server = 1w1;
                        meta.tmp8_2 = hdr.ipv4.protocol;
                        meta.tmp8_2 = hdr.tcp.flags;
                        meta.tmp32_1 = (bit<32>) meta.tmp8_2;
                        meta.tmp1_4 = ((meta.tmp32_1 & 32w2) == 32w0) ? 1w1 : 1w0;
                        meta.tmp1_5 = ((meta.tmp32_1 & 32w16) == 32w0) ? 1w1 : 1w0;
                        meta.tmp1_6 = ((meta.tmp32_1 & 32w1) == 32w0) ? 1w1 : 1w0;
                        meta.tmp1_7 = ((meta.tmp32_1 & 32w4) != 32w0) ? 1w1 : 1w0;
                    }
                }
            }
            if (meta.to_server == 1w1) {
                hdr.tandem.setValid();
                hdr.tandem.tag = 8w1;
                hdr.tandem.orig_ethertype = hdr.eth.ethertype;
                hdr.eth.ethertype = TANDEM_ETHERTYPE;
                hdr.tandem.v1 = meta.tmp32_0;
                hdr.tandem.v3 = meta.tmp1_0;
                hdr.tandem.v13 = meta.tmp1_1;
                hdr.tandem.v14 = meta.tmp1_2;
                hdr.tandem.v23 = meta.tmp1_3;
                hdr.tandem.v35 = meta.tmp16_0;
                hdr.tandem.v36 = meta.tmp16_1;
                hdr.tandem.v37 = meta.tmp8_0;
                hdr.tandem.v47 = meta.tmp1_4;
                hdr.tandem.v51 = meta.tmp1_5;
                hdr.tandem.v55 = meta.tmp1_6;
                hdr.tandem.v59 = meta.tmp1_7;
                hdr.tandem.v234 = meta.tmp1_8;
                hdr.tandem.fate = meta.fate;
                hdr.tandem.v61 = 8w0;
                hdr.tandem.v66 = 1w0;
                hdr.tandem.v74 = 1w0;
                hdr.tandem.v85 = 1w0;
                hdr.tandem.v93 = 1w0;
                hdr.tandem.v100 = 1w0;
                hdr.tandem.v106 = 1w0;
                hdr.tandem.v109 = 1w0;
                hdr.tandem.v141 = 1w0;
                hdr.tandem.v152 = 1w0;
                hdr.tandem.v158 = 1w0;
                hdr.tandem.v162 = 1w0;
                hdr.tandem.pad = 3w0;
            }
        }
        if (meta.to_server == 1w0) {
            if (meta.tmp1_8 == 1w1) {
                if (meta.tmp1_0 == 1w1) {
                    meta.fate = 17w0;
                } else {
                    meta.tmp32_0 = 32w1 - meta.tmp32_0;
                    meta.tmp1_20 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.tmp1_20 = meta.tmp1_20 ^ 1w1;
                    if (meta.tmp1_20 == 1w1) {
                        other_allowed_1.read(meta.tmp32_1, 32w0);
                        if (meta.tmp32_1 == 32w0) {
                            meta.fate = 17w0;
                        } else {
                            meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                        }
                    } else {
                        if (meta.tmp1_9 == 1w1) {
                            if (meta.tmp1_17 == 1w1) {
                                meta.fate = 17w0;
                            } else {
                                if (meta.tmp1_18 == 1w1) {
                                    meta.fate = 17w0;
                                } else {
                                    if (meta.tmp1_19 == 1w1) {
                                        meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                                    } else {
                                        meta.fate = 17w0;
                                    }
                                }
                            }
                        } else {
                            if (meta.tmp1_7 == 1w1) {
                                if (meta.tmp1_16 == 1w1) {
                                    meta.fate = 17w0;
                                } else {
                                    meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                                }
                            } else {
                                if (meta.tmp8_1 == 8w1) {
                                    if (meta.tmp1_12 == 1w1) {
                                        if (meta.tmp1_13 == 1w1) {
                                            meta.fate = 17w0;
                                        } else {
                                            meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                            meta.fate = 1w1 ++ meta.tmp16_0;
                                        }
                                    } else {
                                        meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                                    }
                                } else {
                                    if (meta.tmp8_1 == 8w2) {
                                        if (meta.tmp1_10 == 1w1) {
                                            if (meta.tmp1_11 == 1w0) {
                                                meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                meta.fate = 1w1 ++ meta.tmp16_0;
                                            }
                                        } else {
                                            meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                                        }
                                    } else {
                                        if (meta.tmp1_14 == 1w1) {
                                            meta.fate = 17w0;
                                        } else {
                                            if (meta.tmp8_1 == 8w3) {
                                                meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                meta.fate = 1w1 ++ meta.tmp16_0;
                                            } else {
                                                if (meta.tmp8_1 == 8w4) {
                                                    meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                    meta.fate = 1w1 ++ meta.tmp16_0;
                                                } else {
                                                    if (meta.tmp8_1 == 8w5) {
                                                        meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                        meta.fate = 1w1 ++ meta.tmp16_0;
                                                    } else {
                                                        if (meta.tmp8_1 == 8w6) {
                                                            if (meta.tmp1_15 == 1w1) {
                                                                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                                                            } else {
                                                                meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                                meta.fate = 1w1 ++ meta.tmp16_0;
                                                            }
                                                        } else {
                                                            meta.fate = 17w0;
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if (meta.to_server == 1w1) {
            standard_metadata.egress_spec = TANDEM_SERVER_PORT;
        } else {
            if (meta.fate[16:16] == 1w1) {
                standard_metadata.egress_spec = (bit<9>) meta.fate[15:0];
            } else {
                mark_to_drop(standard_metadata);
            }
        }
    }
}

control TandemEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t standard_metadata) {
    apply {
    }
}

control TandemComputeChecksum(inout headers_t hdr, inout meta_t meta) {
    apply {
    }
}

control TandemDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.eth);
        packet.emit(hdr.tandem);
        packet.emit(hdr.ipv4_vihl);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.ipv4_opt1);
        packet.emit(hdr.ipv4_opt2);
        packet.emit(hdr.ipv4_opt3);
        packet.emit(hdr.ipv4_opt4);
        packet.emit(hdr.ipv4_opt5);
        packet.emit(hdr.ipv4_opt6);
        packet.emit(hdr.ipv4_opt7);
        packet.emit(hdr.ipv4_opt8);
        packet.emit(hdr.ipv4_opt9);
        packet.emit(hdr.ipv4_opt10);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
    }
}

V1Switch(TandemParser(), TandemVerifyChecksum(), TandemIngress(), TandemEgress(), TandemComputeChecksum(), TandemDeparser()) main;
