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
    bit<1> v143;
    bit<1> v149;
    bit<32> v170;
    bit<1> v191;
    bit<32> v200;
    bit<1> v207;
    bit<1> v306;
    bit<32> v186;
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
    bit<32> conns_k0;
    bit<32> conns_k4;
    bit<16> conns_k8;
    bit<16> conns_k10;
    bit<8> conns_k12;
    bit<8> conns_k13;
    bit<8> conns_k14;
    bit<8> conns_k15;
    bit<1> v146;
    bit<32> v147;
    bit<32> replies_0_k0;
    bit<32> replies_0_k4;
    bit<16> replies_0_k8;
    bit<16> replies_0_k10;
    bit<8> replies_0_k12;
    bit<8> replies_0_k13;
    bit<8> replies_0_k14;
    bit<8> replies_0_k15;
    bit<1> v46;
    bit<32> v47;
    bit<32> replies_1_k0;
    bit<32> replies_1_k4;
    bit<16> replies_1_k8;
    bit<16> replies_1_k10;
    bit<8> replies_1_k12;
    bit<8> replies_1_k13;
    bit<8> replies_1_k14;
    bit<8> replies_1_k15;
    bit<1> v156;
    bit<32> v157;
    bit<32> vips_k0;
    bit<1> v140;
    bit<32> v141;
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
    bit<32> v138;
    bit<32> v139;
    bit<1> v143;
    bit<32> v144;
    bit<32> v145;
    bit<1> v149;
    bit<32> v158;
    bit<32> v159;
    bit<32> v160;
    bit<32> v162;
    bit<32> v163;
    bit<32> v164;
    bit<32> v165;
    bit<32> v166;
    bit<32> v168;
    bit<32> v169;
    bit<32> v170;
    bit<8> v187;
    bit<8> v189;
    bit<1> v191;
    bit<32> v192;
    bit<32> v193;
    bit<8> v194;
    bit<8> v302;
    bit<8> v298;
    bit<8> v304;
    bit<1> v306;
    bit<8> v202;
    bit<8> v205;
    bit<1> v207;
    bit<32> v150;
    bit<32> v151;
    bit<8> v152;
    bit<32> v200;
    bit<32> v208;
    bit<32> v209;
    bit<32> v210;
    bit<32> v211;
    bit<16> v212;
    bit<16> v213;
    bit<16> v215;
    bit<32> v216;
    bit<32> v218;
    bit<32> v220;
    bit<32> v222;
    bit<32> v224;
    bit<32> v226;
    bit<32> v228;
    bit<32> v229;
    bit<32> v230;
    bit<32> v231;
    bit<32> v232;
    bit<32> v234;
    bit<32> v236;
    bit<32> v237;
    bit<32> v239;
    bit<32> v240;
    bit<16> v241;
    bit<16> v243;
    bit<16> v244;
    bit<1> v245;
    bit<1> v247;
    bit<16> v248;
    bit<16> v249;
    bit<16> v251;
    bit<32> v252;
    bit<32> v253;
    bit<32> v255;
    bit<32> v257;
    bit<32> v258;
    bit<32> v260;
    bit<32> v261;
    bit<16> v262;
    bit<16> v264;
    bit<16> v265;
    bit<1> v266;
    bit<1> v268;
    bit<16> v269;
    bit<16> v270;
    bit<1> v272;
    bit<16> v293;
    bit<16> v275;
    bit<32> v276;
    bit<32> v277;
    bit<32> v279;
    bit<32> v281;
    bit<32> v282;
    bit<32> v284;
    bit<32> v285;
    bit<16> v286;
    bit<16> v288;
    bit<1> v290;
    bit<16> v292;
    bit<16> v294;
    bit<8> v201;
    bit<16> v42;
    bit<32> v43;
    bit<32> v44;
    bit<1> v45;
    bit<1> v49;
    bit<32> v50;
    bit<32> v51;
    bit<32> v52;
    bit<16> v53;
    bit<16> v54;
    bit<16> v56;
    bit<32> v57;
    bit<32> v59;
    bit<32> v61;
    bit<32> v63;
    bit<32> v65;
    bit<32> v67;
    bit<32> v69;
    bit<32> v70;
    bit<32> v71;
    bit<32> v72;
    bit<32> v73;
    bit<32> v75;
    bit<32> v77;
    bit<32> v78;
    bit<32> v80;
    bit<32> v81;
    bit<16> v82;
    bit<16> v84;
    bit<16> v85;
    bit<1> v86;
    bit<1> v88;
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
    bit<16> v103;
    bit<16> v105;
    bit<16> v106;
    bit<1> v107;
    bit<1> v109;
    bit<16> v110;
    bit<16> v111;
    bit<1> v113;
    bit<16> v134;
    bit<16> v116;
    bit<32> v117;
    bit<32> v118;
    bit<32> v120;
    bit<32> v122;
    bit<32> v123;
    bit<32> v125;
    bit<32> v126;
    bit<16> v127;
    bit<16> v129;
    bit<1> v131;
    bit<16> v133;
    bit<16> v135;
    bit<32> v186;
    bit<32> v297;
    bit<32> v300;
    bit<32> v299;
    bit<32> v307;
    bit<32> v308;
    bit<32> v309;
    bit<16> v310;
    bit<16> v311;
    bit<16> v313;
    bit<32> v314;
    bit<32> v316;
    bit<32> v318;
    bit<32> v320;
    bit<32> v322;
    bit<32> v324;
    bit<32> v326;
    bit<32> v327;
    bit<32> v328;
    bit<32> v329;
    bit<32> v330;
    bit<32> v332;
    bit<32> v334;
    bit<32> v335;
    bit<32> v337;
    bit<32> v338;
    bit<16> v339;
    bit<16> v341;
    bit<16> v342;
    bit<1> v343;
    bit<1> v345;
    bit<16> v346;
    bit<16> v347;
    bit<16> v349;
    bit<32> v350;
    bit<32> v351;
    bit<32> v353;
    bit<32> v355;
    bit<32> v356;
    bit<32> v358;
    bit<32> v359;
    bit<16> v360;
    bit<16> v362;
    bit<16> v363;
    bit<1> v364;
    bit<1> v366;
    bit<16> v367;
    bit<16> v368;
    bit<1> v370;
    bit<16> v301;
    bit<16> v373;
    bit<32> v374;
    bit<32> v375;
    bit<32> v377;
    bit<32> v379;
    bit<32> v380;
    bit<32> v382;
    bit<32> v383;
    bit<16> v384;
    bit<16> v386;
    bit<1> v388;
    bit<16> v390;
    bit<16> v391;
    bit<32> v392;
    bit<16> v393;
    bit<32> v203;
    bit<32> v394;
    bit<32> v396;
    bit<32> v397;
    bit<32> v398;
    bit<16> v399;
    bit<16> v400;
    bit<16> v402;
    bit<32> v403;
    bit<32> v405;
    bit<32> v407;
    bit<32> v409;
    bit<32> v411;
    bit<32> v413;
    bit<32> v415;
    bit<32> v416;
    bit<32> v417;
    bit<32> v418;
    bit<32> v419;
    bit<32> v421;
    bit<32> v423;
    bit<32> v424;
    bit<32> v426;
    bit<32> v427;
    bit<16> v428;
    bit<16> v430;
    bit<16> v431;
    bit<1> v432;
    bit<1> v434;
    bit<16> v435;
    bit<16> v436;
    bit<16> v438;
    bit<32> v439;
    bit<32> v440;
    bit<32> v442;
    bit<32> v444;
    bit<32> v445;
    bit<32> v447;
    bit<32> v448;
    bit<16> v449;
    bit<16> v451;
    bit<16> v452;
    bit<1> v453;
    bit<1> v455;
    bit<16> v456;
    bit<16> v457;
    bit<1> v459;
    bit<16> v395;
    bit<16> v462;
    bit<32> v463;
    bit<32> v464;
    bit<32> v466;
    bit<32> v468;
    bit<32> v469;
    bit<32> v471;
    bit<32> v472;
    bit<16> v473;
    bit<16> v475;
    bit<1> v477;
    bit<16> v479;
    bit<16> v480;
    bit<32> v481;
    bit<16> v482;
    bit<32> v295;
    bit<16> v296;
    bit<32> v136;
    bit<16> v137;
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
    action conns_hit(bit<32> v0) {
        meta.v146 = 1w1;
        meta.v147 = v0;
    }
    action conns_miss() {
        meta.v146 = 1w0;
        meta.v147 = 32w0;
    }
    table conns {
        key = {
            meta.conns_k0: exact;
            meta.conns_k4: exact;
            meta.conns_k8: exact;
            meta.conns_k10: exact;
            meta.conns_k12: exact;
            meta.conns_k13: exact;
            meta.conns_k14: exact;
            meta.conns_k15: exact;
        }
        actions = {
            conns_hit;
            conns_miss;
        }
        default_action = conns_miss();
        size = 0x10000;
    }
    action conns_wb_hit(bit<32> v0) {
        meta.v146 = 1w1;
        meta.v147 = v0;
        meta.wb_hit = 1w1;
    }
    action conns_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v146 = 1w0;
        meta.v147 = 32w0;
    }
    action conns_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table conns_wb {
        key = {
            meta.conns_k0: exact;
            meta.conns_k4: exact;
            meta.conns_k8: exact;
            meta.conns_k10: exact;
            meta.conns_k12: exact;
            meta.conns_k13: exact;
            meta.conns_k14: exact;
            meta.conns_k15: exact;
        }
        actions = {
            conns_wb_hit;
            conns_wb_deleted;
            conns_wb_miss;
        }
        default_action = conns_wb_miss();
        size = 0x400;
    }
    action replies_0_hit(bit<32> v0) {
        meta.v46 = 1w1;
        meta.v47 = v0;
    }
    action replies_0_miss() {
        meta.v46 = 1w0;
        meta.v47 = 32w0;
    }
    table replies_0 {
        key = {
            meta.replies_0_k0: exact;
            meta.replies_0_k4: exact;
            meta.replies_0_k8: exact;
            meta.replies_0_k10: exact;
            meta.replies_0_k12: exact;
            meta.replies_0_k13: exact;
            meta.replies_0_k14: exact;
            meta.replies_0_k15: exact;
        }
        actions = {
            replies_0_hit;
            replies_0_miss;
        }
        default_action = replies_0_miss();
        size = 0x10000;
    }
    action replies_0_wb_hit(bit<32> v0) {
        meta.v46 = 1w1;
        meta.v47 = v0;
        meta.wb_hit = 1w1;
    }
    action replies_0_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v46 = 1w0;
        meta.v47 = 32w0;
    }
    action replies_0_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table replies_0_wb {
        key = {
            meta.replies_0_k0: exact;
            meta.replies_0_k4: exact;
            meta.replies_0_k8: exact;
            meta.replies_0_k10: exact;
            meta.replies_0_k12: exact;
            meta.replies_0_k13: exact;
            meta.replies_0_k14: exact;
            meta.replies_0_k15: exact;
        }
        actions = {
            replies_0_wb_hit;
            replies_0_wb_deleted;
            replies_0_wb_miss;
        }
        default_action = replies_0_wb_miss();
        size = 0x400;
    }
    action replies_1_hit(bit<32> v0) {
        meta.v156 = 1w1;
        meta.v157 = v0;
    }
    action replies_1_miss() {
        meta.v156 = 1w0;
        meta.v157 = 32w0;
    }
    table replies_1 {
        key = {
            meta.replies_1_k0: exact;
            meta.replies_1_k4: exact;
            meta.replies_1_k8: exact;
            meta.replies_1_k10: exact;
            meta.replies_1_k12: exact;
            meta.replies_1_k13: exact;
            meta.replies_1_k14: exact;
            meta.replies_1_k15: exact;
        }
        actions = {
            replies_1_hit;
            replies_1_miss;
        }
        default_action = replies_1_miss();
        size = 0x10000;
    }
    action replies_1_wb_hit(bit<32> v0) {
        meta.v156 = 1w1;
        meta.v157 = v0;
        meta.wb_hit = 1w1;
    }
    action replies_1_wb_deleted() {
        meta.wb_hit = 1w1;
        meta.v156 = 1w0;
        meta.v157 = 32w0;
    }
    action replies_1_wb_miss() {
        meta.wb_hit = 1w0;
    }
    table replies_1_wb {
        key = {
            meta.replies_1_k0: exact;
            meta.replies_1_k4: exact;
            meta.replies_1_k8: exact;
            meta.replies_1_k10: exact;
            meta.replies_1_k12: exact;
            meta.replies_1_k13: exact;
            meta.replies_1_k14: exact;
            meta.replies_1_k15: exact;
        }
        actions = {
            replies_1_wb_hit;
            replies_1_wb_deleted;
            replies_1_wb_miss;
        }
        default_action = replies_1_wb_miss();
        size = 0x400;
    }
    action vips_hit(bit<32> v0) {
        meta.v140 = 1w1;
        meta.v141 = v0;
    }
    action vips_miss() {
        meta.v140 = 1w0;
        meta.v141 = 32w0;
    }
    table vips {
        key = {
            meta.vips_k0: exact;
        }
        actions = {
            vips_hit;
            vips_miss;
        }
        default_action = vips_miss();
        size = 64;
    }
    register<bit<32> >(32w1) client_port;
    register<bit<32> >(32w1) backend_port;
    register<bit<1> >(32w1) tandem_visible;
    apply {
        meta.now = ((bit<64>) standard_metadata.ingress_global_timestamp) * 64w0x3e8;
        tandem_visible.read(meta.visible, 32w0);
        if (hdr.tandem.isValid()) {
            if (hdr.tandem.tag == 8w2) {
                meta.v19 = hdr.tandem.v19;
                meta.v29 = hdr.tandem.v29;
                meta.v41 = hdr.tandem.v41;
                meta.v143 = hdr.tandem.v143;
                meta.v149 = hdr.tandem.v149;
                meta.v170 = hdr.tandem.v170;
                meta.v191 = hdr.tandem.v191;
                meta.v200 = hdr.tandem.v200;
                meta.v207 = hdr.tandem.v207;
                meta.v306 = hdr.tandem.v306;
                meta.v186 = hdr.tandem.v186;
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
                    client_port.read(meta.v40, 32w0);
                    meta.v41 = (meta.v39 == meta.v40) ? 1w1 : 1w0;
                    if (meta.v41 == 1w1) {
                        meta.v138 = hdr.ipv4.daddr;
                        meta.v139 = ((meta.v138[7:0] ++ meta.v138[15:8]) ++ meta.v138[23:16]) ++ meta.v138[31:24];
                        meta.vips_k0 = meta.v139;
                        vips.apply();
                        meta.v143 = meta.v140 ^ 1w1;
                        if (meta.v143 == 1w0) {
                            meta.v144 = hdr.ipv4.daddr;
                            meta.v145 = ((meta.v144[7:0] ++ meta.v144[15:8]) ++ meta.v144[23:16]) ++ meta.v144[31:24];
                            meta.conns_k0 = meta.v31;
                            meta.conns_k4 = meta.v33;
                            meta.conns_k8 = meta.v19;
                            meta.conns_k10 = meta.v29;
                            meta.conns_k12 = meta.v34;
                            meta.conns_k13 = 8w0;
                            meta.conns_k14 = 8w0;
                            meta.conns_k15 = 8w0;
                            meta.wb_hit = 1w0;
                            if (meta.visible == 1w1) {
                                conns_wb.apply();
                            }
                            if (meta.wb_hit == 1w0) {
                                conns.apply();
                            }
                            meta.v149 = meta.v146 ^ 1w1;
                            if (meta.v149 == 1w1) {
                                meta.to_server = 1w1;
                                meta.v158 = meta.v33 ^ meta.v31;
                                meta.v159 = (bit<32>) meta.v19;
                                meta.v160 = (bit<32>) meta.v29;
                                meta.v162 = meta.v160 << 32w16;
                                meta.v163 = meta.v162 | meta.v159;
                                meta.v164 = meta.v158 ^ meta.v163;
                                meta.v165 = ((meta.v164[7:0] ++ meta.v164[15:8]) ++ meta.v164[23:16]) ++ meta.v164[31:24];
                                meta.v166 = (bit<32>) meta.v34;
                                meta.v168 = meta.v165 >> 32w16;
                                meta.v169 = meta.v168 ^ meta.v166;
                                meta.v170 = meta.v169 ^ meta.v165;
                                if (meta.v8 == 1w1) {
                                    meta.v187 = hdr.tcp.flags;
                                    meta.v189 = meta.v187 & 8w22;
                                    meta.v191 = (meta.v189 == 8w2) ? 1w1 : 1w0;
                                    if (meta.v191 == 1w1) {
                                        meta.to_server = 1w1;
                                        meta.v192 = hdr.ipv4.saddr;
                                        meta.v193 = ((meta.v192[7:0] ++ meta.v192[15:8]) ++ meta.v192[23:16]) ++ meta.v192[31:24];
                                        meta.v194 = hdr.ipv4.protocol;
                                        if (meta.v5 == 1w0) {
                                            meta.v302 = hdr.tcp.flags;
                                            meta.v298 = meta.v302;
                                            meta.v304 = meta.v298 & 8w5;
                                            meta.v306 = (meta.v304 == 8w0) ? 1w1 : 1w0;
                                            if (meta.v306 == 1w0) {
                                                meta.to_server = 1w1;
                                            }
                                        }
                                    } else {
                                        meta.v202 = meta.v187;
                                        meta.v205 = meta.v202 & 8w5;
                                        meta.v207 = (meta.v205 == 8w0) ? 1w1 : 1w0;
                                        if (meta.v207 == 1w0) {
                                            meta.to_server = 1w1;
                                        }
                                    }
                                } else {
                                    meta.to_server = 1w1;
                                    meta.v192 = hdr.ipv4.saddr;
                                    meta.v193 = ((meta.v192[7:0] ++ meta.v192[15:8]) ++ meta.v192[23:16]) ++ meta.v192[31:24];
                                    meta.v194 = hdr.ipv4.protocol;
                                    if (meta.v5 == 1w0) {
                                        meta.v302 = hdr.tcp.flags;
                                        meta.v298 = meta.v302;
                                        meta.v304 = meta.v298 & 8w5;
                                        meta.v306 = (meta.v304 == 8w0) ? 1w1 : 1w0;
                                        if (meta.v306 == 1w0) {
                                            meta.to_server = 1w1;
                                        }
                                    }
                                }
                            } else {
                                meta.v150 = hdr.ipv4.saddr;
                                meta.v151 = ((meta.v150[7:0] ++ meta.v150[15:8]) ++ meta.v150[23:16]) ++ meta.v150[31:24];
                                meta.v152 = hdr.ipv4.protocol;
                                meta.replies_1_k0 = meta.v147;
                                meta.replies_1_k4 = meta.v151;
                                meta.replies_1_k8 = meta.v29;
                                meta.replies_1_k10 = meta.v19;
                                meta.replies_1_k12 = meta.v152;
                                meta.replies_1_k13 = 8w0;
                                meta.replies_1_k14 = 8w0;
                                meta.replies_1_k15 = 8w0;
                                meta.wb_hit = 1w0;
                                if (meta.visible == 1w1) {
                                    replies_1_wb.apply();
                                }
                                if (meta.wb_hit == 1w0) {
                                    replies_1.apply();
                                }
                                meta.v200 = meta.v147;
                                if (meta.v5 == 1w1) {
                                    meta.v208 = meta.v200;
                                    meta.v209 = hdr.ipv4.daddr;
                                    meta.v210 = ((meta.v209[7:0] ++ meta.v209[15:8]) ++ meta.v209[23:16]) ++ meta.v209[31:24];
                                    meta.v211 = ((meta.v208[7:0] ++ meta.v208[15:8]) ++ meta.v208[23:16]) ++ meta.v208[31:24];
                                    hdr.ipv4.daddr = meta.v211;
                                    meta.v212 = hdr.ipv4.check;
                                    meta.v213 = meta.v212[7:0] ++ meta.v212[15:8];
                                    meta.v215 = meta.v213 ^ 16w0xffff;
                                    meta.v216 = (bit<32>) meta.v215;
                                    meta.v218 = meta.v210 & 32w0xffff;
                                    meta.v220 = meta.v218 ^ 32w0xffff;
                                    meta.v222 = meta.v210 ^ 32w0xffffffff;
                                    meta.v224 = meta.v222 >> 32w16;
                                    meta.v226 = meta.v208 & 32w0xffff;
                                    meta.v228 = meta.v208 >> 32w16;
                                    meta.v229 = meta.v226 + meta.v228;
                                    meta.v230 = meta.v229 + meta.v224;
                                    meta.v231 = meta.v230 + meta.v220;
                                    meta.v232 = meta.v231 + meta.v216;
                                    meta.v234 = meta.v232 & 32w0xffff;
                                    meta.v236 = meta.v232 >> 32w16;
                                    meta.v237 = meta.v234 + meta.v236;
                                    meta.v239 = meta.v237 >> 32w16;
                                    meta.v240 = meta.v239 + meta.v237;
                                    meta.v241 = (bit<16>) meta.v240;
                                    meta.v243 = meta.v241 ^ 16w0xffff;
                                    meta.v244 = meta.v243[7:0] ++ meta.v243[15:8];
                                    hdr.ipv4.check = meta.v244;
                                    meta.v245 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                    meta.v247 = meta.v245 ^ 1w1;
                                    if (meta.v247 == 1w0) {
                                        meta.v248 = hdr.tcp.check;
                                        meta.v249 = meta.v248[7:0] ++ meta.v248[15:8];
                                        meta.v251 = meta.v249 ^ 16w0xffff;
                                        meta.v252 = (bit<32>) meta.v251;
                                        meta.v253 = meta.v231 + meta.v252;
                                        meta.v255 = meta.v253 & 32w0xffff;
                                        meta.v257 = meta.v253 >> 32w16;
                                        meta.v258 = meta.v255 + meta.v257;
                                        meta.v260 = meta.v258 >> 32w16;
                                        meta.v261 = meta.v260 + meta.v258;
                                        meta.v262 = (bit<16>) meta.v261;
                                        meta.v264 = meta.v262 ^ 16w0xffff;
                                        meta.v265 = meta.v264[7:0] ++ meta.v264[15:8];
                                        hdr.tcp.check = meta.v265;
                                    }
                                    meta.v266 = hdr.udp.isValid() ? 1w1 : 1w0;
                                    meta.v268 = meta.v266 ^ 1w1;
                                    if (meta.v268 == 1w0) {
                                        meta.v269 = hdr.udp.check;
                                        meta.v270 = meta.v269[7:0] ++ meta.v269[15:8];
                                        meta.v272 = (meta.v270 == 16w0) ? 1w1 : 1w0;
                                        if (meta.v272 == 1w1) {
                                            meta.v293 = 16w0;
                                        } else {
                                            meta.v275 = meta.v270 ^ 16w0xffff;
                                            meta.v276 = (bit<32>) meta.v275;
                                            meta.v277 = meta.v231 + meta.v276;
                                            meta.v279 = meta.v277 & 32w0xffff;
                                            meta.v281 = meta.v277 >> 32w16;
                                            meta.v282 = meta.v279 + meta.v281;
                                            meta.v284 = meta.v282 >> 32w16;
                                            meta.v285 = meta.v284 + meta.v282;
                                            meta.v286 = (bit<16>) meta.v285;
                                            meta.v288 = meta.v286 ^ 16w0xffff;
                                            meta.v290 = (meta.v286 == 16w0xffff) ? 1w1 : 1w0;
                                            meta.v292 = (meta.v290 == 1w1) ? 16w0xffff : meta.v288;
                                            meta.v293 = meta.v292;
                                        }
                                        meta.v294 = meta.v293[7:0] ++ meta.v293[15:8];
                                        hdr.udp.check = meta.v294;
                                    }
                                } else {
                                    meta.v201 = hdr.tcp.flags;
                                    meta.v202 = meta.v201;
                                    meta.v205 = meta.v202 & 8w5;
                                    meta.v207 = (meta.v205 == 8w0) ? 1w1 : 1w0;
                                    if (meta.v207 == 1w0) {
                                        meta.to_server = 1w1;
                                    }
                                }
                            }
                        }
                    } else {
                        meta.v42 = meta.in_port;
                        meta.v43 = (bit<32>) meta.v42;
                        backend_port.read(meta.v44, 32w0);
                        meta.v45 = (meta.v43 == meta.v44) ? 1w1 : 1w0;
                        if (meta.v45 == 1w1) {
                            meta.replies_0_k0 = meta.v31;
                            meta.replies_0_k4 = meta.v33;
                            meta.replies_0_k8 = meta.v19;
                            meta.replies_0_k10 = meta.v29;
                            meta.replies_0_k12 = meta.v34;
                            meta.replies_0_k13 = 8w0;
                            meta.replies_0_k14 = 8w0;
                            meta.replies_0_k15 = 8w0;
                            meta.wb_hit = 1w0;
                            if (meta.visible == 1w1) {
                                replies_0_wb.apply();
                            }
                            if (meta.wb_hit == 1w0) {
                                replies_0.apply();
                            }
                            meta.v49 = meta.v46 ^ 1w1;
                            if (meta.v49 == 1w0) {
                                meta.v50 = hdr.ipv4.saddr;
                                meta.v51 = ((meta.v50[7:0] ++ meta.v50[15:8]) ++ meta.v50[23:16]) ++ meta.v50[31:24];
                                meta.v52 = ((meta.v47[7:0] ++ meta.v47[15:8]) ++ meta.v47[23:16]) ++ meta.v47[31:24];
                                hdr.ipv4.saddr = meta.v52;
                                meta.v53 = hdr.ipv4.check;
                                meta.v54 = meta.v53[7:0] ++ meta.v53[15:8];
                                meta.v56 = meta.v54 ^ 16w0xffff;
                                meta.v57 = (bit<32>) meta.v56;
                                meta.v59 = meta.v51 & 32w0xffff;
                                meta.v61 = meta.v59 ^ 32w0xffff;
                                meta.v63 = meta.v51 ^ 32w0xffffffff;
                                meta.v65 = meta.v63 >> 32w16;
                                meta.v67 = meta.v47 & 32w0xffff;
                                meta.v69 = meta.v47 >> 32w16;
                                meta.v70 = meta.v67 + meta.v69;
                                meta.v71 = meta.v70 + meta.v65;
                                meta.v72 = meta.v71 + meta.v61;
                                meta.v73 = meta.v72 + meta.v57;
                                meta.v75 = meta.v73 & 32w0xffff;
                                meta.v77 = meta.v73 >> 32w16;
                                meta.v78 = meta.v75 + meta.v77;
                                meta.v80 = meta.v78 >> 32w16;
                                meta.v81 = meta.v80 + meta.v78;
                                meta.v82 = (bit<16>) meta.v81;
                                meta.v84 = meta.v82 ^ 16w0xffff;
                                meta.v85 = meta.v84[7:0] ++ meta.v84[15:8];
                                hdr.ipv4.check = meta.v85;
                                meta.v86 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                meta.v88 = meta.v86 ^ 1w1;
                                if (meta.v88 == 1w0) {
                                    meta.v89 = hdr.tcp.check;
                                    meta.v90 = meta.v89[7:0] ++ meta.v89[15:8];
                                    meta.v92 = meta.v90 ^ 16w0xffff;
                                    meta.v93 = (bit<32>) meta.v92;
                                    meta.v94 = meta.v72 + meta.v93;
                                    meta.v96 = meta.v94 & 32w0xffff;
                                    meta.v98 = meta.v94 >> 32w16;
                                    meta.v99 = meta.v96 + meta.v98;
                                    meta.v101 = meta.v99 >> 32w16;
                                    meta.v102 = meta.v101 + meta.v99;
                                    meta.v103 = (bit<16>) meta.v102;
                                    meta.v105 = meta.v103 ^ 16w0xffff;
                                    meta.v106 = meta.v105[7:0] ++ meta.v105[15:8];
                                    hdr.tcp.check = meta.v106;
                                }
                                meta.v107 = hdr.udp.isValid() ? 1w1 : 1w0;
                                meta.v109 = meta.v107 ^ 1w1;
                                if (meta.v109 == 1w0) {
                                    meta.v110 = hdr.udp.check;
                                    meta.v111 = meta.v110[7:0] ++ meta.v110[15:8];
                                    meta.v113 = (meta.v111 == 16w0) ? 1w1 : 1w0;
                                    if (meta.v113 == 1w1) {
                                        meta.v134 = 16w0;
                                    } else {
                                        meta.v116 = meta.v111 ^ 16w0xffff;
                                        meta.v117 = (bit<32>) meta.v116;
                                        meta.v118 = meta.v72 + meta.v117;
                                        meta.v120 = meta.v118 & 32w0xffff;
                                        meta.v122 = meta.v118 >> 32w16;
                                        meta.v123 = meta.v120 + meta.v122;
                                        meta.v125 = meta.v123 >> 32w16;
                                        meta.v126 = meta.v125 + meta.v123;
                                        meta.v127 = (bit<16>) meta.v126;
                                        meta.v129 = meta.v127 ^ 16w0xffff;
                                        meta.v131 = (meta.v127 == 16w0xffff) ? 1w1 : 1w0;
                                        meta.v133 = (meta.v131 == 1w1) ? 16w0xffff : meta.v129;
                                        meta.v134 = meta.v133;
                                    }
                                    meta.v135 = meta.v134[7:0] ++ meta.v134[15:8];
                                    hdr.udp.check = meta.v135;
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
                hdr.tandem.v143 = meta.v143;
                hdr.tandem.v149 = meta.v149;
                hdr.tandem.v170 = meta.v170;
                hdr.tandem.v191 = meta.v191;
                hdr.tandem.v200 = meta.v200;
                hdr.tandem.v207 = meta.v207;
                hdr.tandem.v306 = meta.v306;
                hdr.tandem.v186 = 32w0;
                hdr.tandem.pad = 2w0;
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
                        if (meta.v143 == 1w1) {
                            meta.fate = 17w0;
                        } else {
                            if (meta.v149 == 1w1) {
                                if (meta.v8 == 1w1) {
                                    if (meta.v191 == 1w1) {
                                        meta.v297 = meta.v186;
                                        if (meta.v5 == 1w1) {
                                            meta.v300 = meta.v297;
                                        } else {
                                            meta.v299 = meta.v297;
                                            if (meta.v306 == 1w1) {
                                                meta.v300 = meta.v299;
                                            } else {
                                                meta.v300 = meta.v299;
                                            }
                                        }
                                        meta.v307 = hdr.ipv4.daddr;
                                        meta.v308 = ((meta.v307[7:0] ++ meta.v307[15:8]) ++ meta.v307[23:16]) ++ meta.v307[31:24];
                                        meta.v309 = ((meta.v300[7:0] ++ meta.v300[15:8]) ++ meta.v300[23:16]) ++ meta.v300[31:24];
                                        hdr.ipv4.daddr = meta.v309;
                                        meta.v310 = hdr.ipv4.check;
                                        meta.v311 = meta.v310[7:0] ++ meta.v310[15:8];
                                        meta.v313 = meta.v311 ^ 16w0xffff;
                                        meta.v314 = (bit<32>) meta.v313;
                                        meta.v316 = meta.v308 & 32w0xffff;
                                        meta.v318 = meta.v316 ^ 32w0xffff;
                                        meta.v320 = meta.v308 ^ 32w0xffffffff;
                                        meta.v322 = meta.v320 >> 32w16;
                                        meta.v324 = meta.v300 & 32w0xffff;
                                        meta.v326 = meta.v300 >> 32w16;
                                        meta.v327 = meta.v324 + meta.v326;
                                        meta.v328 = meta.v327 + meta.v322;
                                        meta.v329 = meta.v328 + meta.v318;
                                        meta.v330 = meta.v329 + meta.v314;
                                        meta.v332 = meta.v330 & 32w0xffff;
                                        meta.v334 = meta.v330 >> 32w16;
                                        meta.v335 = meta.v332 + meta.v334;
                                        meta.v337 = meta.v335 >> 32w16;
                                        meta.v338 = meta.v337 + meta.v335;
                                        meta.v339 = (bit<16>) meta.v338;
                                        meta.v341 = meta.v339 ^ 16w0xffff;
                                        meta.v342 = meta.v341[7:0] ++ meta.v341[15:8];
                                        hdr.ipv4.check = meta.v342;
                                        meta.v343 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                        meta.v345 = meta.v343 ^ 1w1;
                                        if (meta.v345 == 1w0) {
                                            meta.v346 = hdr.tcp.check;
                                            meta.v347 = meta.v346[7:0] ++ meta.v346[15:8];
                                            meta.v349 = meta.v347 ^ 16w0xffff;
                                            meta.v350 = (bit<32>) meta.v349;
                                            meta.v351 = meta.v329 + meta.v350;
                                            meta.v353 = meta.v351 & 32w0xffff;
                                            meta.v355 = meta.v351 >> 32w16;
                                            meta.v356 = meta.v353 + meta.v355;
                                            meta.v358 = meta.v356 >> 32w16;
                                            meta.v359 = meta.v358 + meta.v356;
                                            meta.v360 = (bit<16>) meta.v359;
                                            meta.v362 = meta.v360 ^ 16w0xffff;
                                            meta.v363 = meta.v362[7:0] ++ meta.v362[15:8];
                                            hdr.tcp.check = meta.v363;
                                        }
                                        meta.v364 = hdr.udp.isValid() ? 1w1 : 1w0;
                                        meta.v366 = meta.v364 ^ 1w1;
                                        if (meta.v366 == 1w0) {
                                            meta.v367 = hdr.udp.check;
                                            meta.v368 = meta.v367[7:0] ++ meta.v367[15:8];
                                            meta.v370 = (meta.v368 == 16w0) ? 1w1 : 1w0;
                                            if (meta.v370 == 1w1) {
                                                meta.v301 = 16w0;
                                            } else {
                                                meta.v373 = meta.v368 ^ 16w0xffff;
                                                meta.v374 = (bit<32>) meta.v373;
                                                meta.v375 = meta.v329 + meta.v374;
                                                meta.v377 = meta.v375 & 32w0xffff;
                                                meta.v379 = meta.v375 >> 32w16;
                                                meta.v380 = meta.v377 + meta.v379;
                                                meta.v382 = meta.v380 >> 32w16;
                                                meta.v383 = meta.v382 + meta.v380;
                                                meta.v384 = (bit<16>) meta.v383;
                                                meta.v386 = meta.v384 ^ 16w0xffff;
                                                meta.v388 = (meta.v384 == 16w0xffff) ? 1w1 : 1w0;
                                                meta.v390 = (meta.v388 == 1w1) ? 16w0xffff : meta.v386;
                                                meta.v301 = meta.v390;
                                            }
                                            meta.v391 = meta.v301[7:0] ++ meta.v301[15:8];
                                            hdr.udp.check = meta.v391;
                                        }
                                        backend_port.read(meta.v392, 32w0);
                                        meta.v393 = (bit<16>) meta.v392;
                                        meta.fate = 1w1 ++ meta.v393;
                                    } else {
                                        meta.v203 = meta.v186;
                                        if (meta.v207 == 1w1) {
                                            meta.v394 = meta.v203;
                                        } else {
                                            meta.v394 = meta.v203;
                                        }
                                        meta.v396 = hdr.ipv4.daddr;
                                        meta.v397 = ((meta.v396[7:0] ++ meta.v396[15:8]) ++ meta.v396[23:16]) ++ meta.v396[31:24];
                                        meta.v398 = ((meta.v394[7:0] ++ meta.v394[15:8]) ++ meta.v394[23:16]) ++ meta.v394[31:24];
                                        hdr.ipv4.daddr = meta.v398;
                                        meta.v399 = hdr.ipv4.check;
                                        meta.v400 = meta.v399[7:0] ++ meta.v399[15:8];
                                        meta.v402 = meta.v400 ^ 16w0xffff;
                                        meta.v403 = (bit<32>) meta.v402;
                                        meta.v405 = meta.v397 & 32w0xffff;
                                        meta.v407 = meta.v405 ^ 32w0xffff;
                                        meta.v409 = meta.v397 ^ 32w0xffffffff;
                                        meta.v411 = meta.v409 >> 32w16;
                                        meta.v413 = meta.v394 & 32w0xffff;
                                        meta.v415 = meta.v394 >> 32w16;
                                        meta.v416 = meta.v413 + meta.v415;
                                        meta.v417 = meta.v416 + meta.v411;
                                        meta.v418 = meta.v417 + meta.v407;
                                        meta.v419 = meta.v418 + meta.v403;
                                        meta.v421 = meta.v419 & 32w0xffff;
                                        meta.v423 = meta.v419 >> 32w16;
                                        meta.v424 = meta.v421 + meta.v423;
                                        meta.v426 = meta.v424 >> 32w16;
                                        meta.v427 = meta.v426 + meta.v424;
                                        meta.v428 = (bit<16>) meta.v427;
                                        meta.v430 = meta.v428 ^ 16w0xffff;
                                        meta.v431 = meta.v430[7:0] ++ meta.v430[15:8];
                                        hdr.ipv4.check = meta.v431;
                                        meta.v432 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                        meta.v434 = meta.v432 ^ 1w1;
                                        if (meta.v434 == 1w0) {
                                            meta.v435 = hdr.tcp.check;
                                            meta.v436 = meta.v435[7:0] ++ meta.v435[15:8];
                                            meta.v438 = meta.v436 ^ 16w0xffff;
                                            meta.v439 = (bit<32>) meta.v438;
                                            meta.v440 = meta.v418 + meta.v439;
                                            meta.v442 = meta.v440 & 32w0xffff;
                                            meta.v444 = meta.v440 >> 32w16;
                                            meta.v445 = meta.v442 + meta.v444;
                                            meta.v447 = meta.v445 >> 32w16;
                                            meta.v448 = meta.v447 + meta.v445;
                                            meta.v449 = (bit<16>) meta.v448;
                                            meta.v451 = meta.v449 ^ 16w0xffff;
                                            meta.v452 = meta.v451[7:0] ++ meta.v451[15:8];
                                            hdr.tcp.check = meta.v452;
                                        }
                                        meta.v453 = hdr.udp.isValid() ? 1w1 : 1w0;
                                        meta.v455 = meta.v453 ^ 1w1;
                                        if (meta.v455 == 1w0) {
                                            meta.v456 = hdr.udp.check;
                                            meta.v457 = meta.v456[7:0] ++ meta.v456[15:8];
                                            meta.v459 = (meta.v457 == 16w0) ? 1w1 : 1w0;
                                            if (meta.v459 == 1w1) {
                                                meta.v395 = 16w0;
                                            } else {
                                                meta.v462 = meta.v457 ^ 16w0xffff;
                                                meta.v463 = (bit<32>) meta.v462;
                                                meta.v464 = meta.v418 + meta.v463;
                                                meta.v466 = meta.v464 & 32w0xffff;
                                                meta.v468 = meta.v464 >> 32w16;
                                                meta.v469 = meta.v466 + meta.v468;
                                                meta.v471 = meta.v469 >> 32w16;
                                                meta.v472 = meta.v471 + meta.v469;
                                                meta.v473 = (bit<16>) meta.v472;
                                                meta.v475 = meta.v473 ^ 16w0xffff;
                                                meta.v477 = (meta.v473 == 16w0xffff) ? 1w1 : 1w0;
                                                meta.v479 = (meta.v477 == 1w1) ? 16w0xffff : meta.v475;
                                                meta.v395 = meta.v479;
                                            }
                                            meta.v480 = meta.v395[7:0] ++ meta.v395[15:8];
                                            hdr.udp.check = meta.v480;
                                        }
                                        backend_port.read(meta.v481, 32w0);
                                        meta.v482 = (bit<16>) meta.v481;
                                        meta.fate = 1w1 ++ meta.v482;
                                    }
                                } else {
                                    meta.v297 = meta.v186;
                                    if (meta.v5 == 1w1) {
                                        meta.v300 = meta.v297;
                                    } else {
                                        meta.v299 = meta.v297;
                                        if (meta.v306 == 1w1) {
                                            meta.v300 = meta.v299;
                                        } else {
                                            meta.v300 = meta.v299;
                                        }
                                    }
                                    meta.v307 = hdr.ipv4.daddr;
                                    meta.v308 = ((meta.v307[7:0] ++ meta.v307[15:8]) ++ meta.v307[23:16]) ++ meta.v307[31:24];
                                    meta.v309 = ((meta.v300[7:0] ++ meta.v300[15:8]) ++ meta.v300[23:16]) ++ meta.v300[31:24];
                                    hdr.ipv4.daddr = meta.v309;
                                    meta.v310 = hdr.ipv4.check;
                                    meta.v311 = meta.v310[7:0] ++ meta.v310[15:8];
                                    meta.v313 = meta.v311 ^ 16w0xffff;
                                    meta.v314 = (bit<32>) meta.v313;
                                    meta.v316 = meta.v308 & 32w0xffff;
                                    meta.v318 = meta.v316 ^ 32w0xffff;
                                    meta.v320 = meta.v308 ^ 32w0xffffffff;
                                    meta.v322 = meta.v320 >> 32w16;
                                    meta.v324 = meta.v300 & 32w0xffff;
                                    meta.v326 = meta.v300 >> 32w16;
                                    meta.v327 = meta.v324 + meta.v326;
                                    meta.v328 = meta.v327 + meta.v322;
                                    meta.v329 = meta.v328 + meta.v318;
                                    meta.v330 = meta.v329 + meta.v314;
                                    meta.v332 = meta.v330 & 32w0xffff;
                                    meta.v334 = meta.v330 >> 32w16;
                                    meta.v335 = meta.v332 + meta.v334;
                                    meta.v337 = meta.v335 >> 32w16;
                                    meta.v338 = meta.v337 + meta.v335;
                                    meta.v339 = (bit<16>) meta.v338;
                                    meta.v341 = meta.v339 ^ 16w0xffff;
                                    meta.v342 = meta.v341[7:0] ++ meta.v341[15:8];
                                    hdr.ipv4.check = meta.v342;
                                    meta.v343 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                    meta.v345 = meta.v343 ^ 1w1;
                                    if (meta.v345 == 1w0) {
                                        meta.v346 = hdr.tcp.check;
                                        meta.v347 = meta.v346[7:0] ++ meta.v346[15:8];
                                        meta.v349 = meta.v347 ^ 16w0xffff;
                                        meta.v350 = (bit<32>) meta.v349;
                                        meta.v351 = meta.v329 + meta.v350;
                                        meta.v353 = meta.v351 & 32w0xffff;
                                        meta.v355 = meta.v351 >> 32w16;
                                        meta.v356 = meta.v353 + meta.v355;
                                        meta.v358 = meta.v356 >> 32w16;
                                        meta.v359 = meta.v358 + meta.v356;
                                        meta.v360 = (bit<16>) meta.v359;
                                        meta.v362 = meta.v360 ^ 16w0xffff;
                                        meta.v363 = meta.v362[7:0] ++ meta.v362[15:8];
                                        hdr.tcp.check = meta.v363;
                                    }
                                    meta.v364 = hdr.udp.isValid() ? 1w1 : 1w0;
                                    meta.v366 = meta.v364 ^ 1w1;
                                    if (meta.v366 == 1w0) {
                                        meta.v367 = hdr.udp.check;
                                        meta.v368 = meta.v367[7:0] ++ meta.v367[15:8];
                                        meta.v370 = (meta.v368 == 16w0) ? 1w1 : 1w0;
                                        if (meta.v370 == 1w1) {
                                            meta.v301 = 16w0;
                                        } else {
                                            meta.v373 = meta.v368 ^ 16w0xffff;
                                            meta.v374 = (bit<32>) meta.v373;
                                            meta.v375 = meta.v329 + meta.v374;
                                            meta.v377 = meta.v375 & 32w0xffff;
                                            meta.v379 = meta.v375 >> 32w16;
                                            meta.v380 = meta.v377 + meta.v379;
                                            meta.v382 = meta.v380 >> 32w16;
                                            meta.v383 = meta.v382 + meta.v380;
                                            meta.v384 = (bit<16>) meta.v383;
                                            meta.v386 = meta.v384 ^ 16w0xffff;
                                            meta.v388 = (meta.v384 == 16w0xffff) ? 1w1 : 1w0;
                                            meta.v390 = (meta.v388 == 1w1) ? 16w0xffff : meta.v386;
                                            meta.v301 = meta.v390;
                                        }
                                        meta.v391 = meta.v301[7:0] ++ meta.v301[15:8];
                                        hdr.udp.check = meta.v391;
                                    }
                                    backend_port.read(meta.v392, 32w0);
                                    meta.v393 = (bit<16>) meta.v392;
                                    meta.fate = 1w1 ++ meta.v393;
                                }
                            } else {
                                if (meta.v5 == 1w1) {
                                    backend_port.read(meta.v295, 32w0);
                                    meta.v296 = (bit<16>) meta.v295;
                                    meta.fate = 1w1 ++ meta.v296;
                                } else {
                                    meta.v203 = meta.v200;
                                    if (meta.v207 == 1w1) {
                                        meta.v394 = meta.v203;
                                    } else {
                                        meta.v394 = meta.v203;
                                    }
                                    meta.v396 = hdr.ipv4.daddr;
                                    meta.v397 = ((meta.v396[7:0] ++ meta.v396[15:8]) ++ meta.v396[23:16]) ++ meta.v396[31:24];
                                    meta.v398 = ((meta.v394[7:0] ++ meta.v394[15:8]) ++ meta.v394[23:16]) ++ meta.v394[31:24];
                                    hdr.ipv4.daddr = meta.v398;
                                    meta.v399 = hdr.ipv4.check;
                                    meta.v400 = meta.v399[7:0] ++ meta.v399[15:8];
                                    meta.v402 = meta.v400 ^ 16w0xffff;
                                    meta.v403 = (bit<32>) meta.v402;
                                    meta.v405 = meta.v397 & 32w0xffff;
                                    meta.v407 = meta.v405 ^ 32w0xffff;
                                    meta.v409 = meta.v397 ^ 32w0xffffffff;
                                    meta.v411 = meta.v409 >> 32w16;
                                    meta.v413 = meta.v394 & 32w0xffff;
                                    meta.v415 = meta.v394 >> 32w16;
                                    meta.v416 = meta.v413 + meta.v415;
                                    meta.v417 = meta.v416 + meta.v411;
                                    meta.v418 = meta.v417 + meta.v407;
                                    meta.v419 = meta.v418 + meta.v403;
                                    meta.v421 = meta.v419 & 32w0xffff;
                                    meta.v423 = meta.v419 >> 32w16;
                                    meta.v424 = meta.v421 + meta.v423;
                                    meta.v426 = meta.v424 >> 32w16;
                                    meta.v427 = meta.v426 + meta.v424;
                                    meta.v428 = (bit<16>) meta.v427;
                                    meta.v430 = meta.v428 ^ 16w0xffff;
                                    meta.v431 = meta.v430[7:0] ++ meta.v430[15:8];
                                    hdr.ipv4.check = meta.v431;
                                    meta.v432 = hdr.tcp.isValid() ? 1w1 : 1w0;
                                    meta.v434 = meta.v432 ^ 1w1;
                                    if (meta.v434 == 1w0) {
                                        meta.v435 = hdr.tcp.check;
                                        meta.v436 = meta.v435[7:0] ++ meta.v435[15:8];
                                        meta.v438 = meta.v436 ^ 16w0xffff;
                                        meta.v439 = (bit<32>) meta.v438;
                                        meta.v440 = meta.v418 + meta.v439;
                                        meta.v442 = meta.v440 & 32w0xffff;
                                        meta.v444 = meta.v440 >> 32w16;
                                        meta.v445 = meta.v442 + meta.v444;
                                        meta.v447 = meta.v445 >> 32w16;
                                        meta.v448 = meta.v447 + meta.v445;
                                        meta.v449 = (bit<16>) meta.v448;
                                        meta.v451 = meta.v449 ^ 16w0xffff;
                                        meta.v452 = meta.v451[7:0] ++ meta.v451[15:8];
                                        hdr.tcp.check = meta.v452;
                                    }
                                    meta.v453 = hdr.udp.isValid() ? 1w1 : 1w0;
                                    meta.v455 = meta.v453 ^ 1w1;
                                    if (meta.v455 == 1w0) {
                                        meta.v456 = hdr.udp.check;
                                        meta.v457 = meta.v456[7:0] ++ meta.v456[15:8];
                                        meta.v459 = (meta.v457 == 16w0) ? 1w1 : 1w0;
                                        if (meta.v459 == 1w1) {
                                            meta.v395 = 16w0;
                                        } else {
                                            meta.v462 = meta.v457 ^ 16w0xffff;
                                            meta.v463 = (bit<32>) meta.v462;
                                            meta.v464 = meta.v418 + meta.v463;
                                            meta.v466 = meta.v464 & 32w0xffff;
                                            meta.v468 = meta.v464 >> 32w16;
                                            meta.v469 = meta.v466 + meta.v468;
                                            meta.v471 = meta.v469 >> 32w16;
                                            meta.v472 = meta.v471 + meta.v469;
                                            meta.v473 = (bit<16>) meta.v472;
                                            meta.v475 = meta.v473 ^ 16w0xffff;
                                            meta.v477 = (meta.v473 == 16w0xffff) ? 1w1 : 1w0;
                                            meta.v479 = (meta.v477 == 1w1) ? 16w0xffff : meta.v475;
                                            meta.v395 = meta.v479;
                                        }
                                        meta.v480 = meta.v395[7:0] ++ meta.v395[15:8];
                                        hdr.udp.check = meta.v480;
                                    }
                                    backend_port.read(meta.v481, 32w0);
                                    meta.v482 = (bit<16>) meta.v481;
                                    meta.fate = 1w1 ++ meta.v482;
                                }
                            }
                        }
                    } else {
                        if (meta.v45 == 1w1) {
                            if (meta.v49 == 1w1) {
                                meta.fate = 17w0;
                            } else {
                                client_port.read(meta.v136, 32w0);
                                meta.v137 = (bit<16>) meta.v136;
                                meta.fate = 1w1 ++ meta.v137;
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
