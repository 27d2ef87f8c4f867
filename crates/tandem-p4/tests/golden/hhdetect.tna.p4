#include <core.p4>
#include <tna.p4>

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

struct eg_headers_t {
}

struct eg_meta_t {
}

parser TandemIngressParser(packet_in packet, out headers_t hdr, out meta_t meta, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        packet.extract(ig_intr_md);
        packet.advance(PORT_METADATA_SIZE);
        meta.to_server = 1w0;
        meta.fate = 17w0;
        meta.ipv4_ok = 1w0;
        packet.extract(hdr.eth);
        transition select(ig_intr_md.ingress_port, hdr.eth.ethertype) {
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

control TandemIngress(inout headers_t hdr, inout meta_t meta, in ingress_intrinsic_metadata_t ig_intr_md, in ingress_intrinsic_metadata_from_parser_t ig_prsr_md, inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md, inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, bit<32> >(32w0x400) by_crc32_e0;
    Register<bit<32>, bit<32> >(32w1) by_crc32_size;
    Register<bit<32>, bit<32> >(32w0x400) by_crc16_e0;
    Register<bit<32>, bit<32> >(32w1) by_crc16_size;
    Register<bit<32>, bit<32> >(32w1) threshold;
    Register<bit<32>, bit<32> >(32w1) out_port_0;
    Register<bit<32>, bit<32> >(32w1) out_port_1;
    Register<bit<32>, bit<32> >(32w1) heavy_port;
    Hash<bit<32> >(HashAlgorithm_t.CRC32) hash_v5;
    Hash<bit<16> >(HashAlgorithm_t.CRC16) hash_v20;
    apply {
        meta.tmp1_0 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
        if (meta.tmp1_0 == 1w0) {
            meta.tmp32_0 = hdr.ipv4.saddr;
            meta.tmp32_1 = hdr.ipv4.daddr;
            meta.tmp32_2 = hash_v5.get({meta.tmp32_0, meta.tmp32_1});
            meta.tmp32_3 = by_crc32_size.read(32w0);
            meta.tmp32_2 = meta.tmp32_2 & 32w0x3ff;
            meta.tmp1_0 = (meta.tmp32_2 < meta.tmp32_3) ? 1w1 : 1w0;
            meta.tmp32_4 = by_crc32_e0.read((meta.tmp1_0 == 1w1) ? meta.tmp32_2 : 32w0);
            meta.tmp32_4 = ((meta.tmp1_0 == 1w1) ? meta.tmp32_4 : 32w0) + 32w1;
            if (meta.tmp32_2 < meta.tmp32_3) {
                by_crc32_e0.write(meta.tmp32_2, meta.tmp32_4);
            }
            meta.tmp16_0 = hash_v20.get({meta.tmp32_0, meta.tmp32_1});
            meta.tmp32_0 = by_crc16_size.read(32w0);
            meta.tmp32_1 = ((bit<32>) meta.tmp16_0) & 32w0x3ff;
            meta.tmp1_0 = (meta.tmp32_1 < meta.tmp32_0) ? 1w1 : 1w0;
            meta.tmp32_2 = by_crc16_e0.read((meta.tmp1_0 == 1w1) ? meta.tmp32_1 : 32w0);
            meta.tmp32_2 = ((meta.tmp1_0 == 1w1) ? meta.tmp32_2 : 32w0) + 32w1;
            if (meta.tmp32_1 < meta.tmp32_0) {
                by_crc16_e0.write(meta.tmp32_1, meta.tmp32_2);
            }
        }
        meta.tmp1_0 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
        meta.tmp1_0 = meta.tmp1_0 ^ 1w1;
        if (meta.tmp1_0 == 1w1) {
            meta.tmp32_0 = out_port_1.read(32w0);
            meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_0);
        } else {
            meta.tmp32_0 = threshold.read(32w0);
            meta.tmp32_1 = heavy_port.read(32w0);
            meta.tmp32_3 = out_port_0.read(32w0);
            meta.fate = 1w1 ++ ((bit<16>) ((((meta.tmp32_4 < meta.tmp32_2) ? meta.tmp32_4 : meta.tmp32_2) > meta.tmp32_0) ? meta.tmp32_1 : meta.tmp32_3));
        }
        if (meta.fate[16:16] == 1w1) {
            ig_tm_md.ucast_egress_port = (bit<9>) meta.fate[15:0];
        } else {
            ig_dprsr_md.drop_ctl = 3w1;
        }
    }
}

control TandemIngressDeparser(packet_out packet, inout headers_t hdr, in meta_t meta, in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
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

parser TandemEgressParser(packet_in packet, out eg_headers_t hdr, out eg_meta_t meta, out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        packet.extract(eg_intr_md);
        transition accept;
    }
}

control TandemEgress(inout eg_headers_t hdr, inout eg_meta_t meta, in egress_intrinsic_metadata_t eg_intr_md, in egress_intrinsic_metadata_from_parser_t eg_prsr_md, inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md, inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
    }
}

control TandemEgressDeparser(packet_out packet, inout eg_headers_t hdr, in eg_meta_t meta, in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
    }
}

Pipeline(TandemIngressParser(), TandemIngress(), TandemIngressDeparser(), TandemEgressParser(), TandemEgress(), TandemEgressDeparser()) pipe;

Switch(pipe) main;
