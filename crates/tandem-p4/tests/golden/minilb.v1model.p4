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
    bit<32> v7;
    bit<1> v12;
    bit<32> v23;
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
    bit<16> map_k0;
    bit<1> v9;
    bit<32> v10;
    bit<1> visible;
    bit<1> wb_hit;
    bit<1> v0;
    bit<1> v2;
    bit<32> v3;
    bit<32> v4;
    bit<32> v5;
    bit<32> v6;
    bit<32> v7;
    bit<16> v8;
    bit<1> v12;
    bit<32> v25;
    bit<32> v26;
    bit<32> v27;
    bit<16> v28;
    bit<16> v29;
    bit<16> v31;
    bit<32> v32;
    bit<32> v34;
    bit<32> v36;
    bit<32> v38;
    bit<32> v40;
    bit<32> v42;
    bit<32> v44;
    bit<32> v45;
    bit<32> v46;
    bit<32> v47;
    bit<32> v48;
    bit<32> v50;
    bit<32> v52;
    bit<32> v53;
    bit<32> v55;
    bit<32> v56;
    bit<16> v57;
    bit<16> v59;
    bit<16> v60;
    bit<1> v61;
    bit<1> v63;
    bit<16> v64;
    bit<16> v65;
    bit<16> v67;
    bit<32> v68;
    bit<32> v70;
    bit<32> v72;
    bit<32> v73;
    bit<32> v74;
    bit<32> v75;
    bit<32> v77;
    bit<32> v79;
    bit<32> v80;
    bit<32> v82;
    bit<32> v83;
    bit<16> v84;
    bit<16> v86;
    bit<16> v87;
    bit<1> v88;
    bit<1> v90;
    bit<16> v91;
    bit<16> v92;
    bit<1> v94;
    bit<16> v121;
    bit<16> v97;
    bit<32> v98;
    bit<32> v100;
    bit<32> v102;
    bit<32> v103;
    bit<32> v104;
    bit<32> v105;
    bit<32> v107;
    bit<32> v109;
    bit<32> v110;
    bit<32> v112;
    bit<32> v113;
    bit<16> v114;
    bit<16> v116;
    bit<1> v118;
    bit<16> v120;
    bit<16> v122;
    bit<32> v23;
    bit<32> v125;
    bit<32> v126;
    bit<32> v128;
    bit<16> v129;
    bit<16> v130;
    bit<16> v132;
    bit<32> v133;
    bit<32> v135;
    bit<32> v137;
    bit<32> v139;
    bit<32> v141;
    bit<32> v143;
    bit<32> v145;
    bit<32> v146;
    bit<32> v147;
    bit<32> v148;
    bit<32> v149;
    bit<32> v151;
    bit<32> v153;
    bit<32> v154;
    bit<32> v156;
    bit<32> v157;
    bit<16> v158;
    bit<16> v160;
    bit<16> v161;
    bit<1> v162;
    bit<1> v164;
    bit<16> v165;
    bit<16> v166;
    bit<16> v168;
    bit<32> v169;
    bit<32> v171;
    bit<32> v173;
    bit<32> v174;
    bit<32> v175;
    bit<32> v176;
    bit<32> v178;
    bit<32> v180;
    bit<32> v181;
    bit<32> v183;
    bit<32> v184;
    bit<16> v185;
    bit<16> v187;
    bit<16> v188;
    bit<1> v189;
    bit<1> v191;
    bit<16> v192;
    bit<16> v193;
    bit<1> v195;
    bit<16> v127;
    bit<16> v198;
    bit<32> v199;
    bit<32> v201;
    bit<32> v203;
    bit<32> v204;
    bit<32> v205;
    bit<32> v206;
    bit<32> v208;
    bit<32> v210;
    bit<32> v211;
    bit<32> v213;
    bit<32> v214;
    bit<16> v215;
    bit<16> v217;
    bit<1> v219;
    bit<16> v221;
    bit<16> v222;
    bit<32> v223;
    bit<16> v224;
    bit<32> v123;
    bit<16> v124;
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
    action map_hit(bit<32> v0) {
        meta.v9 = 1w1;
        meta.v10 = v0;
    }
    action map_miss() {
        meta.v9 = 1w0;
        meta.v10 = 32w0;
    }
    table map {
        key = {
            meta.map_k0: exact;
        }
        actions = {
            map_hit;
            map_miss;
        }
        default_action = map_miss();
        size = 0x10000;
    }
    action map_wb_hit(bit<32> v0) {
        meta.v9 = 1w1;
        meta.v10 = v0;
        meta.wb_hit = 1w1;
    }
    action map_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v9 = 1w0;
        meta.v10 = 32w0;
    }
    action map_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table map_wb {
        key = {
            meta.map_k0: exact;
        }
        actions = {
            map_wb_hit;
            map_wb_deleted;
            map_wb_miss;
        }
        default_action = map_wb_miss();
        size = 0x400;
    }
    register<bit<32> >(32w1) out_port;
    register<bit<1> >(32w1) tandem_visible;
    apply {
        meta.now = ((bit<64>) standard_metadata.ingress_global_timestamp) * 64w0x3e8;
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.v7 = hdr.tandem.v7;
                meta.v12 = hdr.tandem.v12;
                meta.v23 = hdr.tandem.v23;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
                meta.pkt_len = (bit<16>) (standard_metadata.packet_length - 32w12);
            } else {
                mark_to_drop(standard_metadata);
                exit;
            }
        } else {
            meta.in_port = (bit<16>) standard_metadata.ingress_port;
            meta.pkt_len = (bit<16>) standard_metadata.packet_length;
            meta.v0 = hdr.ipv4.isValid() ? 1w1 : 1w0;
            meta.v2 = meta.v0 ^ 1w1;
            if (meta.v2 == 1w0) {
                meta.v3 = hdr.ipv4.saddr;
                meta.v4 = ((meta.v3[7:0] ++ meta.v3[15:8]) ++ meta.v3[23:16]) ++ meta.v3[31:24];
                meta.v5 = hdr.ipv4.daddr;
                meta.v6 = ((meta.v5[7:0] ++ meta.v5[15:8]) ++ meta.v5[23:16]) ++ meta.v5[31:24];
                meta.v7 = meta.v6 ^ meta.v4;
                meta.v8 = (bit<16>) meta.v7;
                meta.map_k0 = meta.v8;
                meta.wb_hit = 1w0;
                if (meta.visible == 1w1) {
                    map_wb.apply();
                }
                if (meta.wb_hit == 1w0) {
                    map.apply();
                }
                meta.v12 = meta.v9 ^ 1w1;
                if (meta.v12 == 1w1) {
                    meta.to_server = 1w1;
                } else {
                    meta.v25 = meta.v10;
                    meta.v26 = meta.v10;
                    meta.v27 = ((meta.v25[7:0] ++ meta.v25[15:8]) ++ meta.v25[23:16]) ++ meta.v25[31:24];
                    hdr.ipv4.daddr = meta.v27;
                    meta.v28 = hdr.ipv4.check;
                    meta.v29 = meta.v28[7:0] ++ meta.v28[15:8];
                    meta.v31 = meta.v29 ^ 16w0xffff;
                    meta.v32 = (bit<32>) meta.v31;
                    meta.v34 = meta.v6 & 32w0xffff;
                    meta.v36 = meta.v34 ^ 32w0xffff;
                    meta.v38 = meta.v6 ^ 32w0xffffffff;
                    meta.v40 = meta.v38 >> 32w16;
                    meta.v42 = meta.v25 & 32w0xffff;
                    meta.v44 = meta.v25 >> 32w16;
                    meta.v45 = meta.v36 + meta.v40;
                    meta.v46 = meta.v44 + meta.v45;
                    meta.v47 = meta.v46 + meta.v42;
                    meta.v48 = meta.v47 + meta.v32;
                    meta.v50 = meta.v48 & 32w0xffff;
                    meta.v52 = meta.v48 >> 32w16;
                    meta.v53 = meta.v50 + meta.v52;
                    meta.v55 = meta.v53 >> 32w16;
                    meta.v56 = meta.v55 + meta.v53;
                    meta.v57 = (bit<16>) meta.v56;
                    meta.v59 = meta.v57 ^ 16w0xffff;
                    meta.v60 = meta.v59[7:0] ++ meta.v59[15:8];
                    hdr.ipv4.check = meta.v60;
                    meta.v61 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.v63 = meta.v61 ^ 1w1;
                    if (meta.v63 == 1w0) {
                        meta.v64 = hdr.tcp.check;
                        meta.v65 = meta.v64[7:0] ++ meta.v64[15:8];
                        meta.v67 = meta.v65 ^ 16w0xffff;
                        meta.v68 = (bit<32>) meta.v67;
                        meta.v70 = meta.v26 & 32w0xffff;
                        meta.v72 = meta.v26 >> 32w16;
                        meta.v73 = meta.v45 + meta.v68;
                        meta.v74 = meta.v73 + meta.v72;
                        meta.v75 = meta.v74 + meta.v70;
                        meta.v77 = meta.v75 & 32w0xffff;
                        meta.v79 = meta.v75 >> 32w16;
                        meta.v80 = meta.v77 + meta.v79;
                        meta.v82 = meta.v80 >> 32w16;
                        meta.v83 = meta.v82 + meta.v80;
                        meta.v84 = (bit<16>) meta.v83;
                        meta.v86 = meta.v84 ^ 16w0xffff;
                        meta.v87 = meta.v86[7:0] ++ meta.v86[15:8];
                        hdr.tcp.check = meta.v87;
                    }
                    meta.v88 = hdr.udp.isValid() ? 1w1 : 1w0;
                    meta.v90 = meta.v88 ^ 1w1;
                    if (meta.v90 == 1w0) {
                        meta.v91 = hdr.udp.check;
                        meta.v92 = meta.v91[7:0] ++ meta.v91[15:8];
                        meta.v94 = (meta.v92 == 16w0) ? 1w1 : 1w0;
                        if (meta.v94 == 1w1) {
                            meta.v121 = 16w0;
                        } else {
                            meta.v97 = meta.v92 ^ 16w0xffff;
                            meta.v98 = (bit<32>) meta.v97;
                            meta.v100 = meta.v26 & 32w0xffff;
                            meta.v102 = meta.v26 >> 32w16;
                            meta.v103 = meta.v45 + meta.v98;
                            meta.v104 = meta.v103 + meta.v102;
                            meta.v105 = meta.v104 + meta.v100;
                            meta.v107 = meta.v105 & 32w0xffff;
                            meta.v109 = meta.v105 >> 32w16;
                            meta.v110 = meta.v107 + meta.v109;
                            meta.v112 = meta.v110 >> 32w16;
                            meta.v113 = meta.v112 + meta.v110;
                            meta.v114 = (bit<16>) meta.v113;
                            meta.v116 = meta.v114 ^ 16w0xffff;
                            meta.v118 = (meta.v114 == 16w0xffff) ? 1w1 : 1w0;
                            meta.v120 = (meta.v118 == 1w1) ? 16w0xffff : meta.v116;
                            meta.v121 = meta.v120;
                        }
                        meta.v122 = meta.v121[7:0] ++ meta.v121[15:8];
                        hdr.udp.check = meta.v122;
                    }
                }
            }
            if (meta.to_server == 1w1) {
                hdr.tandem.setValid();
                hdr.tandem.tag = 8w1;
                hdr.tandem.orig_ethertype = hdr.eth.ethertype;
                hdr.eth.ethertype = TANDEM_ETHERTYPE;
                hdr.tandem.v7 = meta.v7;
                hdr.tandem.v12 = meta.v12;
                hdr.tandem.v23 = 32w0;
                hdr.tandem.pad = 7w0;
            }
        }
        if (meta.to_server == 1w0) {
            meta.v0 = hdr.ipv4.isValid() ? 1w1 : 1w0;
            meta.v2 = meta.v0 ^ 1w1;
            if (meta.v2 == 1w1) {
                meta.fate = 17w0;
            } else {
                meta.v5 = hdr.ipv4.daddr;
                meta.v6 = ((meta.v5[7:0] ++ meta.v5[15:8]) ++ meta.v5[23:16]) ++ meta.v5[31:24];
                if (meta.v12 == 1w1) {
                    meta.v125 = meta.v23;
                    meta.v126 = meta.v23;
                    meta.v128 = ((meta.v125[7:0] ++ meta.v125[15:8]) ++ meta.v125[23:16]) ++ meta.v125[31:24];
                    hdr.ipv4.daddr = meta.v128;
                    meta.v129 = hdr.ipv4.check;
                    meta.v130 = meta.v129[7:0] ++ meta.v129[15:8];
                    meta.v132 = meta.v130 ^ 16w0xffff;
                    meta.v133 = (bit<32>) meta.v132;
                    meta.v135 = meta.v6 & 32w0xffff;
                    meta.v137 = meta.v135 ^ 32w0xffff;
                    meta.v139 = meta.v6 ^ 32w0xffffffff;
                    meta.v141 = meta.v139 >> 32w16;
                    meta.v143 = meta.v125 & 32w0xffff;
                    meta.v145 = meta.v125 >> 32w16;
                    meta.v146 = meta.v137 + meta.v141;
                    meta.v147 = meta.v145 + meta.v146;
                    meta.v148 = meta.v147 + meta.v143;
                    meta.v149 = meta.v148 + meta.v133;
                    meta.v151 = meta.v149 & 32w0xffff;
                    meta.v153 = meta.v149 >> 32w16;
                    meta.v154 = meta.v151 + meta.v153;
                    meta.v156 = meta.v154 >> 32w16;
                    meta.v157 = meta.v156 + meta.v154;
                    meta.v158 = (bit<16>) meta.v157;
                    meta.v160 = meta.v158 ^ 16w0xffff;
                    meta.v161 = meta.v160[7:0] ++ meta.v160[15:8];
                    hdr.ipv4.check = meta.v161;
                    meta.v162 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.v164 = meta.v162 ^ 1w1;
                    if (meta.v164 == 1w0) {
                        meta.v165 = hdr.tcp.check;
                        meta.v166 = meta.v165[7:0] ++ meta.v165[15:8];
                        meta.v168 = meta.v166 ^ 16w0xffff;
                        meta.v169 = (bit<32>) meta.v168;
                        meta.v171 = meta.v126 & 32w0xffff;
                        meta.v173 = meta.v126 >> 32w16;
                        meta.v174 = meta.v146 + meta.v169;
                        meta.v175 = meta.v174 + meta.v173;
                        meta.v176 = meta.v175 + meta.v171;
                        meta.v178 = meta.v176 & 32w0xffff;
                        meta.v180 = meta.v176 >> 32w16;
                        meta.v181 = meta.v178 + meta.v180;
                        meta.v183 = meta.v181 >> 32w16;
                        meta.v184 = meta.v183 + meta.v181;
                        meta.v185 = (bit<16>) meta.v184;
                        meta.v187 = meta.v185 ^ 16w0xffff;
                        meta.v188 = meta.v187[7:0] ++ meta.v187[15:8];
                        hdr.tcp.check = meta.v188;
                    }
                    meta.v189 = hdr.udp.isValid() ? 1w1 : 1w0;
                    meta.v191 = meta.v189 ^ 1w1;
                    if (meta.v191 == 1w0) {
                        meta.v192 = hdr.udp.check;
                        meta.v193 = meta.v192[7:0] ++ meta.v192[15:8];
                        meta.v195 = (meta.v193 == 16w0) ? 1w1 : 1w0;
                        if (meta.v195 == 1w1) {
                            meta.v127 = 16w0;
                        } else {
                            meta.v198 = meta.v193 ^ 16w0xffff;
                            meta.v199 = (bit<32>) meta.v198;
                            meta.v201 = meta.v126 & 32w0xffff;
                            meta.v203 = meta.v126 >> 32w16;
                            meta.v204 = meta.v146 + meta.v199;
                            meta.v205 = meta.v204 + meta.v203;
                            meta.v206 = meta.v205 + meta.v201;
                            meta.v208 = meta.v206 & 32w0xffff;
                            meta.v210 = meta.v206 >> 32w16;
                            meta.v211 = meta.v208 + meta.v210;
                            meta.v213 = meta.v211 >> 32w16;
                            meta.v214 = meta.v213 + meta.v211;
                            meta.v215 = (bit<16>) meta.v214;
                            meta.v217 = meta.v215 ^ 16w0xffff;
                            meta.v219 = (meta.v215 == 16w0xffff) ? 1w1 : 1w0;
                            meta.v221 = (meta.v219 == 1w1) ? 16w0xffff : meta.v217;
                            meta.v127 = meta.v221;
                        }
                        meta.v222 = meta.v127[7:0] ++ meta.v127[15:8];
                        hdr.udp.check = meta.v222;
                    }
                    out_port.read(meta.v223, 32w0);
                    meta.v224 = (bit<16>) meta.v223;
                    meta.fate = 1w1 ++ meta.v224;
                } else {
                    out_port.read(meta.v123, 32w0);
                    meta.v124 = (bit<16>) meta.v123;
                    meta.fate = 1w1 ++ meta.v124;
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
        packet.emit(hdr.ipv4);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
    }
}

V1Switch(TandemParser(), TandemVerifyChecksum(), TandemIngress(), TandemEgress(), TandemComputeChecksum(), TandemDeparser()) main;
