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
    bit<16> v19;
    bit<16> v29;
    bit<1> v41;
    bit<1> v143;
    bit<1> v149;
    bit<32> v170;
    bit<1> v188;
    bit<32> v197;
    bit<1> v204;
    bit<1> v303;
    bit<32> v183;
    bit<2> pad;
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
    bit<32> conns_k0;
    bit<32> conns_k4;
    bit<16> conns_k8;
    bit<16> conns_k10;
    bit<8> conns_k12;
    bit<8> conns_k13;
    bit<8> conns_k14;
    bit<8> conns_k15;
    bit<32> replies_0_k0;
    bit<32> replies_0_k4;
    bit<16> replies_0_k8;
    bit<16> replies_0_k10;
    bit<8> replies_0_k12;
    bit<8> replies_0_k13;
    bit<8> replies_0_k14;
    bit<8> replies_0_k15;
    bit<32> replies_1_k0;
    bit<32> replies_1_k4;
    bit<16> replies_1_k8;
    bit<16> replies_1_k10;
    bit<8> replies_1_k12;
    bit<8> replies_1_k13;
    bit<8> replies_1_k14;
    bit<8> replies_1_k15;
    bit<32> vips_k0;
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
    bit<8> tmp8_0;
    bit<16> tmp16_0;
    bit<16> tmp16_1;
    bit<16> tmp16_2;
    bit<32> tmp32_0;
    bit<32> tmp32_1;
    bit<32> tmp32_2;
    bit<32> tmp32_3;
    bit<32> tmp32_4;
    bit<32> tmp32_5;
    bit<32> tmp32_6;
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
    action conns_hit(bit<32> v0) {
        meta.tmp1_2 = 1w1;
        meta.tmp32_6 = v0;
    }
    action conns_miss() {
        meta.tmp1_2 = 1w0;
        meta.tmp32_6 = 32w0;
    }
    table conns {
        key = {
            meta.conns_k0: exact;
            meta.conns_k4: exact;
            meta.conns_k8: exact;
            meta.conns_k10: exact;
            meta.conns_k12: exact;
            meta.conns_k13: exact;
            meta.conns_k14: exact;
            meta.conns_k15: exact;
        }
        actions = {
            conns_hit;
            conns_miss;
        }
        default_action = conns_miss();
        size = 0x10000;
        support_timeout = true;
    }
    action conns_wb_hit(bit<32> v0) {
        meta.tmp1_2 = 1w1;
        meta.tmp32_6 = v0;
        meta.wb_hit = 1w1;
    }
    action conns_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_2 = 1w0;
        meta.tmp32_6 = 32w0;
    }
    action conns_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table conns_wb {
        key = {
            meta.conns_k0: exact;
            meta.conns_k4: exact;
            meta.conns_k8: exact;
            meta.conns_k10: exact;
            meta.conns_k12: exact;
            meta.conns_k13: exact;
            meta.conns_k14: exact;
            meta.conns_k15: exact;
        }
        actions = {
            conns_wb_hit;
            conns_wb_deleted;
            conns_wb_miss;
        }
        default_action = conns_wb_miss();
        size = 0x400;
        support_timeout = true;
    }
    action replies_0_hit(bit<32> v0) {
        meta.tmp1_10 = 1w1;
        meta.tmp32_6 = v0;
    }
    action replies_0_miss() {
        meta.tmp1_10 = 1w0;
        meta.tmp32_6 = 32w0;
    }
    table replies_0 {
        key = {
            meta.replies_0_k0: exact;
            meta.replies_0_k4: exact;
            meta.replies_0_k8: exact;
            meta.replies_0_k10: exact;
            meta.replies_0_k12: exact;
            meta.replies_0_k13: exact;
            meta.replies_0_k14: exact;
            meta.replies_0_k15: exact;
        }
        actions = {
            replies_0_hit;
            replies_0_miss;
        }
        default_action = replies_0_miss();
        size = 0x10000;
        support_timeout = true;
    }
    action replies_0_wb_hit(bit<32> v0) {
        meta.tmp1_10 = 1w1;
        meta.tmp32_6 = v0;
        meta.wb_hit = 1w1;
    }
    action replies_0_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_10 = 1w0;
        meta.tmp32_6 = 32w0;
    }
    action replies_0_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table replies_0_wb {
        key = {
            meta.replies_0_k0: exact;
            meta.replies_0_k4: exact;
            meta.replies_0_k8: exact;
            meta.replies_0_k10: exact;
            meta.replies_0_k12: exact;
            meta.replies_0_k13: exact;
            meta.replies_0_k14: exact;
            meta.replies_0_k15: exact;
        }
        actions = {
            replies_0_wb_hit;
            replies_0_wb_deleted;
            replies_0_wb_miss;
        }
        default_action = replies_0_wb_miss();
        size = 0x400;
        support_timeout = true;
    }
    action replies_1_hit(bit<32> v0) {
        meta.tmp1_7 = 1w1;
        meta.tmp32_1 = v0;
    }
    action replies_1_miss() {
        meta.tmp1_7 = 1w0;
        meta.tmp32_1 = 32w0;
    }
    table replies_1 {
        key = {
            meta.replies_1_k0: exact;
            meta.replies_1_k4: exact;
            meta.replies_1_k8: exact;
            meta.replies_1_k10: exact;
            meta.replies_1_k12: exact;
            meta.replies_1_k13: exact;
            meta.replies_1_k14: exact;
            meta.replies_1_k15: exact;
        }
        actions = {
            replies_1_hit;
            replies_1_miss;
        }
        default_action = replies_1_miss();
        size = 0x10000;
        support_timeout = true;
    }
    action replies_1_wb_hit(bit<32> v0) {
        meta.tmp1_7 = 1w1;
        meta.tmp32_1 = v0;
        meta.wb_hit = 1w1;
    }
    action replies_1_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_7 = 1w0;
        meta.tmp32_1 = 32w0;
    }
    action replies_1_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table replies_1_wb {
        key = {
            meta.replies_1_k0: exact;
            meta.replies_1_k4: exact;
            meta.replies_1_k8: exact;
            meta.replies_1_k10: exact;
            meta.replies_1_k12: exact;
            meta.replies_1_k13: exact;
            meta.replies_1_k14: exact;
            meta.replies_1_k15: exact;
        }
        actions = {
            replies_1_wb_hit;
            replies_1_wb_deleted;
            replies_1_wb_miss;
        }
        default_action = replies_1_wb_miss();
        size = 0x400;
        support_timeout = true;
    }
    action vips_hit(bit<32> v0) {
        meta.tmp1_1 = 1w1;
        meta.tmp32_5 = v0;
    }
    action vips_miss() {
        meta.tmp1_1 = 1w0;
        meta.tmp32_5 = 32w0;
    }
    table vips {
        key = {
            meta.vips_k0: exact;
        }
        actions = {
            vips_hit;
            vips_miss;
        }
        default_action = vips_miss();
        size = 64;
    }
    register<bit<32> >(32w1) backends_size;
    register<bit<32> >(32w1) client_port_0;
    register<bit<32> >(32w1) client_port_1;
    register<bit<32> >(32w1) backend_port_0;
    register<bit<32> >(32w1) backend_port_1;
    register<bit<32> >(32w1) backend_port_2;
    register<bit<32> >(32w1) backend_port_3;
    register<bit<1> >(32w1) tandem_visible;
    apply {
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.tmp16_0 = hdr.tandem.v19;
                meta.tmp16_1 = hdr.tandem.v29;
                meta.tmp1_0 = hdr.tandem.v41;
                meta.tmp1_1 = hdr.tandem.v143;
                meta.tmp1_2 = hdr.tandem.v149;
                meta.tmp32_0 = hdr.tandem.v170;
                meta.tmp1_3 = hdr.tandem.v188;
                meta.tmp32_1 = hdr.tandem.v197;
                meta.tmp1_4 = hdr.tandem.v204;
                meta.tmp1_5 = hdr.tandem.v303;
                meta.tmp32_2 = hdr.tandem.v183;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
            } else {
                mark_to_drop(standard_metadata);
                exit;
            }
        } else {
            meta.in_port = (bit<16>) standard_metadata.ingress_port;
            meta.tmp1_6 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
            meta.tmp1_6 = meta.tmp1_6 ^ 1w1;
            if (meta.tmp1_6 == 1w0) {
                meta.tmp1_6 = hdr.tcp.isValid() ? 1w1 : 1w0;
                meta.tmp1_6 = meta.tmp1_6 ^ 1w1;
                meta.tmp1_7 = hdr.udp.isValid() ? 1w1 : 1w0;
                meta.tmp1_7 = meta.tmp1_7 ^ 1w1;
                meta.tmp1_8 = meta.tmp1_6 & meta.tmp1_7;
                if (meta.tmp1_8 == 1w0) {
                    meta.tmp8_0 = (meta.tmp1_6 == 1w1) ? 8w0 : 8w1;
                    meta.tmp16_0 = hdr.udp.sport;
                    meta.tmp16_1 = hdr.tcp.sport;
                    meta.tmp16_0 = (meta.tmp8_0 == 8w1) ? (meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8]) : (meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8]);
                    meta.tmp8_0 = (meta.tmp1_6 == 1w1) ? 8w0 : 8w1;
                    meta.tmp16_1 = hdr.udp.dport;
                    meta.tmp16_2 = hdr.tcp.dport;
                    meta.tmp16_1 = (meta.tmp8_0 == 8w1) ? (meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8]) : (meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8]);
                    meta.tmp32_3 = hdr.ipv4.saddr;
                    meta.tmp32_3 = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
                    meta.tmp32_4 = hdr.ipv4.daddr;
                    meta.tmp32_4 = ((meta.tmp32_4[7:0] ++ meta.tmp32_4[15:8]) ++ meta.tmp32_4[23:16]) ++ meta.tmp32_4[31:24];
                    meta.tmp8_0 = hdr.ipv4.protocol;
                    client_port_0.read(meta.tmp32_5, 32w0);
                    meta.tmp1_0 = (((bit<32>) meta.in_port) == meta.tmp32_5) ? 1w1 : 1w0;
                    if (meta.tmp1_0 == 1w1) {
                        meta.tmp32_5 = hdr.ipv4.daddr;
                        meta.vips_k0 = ((meta.tmp32_5[7:0] ++ meta.tmp32_5[15:8]) ++ meta.tmp32_5[23:16]) ++ meta.tmp32_5[31:24];
                        vips.apply();
                        meta.tmp1_1 = meta.tmp1_1 ^ 1w1;
                        if (meta.tmp1_1 == 1w0) {
                            meta.tmp32_5 = hdr.ipv4.daddr;
                            meta.tmp32_5 = ((meta.tmp32_5[7:0] ++ meta.tmp32_5[15:8]) ++ meta.tmp32_5[23:16]) ++ meta.tmp32_5[31:24];
                            meta.conns_k0 = meta.tmp32_3;
                            meta.conns_k4 = meta.tmp32_4;
                            meta.conns_k8 = meta.tmp16_0;
                            meta.conns_k10 = meta.tmp16_1;
                            meta.conns_k12 = meta.tmp8_0;
                            meta.conns_k13 = 8w0;
                            meta.conns_k14 = 8w0;
                            meta.conns_k15 = 8w0;
                            meta.wb_hit = 1w0;
                            if (meta.visible == 1w1) {
                                conns_wb.apply();
                            }
                            if (meta.wb_hit == 1w0) {
                                conns.apply();
                            }
                            meta.tmp1_2 = meta.tmp1_2 ^ 1w1;
                            if (meta.tmp1_2 == 1w1) {
                                meta.to_server = 1w1;
                                meta.tmp32_0 = (bit<32>) meta.tmp16_0;
                                meta.tmp32_5 = (bit<32>) meta.tmp16_1;
                                meta.tmp32_0 = (meta.tmp32_4 ^ meta.tmp32_3) ^ ((meta.tmp32_5 << 8w16) | meta.tmp32_0);
                                meta.tmp32_0 = ((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24];
                                meta.tmp32_0 = ((meta.tmp32_0 >> 8w16) ^ ((bit<32>) meta.tmp8_0)) ^ meta.tmp32_0;
                                backends_size.read(meta.tmp32_3, 32w0);
                                if (meta.tmp1_7 == 1w1) {
                                    meta.tmp8_0 = hdr.tcp.flags;
                                    meta.tmp1_3 = ((meta.tmp8_0 & 8w22) == 8w2) ? 1w1 : 1w0;
                                    if (meta.tmp1_3 == 1w1) {
                                        meta.to_server = 1w1;
                                        meta.tmp32_3 = hdr.ipv4.saddr;
                                        meta.tmp32_3 = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
                                        meta.tmp8_0 = hdr.ipv4.protocol;
                                        if (meta.tmp1_6 == 1w0) {
                                            meta.tmp8_0 = hdr.tcp.flags;
                                            meta.tmp8_0 = meta.tmp8_0;
                                            meta.tmp8_0 = meta.tmp8_0 & 8w5;
                                            meta.tmp1_5 = (meta.tmp8_0 == 8w0) ? 1w1 : 1w0;
                                            if (meta.tmp1_5 == 1w0) {
                                                meta.to_server = 1w1;
                                            }
                                        }
                                    } else {
                                        meta.tmp8_0 = meta.tmp8_0;
                                        meta.tmp8_0 = meta.tmp8_0 & 8w5;
                                        meta.tmp1_4 = (meta.tmp8_0 == 8w0) ? 1w1 : 1w0;
                                        if (meta.tmp1_4 == 1w0) {
                                            meta.to_server = 1w1;
                                        }
                                    }
                                } else {
                                    meta.to_server = 1w1;
                                    meta.tmp32_3 = hdr.ipv4.saddr;
                                    meta.tmp32_3 = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
                                    meta.tmp8_0 = hdr.ipv4.protocol;
                                    if (meta.tmp1_6 == 1w0) {
                                        meta.tmp8_0 = hdr.tcp.flags;
                                        meta.tmp8_0 = meta.tmp8_0;
                                        meta.tmp8_0 = meta.tmp8_0 & 8w5;
                                        meta.tmp1_5 = (meta.tmp8_0 == 8w0) ? 1w1 : 1w0;
                                        if (meta.tmp1_5 == 1w0) {
                                            meta.to_server = 1w1;
                                        }
                                    }
                                }
                            } else {
                                meta.tmp32_1 = hdr.ipv4.saddr;
                                meta.tmp8_0 = hdr.ipv4.protocol;
                                meta.replies_1_k0 = meta.tmp32_6;
                                meta.replies_1_k4 = ((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24];
                                meta.replies_1_k8 = meta.tmp16_1;
                                meta.replies_1_k10 = meta.tmp16_0;
                                meta.replies_1_k12 = meta.tmp8_0;
                                meta.replies_1_k13 = 8w0;
                                meta.replies_1_k14 = 8w0;
                                meta.replies_1_k15 = 8w0;
                                meta.wb_hit = 1w0;
                                if (meta.visible == 1w1) {
                                    replies_1_wb.apply();
                                }
                                if (meta.wb_hit == 1w0) {
                                    replies_1.apply();
                                }
                                meta.tmp32_1 = meta.tmp32_6;
                                if (meta.tmp1_6 == 1w1) {
                                    meta.tmp32_3 = meta.tmp32_1;
                                    meta.tmp32_4 = hdr.ipv4.daddr;
                                    meta.tmp32_4 = ((meta.tmp32_4[7:0] ++ meta.tmp32_4[15:8]) ++ meta.tmp32_4[23:16]) ++ meta.tmp32_4[31:24];
                                    hdr.ipv4.daddr = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
                                    meta.tmp16_2 = hdr.ipv4.check;
                                    meta.tmp32_3 = (((meta.tmp32_3 & 32w0xffff) + (meta.tmp32_3 >> 8w16)) + ((meta.tmp32_4 ^ 32w0xffffffff) >> 8w16)) + ((meta.tmp32_4 & 32w0xffff) ^ 32w0xffff);
                                    meta.tmp32_4 = meta.tmp32_3 + ((bit<32>) ((meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8]) ^ 16w0xffff));
                                    meta.tmp32_4 = (meta.tmp32_4 & 32w0xffff) + (meta.tmp32_4 >> 8w16);
                                    meta.tmp16_2 = ((bit<16>) ((meta.tmp32_4 >> 8w16) + meta.tmp32_4)) ^ 16w0xffff;
                                    hdr.ipv4.check = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                    meta.tmp1_6 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                    if (meta.tmp1_6 == 1w1) {
                                        meta.tmp16_2 = hdr.tcp.check;
                                        meta.tmp32_4 = meta.tmp32_3 + ((bit<32>) ((meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8]) ^ 16w0xffff));
                                        meta.tmp32_4 = (meta.tmp32_4 & 32w0xffff) + (meta.tmp32_4 >> 8w16);
                                        meta.tmp16_2 = ((bit<16>) ((meta.tmp32_4 >> 8w16) + meta.tmp32_4)) ^ 16w0xffff;
                                        hdr.tcp.check = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                    }
                                    meta.tmp1_6 = hdr.udp.isValid() ? 1w1 : 1w0;
                                    if (meta.tmp1_6 == 1w1) {
                                        meta.tmp16_2 = hdr.udp.check;
                                        meta.tmp16_2 = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                        if (meta.tmp16_2 == 16w0) {
                                            meta.tmp16_2 = 16w0;
                                        } else {
                                            meta.tmp32_3 = meta.tmp32_3 + ((bit<32>) (meta.tmp16_2 ^ 16w0xffff));
                                            meta.tmp32_3 = (meta.tmp32_3 & 32w0xffff) + (meta.tmp32_3 >> 8w16);
                                            meta.tmp16_2 = (bit<16>) ((meta.tmp32_3 >> 8w16) + meta.tmp32_3);
                                            meta.tmp16_2 = (meta.tmp16_2 == 16w0xffff) ? 16w0xffff : (meta.tmp16_2 ^ 16w0xffff);
                                        }
                                        meta.tmp16_2 = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                        hdr.udp.check = meta.tmp16_2;
                                    }
                                } else {
                                    meta.tmp8_0 = hdr.tcp.flags;
                                    meta.tmp8_0 = meta.tmp8_0;
                                    meta.tmp8_0 = meta.tmp8_0 & 8w5;
                                    meta.tmp1_4 = (meta.tmp8_0 == 8w0) ? 1w1 : 1w0;
                                    if (meta.tmp1_4 == 1w0) {
                                        meta.to_server = 1w1;
                                    }
                                }
                            }
                        }
                    } else {
                        backend_port_0.read(meta.tmp32_5, 32w0);
                        meta.tmp1_9 = (((bit<32>) meta.in_port) == meta.tmp32_5) ? 1w1 : 1w0;
                        if (meta.tmp1_9 == 1w1) {
                            meta.replies_0_k0 = meta.tmp32_3;
                            meta.replies_0_k4 = meta.tmp32_4;
                            meta.replies_0_k8 = meta.tmp16_0;
                            meta.replies_0_k10 = meta.tmp16_1;
                            meta.replies_0_k12 = meta.tmp8_0;
                            meta.replies_0_k13 = 8w0;
                            meta.replies_0_k14 = 8w0;
                            meta.replies_0_k15 = 8w0;
                            meta.wb_hit = 1w0;
                            if (meta.visible == 1w1) {
                                replies_0_wb.apply();
                            }
                            if (meta.wb_hit == 1w0) {
                                replies_0.apply();
                            }
                            meta.tmp1_10 = meta.tmp1_10 ^ 1w1;
                            if (meta.tmp1_10 == 1w0) {
                                meta.tmp32_3 = hdr.ipv4.saddr;
                                meta.tmp32_3 = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
                                meta.tmp32_4 = ((meta.tmp32_6[7:0] ++ meta.tmp32_6[15:8]) ++ meta.tmp32_6[23:16]) ++ meta.tmp32_6[31:24];
                                hdr.ipv4.saddr = meta.tmp32_4;
                                meta.tmp16_2 = hdr.ipv4.check;
                                meta.tmp32_4 = meta.tmp32_6 & 32w0xffff;
                                meta.tmp32_5 = meta.tmp32_6 >> 8w16;
                                meta.tmp32_3 = ((meta.tmp32_4 + meta.tmp32_5) + ((meta.tmp32_3 ^ 32w0xffffffff) >> 8w16)) + ((meta.tmp32_3 & 32w0xffff) ^ 32w0xffff);
                                meta.tmp32_4 = meta.tmp32_3 + ((bit<32>) ((meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8]) ^ 16w0xffff));
                                meta.tmp32_4 = (meta.tmp32_4 & 32w0xffff) + (meta.tmp32_4 >> 8w16);
                                meta.tmp16_2 = ((bit<16>) ((meta.tmp32_4 >> 8w16) + meta.tmp32_4)) ^ 16w0xffff;
                                hdr.ipv4.check = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                meta.tmp1_6 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                if (meta.tmp1_6 == 1w1) {
                                    meta.tmp16_2 = hdr.tcp.check;
                                    meta.tmp32_4 = meta.tmp32_3 + ((bit<32>) ((meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8]) ^ 16w0xffff));
                                    meta.tmp32_4 = (meta.tmp32_4 & 32w0xffff) + (meta.tmp32_4 >> 8w16);
                                    meta.tmp16_2 = ((bit<16>) ((meta.tmp32_4 >> 8w16) + meta.tmp32_4)) ^ 16w0xffff;
                                    hdr.tcp.check = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                }
                                meta.tmp1_6 = hdr.udp.isValid() ? 1w1 : 1w0;
                                if (meta.tmp1_6 == 1w1) {
                                    meta.tmp16_2 = hdr.udp.check;
                                    meta.tmp16_2 = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                    if (meta.tmp16_2 == 16w0) {
                                        meta.tmp16_2 = 16w0;
                                    } else {
                                        meta.tmp32_3 = meta.tmp32_3 + ((bit<32>) (meta.tmp16_2 ^ 16w0xffff));
                                        meta.tmp32_3 = (meta.tmp32_3 & 32w0xffff) + (meta.tmp32_3 >> 8w16);
                                        meta.tmp16_2 = (bit<16>) ((meta.tmp32_3 >> 8w16) + meta.tmp32_3);
                                        meta.tmp16_2 = (meta.tmp16_2 == 16w0xffff) ? 16w0xffff : (meta.tmp16_2 ^ 16w0xffff);
                                    }
                                    meta.tmp16_2 = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                    hdr.udp.check = meta.tmp16_2;
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
                hdr.tandem.v19 = meta.tmp16_0;
                hdr.tandem.v29 = meta.tmp16_1;
                hdr.tandem.v41 = meta.tmp1_0;
                hdr.tandem.v143 = meta.tmp1_1;
                hdr.tandem.v149 = meta.tmp1_2;
                hdr.tandem.v170 = meta.tmp32_0;
                hdr.tandem.v188 = meta.tmp1_3;
                hdr.tandem.v197 = meta.tmp32_1;
                hdr.tandem.v204 = meta.tmp1_4;
                hdr.tandem.v303 = meta.tmp1_5;
                hdr.tandem.v183 = 32w0;
                hdr.tandem.pad = 2w0;
            }
        }
        if (meta.to_server == 1w0) {
            meta.tmp1_6 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
            meta.tmp1_6 = meta.tmp1_6 ^ 1w1;
            if (meta.tmp1_6 == 1w1) {
                meta.fate = 17w0;
            } else {
                meta.tmp1_6 = hdr.tcp.isValid() ? 1w1 : 1w0;
                meta.tmp1_6 = meta.tmp1_6 ^ 1w1;
                meta.tmp1_7 = hdr.udp.isValid() ? 1w1 : 1w0;
                meta.tmp1_7 = meta.tmp1_7 ^ 1w1;
                meta.tmp1_8 = meta.tmp1_6 & meta.tmp1_7;
                if (meta.tmp1_8 == 1w1) {
                    meta.fate = 17w0;
                } else {
                    if (meta.tmp1_0 == 1w1) {
                        if (meta.tmp1_1 == 1w1) {
                            meta.fate = 17w0;
                        } else {
                            if (meta.tmp1_2 == 1w1) {
                                if (meta.tmp1_7 == 1w1) {
                                    if (meta.tmp1_3 == 1w1) {
                                        meta.tmp32_0 = meta.tmp32_2;
                                        if (meta.tmp1_6 == 1w1) {
                                            meta.tmp32_0 = meta.tmp32_0;
                                        } else {
                                            meta.tmp32_0 = meta.tmp32_0;
                                            if (meta.tmp1_5 == 1w1) {
                                                meta.tmp32_0 = meta.tmp32_0;
                                            } else {
                                                meta.tmp32_0 = meta.tmp32_0;
                                            }
                                        }
                                        meta.tmp32_1 = hdr.ipv4.daddr;
                                        meta.tmp32_1 = ((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24];
                                        meta.tmp32_2 = ((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24];
                                        hdr.ipv4.daddr = meta.tmp32_2;
                                        meta.tmp16_0 = hdr.ipv4.check;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                        meta.tmp32_2 = (bit<32>) meta.tmp16_0;
                                        meta.tmp32_3 = meta.tmp32_1 & 32w0xffff;
                                        meta.tmp32_3 = meta.tmp32_3 ^ 32w0xffff;
                                        meta.tmp32_1 = meta.tmp32_1 ^ 32w0xffffffff;
                                        meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_4 = meta.tmp32_0 & 32w0xffff;
                                        meta.tmp32_0 = meta.tmp32_0 >> 8w16;
                                        meta.tmp32_0 = meta.tmp32_4 + meta.tmp32_0;
                                        meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_1;
                                        meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_3;
                                        meta.tmp32_1 = meta.tmp32_0 + meta.tmp32_2;
                                        meta.tmp32_2 = meta.tmp32_1 & 32w0xffff;
                                        meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                        meta.tmp32_2 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                        meta.tmp16_0 = (bit<16>) meta.tmp32_1;
                                        meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        hdr.ipv4.check = meta.tmp16_0;
                                        meta.tmp1_0 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
                                        if (meta.tmp1_0 == 1w0) {
                                            meta.tmp16_0 = hdr.tcp.check;
                                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                            meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                            meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                                            meta.tmp32_1 = meta.tmp32_0 + meta.tmp32_1;
                                            meta.tmp32_2 = meta.tmp32_1 & 32w0xffff;
                                            meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                            meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                            meta.tmp32_2 = meta.tmp32_1 >> 8w16;
                                            meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                            meta.tmp16_0 = (bit<16>) meta.tmp32_1;
                                            meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                            hdr.tcp.check = meta.tmp16_0;
                                        }
                                        meta.tmp1_0 = hdr.udp.isValid() ? 1w1 : 1w0;
                                        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
                                        if (meta.tmp1_0 == 1w0) {
                                            meta.tmp16_0 = hdr.udp.check;
                                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                            meta.tmp1_0 = (meta.tmp16_0 == 16w0) ? 1w1 : 1w0;
                                            if (meta.tmp1_0 == 1w1) {
                                                meta.tmp16_0 = 16w0;
                                            } else {
                                                meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                                meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                                                meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_1;
                                                meta.tmp32_1 = meta.tmp32_0 & 32w0xffff;
                                                meta.tmp32_0 = meta.tmp32_0 >> 8w16;
                                                meta.tmp32_0 = meta.tmp32_1 + meta.tmp32_0;
                                                meta.tmp32_1 = meta.tmp32_0 >> 8w16;
                                                meta.tmp32_0 = meta.tmp32_1 + meta.tmp32_0;
                                                meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                meta.tmp16_1 = meta.tmp16_0 ^ 16w0xffff;
                                                meta.tmp1_0 = (meta.tmp16_0 == 16w0xffff) ? 1w1 : 1w0;
                                                meta.tmp16_0 = (meta.tmp1_0 == 1w1) ? 16w0xffff : meta.tmp16_1;
                                                meta.tmp16_0 = meta.tmp16_0;
                                            }
                                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                            hdr.udp.check = meta.tmp16_0;
                                        }
                                        backend_port_3.read(meta.tmp32_0, 32w0);
                                        meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                        meta.fate = 1w1 ++ meta.tmp16_0;
                                    } else {
                                        meta.tmp32_0 = meta.tmp32_2;
                                        if (meta.tmp1_4 == 1w1) {
                                            meta.tmp32_0 = meta.tmp32_0;
                                        } else {
                                            meta.tmp32_0 = meta.tmp32_0;
                                        }
                                        meta.tmp32_1 = hdr.ipv4.daddr;
                                        meta.tmp32_1 = ((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24];
                                        meta.tmp32_2 = ((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24];
                                        hdr.ipv4.daddr = meta.tmp32_2;
                                        meta.tmp16_0 = hdr.ipv4.check;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                        meta.tmp32_2 = (bit<32>) meta.tmp16_0;
                                        meta.tmp32_3 = meta.tmp32_1 & 32w0xffff;
                                        meta.tmp32_3 = meta.tmp32_3 ^ 32w0xffff;
                                        meta.tmp32_1 = meta.tmp32_1 ^ 32w0xffffffff;
                                        meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_4 = meta.tmp32_0 & 32w0xffff;
                                        meta.tmp32_0 = meta.tmp32_0 >> 8w16;
                                        meta.tmp32_0 = meta.tmp32_4 + meta.tmp32_0;
                                        meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_1;
                                        meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_3;
                                        meta.tmp32_1 = meta.tmp32_0 + meta.tmp32_2;
                                        meta.tmp32_2 = meta.tmp32_1 & 32w0xffff;
                                        meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                        meta.tmp32_2 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                        meta.tmp16_0 = (bit<16>) meta.tmp32_1;
                                        meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        hdr.ipv4.check = meta.tmp16_0;
                                        meta.tmp1_0 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
                                        if (meta.tmp1_0 == 1w0) {
                                            meta.tmp16_0 = hdr.tcp.check;
                                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                            meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                            meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                                            meta.tmp32_1 = meta.tmp32_0 + meta.tmp32_1;
                                            meta.tmp32_2 = meta.tmp32_1 & 32w0xffff;
                                            meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                            meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                            meta.tmp32_2 = meta.tmp32_1 >> 8w16;
                                            meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                            meta.tmp16_0 = (bit<16>) meta.tmp32_1;
                                            meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                            hdr.tcp.check = meta.tmp16_0;
                                        }
                                        meta.tmp1_0 = hdr.udp.isValid() ? 1w1 : 1w0;
                                        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
                                        if (meta.tmp1_0 == 1w0) {
                                            meta.tmp16_0 = hdr.udp.check;
                                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                            meta.tmp1_0 = (meta.tmp16_0 == 16w0) ? 1w1 : 1w0;
                                            if (meta.tmp1_0 == 1w1) {
                                                meta.tmp16_0 = 16w0;
                                            } else {
                                                meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                                meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                                                meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_1;
                                                meta.tmp32_1 = meta.tmp32_0 & 32w0xffff;
                                                meta.tmp32_0 = meta.tmp32_0 >> 8w16;
                                                meta.tmp32_0 = meta.tmp32_1 + meta.tmp32_0;
                                                meta.tmp32_1 = meta.tmp32_0 >> 8w16;
                                                meta.tmp32_0 = meta.tmp32_1 + meta.tmp32_0;
                                                meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                                meta.tmp16_1 = meta.tmp16_0 ^ 16w0xffff;
                                                meta.tmp1_0 = (meta.tmp16_0 == 16w0xffff) ? 1w1 : 1w0;
                                                meta.tmp16_0 = (meta.tmp1_0 == 1w1) ? 16w0xffff : meta.tmp16_1;
                                                meta.tmp16_0 = meta.tmp16_0;
                                            }
                                            meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                            hdr.udp.check = meta.tmp16_0;
                                        }
                                        backend_port_2.read(meta.tmp32_0, 32w0);
                                        meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                        meta.fate = 1w1 ++ meta.tmp16_0;
                                    }
                                } else {
                                    meta.tmp32_0 = meta.tmp32_2;
                                    if (meta.tmp1_6 == 1w1) {
                                        meta.tmp32_0 = meta.tmp32_0;
                                    } else {
                                        meta.tmp32_0 = meta.tmp32_0;
                                        if (meta.tmp1_5 == 1w1) {
                                            meta.tmp32_0 = meta.tmp32_0;
                                        } else {
                                            meta.tmp32_0 = meta.tmp32_0;
                                        }
                                    }
                                    meta.tmp32_1 = hdr.ipv4.daddr;
                                    meta.tmp32_1 = ((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24];
                                    meta.tmp32_2 = ((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24];
                                    hdr.ipv4.daddr = meta.tmp32_2;
                                    meta.tmp16_0 = hdr.ipv4.check;
                                    meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                    meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                    meta.tmp32_2 = (bit<32>) meta.tmp16_0;
                                    meta.tmp32_3 = meta.tmp32_1 & 32w0xffff;
                                    meta.tmp32_3 = meta.tmp32_3 ^ 32w0xffff;
                                    meta.tmp32_1 = meta.tmp32_1 ^ 32w0xffffffff;
                                    meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                    meta.tmp32_4 = meta.tmp32_0 & 32w0xffff;
                                    meta.tmp32_0 = meta.tmp32_0 >> 8w16;
                                    meta.tmp32_0 = meta.tmp32_4 + meta.tmp32_0;
                                    meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_1;
                                    meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_3;
                                    meta.tmp32_1 = meta.tmp32_0 + meta.tmp32_2;
                                    meta.tmp32_2 = meta.tmp32_1 & 32w0xffff;
                                    meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                    meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                    meta.tmp32_2 = meta.tmp32_1 >> 8w16;
                                    meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                    meta.tmp16_0 = (bit<16>) meta.tmp32_1;
                                    meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                    meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                    hdr.ipv4.check = meta.tmp16_0;
                                    meta.tmp1_0 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                    meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
                                    if (meta.tmp1_0 == 1w0) {
                                        meta.tmp16_0 = hdr.tcp.check;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                        meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                                        meta.tmp32_1 = meta.tmp32_0 + meta.tmp32_1;
                                        meta.tmp32_2 = meta.tmp32_1 & 32w0xffff;
                                        meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                        meta.tmp32_2 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                        meta.tmp16_0 = (bit<16>) meta.tmp32_1;
                                        meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        hdr.tcp.check = meta.tmp16_0;
                                    }
                                    meta.tmp1_0 = hdr.udp.isValid() ? 1w1 : 1w0;
                                    meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
                                    if (meta.tmp1_0 == 1w0) {
                                        meta.tmp16_0 = hdr.udp.check;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        meta.tmp1_0 = (meta.tmp16_0 == 16w0) ? 1w1 : 1w0;
                                        if (meta.tmp1_0 == 1w1) {
                                            meta.tmp16_0 = 16w0;
                                        } else {
                                            meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                            meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                                            meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_1;
                                            meta.tmp32_1 = meta.tmp32_0 & 32w0xffff;
                                            meta.tmp32_0 = meta.tmp32_0 >> 8w16;
                                            meta.tmp32_0 = meta.tmp32_1 + meta.tmp32_0;
                                            meta.tmp32_1 = meta.tmp32_0 >> 8w16;
                                            meta.tmp32_0 = meta.tmp32_1 + meta.tmp32_0;
                                            meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                            meta.tmp16_1 = meta.tmp16_0 ^ 16w0xffff;
                                            meta.tmp1_0 = (meta.tmp16_0 == 16w0xffff) ? 1w1 : 1w0;
                                            meta.tmp16_0 = (meta.tmp1_0 == 1w1) ? 16w0xffff : meta.tmp16_1;
                                            meta.tmp16_0 = meta.tmp16_0;
                                        }
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        hdr.udp.check = meta.tmp16_0;
                                    }
                                    backend_port_3.read(meta.tmp32_0, 32w0);
                                    meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                    meta.fate = 1w1 ++ meta.tmp16_0;
                                }
                            } else {
                                if (meta.tmp1_6 == 1w1) {
                                    backend_port_1.read(meta.tmp32_0, 32w0);
                                    meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                                } else {
                                    meta.tmp32_0 = meta.tmp32_1;
                                    if (meta.tmp1_4 == 1w1) {
                                        meta.tmp32_0 = meta.tmp32_0;
                                    } else {
                                        meta.tmp32_0 = meta.tmp32_0;
                                    }
                                    meta.tmp32_1 = hdr.ipv4.daddr;
                                    meta.tmp32_1 = ((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24];
                                    meta.tmp32_2 = ((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24];
                                    hdr.ipv4.daddr = meta.tmp32_2;
                                    meta.tmp16_0 = hdr.ipv4.check;
                                    meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                    meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                    meta.tmp32_2 = (bit<32>) meta.tmp16_0;
                                    meta.tmp32_3 = meta.tmp32_1 & 32w0xffff;
                                    meta.tmp32_3 = meta.tmp32_3 ^ 32w0xffff;
                                    meta.tmp32_1 = meta.tmp32_1 ^ 32w0xffffffff;
                                    meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                    meta.tmp32_4 = meta.tmp32_0 & 32w0xffff;
                                    meta.tmp32_0 = meta.tmp32_0 >> 8w16;
                                    meta.tmp32_0 = meta.tmp32_4 + meta.tmp32_0;
                                    meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_1;
                                    meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_3;
                                    meta.tmp32_1 = meta.tmp32_0 + meta.tmp32_2;
                                    meta.tmp32_2 = meta.tmp32_1 & 32w0xffff;
                                    meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                    meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                    meta.tmp32_2 = meta.tmp32_1 >> 8w16;
                                    meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                    meta.tmp16_0 = (bit<16>) meta.tmp32_1;
                                    meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                    meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                    hdr.ipv4.check = meta.tmp16_0;
                                    meta.tmp1_0 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                    meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
                                    if (meta.tmp1_0 == 1w0) {
                                        meta.tmp16_0 = hdr.tcp.check;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                        meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                                        meta.tmp32_1 = meta.tmp32_0 + meta.tmp32_1;
                                        meta.tmp32_2 = meta.tmp32_1 & 32w0xffff;
                                        meta.tmp32_1 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                        meta.tmp32_2 = meta.tmp32_1 >> 8w16;
                                        meta.tmp32_1 = meta.tmp32_2 + meta.tmp32_1;
                                        meta.tmp16_0 = (bit<16>) meta.tmp32_1;
                                        meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        hdr.tcp.check = meta.tmp16_0;
                                    }
                                    meta.tmp1_0 = hdr.udp.isValid() ? 1w1 : 1w0;
                                    meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
                                    if (meta.tmp1_0 == 1w0) {
                                        meta.tmp16_0 = hdr.udp.check;
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        meta.tmp1_0 = (meta.tmp16_0 == 16w0) ? 1w1 : 1w0;
                                        if (meta.tmp1_0 == 1w1) {
                                            meta.tmp16_0 = 16w0;
                                        } else {
                                            meta.tmp16_0 = meta.tmp16_0 ^ 16w0xffff;
                                            meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                                            meta.tmp32_0 = meta.tmp32_0 + meta.tmp32_1;
                                            meta.tmp32_1 = meta.tmp32_0 & 32w0xffff;
                                            meta.tmp32_0 = meta.tmp32_0 >> 8w16;
                                            meta.tmp32_0 = meta.tmp32_1 + meta.tmp32_0;
                                            meta.tmp32_1 = meta.tmp32_0 >> 8w16;
                                            meta.tmp32_0 = meta.tmp32_1 + meta.tmp32_0;
                                            meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                            meta.tmp16_1 = meta.tmp16_0 ^ 16w0xffff;
                                            meta.tmp1_0 = (meta.tmp16_0 == 16w0xffff) ? 1w1 : 1w0;
                                            meta.tmp16_0 = (meta.tmp1_0 == 1w1) ? 16w0xffff : meta.tmp16_1;
                                            meta.tmp16_0 = meta.tmp16_0;
                                        }
                                        meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                        hdr.udp.check = meta.tmp16_0;
                                    }
                                    backend_port_2.read(meta.tmp32_0, 32w0);
                                    meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                                    meta.fate = 1w1 ++ meta.tmp16_0;
                                }
                            }
                        }
                    } else {
                        if (meta.tmp1_9 == 1w1) {
                            if (meta.tmp1_10 == 1w1) {
                                meta.fate = 17w0;
                            } else {
                                client_port_1.read(meta.tmp32_0, 32w0);
                                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                            }
                        } else {
                            meta.fate = 17w0;
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
