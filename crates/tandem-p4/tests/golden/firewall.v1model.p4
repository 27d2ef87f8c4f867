#include <core.p4>
#include <v1model.p4>

const bit<9> TANDEM_SERVER_PORT = 9w64;

const bit<16> TANDEM_ETHERTYPE = 16w0x88b5;

header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> ethertype;
}

header ipv4_t {
    bit<8> version_ihl;
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

struct headers_t {
    eth_t eth;
    ipv4_t ipv4;
    tcp_t tcp;
    udp_t udp;
}

struct meta_t {
    bit<1> to_server;
    bit<17> fate;
    bit<16> in_port;
    bit<16> pkt_len;
    bit<64> now;
    bit<32> rules_0_k0;
    bit<32> rules_0_k4;
    bit<16> rules_0_k8;
    bit<16> rules_0_k10;
    bit<8> rules_0_k12;
    bit<8> rules_0_k13;
    bit<8> rules_0_k14;
    bit<8> rules_0_k15;
    bit<1> v50;
    bit<32> v51;
    bit<32> rules_1_k0;
    bit<32> rules_1_k4;
    bit<16> rules_1_k8;
    bit<16> rules_1_k10;
    bit<8> rules_1_k12;
    bit<8> rules_1_k13;
    bit<8> rules_1_k14;
    bit<8> rules_1_k15;
    bit<1> v65;
    bit<32> v66;
    bit<32> rules_2_k0;
    bit<32> rules_2_k4;
    bit<16> rules_2_k8;
    bit<16> rules_2_k10;
    bit<8> rules_2_k12;
    bit<8> rules_2_k13;
    bit<8> rules_2_k14;
    bit<8> rules_2_k15;
    bit<1> v79;
    bit<32> v80;
    bit<32> rules_3_k0;
    bit<32> rules_3_k4;
    bit<16> rules_3_k8;
    bit<16> rules_3_k10;
    bit<8> rules_3_k12;
    bit<8> rules_3_k13;
    bit<8> rules_3_k14;
    bit<8> rules_3_k15;
    bit<1> v92;
    bit<32> v93;
    bit<32> rules_4_k0;
    bit<32> rules_4_k4;
    bit<16> rules_4_k8;
    bit<16> rules_4_k10;
    bit<8> rules_4_k12;
    bit<8> rules_4_k13;
    bit<8> rules_4_k14;
    bit<8> rules_4_k15;
    bit<1> v113;
    bit<32> v114;
    bit<32> rules_5_k0;
    bit<32> rules_5_k4;
    bit<16> rules_5_k8;
    bit<16> rules_5_k10;
    bit<8> rules_5_k12;
    bit<8> rules_5_k13;
    bit<8> rules_5_k14;
    bit<8> rules_5_k15;
    bit<1> v128;
    bit<32> v129;
    bit<32> rules_6_k0;
    bit<32> rules_6_k4;
    bit<16> rules_6_k8;
    bit<16> rules_6_k10;
    bit<8> rules_6_k12;
    bit<8> rules_6_k13;
    bit<8> rules_6_k14;
    bit<8> rules_6_k15;
    bit<1> v142;
    bit<32> v143;
    bit<32> rules_7_k0;
    bit<32> rules_7_k4;
    bit<16> rules_7_k8;
    bit<16> rules_7_k10;
    bit<8> rules_7_k12;
    bit<8> rules_7_k13;
    bit<8> rules_7_k14;
    bit<8> rules_7_k15;
    bit<1> v155;
    bit<32> v156;
    bit<1> v0;
    bit<1> v2;
    bit<1> pre_block38;
    bit<1> pre_block1;
    bit<1> v3;
    bit<1> v5;
    bit<1> v6;
    bit<1> v8;
    bit<1> v9;
    bit<1> pre_block37;
    bit<1> pre_block2;
    bit<8> v12;
    bit<16> v13;
    bit<16> v14;
    bit<16> v15;
    bit<16> v16;
    bit<1> v18;
    bit<16> v19;
    bit<8> v22;
    bit<16> v23;
    bit<16> v24;
    bit<16> v25;
    bit<16> v26;
    bit<1> v28;
    bit<16> v29;
    bit<16> v30;
    bit<32> v31;
    bit<1> v33;
    bit<1> pre_block36;
    bit<1> pre_block3;
    bit<32> v34;
    bit<32> v35;
    bit<32> v36;
    bit<32> v37;
    bit<8> v38;
    bit<32> v39;
    bit<32> v41;
    bit<1> v43;
    bit<1> pre_block6;
    bit<1> pre_block4;
    bit<1> v53;
    bit<1> pre_block5;
    bit<1> pre_block33;
    bit<32> v54;
    bit<32> v55;
    bit<1> pre_block7;
    bit<32> v57;
    bit<1> v59;
    bit<1> pre_block10;
    bit<1> pre_block8;
    bit<1> v68;
    bit<1> pre_block9;
    bit<32> v69;
    bit<32> v70;
    bit<1> pre_block11;
    bit<32> v72;
    bit<1> v74;
    bit<1> pre_block14;
    bit<1> pre_block12;
    bit<1> v82;
    bit<1> pre_block13;
    bit<32> v83;
    bit<32> v84;
    bit<1> pre_block15;
    bit<32> v86;
    bit<1> v88;
    bit<1> pre_block18;
    bit<1> pre_block16;
    bit<1> v95;
    bit<1> pre_block17;
    bit<32> v96;
    bit<32> v97;
    bit<1> pre_block19;
    bit<8> v102;
    bit<32> v104;
    bit<1> v106;
    bit<1> pre_block22;
    bit<1> pre_block20;
    bit<1> v116;
    bit<1> pre_block21;
    bit<32> v117;
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
    bit<32> v98;
    bit<32> v99;
    bit<32> v100;
    bit<32> v101;
    bit<1> post_block22;
    bit<1> post_block20;
    bit<1> post_block21;
    bit<32> v118;
    bit<1> post_block23;
    bit<32> v120;
    bit<1> v122;
    bit<1> post_block26;
    bit<1> post_block24;
    bit<1> v131;
    bit<1> post_block25;
    bit<32> v132;
    bit<32> v133;
    bit<1> post_block27;
    bit<32> v135;
    bit<1> v137;
    bit<1> post_block30;
    bit<1> post_block28;
    bit<1> v145;
    bit<1> post_block29;
    bit<32> v146;
    bit<32> v147;
    bit<1> post_block31;
    bit<32> v149;
    bit<1> v151;
    bit<1> post_block34;
    bit<1> post_block32;
    bit<1> v158;
    bit<1> post_block35;
    bit<32> v160;
    bit<16> v161;
    bit<1> post_block39;
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
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.version_ihl, hdr.ipv4.protocol) {
            (8w69, 8w6): parse_tcp;
            (8w69, 8w17): parse_udp;
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
        meta.v50 = 1w1;
        meta.v51 = v0;
    }
    action rules_0_miss() {
        meta.v50 = 1w0;
        meta.v51 = 32w0;
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
        meta.v65 = 1w1;
        meta.v66 = v0;
    }
    action rules_1_miss() {
        meta.v65 = 1w0;
        meta.v66 = 32w0;
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
        meta.v79 = 1w1;
        meta.v80 = v0;
    }
    action rules_2_miss() {
        meta.v79 = 1w0;
        meta.v80 = 32w0;
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
        meta.v92 = 1w1;
        meta.v93 = v0;
    }
    action rules_3_miss() {
        meta.v92 = 1w0;
        meta.v93 = 32w0;
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
        meta.v113 = 1w1;
        meta.v114 = v0;
    }
    action rules_4_miss() {
        meta.v113 = 1w0;
        meta.v114 = 32w0;
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
        meta.v128 = 1w1;
        meta.v129 = v0;
    }
    action rules_5_miss() {
        meta.v128 = 1w0;
        meta.v129 = 32w0;
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
        meta.v142 = 1w1;
        meta.v143 = v0;
    }
    action rules_6_miss() {
        meta.v142 = 1w0;
        meta.v143 = 32w0;
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
        meta.v155 = 1w1;
        meta.v156 = v0;
    }
    action rules_7_miss() {
        meta.v155 = 1w0;
        meta.v156 = 32w0;
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
    register<bit<32> >(32w1) shapes;
    apply {
        meta.now = ((bit<64>) standard_metadata.ingress_global_timestamp) * 64w0x3e8;
        meta.in_port = (bit<16>) standard_metadata.ingress_port;
        meta.pkt_len = (bit<16>) standard_metadata.packet_length;
        meta.v0 = hdr.ipv4.isValid() ? 1w1 : 1w0;
        meta.v2 = meta.v0 ^ 1w1;
        if (meta.v2 == 1w1) {
            meta.pre_block38 = 1w1;
        } else {
            meta.pre_block1 = 1w1;
        }
        if (meta.pre_block1 == 1w1) {
            meta.v3 = hdr.tcp.isValid() ? 1w1 : 1w0;
            meta.v5 = meta.v3 ^ 1w1;
            meta.v6 = hdr.udp.isValid() ? 1w1 : 1w0;
            meta.v8 = meta.v6 ^ 1w1;
            meta.v9 = meta.v5 & meta.v8;
            if (meta.v9 == 1w1) {
                meta.pre_block37 = 1w1;
            } else {
                meta.pre_block2 = 1w1;
            }
        }
        if (meta.pre_block2 == 1w1) {
            meta.v12 = (meta.v5 == 1w1) ? 8w0 : 8w1;
            meta.v13 = hdr.udp.sport;
            meta.v14 = meta.v13[7:0] ++ meta.v13[15:8];
            meta.v15 = hdr.tcp.sport;
            meta.v16 = meta.v15[7:0] ++ meta.v15[15:8];
            meta.v18 = (meta.v12 == 8w1) ? 1w1 : 1w0;
            meta.v19 = (meta.v18 == 1w1) ? meta.v16 : meta.v14;
            meta.v22 = (meta.v5 == 1w1) ? 8w0 : 8w1;
            meta.v23 = hdr.udp.dport;
            meta.v24 = meta.v23[7:0] ++ meta.v23[15:8];
            meta.v25 = hdr.tcp.dport;
            meta.v26 = meta.v25[7:0] ++ meta.v25[15:8];
            meta.v28 = (meta.v22 == 8w1) ? 1w1 : 1w0;
            meta.v29 = (meta.v28 == 1w1) ? meta.v26 : meta.v24;
            meta.v30 = meta.in_port;
            meta.v31 = (bit<32>) meta.v30;
            meta.v33 = (meta.v31 > 32w1) ? 1w1 : 1w0;
            if (meta.v33 == 1w1) {
                meta.pre_block36 = 1w1;
            } else {
                meta.pre_block3 = 1w1;
            }
        }
        if (meta.pre_block3 == 1w1) {
            meta.v34 = hdr.ipv4.saddr;
            meta.v35 = ((meta.v34[7:0] ++ meta.v34[15:8]) ++ meta.v34[23:16]) ++ meta.v34[31:24];
            meta.v36 = hdr.ipv4.daddr;
            meta.v37 = ((meta.v36[7:0] ++ meta.v36[15:8]) ++ meta.v36[23:16]) ++ meta.v36[31:24];
            meta.v38 = hdr.ipv4.protocol;
            shapes.read(meta.v39, 32w0);
            meta.v41 = meta.v39 & 32w1;
            meta.v43 = (meta.v41 == 32w0) ? 1w1 : 1w0;
            if (meta.v43 == 1w1) {
                meta.pre_block6 = 1w1;
            } else {
                meta.pre_block4 = 1w1;
            }
        }
        if (meta.pre_block4 == 1w1) {
            meta.rules_0_k0 = 32w0;
            meta.rules_0_k4 = 32w0;
            meta.rules_0_k8 = 16w0;
            meta.rules_0_k10 = meta.v29;
            meta.rules_0_k12 = meta.v38;
            meta.rules_0_k13 = 8w0;
            meta.rules_0_k14 = 8w0;
            meta.rules_0_k15 = 8w0;
            rules_0.apply();
            meta.v53 = meta.v50 ^ 1w1;
            if (meta.v53 == 1w1) {
                meta.pre_block5 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block5 == 1w1) {
            shapes.read(meta.v54, 32w0);
            meta.v55 = meta.v54;
            meta.pre_block7 = 1w1;
        }
        if (meta.pre_block6 == 1w1) {
            meta.v55 = meta.v39;
            meta.pre_block7 = 1w1;
        }
        if (meta.pre_block7 == 1w1) {
            meta.v57 = meta.v55 & 32w2;
            meta.v59 = (meta.v57 == 32w0) ? 1w1 : 1w0;
            if (meta.v59 == 1w1) {
                meta.pre_block10 = 1w1;
            } else {
                meta.pre_block8 = 1w1;
            }
        }
        if (meta.pre_block8 == 1w1) {
            meta.rules_1_k0 = 32w0;
            meta.rules_1_k4 = meta.v37;
            meta.rules_1_k8 = 16w0;
            meta.rules_1_k10 = meta.v29;
            meta.rules_1_k12 = meta.v38;
            meta.rules_1_k13 = 8w1;
            meta.rules_1_k14 = 8w0;
            meta.rules_1_k15 = 8w0;
            rules_1.apply();
            meta.v68 = meta.v65 ^ 1w1;
            if (meta.v68 == 1w1) {
                meta.pre_block9 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block9 == 1w1) {
            shapes.read(meta.v69, 32w0);
            meta.v70 = meta.v69;
            meta.pre_block11 = 1w1;
        }
        if (meta.pre_block10 == 1w1) {
            meta.v70 = meta.v55;
            meta.pre_block11 = 1w1;
        }
        if (meta.pre_block11 == 1w1) {
            meta.v72 = meta.v70 & 32w4;
            meta.v74 = (meta.v72 == 32w0) ? 1w1 : 1w0;
            if (meta.v74 == 1w1) {
                meta.pre_block14 = 1w1;
            } else {
                meta.pre_block12 = 1w1;
            }
        }
        if (meta.pre_block12 == 1w1) {
            meta.rules_2_k0 = meta.v35;
            meta.rules_2_k4 = meta.v37;
            meta.rules_2_k8 = 16w0;
            meta.rules_2_k10 = meta.v29;
            meta.rules_2_k12 = meta.v38;
            meta.rules_2_k13 = 8w2;
            meta.rules_2_k14 = 8w0;
            meta.rules_2_k15 = 8w0;
            rules_2.apply();
            meta.v82 = meta.v79 ^ 1w1;
            if (meta.v82 == 1w1) {
                meta.pre_block13 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block13 == 1w1) {
            shapes.read(meta.v83, 32w0);
            meta.v84 = meta.v83;
            meta.pre_block15 = 1w1;
        }
        if (meta.pre_block14 == 1w1) {
            meta.v84 = meta.v70;
            meta.pre_block15 = 1w1;
        }
        if (meta.pre_block15 == 1w1) {
            meta.v86 = meta.v84 & 32w8;
            meta.v88 = (meta.v86 == 32w0) ? 1w1 : 1w0;
            if (meta.v88 == 1w1) {
                meta.pre_block18 = 1w1;
            } else {
                meta.pre_block16 = 1w1;
            }
        }
        if (meta.pre_block16 == 1w1) {
            meta.rules_3_k0 = meta.v35;
            meta.rules_3_k4 = meta.v37;
            meta.rules_3_k8 = meta.v19;
            meta.rules_3_k10 = meta.v29;
            meta.rules_3_k12 = meta.v38;
            meta.rules_3_k13 = 8w3;
            meta.rules_3_k14 = 8w0;
            meta.rules_3_k15 = 8w0;
            rules_3.apply();
            meta.v95 = meta.v92 ^ 1w1;
            if (meta.v95 == 1w1) {
                meta.pre_block17 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block17 == 1w1) {
            shapes.read(meta.v96, 32w0);
            meta.v97 = meta.v96;
            meta.pre_block19 = 1w1;
        }
        if (meta.pre_block18 == 1w1) {
            meta.v97 = meta.v84;
            meta.pre_block19 = 1w1;
        }
        if (meta.pre_block19 == 1w1) {
            meta.v102 = hdr.ipv4.protocol;
            meta.v104 = meta.v97 & 32w1;
            meta.v106 = (meta.v104 == 32w0) ? 1w1 : 1w0;
            if (meta.v106 == 1w1) {
                meta.pre_block22 = 1w1;
            } else {
                meta.pre_block20 = 1w1;
            }
        }
        if (meta.pre_block20 == 1w1) {
            meta.rules_4_k0 = 32w0;
            meta.rules_4_k4 = 32w0;
            meta.rules_4_k8 = 16w0;
            meta.rules_4_k10 = meta.v19;
            meta.rules_4_k12 = meta.v102;
            meta.rules_4_k13 = 8w0;
            meta.rules_4_k14 = 8w0;
            meta.rules_4_k15 = 8w0;
            rules_4.apply();
            meta.v116 = meta.v113 ^ 1w1;
            if (meta.v116 == 1w1) {
                meta.pre_block21 = 1w1;
            } else {
                meta.pre_block33 = 1w1;
            }
        }
        if (meta.pre_block21 == 1w1) {
            shapes.read(meta.v117, 32w0);
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
        meta.v0 = hdr.ipv4.isValid() ? 1w1 : 1w0;
        meta.v2 = meta.v0 ^ 1w1;
        if (meta.v2 == 1w1) {
            meta.post_block38 = 1w1;
        } else {
            meta.post_block1 = 1w1;
        }
        if (meta.post_block1 == 1w1) {
            meta.v3 = hdr.tcp.isValid() ? 1w1 : 1w0;
            meta.v5 = meta.v3 ^ 1w1;
            meta.v6 = hdr.udp.isValid() ? 1w1 : 1w0;
            meta.v8 = meta.v6 ^ 1w1;
            meta.v9 = meta.v5 & meta.v8;
            if (meta.v9 == 1w1) {
                meta.post_block37 = 1w1;
            } else {
                meta.post_block2 = 1w1;
            }
        }
        if (meta.post_block2 == 1w1) {
            if (meta.v33 == 1w1) {
                meta.post_block36 = 1w1;
            } else {
                meta.post_block3 = 1w1;
            }
        }
        if (meta.post_block3 == 1w1) {
            if (meta.v43 == 1w1) {
                meta.post_block6 = 1w1;
            } else {
                meta.post_block4 = 1w1;
            }
        }
        if (meta.post_block4 == 1w1) {
            if (meta.v53 == 1w1) {
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
            if (meta.v59 == 1w1) {
                meta.post_block10 = 1w1;
            } else {
                meta.post_block8 = 1w1;
            }
        }
        if (meta.post_block8 == 1w1) {
            if (meta.v68 == 1w1) {
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
            if (meta.v74 == 1w1) {
                meta.post_block14 = 1w1;
            } else {
                meta.post_block12 = 1w1;
            }
        }
        if (meta.post_block12 == 1w1) {
            if (meta.v82 == 1w1) {
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
            if (meta.v88 == 1w1) {
                meta.post_block18 = 1w1;
            } else {
                meta.post_block16 = 1w1;
            }
        }
        if (meta.post_block16 == 1w1) {
            if (meta.v95 == 1w1) {
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
            meta.v98 = hdr.ipv4.daddr;
            meta.v99 = ((meta.v98[7:0] ++ meta.v98[15:8]) ++ meta.v98[23:16]) ++ meta.v98[31:24];
            meta.v100 = hdr.ipv4.saddr;
            meta.v101 = ((meta.v100[7:0] ++ meta.v100[15:8]) ++ meta.v100[23:16]) ++ meta.v100[31:24];
            meta.v102 = hdr.ipv4.protocol;
            if (meta.v106 == 1w1) {
                meta.post_block22 = 1w1;
            } else {
                meta.post_block20 = 1w1;
            }
        }
        if (meta.post_block20 == 1w1) {
            if (meta.v116 == 1w1) {
                meta.post_block21 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block21 == 1w1) {
            meta.v118 = meta.v117;
            meta.post_block23 = 1w1;
        }
        if (meta.post_block22 == 1w1) {
            meta.v118 = meta.v97;
            meta.post_block23 = 1w1;
        }
        if (meta.post_block23 == 1w1) {
            meta.v120 = meta.v118 & 32w2;
            meta.v122 = (meta.v120 == 32w0) ? 1w1 : 1w0;
            if (meta.v122 == 1w1) {
                meta.post_block26 = 1w1;
            } else {
                meta.post_block24 = 1w1;
            }
        }
        if (meta.post_block24 == 1w1) {
            meta.rules_5_k0 = 32w0;
            meta.rules_5_k4 = meta.v101;
            meta.rules_5_k8 = 16w0;
            meta.rules_5_k10 = meta.v19;
            meta.rules_5_k12 = meta.v102;
            meta.rules_5_k13 = 8w1;
            meta.rules_5_k14 = 8w0;
            meta.rules_5_k15 = 8w0;
            rules_5.apply();
            meta.v131 = meta.v128 ^ 1w1;
            if (meta.v131 == 1w1) {
                meta.post_block25 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block25 == 1w1) {
            shapes.read(meta.v132, 32w0);
            meta.v133 = meta.v132;
            meta.post_block27 = 1w1;
        }
        if (meta.post_block26 == 1w1) {
            meta.v133 = meta.v118;
            meta.post_block27 = 1w1;
        }
        if (meta.post_block27 == 1w1) {
            meta.v135 = meta.v133 & 32w4;
            meta.v137 = (meta.v135 == 32w0) ? 1w1 : 1w0;
            if (meta.v137 == 1w1) {
                meta.post_block30 = 1w1;
            } else {
                meta.post_block28 = 1w1;
            }
        }
        if (meta.post_block28 == 1w1) {
            meta.rules_6_k0 = meta.v99;
            meta.rules_6_k4 = meta.v101;
            meta.rules_6_k8 = 16w0;
            meta.rules_6_k10 = meta.v19;
            meta.rules_6_k12 = meta.v102;
            meta.rules_6_k13 = 8w2;
            meta.rules_6_k14 = 8w0;
            meta.rules_6_k15 = 8w0;
            rules_6.apply();
            meta.v145 = meta.v142 ^ 1w1;
            if (meta.v145 == 1w1) {
                meta.post_block29 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block29 == 1w1) {
            shapes.read(meta.v146, 32w0);
            meta.v147 = meta.v146;
            meta.post_block31 = 1w1;
        }
        if (meta.post_block30 == 1w1) {
            meta.v147 = meta.v133;
            meta.post_block31 = 1w1;
        }
        if (meta.post_block31 == 1w1) {
            meta.v149 = meta.v147 & 32w8;
            meta.v151 = (meta.v149 == 32w0) ? 1w1 : 1w0;
            if (meta.v151 == 1w1) {
                meta.post_block34 = 1w1;
            } else {
                meta.post_block32 = 1w1;
            }
        }
        if (meta.post_block32 == 1w1) {
            meta.rules_7_k0 = meta.v99;
            meta.rules_7_k4 = meta.v101;
            meta.rules_7_k8 = meta.v29;
            meta.rules_7_k10 = meta.v19;
            meta.rules_7_k12 = meta.v102;
            meta.rules_7_k13 = 8w3;
            meta.rules_7_k14 = 8w0;
            meta.rules_7_k15 = 8w0;
            rules_7.apply();
            meta.v158 = meta.v155 ^ 1w1;
            if (meta.v158 == 1w1) {
                meta.post_block35 = 1w1;
            } else {
                meta.post_block33 = 1w1;
            }
        }
        if (meta.post_block33 == 1w1) {
            meta.v160 = 32w1 - meta.v31;
            meta.v161 = (bit<16>) meta.v160;
            meta.fate = 1w1 ++ meta.v161;
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
        packet.emit(hdr.ipv4);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
    }
}

V1Switch(TandemParser(), TandemVerifyChecksum(), TandemIngress(), TandemEgress(), TandemComputeChecksum(), TandemDeparser()) main;
