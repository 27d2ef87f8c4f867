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

header VxlanHdr_t {
    bit<8> flags;
    bit<24> rsvd1;
    bit<24> vni;
    bit<8> rsvd2;
}

header InnerEthHdr_t {
    bit<48> dst;
    bit<48> src;
    bit<16> ethertype;
}

header InnerIpv4Hdr_t {
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
    VxlanHdr_t VxlanHdr;
    InnerEthHdr_t InnerEthHdr;
    InnerIpv4Hdr_t InnerIpv4Hdr;
}

struct meta_t {
    bit<1> to_server;
    bit<17> fate;
    bit<1> ipv4_ok;
    bit<32> vrf_of_k0;
    bit<32> routes_k0;
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
    bit<8> tmp8_0;
    bit<16> tmp16_0;
    bit<16> tmp16_1;
    bit<16> tmp16_2;
    bit<16> tmp16_3;
    bit<24> tmp24_0;
    bit<24> tmp24_1;
    bit<24> tmp24_2;
    bit<32> tmp32_0;
    bit<32> tmp32_1;
    bit<32> tmp32_2;
    bit<32> tmp32_3;
    bit<32> tmp32_4;
    bit<32> tmp32_5;
    bit<32> tmp32_6;
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
        transition select(hdr.udp.dport) {
            16w0x12b5: parse_VxlanHdr;
            default: accept;
        }
    }
    state parse_VxlanHdr {
        packet.extract(hdr.VxlanHdr);
        transition parse_InnerEthHdr;
    }
    state parse_InnerEthHdr {
        packet.extract(hdr.InnerEthHdr);
        transition select(hdr.InnerEthHdr.ethertype) {
            16w0x800: parse_InnerIpv4Hdr;
            default: accept;
        }
    }
    state parse_InnerIpv4Hdr {
        packet.extract(hdr.InnerIpv4Hdr);
        transition accept;
    }
}

