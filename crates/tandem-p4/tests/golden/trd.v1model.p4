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
    bit<1> v7;
    bit<1> v37;
    bit<1> v42;
    bit<32> v65;
    bit<1> v67;
    bit<32> v70;
    bit<32> v71;
    bit<1> v73;
    bit<1> v105;
    bit<17> fate;
    bit<1> v76;
    bit<7> pad;
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
    bit<32> conns__class_k0;
    bit<32> conns__class_k4;
    bit<16> conns__class_k8;
    bit<16> conns__class_k10;
    bit<1> visible;
    bit<1> wb_hit;
    bit<16> in_port;
    bit<1> pre_block41;
    bit<1> pre_block42;
    bit<1> pre_block40;
    bit<1> pre_block56;
    bit<1> pre_block57;
    bit<1> pre_block62;
    bit<1> pre_block63;
    bit<1> pre_block52;
    bit<1> pre_block64;
    bit<1> pre_block65;
    bit<1> pre_block55;
    bit<1> pre_block66;
    bit<1> pre_block58;
    bit<1> pre_block47;
    bit<1> pre_block59;
    bit<1> pre_block60;
    bit<1> pre_block61;
    bit<1> pre_block43;
    bit<1> pre_block48;
    bit<1> pre_block49;
    bit<1> pre_block50;
    bit<1> pre_block51;
    bit<1> pre_block54;
    bit<1> pre_block53;
    bit<1> pre_block38;
    bit<1> pre_block44;
    bit<1> pre_block45;
    bit<1> pre_block46;
    bit<1> pre_block37;
    bit<1> pre_block39;
    bit<1> pre_block3;
    bit<1> pre_block1;
    bit<1> pre_block4;
    bit<1> pre_block2;
    bit<1> pre_block18;
    bit<1> pre_block17;
    bit<1> pre_block5;
    bit<1> pre_block7;
    bit<1> pre_block6;
    bit<1> pre_block16;
    bit<1> pre_block9;
    bit<1> pre_block8;
    bit<1> pre_block19;
    bit<1> pre_block11;
    bit<1> pre_block10;
    bit<1> pre_block15;
    bit<1> pre_block12;
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
    bit<8> tmp8_0;
    bit<8> tmp8_1;
    bit<8> tmp8_2;
    bit<16> tmp16_0;
    bit<16> tmp16_1;
    bit<16> tmp16_2;
    bit<16> tmp16_3;
    bit<16> tmp16_4;
    bit<16> tmp16_5;
    bit<32> tmp32_0;
    bit<32> tmp32_1;
    bit<32> tmp32_2;
    bit<32> tmp32_3;
    bit<32> tmp32_4;
    bit<32> tmp32_5;
    bit<32> tmp32_6;
    bit<32> tmp32_7;
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
    action conns_hit(bit<32> v0, bit<32> v4) {
        meta.tmp1_13 = 1w1;
        meta.tmp32_1 = v0;
        meta.tmp32_2 = v4;
    }
    action conns_miss() {
        meta.tmp1_13 = 1w0;
        meta.tmp32_1 = 32w0;
        meta.tmp32_2 = 32w0;
    }
    table conns {
        key = {
            meta.conns_k0: exact;
            meta.conns_k4: exact;
            meta.conns_k8: exact;
            meta.conns_k10: exact;
        }
        actions = {
            conns_hit;
            conns_miss;
        }
        default_action = conns_miss();
        size = 0x10000;
    }
    action conns_wb_hit(bit<32> v0, bit<32> v4) {
        meta.tmp1_13 = 1w1;
        meta.tmp32_1 = v0;
        meta.tmp32_2 = v4;
        meta.wb_hit = 1w1;
    }
    action conns_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_13 = 1w0;
        meta.tmp32_1 = 32w0;
        meta.tmp32_2 = 32w0;
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
        }
        actions = {
            conns_wb_hit;
            conns_wb_deleted;
            conns_wb_miss;
        }
        default_action = conns_wb_miss();
        size = 0x400;
    }
    register<bit<32> >(32w1) side_a_0;
    register<bit<32> >(32w1) side_a_1;
    register<bit<32> >(32w1) side_a_2;
    register<bit<32> >(32w1) side_b_0;
    register<bit<32> >(32w1) side_b_1;
    register<bit<32> >(32w1) side_b_2;
    action conns__class_hit(bit<8> class) {
        meta.tmp1_15 = 1w1;
        meta.tmp8_0 = class;
    }
    action conns__class_miss() {
        meta.tmp1_15 = 1w0;
        meta.tmp8_0 = 8w0;
    }
    table conns__class {
        key = {
            meta.conns__class_k0: exact;
            meta.conns__class_k4: exact;
            meta.conns__class_k8: exact;
            meta.conns__class_k10: exact;
        }
        actions = {
            conns__class_hit;
            conns__class_miss;
        }
        default_action = conns__class_miss();
        size = 0x10000;
    }
    action conns__class_wb_hit(bit<8> class) {
        meta.tmp1_15 = 1w1;
        meta.tmp8_0 = class;
        meta.wb_hit = 1w1;
    }
    action conns__class_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_15 = 1w0;
        meta.tmp8_0 = 8w0;
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
        }
        actions = {
            conns__class_wb_hit;
            conns__class_wb_deleted;
            conns__class_wb_miss;
        }
        default_action = conns__class_wb_miss();
        size = 0x400;
    }
    register<bit<1> >(32w1) tandem_visible;
    apply {
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.tmp1_0 = hdr.tandem.v3;
                meta.tmp1_1 = hdr.tandem.v7;
                meta.tmp1_2 = hdr.tandem.v37;
                meta.tmp1_3 = hdr.tandem.v42;
                meta.tmp32_0 = hdr.tandem.v65;
                meta.tmp1_4 = hdr.tandem.v67;
                meta.tmp32_1 = hdr.tandem.v70;
                meta.tmp32_2 = hdr.tandem.v71;
                meta.tmp1_5 = hdr.tandem.v73;
                meta.tmp1_6 = hdr.tandem.v105;
                meta.fate = hdr.tandem.fate;
                meta.tmp1_7 = hdr.tandem.v76;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
            } else {
                mark_to_drop(standard_metadata);
                exit;
            }
        } else {
            meta.in_port = (bit<16>) standard_metadata.ingress_port;
            meta.tmp32_3 = hdr.ipv4.saddr;
            meta.tmp32_4 = hdr.ipv4.daddr;
            meta.tmp16_0 = hdr.tcp.sport;
            meta.tmp16_1 = hdr.tcp.dport;
            meta.tmp32_5 = (bit<32>) meta.in_port;
            side_a_0.read(meta.tmp32_6, 32w0);
            meta.tmp1_8 = (meta.tmp32_5 == meta.tmp32_6) ? 1w1 : 1w0;
            meta.tmp1_9 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
            side_b_0.read(meta.tmp32_7, 32w0);
            meta.tmp1_10 = (meta.tmp32_5 == meta.tmp32_7) ? 1w1 : 1w0;
            meta.tmp1_11 = hdr.tcp.isValid() ? 1w1 : 1w0;
            meta.tmp8_0 = hdr.tcp.flags;
            meta.tmp32_5 = (bit<32>) meta.tmp8_0;
            meta.tmp1_12 = ((meta.tmp32_5 & 32w5) == 32w0) ? 1w1 : 1w0;
            meta.tmp1_13 = ((meta.tmp32_5 & 32w2) == 32w0) ? 1w1 : 1w0;
            meta.tmp8_0 = hdr.tcp.data_off;
            meta.tmp8_1 = (meta.ipv4_ok == 1w1) ? hdr.ipv4_vihl.version_ihl : 8w0;
            meta.tmp16_2 = hdr.ipv4.total_len;
            meta.tmp1_14 = (((bit<16>) (((meta.tmp8_0 >> 8w2) & 8w60) + ((meta.tmp8_1 << 8w2) & 8w60))) < meta.tmp16_2) ? 1w1 : 1w0;
            meta.conns__class_k0 = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
            meta.conns__class_k4 = ((meta.tmp32_4[7:0] ++ meta.tmp32_4[15:8]) ++ meta.tmp32_4[23:16]) ++ meta.tmp32_4[31:24];
            meta.conns__class_k8 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
            meta.conns__class_k10 = meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8];
            meta.wb_hit = 1w0;
            if (meta.visible == 1w1) {
                conns__class_wb.apply();
            }
            if (meta.wb_hit == 1w0) {
                conns__class.apply();
            }
            if (meta.tmp1_15 == 1w1) {
                meta.pre_block41 = 1w1;
            } else {
                meta.pre_block42 = 1w1;
            }
            if (meta.pre_block41 == 1w1) {
                if (meta.tmp8_0 == 8w0) {
                    meta.pre_block42 = 1w1;
                } else {
                    if (meta.tmp8_0 == 8w1) {
                        meta.pre_block56 = 1w1;
                    } else {
                        meta.pre_block40 = 1w1;
                    }
                }
            }
            if (meta.pre_block56 == 1w1) {
                if (meta.tmp1_8 == 1w1) {
                    meta.pre_block57 = 1w1;
                } else {
                    meta.pre_block62 = 1w1;
                }
            }
            if (meta.pre_block62 == 1w1) {
                if (meta.tmp1_9 == 1w1) {
                    meta.pre_block63 = 1w1;
                } else {
                    meta.pre_block52 = 1w1;
                }
            }
            if (meta.pre_block63 == 1w1) {
                if (meta.tmp1_11 == 1w1) {
                    meta.pre_block64 = 1w1;
                } else {
                    meta.pre_block52 = 1w1;
                }
            }
            if (meta.pre_block64 == 1w1) {
                if (meta.tmp1_12 == 1w1) {
                    meta.pre_block65 = 1w1;
                } else {
                    meta.pre_block55 = 1w1;
                }
            }
            if (meta.pre_block65 == 1w1) {
                if (meta.tmp1_13 == 1w1) {
                    meta.pre_block66 = 1w1;
                } else {
                    meta.pre_block55 = 1w1;
                }
            }
            if (meta.pre_block66 == 1w1) {
                if (meta.tmp1_14 == 1w1) {
                    meta.pre_block55 = 1w1;
                } else {
                    meta.pre_block52 = 1w1;
                }
            }
            if (meta.pre_block57 == 1w1) {
                if (meta.tmp1_9 == 1w1) {
                    meta.pre_block58 = 1w1;
                } else {
                    meta.pre_block47 = 1w1;
                }
            }
            if (meta.pre_block58 == 1w1) {
                if (meta.tmp1_11 == 1w1) {
                    meta.pre_block59 = 1w1;
                } else {
                    meta.pre_block47 = 1w1;
                }
            }
            if (meta.pre_block59 == 1w1) {
                if (meta.tmp1_12 == 1w1) {
                    meta.pre_block60 = 1w1;
                } else {
                    meta.pre_block40 = 1w1;
                }
            }
            if (meta.pre_block60 == 1w1) {
                if (meta.tmp1_13 == 1w1) {
                    meta.pre_block61 = 1w1;
                } else {
                    meta.pre_block40 = 1w1;
                }
            }
            if (meta.pre_block61 == 1w1) {
                if (meta.tmp1_14 == 1w1) {
                    meta.pre_block40 = 1w1;
                } else {
                    meta.pre_block47 = 1w1;
                }
            }
            if (meta.pre_block42 == 1w1) {
                if (meta.tmp1_8 == 1w1) {
                    meta.pre_block43 = 1w1;
                } else {
                    meta.pre_block48 = 1w1;
                }
            }
            if (meta.pre_block48 == 1w1) {
                if (meta.tmp1_9 == 1w1) {
                    meta.pre_block49 = 1w1;
                } else {
                    meta.pre_block52 = 1w1;
                }
            }
            if (meta.pre_block49 == 1w1) {
                if (meta.tmp1_11 == 1w1) {
                    meta.pre_block50 = 1w1;
                } else {
                    meta.pre_block52 = 1w1;
                }
            }
            if (meta.pre_block50 == 1w1) {
                if (meta.tmp1_12 == 1w1) {
                    meta.pre_block51 = 1w1;
                } else {
                    meta.pre_block55 = 1w1;
                }
            }
            if (meta.pre_block51 == 1w1) {
                if (meta.tmp1_13 == 1w1) {
                    meta.pre_block52 = 1w1;
                } else {
                    meta.pre_block55 = 1w1;
                }
            }
            if (meta.pre_block55 == 1w1) {
                if (meta.tmp1_10 == 1w1) {
                    meta.pre_block40 = 1w1;
                } else {
                    meta.pre_block54 = 1w1;
                }
            }
            if (meta.pre_block52 == 1w1) {
                if (meta.tmp1_10 == 1w1) {
                    meta.pre_block53 = 1w1;
                } else {
                    meta.pre_block54 = 1w1;
                }
            }
            if (meta.pre_block54 == 1w1) {
                meta.fate = 17w0;
                meta.tmp1_6 = 1w0;
                meta.pre_block38 = 1w1;
            }
            if (meta.pre_block53 == 1w1) {
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_6);
                meta.tmp1_6 = 1w0;
                meta.pre_block38 = 1w1;
            }
            if (meta.pre_block43 == 1w1) {
                if (meta.tmp1_9 == 1w1) {
                    meta.pre_block44 = 1w1;
                } else {
                    meta.pre_block47 = 1w1;
                }
            }
            if (meta.pre_block44 == 1w1) {
                if (meta.tmp1_11 == 1w1) {
                    meta.pre_block45 = 1w1;
                } else {
                    meta.pre_block47 = 1w1;
                }
            }
            if (meta.pre_block45 == 1w1) {
                if (meta.tmp1_12 == 1w1) {
                    meta.pre_block46 = 1w1;
                } else {
                    meta.pre_block40 = 1w1;
                }
            }
            if (meta.pre_block46 == 1w1) {
                if (meta.tmp1_13 == 1w1) {
                    meta.pre_block47 = 1w1;
                } else {
                    meta.pre_block40 = 1w1;
                }
            }
            if (meta.pre_block47 == 1w1) {
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_7);
                meta.tmp1_6 = 1w0;
                meta.pre_block38 = 1w1;
            }
            if (meta.pre_block40 == 1w1) {
                meta.tmp1_6 = 1w1;
                meta.pre_block38 = 1w1;
            }
            if (meta.pre_block38 == 1w1) {
                if (meta.tmp1_6 == 1w1) {
                    meta.pre_block37 = 1w1;
                } else {
                    meta.pre_block39 = 1w1;
                }
            }
            if (meta.pre_block37 == 1w1) {
                side_a_1.read(meta.tmp32_3, 32w0);
                meta.tmp1_0 = (((bit<32>) meta.in_port) == meta.tmp32_3) ? 1w1 : 1w0;
                if (meta.tmp1_0 == 1w1) {
                    meta.pre_block3 = 1w1;
                } else {
                    meta.pre_block1 = 1w1;
                }
            }
            if (meta.pre_block1 == 1w1) {
                side_b_1.read(meta.tmp32_3, 32w0);
                meta.tmp1_1 = (((bit<32>) meta.in_port) == meta.tmp32_3) ? 1w1 : 1w0;
                if (meta.tmp1_1 == 1w1) {
                    meta.pre_block4 = 1w1;
                } else {
                    meta.pre_block2 = 1w1;
                }
            }
            if (meta.pre_block2 == 1w1) {
                meta.pre_block18 = 1w1;
            }
            if (meta.pre_block3 == 1w1) {
                meta.pre_block4 = 1w1;
            }
            if (meta.pre_block4 == 1w1) {
                meta.tmp1_8 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
                meta.tmp1_9 = meta.tmp1_8 ^ 1w1;
                meta.tmp1_10 = hdr.tcp.isValid() ? 1w1 : 1w0;
                meta.tmp1_11 = meta.tmp1_10 ^ 1w1;
                meta.tmp1_12 = meta.tmp1_9 | meta.tmp1_11;
                if (meta.tmp1_12 == 1w1) {
                    meta.pre_block17 = 1w1;
                } else {
                    meta.pre_block5 = 1w1;
                }
            }
            if (meta.pre_block5 == 1w1) {
                meta.tmp32_3 = hdr.ipv4.saddr;
                meta.tmp32_4 = hdr.ipv4.daddr;
                meta.tmp16_0 = hdr.tcp.sport;
                meta.tmp16_1 = hdr.tcp.dport;
                meta.tmp32_5 = hdr.tcp.seq;
                meta.tmp8_0 = hdr.tcp.flags;
                meta.tmp32_5 = (bit<32>) meta.tmp8_0;
                meta.tmp1_2 = ((meta.tmp32_5 & 32w5) == 32w0) ? 1w1 : 1w0;
                if (meta.tmp1_2 == 1w1) {
                    meta.pre_block7 = 1w1;
                } else {
                    meta.pre_block6 = 1w1;
                }
            }
            if (meta.pre_block6 == 1w1) {
                meta.to_server = 1w1;
                meta.pre_block16 = 1w1;
            }
            if (meta.pre_block7 == 1w1) {
                meta.tmp1_3 = ((meta.tmp32_5 & 32w2) == 32w0) ? 1w1 : 1w0;
                if (meta.tmp1_3 == 1w1) {
                    meta.pre_block9 = 1w1;
                } else {
                    meta.pre_block8 = 1w1;
                }
            }
            if (meta.pre_block8 == 1w1) {
                meta.to_server = 1w1;
                meta.pre_block19 = 1w1;
            }
            if (meta.pre_block19 == 1w1) {
                meta.pre_block16 = 1w1;
            }
            if (meta.pre_block9 == 1w1) {
                meta.tmp8_0 = (meta.ipv4_ok == 1w1) ? hdr.ipv4_vihl.version_ihl : 8w0;
                meta.tmp8_1 = hdr.tcp.data_off;
                meta.tmp8_2 = ((meta.tmp8_1 >> 8w2) & 8w60) + ((meta.tmp8_0 << 8w2) & 8w60);
                meta.tmp32_5 = (bit<32>) meta.tmp8_2;
                meta.tmp16_2 = hdr.ipv4.total_len;
                meta.tmp32_6 = (bit<32>) meta.tmp16_2;
                meta.tmp32_0 = (meta.tmp32_6 < meta.tmp32_5) ? 32w0 : (meta.tmp32_6 - meta.tmp32_5);
                meta.tmp1_4 = (((bit<16>) meta.tmp8_2) < meta.tmp16_2) ? 1w1 : 1w0;
                if (meta.tmp1_4 == 1w1) {
                    meta.pre_block11 = 1w1;
                } else {
                    meta.pre_block10 = 1w1;
                }
            }
            if (meta.pre_block10 == 1w1) {
                meta.pre_block16 = 1w1;
            }
            if (meta.pre_block11 == 1w1) {
                meta.conns_k0 = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
                meta.conns_k4 = ((meta.tmp32_4[7:0] ++ meta.tmp32_4[15:8]) ++ meta.tmp32_4[23:16]) ++ meta.tmp32_4[31:24];
                meta.conns_k8 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                meta.conns_k10 = meta.tmp16_1[7:0] ++ meta.tmp16_1[15:8];
                meta.wb_hit = 1w0;
                if (meta.visible == 1w1) {
                    conns_wb.apply();
                }
                if (meta.wb_hit == 1w0) {
                    conns.apply();
                }
                meta.tmp1_5 = meta.tmp1_13 ^ 1w1;
                if (meta.tmp1_5 == 1w1) {
                    meta.pre_block15 = 1w1;
                } else {
                    meta.pre_block12 = 1w1;
                }
            }
            if (meta.pre_block12 == 1w1) {
                meta.to_server = 1w1;
                meta.pre_block16 = 1w1;
            }
            if (meta.pre_block15 == 1w1) {
                meta.pre_block16 = 1w1;
            }
            if (meta.pre_block16 == 1w1) {
                meta.pre_block18 = 1w1;
            }
            if (meta.pre_block17 == 1w1) {
                meta.pre_block18 = 1w1;
            }
            if (meta.to_server == 1w1) {
                hdr.tandem.setValid();
                hdr.tandem.tag = 8w1;
                hdr.tandem.orig_ethertype = hdr.eth.ethertype;
                hdr.eth.ethertype = TANDEM_ETHERTYPE;
                hdr.tandem.v3 = meta.tmp1_0;
                hdr.tandem.v7 = meta.tmp1_1;
                hdr.tandem.v37 = meta.tmp1_2;
                hdr.tandem.v42 = meta.tmp1_3;
                hdr.tandem.v65 = meta.tmp32_0;
                hdr.tandem.v67 = meta.tmp1_4;
                hdr.tandem.v70 = meta.tmp32_1;
                hdr.tandem.v71 = meta.tmp32_2;
                hdr.tandem.v73 = meta.tmp1_5;
                hdr.tandem.v105 = meta.tmp1_6;
                hdr.tandem.fate = meta.fate;
                hdr.tandem.v76 = 1w0;
                hdr.tandem.pad = 7w0;
            }
        }
        if (meta.to_server == 1w0) {
            if (meta.tmp1_6 == 1w1) {
                if (meta.tmp1_0 == 1w1) {
                    meta.tmp8_0 = 8w0;
                    side_b_2.read(meta.tmp32_0, 32w0);
                    side_a_2.read(meta.tmp32_1, 32w0);
                    meta.tmp1_0 = (meta.tmp8_0 == 8w1) ? 1w1 : 1w0;
                    meta.tmp32_2 = (meta.tmp1_0 == 1w1) ? meta.tmp32_1 : meta.tmp32_0;
                    meta.tmp1_8 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
                    meta.tmp1_9 = meta.tmp1_8 ^ 1w1;
                    meta.tmp1_10 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.tmp1_11 = meta.tmp1_10 ^ 1w1;
                    meta.tmp1_12 = meta.tmp1_9 | meta.tmp1_11;
                    if (meta.tmp1_12 == 1w1) {
                        meta.tmp16_0 = (bit<16>) meta.tmp32_2;
                        meta.fate = 1w1 ++ meta.tmp16_0;
                    } else {
                        if (meta.tmp1_2 == 1w1) {
                            if (meta.tmp1_3 == 1w1) {
                                if (meta.tmp1_4 == 1w1) {
                                    if (meta.tmp1_5 == 1w1) {
                                        meta.tmp16_1 = (bit<16>) meta.tmp32_2;
                                        meta.fate = 1w1 ++ meta.tmp16_1;
                                    } else {
                                        if (meta.tmp1_7 == 1w0) {
                                            meta.tmp16_2 = (bit<16>) meta.tmp32_2;
                                            meta.fate = 1w1 ++ meta.tmp16_2;
                                        }
                                    }
                                } else {
                                    meta.tmp16_3 = (bit<16>) meta.tmp32_2;
                                    meta.fate = 1w1 ++ meta.tmp16_3;
                                }
                            } else {
                                meta.tmp16_4 = (bit<16>) meta.tmp32_2;
                                meta.fate = 1w1 ++ meta.tmp16_4;
                            }
                        } else {
                            meta.tmp16_5 = (bit<16>) meta.tmp32_2;
                            meta.fate = 1w1 ++ meta.tmp16_5;
                        }
                    }
                } else {
                    if (meta.tmp1_1 == 1w1) {
                        meta.tmp8_0 = 8w1;
                        side_b_2.read(meta.tmp32_0, 32w0);
                        side_a_2.read(meta.tmp32_1, 32w0);
                        meta.tmp1_0 = (meta.tmp8_0 == 8w1) ? 1w1 : 1w0;
                        meta.tmp32_2 = (meta.tmp1_0 == 1w1) ? meta.tmp32_1 : meta.tmp32_0;
                        meta.tmp1_8 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
                        meta.tmp1_9 = meta.tmp1_8 ^ 1w1;
                        meta.tmp1_10 = hdr.tcp.isValid() ? 1w1 : 1w0;
                        meta.tmp1_11 = meta.tmp1_10 ^ 1w1;
                        meta.tmp1_12 = meta.tmp1_9 | meta.tmp1_11;
                        if (meta.tmp1_12 == 1w1) {
                            meta.tmp16_0 = (bit<16>) meta.tmp32_2;
                            meta.fate = 1w1 ++ meta.tmp16_0;
                        } else {
                            if (meta.tmp1_2 == 1w1) {
                                if (meta.tmp1_3 == 1w1) {
                                    if (meta.tmp1_4 == 1w1) {
                                        if (meta.tmp1_5 == 1w1) {
                                            meta.tmp16_1 = (bit<16>) meta.tmp32_2;
                                            meta.fate = 1w1 ++ meta.tmp16_1;
                                        } else {
                                            if (meta.tmp1_7 == 1w0) {
                                                meta.tmp16_2 = (bit<16>) meta.tmp32_2;
                                                meta.fate = 1w1 ++ meta.tmp16_2;
                                            }
                                        }
                                    } else {
                                        meta.tmp16_3 = (bit<16>) meta.tmp32_2;
                                        meta.fate = 1w1 ++ meta.tmp16_3;
                                    }
                                } else {
                                    meta.tmp16_4 = (bit<16>) meta.tmp32_2;
                                    meta.fate = 1w1 ++ meta.tmp16_4;
                                }
                            } else {
                                meta.tmp16_5 = (bit<16>) meta.tmp32_2;
                                meta.fate = 1w1 ++ meta.tmp16_5;
                            }
                        }
                    } else {
                        meta.fate = 17w0;
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
