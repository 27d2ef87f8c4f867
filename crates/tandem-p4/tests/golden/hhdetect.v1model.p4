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
    bit<1> tmp1_0;
    bit<16> tmp16_0;
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
    register<bit<32> >(32w0x400) by_crc32_e0;
    register<bit<32> >(32w1) by_crc32_size;
    register<bit<32> >(32w0x400) by_crc16_e0;
    register<bit<32> >(32w1) by_crc16_size;
    register<bit<32> >(32w1) threshold;
    register<bit<32> >(32w1) out_port_0;
    register<bit<32> >(32w1) out_port_1;
    register<bit<32> >(32w1) heavy_port;
    apply {
        meta.tmp1_0 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
        if (meta.tmp1_0 == 1w0) {
            meta.tmp32_0 = hdr.ipv4.saddr;
            meta.tmp32_1 = hdr.ipv4.daddr;
            hash(meta.tmp32_2, HashAlgorithm.crc32, 32w0, {meta.tmp32_0, meta.tmp32_1}, 64w0x100000000);
            by_crc32_size.read(meta.tmp32_3, 32w0);
            meta.tmp32_2 = meta.tmp32_2 & 32w0x3ff;
            meta.tmp1_0 = (meta.tmp32_2 < meta.tmp32_3) ? 1w1 : 1w0;
            by_crc32_e0.read(meta.tmp32_4, (meta.tmp1_0 == 1w1) ? meta.tmp32_2 : 32w0);
            meta.tmp32_4 = ((meta.tmp1_0 == 1w1) ? meta.tmp32_4 : 32w0) + 32w1;
            if (meta.tmp32_2 < meta.tmp32_3) {
                by_crc32_e0.write(meta.tmp32_2, meta.tmp32_4);
            }
            hash(meta.tmp16_0, HashAlgorithm.crc16, 16w0, {meta.tmp32_0, meta.tmp32_1}, 64w0x10000);
            by_crc16_size.read(meta.tmp32_0, 32w0);
            meta.tmp32_1 = ((bit<32>) meta.tmp16_0) & 32w0x3ff;
            meta.tmp1_0 = (meta.tmp32_1 < meta.tmp32_0) ? 1w1 : 1w0;
            by_crc16_e0.read(meta.tmp32_2, (meta.tmp1_0 == 1w1) ? meta.tmp32_1 : 32w0);
            meta.tmp32_2 = ((meta.tmp1_0 == 1w1) ? meta.tmp32_2 : 32w0) + 32w1;
            if (meta.tmp32_1 < meta.tmp32_0) {
                by_crc16_e0.write(meta.tmp32_1, meta.tmp32_2);
            }
        }
        meta.tmp1_0 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
        if (meta.tmp1_0 == 1w1) {
            out_port_1.read(meta.tmp32_0, 32w0);
            meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
        } else {
            threshold.read(meta.tmp32_0, 32w0);
            heavy_port.read(meta.tmp32_1, 32w0);
            out_port_0.read(meta.tmp32_3, 32w0);
            meta.fate = 1w1 ++ ((bit<16>) ((((meta.tmp32_4 < meta.tmp32_2) ? meta.tmp32_4 : meta.tmp32_2) > meta.tmp32_0) ? meta.tmp32_1 : meta.tmp32_3));
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