control TandemIngress(inout headers_t hdr, inout meta_t meta, in ingress_intrinsic_metadata_t ig_intr_md, in ingress_intrinsic_metadata_from_parser_t ig_prsr_md, inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md, inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    action vrf_of_hit(bit<32> v0) {
        meta.tmp1_10 = 1w1;
        meta.tmp32_0 = v0;
    }
    action vrf_of_miss() {
        meta.tmp1_10 = 1w0;
        meta.tmp32_0 = 32w0;
    }
    table vrf_of {
        key = {
            meta.vrf_of_k0: exact;
        }
        actions = {
            vrf_of_hit;
            vrf_of_miss;
        }
        default_action = vrf_of_miss();
        size = 255;
    }
    action routes_hit(bit<32> v0, bit<32> v4, bit<32> v8) {
        meta.tmp1_10 = 1w1;
        meta.tmp32_0 = v0;
        meta.tmp32_1 = v4;
        meta.tmp32_2 = v8;
    }
    action routes_miss() {
        meta.tmp1_10 = 1w0;
        meta.tmp32_0 = 32w0;
        meta.tmp32_1 = 32w0;
        meta.tmp32_2 = 32w0;
    }
    table routes {
        key = {
            meta.routes_k0: lpm;
        }
        actions = {
            routes_hit;
            routes_miss;
        }
        default_action = routes_miss();
        size = 0x1000;
    }
    Register<bit<32>, bit<32> >(32w16) vni_pkts_e0;
    Register<bit<32>, bit<32> >(32w1) vni_pkts_size;
    Register<bit<32>, bit<32> >(32w1) gateway_0;
    Register<bit<32>, bit<32> >(32w1) gateway_1;
    apply {
        meta.tmp1_0 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
        meta.tmp1_1 = meta.tmp1_0 ^ 1w1;
        meta.tmp1_2 = hdr.VxlanHdr.isValid() ? 1w1 : 1w0;
        meta.tmp1_3 = meta.tmp1_2 ^ 1w1;
        meta.tmp1_4 = meta.tmp1_1 | meta.tmp1_3;
        meta.tmp1_5 = hdr.InnerIpv4Hdr.isValid() ? 1w1 : 1w0;
        meta.tmp1_6 = meta.tmp1_5 ^ 1w1;
        meta.tmp1_7 = meta.tmp1_4 | meta.tmp1_6;
        if (meta.tmp1_7 == 1w0) {
            meta.tmp8_0 = hdr.VxlanHdr.flags;
            meta.tmp1_8 = ((meta.tmp8_0 & 8w8) == 8w0) ? 1w1 : 1w0;
            if (meta.tmp1_8 == 1w0) {
                meta.tmp32_0 = hdr.ipv4.daddr;
                meta.tmp32_1 = gateway_0.read(32w0);
                meta.tmp1_9 = ((((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24]) == meta.tmp32_1) ? 1w1 : 1w0;
                if (meta.tmp1_9 == 1w1) {
                    meta.tmp24_0 = hdr.VxlanHdr.vni;
                    meta.tmp24_1 = hdr.VxlanHdr.vni;
                    meta.tmp24_2 = hdr.VxlanHdr.vni;
                    meta.tmp32_0 = (bit<32>) ((bit<8>) (((meta.tmp24_2[7:0] ++ meta.tmp24_2[15:8]) ++ meta.tmp24_2[23:16]) >> 8w16));
                    meta.tmp32_1 = meta.tmp32_0 & 32w15;
                    meta.tmp32_2 = vni_pkts_size.read(32w0);
                    meta.tmp1_10 = (meta.tmp32_1 < meta.tmp32_2) ? 1w1 : 1w0;
                    meta.tmp32_3 = vni_pkts_e0.read((meta.tmp1_10 == 1w1) ? meta.tmp32_1 : 32w0);
                    if (meta.tmp32_1 < meta.tmp32_2) {
                        vni_pkts_e0.write(meta.tmp32_1, ((meta.tmp1_10 == 1w1) ? meta.tmp32_3 : 32w0) + 32w1);
                    }
                    meta.vrf_of_k0 = ((((bit<32>) ((bit<8>) (((meta.tmp24_1[7:0] ++ meta.tmp24_1[15:8]) ++ meta.tmp24_1[23:16]) >> 8w8))) << 8w8) | (((bit<32>) ((bit<8>) ((meta.tmp24_0[7:0] ++ meta.tmp24_0[15:8]) ++ meta.tmp24_0[23:16]))) << 8w16)) | meta.tmp32_0;
                    vrf_of.apply();
                    meta.tmp1_11 = meta.tmp1_10 ^ 1w1;
                    if (meta.tmp1_11 == 1w0) {
                        meta.tmp32_1 = hdr.InnerIpv4Hdr.daddr;
                        meta.tmp32_2 = 32w24 & 32w31;
                        meta.tmp32_3 = 32w32 - meta.tmp32_2;
                        meta.routes_k0 = (meta.tmp32_0 << ((bit<8>) ((meta.tmp32_2 < 32w32) ? meta.tmp32_2 : 32w32))) | (meta.tmp32_1 >> ((bit<8>) ((meta.tmp32_3 < 32w32) ? meta.tmp32_3 : 32w32)));
                        routes.apply();
                        meta.tmp1_12 = meta.tmp1_10 ^ 1w1;
                        if (meta.tmp1_12 == 1w0) {
                            meta.tmp8_0 = hdr.ipv4.ttl;
                            meta.tmp1_10 = (meta.tmp8_0 < 8w2) ? 1w1 : 1w0;
                            if (meta.tmp1_10 == 1w0) {
                                meta.tmp32_3 = hdr.ipv4.saddr;
                                meta.tmp32_4 = hdr.ipv4.daddr;
                                meta.tmp32_5 = gateway_1.read(32w0);
                                hdr.ipv4.saddr = ((meta.tmp32_5[7:0] ++ meta.tmp32_5[15:8]) ++ meta.tmp32_5[23:16]) ++ meta.tmp32_5[31:24];
                                hdr.ipv4.daddr = meta.tmp32_0;
                                hdr.ipv4.ttl = meta.tmp8_0 + 8w255;
                                meta.tmp24_0 = hdr.VxlanHdr.vni;
                                meta.tmp24_1 = ((bit<24>) ((bit<8>) (meta.tmp32_1 >> 8w16))) | (((bit<24>) ((bit<16>) (((meta.tmp24_0[7:0] ++ meta.tmp24_0[15:8]) ++ meta.tmp24_0[23:16]) >> 8w8))) << 8w8);
                                hdr.VxlanHdr.vni = (meta.tmp24_1[7:0] ++ meta.tmp24_1[15:8]) ++ meta.tmp24_1[23:16];
                            }
                        }
                    }
                }
            }
        }
        meta.tmp1_0 = (meta.ipv4_ok == 1w1) ? 1w1 : 1w0;
        meta.tmp1_1 = meta.tmp1_0 ^ 1w1;
        meta.tmp1_2 = hdr.VxlanHdr.isValid() ? 1w1 : 1w0;
        meta.tmp1_3 = meta.tmp1_2 ^ 1w1;
        meta.tmp1_4 = meta.tmp1_1 | meta.tmp1_3;
        meta.tmp1_5 = hdr.InnerIpv4Hdr.isValid() ? 1w1 : 1w0;
        meta.tmp1_6 = meta.tmp1_5 ^ 1w1;
        meta.tmp1_7 = meta.tmp1_4 | meta.tmp1_6;
        if (meta.tmp1_7 == 1w1) {
            meta.fate = 17w0;
        } else {
            if (meta.tmp1_8 == 1w1) {
                meta.fate = 17w0;
            } else {
                if (meta.tmp1_9 == 1w1) {
                    if (meta.tmp1_11 == 1w1) {
                        meta.fate = 17w0;
                    } else {
                        if (meta.tmp1_12 == 1w1) {
                            meta.fate = 17w0;
                        } else {
                            if (meta.tmp1_10 == 1w1) {
                                meta.fate = 17w0;
                            } else {
                                meta.tmp32_6 = ((meta.tmp32_3[7:0] ++ meta.tmp32_3[15:8]) ++ meta.tmp32_3[23:16]) ++ meta.tmp32_3[31:24];
                                meta.tmp32_3 = ((meta.tmp32_4[7:0] ++ meta.tmp32_4[15:8]) ++ meta.tmp32_4[23:16]) ++ meta.tmp32_4[31:24];
                                meta.tmp32_4 = ((meta.tmp32_0[7:0] ++ meta.tmp32_0[15:8]) ++ meta.tmp32_0[23:16]) ++ meta.tmp32_0[31:24];
                                meta.tmp16_0 = hdr.ipv4.check;
                                meta.tmp32_0 = (((((meta.tmp32_6 & 32w0xffff) ^ 32w0xffff) + ((meta.tmp32_6 ^ 32w0xffffffff) >> 8w16)) + (meta.tmp32_5 >> 8w16)) + (meta.tmp32_5 & 32w0xffff)) + ((bit<32>) ((meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8]) ^ 16w0xffff));
                                meta.tmp32_5 = (meta.tmp32_0 & 32w0xffff) + (meta.tmp32_0 >> 8w16);
                                meta.tmp32_0 = (((((meta.tmp32_3 & 32w0xffff) ^ 32w0xffff) + ((meta.tmp32_3 ^ 32w0xffffffff) >> 8w16)) + (meta.tmp32_4 >> 8w16)) + (meta.tmp32_4 & 32w0xffff)) + (((meta.tmp32_5 >> 8w16) + meta.tmp32_5) & 32w0xffff);
                                meta.tmp32_3 = (meta.tmp32_0 & 32w0xffff) + (meta.tmp32_0 >> 8w16);
                                meta.tmp16_0 = ((bit<16>) meta.tmp8_0) << 8w8;
                                meta.tmp8_0 = hdr.ipv4.protocol;
                                meta.tmp16_1 = (bit<16>) meta.tmp8_0;
                                meta.tmp16_2 = (meta.tmp16_0 + 16w0xff00) | meta.tmp16_1;
                                meta.tmp16_3 = (meta.tmp16_0 | meta.tmp16_1) ^ 16w0xffff;
                                meta.tmp32_0 = (((bit<32>) (meta.tmp16_2[7:0] ++ meta.tmp16_2[15:8])) + ((bit<32>) (meta.tmp16_3[7:0] ++ meta.tmp16_3[15:8]))) + (((meta.tmp32_3 >> 8w16) + meta.tmp32_3) & 32w0xffff);
                                meta.tmp32_3 = (meta.tmp32_0 & 32w0xffff) + (meta.tmp32_0 >> 8w16);
                                meta.tmp16_0 = ((bit<16>) ((meta.tmp32_3 >> 8w16) + meta.tmp32_3)) ^ 16w0xffff;
                                hdr.ipv4.check = meta.tmp16_0[7:0] ++ meta.tmp16_0[15:8];
                                meta.tmp24_0 = hdr.VxlanHdr.vni;
                                meta.tmp24_1 = (meta.tmp24_0[7:0] ++ meta.tmp24_0[15:8]) ++ meta.tmp24_0[23:16];
                                meta.tmp24_0 = (((bit<24>) ((bit<8>) meta.tmp24_1)) | (((bit<24>) ((bit<8>) (meta.tmp32_1 >> 8w8))) << 8w8)) | (((bit<24>) ((bit<8>) (meta.tmp24_1 >> 8w16))) << 8w16);
                                hdr.VxlanHdr.vni = (meta.tmp24_0[7:0] ++ meta.tmp24_0[15:8]) ++ meta.tmp24_0[23:16];
                                meta.tmp24_0 = hdr.VxlanHdr.vni;
                                meta.tmp24_1 = ((bit<24>) ((bit<16>) ((meta.tmp24_0[7:0] ++ meta.tmp24_0[15:8]) ++ meta.tmp24_0[23:16]))) | (((bit<24>) ((bit<8>) meta.tmp32_1)) << 8w16);
                                hdr.VxlanHdr.vni = (meta.tmp24_1[7:0] ++ meta.tmp24_1[15:8]) ++ meta.tmp24_1[23:16];
                                meta.fate = 1w1 ++ ((bit<16>) meta.tmp32_2);
                            }
                        }
                    }
                } else {
                    meta.fate = 17w0;
                }
            }
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
        packet.emit(hdr.VxlanHdr);
        packet.emit(hdr.InnerEthHdr);
        packet.emit(hdr.InnerIpv4Hdr);
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
