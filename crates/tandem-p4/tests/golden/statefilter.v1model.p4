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
    bit<1> v37;
    bit<1> v38;
    bit<1> v41;
    bit<32> v45;
    bit<16> v47;
    bit<16> v48;
    bit<1> v59;
    bit<17> fate;
    bit<2> pad;
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
    bit<16> v0;
    bit<32> v1;
    bit<1> v3;
    bit<1> v6;
    bit<1> v8;
    bit<1> v9;
    bit<1> v11;
    bit<1> v12;
    bit<8> v15;
    bit<16> v16;
    bit<16> v17;
    bit<16> v18;
    bit<16> v19;
    bit<1> v21;
    bit<16> v22;
    bit<8> v25;
    bit<16> v26;
    bit<16> v27;
    bit<16> v28;
    bit<16> v29;
    bit<1> v31;
    bit<16> v32;
    bit<32> v33;
    bit<32> v34;
    bit<32> v35;
    bit<32> v36;
    bit<1> v37;
    bit<32> v45;
    bit<16> v47;
    bit<16> v48;
    bit<1> v38;
    bit<16> v39;
    bit<16> v40;
    bit<1> v41;
    bit<8> v50;
    bit<32> v54;
    bit<32> v56;
    bit<32> v57;
    bit<1> v59;
    bit<32> v60;
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
    register<bit<32> >(32w1) new_from;
    register<bit<32> >(32w1) udp_mode;
    apply {
        meta.now = ((bit<64>) standard_metadata.ingress_global_timestamp) * 64w0x3e8;
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.v1 = hdr.tandem.v1;
                meta.v3 = hdr.tandem.v3;
                meta.v37 = hdr.tandem.v37;
                meta.v38 = hdr.tandem.v38;
                meta.v41 = hdr.tandem.v41;
                meta.v45 = hdr.tandem.v45;
                meta.v47 = hdr.tandem.v47;
                meta.v48 = hdr.tandem.v48;
                meta.v59 = hdr.tandem.v59;
                meta.fate = hdr.tandem.fate;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
                meta.pkt_len = (bit<16>) (standard_metadata.packet_length - 32w18);
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
            if (meta.v3 == 1w1) {
                meta.to_server = 1w1;
            } else {
                meta.to_server = 1w1;
                meta.v6 = hdr.tcp.isValid() ? 1w1 : 1w0;
                meta.v8 = meta.v6 ^ 1w1;
                meta.v9 = hdr.udp.isValid() ? 1w1 : 1w0;
                meta.v11 = meta.v9 ^ 1w1;
                meta.v12 = meta.v8 & meta.v11;
                if (meta.v12 == 1w1) {
                    meta.to_server = 1w1;
                } else {
                    meta.v15 = (meta.v8 == 1w1) ? 8w0 : 8w1;
                    meta.v16 = hdr.udp.sport;
                    meta.v17 = meta.v16[7:0] ++ meta.v16[15:8];
                    meta.v18 = hdr.tcp.sport;
                    meta.v19 = meta.v18[7:0] ++ meta.v18[15:8];
                    meta.v21 = (meta.v15 == 8w1) ? 1w1 : 1w0;
                    meta.v22 = (meta.v21 == 1w1) ? meta.v19 : meta.v17;
                    meta.v25 = (meta.v8 == 1w1) ? 8w0 : 8w1;
                    meta.v26 = hdr.udp.dport;
                    meta.v27 = meta.v26[7:0] ++ meta.v26[15:8];
                    meta.v28 = hdr.tcp.dport;
                    meta.v29 = meta.v28[7:0] ++ meta.v28[15:8];
                    meta.v31 = (meta.v25 == 8w1) ? 1w1 : 1w0;
                    meta.v32 = (meta.v31 == 1w1) ? meta.v29 : meta.v27;
                    meta.v33 = hdr.ipv4.saddr;
                    meta.v34 = ((meta.v33[7:0] ++ meta.v33[15:8]) ++ meta.v33[23:16]) ++ meta.v33[31:24];
                    meta.v35 = hdr.ipv4.daddr;
                    meta.v36 = ((meta.v35[7:0] ++ meta.v35[15:8]) ++ meta.v35[23:16]) ++ meta.v35[31:24];
                    meta.v37 = (meta.v33 < meta.v35) ? 1w1 : 1w0;
                    if (meta.v37 == 1w1) {
                        meta.v45 = meta.v34;
                        meta.v47 = meta.v22;
                        meta.v48 = meta.v32;
                    } else {
                        meta.v38 = (meta.v34 == meta.v36) ? 1w1 : 1w0;
                        if (meta.v38 == 1w1) {
                            meta.v39 = meta.v22[7:0] ++ meta.v22[15:8];
                            meta.v40 = meta.v32[7:0] ++ meta.v32[15:8];
                            meta.v41 = (meta.v39 > meta.v40) ? 1w1 : 1w0;
                            if (meta.v41 == 1w1) {
                                meta.v45 = meta.v36;
                                meta.v47 = meta.v32;
                                meta.v48 = meta.v22;
                            } else {
                                meta.v45 = meta.v34;
                                meta.v47 = meta.v22;
                                meta.v48 = meta.v32;
                            }
                        } else {
                            meta.v45 = meta.v36;
                            meta.v47 = meta.v32;
                            meta.v48 = meta.v22;
                        }
                    }
                    meta.to_server = 1w1;
                    meta.v50 = hdr.ipv4.protocol;
                    new_from.read(meta.v54, 32w0);
                    meta.v56 = 32w1 << meta.v1;
                    meta.v57 = meta.v54 & meta.v56;
                    meta.v59 = (meta.v57 == 32w0) ? 1w1 : 1w0;
                    if (meta.v11 == 1w1) {
                        meta.to_server = 1w1;
                    } else {
                        udp_mode.read(meta.v60, 32w0);
                        if (meta.v60 == 32w1) {
                            meta.to_server = 1w1;
                        } else {
                            if (meta.v60 == 32w0) {
                                meta.to_server = 1w1;
                            } else {
                                meta.to_server = 1w1;
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
                hdr.tandem.v37 = meta.v37;
                hdr.tandem.v38 = meta.v38;
                hdr.tandem.v41 = meta.v41;
                hdr.tandem.v45 = meta.v45;
                hdr.tandem.v47 = meta.v47;
                hdr.tandem.v48 = meta.v48;
                hdr.tandem.v59 = meta.v59;
                hdr.tandem.fate = meta.fate;
                hdr.tandem.pad = 2w0;
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
