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
    bit<32> v20;
    bit<8> v27;
    bit<1> v29;
    bit<1> v36;
    bit<1> v38;
    bit<1> v526;
    bit<1> v528;
    bit<1> v591;
    bit<1> v596;
    bit<1> v41;
    bit<1> v48;
    bit<1> v51;
    bit<1> v56;
    bit<1> v61;
    bit<1> v66;
    bit<1> v71;
    bit<1> v286;
    bit<1> v289;
    bit<1> v294;
    bit<1> v299;
    bit<1> v304;
    bit<1> v519;
    bit<1> v532;
    bit<8> v533;
    bit<1> v538;
    bit<1> v543;
    bit<1> v548;
    bit<1> v553;
    bit<1> v558;
    bit<1> v563;
    bit<1> v568;
    bit<1> v573;
    bit<1> v611;
    bit<1> v613;
    bit<1> v617;
    bit<8> v618;
    bit<1> v623;
    bit<1> v628;
    bit<1> v633;
    bit<1> v638;
    bit<1> v643;
    bit<1> v648;
    bit<1> v653;
    bit<1> v658;
    bit<7> pad;
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
    tandem_t tandem;
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
    bit<32> hosts_k0;
    bit<1> v22;
    bit<8> v23;
    bit<8> v24;
    bit<8> v25;
    bit<8> v26;
    bit<1> visible;
    bit<1> wb_hit;
    bit<16> v0;
    bit<32> v1;
    bit<1> v3;
    bit<1> v6;
    bit<1> v8;
    bit<1> v10;
    bit<8> v13;
    bit<32> v14;
    bit<32> v15;
    bit<32> v16;
    bit<32> v17;
    bit<1> v19;
    bit<32> v20;
    bit<8> v27;
    bit<1> v29;
    bit<1> v30;
    bit<1> v32;
    bit<16> v33;
    bit<16> v34;
    bit<1> v36;
    bit<16> v585;
    bit<16> v586;
    bit<1> v588;
    bit<1> v590;
    bit<1> v591;
    bit<8> v592;
    bit<8> v594;
    bit<1> v596;
    bit<1> v38;
    bit<1> v526;
    bit<1> v528;
    bit<1> post_block71;
    bit<1> post_block1;
    bit<32> v5;
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
    bit<1> post_block46;
    bit<1> post_block57;
    bit<1> post_block58;
    bit<1> post_block47;
    bit<1> v532;
    bit<1> post_block48;
    bit<8> v533;
    bit<1> post_block49;
    bit<1> post_block53;
    bit<1> v538;
    bit<1> post_block50;
    bit<1> v543;
    bit<1> post_block51;
    bit<1> v548;
    bit<1> post_block52;
    bit<1> v553;
    bit<1> v558;
    bit<1> post_block54;
    bit<1> v563;
    bit<1> post_block55;
    bit<1> v568;
    bit<1> post_block56;
    bit<1> v573;
    bit<32> v580;
    bit<1> v582;
    bit<1> post_block60;
    bit<1> post_block59;
    bit<32> v583;
    bit<16> v584;
    bit<1> post_block69;
    bit<1> v41;
    bit<1> post_block44;
    bit<1> post_block7;
    bit<1> post_block8;
    bit<1> post_block25;
    bit<1> v48;
    bit<1> post_block9;
    bit<1> v51;
    bit<1> post_block10;
    bit<1> v56;
    bit<1> post_block11;
    bit<1> v61;
    bit<1> post_block12;
    bit<1> v66;
    bit<1> post_block13;
    bit<1> v71;
    bit<1> post_block14;
    bit<1> post_block19;
    bit<1> post_block20;
    bit<1> post_block42;
    bit<1> v286;
    bit<1> post_block26;
    bit<1> v289;
    bit<1> post_block27;
    bit<1> v294;
    bit<1> post_block28;
    bit<1> v299;
    bit<1> post_block29;
    bit<1> v304;
    bit<1> post_block30;
    bit<1> post_block36;
    bit<1> post_block37;
    bit<1> v519;
    bit<1> post_block43;
    bit<16> v574;
    bit<1> post_block73;
    bit<1> v611;
    bit<1> post_block74;
    bit<1> post_block85;
    bit<1> v613;
    bit<1> post_block86;
    bit<1> post_block75;
    bit<1> v617;
    bit<1> post_block76;
    bit<8> v618;
    bit<1> post_block77;
    bit<1> post_block81;
    bit<1> v623;
    bit<1> post_block78;
    bit<1> v628;
    bit<1> post_block79;
    bit<1> v633;
    bit<1> post_block80;
    bit<1> v638;
    bit<1> v643;
    bit<1> post_block82;
    bit<1> v648;
    bit<1> post_block83;
    bit<1> v653;
    bit<1> post_block84;
    bit<1> v658;
    bit<16> v659;
    bit<1> post_block89;
    bit<32> v665;
    bit<1> v667;
    bit<1> post_block88;
    bit<1> post_block87;
    bit<32> v668;
    bit<16> v669;
    bit<1> post_block90;
    bit<1> post_block64;
    bit<16> v602;
    bit<16> v603;
    bit<32> v604;
    bit<1> v606;
    bit<1> post_block68;
    bit<1> post_block67;
    bit<32> v607;
    bit<16> v608;
    bit<1> post_block72;
    bit<16> v609;
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
    action hosts_hit(bit<8> v0, bit<8> v1, bit<8> v2, bit<8> v3) {
        meta.v22 = 1w1;
        meta.v23 = v0;
        meta.v24 = v1;
        meta.v25 = v2;
        meta.v26 = v3;
    }
    action hosts_miss() {
        meta.v22 = 1w0;
        meta.v23 = 8w0;
        meta.v24 = 8w0;
        meta.v25 = 8w0;
        meta.v26 = 8w0;
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
        meta.v22 = 1w1;
        meta.v23 = v0;
        meta.v24 = v1;
        meta.v25 = v2;
        meta.v26 = v3;
        meta.wb_hit = 1w1;
    }
    action hosts_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v22 = 1w0;
        meta.v23 = 8w0;
        meta.v24 = 8w0;
        meta.v25 = 8w0;
        meta.v26 = 8w0;
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
    register<bit<32> >(32w1) quarantine;
    register<bit<32> >(32w1) q_port;
    register<bit<1> >(32w1) tandem_visible;
    apply {
        meta.now = ((bit<64>) standard_metadata.ingress_global_timestamp) * 64w0x3e8;
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.v1 = hdr.tandem.v1;
                meta.v3 = hdr.tandem.v3;
                meta.v20 = hdr.tandem.v20;
                meta.v27 = hdr.tandem.v27;
                meta.v29 = hdr.tandem.v29;
                meta.v36 = hdr.tandem.v36;
                meta.v38 = hdr.tandem.v38;
                meta.v526 = hdr.tandem.v526;
                meta.v528 = hdr.tandem.v528;
                meta.v591 = hdr.tandem.v591;
                meta.v596 = hdr.tandem.v596;
                meta.v41 = hdr.tandem.v41;
                meta.v48 = hdr.tandem.v48;
                meta.v51 = hdr.tandem.v51;
                meta.v56 = hdr.tandem.v56;
                meta.v61 = hdr.tandem.v61;
                meta.v66 = hdr.tandem.v66;
                meta.v71 = hdr.tandem.v71;
                meta.v286 = hdr.tandem.v286;
                meta.v289 = hdr.tandem.v289;
                meta.v294 = hdr.tandem.v294;
                meta.v299 = hdr.tandem.v299;
                meta.v304 = hdr.tandem.v304;
                meta.v519 = hdr.tandem.v519;
                meta.v532 = hdr.tandem.v532;
                meta.v533 = hdr.tandem.v533;
                meta.v538 = hdr.tandem.v538;
                meta.v543 = hdr.tandem.v543;
                meta.v548 = hdr.tandem.v548;
                meta.v553 = hdr.tandem.v553;
                meta.v558 = hdr.tandem.v558;
                meta.v563 = hdr.tandem.v563;
                meta.v568 = hdr.tandem.v568;
                meta.v573 = hdr.tandem.v573;
                meta.v611 = hdr.tandem.v611;
                meta.v613 = hdr.tandem.v613;
                meta.v617 = hdr.tandem.v617;
                meta.v618 = hdr.tandem.v618;
                meta.v623 = hdr.tandem.v623;
                meta.v628 = hdr.tandem.v628;
                meta.v633 = hdr.tandem.v633;
                meta.v638 = hdr.tandem.v638;
                meta.v643 = hdr.tandem.v643;
                meta.v648 = hdr.tandem.v648;
                meta.v653 = hdr.tandem.v653;
                meta.v658 = hdr.tandem.v658;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
                meta.pkt_len = (bit<16>) (standard_metadata.packet_length - 32w20);
            } else {
                mark_to_drop(standard_metadata);
                exit;
            }
        } else {
            meta.in_port = (bit<16>) standard_metadata.ingress_port;
            meta.pkt_len = (bit<16>) standard_metadata.packet_length;
            meta.v0 = meta.in_port;
            meta.v1 = (bit<32>) meta.v0;
            meta.v3 = (meta.v1 > 32w1) ? 1w1 : 1w0;
            if (meta.v3 == 1w0) {
                meta.v6 = hdr.ipv4.isValid() ? 1w1 : 1w0;
                meta.v8 = meta.v6 ^ 1w1;
                if (meta.v8 == 1w0) {
                    meta.v10 = (meta.v1 == 32w0) ? 1w1 : 1w0;
                    meta.v13 = (meta.v10 == 1w1) ? 8w0 : 8w1;
                    meta.v14 = hdr.ipv4.saddr;
                    meta.v15 = ((meta.v14[7:0] ++ meta.v14[15:8]) ++ meta.v14[23:16]) ++ meta.v14[31:24];
                    meta.v16 = hdr.ipv4.daddr;
                    meta.v17 = ((meta.v16[7:0] ++ meta.v16[15:8]) ++ meta.v16[23:16]) ++ meta.v16[31:24];
                    meta.v19 = (meta.v13 == 8w1) ? 1w1 : 1w0;
                    meta.v20 = (meta.v19 == 1w1) ? meta.v17 : meta.v15;
                    meta.hosts_k0 = meta.v20;
                    meta.wb_hit = 1w0;
                    if (meta.visible == 1w1) {
                        hosts_wb.apply();
                    }
                    if (meta.wb_hit == 1w0) {
                        hosts.apply();
                    }
                    meta.v27 = (meta.v22 == 1w1) ? meta.v23 : 8w0;
                    meta.v29 = (meta.v27 == 8w3) ? 1w1 : 1w0;
                    if (meta.v29 == 1w0) {
                        meta.v30 = hdr.tcp.isValid() ? 1w1 : 1w0;
                        meta.v32 = meta.v30 ^ 1w1;
                        if (meta.v32 == 1w0) {
                            meta.v33 = hdr.tcp.dport;
                            meta.v34 = meta.v33[7:0] ++ meta.v33[15:8];
                            meta.v36 = (meta.v1 == 32w1) ? 1w1 : 1w0;
                            if (meta.v36 == 1w1) {
                                meta.v585 = hdr.tcp.sport;
                                meta.v586 = meta.v585[7:0] ++ meta.v585[15:8];
                                meta.v588 = (meta.v27 == 8w0) ? 1w1 : 1w0;
                                meta.v590 = (meta.v586 == 16w0x1600) ? 1w1 : 1w0;
                                meta.v591 = meta.v590 & meta.v588;
                                if (meta.v591 == 1w1) {
                                    meta.v592 = hdr.tcp.flags;
                                    meta.v594 = meta.v592 & 8w18;
                                    meta.v596 = (meta.v594 == 8w18) ? 1w1 : 1w0;
                                    if (meta.v596 == 1w1) {
                                        meta.to_server = 1w1;
                                    }
                                }
                            } else {
                                meta.v38 = (meta.v27 == 8w1) ? 1w1 : 1w0;
                                if (meta.v38 == 1w1) {
                                    meta.to_server = 1w1;
                                } else {
                                    meta.v526 = (meta.v27 == 8w2) ? 1w1 : 1w0;
                                    if (meta.v526 == 1w1) {
                                        meta.v528 = (meta.v34 == 16w0xb1a) ? 1w1 : 1w0;
                                        if (meta.v528 == 1w1) {
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
            }
            if (meta.to_server == 1w1) {
                hdr.tandem.setValid();
                hdr.tandem.tag = 8w1;
                hdr.tandem.orig_ethertype = hdr.eth.ethertype;
                hdr.eth.ethertype = TANDEM_ETHERTYPE;
                hdr.tandem.v1 = meta.v1;
                hdr.tandem.v3 = meta.v3;
                hdr.tandem.v20 = meta.v20;
                hdr.tandem.v27 = meta.v27;
                hdr.tandem.v29 = meta.v29;
                hdr.tandem.v36 = meta.v36;
                hdr.tandem.v38 = meta.v38;
                hdr.tandem.v526 = meta.v526;
                hdr.tandem.v528 = meta.v528;
                hdr.tandem.v591 = meta.v591;
                hdr.tandem.v596 = meta.v596;
                hdr.tandem.v41 = 1w0;
                hdr.tandem.v48 = 1w0;
                hdr.tandem.v51 = 1w0;
                hdr.tandem.v56 = 1w0;
                hdr.tandem.v61 = 1w0;
                hdr.tandem.v66 = 1w0;
                hdr.tandem.v71 = 1w0;
                hdr.tandem.v286 = 1w0;
                hdr.tandem.v289 = 1w0;
                hdr.tandem.v294 = 1w0;
                hdr.tandem.v299 = 1w0;
                hdr.tandem.v304 = 1w0;
                hdr.tandem.v519 = 1w0;
                hdr.tandem.v532 = 1w0;
                hdr.tandem.v533 = 8w0;
                hdr.tandem.v538 = 1w0;
                hdr.tandem.v543 = 1w0;
                hdr.tandem.v548 = 1w0;
                hdr.tandem.v553 = 1w0;
                hdr.tandem.v558 = 1w0;
                hdr.tandem.v563 = 1w0;
                hdr.tandem.v568 = 1w0;
                hdr.tandem.v573 = 1w0;
                hdr.tandem.v611 = 1w0;
                hdr.tandem.v613 = 1w0;
                hdr.tandem.v617 = 1w0;
                hdr.tandem.v618 = 8w0;
                hdr.tandem.v623 = 1w0;
                hdr.tandem.v628 = 1w0;
                hdr.tandem.v633 = 1w0;
                hdr.tandem.v638 = 1w0;
                hdr.tandem.v643 = 1w0;
                hdr.tandem.v648 = 1w0;
                hdr.tandem.v653 = 1w0;
                hdr.tandem.v658 = 1w0;
                hdr.tandem.pad = 7w0;
            }
        }
        if (meta.to_server == 1w0) {
            if (meta.v3 == 1w1) {
                meta.post_block71 = 1w1;
            } else {
                meta.post_block1 = 1w1;
            }
            if (meta.post_block1 == 1w1) {
                meta.v5 = 32w1 - meta.v1;
                meta.v6 = hdr.ipv4.isValid() ? 1w1 : 1w0;
                meta.v8 = meta.v6 ^ 1w1;
                if (meta.v8 == 1w1) {
                    meta.post_block70 = 1w1;
                } else {
                    meta.post_block2 = 1w1;
                }
            }
            if (meta.post_block2 == 1w1) {
                if (meta.v29 == 1w1) {
                    meta.post_block66 = 1w1;
                } else {
                    meta.post_block3 = 1w1;
                }
            }
            if (meta.post_block3 == 1w1) {
                meta.v30 = hdr.tcp.isValid() ? 1w1 : 1w0;
                meta.v32 = meta.v30 ^ 1w1;
                if (meta.v32 == 1w1) {
                    meta.post_block65 = 1w1;
                } else {
                    meta.post_block4 = 1w1;
                }
            }
            if (meta.post_block4 == 1w1) {
                meta.v33 = hdr.tcp.dport;
                if (meta.v36 == 1w1) {
                    meta.post_block61 = 1w1;
                } else {
                    meta.post_block5 = 1w1;
                }
            }
            if (meta.post_block5 == 1w1) {
                if (meta.v38 == 1w1) {
                    meta.post_block6 = 1w1;
                } else {
                    meta.post_block45 = 1w1;
                }
            }
            if (meta.post_block45 == 1w1) {
                if (meta.v526 == 1w1) {
                    meta.post_block46 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block46 == 1w1) {
                if (meta.v528 == 1w1) {
                    meta.post_block58 = 1w1;
                } else {
                    meta.post_block47 = 1w1;
                }
            }
            if (meta.post_block47 == 1w1) {
                if (meta.v532 == 1w1) {
                    meta.post_block57 = 1w1;
                } else {
                    meta.post_block48 = 1w1;
                }
            }
            if (meta.post_block48 == 1w1) {
                if (meta.v533 == 8w78) {
                    meta.post_block53 = 1w1;
                } else {
                    if (meta.v533 == 8w74) {
                        meta.post_block49 = 1w1;
                    } else {
                        meta.post_block57 = 1w1;
                    }
                }
            }
            if (meta.post_block49 == 1w1) {
                if (meta.v538 == 1w1) {
                    meta.post_block50 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block50 == 1w1) {
                if (meta.v543 == 1w1) {
                    meta.post_block51 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block51 == 1w1) {
                if (meta.v548 == 1w1) {
                    meta.post_block52 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block52 == 1w1) {
                if (meta.v553 == 1w1) {
                    meta.post_block58 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block53 == 1w1) {
                if (meta.v558 == 1w1) {
                    meta.post_block54 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block54 == 1w1) {
                if (meta.v563 == 1w1) {
                    meta.post_block55 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block55 == 1w1) {
                if (meta.v568 == 1w1) {
                    meta.post_block56 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block56 == 1w1) {
                if (meta.v573 == 1w1) {
                    meta.post_block58 = 1w1;
                } else {
                    meta.post_block57 = 1w1;
                }
            }
            if (meta.post_block58 == 1w1) {
                quarantine.read(meta.v580, 32w0);
                meta.v582 = (meta.v580 == 32w0) ? 1w1 : 1w0;
                if (meta.v582 == 1w1) {
                    meta.post_block60 = 1w1;
                } else {
                    meta.post_block59 = 1w1;
                }
            }
            if (meta.post_block59 == 1w1) {
                q_port.read(meta.v583, 32w0);
                meta.v584 = (bit<16>) meta.v583;
                meta.fate = 1w1 ++ meta.v584;
                meta.post_block69 = 1w1;
            }
            if (meta.post_block60 == 1w1) {
                meta.fate = 17w0;
                meta.post_block69 = 1w1;
            }
            if (meta.post_block6 == 1w1) {
                if (meta.v41 == 1w1) {
                    meta.post_block44 = 1w1;
                } else {
                    meta.post_block7 = 1w1;
                }
            }
            if (meta.post_block7 == 1w1) {
                if (meta.v33 == 16w0x1f90) {
                    meta.post_block25 = 1w1;
                } else {
                    if (meta.v33 == 16w80) {
                        meta.post_block25 = 1w1;
                    } else {
                        if (meta.v33 == 16w21) {
                            meta.post_block8 = 1w1;
                        } else {
                            meta.post_block44 = 1w1;
                        }
                    }
                }
            }
            if (meta.post_block8 == 1w1) {
                if (meta.v48 == 1w1) {
                    meta.post_block44 = 1w1;
                } else {
                    meta.post_block9 = 1w1;
                }
            }
            if (meta.post_block9 == 1w1) {
                if (meta.v51 == 1w1) {
                    meta.post_block10 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block10 == 1w1) {
                if (meta.v56 == 1w1) {
                    meta.post_block11 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block11 == 1w1) {
                if (meta.v61 == 1w1) {
                    meta.post_block12 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block12 == 1w1) {
                if (meta.v66 == 1w1) {
                    meta.post_block13 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block13 == 1w1) {
                if (meta.v71 == 1w1) {
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
                if (meta.v286 == 1w1) {
                    meta.post_block44 = 1w1;
                } else {
                    meta.post_block26 = 1w1;
                }
            }
            if (meta.post_block26 == 1w1) {
                if (meta.v289 == 1w1) {
                    meta.post_block27 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block27 == 1w1) {
                if (meta.v294 == 1w1) {
                    meta.post_block28 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block28 == 1w1) {
                if (meta.v299 == 1w1) {
                    meta.post_block29 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block29 == 1w1) {
                if (meta.v304 == 1w1) {
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
                if (meta.v519 == 1w1) {
                    meta.post_block43 = 1w1;
                } else {
                    meta.post_block44 = 1w1;
                }
            }
            if (meta.post_block43 == 1w1) {
                meta.post_block57 = 1w1;
            }
            if (meta.post_block57 == 1w1) {
                meta.v574 = (bit<16>) meta.v5;
                meta.fate = 1w1 ++ meta.v574;
                meta.post_block69 = 1w1;
            }
            if (meta.post_block44 == 1w1) {
                meta.post_block73 = 1w1;
            }
            if (meta.post_block73 == 1w1) {
                if (meta.v611 == 1w1) {
                    meta.post_block74 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block74 == 1w1) {
                if (meta.v613 == 1w1) {
                    meta.post_block86 = 1w1;
                } else {
                    meta.post_block75 = 1w1;
                }
            }
            if (meta.post_block75 == 1w1) {
                if (meta.v617 == 1w1) {
                    meta.post_block85 = 1w1;
                } else {
                    meta.post_block76 = 1w1;
                }
            }
            if (meta.post_block76 == 1w1) {
                if (meta.v618 == 8w78) {
                    meta.post_block81 = 1w1;
                } else {
                    if (meta.v618 == 8w74) {
                        meta.post_block77 = 1w1;
                    } else {
                        meta.post_block85 = 1w1;
                    }
                }
            }
            if (meta.post_block77 == 1w1) {
                if (meta.v623 == 1w1) {
                    meta.post_block78 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block78 == 1w1) {
                if (meta.v628 == 1w1) {
                    meta.post_block79 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block79 == 1w1) {
                if (meta.v633 == 1w1) {
                    meta.post_block80 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block80 == 1w1) {
                if (meta.v638 == 1w1) {
                    meta.post_block86 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block81 == 1w1) {
                if (meta.v643 == 1w1) {
                    meta.post_block82 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block82 == 1w1) {
                if (meta.v648 == 1w1) {
                    meta.post_block83 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block83 == 1w1) {
                if (meta.v653 == 1w1) {
                    meta.post_block84 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block84 == 1w1) {
                if (meta.v658 == 1w1) {
                    meta.post_block86 = 1w1;
                } else {
                    meta.post_block85 = 1w1;
                }
            }
            if (meta.post_block85 == 1w1) {
                meta.v659 = (bit<16>) meta.v5;
                meta.fate = 1w1 ++ meta.v659;
                meta.post_block89 = 1w1;
            }
            if (meta.post_block86 == 1w1) {
                quarantine.read(meta.v665, 32w0);
                meta.v667 = (meta.v665 == 32w0) ? 1w1 : 1w0;
                if (meta.v667 == 1w1) {
                    meta.post_block88 = 1w1;
                } else {
                    meta.post_block87 = 1w1;
                }
            }
            if (meta.post_block87 == 1w1) {
                q_port.read(meta.v668, 32w0);
                meta.v669 = (bit<16>) meta.v668;
                meta.fate = 1w1 ++ meta.v669;
                meta.post_block89 = 1w1;
            }
            if (meta.post_block88 == 1w1) {
                meta.fate = 17w0;
                meta.post_block89 = 1w1;
            }
            if (meta.post_block89 == 1w1) {
                meta.post_block90 = 1w1;
            }
            if (meta.post_block61 == 1w1) {
                meta.post_block64 = 1w1;
            }
            if (meta.post_block64 == 1w1) {
                meta.v602 = (bit<16>) meta.v5;
                meta.fate = 1w1 ++ meta.v602;
                meta.post_block69 = 1w1;
            }
            if (meta.post_block65 == 1w1) {
                meta.v603 = (bit<16>) meta.v5;
                meta.fate = 1w1 ++ meta.v603;
                meta.post_block69 = 1w1;
            }
            if (meta.post_block66 == 1w1) {
                quarantine.read(meta.v604, 32w0);
                meta.v606 = (meta.v604 == 32w0) ? 1w1 : 1w0;
                if (meta.v606 == 1w1) {
                    meta.post_block68 = 1w1;
                } else {
                    meta.post_block67 = 1w1;
                }
            }
            if (meta.post_block67 == 1w1) {
                q_port.read(meta.v607, 32w0);
                meta.v608 = (bit<16>) meta.v607;
                meta.fate = 1w1 ++ meta.v608;
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
                meta.v609 = (bit<16>) meta.v5;
                meta.fate = 1w1 ++ meta.v609;
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
        packet.emit(hdr.ipv4);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
    }
}

V1Switch(TandemParser(), TandemVerifyChecksum(), TandemIngress(), TandemEgress(), TandemComputeChecksum(), TandemDeparser()) main;
