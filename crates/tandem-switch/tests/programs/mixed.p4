// A mixed-kind table (ternary + exact + lpm) for the classifier differential test:
// the action writes its argument to the DSCP/ECN byte.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
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
    bit<32> srcAddr;
    bit<32> dstAddr;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t ipv4;
}

struct meta_t {
    bit<8> a;
    bit<8> b;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set_a(bit<8> v) { meta.a = v; }
    action set_b(bit<8> v) { meta.b = v; }
    table t {
        key = {
            hdr.ipv4.srcAddr: ternary;
            hdr.ipv4.protocol: exact;
            hdr.ipv4.dstAddr: lpm;
        }
        actions = { set_b; NoAction; }
        default_action = set_b(0);
        size = 100000;
    }
    apply {
        t.apply();
        hdr.ipv4.diffserv = meta.b;
        sm.egress_spec = 1;
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control CC(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
