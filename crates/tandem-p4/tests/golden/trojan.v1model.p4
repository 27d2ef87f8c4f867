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
    bit<16> v0;
    bit<1> v3;
    bit<32> v20;
    bit<8> v27;
    bit<1> v29;
    bit<1> v36;
    bit<1> v38;
    bit<1> v583;
    bit<8> v586;
    bit<1> v671;
    bit<16> v673;
    bit<1> v682;
    bit<1> v689;
    bit<1> v693;
    bit<1> v697;
    bit<1> v700;
    bit<1> v703;
    bit<8> v704;
    bit<1> v41;
    bit<1> v48;
    bit<1> v51;
    bit<1> v56;
    bit<1> v61;
    bit<1> v66;
    bit<1> v71;
    bit<1> v282;
    bit<1> v285;
    bit<1> v290;
    bit<1> v295;
    bit<1> v300;
    bit<1> v511;
    bit<1> v518;
    bit<1> v520;
    bit<1> v524;
    bit<8> v525;
    bit<1> v530;
    bit<1> v535;
    bit<1> v540;
    bit<1> v545;
    bit<1> v550;
    bit<1> v555;
    bit<1> v560;
    bit<1> v565;
    bit<4> pad;
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
    bit<32> hosts_k0;
    bit<32> hosts__class_k0;
    bit<1> visible;
    bit<1> wb_hit;
    bit<16> in_port;
    bit<1> post_block98;
    bit<1> post_block99;
    bit<1> post_block97;
    bit<1> post_block111;
    bit<1> post_block107;
    bit<1> post_block100;
    bit<1> post_block112;
    bit<1> post_block113;
    bit<1> post_block106;
    bit<1> post_block114;
    bit<1> post_block95;
    bit<1> post_block108;
    bit<1> post_block109;
    bit<1> post_block110;
    bit<1> post_block101;
    bit<1> post_block102;
    bit<1> post_block103;
    bit<1> post_block104;
    bit<1> post_block105;
    bit<1> post_block94;
    bit<1> post_block96;
    bit<1> post_block71;
    bit<1> post_block1;
    bit<1> post_block70;
    bit<1> post_block2;
    bit<1> post_block66;
    bit<1> post_block3;
    bit<1> post_block65;
    bit<1> post_block4;
    bit<1> post_block61;
    bit<1> post_block5;
    bit<1> post_block6;
    bit<1> post_block45;
    bit<1> post_block44;
    bit<1> post_block7;
    bit<1> post_block8;
    bit<1> post_block25;
    bit<1> post_block9;
    bit<1> post_block10;
    bit<1> post_block11;
    bit<1> post_block12;
    bit<1> post_block13;
    bit<1> post_block14;
    bit<1> post_block19;
    bit<1> post_block20;
    bit<1> post_block42;
    bit<1> post_block26;
    bit<1> post_block27;
    bit<1> post_block28;
    bit<1> post_block29;
    bit<1> post_block30;
    bit<1> post_block36;
    bit<1> post_block37;
    bit<1> post_block43;
    bit<1> post_block73;
    bit<1> post_block57;
    bit<1> post_block46;
    bit<1> post_block58;
    bit<1> post_block47;
    bit<1> post_block48;
    bit<1> post_block49;
    bit<1> post_block53;
    bit<1> post_block50;
    bit<1> post_block51;
    bit<1> post_block52;
    bit<1> post_block54;
    bit<1> post_block55;
    bit<1> post_block56;
    bit<1> post_block69;
    bit<1> post_block80;
    bit<1> post_block60;
    bit<1> post_block59;
    bit<1> post_block64;
    bit<1> post_block68;
    bit<1> post_block67;
    bit<1> post_block72;
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
    bit<8> tmp8_0;
    bit<8> tmp8_1;
    bit<8> tmp8_2;
    bit<8> tmp8_3;
    bit<8> tmp8_4;
    bit<8> tmp8_5;
    bit<8> tmp8_6;
    bit<8> tmp8_7;
    bit<16> tmp16_0;
    bit<16> tmp16_1;
    bit<16> tmp16_2;
    bit<16> tmp16_3;
    bit<32> tmp32_0;
    bit<32> tmp32_1;
    bit<32> tmp32_2;
    bit<32> tmp32_3;
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
    action hosts_hit(bit<8> v0, bit<8> v1, bit<8> v2, bit<8> v3) {
        meta.tmp1_40 = 1w1;
        meta.tmp8_4 = v0;
        meta.tmp8_5 = v1;
        meta.tmp8_6 = v2;
        meta.tmp8_7 = v3;
    }
    action hosts_miss() {
        meta.tmp1_40 = 1w0;
        meta.tmp8_4 = 8w0;
        meta.tmp8_5 = 8w0;
        meta.tmp8_6 = 8w0;
        meta.tmp8_7 = 8w0;
    }
    table hosts {
        key = {
            meta.hosts_k0: exact;
        }
        actions = {
            hosts_hit;
            hosts_miss;
        }
        default_action = hosts_miss();
        size = 0x10000;
    }
    action hosts_wb_hit(bit<8> v0, bit<8> v1, bit<8> v2, bit<8> v3) {
        meta.tmp1_40 = 1w1;
        meta.tmp8_4 = v0;
        meta.tmp8_5 = v1;
        meta.tmp8_6 = v2;
        meta.tmp8_7 = v3;
        meta.wb_hit = 1w1;
    }
    action hosts_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_40 = 1w0;
        meta.tmp8_4 = 8w0;
        meta.tmp8_5 = 8w0;
        meta.tmp8_6 = 8w0;
        meta.tmp8_7 = 8w0;
    }
    action hosts_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table hosts_wb {
        key = {
            meta.hosts_k0: exact;
        }
        actions = {
            hosts_wb_hit;
            hosts_wb_deleted;
            hosts_wb_miss;
        }
        default_action = hosts_wb_miss();
        size = 0x400;
    }
    register<bit<32> >(32w1) quarantine_0;
    register<bit<32> >(32w1) quarantine_1;
    register<bit<32> >(32w1) quarantine_2;
    register<bit<32> >(32w1) q_port_0;
    register<bit<32> >(32w1) q_port_1;
    register<bit<32> >(32w1) q_port_2;
    action hosts__class_hit(bit<8> class) {
        meta.tmp1_11 = 1w1;
        meta.tmp8_2 = class;
    }
    action hosts__class_miss() {
        meta.tmp1_11 = 1w0;
        meta.tmp8_2 = 8w0;
    }
    table hosts__class {
        key = {
            meta.hosts__class_k0: exact;
        }
        actions = {
            hosts__class_hit;
            hosts__class_miss;
        }
        default_action = hosts__class_miss();
        size = 0x10000;
    }
    action hosts__class_wb_hit(bit<8> class) {
        meta.tmp1_11 = 1w1;
        meta.tmp8_2 = class;
        meta.wb_hit = 1w1;
    }
    action hosts__class_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.tmp1_11 = 1w0;
        meta.tmp8_2 = 8w0;
    }
    action hosts__class_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table hosts__class_wb {
        key = {
            meta.hosts__class_k0: exact;
        }
        actions = {
            hosts__class_wb_hit;
            hosts__class_wb_deleted;
            hosts__class_wb_miss;
        }
        default_action = hosts__class_wb_miss();
        size = 0x400;
    }
    register<bit<1> >(32w1) tandem_visible;
    apply {
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.tmp16_0 = hdr.tandem.v0;
                meta.tmp1_0 = hdr.tandem.v3;
                meta.tmp32_0 = hdr.tandem.v20;
                meta.tmp8_0 = hdr.tandem.v27;
                meta.tmp1_1 = hdr.tandem.v29;
                meta.tmp1_2 = hdr.tandem.v36;
                meta.tmp1_3 = hdr.tandem.v38;
                meta.tmp1_4 = hdr.tandem.v583;
                meta.tmp8_1 = hdr.tandem.v586;
                meta.tmp1_5 = hdr.tandem.v671;
                meta.tmp16_1 = hdr.tandem.v673;
                meta.tmp1_6 = hdr.tandem.v682;
                meta.tmp1_7 = hdr.tandem.v689;
                meta.tmp1_8 = hdr.tandem.v693;
                meta.tmp1_9 = hdr.tandem.v697;
                meta.tmp1_10 = hdr.tandem.v700;
                meta.tmp1_11 = hdr.tandem.v703;
                meta.tmp8_2 = hdr.tandem.v704;
                meta.tmp1_12 = hdr.tandem.v41;
                meta.tmp1_13 = hdr.tandem.v48;
                meta.tmp1_14 = hdr.tandem.v51;
                meta.tmp1_15 = hdr.tandem.v56;
                meta.tmp1_16 = hdr.tandem.v61;
                meta.tmp1_17 = hdr.tandem.v66;
                meta.tmp1_18 = hdr.tandem.v71;
                meta.tmp1_19 = hdr.tandem.v282;
                meta.tmp1_20 = hdr.tandem.v285;
                meta.tmp1_21 = hdr.tandem.v290;
                meta.tmp1_22 = hdr.tandem.v295;
                meta.tmp1_23 = hdr.tandem.v300;
                meta.tmp1_24 = hdr.tandem.v511;
                meta.tmp1_25 = hdr.tandem.v518;
                meta.tmp1_26 = hdr.tandem.v520;
                meta.tmp1_27 = hdr.tandem.v524;
                meta.tmp8_3 = hdr.tandem.v525;
                meta.tmp1_28 = hdr.tandem.v530;
                meta.tmp1_29 = hdr.tandem.v535;
                meta.tmp1_30 = hdr.tandem.v540;
                meta.tmp1_31 = hdr.tandem.v545;
                meta.tmp1_32 = hdr.tandem.v550;
                meta.tmp1_33 = hdr.tandem.v555;
                meta.tmp1_34 = hdr.tandem.v560;
                meta.tmp1_35 = hdr.tandem.v565;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
            } else {
                mark_to_drop(standard_metadata);
                exit;
            }
        } else {
            meta.in_port = (bit<16>) standard_metadata.ingress_port;
            meta.tmp16_1 = meta.in_port;
            meta.tmp1_36 = (meta.tmp16_1 == 16w0) ? 1w1 : 1w0;
            meta.tmp32_1 = hdr.ipv4.saddr;
            meta.tmp32_2 = hdr.ipv4.daddr;
            meta.tmp1_6 = (meta.tmp16_1 > 16w1) ? 1w1 : 1w0;
            meta.tmp1_37 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
            meta.tmp1_38 = hdr.tcp.isValid() ? 1w1 : 1w0;
            meta.tmp1_7 = (meta.tmp16_1 == 16w1) ? 1w1 : 1w0;
            meta.tmp16_2 = hdr.tcp.sport;
            meta.tmp1_8 = ((meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8]) == 16w0x1600) ? 1w1 : 1w0;
            meta.tmp8_4 = hdr.tcp.flags;
            meta.tmp1_9 = ((meta.tmp8_4 & 8w18) == 8w18) ? 1w1 : 1w0;
            quarantine_0.read(meta.tmp32_3, 32w0);
            meta.tmp1_10 = (meta.tmp32_3 == 32w0) ? 1w1 : 1w0;
            meta.hosts__class_k0 = (meta.tmp1_36 == 1w1) ? (((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24]) : (((meta.tmp32_2[7:0] ++ meta.tmp32_2[15:8]) ++ meta.tmp32_2[23:16]) ++ meta.tmp32_2[31:24]);
            meta.wb_hit = 1w0;
            if (meta.visible == 1w1) {
                hosts__class_wb.apply();
            }
            if (meta.wb_hit == 1w0) {
                hosts__class.apply();
            }
            if (meta.tmp1_11 == 1w1) {
                if (meta.tmp8_2 == 8w0) {
                    if (meta.tmp1_6 == 1w1) {
                        meta.tmp1_5 = 1w0;
                    } else {
                        if (meta.tmp1_37 == 1w1) {
                            if (meta.tmp1_38 == 1w1) {
                                if (meta.tmp1_7 == 1w1) {
                                    if (meta.tmp1_8 == 1w1) {
                                        if (meta.tmp1_9 == 1w1) {
                                            meta.tmp1_5 = 1w1;
                                        } else {
                                            meta.tmp1_5 = 1w0;
                                        }
                                    } else {
                                        meta.tmp1_5 = 1w0;
                                    }
                                } else {
                                    meta.tmp1_5 = 1w0;
                                }
                            } else {
                                meta.tmp1_5 = 1w0;
                            }
                        } else {
                            meta.tmp1_5 = 1w0;
                        }
                    }
                } else {
                    if (meta.tmp8_2 == 8w1) {
                        if (meta.tmp1_6 == 1w1) {
                            meta.tmp1_5 = 1w0;
                        } else {
                            if (meta.tmp1_37 == 1w1) {
                                if (meta.tmp1_38 == 1w1) {
                                    if (meta.tmp1_7 == 1w1) {
                                        meta.tmp1_5 = 1w0;
                                    } else {
                                        meta.tmp1_5 = 1w1;
                                    }
                                } else {
                                    meta.tmp1_5 = 1w0;
                                }
                            } else {
                                meta.tmp1_5 = 1w0;
                            }
                        }
                    } else {
                        if (meta.tmp8_2 == 8w2) {
                            if (meta.tmp1_6 == 1w1) {
                                meta.tmp1_5 = 1w0;
                            } else {
                                if (meta.tmp1_37 == 1w1) {
                                    if (meta.tmp1_10 == 1w1) {
                                        meta.tmp1_5 = 1w0;
                                    } else {
                                        meta.tmp1_5 = 1w0;
                                    }
                                } else {
                                    meta.tmp1_5 = 1w0;
                                }
                            }
                        } else {
                            meta.tmp1_5 = 1w1;
                        }
                    }
                }
            } else {
                if (meta.tmp1_6 == 1w1) {
                    meta.tmp1_5 = 1w0;
                } else {
                    if (meta.tmp1_37 == 1w1) {
                        if (meta.tmp1_38 == 1w1) {
                            if (meta.tmp1_7 == 1w1) {
                                if (meta.tmp1_8 == 1w1) {
                                    if (meta.tmp1_9 == 1w1) {
                                        meta.tmp1_5 = 1w1;
                                    } else {
                                        meta.tmp1_5 = 1w0;
                                    }
                                } else {
                                    meta.tmp1_5 = 1w0;
                                }
                            } else {
                                meta.tmp1_5 = 1w0;
                            }
                        } else {
                            meta.tmp1_5 = 1w0;
                        }
                    } else {
                        meta.tmp1_5 = 1w0;
                    }
                }
            }
            if (meta.tmp1_5 == 1w1) {
                meta.tmp16_0 = meta.in_port;
                meta.tmp1_0 = (meta.tmp16_0 > 16w1) ? 1w1 : 1w0;
                if (meta.tmp1_0 == 1w0) {
                    meta.tmp1_36 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
                    meta.tmp1_39 = meta.tmp1_36 ^ 1w1;
                    if (meta.tmp1_39 == 1w0) {
                        meta.tmp1_40 = (meta.tmp16_0 == 16w0) ? 1w1 : 1w0;
                        meta.tmp32_1 = hdr.ipv4.saddr;
                        meta.tmp32_2 = hdr.ipv4.daddr;
                        meta.tmp32_0 = (((meta.tmp1_40 == 1w1) ? 8w0 : 8w1) == 8w1) ? (((meta.tmp32_2[7:0] ++ meta.tmp32_2[15:8]) ++ meta.tmp32_2[23:16]) ++ meta.tmp32_2[31:24]) : (((meta.tmp32_1[7:0] ++ meta.tmp32_1[15:8]) ++ meta.tmp32_1[23:16]) ++ meta.tmp32_1[31:24]);
                        meta.hosts_k0 = meta.tmp32_0;
                        meta.wb_hit = 1w0;
                        if (meta.visible == 1w1) {
                            hosts_wb.apply();
                        }
                        if (meta.wb_hit == 1w0) {
                            hosts.apply();
                        }
                        meta.tmp8_0 = (meta.tmp1_40 == 1w1) ? meta.tmp8_4 : 8w0;
                        meta.tmp1_1 = (meta.tmp8_0 == 8w3) ? 1w1 : 1w0;
                        if (meta.tmp1_1 == 1w0) {
                            meta.tmp1_40 = hdr.tcp.isValid() ? 1w1 : 1w0;
                            meta.tmp1_41 = meta.tmp1_40 ^ 1w1;
                            if (meta.tmp1_41 == 1w0) {
                                meta.tmp16_2 = hdr.tcp.dport;
                                meta.tmp16_3 = meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8];
                                meta.tmp1_2 = (meta.tmp16_0 == 16w1) ? 1w1 : 1w0;
                                if (meta.tmp1_2 == 1w1) {
                                    meta.tmp16_3 = hdr.tcp.sport;
                                    meta.tmp1_42 = (meta.tmp8_0 == 8w0) ? 1w1 : 1w0;
                                    meta.tmp1_4 = (((meta.tmp16_3[7:0] ++ meta.tmp16_3[15:8]) == 16w0x1600) ? 1w1 : 1w0) & meta.tmp1_42;
                                    if (meta.tmp1_4 == 1w1) {
                                        meta.to_server = 1w1;
                                        meta.tmp8_4 = hdr.tcp.flags;
                                        meta.tmp8_1 = meta.tmp8_4 & 8w18;
                                    }
                                } else {
                                    meta.tmp1_3 = (meta.tmp8_0 == 8w1) ? 1w1 : 1w0;
                                    if (meta.tmp1_3 == 1w1) {
                                        meta.to_server = 1w1;
                                    } else {
                                        meta.to_server = 1w1;
                                    }
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
                hdr.tandem.v0 = meta.tmp16_0;
                hdr.tandem.v3 = meta.tmp1_0;
                hdr.tandem.v20 = meta.tmp32_0;
                hdr.tandem.v27 = meta.tmp8_0;
                hdr.tandem.v29 = meta.tmp1_1;
                hdr.tandem.v36 = meta.tmp1_2;
                hdr.tandem.v38 = meta.tmp1_3;
                hdr.tandem.v583 = meta.tmp1_4;
                hdr.tandem.v586 = meta.tmp8_1;
                hdr.tandem.v671 = meta.tmp1_5;
                hdr.tandem.v673 = meta.tmp16_1;
                hdr.tandem.v682 = meta.tmp1_6;
                hdr.tandem.v689 = meta.tmp1_7;
                hdr.tandem.v693 = meta.tmp1_8;
                hdr.tandem.v697 = meta.tmp1_9;
                hdr.tandem.v700 = meta.tmp1_10;
                hdr.tandem.v703 = meta.tmp1_11;
                hdr.tandem.v704 = meta.tmp8_2;
                hdr.tandem.v41 = 1w0;
                hdr.tandem.v48 = 1w0;
                hdr.tandem.v51 = 1w0;
                hdr.tandem.v56 = 1w0;
                hdr.tandem.v61 = 1w0;
                hdr.tandem.v66 = 1w0;
                hdr.tandem.v71 = 1w0;
                hdr.tandem.v282 = 1w0;
                hdr.tandem.v285 = 1w0;
                hdr.tandem.v290 = 1w0;
                hdr.tandem.v295 = 1w0;
                hdr.tandem.v300 = 1w0;
                hdr.tandem.v511 = 1w0;
                hdr.tandem.v518 = 1w0;
                hdr.tandem.v520 = 1w0;
                hdr.tandem.v524 = 1w0;
                hdr.tandem.v525 = 8w0;
                hdr.tandem.v530 = 1w0;
                hdr.tandem.v535 = 1w0;
                hdr.tandem.v540 = 1w0;
                hdr.tandem.v545 = 1w0;
                hdr.tandem.v550 = 1w0;
                hdr.tandem.v555 = 1w0;
                hdr.tandem.v560 = 1w0;
                hdr.tandem.v565 = 1w0;
                hdr.tandem.pad = 4w0;
            }
        }
        if (meta.to_server == 1w0) {
            meta.tmp1_37 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
            meta.tmp32_0 = (bit<32>) meta.tmp16_1;
            meta.tmp1_38 = hdr.tcp.isValid() ? 1w1 : 1w0;
            q_port_0.read(meta.tmp32_1, 32w0);
            if (meta.tmp1_11 == 1w1) {
                meta.post_block98 = 1w1;
            } else {
                meta.post_block99 = 1w1;
            }
            if (meta.post_block98 == 1w1) {
                if (meta.tmp8_2 == 8w0) {
                    meta.post_block99 = 1w1;
                } else {
                    if (meta.tmp8_2 == 8w1) {
                        meta.post_block107 = 1w1;
                    } else {
                        if (meta.tmp8_2 == 8w2) {
                            meta.post_block111 = 1w1;
                        } else {
                            meta.post_block97 = 1w1;
                        }
                    }
                }
            }
            if (meta.post_block111 == 1w1) {
                if (meta.tmp1_6 == 1w1) {
                    meta.post_block100 = 1w1;
                } else {
                    meta.post_block112 = 1w1;
                }
            }
            if (meta.post_block112 == 1w1) {
                if (meta.tmp1_37 == 1w1) {
                    meta.post_block113 = 1w1;
                } else {
                    meta.post_block106 = 1w1;
                }
            }
            if (meta.post_block113 == 1w1) {
                if (meta.tmp1_10 == 1w1) {
                    meta.post_block100 = 1w1;
                } else {
                    meta.post_block114 = 1w1;
                }
            }
            if (meta.post_block114 == 1w1) {
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_1);
                meta.post_block95 = 1w1;
            }
            if (meta.post_block107 == 1w1) {
                if (meta.tmp1_6 == 1w1) {
                    meta.post_block100 = 1w1;
                } else {
                    meta.post_block108 = 1w1;
                }
            }
            if (meta.post_block108 == 1w1) {
                if (meta.tmp1_37 == 1w1) {
                    meta.post_block109 = 1w1;
                } else {
                    meta.post_block106 = 1w1;
                }
            }
            if (meta.post_block109 == 1w1) {
                if (meta.tmp1_38 == 1w1) {
                    meta.post_block110 = 1w1;
                } else {
                    meta.post_block106 = 1w1;
                }
            }
            if (meta.post_block110 == 1w1) {
                if (meta.tmp1_7 == 1w1) {
                    meta.post_block106 = 1w1;
                } else {
                    meta.post_block97 = 1w1;
                }
            }
            if (meta.post_block99 == 1w1) {
                if (meta.tmp1_6 == 1w1) {
                    meta.post_block100 = 1w1;
                } else {
                    meta.post_block101 = 1w1;
                }
            }
            if (meta.post_block101 == 1w1) {
                if (meta.tmp1_37 == 1w1) {
                    meta.post_block102 = 1w1;
                } else {
                    meta.post_block106 = 1w1;
                }
            }
            if (meta.post_block102 == 1w1) {
                if (meta.tmp1_38 == 1w1) {
                    meta.post_block103 = 1w1;
                } else {
                    meta.post_block106 = 1w1;
                }
            }
            if (meta.post_block103 == 1w1) {
                if (meta.tmp1_7 == 1w1) {
                    meta.post_block104 = 1w1;
                } else {
                    meta.post_block106 = 1w1;
                }
            }
            if (meta.post_block104 == 1w1) {
                if (meta.tmp1_8 == 1w1) {
                    meta.post_block105 = 1w1;
                } else {
                    meta.post_block106 = 1w1;
                }
            }
            if (meta.post_block105 == 1w1) {
                if (meta.tmp1_9 == 1w1) {
                    meta.post_block97 = 1w1;
                } else {
                    meta.post_block106 = 1w1;
                }
            }
            if (meta.post_block106 == 1w1) {
                meta.fate = 1w1 ++ ((bit<16>) (32w1 - meta.tmp32_0));
                meta.post_block95 = 1w1;
            }
            if (meta.post_block100 == 1w1) {
                meta.fate = 17w0;
                meta.post_block95 = 1w1;
            }
            if (meta.post_block97 == 1w1) {
                meta.post_block95 = 1w1;
            }
            if (meta.post_block95 == 1w1) {
                if (meta.tmp1_5 == 1w1) {
                    meta.post_block94 = 1w1;
                } else {
                    meta.post_block96 = 1w1;
                }
            }
            if (meta.post_block94 == 1w1) {
                meta.tmp32_0 = (bit<32>) meta.tmp16_0;
                if (meta.tmp1_0 == 1w1) {
                    meta.post_block71 = 1w1;
                } else {
                    meta.post_block1 = 1w1;
                }
            }
            if (meta.post_block1 == 1w1) {
                meta.tmp32_1 = 32w1 - meta.tmp32_0;
                meta.tmp1_36 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
                meta.tmp1_39 = meta.tmp1_36 ^ 1w1;
                if (meta.tmp1_39 == 1w1) {
                    meta.post_block70 = 1w1;
                } else {
                    meta.post_block2 = 1w1;
                }
            }
            if (meta.post_block2 == 1w1) {
                if (meta.tmp1_1 == 1w1) {
                    meta.post_block66 = 1w1;
                } else {
                    meta.post_block3 = 1w1;
                }
            }
            if (meta.post_block3 == 1w1) {
                meta.tmp1_40 = hdr.tcp.isValid() ? 1w1 : 1w0;
                meta.tmp1_41 = meta.tmp1_40 ^ 1w1;
                if (meta.tmp1_41 == 1w1) {
                    meta.post_block65 = 1w1;
                } else {
                    meta.post_block4 = 1w1;
                }
            }
            if (meta.post_block4 == 1w1) {
                meta.tmp16_2 = hdr.tcp.dport;
                if (meta.tmp1_2 == 1w1) {
                    meta.post_block61 = 1w1;
                } else {
                    meta.post_block5 = 1w1;
                }
            }
            if (meta.post_block5 == 1w1) {
                if (meta.tmp1_3 == 1w1) {
                    meta.post_block6 = 1w1;
                } else {
                    meta.post_block45 = 1w1;
                }
            }
            if (meta.post_block6 == 1w1) {
                if (meta.tmp1_12 == 1w1) {
                    meta.post_block44 = 1w1;
                } else {
                    meta.post_block7 = 1w1;
                }
            }
            if (meta.post_block7 == 1w1) {
                if (meta.tmp16_2 == 16w0x1f90) {
                    meta.post_block25 = 1w1;
                } else {
                    if (meta.tmp16_2 == 16w80) {
                        meta.post_block25 = 1w1;
                    } else {
                        if (meta.tmp16_2 == 16w21) {
                            meta.post_block8 = 1w1;
                        } else {
                            meta.post_block44 = 1w1;
                        }
                    }
                }
            }
            if (meta.post_block8 == 1w1) {
                if (meta.tmp1_13 == 1w1) {
                    meta.post_block44 = 1w1;
                } else {
                    meta.post_block9 = 1w1;
                }
            }
            if (meta.post_block9 == 1w1) {
                if (meta.tmp1_14 == 1w1) {
                    meta.post_block10 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block10 == 1w1) {
                if (meta.tmp1_15 == 1w1) {
                    meta.post_block11 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block11 == 1w1) {
                if (meta.tmp1_16 == 1w1) {
                    meta.post_block12 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block12 == 1w1) {
                if (meta.tmp1_17 == 1w1) {
                    meta.post_block13 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block13 == 1w1) {
                if (meta.tmp1_18 == 1w1) {
                    meta.post_block14 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block14 == 1w1) {
                meta.post_block19 = 1w1;
            }
            if (meta.post_block19 == 1w1) {
                meta.post_block20 = 1w1;
            }
            if (meta.post_block20 == 1w1) {
                meta.post_block42 = 1w1;
            }
            if (meta.post_block25 == 1w1) {
                if (meta.tmp1_19 == 1w1) {
                    meta.post_block44 = 1w1;
                } else {
                    meta.post_block26 = 1w1;
                }
            }
            if (meta.post_block26 == 1w1) {
                if (meta.tmp1_20 == 1w1) {
                    meta.post_block27 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block27 == 1w1) {
                if (meta.tmp1_21 == 1w1) {
                    meta.post_block28 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block28 == 1w1) {
                if (meta.tmp1_22 == 1w1) {
                    meta.post_block29 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block29 == 1w1) {
                if (meta.tmp1_23 == 1w1) {
                    meta.post_block30 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block30 == 1w1) {
                meta.post_block36 = 1w1;
            }
            if (meta.post_block36 == 1w1) {
                meta.post_block37 = 1w1;
            }
            if (meta.post_block37 == 1w1) {
                meta.post_block42 = 1w1;
            }
            if (meta.post_block42 == 1w1) {
                if (meta.tmp1_24 == 1w1) {
                    meta.post_block43 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block43 == 1w1) {
                meta.post_block73 = 1w1;
            }
            if (meta.post_block73 == 1w1) {
                meta.post_block57 = 1w1;
            }
            if (meta.post_block44 == 1w1) {
                meta.post_block45 = 1w1;
            }
            if (meta.post_block45 == 1w1) {
                if (meta.tmp1_25 == 1w1) {
                    meta.post_block46 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block46 == 1w1) {
                if (meta.tmp1_26 == 1w1) {
                    meta.post_block58 = 1w1;
                } else {
                    meta.post_block47 = 1w1;
                }
            }
            if (meta.post_block47 == 1w1) {
                if (meta.tmp1_27 == 1w1) {
                    meta.post_block57 = 1w1;
                } else {
                    meta.post_block48 = 1w1;
                }
            }
            if (meta.post_block48 == 1w1) {
                if (meta.tmp8_3 == 8w78) {
                    meta.post_block53 = 1w1;
                } else {
                    if (meta.tmp8_3 == 8w74) {
                        meta.post_block49 = 1w1;
                    } else {
                        meta.post_block57 = 1w1;
                    }
                }
            }
            if (meta.post_block49 == 1w1) {
                if (meta.tmp1_28 == 1w1) {
                    meta.post_block50 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block50 == 1w1) {
                if (meta.tmp1_29 == 1w1) {
                    meta.post_block51 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block51 == 1w1) {
                if (meta.tmp1_30 == 1w1) {
                    meta.post_block52 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block52 == 1w1) {
                if (meta.tmp1_31 == 1w1) {
                    meta.post_block58 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block53 == 1w1) {
                if (meta.tmp1_32 == 1w1) {
                    meta.post_block54 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block54 == 1w1) {
                if (meta.tmp1_33 == 1w1) {
                    meta.post_block55 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block55 == 1w1) {
                if (meta.tmp1_34 == 1w1) {
                    meta.post_block56 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block56 == 1w1) {
                if (meta.tmp1_35 == 1w1) {
                    meta.post_block58 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block57 == 1w1) {
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_1);
                meta.post_block69 = 1w1;
            }
            if (meta.post_block58 == 1w1) {
                meta.post_block80 = 1w1;
            }
            if (meta.post_block80 == 1w1) {
                quarantine_1.read(meta.tmp32_0, 32w0);
                if (meta.tmp32_0 == 32w0) {
                    meta.post_block60 = 1w1;
                } else {
                    meta.post_block59 = 1w1;
                }
            }
            if (meta.post_block59 == 1w1) {
                q_port_1.read(meta.tmp32_0, 32w0);
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                meta.post_block69 = 1w1;
            }
            if (meta.post_block60 == 1w1) {
                meta.fate = 17w0;
                meta.post_block69 = 1w1;
            }
            if (meta.post_block61 == 1w1) {
                meta.post_block64 = 1w1;
            }
            if (meta.post_block64 == 1w1) {
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_1);
                meta.post_block69 = 1w1;
            }
            if (meta.post_block65 == 1w1) {
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_1);
                meta.post_block69 = 1w1;
            }
            if (meta.post_block66 == 1w1) {
                quarantine_2.read(meta.tmp32_0, 32w0);
                if (meta.tmp32_0 == 32w0) {
                    meta.post_block68 = 1w1;
                } else {
                    meta.post_block67 = 1w1;
                }
            }
            if (meta.post_block67 == 1w1) {
                q_port_2.read(meta.tmp32_0, 32w0);
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
                meta.post_block69 = 1w1;
            }
            if (meta.post_block68 == 1w1) {
                meta.fate = 17w0;
                meta.post_block69 = 1w1;
            }
            if (meta.post_block69 == 1w1) {
                meta.post_block72 = 1w1;
            }
            if (meta.post_block70 == 1w1) {
                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_1);
                meta.post_block72 = 1w1;
            }
            if (meta.post_block71 == 1w1) {
                meta.fate = 17w0;
                meta.post_block72 = 1w1;
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
