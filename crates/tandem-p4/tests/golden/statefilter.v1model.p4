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
    bit<1> v3;
    bit<32> v5;
    bit<16> v22;
    bit<1> v31;
    bit<1> v37;
    bit<1> v38;
    bit<1> v59;
    bit<32> v60;
    bit<1> v80;
    bit<1> v84;
    bit<1> v92;
    bit<1> v398;
    bit<17> fate;
    bit<1> v68;
    bit<1> v99;
    bit<8> v113;
    bit<1> v115;
    bit<1> v147;
    bit<1> v150;
    bit<1> v164;
    bit<1> v176;
    bit<1> v182;
    bit<1> v185;
    bit<1> v198;
    bit<1> v205;
    bit<1> v224;
    bit<1> v227;
    bit<1> v237;
    bit<1> v241;
    bit<1> v260;
    bit<1> v264;
    bit<5> pad;
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
    bit<32> time_wait_k0;
    bit<32> time_wait_k4;
    bit<16> time_wait_k8;
    bit<16> time_wait_k10;
    bit<8> time_wait_k12;
    bit<8> time_wait_k13;
    bit<8> time_wait_k14;
    bit<8> time_wait_k15;
    bit<32> conns__class_k0;
    bit<32> conns__class_k4;
    bit<16> conns__class_k8;
    bit<16> conns__class_k10;
    bit<8> conns__class_k12;
    bit<8> conns__class_k13;
    bit<8> conns__class_k14;
    bit<8> conns__class_k15;
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
    bit<1> tmp1_33;
    bit<1> tmp1_34;
    bit<1> tmp1_35;
    bit<1> tmp1_36;
    bit<1> tmp1_37;
    bit<1> tmp1_38;
    bit<1> tmp1_39;
    bit<1> tmp1_40;
    bit<1> tmp1_41;
    bit<1> tmp1_42;
    bit<1> tmp1_43;
    bit<1> tmp1_44;
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
    bit<32> tmp32_5;
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
    action time_wait_hit(bit<8> v0, bit<8> v1, bit<16> v2) {
        meta.tmp1_42 = 1w1;
        meta.tmp8_2 = v0;
        meta.tmp8_3 = v1;
        meta.tmp16_4 = v2;
    }
    action time_wait_miss() {
        meta.tmp1_42 = 1w0;
        meta.tmp8_2 = 8w0;
        meta.tmp8_3 = 8w0;
        meta.tmp16_4 = 16w0;
    }
    table time_wait {
        key = {
            meta.time_wait_k0: exact;
            meta.time_wait_k4: exact;
            meta.time_wait_k8: exact;
            meta.time_wait_k10: exact;
            meta.time_wait_k12: exact;
            meta.time_wait_k13: exact;
            meta.time_wait_k14: exact;
            meta.time_wait_k15: exact;
        }
        actions = {
            time_wait_hit;
            time_wait_miss;
        }
        default_action = time_wait_miss();
        size = 0x10000;
        support_timeout = true;
    }
    action time_wait_wb_hit(bit<8> v0, bit<8> v1, bit<16> v2) {
        meta.tmp1_42 = 1w1;
        meta.tmp8_2 = v0;
        meta.tmp8_3 = v1;
        meta.tmp16_4 = v2;
        meta.wb_hit = 1w1;
    }
    action time_wait_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_42 = 1w0;
        meta.tmp8_2 = 8w0;
        meta.tmp8_3 = 8w0;
        meta.tmp16_4 = 16w0;
    }
    action time_wait_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table time_wait_wb {
        key = {
            meta.time_wait_k0: exact;
            meta.time_wait_k4: exact;
            meta.time_wait_k8: exact;
            meta.time_wait_k10: exact;
            meta.time_wait_k12: exact;
            meta.time_wait_k13: exact;
            meta.time_wait_k14: exact;
            meta.time_wait_k15: exact;
        }
        actions = {
            time_wait_wb_hit;
            time_wait_wb_deleted;
            time_wait_wb_miss;
        }
        default_action = time_wait_wb_miss();
        size = 0x400;
        support_timeout = true;
    }
    register<bit<32> >(32w1) new_from_0;
    register<bit<32> >(32w1) new_from_1;
    register<bit<32> >(32w1) udp_mode_0;
    register<bit<32> >(32w1) udp_mode_1;
    register<bit<32> >(32w1) other_allowed_0;
    register<bit<32> >(32w1) other_allowed_1;
    action conns__class_hit(bit<8> class) {
        meta.tmp1_44 = 1w1;
        meta.tmp8_4 = class;
    }
    action conns__class_miss() {
        meta.tmp1_44 = 1w0;
        meta.tmp8_4 = 8w0;
    }
    table conns__class {
        key = {
            meta.conns__class_k0: exact;
            meta.conns__class_k4: exact;
            meta.conns__class_k8: exact;
            meta.conns__class_k10: exact;
            meta.conns__class_k12: exact;
            meta.conns__class_k13: exact;
            meta.conns__class_k14: exact;
            meta.conns__class_k15: exact;
        }
        actions = {
            conns__class_hit;
            conns__class_miss;
        }
        default_action = conns__class_miss();
        size = 0x10000;
        support_timeout = true;
    }
    action conns__class_wb_hit(bit<8> class) {
        meta.tmp1_44 = 1w1;
        meta.tmp8_4 = class;
        meta.wb_hit = 1w1;
    }
    action conns__class_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_44 = 1w0;
        meta.tmp8_4 = 8w0;
    }
    action conns__class_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table conns__class_wb {
        key = {
            meta.conns__class_k0: exact;
            meta.conns__class_k4: exact;
            meta.conns__class_k8: exact;
            meta.conns__class_k10: exact;
            meta.conns__class_k12: exact;
            meta.conns__class_k13: exact;
            meta.conns__class_k14: exact;
            meta.conns__class_k15: exact;
        }
        actions = {
            conns__class_wb_hit;
            conns__class_wb_deleted;
            conns__class_wb_miss;
        }
        default_action = conns__class_wb_miss();
        size = 0x400;
        support_timeout = true;
    }
    register<bit<1> >(32w1) tandem_visible;
    apply {
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.tmp1_0 = hdr.tandem.v3;
                meta.tmp32_0 = hdr.tandem.v5;
                meta.tmp16_0 = hdr.tandem.v22;
                meta.tmp1_1 = hdr.tandem.v31;
                meta.tmp1_2 = hdr.tandem.v37;
                meta.tmp1_3 = hdr.tandem.v38;
                meta.tmp1_4 = hdr.tandem.v59;
                meta.tmp32_1 = hdr.tandem.v60;
                meta.tmp1_5 = hdr.tandem.v80;
                meta.tmp1_6 = hdr.tandem.v84;
                meta.tmp1_7 = hdr.tandem.v92;
                meta.tmp1_8 = hdr.tandem.v398;
                meta.fate = hdr.tandem.fate;
                meta.tmp1_9 = hdr.tandem.v68;
                meta.tmp1_10 = hdr.tandem.v99;
                meta.tmp8_0 = hdr.tandem.v113;
                meta.tmp1_11 = hdr.tandem.v115;
                meta.tmp1_12 = hdr.tandem.v147;
                meta.tmp1_13 = hdr.tandem.v150;
                meta.tmp1_14 = hdr.tandem.v164;
                meta.tmp1_15 = hdr.tandem.v176;
                meta.tmp1_16 = hdr.tandem.v182;
                meta.tmp1_17 = hdr.tandem.v185;
                meta.tmp1_18 = hdr.tandem.v198;
                meta.tmp1_19 = hdr.tandem.v205;
                meta.tmp1_20 = hdr.tandem.v224;
                meta.tmp1_21 = hdr.tandem.v227;
                meta.tmp1_22 = hdr.tandem.v237;
                meta.tmp1_23 = hdr.tandem.v241;
                meta.tmp1_24 = hdr.tandem.v260;
                meta.tmp1_25 = hdr.tandem.v264;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
            } else {
                mark_to_drop(standard_metadata);
                exit;
            }
        } else {
            meta.in_port = (bit<16>) standard_metadata.ingress_port;
            meta.tmp16_1 = meta.in_port;
            meta.tmp1_8 = (meta.tmp16_1 > 16w1) ? 1w1 : 1w0;
            meta.tmp1_26 = hdr.tcp.isValid() ? 1w1 : 1w0;
            meta.tmp1_27 = hdr.udp.isValid() ? 1w1 : 1w0;
            meta.tmp32_2 = hdr.ipv4.saddr;
            meta.tmp32_3 = hdr.ipv4.daddr;
            meta.tmp1_28 = (meta.tmp32_2 < meta.tmp32_3) ? 1w1 : 1w0;
            udp_mode_0.read(meta.tmp32_4, 32w0);
            meta.tmp1_29 = (meta.tmp32_4 == 32w1) ? 1w1 : 1w0;
            meta.tmp1_30 = (meta.tmp32_4 == 32w0) ? 1w1 : 1w0;
            meta.tmp1_31 = (meta.tmp1_28 == 1w1) ? ((meta.tmp1_29 == 1w1) ? 1w0 : (meta.tmp1_30 ^ 1w1)) : 1w0;
            meta.tmp1_31 = (meta.tmp1_8 == 1w1) ? 1w0 : ((meta.tmp1_26 == 1w1) ? ((meta.tmp1_27 == 1w1) ? meta.tmp1_31 : meta.tmp1_28) : ((meta.tmp1_27 == 1w1) ? meta.tmp1_31 : 1w0));
            meta.tmp32_2 = ((meta.tmp32_2[7:0] ++ meta.tmp32_2[15:8]) ++ meta.tmp32_2[23:16]) ++ meta.tmp32_2[31:24];
            meta.tmp32_3 = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
            meta.tmp1_32 = (meta.tmp32_2 == meta.tmp32_3) ? 1w1 : 1w0;
            meta.tmp16_2 = hdr.tcp.sport;
            meta.tmp16_3 = hdr.udp.sport;
            meta.tmp16_2 = (meta.tmp1_26 == 1w1) ? (meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8]) : (meta.tmp16_3[7:0] ++ meta.tmp16_3[15:8]);
            meta.tmp16_3 = hdr.tcp.dport;
            meta.tmp16_4 = hdr.udp.dport;
            meta.tmp16_3 = (meta.tmp1_26 == 1w1) ? (meta.tmp16_3[7:0] ++ meta.tmp16_3[15:8]) : (meta.tmp16_4[7:0] ++ meta.tmp16_4[15:8]);
            meta.tmp1_33 = ((meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8]) > (meta.tmp16_3[7:0] ++ meta.tmp16_3[15:8])) ? 1w1 : 1w0;
            meta.tmp1_34 = (meta.tmp1_32 == 1w1) ? meta.tmp1_33 : 1w1;
            meta.tmp1_35 = (meta.tmp1_28 == 1w1) ? 1w0 : ((meta.tmp1_29 == 1w1) ? 1w0 : ((meta.tmp1_30 == 1w1) ? 1w0 : meta.tmp1_34));
            meta.tmp1_34 = (meta.tmp1_28 == 1w1) ? 1w0 : meta.tmp1_34;
            meta.tmp1_35 = (meta.tmp1_8 == 1w1) ? 1w0 : ((meta.tmp1_26 == 1w1) ? ((meta.tmp1_27 == 1w1) ? meta.tmp1_35 : meta.tmp1_34) : ((meta.tmp1_27 == 1w1) ? meta.tmp1_35 : 1w0));
            meta.tmp8_1 = hdr.ipv4.protocol;
            other_allowed_0.read(meta.tmp32_4, 32w0);
            meta.tmp1_36 = (meta.tmp32_4 == 32w0) ? 1w1 : 1w0;
            meta.tmp32_4 = (bit<32>) meta.tmp16_1;
            meta.tmp16_1 = (bit<16>) (32w1 - meta.tmp32_4);
            new_from_0.read(meta.tmp32_5, 32w0);
            meta.tmp1_37 = ((meta.tmp32_5 & (32w1 << ((bit<8>) ((meta.tmp32_4 < 32w32) ? meta.tmp32_4 : 32w32)))) == 32w0) ? 1w1 : 1w0;
            meta.tmp8_2 = hdr.tcp.flags;
            meta.tmp32_4 = (bit<32>) meta.tmp8_2;
            meta.tmp1_38 = ((meta.tmp32_4 & 32w2) == 32w0) ? 1w1 : 1w0;
            meta.tmp1_39 = ((meta.tmp32_4 & 32w16) == 32w0) ? 1w1 : 1w0;
            meta.tmp1_40 = ((meta.tmp32_4 & 32w4) == 32w0) ? 1w1 : 1w0;
            meta.tmp1_41 = (meta.tmp1_8 == 1w1) ? 1w0 : ((meta.tmp1_26 == 1w1) ? ((meta.tmp1_27 == 1w1) ? 1w0 : meta.tmp1_28) : 1w0);
            meta.tmp1_34 = (meta.tmp1_8 == 1w1) ? 1w0 : ((meta.tmp1_26 == 1w1) ? ((meta.tmp1_27 == 1w1) ? 1w0 : meta.tmp1_34) : 1w0);
            meta.time_wait_k0 = (meta.tmp1_41 == 1w1) ? meta.tmp32_2 : ((meta.tmp1_34 == 1w1) ? meta.tmp32_3 : meta.tmp32_2);
            meta.time_wait_k4 = (meta.tmp1_41 == 1w1) ? meta.tmp32_3 : meta.tmp32_2;
            meta.time_wait_k8 = (meta.tmp1_41 == 1w1) ? meta.tmp16_2 : ((meta.tmp1_34 == 1w1) ? meta.tmp16_3 : meta.tmp16_2);
            meta.time_wait_k10 = (meta.tmp1_41 == 1w1) ? meta.tmp16_3 : ((meta.tmp1_34 == 1w1) ? meta.tmp16_2 : meta.tmp16_3);
            meta.time_wait_k12 = meta.tmp8_1;
            meta.time_wait_k13 = 8w0;
            meta.time_wait_k14 = 8w0;
            meta.time_wait_k15 = 8w0;
            meta.wb_hit = 1w0;
            if (meta.visible == 1w1) {
                time_wait_wb.apply();
            }
            if (meta.wb_hit == 1w0) {
                time_wait.apply();
            }
            meta.tmp1_34 = ((meta.tmp32_4 & 32w1) == 32w0) ? 1w1 : 1w0;
            meta.tmp1_41 = (meta.tmp8_3 != 8w1) ? 1w1 : 1w0;
            meta.tmp1_43 = (meta.tmp8_3 != 8w0) ? 1w1 : 1w0;
            meta.conns__class_k0 = (meta.tmp1_31 == 1w1) ? meta.tmp32_2 : ((meta.tmp1_35 == 1w1) ? meta.tmp32_3 : meta.tmp32_2);
            meta.conns__class_k4 = (meta.tmp1_31 == 1w1) ? meta.tmp32_3 : meta.tmp32_2;
            meta.conns__class_k8 = (meta.tmp1_31 == 1w1) ? meta.tmp16_2 : ((meta.tmp1_35 == 1w1) ? meta.tmp16_3 : meta.tmp16_2);
            meta.conns__class_k10 = (meta.tmp1_31 == 1w1) ? meta.tmp16_3 : ((meta.tmp1_35 == 1w1) ? meta.tmp16_2 : meta.tmp16_3);
            meta.conns__class_k12 = meta.tmp8_1;
            meta.conns__class_k13 = 8w0;
            meta.conns__class_k14 = 8w0;
            meta.conns__class_k15 = 8w0;
            meta.wb_hit = 1w0;
            if (meta.visible == 1w1) {
                conns__class_wb.apply();
            }
            if (meta.wb_hit == 1w0) {
                conns__class.apply();
            }
            if (meta.tmp1_44 == 1w1) {
                if (meta.tmp8_4 == 8w0) {
                    if (meta.tmp1_8 == 1w1) {
                        meta.fate = 17w0;
                        meta.tmp1_8 = 1w0;
                    } else {
                        if (meta.tmp1_26 == 1w1) {
                            if (meta.tmp1_27 == 1w1) {
                                if (meta.tmp1_37 == 1w1) {
                                    if (meta.tmp1_29 == 1w1) {
                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    }
                                } else {
                                    if (meta.tmp1_29 == 1w1) {
                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        if (meta.tmp1_30 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            meta.tmp1_8 = 1w1;
                                        }
                                    }
                                }
                            } else {
                                if (meta.tmp1_28 == 1w1) {
                                    if (meta.tmp1_37 == 1w1) {
                                        if (meta.tmp1_38 == 1w1) {
                                            if (meta.tmp1_39 == 1w1) {
                                                if (meta.tmp1_40 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_40 == 1w1) {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_40 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_38 == 1w1) {
                                            if (meta.tmp1_39 == 1w1) {
                                                if (meta.tmp1_40 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_40 == 1w1) {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_39 == 1w1) {
                                                if (meta.tmp1_34 == 1w1) {
                                                    if (meta.tmp1_40 == 1w1) {
                                                        if (meta.tmp1_42 == 1w1) {
                                                            if (meta.tmp1_41 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_42 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_40 == 1w1) {
                                                        if (meta.tmp1_42 == 1w1) {
                                                            if (meta.tmp1_41 == 1w1) {
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
                                                        if (meta.tmp1_42 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_40 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        }
                                    }
                                } else {
                                    if (meta.tmp1_37 == 1w1) {
                                        if (meta.tmp1_38 == 1w1) {
                                            if (meta.tmp1_39 == 1w1) {
                                                if (meta.tmp1_40 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_40 == 1w1) {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_40 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_38 == 1w1) {
                                            if (meta.tmp1_39 == 1w1) {
                                                if (meta.tmp1_40 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_40 == 1w1) {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_39 == 1w1) {
                                                if (meta.tmp1_34 == 1w1) {
                                                    if (meta.tmp1_40 == 1w1) {
                                                        if (meta.tmp1_42 == 1w1) {
                                                            if (meta.tmp1_41 == 1w1) {
                                                                if (meta.tmp1_32 == 1w1) {
                                                                    if (meta.tmp1_33 == 1w1) {
                                                                        if (meta.tmp1_43 == 1w1) {
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
                                                                    if (meta.tmp1_43 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_32 == 1w1) {
                                                                    if (meta.tmp1_33 == 1w1) {
                                                                        if (meta.tmp1_43 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.tmp1_8 = 1w1;
                                                                        }
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_43 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                }
                                                            }
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_42 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_40 == 1w1) {
                                                        if (meta.tmp1_42 == 1w1) {
                                                            if (meta.tmp1_41 == 1w1) {
                                                                if (meta.tmp1_32 == 1w1) {
                                                                    if (meta.tmp1_33 == 1w1) {
                                                                        if (meta.tmp1_43 == 1w1) {
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
                                                                    if (meta.tmp1_43 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_32 == 1w1) {
                                                                    if (meta.tmp1_33 == 1w1) {
                                                                        if (meta.tmp1_43 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.tmp1_8 = 1w1;
                                                                        }
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_43 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                }
                                                            }
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_42 == 1w1) {
                                                            meta.tmp1_8 = 1w1;
                                                        } else {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_40 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        } else {
                            if (meta.tmp1_27 == 1w1) {
                                if (meta.tmp1_37 == 1w1) {
                                    if (meta.tmp1_29 == 1w1) {
                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    }
                                } else {
                                    if (meta.tmp1_29 == 1w1) {
                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        if (meta.tmp1_30 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            meta.tmp1_8 = 1w1;
                                        }
                                    }
                                }
                            } else {
                                if (meta.tmp1_36 == 1w1) {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                } else {
                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                    meta.tmp1_8 = 1w0;
                                }
                            }
                        }
                    }
                } else {
                    if (meta.tmp8_4 == 8w1) {
                        if (meta.tmp1_8 == 1w1) {
                            meta.fate = 17w0;
                            meta.tmp1_8 = 1w0;
                        } else {
                            if (meta.tmp1_26 == 1w1) {
                                if (meta.tmp1_27 == 1w1) {
                                    if (meta.tmp1_29 == 1w1) {
                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        if (meta.tmp1_30 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                            meta.tmp1_8 = 1w0;
                                        }
                                    }
                                } else {
                                    if (meta.tmp1_40 == 1w1) {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        meta.tmp1_8 = 1w1;
                                    }
                                }
                            } else {
                                if (meta.tmp1_27 == 1w1) {
                                    if (meta.tmp1_29 == 1w1) {
                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        if (meta.tmp1_30 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                            meta.tmp1_8 = 1w0;
                                        }
                                    }
                                } else {
                                    if (meta.tmp1_36 == 1w1) {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                        meta.tmp1_8 = 1w0;
                                    }
                                }
                            }
                        }
                    } else {
                        if (meta.tmp8_4 == 8w2) {
                            if (meta.tmp1_8 == 1w1) {
                                meta.fate = 17w0;
                                meta.tmp1_8 = 1w0;
                            } else {
                                if (meta.tmp1_26 == 1w1) {
                                    if (meta.tmp1_27 == 1w1) {
                                        if (meta.tmp1_29 == 1w1) {
                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            if (meta.tmp1_30 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                meta.tmp1_8 = 1w0;
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_28 == 1w1) {
                                            if (meta.tmp1_38 == 1w1) {
                                                if (meta.tmp1_39 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_40 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.tmp1_8 = 1w1;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_39 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.tmp1_8 = 1w1;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_38 == 1w1) {
                                                if (meta.tmp1_39 == 1w1) {
                                                    if (meta.tmp1_40 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        if (meta.tmp1_32 == 1w1) {
                                                            if (meta.tmp1_33 == 1w1) {
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
                                                    if (meta.tmp1_40 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.tmp1_8 = 1w1;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_39 == 1w1) {
                                                    if (meta.tmp1_40 == 1w1) {
                                                        if (meta.tmp1_32 == 1w1) {
                                                            if (meta.tmp1_33 == 1w1) {
                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        } else {
                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_32 == 1w1) {
                                                            if (meta.tmp1_33 == 1w1) {
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
                                                    if (meta.tmp1_40 == 1w1) {
                                                        if (meta.tmp1_32 == 1w1) {
                                                            if (meta.tmp1_33 == 1w1) {
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
                                                        meta.tmp1_8 = 1w1;
                                                    }
                                                }
                                            }
                                        }
                                    }
                                } else {
                                    if (meta.tmp1_27 == 1w1) {
                                        if (meta.tmp1_29 == 1w1) {
                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            if (meta.tmp1_30 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                meta.tmp1_8 = 1w0;
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_36 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                            meta.tmp1_8 = 1w0;
                                        }
                                    }
                                }
                            }
                        } else {
                            if (meta.tmp8_4 == 8w3) {
                                if (meta.tmp1_8 == 1w1) {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                } else {
                                    if (meta.tmp1_26 == 1w1) {
                                        if (meta.tmp1_27 == 1w1) {
                                            if (meta.tmp1_29 == 1w1) {
                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_30 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_28 == 1w1) {
                                                if (meta.tmp1_38 == 1w1) {
                                                    if (meta.tmp1_40 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.tmp1_8 = 1w1;
                                                    }
                                                } else {
                                                    if (meta.tmp1_39 == 1w1) {
                                                        if (meta.tmp1_40 == 1w1) {
                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_40 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_38 == 1w1) {
                                                    if (meta.tmp1_39 == 1w1) {
                                                        if (meta.tmp1_40 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            if (meta.tmp1_32 == 1w1) {
                                                                if (meta.tmp1_33 == 1w1) {
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
                                                        if (meta.tmp1_40 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_39 == 1w1) {
                                                        if (meta.tmp1_40 == 1w1) {
                                                            if (meta.tmp1_32 == 1w1) {
                                                                if (meta.tmp1_33 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            } else {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_32 == 1w1) {
                                                                if (meta.tmp1_33 == 1w1) {
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
                                                        if (meta.tmp1_40 == 1w1) {
                                                            if (meta.tmp1_32 == 1w1) {
                                                                if (meta.tmp1_33 == 1w1) {
                                                                    meta.tmp1_8 = 1w1;
                                                                } else {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_27 == 1w1) {
                                            if (meta.tmp1_29 == 1w1) {
                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_30 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_36 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                meta.tmp1_8 = 1w0;
                                            }
                                        }
                                    }
                                }
                            } else {
                                if (meta.tmp8_4 == 8w4) {
                                    if (meta.tmp1_8 == 1w1) {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        if (meta.tmp1_26 == 1w1) {
                                            if (meta.tmp1_27 == 1w1) {
                                                if (meta.tmp1_29 == 1w1) {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_28 == 1w1) {
                                                    if (meta.tmp1_38 == 1w1) {
                                                        if (meta.tmp1_40 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    } else {
                                                        if (meta.tmp1_39 == 1w1) {
                                                            if (meta.tmp1_40 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_40 == 1w1) {
                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_38 == 1w1) {
                                                        if (meta.tmp1_39 == 1w1) {
                                                            if (meta.tmp1_40 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_40 == 1w1) {
                                                                if (meta.tmp1_32 == 1w1) {
                                                                    if (meta.tmp1_33 == 1w1) {
                                                                        meta.tmp1_8 = 1w1;
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_39 == 1w1) {
                                                            if (meta.tmp1_40 == 1w1) {
                                                                if (meta.tmp1_32 == 1w1) {
                                                                    if (meta.tmp1_33 == 1w1) {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_40 == 1w1) {
                                                                if (meta.tmp1_32 == 1w1) {
                                                                    if (meta.tmp1_33 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
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
                                            if (meta.tmp1_27 == 1w1) {
                                                if (meta.tmp1_29 == 1w1) {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_30 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_36 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    }
                                } else {
                                    if (meta.tmp8_4 == 8w5) {
                                        if (meta.tmp1_8 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            if (meta.tmp1_26 == 1w1) {
                                                if (meta.tmp1_27 == 1w1) {
                                                    if (meta.tmp1_29 == 1w1) {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_28 == 1w1) {
                                                        if (meta.tmp1_38 == 1w1) {
                                                            if (meta.tmp1_39 == 1w1) {
                                                                if (meta.tmp1_40 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        } else {
                                                            if (meta.tmp1_39 == 1w1) {
                                                                if (meta.tmp1_40 == 1w1) {
                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                if (meta.tmp1_40 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_38 == 1w1) {
                                                            if (meta.tmp1_39 == 1w1) {
                                                                if (meta.tmp1_40 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                if (meta.tmp1_40 == 1w1) {
                                                                    if (meta.tmp1_32 == 1w1) {
                                                                        if (meta.tmp1_33 == 1w1) {
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
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_39 == 1w1) {
                                                                if (meta.tmp1_40 == 1w1) {
                                                                    if (meta.tmp1_32 == 1w1) {
                                                                        if (meta.tmp1_33 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    } else {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                if (meta.tmp1_40 == 1w1) {
                                                                    if (meta.tmp1_32 == 1w1) {
                                                                        if (meta.tmp1_33 == 1w1) {
                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    } else {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
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
                                                if (meta.tmp1_27 == 1w1) {
                                                    if (meta.tmp1_29 == 1w1) {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        if (meta.tmp1_30 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_36 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp8_4 == 8w6) {
                                            if (meta.tmp1_8 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_26 == 1w1) {
                                                    if (meta.tmp1_27 == 1w1) {
                                                        if (meta.tmp1_29 == 1w1) {
                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_38 == 1w1) {
                                                            if (meta.tmp1_39 == 1w1) {
                                                                if (meta.tmp1_40 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                if (meta.tmp1_34 == 1w1) {
                                                                    if (meta.tmp1_40 == 1w1) {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_40 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.tmp1_8 = 1w1;
                                                            }
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp1_27 == 1w1) {
                                                        if (meta.tmp1_29 == 1w1) {
                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            if (meta.tmp1_30 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_36 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                            meta.tmp1_8 = 1w0;
                                                        }
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp8_4 == 8w7) {
                                                if (meta.tmp1_8 == 1w1) {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    if (meta.tmp1_26 == 1w1) {
                                                        if (meta.tmp1_27 == 1w1) {
                                                            if (meta.tmp1_29 == 1w1) {
                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                if (meta.tmp1_30 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_28 == 1w1) {
                                                                if (meta.tmp1_38 == 1w1) {
                                                                    if (meta.tmp1_39 == 1w1) {
                                                                        if (meta.tmp1_40 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.tmp1_8 = 1w1;
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_34 == 1w1) {
                                                                            if (meta.tmp1_40 == 1w1) {
                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        } else {
                                                                            meta.tmp1_8 = 1w1;
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_40 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_38 == 1w1) {
                                                                    if (meta.tmp1_39 == 1w1) {
                                                                        if (meta.tmp1_40 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.tmp1_8 = 1w1;
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_34 == 1w1) {
                                                                            if (meta.tmp1_40 == 1w1) {
                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_40 == 1w1) {
                                                                                if (meta.tmp1_32 == 1w1) {
                                                                                    if (meta.tmp1_33 == 1w1) {
                                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    } else {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    }
                                                                                } else {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_40 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp1_27 == 1w1) {
                                                            if (meta.tmp1_29 == 1w1) {
                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                if (meta.tmp1_30 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_36 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                meta.tmp1_8 = 1w0;
                                                            }
                                                        }
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp8_4 == 8w8) {
                                                    if (meta.tmp1_8 == 1w1) {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    } else {
                                                        if (meta.tmp1_26 == 1w1) {
                                                            if (meta.tmp1_27 == 1w1) {
                                                                if (meta.tmp1_29 == 1w1) {
                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    if (meta.tmp1_30 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_28 == 1w1) {
                                                                    if (meta.tmp1_38 == 1w1) {
                                                                        if (meta.tmp1_39 == 1w1) {
                                                                            if (meta.tmp1_40 == 1w1) {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_40 == 1w1) {
                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_40 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.tmp1_8 = 1w1;
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_38 == 1w1) {
                                                                        if (meta.tmp1_39 == 1w1) {
                                                                            if (meta.tmp1_40 == 1w1) {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_34 == 1w1) {
                                                                                if (meta.tmp1_40 == 1w1) {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                } else {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_40 == 1w1) {
                                                                                    if (meta.tmp1_32 == 1w1) {
                                                                                        if (meta.tmp1_33 == 1w1) {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        } else {
                                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                            meta.tmp1_8 = 1w0;
                                                                                        }
                                                                                    } else {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    }
                                                                                } else {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                }
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_40 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.tmp1_8 = 1w1;
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_27 == 1w1) {
                                                                if (meta.tmp1_29 == 1w1) {
                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    if (meta.tmp1_30 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_36 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                    meta.tmp1_8 = 1w0;
                                                                }
                                                            }
                                                        }
                                                    }
                                                } else {
                                                    if (meta.tmp8_4 == 8w9) {
                                                        if (meta.tmp1_8 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            if (meta.tmp1_26 == 1w1) {
                                                                if (meta.tmp1_27 == 1w1) {
                                                                    if (meta.tmp1_29 == 1w1) {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        if (meta.tmp1_30 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_28 == 1w1) {
                                                                        if (meta.tmp1_38 == 1w1) {
                                                                            if (meta.tmp1_39 == 1w1) {
                                                                                if (meta.tmp1_40 == 1w1) {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                } else {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_40 == 1w1) {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                } else {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                }
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_40 == 1w1) {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_38 == 1w1) {
                                                                            if (meta.tmp1_39 == 1w1) {
                                                                                if (meta.tmp1_40 == 1w1) {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                } else {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_34 == 1w1) {
                                                                                    if (meta.tmp1_40 == 1w1) {
                                                                                        if (meta.tmp1_32 == 1w1) {
                                                                                            if (meta.tmp1_33 == 1w1) {
                                                                                                meta.tmp1_8 = 1w1;
                                                                                            } else {
                                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                                meta.tmp1_8 = 1w0;
                                                                                            }
                                                                                        } else {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        }
                                                                                    } else {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    }
                                                                                } else {
                                                                                    if (meta.tmp1_40 == 1w1) {
                                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    } else {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    }
                                                                                }
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_40 == 1w1) {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.tmp1_8 = 1w1;
                                                                            }
                                                                        }
                                                                    }
                                                                }
                                                            } else {
                                                                if (meta.tmp1_27 == 1w1) {
                                                                    if (meta.tmp1_29 == 1w1) {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        if (meta.tmp1_30 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_36 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                                                        meta.tmp1_8 = 1w0;
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        if (meta.tmp8_4 == 8w10) {
                                                            if (meta.tmp1_8 == 1w1) {
                                                                meta.fate = 17w0;
                                                                meta.tmp1_8 = 1w0;
                                                            } else {
                                                                if (meta.tmp1_26 == 1w1) {
                                                                    if (meta.tmp1_27 == 1w1) {
                                                                        if (meta.tmp1_29 == 1w1) {
                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                meta.tmp1_8 = 1w0;
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_28 == 1w1) {
                                                                            if (meta.tmp1_38 == 1w1) {
                                                                                if (meta.tmp1_39 == 1w1) {
                                                                                    if (meta.tmp1_40 == 1w1) {
                                                                                        meta.fate = 17w0;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    } else {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    }
                                                                                } else {
                                                                                    if (meta.tmp1_34 == 1w1) {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    } else {
                                                                                        if (meta.tmp1_40 == 1w1) {
                                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                            meta.tmp1_8 = 1w0;
                                                                                        } else {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        }
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_40 == 1w1) {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                } else {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                }
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_38 == 1w1) {
                                                                                if (meta.tmp1_39 == 1w1) {
                                                                                    if (meta.tmp1_40 == 1w1) {
                                                                                        meta.fate = 17w0;
                                                                                        meta.tmp1_8 = 1w0;
                                                                                    } else {
                                                                                        meta.tmp1_8 = 1w1;
                                                                                    }
                                                                                } else {
                                                                                    if (meta.tmp1_34 == 1w1) {
                                                                                        if (meta.tmp1_40 == 1w1) {
                                                                                            if (meta.tmp1_32 == 1w1) {
                                                                                                if (meta.tmp1_33 == 1w1) {
                                                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                                    meta.tmp1_8 = 1w0;
                                                                                                } else {
                                                                                                    meta.tmp1_8 = 1w1;
                                                                                                }
                                                                                            } else {
                                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                                meta.tmp1_8 = 1w0;
                                                                                            }
                                                                                        } else {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        }
                                                                                    } else {
                                                                                        if (meta.tmp1_40 == 1w1) {
                                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                            meta.tmp1_8 = 1w0;
                                                                                        } else {
                                                                                            meta.tmp1_8 = 1w1;
                                                                                        }
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (meta.tmp1_40 == 1w1) {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                } else {
                                                                                    meta.tmp1_8 = 1w1;
                                                                                }
                                                                            }
                                                                        }
                                                                    }
                                                                } else {
                                                                    if (meta.tmp1_27 == 1w1) {
                                                                        if (meta.tmp1_29 == 1w1) {
                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            if (meta.tmp1_30 == 1w1) {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                meta.tmp1_8 = 1w0;
                                                                            }
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_36 == 1w1) {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        } else {
                                                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp8_4 == 8w11) {
                                                                if (meta.tmp1_8 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    if (meta.tmp1_26 == 1w1) {
                                                                        if (meta.tmp1_27 == 1w1) {
                                                                            if (meta.tmp1_29 == 1w1) {
                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                } else {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            }
                                                                        } else {
                                                                            meta.fate = 17w0;
                                                                            meta.tmp1_8 = 1w0;
                                                                        }
                                                                    } else {
                                                                        if (meta.tmp1_27 == 1w1) {
                                                                            if (meta.tmp1_29 == 1w1) {
                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                if (meta.tmp1_30 == 1w1) {
                                                                                    meta.fate = 17w0;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                } else {
                                                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                    meta.tmp1_8 = 1w0;
                                                                                }
                                                                            }
                                                                        } else {
                                                                            if (meta.tmp1_36 == 1w1) {
                                                                                meta.fate = 17w0;
                                                                                meta.tmp1_8 = 1w0;
                                                                            } else {
                                                                                meta.fate = 1w1 ++ meta.tmp16_1;
                                                                                meta.tmp1_8 = 1w0;
                                                                            }
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
            } else {
                if (meta.tmp1_8 == 1w1) {
                    meta.fate = 17w0;
                    meta.tmp1_8 = 1w0;
                } else {
                    if (meta.tmp1_26 == 1w1) {
                        if (meta.tmp1_27 == 1w1) {
                            if (meta.tmp1_37 == 1w1) {
                                if (meta.tmp1_29 == 1w1) {
                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                    meta.tmp1_8 = 1w0;
                                } else {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                }
                            } else {
                                if (meta.tmp1_29 == 1w1) {
                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                    meta.tmp1_8 = 1w0;
                                } else {
                                    if (meta.tmp1_30 == 1w1) {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        meta.tmp1_8 = 1w1;
                                    }
                                }
                            }
                        } else {
                            if (meta.tmp1_28 == 1w1) {
                                if (meta.tmp1_37 == 1w1) {
                                    if (meta.tmp1_38 == 1w1) {
                                        if (meta.tmp1_39 == 1w1) {
                                            if (meta.tmp1_40 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_40 == 1w1) {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_40 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            if (meta.tmp1_42 == 1w1) {
                                                meta.tmp1_8 = 1w1;
                                            } else {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            }
                                        }
                                    }
                                } else {
                                    if (meta.tmp1_38 == 1w1) {
                                        if (meta.tmp1_39 == 1w1) {
                                            if (meta.tmp1_40 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_40 == 1w1) {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_39 == 1w1) {
                                            if (meta.tmp1_34 == 1w1) {
                                                if (meta.tmp1_40 == 1w1) {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        if (meta.tmp1_41 == 1w1) {
                                                            meta.fate = 17w0;
                                                            meta.tmp1_8 = 1w0;
                                                        } else {
                                                            meta.tmp1_8 = 1w1;
                                                        }
                                                    } else {
                                                        meta.tmp1_8 = 1w1;
                                                    }
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_40 == 1w1) {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        if (meta.tmp1_41 == 1w1) {
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
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_40 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    }
                                }
                            } else {
                                if (meta.tmp1_37 == 1w1) {
                                    if (meta.tmp1_38 == 1w1) {
                                        if (meta.tmp1_39 == 1w1) {
                                            if (meta.tmp1_40 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_40 == 1w1) {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_40 == 1w1) {
                                            meta.fate = 17w0;
                                            meta.tmp1_8 = 1w0;
                                        } else {
                                            if (meta.tmp1_42 == 1w1) {
                                                meta.tmp1_8 = 1w1;
                                            } else {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            }
                                        }
                                    }
                                } else {
                                    if (meta.tmp1_38 == 1w1) {
                                        if (meta.tmp1_39 == 1w1) {
                                            if (meta.tmp1_40 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_40 == 1w1) {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                                    meta.tmp1_8 = 1w0;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    } else {
                                        if (meta.tmp1_39 == 1w1) {
                                            if (meta.tmp1_34 == 1w1) {
                                                if (meta.tmp1_40 == 1w1) {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        if (meta.tmp1_41 == 1w1) {
                                                            if (meta.tmp1_32 == 1w1) {
                                                                if (meta.tmp1_33 == 1w1) {
                                                                    if (meta.tmp1_43 == 1w1) {
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
                                                                if (meta.tmp1_43 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_32 == 1w1) {
                                                                if (meta.tmp1_33 == 1w1) {
                                                                    if (meta.tmp1_43 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                if (meta.tmp1_43 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        meta.tmp1_8 = 1w1;
                                                    }
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp1_40 == 1w1) {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        if (meta.tmp1_41 == 1w1) {
                                                            if (meta.tmp1_32 == 1w1) {
                                                                if (meta.tmp1_33 == 1w1) {
                                                                    if (meta.tmp1_43 == 1w1) {
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
                                                                if (meta.tmp1_43 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        } else {
                                                            if (meta.tmp1_32 == 1w1) {
                                                                if (meta.tmp1_33 == 1w1) {
                                                                    if (meta.tmp1_43 == 1w1) {
                                                                        meta.fate = 17w0;
                                                                        meta.tmp1_8 = 1w0;
                                                                    } else {
                                                                        meta.tmp1_8 = 1w1;
                                                                    }
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            } else {
                                                                if (meta.tmp1_43 == 1w1) {
                                                                    meta.fate = 17w0;
                                                                    meta.tmp1_8 = 1w0;
                                                                } else {
                                                                    meta.tmp1_8 = 1w1;
                                                                }
                                                            }
                                                        }
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_42 == 1w1) {
                                                        meta.tmp1_8 = 1w1;
                                                    } else {
                                                        meta.fate = 17w0;
                                                        meta.tmp1_8 = 1w0;
                                                    }
                                                }
                                            }
                                        } else {
                                            if (meta.tmp1_40 == 1w1) {
                                                meta.fate = 17w0;
                                                meta.tmp1_8 = 1w0;
                                            } else {
                                                if (meta.tmp1_42 == 1w1) {
                                                    meta.tmp1_8 = 1w1;
                                                } else {
                                                    meta.fate = 17w0;
                                                    meta.tmp1_8 = 1w0;
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    } else {
                        if (meta.tmp1_27 == 1w1) {
                            if (meta.tmp1_37 == 1w1) {
                                if (meta.tmp1_29 == 1w1) {
                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                    meta.tmp1_8 = 1w0;
                                } else {
                                    meta.fate = 17w0;
                                    meta.tmp1_8 = 1w0;
                                }
                            } else {
                                if (meta.tmp1_29 == 1w1) {
                                    meta.fate = 1w1 ++ meta.tmp16_1;
                                    meta.tmp1_8 = 1w0;
                                } else {
                                    if (meta.tmp1_30 == 1w1) {
                                        meta.fate = 17w0;
                                        meta.tmp1_8 = 1w0;
                                    } else {
                                        meta.tmp1_8 = 1w1;
                                    }
                                }
                            }
                        } else {
                            if (meta.tmp1_36 == 1w1) {
                                meta.fate = 17w0;
                                meta.tmp1_8 = 1w0;
                            } else {
                                meta.fate = 1w1 ++ meta.tmp16_1;
                                meta.tmp1_8 = 1w0;
                            }
                        }
                    }
                }
            }
            if (meta.tmp1_8 == 1w1) {
                meta.tmp16_1 = meta.in_port;
                meta.tmp32_2 = (bit<32>) meta.tmp16_1;
                meta.tmp1_0 = (meta.tmp16_1 > 16w1) ? 1w1 : 1w0;
                if (meta.tmp1_0 == 1w0) {
                    meta.tmp32_0 = 32w1 - meta.tmp32_2;
                    meta.tmp1_26 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.tmp1_26 = meta.tmp1_26 ^ 1w1;
                    meta.tmp1_27 = hdr.udp.isValid() ? 1w1 : 1w0;
                    meta.tmp1_27 = meta.tmp1_27 ^ 1w1;
                    meta.tmp1_28 = meta.tmp1_26 & meta.tmp1_27;
                    if (meta.tmp1_28 == 1w0) {
                        meta.to_server = 1w1;
                        meta.tmp8_1 = (meta.tmp1_26 == 1w1) ? 8w0 : 8w1;
                        meta.tmp16_0 = hdr.udp.sport;
                        meta.tmp16_1 = hdr.tcp.sport;
                        meta.tmp16_0 = (meta.tmp8_1 == 8w1) ? (meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8]) : (meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8]);
                        meta.tmp8_1 = (meta.tmp1_26 == 1w1) ? 8w0 : 8w1;
                        meta.tmp16_1 = hdr.udp.dport;
                        meta.tmp16_1 = meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8];
                        meta.tmp16_1 = hdr.tcp.dport;
                        meta.tmp16_1 = meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8];
                        meta.tmp1_1 = (meta.tmp8_1 == 8w1) ? 1w1 : 1w0;
                        meta.tmp32_3 = hdr.ipv4.saddr;
                        meta.tmp32_4 = hdr.ipv4.daddr;
                        meta.tmp1_2 = (meta.tmp32_3 < meta.tmp32_4) ? 1w1 : 1w0;
                        if (meta.tmp1_2 == 1w0) {
                            meta.tmp1_3 = ((((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24]) == (((meta.tmp32_4[7:0] ++ meta.tmp32_4[15:8]) ++ meta.tmp32_4[23:16]) ++ meta.tmp32_4[31:24])) ? 1w1 : 1w0;
                            if (meta.tmp1_3 == 1w1) {
                                meta.to_server = 1w1;
                                meta.tmp16_1 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                            }
                        }
                        meta.to_server = 1w1;
                        meta.tmp8_1 = hdr.ipv4.protocol;
                        new_from_1.read(meta.tmp32_3, 32w0);
                        meta.tmp1_4 = ((meta.tmp32_3 & (32w1 << ((bit<8>) ((meta.tmp32_2 < 32w32) ? meta.tmp32_2 : 32w32)))) == 32w0) ? 1w1 : 1w0;
                        if (meta.tmp1_27 == 1w1) {
                            meta.to_server = 1w1;
                            meta.tmp8_1 = hdr.tcp.flags;
                            meta.tmp32_2 = (bit<32>) meta.tmp8_1;
                            meta.tmp1_5 = ((meta.tmp32_2 & 32w2) == 32w0) ? 1w1 : 1w0;
                            meta.tmp1_6 = ((meta.tmp32_2 & 32w16) == 32w0) ? 1w1 : 1w0;
                            meta.tmp32_3 = meta.tmp32_2 & 32w1;
                            meta.tmp1_7 = ((meta.tmp32_2 & 32w4) == 32w0) ? 1w1 : 1w0;
                        } else {
                            udp_mode_1.read(meta.tmp32_1, 32w0);
                            if (meta.tmp32_1 == 32w1) {
                            } else {
                                if (meta.tmp32_1 == 32w0) {
                                } else {
                                    meta.to_server = 1w1;
                                }
                            }
                        }
                    }
                }
            }
            if (meta.to_server == 1w1) {
                hdr.tandem.setValid();
                hdr.tandem.tag = 8w1;
                hdr.tandem.orig_ethertype = hdr.eth.ethertype;
                hdr.eth.ethertype = TANDEM_ETHERTYPE;
                hdr.tandem.v3 = meta.tmp1_0;
                hdr.tandem.v5 = meta.tmp32_0;
                hdr.tandem.v22 = meta.tmp16_0;
                hdr.tandem.v31 = meta.tmp1_1;
                hdr.tandem.v37 = meta.tmp1_2;
                hdr.tandem.v38 = meta.tmp1_3;
                hdr.tandem.v59 = meta.tmp1_4;
                hdr.tandem.v60 = meta.tmp32_1;
                hdr.tandem.v80 = meta.tmp1_5;
                hdr.tandem.v84 = meta.tmp1_6;
                hdr.tandem.v92 = meta.tmp1_7;
                hdr.tandem.v398 = meta.tmp1_8;
                hdr.tandem.fate = meta.fate;
                hdr.tandem.v68 = 1w0;
                hdr.tandem.v99 = 1w0;
                hdr.tandem.v113 = 8w0;
                hdr.tandem.v115 = 1w0;
                hdr.tandem.v147 = 1w0;
                hdr.tandem.v150 = 1w0;
                hdr.tandem.v164 = 1w0;
                hdr.tandem.v176 = 1w0;
                hdr.tandem.v182 = 1w0;
                hdr.tandem.v185 = 1w0;
                hdr.tandem.v198 = 1w0;
                hdr.tandem.v205 = 1w0;
                hdr.tandem.v224 = 1w0;
                hdr.tandem.v227 = 1w0;
                hdr.tandem.v237 = 1w0;
                hdr.tandem.v241 = 1w0;
                hdr.tandem.v260 = 1w0;
                hdr.tandem.v264 = 1w0;
                hdr.tandem.pad = 5w0;
            }
        }
        if (meta.to_server == 1w0) {
            if (meta.tmp1_8 == 1w1) {
                if (meta.tmp1_0 == 1w1) {
                    meta.fate = 17w0;
                } else {
                    meta.tmp1_26 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.tmp1_26 = meta.tmp1_26 ^ 1w1;
                    meta.tmp1_27 = hdr.udp.isValid() ? 1w1 : 1w0;
                    meta.tmp1_27 = meta.tmp1_27 ^ 1w1;
                    meta.tmp1_28 = meta.tmp1_26 & meta.tmp1_27;
                    if (meta.tmp1_28 == 1w1) {
                        other_allowed_1.read(meta.tmp32_1, 32w0);
                        if (meta.tmp32_1 == 32w0) {
                            meta.fate = 17w0;
                        } else {
                            meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                            meta.fate = 1w1 ++ meta.tmp16_0;
                        }
                    } else {
                        if (meta.tmp1_27 == 1w1) {
                            if (meta.tmp1_10 == 1w1) {
                                if (meta.tmp1_20 == 1w1) {
                                    if (meta.tmp1_24 == 1w1) {
                                        meta.fate = 17w0;
                                    } else {
                                        if (meta.tmp1_25 == 1w1) {
                                            meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                            meta.fate = 1w1 ++ meta.tmp16_0;
                                        } else {
                                            meta.fate = 17w0;
                                        }
                                    }
                                } else {
                                    if (meta.tmp1_22 == 1w1) {
                                        if (meta.tmp1_7 == 1w1) {
                                            meta.tmp1_0 = (meta.tmp1_6 == 1w1) ? 1w1 : meta.tmp1_21;
                                            if (meta.tmp1_0 == 1w1) {
                                                meta.fate = 17w0;
                                            } else {
                                                meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                meta.fate = 1w1 ++ meta.tmp16_0;
                                            }
                                        } else {
                                            meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                            meta.fate = 1w1 ++ meta.tmp16_0;
                                        }
                                    } else {
                                        if (meta.tmp1_23 == 1w1) {
                                            meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                            meta.fate = 1w1 ++ meta.tmp16_0;
                                        } else {
                                            meta.fate = 17w0;
                                        }
                                    }
                                }
                            } else {
                                if (meta.tmp1_11 == 1w1) {
                                    meta.fate = 17w0;
                                } else {
                                    if (meta.tmp1_7 == 1w1) {
                                        if (meta.tmp8_0 == 8w1) {
                                            if (meta.tmp1_18 == 1w1) {
                                                if (meta.tmp1_19 == 1w1) {
                                                    meta.fate = 17w0;
                                                } else {
                                                    meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                    meta.fate = 1w1 ++ meta.tmp16_0;
                                                }
                                            } else {
                                                meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                meta.fate = 1w1 ++ meta.tmp16_0;
                                            }
                                        } else {
                                            if (meta.tmp8_0 == 8w2) {
                                                if (meta.tmp1_5 == 1w1) {
                                                    if (meta.tmp1_17 == 1w0) {
                                                        meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                        meta.fate = 1w1 ++ meta.tmp16_0;
                                                    }
                                                } else {
                                                    if (meta.tmp1_16 == 1w1) {
                                                        meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                        meta.fate = 1w1 ++ meta.tmp16_0;
                                                    }
                                                }
                                            } else {
                                                if (meta.tmp8_0 == 8w3) {
                                                    if (meta.tmp1_15 == 1w0) {
                                                        meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                        meta.fate = 1w1 ++ meta.tmp16_0;
                                                    }
                                                } else {
                                                    if (meta.tmp8_0 == 8w4) {
                                                        if (meta.tmp1_14 == 1w0) {
                                                            meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                            meta.fate = 1w1 ++ meta.tmp16_0;
                                                        }
                                                    } else {
                                                        if (meta.tmp8_0 == 8w5) {
                                                            if (meta.tmp1_12 == 1w0) {
                                                                if (meta.tmp1_13 == 1w0) {
                                                                    meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                                    meta.fate = 1w1 ++ meta.tmp16_0;
                                                                }
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
                        } else {
                            if (meta.tmp32_1 == 32w1) {
                                meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                meta.fate = 1w1 ++ meta.tmp16_0;
                            } else {
                                if (meta.tmp32_1 == 32w0) {
                                    meta.fate = 17w0;
                                } else {
                                    if (meta.tmp1_9 == 1w1) {
                                        if (meta.tmp1_4 == 1w1) {
                                            meta.fate = 17w0;
                                        }
                                    } else {
                                        meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                        meta.fate = 1w1 ++ meta.tmp16_0;
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
