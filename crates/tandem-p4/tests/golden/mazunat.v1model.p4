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
    bit<16> v19;
    bit<16> v29;
    bit<1> v41;
    bit<1> v176;
    bit<16> v179;
    bit<1> v194;
    bit<1> v198;
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
    bit<32> int2ext_k0;
    bit<32> int2ext_k4;
    bit<16> int2ext_k8;
    bit<16> int2ext_k10;
    bit<8> int2ext_k12;
    bit<8> int2ext_k13;
    bit<8> int2ext_k14;
    bit<8> int2ext_k15;
    bit<1> v172;
    bit<16> v173;
    bit<16> v174;
    bit<32> ext2int_k0;
    bit<32> ext2int_k4;
    bit<16> ext2int_k8;
    bit<16> ext2int_k10;
    bit<8> ext2int_k12;
    bit<8> ext2int_k13;
    bit<8> ext2int_k14;
    bit<8> ext2int_k15;
    bit<1> v46;
    bit<32> v47;
    bit<16> v48;
    bit<16> v49;
    bit<1> visible;
    bit<1> wb_hit;
    bit<1> v0;
    bit<1> v2;
    bit<1> v3;
    bit<1> v5;
    bit<1> v6;
    bit<1> v8;
    bit<1> v9;
    bit<8> v12;
    bit<16> v13;
    bit<16> v14;
    bit<16> v15;
    bit<16> v16;
    bit<1> v18;
    bit<16> v19;
    bit<8> v22;
    bit<16> v23;
    bit<16> v24;
    bit<16> v25;
    bit<16> v26;
    bit<1> v28;
    bit<16> v29;
    bit<32> v30;
    bit<32> v31;
    bit<32> v32;
    bit<32> v33;
    bit<8> v34;
    bit<16> v38;
    bit<32> v39;
    bit<32> v40;
    bit<1> v41;
    bit<1> v176;
    bit<32> v177;
    bit<16> v178;
    bit<16> v179;
    bit<1> v181;
    bit<32> v182;
    bit<32> v184;
    bit<32> v185;
    bit<32> v186;
    bit<32> v187;
    bit<32> v188;
    bit<8> v189;
    bit<16> v199;
    bit<32> v200;
    bit<32> v201;
    bit<32> v202;
    bit<32> v203;
    bit<16> v204;
    bit<16> v205;
    bit<16> v207;
    bit<32> v208;
    bit<32> v210;
    bit<32> v212;
    bit<32> v214;
    bit<32> v216;
    bit<32> v218;
    bit<32> v220;
    bit<32> v221;
    bit<32> v222;
    bit<32> v223;
    bit<32> v224;
    bit<32> v226;
    bit<32> v228;
    bit<32> v229;
    bit<32> v231;
    bit<32> v232;
    bit<16> v233;
    bit<16> v235;
    bit<16> v236;
    bit<16> v272;
    bit<16> v273;
    bit<16> v274;
    bit<1> v276;
    bit<16> v317;
    bit<16> v279;
    bit<32> v280;
    bit<32> v281;
    bit<32> v283;
    bit<32> v285;
    bit<32> v286;
    bit<32> v288;
    bit<32> v289;
    bit<32> v291;
    bit<1> v293;
    bit<32> v295;
    bit<16> v297;
    bit<32> v298;
    bit<32> v299;
    bit<32> v300;
    bit<32> v301;
    bit<32> v303;
    bit<32> v305;
    bit<32> v306;
    bit<32> v308;
    bit<32> v309;
    bit<16> v310;
    bit<16> v312;
    bit<1> v314;
    bit<16> v316;
    bit<16> v318;
    bit<16> v237;
    bit<16> v238;
    bit<16> v239;
    bit<16> v241;
    bit<32> v242;
    bit<32> v243;
    bit<32> v245;
    bit<32> v247;
    bit<32> v248;
    bit<32> v250;
    bit<32> v251;
    bit<32> v253;
    bit<16> v255;
    bit<32> v256;
    bit<32> v257;
    bit<32> v258;
    bit<32> v259;
    bit<32> v261;
    bit<32> v263;
    bit<32> v264;
    bit<32> v266;
    bit<32> v267;
    bit<16> v268;
    bit<16> v270;
    bit<16> v271;
    bit<16> v42;
    bit<32> v43;
    bit<32> v44;
    bit<1> v45;
    bit<1> v51;
    bit<32> v52;
    bit<32> v53;
    bit<32> v54;
    bit<16> v55;
    bit<16> v56;
    bit<16> v58;
    bit<32> v59;
    bit<32> v61;
    bit<32> v63;
    bit<32> v65;
    bit<32> v67;
    bit<32> v69;
    bit<32> v71;
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
    bit<16> v123;
    bit<16> v124;
    bit<16> v125;
    bit<1> v127;
    bit<16> v168;
    bit<16> v130;
    bit<32> v131;
    bit<32> v132;
    bit<32> v134;
    bit<32> v136;
    bit<32> v137;
    bit<32> v139;
    bit<32> v140;
    bit<32> v142;
    bit<1> v144;
    bit<32> v146;
    bit<16> v148;
    bit<32> v149;
    bit<32> v150;
    bit<32> v151;
    bit<32> v152;
    bit<32> v154;
    bit<32> v156;
    bit<32> v157;
    bit<32> v159;
    bit<32> v160;
    bit<16> v161;
    bit<16> v163;
    bit<1> v165;
    bit<16> v167;
    bit<16> v169;
    bit<16> v88;
    bit<16> v89;
    bit<16> v90;
    bit<16> v92;
    bit<32> v93;
    bit<32> v94;
    bit<32> v96;
    bit<32> v98;
    bit<32> v99;
    bit<32> v101;
    bit<32> v102;
    bit<32> v104;
    bit<16> v106;
    bit<32> v107;
    bit<32> v108;
    bit<32> v109;
    bit<32> v110;
    bit<32> v112;
    bit<32> v114;
    bit<32> v115;
    bit<32> v117;
    bit<32> v118;
    bit<16> v119;
    bit<16> v121;
    bit<16> v122;
    bit<1> v194;
    bit<1> v198;
    bit<16> v321;
    bit<32> v323;
    bit<32> v324;
    bit<32> v325;
    bit<32> v326;
    bit<16> v327;
    bit<16> v328;
    bit<16> v330;
    bit<32> v331;
    bit<32> v333;
    bit<32> v335;
    bit<32> v337;
    bit<32> v339;
    bit<32> v341;
    bit<32> v343;
    bit<32> v344;
    bit<32> v345;
    bit<32> v346;
    bit<32> v347;
    bit<32> v349;
    bit<32> v351;
    bit<32> v352;
    bit<32> v354;
    bit<32> v355;
    bit<16> v356;
    bit<16> v358;
    bit<16> v359;
    bit<16> v395;
    bit<16> v396;
    bit<16> v397;
    bit<1> v399;
    bit<16> v322;
    bit<16> v402;
    bit<32> v403;
    bit<32> v404;
    bit<32> v406;
    bit<32> v408;
    bit<32> v409;
    bit<32> v411;
    bit<32> v412;
    bit<32> v414;
    bit<1> v416;
    bit<32> v418;
    bit<16> v420;
    bit<32> v421;
    bit<32> v422;
    bit<32> v423;
    bit<32> v424;
    bit<32> v426;
    bit<32> v428;
    bit<32> v429;
    bit<32> v431;
    bit<32> v432;
    bit<16> v433;
    bit<16> v435;
    bit<1> v437;
    bit<16> v439;
    bit<16> v440;
    bit<16> v360;
    bit<16> v361;
    bit<16> v362;
    bit<16> v364;
    bit<32> v365;
    bit<32> v366;
    bit<32> v368;
    bit<32> v370;
    bit<32> v371;
    bit<32> v373;
    bit<32> v374;
    bit<32> v376;
    bit<16> v378;
    bit<32> v379;
    bit<32> v380;
    bit<32> v381;
    bit<32> v382;
    bit<32> v384;
    bit<32> v386;
    bit<32> v387;
    bit<32> v389;
    bit<32> v390;
    bit<16> v391;
    bit<16> v393;
    bit<16> v394;
    bit<32> v441;
    bit<16> v442;
    bit<32> v319;
    bit<16> v320;
    bit<32> v170;
    bit<16> v171;
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
    action int2ext_hit(bit<16> v0, bit<16> v2) {
        meta.v172 = 1w1;
        meta.v173 = v0;
        meta.v174 = v2;
    }
    action int2ext_miss() {
        meta.v172 = 1w0;
        meta.v173 = 16w0;
        meta.v174 = 16w0;
    }
    table int2ext {
        key = {
            meta.int2ext_k0: exact;
            meta.int2ext_k4: exact;
            meta.int2ext_k8: exact;
            meta.int2ext_k10: exact;
            meta.int2ext_k12: exact;
            meta.int2ext_k13: exact;
            meta.int2ext_k14: exact;
            meta.int2ext_k15: exact;
        }
        actions = {
            int2ext_hit;
            int2ext_miss;
        }
        default_action = int2ext_miss();
        size = 0x10000;
    }
    action int2ext_wb_hit(bit<16> v0, bit<16> v2) {
        meta.v172 = 1w1;
        meta.v173 = v0;
        meta.v174 = v2;
        meta.wb_hit = 1w1;
    }
    action int2ext_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v172 = 1w0;
        meta.v173 = 16w0;
        meta.v174 = 16w0;
    }
    action int2ext_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table int2ext_wb {
        key = {
            meta.int2ext_k0: exact;
            meta.int2ext_k4: exact;
            meta.int2ext_k8: exact;
            meta.int2ext_k10: exact;
            meta.int2ext_k12: exact;
            meta.int2ext_k13: exact;
            meta.int2ext_k14: exact;
            meta.int2ext_k15: exact;
        }
        actions = {
            int2ext_wb_hit;
            int2ext_wb_deleted;
            int2ext_wb_miss;
        }
        default_action = int2ext_wb_miss();
        size = 0x400;
    }
    action ext2int_hit(bit<32> v0, bit<16> v4, bit<16> v6) {
        meta.v46 = 1w1;
        meta.v47 = v0;
        meta.v48 = v4;
        meta.v49 = v6;
    }
    action ext2int_miss() {
        meta.v46 = 1w0;
        meta.v47 = 32w0;
        meta.v48 = 16w0;
        meta.v49 = 16w0;
    }
    table ext2int {
        key = {
            meta.ext2int_k0: exact;
            meta.ext2int_k4: exact;
            meta.ext2int_k8: exact;
            meta.ext2int_k10: exact;
            meta.ext2int_k12: exact;
            meta.ext2int_k13: exact;
            meta.ext2int_k14: exact;
            meta.ext2int_k15: exact;
        }
        actions = {
            ext2int_hit;
            ext2int_miss;
        }
        default_action = ext2int_miss();
        size = 0x10000;
    }
    action ext2int_wb_hit(bit<32> v0, bit<16> v4, bit<16> v6) {
        meta.v46 = 1w1;
        meta.v47 = v0;
        meta.v48 = v4;
        meta.v49 = v6;
        meta.wb_hit = 1w1;
    }
    action ext2int_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v46 = 1w0;
        meta.v47 = 32w0;
        meta.v48 = 16w0;
        meta.v49 = 16w0;
    }
    action ext2int_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table ext2int_wb {
        key = {
            meta.ext2int_k0: exact;
            meta.ext2int_k4: exact;
            meta.ext2int_k8: exact;
            meta.ext2int_k10: exact;
            meta.ext2int_k12: exact;
            meta.ext2int_k13: exact;
            meta.ext2int_k14: exact;
            meta.ext2int_k15: exact;
        }
        actions = {
            ext2int_wb_hit;
            ext2int_wb_deleted;
            ext2int_wb_miss;
        }
        default_action = ext2int_wb_miss();
        size = 0x400;
    }
    register<bit<32> >(32w1) next_port;
    register<bit<32> >(32w1) external_ip;
    register<bit<32> >(32w1) first_port;
    register<bit<32> >(32w1) inside_port;
    register<bit<32> >(32w1) outside_port;
    register<bit<1> >(32w1) tandem_visible;
    apply {
        meta.now = ((bit<64>) standard_metadata.ingress_global_timestamp) * 64w0x3e8;
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.v19 = hdr.tandem.v19;
                meta.v29 = hdr.tandem.v29;
                meta.v41 = hdr.tandem.v41;
                meta.v176 = hdr.tandem.v176;
                meta.v179 = hdr.tandem.v179;
                meta.v194 = hdr.tandem.v194;
                meta.v198 = hdr.tandem.v198;
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
            meta.v0 = hdr.ipv4.isValid() ? 1w1 : 1w0;
            meta.v2 = meta.v0 ^ 1w1;
            if (meta.v2 == 1w0) {
                meta.v3 = hdr.tcp.isValid() ? 1w1 : 1w0;
                meta.v5 = meta.v3 ^ 1w1;
                meta.v6 = hdr.udp.isValid() ? 1w1 : 1w0;
                meta.v8 = meta.v6 ^ 1w1;
                meta.v9 = meta.v5 & meta.v8;
                if (meta.v9 == 1w0) {
                    meta.v12 = (meta.v5 == 1w1) ? 8w0 : 8w1;
                    meta.v13 = hdr.udp.sport;
                    meta.v14 = meta.v13[7:0] ++ meta.v13[15:8];
                    meta.v15 = hdr.tcp.sport;
                    meta.v16 = meta.v15[7:0] ++ meta.v15[15:8];
                    meta.v18 = (meta.v12 == 8w1) ? 1w1 : 1w0;
                    meta.v19 = (meta.v18 == 1w1) ? meta.v16 : meta.v14;
                    meta.v22 = (meta.v5 == 1w1) ? 8w0 : 8w1;
                    meta.v23 = hdr.udp.dport;
                    meta.v24 = meta.v23[7:0] ++ meta.v23[15:8];
                    meta.v25 = hdr.tcp.dport;
                    meta.v26 = meta.v25[7:0] ++ meta.v25[15:8];
                    meta.v28 = (meta.v22 == 8w1) ? 1w1 : 1w0;
                    meta.v29 = (meta.v28 == 1w1) ? meta.v26 : meta.v24;
                    meta.v30 = hdr.ipv4.saddr;
                    meta.v31 = ((meta.v30[7:0] ++ meta.v30[15:8]) ++ meta.v30[23:16]) ++ meta.v30[31:24];
                    meta.v32 = hdr.ipv4.daddr;
                    meta.v33 = ((meta.v32[7:0] ++ meta.v32[15:8]) ++ meta.v32[23:16]) ++ meta.v32[31:24];
                    meta.v34 = hdr.ipv4.protocol;
                    meta.v38 = meta.in_port;
                    meta.v39 = (bit<32>) meta.v38;
                    inside_port.read(meta.v40, 32w0);
                    meta.v41 = (meta.v39 == meta.v40) ? 1w1 : 1w0;
                    if (meta.v41 == 1w1) {
                        meta.int2ext_k0 = meta.v31;
                        meta.int2ext_k4 = meta.v33;
                        meta.int2ext_k8 = meta.v19;
                        meta.int2ext_k10 = meta.v29;
                        meta.int2ext_k12 = meta.v34;
                        meta.int2ext_k13 = 8w0;
                        meta.int2ext_k14 = 8w0;
                        meta.int2ext_k15 = 8w0;
                        meta.wb_hit = 1w0;
                        if (meta.visible == 1w1) {
                            int2ext_wb.apply();
                        }
                        if (meta.wb_hit == 1w0) {
                            int2ext.apply();
                        }
                        meta.v176 = meta.v172 ^ 1w1;
                        if (meta.v176 == 1w1) {
                            meta.to_server = 1w1;
                            next_port.read(meta.v177, 32w0);
                            meta.v178 = (bit<16>) meta.v177;
                            meta.v179 = meta.v178[7:0] ++ meta.v178[15:8];
                            meta.v181 = (meta.v177 > 32w0xfffe) ? 1w1 : 1w0;
                            first_port.read(meta.v182, 32w0);
                            meta.v184 = meta.v177 + 32w1;
                            meta.v185 = (meta.v181 == 1w1) ? meta.v182 : meta.v184;
                            next_port.write(32w0, meta.v185);
                            meta.v186 = hdr.ipv4.daddr;
                            meta.v187 = ((meta.v186[7:0] ++ meta.v186[15:8]) ++ meta.v186[23:16]) ++ meta.v186[31:24];
                            external_ip.read(meta.v188, 32w0);
                            meta.v189 = hdr.ipv4.protocol;
                        } else {
                            meta.v199 = meta.v173;
                            meta.v200 = hdr.ipv4.saddr;
                            meta.v201 = ((meta.v200[7:0] ++ meta.v200[15:8]) ++ meta.v200[23:16]) ++ meta.v200[31:24];
                            external_ip.read(meta.v202, 32w0);
                            meta.v203 = ((meta.v202[7:0] ++ meta.v202[15:8]) ++ meta.v202[23:16]) ++ meta.v202[31:24];
                            hdr.ipv4.saddr = meta.v203;
                            meta.v204 = hdr.ipv4.check;
                            meta.v205 = meta.v204[7:0] ++ meta.v204[15:8];
                            meta.v207 = meta.v205 ^ 16w0xffff;
                            meta.v208 = (bit<32>) meta.v207;
                            meta.v210 = meta.v201 & 32w0xffff;
                            meta.v212 = meta.v210 ^ 32w0xffff;
                            meta.v214 = meta.v201 ^ 32w0xffffffff;
                            meta.v216 = meta.v214 >> 32w16;
                            meta.v218 = meta.v202 & 32w0xffff;
                            meta.v220 = meta.v202 >> 32w16;
                            meta.v221 = meta.v212 + meta.v216;
                            meta.v222 = meta.v221 + meta.v220;
                            meta.v223 = meta.v222 + meta.v218;
                            meta.v224 = meta.v223 + meta.v208;
                            meta.v226 = meta.v224 & 32w0xffff;
                            meta.v228 = meta.v224 >> 32w16;
                            meta.v229 = meta.v226 + meta.v228;
                            meta.v231 = meta.v229 >> 32w16;
                            meta.v232 = meta.v231 + meta.v229;
                            meta.v233 = (bit<16>) meta.v232;
                            meta.v235 = meta.v233 ^ 16w0xffff;
                            meta.v236 = meta.v235[7:0] ++ meta.v235[15:8];
                            hdr.ipv4.check = meta.v236;
                            if (meta.v5 == 1w1) {
                                meta.v272 = meta.v199[7:0] ++ meta.v199[15:8];
                                hdr.udp.sport = meta.v272;
                                meta.v273 = hdr.udp.check;
                                meta.v274 = meta.v273[7:0] ++ meta.v273[15:8];
                                meta.v276 = (meta.v274 == 16w0) ? 1w1 : 1w0;
                                if (meta.v276 == 1w1) {
                                    meta.v317 = 16w0;
                                } else {
                                    meta.v279 = meta.v274 ^ 16w0xffff;
                                    meta.v280 = (bit<32>) meta.v279;
                                    meta.v281 = meta.v223 + meta.v280;
                                    meta.v283 = meta.v281 & 32w0xffff;
                                    meta.v285 = meta.v281 >> 32w16;
                                    meta.v286 = meta.v283 + meta.v285;
                                    meta.v288 = meta.v286 >> 32w16;
                                    meta.v289 = meta.v288 + meta.v286;
                                    meta.v291 = meta.v289 & 32w0xffff;
                                    meta.v293 = (meta.v291 == 32w0xffff) ? 1w1 : 1w0;
                                    meta.v295 = (meta.v293 == 1w1) ? 32w0 : meta.v291;
                                    meta.v297 = meta.v19 ^ 16w0xffff;
                                    meta.v298 = (bit<32>) meta.v297;
                                    meta.v299 = (bit<32>) meta.v199;
                                    meta.v300 = meta.v299 + meta.v298;
                                    meta.v301 = meta.v300 + meta.v295;
                                    meta.v303 = meta.v301 & 32w0xffff;
                                    meta.v305 = meta.v301 >> 32w16;
                                    meta.v306 = meta.v303 + meta.v305;
                                    meta.v308 = meta.v306 >> 32w16;
                                    meta.v309 = meta.v308 + meta.v306;
                                    meta.v310 = (bit<16>) meta.v309;
                                    meta.v312 = meta.v310 ^ 16w0xffff;
                                    meta.v314 = (meta.v310 == 16w0xffff) ? 1w1 : 1w0;
                                    meta.v316 = (meta.v314 == 1w1) ? 16w0xffff : meta.v312;
                                    meta.v317 = meta.v316;
                                }
                                meta.v318 = meta.v317[7:0] ++ meta.v317[15:8];
                                hdr.udp.check = meta.v318;
                            } else {
                                meta.v237 = meta.v199[7:0] ++ meta.v199[15:8];
                                hdr.tcp.sport = meta.v237;
                                meta.v238 = hdr.tcp.check;
                                meta.v239 = meta.v238[7:0] ++ meta.v238[15:8];
                                meta.v241 = meta.v239 ^ 16w0xffff;
                                meta.v242 = (bit<32>) meta.v241;
                                meta.v243 = meta.v223 + meta.v242;
                                meta.v245 = meta.v243 & 32w0xffff;
                                meta.v247 = meta.v243 >> 32w16;
                                meta.v248 = meta.v245 + meta.v247;
                                meta.v250 = meta.v248 >> 32w16;
                                meta.v251 = meta.v250 + meta.v248;
                                meta.v253 = meta.v251 & 32w0xffff;
                                meta.v255 = meta.v19 ^ 16w0xffff;
                                meta.v256 = (bit<32>) meta.v255;
                                meta.v257 = (bit<32>) meta.v199;
                                meta.v258 = meta.v257 + meta.v256;
                                meta.v259 = meta.v258 + meta.v253;
                                meta.v261 = meta.v259 & 32w0xffff;
                                meta.v263 = meta.v259 >> 32w16;
                                meta.v264 = meta.v261 + meta.v263;
                                meta.v266 = meta.v264 >> 32w16;
                                meta.v267 = meta.v266 + meta.v264;
                                meta.v268 = (bit<16>) meta.v267;
                                meta.v270 = meta.v268 ^ 16w0xffff;
                                meta.v271 = meta.v270[7:0] ++ meta.v270[15:8];
                                hdr.tcp.check = meta.v271;
                            }
                        }
                    } else {
                        meta.v42 = meta.in_port;
                        meta.v43 = (bit<32>) meta.v42;
                        outside_port.read(meta.v44, 32w0);
                        meta.v45 = (meta.v43 == meta.v44) ? 1w1 : 1w0;
                        if (meta.v45 == 1w1) {
                            meta.ext2int_k0 = meta.v31;
                            meta.ext2int_k4 = meta.v33;
                            meta.ext2int_k8 = meta.v19;
                            meta.ext2int_k10 = meta.v29;
                            meta.ext2int_k12 = meta.v34;
                            meta.ext2int_k13 = 8w0;
                            meta.ext2int_k14 = 8w0;
                            meta.ext2int_k15 = 8w0;
                            meta.wb_hit = 1w0;
                            if (meta.visible == 1w1) {
                                ext2int_wb.apply();
                            }
                            if (meta.wb_hit == 1w0) {
                                ext2int.apply();
                            }
                            meta.v51 = meta.v46 ^ 1w1;
                            if (meta.v51 == 1w0) {
                                meta.v52 = hdr.ipv4.daddr;
                                meta.v53 = ((meta.v52[7:0] ++ meta.v52[15:8]) ++ meta.v52[23:16]) ++ meta.v52[31:24];
                                meta.v54 = ((meta.v47[7:0] ++ meta.v47[15:8]) ++ meta.v47[23:16]) ++ meta.v47[31:24];
                                hdr.ipv4.daddr = meta.v54;
                                meta.v55 = hdr.ipv4.check;
                                meta.v56 = meta.v55[7:0] ++ meta.v55[15:8];
                                meta.v58 = meta.v56 ^ 16w0xffff;
                                meta.v59 = (bit<32>) meta.v58;
                                meta.v61 = meta.v53 & 32w0xffff;
                                meta.v63 = meta.v61 ^ 32w0xffff;
                                meta.v65 = meta.v53 ^ 32w0xffffffff;
                                meta.v67 = meta.v65 >> 32w16;
                                meta.v69 = meta.v47 & 32w0xffff;
                                meta.v71 = meta.v47 >> 32w16;
                                meta.v72 = meta.v63 + meta.v67;
                                meta.v73 = meta.v72 + meta.v71;
                                meta.v74 = meta.v73 + meta.v69;
                                meta.v75 = meta.v74 + meta.v59;
                                meta.v77 = meta.v75 & 32w0xffff;
                                meta.v79 = meta.v75 >> 32w16;
                                meta.v80 = meta.v77 + meta.v79;
                                meta.v82 = meta.v80 >> 32w16;
                                meta.v83 = meta.v82 + meta.v80;
                                meta.v84 = (bit<16>) meta.v83;
                                meta.v86 = meta.v84 ^ 16w0xffff;
                                meta.v87 = meta.v86[7:0] ++ meta.v86[15:8];
                                hdr.ipv4.check = meta.v87;
                                if (meta.v5 == 1w1) {
                                    meta.v123 = meta.v48[7:0] ++ meta.v48[15:8];
                                    hdr.udp.dport = meta.v123;
                                    meta.v124 = hdr.udp.check;
                                    meta.v125 = meta.v124[7:0] ++ meta.v124[15:8];
                                    meta.v127 = (meta.v125 == 16w0) ? 1w1 : 1w0;
                                    if (meta.v127 == 1w1) {
                                        meta.v168 = 16w0;
                                    } else {
                                        meta.v130 = meta.v125 ^ 16w0xffff;
                                        meta.v131 = (bit<32>) meta.v130;
                                        meta.v132 = meta.v74 + meta.v131;
                                        meta.v134 = meta.v132 & 32w0xffff;
                                        meta.v136 = meta.v132 >> 32w16;
                                        meta.v137 = meta.v134 + meta.v136;
                                        meta.v139 = meta.v137 >> 32w16;
                                        meta.v140 = meta.v139 + meta.v137;
                                        meta.v142 = meta.v140 & 32w0xffff;
                                        meta.v144 = (meta.v142 == 32w0xffff) ? 1w1 : 1w0;
                                        meta.v146 = (meta.v144 == 1w1) ? 32w0 : meta.v142;
                                        meta.v148 = meta.v29 ^ 16w0xffff;
                                        meta.v149 = (bit<32>) meta.v148;
                                        meta.v150 = (bit<32>) meta.v48;
                                        meta.v151 = meta.v150 + meta.v149;
                                        meta.v152 = meta.v151 + meta.v146;
                                        meta.v154 = meta.v152 & 32w0xffff;
                                        meta.v156 = meta.v152 >> 32w16;
                                        meta.v157 = meta.v154 + meta.v156;
                                        meta.v159 = meta.v157 >> 32w16;
                                        meta.v160 = meta.v159 + meta.v157;
                                        meta.v161 = (bit<16>) meta.v160;
                                        meta.v163 = meta.v161 ^ 16w0xffff;
                                        meta.v165 = (meta.v161 == 16w0xffff) ? 1w1 : 1w0;
                                        meta.v167 = (meta.v165 == 1w1) ? 16w0xffff : meta.v163;
                                        meta.v168 = meta.v167;
                                    }
                                    meta.v169 = meta.v168[7:0] ++ meta.v168[15:8];
                                    hdr.udp.check = meta.v169;
                                } else {
                                    meta.v88 = meta.v48[7:0] ++ meta.v48[15:8];
                                    hdr.tcp.dport = meta.v88;
                                    meta.v89 = hdr.tcp.check;
                                    meta.v90 = meta.v89[7:0] ++ meta.v89[15:8];
                                    meta.v92 = meta.v90 ^ 16w0xffff;
                                    meta.v93 = (bit<32>) meta.v92;
                                    meta.v94 = meta.v74 + meta.v93;
                                    meta.v96 = meta.v94 & 32w0xffff;
                                    meta.v98 = meta.v94 >> 32w16;
                                    meta.v99 = meta.v96 + meta.v98;
                                    meta.v101 = meta.v99 >> 32w16;
                                    meta.v102 = meta.v101 + meta.v99;
                                    meta.v104 = meta.v102 & 32w0xffff;
                                    meta.v106 = meta.v29 ^ 16w0xffff;
                                    meta.v107 = (bit<32>) meta.v106;
                                    meta.v108 = (bit<32>) meta.v48;
                                    meta.v109 = meta.v108 + meta.v107;
                                    meta.v110 = meta.v109 + meta.v104;
                                    meta.v112 = meta.v110 & 32w0xffff;
                                    meta.v114 = meta.v110 >> 32w16;
                                    meta.v115 = meta.v112 + meta.v114;
                                    meta.v117 = meta.v115 >> 32w16;
                                    meta.v118 = meta.v117 + meta.v115;
                                    meta.v119 = (bit<16>) meta.v118;
                                    meta.v121 = meta.v119 ^ 16w0xffff;
                                    meta.v122 = meta.v121[7:0] ++ meta.v121[15:8];
                                    hdr.tcp.check = meta.v122;
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
                hdr.tandem.v19 = meta.v19;
                hdr.tandem.v29 = meta.v29;
                hdr.tandem.v41 = meta.v41;
                hdr.tandem.v176 = meta.v176;
                hdr.tandem.v179 = meta.v179;
                hdr.tandem.v194 = 1w0;
                hdr.tandem.v198 = 1w0;
                hdr.tandem.pad = 4w0;
            }
        }
        if (meta.to_server == 1w0) {
            meta.v0 = hdr.ipv4.isValid() ? 1w1 : 1w0;
            meta.v2 = meta.v0 ^ 1w1;
            if (meta.v2 == 1w1) {
                meta.fate = 17w0;
            } else {
                meta.v3 = hdr.tcp.isValid() ? 1w1 : 1w0;
                meta.v5 = meta.v3 ^ 1w1;
                meta.v6 = hdr.udp.isValid() ? 1w1 : 1w0;
                meta.v8 = meta.v6 ^ 1w1;
                meta.v9 = meta.v5 & meta.v8;
                if (meta.v9 == 1w1) {
                    meta.fate = 17w0;
                } else {
                    if (meta.v41 == 1w1) {
                        if (meta.v176 == 1w1) {
                            if (meta.v194 == 1w1) {
                                if (meta.v198 == 1w1) {
                                    meta.v321 = meta.v179;
                                    meta.v323 = hdr.ipv4.saddr;
                                    meta.v324 = ((meta.v323[7:0] ++ meta.v323[15:8]) ++ meta.v323[23:16]) ++ meta.v323[31:24];
                                    external_ip.read(meta.v325, 32w0);
                                    meta.v326 = ((meta.v325[7:0] ++ meta.v325[15:8]) ++ meta.v325[23:16]) ++ meta.v325[31:24];
                                    hdr.ipv4.saddr = meta.v326;
                                    meta.v327 = hdr.ipv4.check;
                                    meta.v328 = meta.v327[7:0] ++ meta.v327[15:8];
                                    meta.v330 = meta.v328 ^ 16w0xffff;
                                    meta.v331 = (bit<32>) meta.v330;
                                    meta.v333 = meta.v324 & 32w0xffff;
                                    meta.v335 = meta.v333 ^ 32w0xffff;
                                    meta.v337 = meta.v324 ^ 32w0xffffffff;
                                    meta.v339 = meta.v337 >> 32w16;
                                    meta.v341 = meta.v325 & 32w0xffff;
                                    meta.v343 = meta.v325 >> 32w16;
                                    meta.v344 = meta.v335 + meta.v339;
                                    meta.v345 = meta.v344 + meta.v343;
                                    meta.v346 = meta.v345 + meta.v341;
                                    meta.v347 = meta.v346 + meta.v331;
                                    meta.v349 = meta.v347 & 32w0xffff;
                                    meta.v351 = meta.v347 >> 32w16;
                                    meta.v352 = meta.v349 + meta.v351;
                                    meta.v354 = meta.v352 >> 32w16;
                                    meta.v355 = meta.v354 + meta.v352;
                                    meta.v356 = (bit<16>) meta.v355;
                                    meta.v358 = meta.v356 ^ 16w0xffff;
                                    meta.v359 = meta.v358[7:0] ++ meta.v358[15:8];
                                    hdr.ipv4.check = meta.v359;
                                    if (meta.v5 == 1w1) {
                                        meta.v395 = meta.v321[7:0] ++ meta.v321[15:8];
                                        hdr.udp.sport = meta.v395;
                                        meta.v396 = hdr.udp.check;
                                        meta.v397 = meta.v396[7:0] ++ meta.v396[15:8];
                                        meta.v399 = (meta.v397 == 16w0) ? 1w1 : 1w0;
                                        if (meta.v399 == 1w1) {
                                            meta.v322 = 16w0;
                                        } else {
                                            meta.v402 = meta.v397 ^ 16w0xffff;
                                            meta.v403 = (bit<32>) meta.v402;
                                            meta.v404 = meta.v346 + meta.v403;
                                            meta.v406 = meta.v404 & 32w0xffff;
                                            meta.v408 = meta.v404 >> 32w16;
                                            meta.v409 = meta.v406 + meta.v408;
                                            meta.v411 = meta.v409 >> 32w16;
                                            meta.v412 = meta.v411 + meta.v409;
                                            meta.v414 = meta.v412 & 32w0xffff;
                                            meta.v416 = (meta.v414 == 32w0xffff) ? 1w1 : 1w0;
                                            meta.v418 = (meta.v416 == 1w1) ? 32w0 : meta.v414;
                                            meta.v420 = meta.v19 ^ 16w0xffff;
                                            meta.v421 = (bit<32>) meta.v420;
                                            meta.v422 = (bit<32>) meta.v321;
                                            meta.v423 = meta.v422 + meta.v421;
                                            meta.v424 = meta.v423 + meta.v418;
                                            meta.v426 = meta.v424 & 32w0xffff;
                                            meta.v428 = meta.v424 >> 32w16;
                                            meta.v429 = meta.v426 + meta.v428;
                                            meta.v431 = meta.v429 >> 32w16;
                                            meta.v432 = meta.v431 + meta.v429;
                                            meta.v433 = (bit<16>) meta.v432;
                                            meta.v435 = meta.v433 ^ 16w0xffff;
                                            meta.v437 = (meta.v433 == 16w0xffff) ? 1w1 : 1w0;
                                            meta.v439 = (meta.v437 == 1w1) ? 16w0xffff : meta.v435;
                                            meta.v322 = meta.v439;
                                        }
                                        meta.v440 = meta.v322[7:0] ++ meta.v322[15:8];
                                        hdr.udp.check = meta.v440;
                                    } else {
                                        meta.v360 = meta.v321[7:0] ++ meta.v321[15:8];
                                        hdr.tcp.sport = meta.v360;
                                        meta.v361 = hdr.tcp.check;
                                        meta.v362 = meta.v361[7:0] ++ meta.v361[15:8];
                                        meta.v364 = meta.v362 ^ 16w0xffff;
                                        meta.v365 = (bit<32>) meta.v364;
                                        meta.v366 = meta.v346 + meta.v365;
                                        meta.v368 = meta.v366 & 32w0xffff;
                                        meta.v370 = meta.v366 >> 32w16;
                                        meta.v371 = meta.v368 + meta.v370;
                                        meta.v373 = meta.v371 >> 32w16;
                                        meta.v374 = meta.v373 + meta.v371;
                                        meta.v376 = meta.v374 & 32w0xffff;
                                        meta.v378 = meta.v19 ^ 16w0xffff;
                                        meta.v379 = (bit<32>) meta.v378;
                                        meta.v380 = (bit<32>) meta.v321;
                                        meta.v381 = meta.v380 + meta.v379;
                                        meta.v382 = meta.v381 + meta.v376;
                                        meta.v384 = meta.v382 & 32w0xffff;
                                        meta.v386 = meta.v382 >> 32w16;
                                        meta.v387 = meta.v384 + meta.v386;
                                        meta.v389 = meta.v387 >> 32w16;
                                        meta.v390 = meta.v389 + meta.v387;
                                        meta.v391 = (bit<16>) meta.v390;
                                        meta.v393 = meta.v391 ^ 16w0xffff;
                                        meta.v394 = meta.v393[7:0] ++ meta.v393[15:8];
                                        hdr.tcp.check = meta.v394;
                                    }
                                    outside_port.read(meta.v441, 32w0);
                                    meta.v442 = (bit<16>) meta.v441;
                                    meta.fate = 1w1 ++ meta.v442;
                                } else {
                                    meta.fate = 17w0;
                                }
                            } else {
                                meta.fate = 17w0;
                            }
                        } else {
                            outside_port.read(meta.v319, 32w0);
                            meta.v320 = (bit<16>) meta.v319;
                            meta.fate = 1w1 ++ meta.v320;
                        }
                    } else {
                        if (meta.v45 == 1w1) {
                            if (meta.v51 == 1w1) {
                                meta.fate = 17w0;
                            } else {
                                inside_port.read(meta.v170, 32w0);
                                meta.v171 = (bit<16>) meta.v170;
                                meta.fate = 1w1 ++ meta.v171;
                            }
                        } else {
                            meta.fate = 17w0;
                        }
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
