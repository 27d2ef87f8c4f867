#include <core.p4>
#include <v1model.p4>

const bit<9> TANDEM_SERVER_PORT = 9w64;

const bit<16> TANDEM_ETHERTYPE = 16w0x88b5;

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> ethertype;
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
    bit<32> rules_0_k0;
    bit<32> rules_0_k4;
    bit<16> rules_0_k8;
    bit<16> rules_0_k10;
    bit<8> rules_0_k12;
    bit<8> rules_0_k13;
    bit<8> rules_0_k14;
    bit<8> rules_0_k15;
    bit<32> rules_1_k0;
    bit<32> rules_1_k4;
    bit<16> rules_1_k8;
    bit<16> rules_1_k10;
    bit<8> rules_1_k12;
    bit<8> rules_1_k13;
    bit<8> rules_1_k14;
    bit<8> rules_1_k15;
    bit<32> rules_2_k0;
    bit<32> rules_2_k4;
    bit<16> rules_2_k8;
    bit<16> rules_2_k10;
    bit<8> rules_2_k12;
    bit<8> rules_2_k13;
    bit<8> rules_2_k14;
    bit<8> rules_2_k15;
    bit<32> rules_3_k0;
    bit<32> rules_3_k4;
    bit<16> rules_3_k8;
    bit<16> rules_3_k10;
    bit<8> rules_3_k12;
    bit<8> rules_3_k13;
    bit<8> rules_3_k14;
    bit<8> rules_3_k15;
    bit<32> rules_4_k0;
    bit<32> rules_4_k4;
    bit<16> rules_4_k8;
    bit<16> rules_4_k10;
    bit<8> rules_4_k12;
    bit<8> rules_4_k13;
    bit<8> rules_4_k14;
    bit<8> rules_4_k15;
    bit<32> rules_5_k0;
    bit<32> rules_5_k4;
    bit<16> rules_5_k8;
    bit<16> rules_5_k10;
    bit<8> rules_5_k12;
    bit<8> rules_5_k13;
    bit<8> rules_5_k14;
    bit<8> rules_5_k15;
    bit<32> rules_6_k0;
    bit<32> rules_6_k4;
    bit<16> rules_6_k8;
    bit<16> rules_6_k10;
    bit<8> rules_6_k12;
    bit<8> rules_6_k13;
    bit<8> rules_6_k14;
    bit<8> rules_6_k15;
    bit<32> rules_7_k0;
    bit<32> rules_7_k4;
    bit<16> rules_7_k8;
    bit<16> rules_7_k10;
    bit<8> rules_7_k12;
    bit<8> rules_7_k13;
    bit<8> rules_7_k14;
    bit<8> rules_7_k15;
    bit<1> pre_block38;
    bit<1> pre_block1;
    bit<1> pre_block37;
    bit<1> pre_block2;
    bit<16> in_port;
    bit<1> pre_block36;
    bit<1> pre_block3;
    bit<1> pre_block6;
    bit<1> pre_block4;
    bit<1> pre_block5;
    bit<1> pre_block33;
    bit<1> pre_block7;
    bit<1> pre_block10;
    bit<1> pre_block8;
    bit<1> pre_block9;
    bit<1> pre_block11;
    bit<1> pre_block14;
    bit<1> pre_block12;
    bit<1> pre_block13;
    bit<1> pre_block15;
    bit<1> pre_block18;
    bit<1> pre_block16;
    bit<1> pre_block17;
    bit<1> pre_block19;
    bit<1> pre_block22;
    bit<1> pre_block20;
    bit<1> pre_block21;
    bit<1> pre_block23;
    bit<1> pre_block39;
    bit<1> post_block38;
    bit<1> post_block1;
    bit<1> post_block37;
    bit<1> post_block2;
    bit<1> post_block36;
    bit<1> post_block3;
    bit<1> post_block6;
    bit<1> post_block4;
    bit<1> post_block5;
    bit<1> post_block33;
    bit<1> post_block7;
    bit<1> post_block10;
    bit<1> post_block8;
    bit<1> post_block9;
    bit<1> post_block11;
    bit<1> post_block14;
    bit<1> post_block12;
    bit<1> post_block13;
    bit<1> post_block15;
    bit<1> post_block18;
    bit<1> post_block16;
    bit<1> post_block17;
    bit<1> post_block19;
    bit<1> post_block22;
    bit<1> post_block20;
    bit<1> post_block21;
    bit<1> post_block23;
    bit<1> post_block26;
    bit<1> post_block24;
    bit<1> post_block25;
    bit<1> post_block27;
    bit<1> post_block30;
    bit<1> post_block28;
    bit<1> post_block29;
    bit<1> post_block31;
    bit<1> post_block34;
    bit<1> post_block32;
    bit<1> post_block35;
    bit<1> post_block39;
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
    bit<8> tmp8_0;
    bit<16> tmp16_0;
    bit<16> tmp16_1;
    bit<16> tmp16_2;
    bit<16> tmp16_3;
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
            (_, 16w0x800): parse_ipv4;
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
    action rules_0_hit(bit<32> v0) {
        meta.tmp1_9 = 1w1;
        meta.tmp32_3 = v0;
    }
    action rules_0_miss() {
        meta.tmp1_9 = 1w0;
        meta.tmp32_3 = 32w0;
    }
    table rules_0 {
        key = {
            meta.rules_0_k0: exact;
            meta.rules_0_k4: exact;
            meta.rules_0_k8: exact;
            meta.rules_0_k10: exact;
            meta.rules_0_k12: exact;
            meta.rules_0_k13: exact;
            meta.rules_0_k14: exact;
            meta.rules_0_k15: exact;
        }
        actions = {
            rules_0_hit;
            rules_0_miss;
        }
        default_action = rules_0_miss();
        size = 0x1000;
    }
    action rules_1_hit(bit<32> v0) {
        meta.tmp1_11 = 1w1;
        meta.tmp32_0 = v0;
    }
    action rules_1_miss() {
        meta.tmp1_11 = 1w0;
        meta.tmp32_0 = 32w0;
    }
    table rules_1 {
        key = {
            meta.rules_1_k0: exact;
            meta.rules_1_k4: exact;
            meta.rules_1_k8: exact;
            meta.rules_1_k10: exact;
            meta.rules_1_k12: exact;
            meta.rules_1_k13: exact;
            meta.rules_1_k14: exact;
            meta.rules_1_k15: exact;
        }
        actions = {
            rules_1_hit;
            rules_1_miss;
        }
        default_action = rules_1_miss();
        size = 0x1000;
    }
    action rules_2_hit(bit<32> v0) {
        meta.tmp1_13 = 1w1;
        meta.tmp32_0 = v0;
    }
    action rules_2_miss() {
        meta.tmp1_13 = 1w0;
        meta.tmp32_0 = 32w0;
    }
    table rules_2 {
        key = {
            meta.rules_2_k0: exact;
            meta.rules_2_k4: exact;
            meta.rules_2_k8: exact;
            meta.rules_2_k10: exact;
            meta.rules_2_k12: exact;
            meta.rules_2_k13: exact;
            meta.rules_2_k14: exact;
            meta.rules_2_k15: exact;
        }
        actions = {
            rules_2_hit;
            rules_2_miss;
        }
        default_action = rules_2_miss();
        size = 0x1000;
    }
    action rules_3_hit(bit<32> v0) {
        meta.tmp1_15 = 1w1;
        meta.tmp32_0 = v0;
    }
    action rules_3_miss() {
        meta.tmp1_15 = 1w0;
        meta.tmp32_0 = 32w0;
    }
    table rules_3 {
        key = {
            meta.rules_3_k0: exact;
            meta.rules_3_k4: exact;
            meta.rules_3_k8: exact;
            meta.rules_3_k10: exact;
            meta.rules_3_k12: exact;
            meta.rules_3_k13: exact;
            meta.rules_3_k14: exact;
            meta.rules_3_k15: exact;
        }
        actions = {
            rules_3_hit;
            rules_3_miss;
        }
        default_action = rules_3_miss();
        size = 0x1000;
    }
    action rules_4_hit(bit<32> v0) {
        meta.tmp1_17 = 1w1;
        meta.tmp32_0 = v0;
    }
    action rules_4_miss() {
        meta.tmp1_17 = 1w0;
        meta.tmp32_0 = 32w0;
    }
    table rules_4 {
        key = {
            meta.rules_4_k0: exact;
            meta.rules_4_k4: exact;
            meta.rules_4_k8: exact;
            meta.rules_4_k10: exact;
            meta.rules_4_k12: exact;
            meta.rules_4_k13: exact;
            meta.rules_4_k14: exact;
            meta.rules_4_k15: exact;
        }
        actions = {
            rules_4_hit;
            rules_4_miss;
        }
        default_action = rules_4_miss();
        size = 0x1000;
    }
    action rules_5_hit(bit<32> v0) {
        meta.tmp1_0 = 1w1;
        meta.tmp32_0 = v0;
    }
    action rules_5_miss() {
        meta.tmp1_0 = 1w0;
        meta.tmp32_0 = 32w0;
    }
    table rules_5 {
        key = {
            meta.rules_5_k0: exact;
            meta.rules_5_k4: exact;
            meta.rules_5_k8: exact;
            meta.rules_5_k10: exact;
            meta.rules_5_k12: exact;
            meta.rules_5_k13: exact;
            meta.rules_5_k14: exact;
            meta.rules_5_k15: exact;
        }
        actions = {
            rules_5_hit;
            rules_5_miss;
        }
        default_action = rules_5_miss();
        size = 0x1000;
    }
    action rules_6_hit(bit<32> v0) {
        meta.tmp1_0 = 1w1;
        meta.tmp32_0 = v0;
    }
    action rules_6_miss() {
        meta.tmp1_0 = 1w0;
        meta.tmp32_0 = 32w0;
    }
    table rules_6 {
        key = {
            meta.rules_6_k0: exact;
            meta.rules_6_k4: exact;
            meta.rules_6_k8: exact;
            meta.rules_6_k10: exact;
            meta.rules_6_k12: exact;
            meta.rules_6_k13: exact;
            meta.rules_6_k14: exact;
            meta.rules_6_k15: exact;
        }
        actions = {
            rules_6_hit;
            rules_6_miss;
        }
        default_action = rules_6_miss();
        size = 0x1000;
    }
    action rules_7_hit(bit<32> v0) {
        meta.tmp1_0 = 1w1;
        meta.tmp32_0 = v0;
    }
    action rules_7_miss() {
        meta.tmp1_0 = 1w0;
        meta.tmp32_0 = 32w0;
    }
    table rules_7 {
        key = {
            meta.rules_7_k0: exact;
            meta.rules_7_k4: exact;
            meta.rules_7_k8: exact;
            meta.rules_7_k10: exact;
            meta.rules_7_k12: exact;
            meta.rules_7_k13: exact;
            meta.rules_7_k14: exact;
            meta.rules_7_k15: exact;
        }
        actions = {
            rules_7_hit;
            rules_7_miss;
        }
        default_action = rules_7_miss();
        size = 0x1000;
    }
    register<bit<32> >(32w1) shapes_0;
    register<bit<32> >(32w1) shapes_1;
    register<bit<32> >(32w1) shapes_2;
    register<bit<32> >(32w1) shapes_3;
    register<bit<32> >(32w1) shapes_4;
    register<bit<32> >(32w1) shapes_5;
    register<bit<32> >(32w1) shapes_6;
    register<bit<32> >(32w1) shapes_7;
    apply {
        meta.in_port = (bit<16>) standard_metadata.ingress_port;
        meta.tmp1_0 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
        meta.tmp1_1 = meta.tmp1_0 ^ 1w1;
        if (meta.tmp1_1 == 1w1) {
            meta.pre_block38 = 1w1;
        } else {
            meta.pre_block1 = 1w1;
        }
        if (meta.pre_block1 == 1w1) {
            meta.tmp1_2 = hdr.tcp.isValid() ? 1w1 : 1w0;
            meta.tmp1_3 = meta.tmp1_2 ^ 1w1;
            meta.tmp1_4 = hdr.udp.isValid() ? 1w1 : 1w0;
            meta.tmp1_5 = meta.tmp1_4 ^ 1w1;
            meta.tmp1_6 = meta.tmp1_3 & meta.tmp1_5;
            if (meta.tmp1_6 == 1w1) {
                meta.pre_block37 = 1w1;
            } else {
                meta.pre_block2 = 1w1;
            }
        }
        if (meta.pre_block2 == 1w1) {
            meta.tmp8_0 = (meta.tmp1_3 == 1w1) ? 8w0 : 8w1;
            meta.tmp16_0 = hdr.udp.sport;
            meta.tmp16_1 = hdr.tcp.sport;
            meta.tmp16_2 = (meta.tmp8_0 == 8w1) ? (meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8]) : (meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8]);
            meta.tmp8_0 = (meta.tmp1_3 == 1w1) ? 8w0 : 8w1;
            meta.tmp16_0 = hdr.udp.dport;
            meta.tmp16_1 = hdr.tcp.dport;
            meta.tmp16_3 = (meta.tmp8_0 == 8w1) ? (meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8]) : (meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8]);
            meta.tmp16_0 = meta.in_port;
            meta.tmp1_7 = (meta.tmp16_0 > 16w1) ? 1w1 : 1w0;
            if (meta.tmp1_7 == 1w1) {
                meta.pre_block36 = 1w1;
            } else {
                meta.pre_block3 = 1w1;
            }
        }
        if (meta.pre_block3 == 1w1) {
            meta.tmp32_0 = hdr.ipv4.saddr;
            meta.tmp32_1 = ((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24];
            meta.tmp32_0 = hdr.ipv4.daddr;
            meta.tmp32_2 = ((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24];
            meta.tmp8_0 = hdr.ipv4.protocol;
            shapes_0.read(meta.tmp32_0, 32w0);
            meta.tmp1_8 = ((meta.tmp32_0 & 32w1) == 32w0) ? 1w1 : 1w0;
            if (meta.tmp1_8 == 1w1) {
                meta.pre_block6 = 1w1;
            } else {
                meta.pre_block4 = 1w1;
            }
        }
        if (meta.pre_block4 == 1w1) {
            meta.rules_0_k0 = 32w0;
            meta.rules_0_k4 = 32w0;
            meta.rules_0_k8 = 16w0;
            meta.rules_0_k10 = meta.tmp16_3;
            meta.rules_0_k12 = meta.tmp8_0;
            meta.rules_0_k13 = 8w0;
            meta.rules_0_k14 = 8w0;
            meta.rules_0_k15 = 8w0;
            rules_0.apply();
            meta.tmp1_10 = meta.tmp1_9 ^ 1w1;
            if (meta.tmp1_10 == 1w1) {
                meta.pre_block5 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block5 == 1w1) {
            shapes_1.read(meta.tmp32_3, 32w0);
            meta.tmp32_4 = meta.tmp32_3;
            meta.pre_block7 = 1w1;
        }
        if (meta.pre_block6 == 1w1) {
            meta.tmp32_4 = meta.tmp32_0;
            meta.pre_block7 = 1w1;
        }
        if (meta.pre_block7 == 1w1) {
            meta.tmp32_0 = meta.tmp32_4 & 32w2;
            meta.tmp1_9 = (meta.tmp32_0 == 32w0) ? 1w1 : 1w0;
            if (meta.tmp1_9 == 1w1) {
                meta.pre_block10 = 1w1;
            } else {
                meta.pre_block8 = 1w1;
            }
        }
        if (meta.pre_block8 == 1w1) {
            meta.rules_1_k0 = 32w0;
            meta.rules_1_k4 = meta.tmp32_2;
            meta.rules_1_k8 = 16w0;
            meta.rules_1_k10 = meta.tmp16_3;
            meta.rules_1_k12 = meta.tmp8_0;
            meta.rules_1_k13 = 8w1;
            meta.rules_1_k14 = 8w0;
            meta.rules_1_k15 = 8w0;
            rules_1.apply();
            meta.tmp1_12 = meta.tmp1_11 ^ 1w1;
            if (meta.tmp1_12 == 1w1) {
                meta.pre_block9 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block9 == 1w1) {
            shapes_2.read(meta.tmp32_0, 32w0);
            meta.tmp32_3 = meta.tmp32_0;
            meta.pre_block11 = 1w1;
        }
        if (meta.pre_block10 == 1w1) {
            meta.tmp32_3 = meta.tmp32_4;
            meta.pre_block11 = 1w1;
        }
        if (meta.pre_block11 == 1w1) {
            meta.tmp32_0 = meta.tmp32_3 & 32w4;
            meta.tmp1_11 = (meta.tmp32_0 == 32w0) ? 1w1 : 1w0;
            if (meta.tmp1_11 == 1w1) {
                meta.pre_block14 = 1w1;
            } else {
                meta.pre_block12 = 1w1;
            }
        }
        if (meta.pre_block12 == 1w1) {
            meta.rules_2_k0 = meta.tmp32_1;
            meta.rules_2_k4 = meta.tmp32_2;
            meta.rules_2_k8 = 16w0;
            meta.rules_2_k10 = meta.tmp16_3;
            meta.rules_2_k12 = meta.tmp8_0;
            meta.rules_2_k13 = 8w2;
            meta.rules_2_k14 = 8w0;
            meta.rules_2_k15 = 8w0;
            rules_2.apply();
            meta.tmp1_14 = meta.tmp1_13 ^ 1w1;
            if (meta.tmp1_14 == 1w1) {
                meta.pre_block13 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block13 == 1w1) {
            shapes_3.read(meta.tmp32_0, 32w0);
            meta.tmp32_4 = meta.tmp32_0;
            meta.pre_block15 = 1w1;
        }
        if (meta.pre_block14 == 1w1) {
            meta.tmp32_4 = meta.tmp32_3;
            meta.pre_block15 = 1w1;
        }
        if (meta.pre_block15 == 1w1) {
            meta.tmp32_0 = meta.tmp32_4 & 32w8;
            meta.tmp1_13 = (meta.tmp32_0 == 32w0) ? 1w1 : 1w0;
            if (meta.tmp1_13 == 1w1) {
                meta.pre_block18 = 1w1;
            } else {
                meta.pre_block16 = 1w1;
            }
        }
        if (meta.pre_block16 == 1w1) {
            meta.rules_3_k0 = meta.tmp32_1;
            meta.rules_3_k4 = meta.tmp32_2;
            meta.rules_3_k8 = meta.tmp16_2;
            meta.rules_3_k10 = meta.tmp16_3;
            meta.rules_3_k12 = meta.tmp8_0;
            meta.rules_3_k13 = 8w3;
            meta.rules_3_k14 = 8w0;
            meta.rules_3_k15 = 8w0;
            rules_3.apply();
            meta.tmp1_16 = meta.tmp1_15 ^ 1w1;
            if (meta.tmp1_16 == 1w1) {
                meta.pre_block17 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block17 == 1w1) {
            shapes_4.read(meta.tmp32_0, 32w0);
            meta.tmp32_1 = meta.tmp32_0;
            meta.pre_block19 = 1w1;
        }
        if (meta.pre_block18 == 1w1) {
            meta.tmp32_1 = meta.tmp32_4;
            meta.pre_block19 = 1w1;
        }
        if (meta.pre_block19 == 1w1) {
            meta.tmp8_0 = hdr.ipv4.protocol;
            meta.tmp32_0 = meta.tmp32_1 & 32w1;
            meta.tmp1_15 = (meta.tmp32_0 == 32w0) ? 1w1 : 1w0;
            if (meta.tmp1_15 == 1w1) {
                meta.pre_block22 = 1w1;
            } else {
                meta.pre_block20 = 1w1;
            }
        }
        if (meta.pre_block20 == 1w1) {
            meta.rules_4_k0 = 32w0;
            meta.rules_4_k4 = 32w0;
            meta.rules_4_k8 = 16w0;
            meta.rules_4_k10 = meta.tmp16_2;
            meta.rules_4_k12 = meta.tmp8_0;
            meta.rules_4_k13 = 8w0;
            meta.rules_4_k14 = 8w0;
            meta.rules_4_k15 = 8w0;
            rules_4.apply();
            meta.tmp1_18 = meta.tmp1_17 ^ 1w1;
            if (meta.tmp1_18 == 1w1) {
                meta.pre_block21 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block21 == 1w1) {
            shapes_5.read(meta.tmp32_0, 32w0);
            meta.pre_block23 = 1w1;
        }
        if (meta.pre_block22 == 1w1) {
            meta.pre_block23 = 1w1;
        }
        if (meta.pre_block23 == 1w1) {
            meta.pre_block39 = 1w1;
        }
        if (meta.pre_block33 == 1w1) {
            meta.pre_block39 = 1w1;
        }
        if (meta.pre_block36 == 1w1) {
            meta.pre_block39 = 1w1;
        }
        if (meta.pre_block37 == 1w1) {
            meta.pre_block39 = 1w1;
        }
        if (meta.pre_block38 == 1w1) {
            meta.pre_block39 = 1w1;
        }
        meta.tmp1_0 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
        meta.tmp1_1 = meta.tmp1_0 ^ 1w1;
        if (meta.tmp1_1 == 1w1) {
            meta.post_block38 = 1w1;
        } else {
            meta.post_block1 = 1w1;
        }
        if (meta.post_block1 == 1w1) {
            meta.tmp1_2 = hdr.tcp.isValid() ? 1w1 : 1w0;
            meta.tmp1_3 = meta.tmp1_2 ^ 1w1;
            meta.tmp1_4 = hdr.udp.isValid() ? 1w1 : 1w0;
            meta.tmp1_5 = meta.tmp1_4 ^ 1w1;
            meta.tmp1_6 = meta.tmp1_3 & meta.tmp1_5;
            if (meta.tmp1_6 == 1w1) {
                meta.post_block37 = 1w1;
            } else {
                meta.post_block2 = 1w1;
            }
        }
        if (meta.post_block2 == 1w1) {
            if (meta.tmp1_7 == 1w1) {
                meta.post_block36 = 1w1;
            } else {
                meta.post_block3 = 1w1;
            }
        }
        if (meta.post_block3 == 1w1) {
            if (meta.tmp1_8 == 1w1) {
                meta.post_block6 = 1w1;
            } else {
                meta.post_block4 = 1w1;
            }
        }
        if (meta.post_block4 == 1w1) {
            if (meta.tmp1_10 == 1w1) {
                meta.post_block5 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block5 == 1w1) {
            meta.post_block7 = 1w1;
        }
        if (meta.post_block6 == 1w1) {
            meta.post_block7 = 1w1;
        }
        if (meta.post_block7 == 1w1) {
            if (meta.tmp1_9 == 1w1) {
                meta.post_block10 = 1w1;
            } else {
                meta.post_block8 = 1w1;
            }
        }
        if (meta.post_block8 == 1w1) {
            if (meta.tmp1_12 == 1w1) {
                meta.post_block9 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block9 == 1w1) {
            meta.post_block11 = 1w1;
        }
        if (meta.post_block10 == 1w1) {
            meta.post_block11 = 1w1;
        }
        if (meta.post_block11 == 1w1) {
            if (meta.tmp1_11 == 1w1) {
                meta.post_block14 = 1w1;
            } else {
                meta.post_block12 = 1w1;
            }
        }
        if (meta.post_block12 == 1w1) {
            if (meta.tmp1_14 == 1w1) {
                meta.post_block13 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block13 == 1w1) {
            meta.post_block15 = 1w1;
        }
        if (meta.post_block14 == 1w1) {
            meta.post_block15 = 1w1;
        }
        if (meta.post_block15 == 1w1) {
            if (meta.tmp1_13 == 1w1) {
                meta.post_block18 = 1w1;
            } else {
                meta.post_block16 = 1w1;
            }
        }
        if (meta.post_block16 == 1w1) {
            if (meta.tmp1_16 == 1w1) {
                meta.post_block17 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block17 == 1w1) {
            meta.post_block19 = 1w1;
        }
        if (meta.post_block18 == 1w1) {
            meta.post_block19 = 1w1;
        }
        if (meta.post_block19 == 1w1) {
            meta.tmp32_2 = hdr.ipv4.daddr;
            meta.tmp32_3 = ((meta.tmp32_2[7:0] ++ meta.tmp32_2[15:8]) ++ meta.tmp32_2[23:16]) ++ meta.tmp32_2[31:24];
            meta.tmp32_2 = hdr.ipv4.saddr;
            meta.tmp32_4 = ((meta.tmp32_2[7:0] ++ meta.tmp32_2[15:8]) ++ meta.tmp32_2[23:16]) ++ meta.tmp32_2[31:24];
            meta.tmp8_0 = hdr.ipv4.protocol;
            if (meta.tmp1_15 == 1w1) {
                meta.post_block22 = 1w1;
            } else {
                meta.post_block20 = 1w1;
            }
        }
        if (meta.post_block20 == 1w1) {
            if (meta.tmp1_18 == 1w1) {
                meta.post_block21 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block21 == 1w1) {
            meta.tmp32_2 = meta.tmp32_0;
            meta.post_block23 = 1w1;
        }
        if (meta.post_block22 == 1w1) {
            meta.tmp32_2 = meta.tmp32_1;
            meta.post_block23 = 1w1;
        }
        if (meta.post_block23 == 1w1) {
            meta.tmp32_0 = meta.tmp32_2 & 32w2;
            if (meta.tmp32_0 == 32w0) {
                meta.post_block26 = 1w1;
            } else {
                meta.post_block24 = 1w1;
            }
        }
        if (meta.post_block24 == 1w1) {
            meta.rules_5_k0 = 32w0;
            meta.rules_5_k4 = meta.tmp32_4;
            meta.rules_5_k8 = 16w0;
            meta.rules_5_k10 = meta.tmp16_2;
            meta.rules_5_k12 = meta.tmp8_0;
            meta.rules_5_k13 = 8w1;
            meta.rules_5_k14 = 8w0;
            meta.rules_5_k15 = 8w0;
            rules_5.apply();
            if (meta.tmp1_0 == 1w0) {
                meta.post_block25 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block25 == 1w1) {
            shapes_6.read(meta.tmp32_0, 32w0);
            meta.tmp32_1 = meta.tmp32_0;
            meta.post_block27 = 1w1;
        }
        if (meta.post_block26 == 1w1) {
            meta.tmp32_1 = meta.tmp32_2;
            meta.post_block27 = 1w1;
        }
        if (meta.post_block27 == 1w1) {
            meta.tmp32_0 = meta.tmp32_1 & 32w4;
            if (meta.tmp32_0 == 32w0) {
                meta.post_block30 = 1w1;
            } else {
                meta.post_block28 = 1w1;
            }
        }
        if (meta.post_block28 == 1w1) {
            meta.rules_6_k0 = meta.tmp32_3;
            meta.rules_6_k4 = meta.tmp32_4;
            meta.rules_6_k8 = 16w0;
            meta.rules_6_k10 = meta.tmp16_2;
            meta.rules_6_k12 = meta.tmp8_0;
            meta.rules_6_k13 = 8w2;
            meta.rules_6_k14 = 8w0;
            meta.rules_6_k15 = 8w0;
            rules_6.apply();
            if (meta.tmp1_0 == 1w0) {
                meta.post_block29 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block29 == 1w1) {
            shapes_7.read(meta.tmp32_0, 32w0);
            meta.tmp32_2 = meta.tmp32_0;
            meta.post_block31 = 1w1;
        }
        if (meta.post_block30 == 1w1) {
            meta.tmp32_2 = meta.tmp32_1;
            meta.post_block31 = 1w1;
        }
        if (meta.post_block31 == 1w1) {
            meta.tmp32_0 = meta.tmp32_2 & 32w8;
            if (meta.tmp32_0 == 32w0) {
                meta.post_block34 = 1w1;
            } else {
                meta.post_block32 = 1w1;
            }
        }
        if (meta.post_block32 == 1w1) {
            meta.rules_7_k0 = meta.tmp32_3;
            meta.rules_7_k4 = meta.tmp32_4;
            meta.rules_7_k8 = meta.tmp16_3;
            meta.rules_7_k10 = meta.tmp16_2;
            meta.rules_7_k12 = meta.tmp8_0;
            meta.rules_7_k13 = 8w3;
            meta.rules_7_k14 = 8w0;
            meta.rules_7_k15 = 8w0;
            rules_7.apply();
            if (meta.tmp1_0 == 1w0) {
                meta.post_block35 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block33 == 1w1) {
            meta.fate = 1w1 ++ ((bit<16>) (32w1 - ((bit<32>) meta.tmp16_0)));
            meta.post_block39 = 1w1;
        }
        if (meta.post_block34 == 1w1) {
            meta.post_block35 = 1w1;
        }
        if (meta.post_block35 == 1w1) {
            meta.fate = 17w0;
            meta.post_block39 = 1w1;
        }
        if (meta.post_block36 == 1w1) {
            meta.fate = 17w0;
            meta.post_block39 = 1w1;
        }
        if (meta.post_block37 == 1w1) {
            meta.fate = 17w0;
            meta.post_block39 = 1w1;
        }
        if (meta.post_block38 == 1w1) {
            meta.fate = 17w0;
            meta.post_block39 = 1w1;
        }
        if (meta.fate[16:16] == 1w1) {
            standard_metadata.egress_spec = (bit<9>) meta.fate[15:0];
        } else {
            mark_to_drop(standard_metadata);
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
