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
    bit<1> v6;
    bit<1> v114;
    bit<32> v121;
    bit<16> v123;
    bit<1> v129;
    bit<1> v135;
    bit<4> pad;
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
    bit<16> ports_k0;
    bit<1> v111;
    bit<16> v112;
    bit<32> orig_0_k0;
    bit<16> orig_0_k4;
    bit<16> orig_0_k6;
    bit<1> v25;
    bit<32> v26;
    bit<16> v27;
    bit<16> v28;
    bit<32> orig_1_k0;
    bit<16> orig_1_k4;
    bit<16> orig_1_k6;
    bit<1> v130;
    bit<32> v131;
    bit<16> v132;
    bit<16> v133;
    bit<1> visible;
    bit<1> wb_hit;
    bit<16> v0;
    bit<32> v1;
    bit<1> v2;
    bit<1> v4;
    bit<32> v5;
    bit<1> v6;
    bit<1> v106;
    bit<1> v108;
    bit<16> v109;
    bit<16> v110;
    bit<1> v114;
    bit<32> v115;
    bit<32> v116;
    bit<16> v117;
    bit<16> v118;
    bit<32> v120;
    bit<32> v121;
    bit<16> v122;
    bit<16> v123;
    bit<8> v125;
    bit<8> v127;
    bit<1> v129;
    bit<1> v135;
    bit<32> v218;
    bit<32> v219;
    bit<16> v220;
    bit<16> v221;
    bit<32> v222;
    bit<32> v223;
    bit<16> v224;
    bit<16> v225;
    bit<16> v227;
    bit<32> v228;
    bit<32> v230;
    bit<32> v232;
    bit<32> v234;
    bit<32> v236;
    bit<32> v238;
    bit<32> v240;
    bit<32> v241;
    bit<32> v242;
    bit<32> v243;
    bit<32> v244;
    bit<32> v246;
    bit<32> v248;
    bit<32> v249;
    bit<32> v251;
    bit<32> v252;
    bit<16> v253;
    bit<16> v255;
    bit<16> v256;
    bit<16> v257;
    bit<16> v258;
    bit<16> v259;
    bit<16> v260;
    bit<16> v262;
    bit<32> v263;
    bit<32> v264;
    bit<32> v266;
    bit<32> v268;
    bit<32> v269;
    bit<32> v271;
    bit<32> v272;
    bit<32> v274;
    bit<16> v276;
    bit<32> v277;
    bit<32> v278;
    bit<32> v279;
    bit<32> v280;
    bit<32> v282;
    bit<32> v284;
    bit<32> v285;
    bit<32> v287;
    bit<32> v288;
    bit<16> v289;
    bit<16> v291;
    bit<16> v292;
    bit<32> v137;
    bit<32> v138;
    bit<16> v139;
    bit<16> v140;
    bit<32> v141;
    bit<32> v142;
    bit<16> v143;
    bit<16> v144;
    bit<16> v146;
    bit<32> v147;
    bit<32> v149;
    bit<32> v151;
    bit<32> v153;
    bit<32> v155;
    bit<32> v157;
    bit<32> v159;
    bit<32> v160;
    bit<32> v161;
    bit<32> v162;
    bit<32> v163;
    bit<32> v165;
    bit<32> v167;
    bit<32> v168;
    bit<32> v170;
    bit<32> v171;
    bit<16> v172;
    bit<16> v174;
    bit<16> v175;
    bit<16> v176;
    bit<16> v177;
    bit<16> v178;
    bit<16> v179;
    bit<16> v181;
    bit<32> v182;
    bit<32> v183;
    bit<32> v185;
    bit<32> v187;
    bit<32> v188;
    bit<32> v190;
    bit<32> v191;
    bit<32> v193;
    bit<16> v195;
    bit<32> v196;
    bit<32> v197;
    bit<32> v198;
    bit<32> v199;
    bit<32> v201;
    bit<32> v203;
    bit<32> v204;
    bit<32> v206;
    bit<32> v207;
    bit<16> v208;
    bit<16> v210;
    bit<16> v211;
    bit<32> v7;
    bit<1> v8;
    bit<1> v9;
    bit<1> v11;
    bit<32> v12;
    bit<32> v13;
    bit<32> v14;
    bit<1> v15;
    bit<16> v16;
    bit<16> v17;
    bit<16> v18;
    bit<1> v19;
    bit<32> v20;
    bit<32> v21;
    bit<16> v22;
    bit<16> v23;
    bit<1> v30;
    bit<32> v31;
    bit<16> v32;
    bit<16> v33;
    bit<32> v34;
    bit<16> v36;
    bit<32> v37;
    bit<32> v39;
    bit<32> v41;
    bit<32> v43;
    bit<32> v45;
    bit<32> v47;
    bit<32> v49;
    bit<32> v50;
    bit<32> v51;
    bit<32> v52;
    bit<32> v53;
    bit<32> v55;
    bit<32> v57;
    bit<32> v58;
    bit<32> v60;
    bit<32> v61;
    bit<16> v62;
    bit<16> v64;
    bit<16> v65;
    bit<16> v66;
    bit<16> v67;
    bit<16> v68;
    bit<16> v70;
    bit<32> v71;
    bit<32> v72;
    bit<32> v73;
    bit<32> v75;
    bit<32> v77;
    bit<32> v78;
    bit<32> v80;
    bit<32> v81;
    bit<16> v82;
    bit<32> v84;
    bit<16> v86;
    bit<32> v87;
    bit<32> v88;
    bit<32> v89;
    bit<32> v90;
    bit<32> v92;
    bit<32> v94;
    bit<32> v95;
    bit<32> v97;
    bit<32> v98;
    bit<16> v99;
    bit<16> v101;
    bit<16> v102;
    bit<32> v214;
    bit<16> v217;
    bit<1> v215;
    bit<16> v216;
    bit<32> v212;
    bit<16> v213;
    bit<32> v293;
    bit<16> v294;
    bit<32> v104;
    bit<16> v105;
    bit<32> v103;
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
    action ports_hit(bit<16> v0) {
        meta.v111 = 1w1;
        meta.v112 = v0;
    }
    action ports_miss() {
        meta.v111 = 1w0;
        meta.v112 = 16w0;
    }
    table ports {
        key = {
            meta.ports_k0: exact;
        }
        actions = {
            ports_hit;
            ports_miss;
        }
        default_action = ports_miss();
        size = 64;
    }
    action orig_0_hit(bit<32> v0, bit<16> v4, bit<16> v6) {
        meta.v25 = 1w1;
        meta.v26 = v0;
        meta.v27 = v4;
        meta.v28 = v6;
    }
    action orig_0_miss() {
        meta.v25 = 1w0;
        meta.v26 = 32w0;
        meta.v27 = 16w0;
        meta.v28 = 16w0;
    }
    table orig_0 {
        key = {
            meta.orig_0_k0: exact;
            meta.orig_0_k4: exact;
            meta.orig_0_k6: exact;
        }
        actions = {
            orig_0_hit;
            orig_0_miss;
        }
        default_action = orig_0_miss();
        size = 0x10000;
    }
    action orig_0_wb_hit(bit<32> v0, bit<16> v4, bit<16> v6) {
        meta.v25 = 1w1;
        meta.v26 = v0;
        meta.v27 = v4;
        meta.v28 = v6;
        meta.wb_hit = 1w1;
    }
    action orig_0_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v25 = 1w0;
        meta.v26 = 32w0;
        meta.v27 = 16w0;
        meta.v28 = 16w0;
    }
    action orig_0_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table orig_0_wb {
        key = {
            meta.orig_0_k0: exact;
            meta.orig_0_k4: exact;
            meta.orig_0_k6: exact;
        }
        actions = {
            orig_0_wb_hit;
            orig_0_wb_deleted;
            orig_0_wb_miss;
        }
        default_action = orig_0_wb_miss();
        size = 0x400;
    }
    action orig_1_hit(bit<32> v0, bit<16> v4, bit<16> v6) {
        meta.v130 = 1w1;
        meta.v131 = v0;
        meta.v132 = v4;
        meta.v133 = v6;
    }
    action orig_1_miss() {
        meta.v130 = 1w0;
        meta.v131 = 32w0;
        meta.v132 = 16w0;
        meta.v133 = 16w0;
    }
    table orig_1 {
        key = {
            meta.orig_1_k0: exact;
            meta.orig_1_k4: exact;
            meta.orig_1_k6: exact;
        }
        actions = {
            orig_1_hit;
            orig_1_miss;
        }
        default_action = orig_1_miss();
        size = 0x10000;
    }
    action orig_1_wb_hit(bit<32> v0, bit<16> v4, bit<16> v6) {
        meta.v130 = 1w1;
        meta.v131 = v0;
        meta.v132 = v4;
        meta.v133 = v6;
        meta.wb_hit = 1w1;
    }
    action orig_1_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v130 = 1w0;
        meta.v131 = 32w0;
        meta.v132 = 16w0;
        meta.v133 = 16w0;
    }
    action orig_1_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table orig_1_wb {
        key = {
            meta.orig_1_k0: exact;
            meta.orig_1_k4: exact;
            meta.orig_1_k6: exact;
        }
        actions = {
            orig_1_wb_hit;
            orig_1_wb_deleted;
            orig_1_wb_miss;
        }
        default_action = orig_1_wb_miss();
        size = 0x400;
    }
    register<bit<32> >(32w1) proxy_ip;
    register<bit<16> >(32w1) proxy_port;
    register<bit<32> >(32w1) client_side;
    register<bit<32> >(32w1) server_side;
    register<bit<1> >(32w1) tandem_visible;
    apply {
        meta.now = ((bit<64>) standard_metadata.ingress_global_timestamp) * 64w0x3e8;
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.v6 = hdr.tandem.v6;
                meta.v114 = hdr.tandem.v114;
                meta.v121 = hdr.tandem.v121;
                meta.v123 = hdr.tandem.v123;
                meta.v129 = hdr.tandem.v129;
                meta.v135 = hdr.tandem.v135;
                hdr.eth.ethertype = hdr.tandem.orig_ethertype;
                hdr.tandem.setInvalid();
                meta.pkt_len = (bit<16>) (standard_metadata.packet_length - 32w10);
            } else {
                mark_to_drop(standard_metadata);
                exit;
            }
        } else {
            meta.in_port = (bit<16>) standard_metadata.ingress_port;
            meta.pkt_len = (bit<16>) standard_metadata.packet_length;
            meta.v0 = meta.in_port;
            meta.v1 = (bit<32>) meta.v0;
            meta.v2 = hdr.ipv4.isValid() ? 1w1 : 1w0;
            meta.v4 = meta.v2 ^ 1w1;
            client_side.read(meta.v5, 32w0);
            meta.v6 = (meta.v1 == meta.v5) ? 1w1 : 1w0;
            if (meta.v4 == 1w0) {
                if (meta.v6 == 1w1) {
                    meta.v106 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.v108 = meta.v106 ^ 1w1;
                    if (meta.v108 == 1w0) {
                        meta.v109 = hdr.tcp.dport;
                        meta.v110 = meta.v109[7:0] ++ meta.v109[15:8];
                        meta.ports_k0 = meta.v110;
                        ports.apply();
                        meta.v114 = meta.v111 ^ 1w1;
                        if (meta.v114 == 1w0) {
                            meta.v115 = hdr.ipv4.saddr;
                            meta.v116 = ((meta.v115[7:0] ++ meta.v115[15:8]) ++ meta.v115[23:16]) ++ meta.v115[31:24];
                            meta.v117 = hdr.tcp.sport;
                            meta.v118 = meta.v117[7:0] ++ meta.v117[15:8];
                            meta.v120 = hdr.ipv4.daddr;
                            meta.v121 = ((meta.v120[7:0] ++ meta.v120[15:8]) ++ meta.v120[23:16]) ++ meta.v120[31:24];
                            meta.v122 = hdr.tcp.dport;
                            meta.v123 = meta.v122[7:0] ++ meta.v122[15:8];
                            meta.v125 = hdr.tcp.flags;
                            meta.v127 = meta.v125 & 8w2;
                            meta.v129 = (meta.v127 == 8w0) ? 1w1 : 1w0;
                            if (meta.v129 == 1w1) {
                                meta.orig_1_k0 = meta.v116;
                                meta.orig_1_k4 = meta.v118;
                                meta.orig_1_k6 = 16w0;
                                meta.wb_hit = 1w0;
                                if (meta.visible == 1w1) {
                                    orig_1_wb.apply();
                                }
                                if (meta.wb_hit == 1w0) {
                                    orig_1.apply();
                                }
                                meta.v135 = meta.v130 ^ 1w1;
                                if (meta.v135 == 1w1) {
                                    meta.to_server = 1w1;
                                    meta.v218 = hdr.ipv4.daddr;
                                    meta.v219 = ((meta.v218[7:0] ++ meta.v218[15:8]) ++ meta.v218[23:16]) ++ meta.v218[31:24];
                                    meta.v220 = hdr.tcp.dport;
                                    meta.v221 = meta.v220[7:0] ++ meta.v220[15:8];
                                    proxy_ip.read(meta.v222, 32w0);
                                    meta.v223 = ((meta.v222[7:0] ++ meta.v222[15:8]) ++ meta.v222[23:16]) ++ meta.v222[31:24];
                                    hdr.ipv4.daddr = meta.v223;
                                    meta.v224 = hdr.ipv4.check;
                                    meta.v225 = meta.v224[7:0] ++ meta.v224[15:8];
                                    meta.v227 = meta.v225 ^ 16w0xffff;
                                    meta.v228 = (bit<32>) meta.v227;
                                    meta.v230 = meta.v219 & 32w0xffff;
                                    meta.v232 = meta.v230 ^ 32w0xffff;
                                    meta.v234 = meta.v219 ^ 32w0xffffffff;
                                    meta.v236 = meta.v234 >> 32w16;
                                    meta.v238 = meta.v222 & 32w0xffff;
                                    meta.v240 = meta.v222 >> 32w16;
                                    meta.v241 = meta.v232 + meta.v236;
                                    meta.v242 = meta.v241 + meta.v240;
                                    meta.v243 = meta.v242 + meta.v238;
                                    meta.v244 = meta.v243 + meta.v228;
                                    meta.v246 = meta.v244 & 32w0xffff;
                                    meta.v248 = meta.v244 >> 32w16;
                                    meta.v249 = meta.v246 + meta.v248;
                                    meta.v251 = meta.v249 >> 32w16;
                                    meta.v252 = meta.v251 + meta.v249;
                                    meta.v253 = (bit<16>) meta.v252;
                                    meta.v255 = meta.v253 ^ 16w0xffff;
                                    meta.v256 = meta.v255[7:0] ++ meta.v255[15:8];
                                    hdr.ipv4.check = meta.v256;
                                    proxy_port.read(meta.v257, 32w0);
                                    meta.v258 = meta.v257[7:0] ++ meta.v257[15:8];
                                    hdr.tcp.dport = meta.v258;
                                    meta.v259 = hdr.tcp.check;
                                    meta.v260 = meta.v259[7:0] ++ meta.v259[15:8];
                                    meta.v262 = meta.v260 ^ 16w0xffff;
                                    meta.v263 = (bit<32>) meta.v262;
                                    meta.v264 = meta.v243 + meta.v263;
                                    meta.v266 = meta.v264 & 32w0xffff;
                                    meta.v268 = meta.v264 >> 32w16;
                                    meta.v269 = meta.v266 + meta.v268;
                                    meta.v271 = meta.v269 >> 32w16;
                                    meta.v272 = meta.v271 + meta.v269;
                                    meta.v274 = meta.v272 & 32w0xffff;
                                    meta.v276 = meta.v221 ^ 16w0xffff;
                                    meta.v277 = (bit<32>) meta.v276;
                                    meta.v278 = (bit<32>) meta.v257;
                                    meta.v279 = meta.v278 + meta.v277;
                                    meta.v280 = meta.v279 + meta.v274;
                                    meta.v282 = meta.v280 & 32w0xffff;
                                    meta.v284 = meta.v280 >> 32w16;
                                    meta.v285 = meta.v282 + meta.v284;
                                    meta.v287 = meta.v285 >> 32w16;
                                    meta.v288 = meta.v287 + meta.v285;
                                    meta.v289 = (bit<16>) meta.v288;
                                    meta.v291 = meta.v289 ^ 16w0xffff;
                                    meta.v292 = meta.v291[7:0] ++ meta.v291[15:8];
                                    hdr.tcp.check = meta.v292;
                                } else {
                                    meta.v137 = hdr.ipv4.daddr;
                                    meta.v138 = ((meta.v137[7:0] ++ meta.v137[15:8]) ++ meta.v137[23:16]) ++ meta.v137[31:24];
                                    meta.v139 = hdr.tcp.dport;
                                    meta.v140 = meta.v139[7:0] ++ meta.v139[15:8];
                                    proxy_ip.read(meta.v141, 32w0);
                                    meta.v142 = ((meta.v141[7:0] ++ meta.v141[15:8]) ++ meta.v141[23:16]) ++ meta.v141[31:24];
                                    hdr.ipv4.daddr = meta.v142;
                                    meta.v143 = hdr.ipv4.check;
                                    meta.v144 = meta.v143[7:0] ++ meta.v143[15:8];
                                    meta.v146 = meta.v144 ^ 16w0xffff;
                                    meta.v147 = (bit<32>) meta.v146;
                                    meta.v149 = meta.v138 & 32w0xffff;
                                    meta.v151 = meta.v149 ^ 32w0xffff;
                                    meta.v153 = meta.v138 ^ 32w0xffffffff;
                                    meta.v155 = meta.v153 >> 32w16;
                                    meta.v157 = meta.v141 & 32w0xffff;
                                    meta.v159 = meta.v141 >> 32w16;
                                    meta.v160 = meta.v151 + meta.v155;
                                    meta.v161 = meta.v160 + meta.v159;
                                    meta.v162 = meta.v161 + meta.v157;
                                    meta.v163 = meta.v162 + meta.v147;
                                    meta.v165 = meta.v163 & 32w0xffff;
                                    meta.v167 = meta.v163 >> 32w16;
                                    meta.v168 = meta.v165 + meta.v167;
                                    meta.v170 = meta.v168 >> 32w16;
                                    meta.v171 = meta.v170 + meta.v168;
                                    meta.v172 = (bit<16>) meta.v171;
                                    meta.v174 = meta.v172 ^ 16w0xffff;
                                    meta.v175 = meta.v174[7:0] ++ meta.v174[15:8];
                                    hdr.ipv4.check = meta.v175;
                                    proxy_port.read(meta.v176, 32w0);
                                    meta.v177 = meta.v176[7:0] ++ meta.v176[15:8];
                                    hdr.tcp.dport = meta.v177;
                                    meta.v178 = hdr.tcp.check;
                                    meta.v179 = meta.v178[7:0] ++ meta.v178[15:8];
                                    meta.v181 = meta.v179 ^ 16w0xffff;
                                    meta.v182 = (bit<32>) meta.v181;
                                    meta.v183 = meta.v162 + meta.v182;
                                    meta.v185 = meta.v183 & 32w0xffff;
                                    meta.v187 = meta.v183 >> 32w16;
                                    meta.v188 = meta.v185 + meta.v187;
                                    meta.v190 = meta.v188 >> 32w16;
                                    meta.v191 = meta.v190 + meta.v188;
                                    meta.v193 = meta.v191 & 32w0xffff;
                                    meta.v195 = meta.v140 ^ 16w0xffff;
                                    meta.v196 = (bit<32>) meta.v195;
                                    meta.v197 = (bit<32>) meta.v176;
                                    meta.v198 = meta.v197 + meta.v196;
                                    meta.v199 = meta.v198 + meta.v193;
                                    meta.v201 = meta.v199 & 32w0xffff;
                                    meta.v203 = meta.v199 >> 32w16;
                                    meta.v204 = meta.v201 + meta.v203;
                                    meta.v206 = meta.v204 >> 32w16;
                                    meta.v207 = meta.v206 + meta.v204;
                                    meta.v208 = (bit<16>) meta.v207;
                                    meta.v210 = meta.v208 ^ 16w0xffff;
                                    meta.v211 = meta.v210[7:0] ++ meta.v210[15:8];
                                    hdr.tcp.check = meta.v211;
                                }
                            } else {
                                meta.to_server = 1w1;
                                meta.v218 = hdr.ipv4.daddr;
                                meta.v219 = ((meta.v218[7:0] ++ meta.v218[15:8]) ++ meta.v218[23:16]) ++ meta.v218[31:24];
                                meta.v220 = hdr.tcp.dport;
                                meta.v221 = meta.v220[7:0] ++ meta.v220[15:8];
                                proxy_ip.read(meta.v222, 32w0);
                                meta.v223 = ((meta.v222[7:0] ++ meta.v222[15:8]) ++ meta.v222[23:16]) ++ meta.v222[31:24];
                                hdr.ipv4.daddr = meta.v223;
                                meta.v224 = hdr.ipv4.check;
                                meta.v225 = meta.v224[7:0] ++ meta.v224[15:8];
                                meta.v227 = meta.v225 ^ 16w0xffff;
                                meta.v228 = (bit<32>) meta.v227;
                                meta.v230 = meta.v219 & 32w0xffff;
                                meta.v232 = meta.v230 ^ 32w0xffff;
                                meta.v234 = meta.v219 ^ 32w0xffffffff;
                                meta.v236 = meta.v234 >> 32w16;
                                meta.v238 = meta.v222 & 32w0xffff;
                                meta.v240 = meta.v222 >> 32w16;
                                meta.v241 = meta.v232 + meta.v236;
                                meta.v242 = meta.v241 + meta.v240;
                                meta.v243 = meta.v242 + meta.v238;
                                meta.v244 = meta.v243 + meta.v228;
                                meta.v246 = meta.v244 & 32w0xffff;
                                meta.v248 = meta.v244 >> 32w16;
                                meta.v249 = meta.v246 + meta.v248;
                                meta.v251 = meta.v249 >> 32w16;
                                meta.v252 = meta.v251 + meta.v249;
                                meta.v253 = (bit<16>) meta.v252;
                                meta.v255 = meta.v253 ^ 16w0xffff;
                                meta.v256 = meta.v255[7:0] ++ meta.v255[15:8];
                                hdr.ipv4.check = meta.v256;
                                proxy_port.read(meta.v257, 32w0);
                                meta.v258 = meta.v257[7:0] ++ meta.v257[15:8];
                                hdr.tcp.dport = meta.v258;
                                meta.v259 = hdr.tcp.check;
                                meta.v260 = meta.v259[7:0] ++ meta.v259[15:8];
                                meta.v262 = meta.v260 ^ 16w0xffff;
                                meta.v263 = (bit<32>) meta.v262;
                                meta.v264 = meta.v243 + meta.v263;
                                meta.v266 = meta.v264 & 32w0xffff;
                                meta.v268 = meta.v264 >> 32w16;
                                meta.v269 = meta.v266 + meta.v268;
                                meta.v271 = meta.v269 >> 32w16;
                                meta.v272 = meta.v271 + meta.v269;
                                meta.v274 = meta.v272 & 32w0xffff;
                                meta.v276 = meta.v221 ^ 16w0xffff;
                                meta.v277 = (bit<32>) meta.v276;
                                meta.v278 = (bit<32>) meta.v257;
                                meta.v279 = meta.v278 + meta.v277;
                                meta.v280 = meta.v279 + meta.v274;
                                meta.v282 = meta.v280 & 32w0xffff;
                                meta.v284 = meta.v280 >> 32w16;
                                meta.v285 = meta.v282 + meta.v284;
                                meta.v287 = meta.v285 >> 32w16;
                                meta.v288 = meta.v287 + meta.v285;
                                meta.v289 = (bit<16>) meta.v288;
                                meta.v291 = meta.v289 ^ 16w0xffff;
                                meta.v292 = meta.v291[7:0] ++ meta.v291[15:8];
                                hdr.tcp.check = meta.v292;
                            }
                        }
                    }
                } else {
                    server_side.read(meta.v7, 32w0);
                    meta.v8 = (meta.v1 == meta.v7) ? 1w1 : 1w0;
                    if (meta.v8 == 1w1) {
                        meta.v9 = hdr.tcp.isValid() ? 1w1 : 1w0;
                        meta.v11 = meta.v9 ^ 1w1;
                        if (meta.v11 == 1w0) {
                            meta.v12 = hdr.ipv4.saddr;
                            meta.v13 = ((meta.v12[7:0] ++ meta.v12[15:8]) ++ meta.v12[23:16]) ++ meta.v12[31:24];
                            proxy_ip.read(meta.v14, 32w0);
                            meta.v15 = (meta.v13 == meta.v14) ? 1w1 : 1w0;
                            if (meta.v15 == 1w1) {
                                meta.v16 = hdr.tcp.sport;
                                meta.v17 = meta.v16[7:0] ++ meta.v16[15:8];
                                proxy_port.read(meta.v18, 32w0);
                                meta.v19 = (meta.v17 == meta.v18) ? 1w1 : 1w0;
                                if (meta.v19 == 1w1) {
                                    meta.v20 = hdr.ipv4.daddr;
                                    meta.v21 = ((meta.v20[7:0] ++ meta.v20[15:8]) ++ meta.v20[23:16]) ++ meta.v20[31:24];
                                    meta.v22 = hdr.tcp.dport;
                                    meta.v23 = meta.v22[7:0] ++ meta.v22[15:8];
                                    meta.orig_0_k0 = meta.v21;
                                    meta.orig_0_k4 = meta.v23;
                                    meta.orig_0_k6 = 16w0;
                                    meta.wb_hit = 1w0;
                                    if (meta.visible == 1w1) {
                                        orig_0_wb.apply();
                                    }
                                    if (meta.wb_hit == 1w0) {
                                        orig_0.apply();
                                    }
                                    meta.v30 = meta.v25 ^ 1w1;
                                    if (meta.v30 == 1w0) {
                                        meta.v31 = ((meta.v26[7:0] ++ meta.v26[15:8]) ++ meta.v26[23:16]) ++ meta.v26[31:24];
                                        hdr.ipv4.saddr = meta.v31;
                                        meta.v32 = hdr.ipv4.check;
                                        meta.v33 = meta.v32[7:0] ++ meta.v32[15:8];
                                        proxy_ip.read(meta.v34, 32w0);
                                        meta.v36 = meta.v33 ^ 16w0xffff;
                                        meta.v37 = (bit<32>) meta.v36;
                                        meta.v39 = meta.v34 & 32w0xffff;
                                        meta.v41 = meta.v39 ^ 32w0xffff;
                                        meta.v43 = meta.v34 ^ 32w0xffffffff;
                                        meta.v45 = meta.v43 >> 32w16;
                                        meta.v47 = meta.v26 & 32w0xffff;
                                        meta.v49 = meta.v26 >> 32w16;
                                        meta.v50 = meta.v47 + meta.v49;
                                        meta.v51 = meta.v45 + meta.v50;
                                        meta.v52 = meta.v51 + meta.v37;
                                        meta.v53 = meta.v52 + meta.v41;
                                        meta.v55 = meta.v53 & 32w0xffff;
                                        meta.v57 = meta.v53 >> 32w16;
                                        meta.v58 = meta.v55 + meta.v57;
                                        meta.v60 = meta.v58 >> 32w16;
                                        meta.v61 = meta.v60 + meta.v58;
                                        meta.v62 = (bit<16>) meta.v61;
                                        meta.v64 = meta.v62 ^ 16w0xffff;
                                        meta.v65 = meta.v64[7:0] ++ meta.v64[15:8];
                                        hdr.ipv4.check = meta.v65;
                                        meta.v66 = meta.v27[7:0] ++ meta.v27[15:8];
                                        hdr.tcp.sport = meta.v66;
                                        meta.v67 = hdr.tcp.check;
                                        meta.v68 = meta.v67[7:0] ++ meta.v67[15:8];
                                        meta.v70 = meta.v68 ^ 16w0xffff;
                                        meta.v71 = (bit<32>) meta.v70;
                                        meta.v72 = meta.v51 + meta.v41;
                                        meta.v73 = meta.v72 + meta.v71;
                                        meta.v75 = meta.v73 & 32w0xffff;
                                        meta.v77 = meta.v73 >> 32w16;
                                        meta.v78 = meta.v75 + meta.v77;
                                        meta.v80 = meta.v78 >> 32w16;
                                        meta.v81 = meta.v80 + meta.v78;
                                        proxy_port.read(meta.v82, 32w0);
                                        meta.v84 = meta.v81 & 32w0xffff;
                                        meta.v86 = meta.v82 ^ 16w0xffff;
                                        meta.v87 = (bit<32>) meta.v86;
                                        meta.v88 = (bit<32>) meta.v27;
                                        meta.v89 = meta.v87 + meta.v88;
                                        meta.v90 = meta.v89 + meta.v84;
                                        meta.v92 = meta.v90 & 32w0xffff;
                                        meta.v94 = meta.v90 >> 32w16;
                                        meta.v95 = meta.v92 + meta.v94;
                                        meta.v97 = meta.v95 >> 32w16;
                                        meta.v98 = meta.v97 + meta.v95;
                                        meta.v99 = (bit<16>) meta.v98;
                                        meta.v101 = meta.v99 ^ 16w0xffff;
                                        meta.v102 = meta.v101[7:0] ++ meta.v101[15:8];
                                        hdr.tcp.check = meta.v102;
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
                hdr.tandem.v6 = meta.v6;
                hdr.tandem.v114 = meta.v114;
                hdr.tandem.v121 = meta.v121;
                hdr.tandem.v123 = meta.v123;
                hdr.tandem.v129 = meta.v129;
                hdr.tandem.v135 = meta.v135;
                hdr.tandem.pad = 4w0;
            }
        }
        if (meta.to_server == 1w0) {
            meta.v2 = hdr.ipv4.isValid() ? 1w1 : 1w0;
            meta.v4 = meta.v2 ^ 1w1;
            if (meta.v4 == 1w1) {
                server_side.read(meta.v214, 32w0);
                if (meta.v6 == 1w1) {
                    meta.v217 = (bit<16>) meta.v214;
                    meta.fate = 1w1 ++ meta.v217;
                } else {
                    meta.v215 = (meta.v1 == meta.v214) ? 1w1 : 1w0;
                    if (meta.v215 == 1w1) {
                        meta.v216 = (bit<16>) meta.v5;
                        meta.fate = 1w1 ++ meta.v216;
                    } else {
                        meta.fate = 17w0;
                    }
                }
            } else {
                if (meta.v6 == 1w1) {
                    meta.v106 = hdr.tcp.isValid() ? 1w1 : 1w0;
                    meta.v108 = meta.v106 ^ 1w1;
                    if (meta.v108 == 1w1) {
                        server_side.read(meta.v212, 32w0);
                        meta.v213 = (bit<16>) meta.v212;
                        meta.fate = 1w1 ++ meta.v213;
                    } else {
                        if (meta.v114 == 1w1) {
                            server_side.read(meta.v212, 32w0);
                            meta.v213 = (bit<16>) meta.v212;
                            meta.fate = 1w1 ++ meta.v213;
                        } else {
                            if (meta.v129 == 1w1) {
                                if (meta.v135 == 1w1) {
                                    server_side.read(meta.v293, 32w0);
                                    meta.v294 = (bit<16>) meta.v293;
                                    meta.fate = 1w1 ++ meta.v294;
                                } else {
                                    server_side.read(meta.v212, 32w0);
                                    meta.v213 = (bit<16>) meta.v212;
                                    meta.fate = 1w1 ++ meta.v213;
                                }
                            } else {
                                server_side.read(meta.v293, 32w0);
                                meta.v294 = (bit<16>) meta.v293;
                                meta.fate = 1w1 ++ meta.v294;
                            }
                        }
                    }
                } else {
                    if (meta.v8 == 1w1) {
                        meta.v9 = hdr.tcp.isValid() ? 1w1 : 1w0;
                        meta.v11 = meta.v9 ^ 1w1;
                        if (meta.v11 == 1w1) {
                            meta.v104 = meta.v5;
                            meta.v105 = (bit<16>) meta.v104;
                            meta.fate = 1w1 ++ meta.v105;
                        } else {
                            if (meta.v15 == 1w1) {
                                if (meta.v19 == 1w1) {
                                    if (meta.v30 == 1w1) {
                                        meta.fate = 17w0;
                                    } else {
                                        client_side.read(meta.v103, 32w0);
                                        meta.v104 = meta.v103;
                                        meta.v105 = (bit<16>) meta.v104;
                                        meta.fate = 1w1 ++ meta.v105;
                                    }
                                } else {
                                    meta.v104 = meta.v5;
                                    meta.v105 = (bit<16>) meta.v104;
                                    meta.fate = 1w1 ++ meta.v105;
                                }
                            } else {
                                meta.v104 = meta.v5;
                                meta.v105 = (bit<16>) meta.v104;
                                meta.fate = 1w1 ++ meta.v105;
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
        packet.emit(hdr.ipv4);
        packet.emit(hdr.tcp);
        packet.emit(hdr.udp);
    }
}

V1Switch(TandemParser(), TandemVerifyChecksum(), TandemIngress(), TandemEgress(), TandemComputeChecksum(), TandemDeparser()) main;
