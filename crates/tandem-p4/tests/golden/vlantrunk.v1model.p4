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

header VlanHdr_t {
    bit<16> tci;
    bit<16> ethertype;
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
    VlanHdr_t VlanHdr;
}

struct meta_t {
    bit<1> to_server;
    bit<17> fate;
    bit<1> ipv4_ok;
    bit<32> vlan_of_k0;
    bit<16> in_port;
    bit<1> tmp1_0;
    bit<1> tmp1_1;
    bit<1> tmp1_2;
    bit<1> tmp1_3;
    bit<1> tmp1_4;
    bit<1> tmp1_5;
    bit<8> tmp8_0;
    bit<16> tmp16_0;
    bit<16> tmp16_1;
    bit<32> tmp32_0;
    bit<32> tmp32_1;
    bit<32> tmp32_2;
}

parser TandemParser(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.eth);
        transition select(standard_metadata.ingress_port, hdr.eth.ethertype) {
            (_, 16w0x8100): parse_VlanHdr;
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
    state parse_VlanHdr {
        packet.extract(hdr.VlanHdr);
        transition select(hdr.VlanHdr.ethertype) {
            16w0x800: parse_ipv4;
            default: accept;
        }
    }
}

control TandemVerifyChecksum(inout headers_t hdr, inout meta_t meta) {
    apply {
    }
}

control TandemIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t standard_metadata) {
    action vlan_of_hit(bit<16> v0) {
        meta.tmp1_3 = 1w1;
        meta.tmp16_1 = v0;
    }
    action vlan_of_miss() {
        meta.tmp1_3 = 1w0;
        meta.tmp16_1 = 16w0;
    }
    table vlan_of {
        key = {
            meta.vlan_of_k0: lpm;
        }
        actions = {
            vlan_of_hit;
            vlan_of_miss;
        }
        default_action = vlan_of_miss();
        size = 0x400;
    }
    register<bit<32> >(32w0x1000) vlan_pkts_e0;
    register<bit<32> >(32w1) vlan_pkts_size;
    register<bit<32> >(32w1) access_port;
    register<bit<32> >(32w1) trunk_port_0;
    register<bit<32> >(32w1) trunk_port_1;
    apply {
        meta.in_port = (bit<16>) standard_metadata.ingress_port;
        meta.tmp1_0 = hdr.eth.isValid() ? 1w1 : 1w0;
        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
        if (meta.tmp1_0 == 1w0) {
            trunk_port_0.read(meta.tmp32_0, 32w0);
            meta.tmp1_1 = (((bit<32>) meta.in_port) == meta.tmp32_0) ? 1w1 : 1w0;
            if (meta.tmp1_1 == 1w1) {
                meta.tmp1_2 = hdr.VlanHdr.isValid() ? 1w1 : 1w0;
                meta.tmp1_2 = meta.tmp1_2 ^ 1w1;
                if (meta.tmp1_2 == 1w0) {
                    meta.tmp16_0 = hdr.VlanHdr.tci;
                    meta.tmp16_0 = (meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8]) & 16w0xff0f;
                    meta.tmp16_0 = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                    vlan_pkts_size.read(meta.tmp32_0, 32w0);
                    meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                    meta.tmp1_3 = (meta.tmp32_1 < meta.tmp32_0) ? 1w1 : 1w0;
                    meta.tmp32_2 = (meta.tmp1_3 == 1w1) ? meta.tmp32_1 : 32w0;
                    vlan_pkts_e0.read(meta.tmp32_2, meta.tmp32_2);
                    meta.tmp32_2 = (meta.tmp1_3 == 1w1) ? meta.tmp32_2 : 32w0;
                    meta.tmp32_2 = meta.tmp32_2 + 32w1;
                    meta.tmp1_3 = (meta.tmp32_1 < meta.tmp32_0) ? 1w1 : 1w0;
                    if (meta.tmp1_3 == 1w1) {
                        vlan_pkts_e0.write(meta.tmp32_1, meta.tmp32_2);
                    }
                }
            } else {
                meta.tmp1_4 = ((meta.ipv4_ok == 1w1) ? 1w1 : 1w0) ^ 1w1;
                if (meta.tmp1_4 == 1w0) {
                    meta.tmp32_0 = hdr.ipv4.saddr;
                    meta.vlan_of_k0 = meta.tmp32_0;
                    vlan_of.apply();
                    meta.tmp1_5 = meta.tmp1_3 ^ 1w1;
                    if (meta.tmp1_5 == 1w0) {
                        meta.tmp16_0 = meta.tmp16_1;
                        vlan_pkts_size.read(meta.tmp32_0, 32w0);
                        meta.tmp32_1 = (bit<32>) meta.tmp16_0;
                        meta.tmp1_3 = (meta.tmp32_1 < meta.tmp32_0) ? 1w1 : 1w0;
                        meta.tmp32_2 = (meta.tmp1_3 == 1w1) ? meta.tmp32_1 : 32w0;
                        vlan_pkts_e0.read(meta.tmp32_2, meta.tmp32_2);
                        meta.tmp32_2 = (meta.tmp1_3 == 1w1) ? meta.tmp32_2 : 32w0;
                        meta.tmp32_2 = meta.tmp32_2 + 32w1;
                        meta.tmp1_3 = (meta.tmp32_1 < meta.tmp32_0) ? 1w1 : 1w0;
                        if (meta.tmp1_3 == 1w1) {
                            vlan_pkts_e0.write(meta.tmp32_1, meta.tmp32_2);
                        }
                    }
                }
            }
        }
        if (meta.tmp1_0 == 1w1) {
            meta.fate = 17w0;
        } else {
            if (meta.tmp1_1 == 1w1) {
                if (meta.tmp1_2 == 1w1) {
                    meta.fate = 17w0;
                } else {
                    meta.tmp16_0 = hdr.VlanHdr.ethertype;
                    hdr.eth.ethertype = meta.tmp16_0;
                    hdr.VlanHdr.setInvalid();
                    meta.tmp8_0 = 8w0;
                    access_port.read(meta.tmp32_0, 32w0);
                    trunk_port_1.read(meta.tmp32_1, 32w0);
                    meta.tmp1_0 = (meta.tmp8_0 == 8w1) ? 1w1 : 1w0;
                    meta.tmp32_0 = (meta.tmp1_0 == 1w1) ? meta.tmp32_1 : meta.tmp32_0;
                    meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                    meta.fate = 1w1 ++ meta.tmp16_0;
                }
            } else {
                if (meta.tmp1_4 == 1w1) {
                    meta.fate = 17w0;
                } else {
                    if (meta.tmp1_5 == 1w1) {
                        meta.fate = 17w0;
                    } else {
                        if (hdr.VlanHdr.isValid()) {
                        } else {
                            hdr.VlanHdr.setValid();
                            hdr.VlanHdr.tci = 16w0;
                            hdr.VlanHdr.ethertype = 16w0;
                        }
                        hdr.VlanHdr.tci = meta.tmp16_1;
                        meta.tmp16_0 = hdr.eth.ethertype;
                        hdr.VlanHdr.ethertype = meta.tmp16_0;
                        hdr.eth.ethertype = 16w0x8100;
                        meta.tmp8_0 = 8w1;
                        access_port.read(meta.tmp32_0, 32w0);
                        trunk_port_1.read(meta.tmp32_1, 32w0);
                        meta.tmp1_0 = (meta.tmp8_0 == 8w1) ? 1w1 : 1w0;
                        meta.tmp32_0 = (meta.tmp1_0 == 1w1) ? meta.tmp32_1 : meta.tmp32_0;
                        meta.tmp16_0 = (bit<16>) meta.tmp32_0;
                        meta.fate = 1w1 ++ meta.tmp16_0;
                    }
                }
            }
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
        packet.emit(hdr.VlanHdr);
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
