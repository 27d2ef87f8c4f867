// Exercises the supported v1model subset: typedef/const/enum, select with masks,
// ranges, tuples and don't-cares; ternary/range/optional/exact tables, const
// entries, switch on action_run, hit/miss, exit, registers, counters, hashes,
// verify/update checksum, slices (read and write), ++, casts, signed compares,
// saturating arithmetic, ?:, setValid/setInvalid, emit of a whole struct, and a
// drop in egress.
#include <core.p4>
#include <v1model.p4>

typedef bit<32> ip4_t;
const bit<16> ETH_IPV4 = 0x0800;
const bit<16> ETH_TAG = 0x88B5;
enum bit<8> Color { RED = 1, GREEN = 2, BLUE = 3 }

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header tag_t {
    bit<8> kind;
    bit<8> color;
    bit<16> hash16;
    bit<32> hash32;
    bit<16> concat;
    bit<16> misc;
    bit<16> etherType;
}

header ipv4_t {
    bit<4> version;
    bit<4> ihl;
    bit<8> diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3> flags;
    bit<13> fragOffset;
    bit<8> ttl;
    bit<8> protocol;
    bit<16> hdrChecksum;
    ip4_t srcAddr;
    ip4_t dstAddr;
}

header udp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<16> len;
    bit<16> csum;
}

struct headers_t {
    ethernet_t ethernet;
    tag_t tag;
    ipv4_t ipv4;
    udp_t udp;
}

struct meta_t {
    bit<8> color;
    bit<1> denied;
}

parser FParser(packet_in packet, out headers_t hdr, inout meta_t meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETH_IPV4: parse_ipv4;
            0x8800 &&& 0xff00: parse_tag;
            default: accept;
        }
    }
    state parse_tag {
        packet.extract(hdr.tag);
        transition accept;
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol, hdr.ipv4.ttl) {
            (17, 0 .. 1): accept;
            (17, _): parse_udp;
            default: accept;
        }
    }
    state parse_udp {
        packet.extract(hdr.udp);
        transition accept;
    }
}

control FVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control FIngress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t standard_metadata) {
    register<bit<32>>(8) pkt_count;
    counter(8, CounterType.packets_and_bytes) port_ctr;
    bit<32> tmp;

    action drop() {
        mark_to_drop(standard_metadata);
    }
    action set_port(bit<9> p) {
        standard_metadata.egress_spec = p;
    }
    action set_color(bit<8> c) {
        meta.color = c;
    }
    action deny() {
        meta.denied = 1;
    }
    action allow() { }

    table acl {
        key = {
            hdr.ipv4.srcAddr: ternary;
            hdr.udp.dstPort: range;
            hdr.ipv4.protocol: optional;
        }
        actions = { deny; allow; }
        default_action = allow();
    }
    table color {
        key = { hdr.ipv4.diffserv: exact; }
        actions = { set_color; NoAction; }
        const entries = {
            0x10: set_color(Color.RED);
            0x20: set_color(Color.GREEN);
        }
        default_action = NoAction();
    }
    table fwd {
        key = { hdr.ipv4.dstAddr: exact; }
        actions = { set_port; drop; }
        default_action = drop();
    }

    apply {
        if (hdr.tag.isValid()) {
            set_port(5);
            exit;
        }
        if (!hdr.ipv4.isValid() || standard_metadata.checksum_error == 1) {
            drop();
            exit;
        }
        port_ctr.count((bit<32>) standard_metadata.ingress_port);
        pkt_count.read(tmp, (bit<32>) standard_metadata.ingress_port);
        tmp = tmp + 1;
        pkt_count.write((bit<32>) standard_metadata.ingress_port, tmp);
        switch (acl.apply().action_run) {
            deny: {
                drop();
                exit;
            }
            allow: { }
        }
        color.apply();
        if (!fwd.apply().hit) {
            exit;
        }
        hdr.tag.setValid();
        hdr.tag.kind = meta.color;
        int<8> s = (int<8>) hdr.ipv4.diffserv;
        if (s < 0) {
            hdr.tag.kind = hdr.tag.kind | 0x80;
        }
        hdr.tag.color = meta.color == Color.RED ? 8w0xff : ~meta.color;
        hash(hdr.tag.hash16, HashAlgorithm.crc16, 16w0,
             { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, hdr.ipv4.protocol }, 32w65536);
        hash(hdr.tag.hash32, HashAlgorithm.crc32, 32w0, { hdr.ipv4.srcAddr }, 32w0xffffffff);
        hdr.tag.concat = hdr.ipv4.srcAddr[7:0] ++ hdr.ipv4.dstAddr[7:0];
        hdr.tag.misc = (bit<16>) hdr.ipv4.protocol * 3 + (bit<16>) (hdr.ipv4.ttl |+| 250);
        hdr.tag.etherType = hdr.ethernet.etherType;
        hdr.ethernet.etherType = ETH_TAG;
        hdr.ipv4.ttl = hdr.ipv4.ttl |-| 3;
        hdr.ipv4.identification = (hdr.ipv4.identification << 4) | (hdr.ipv4.identification >> 12);
        hdr.ipv4.identification[3:0] = 4w0xA;
        if (hdr.udp.isValid() && hdr.udp.srcPort == 7) {
            hdr.udp.setInvalid();
        }
    }
}

control FEgress(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.egress_port == 9) {
            mark_to_drop(standard_metadata);
        }
    }
}

control FCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control FDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr);
    }
}

V1Switch(FParser(), FVerify(), FIngress(), FEgress(), FCompute(), FDeparser()) main;
