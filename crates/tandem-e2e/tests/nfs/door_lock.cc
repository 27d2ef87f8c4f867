// Issue 18, derived state classes on an NF that is not a connection tracker: a door lock per
// client address. Packets carrying SYN, FIN or RST are "control" and set the client's mode
// from the flags (1 LOCKED, 2 OPEN, 3 HELD_OPEN, 4 ALARM; `tries` counts control packets up
// to 2); every other packet is a "use" and is forwarded (OPEN, HELD_OPEN: port 1; ALARM after
// 2 tries: port 0, the guard) or dropped (no entry, LOCKED, ALARM below 2 tries). The
// compiler should find 3 classes (dropped / port 1 / port 0) and keep uses on the switch.
#include <tandem/nf.hh>
using namespace tandem;

struct Lock {
  uint8_t mode;
  uint8_t tries;
  uint16_t pad;
};

struct DoorLock : Element {
  HashMap<uint32_t, Lock, 16384> locks;

  void process(Packet& pkt) {
    Ipv4Hdr* ip = pkt.ip();
    TcpHdr* tcp = pkt.tcp();
    if (ip == nullptr) return pkt.drop();
    uint8_t flags = tcp ? tcp->flags : 0;
    if (flags & (kTcpSyn | kTcpFin | kTcpRst)) {
      Lock l{uint8_t((flags & 3) + 1), 1, 0};
      if (const Lock* old = locks.find(ip->saddr)) l.tries = old->tries < 2 ? old->tries + 1 : 2;
      locks.insert(ip->saddr, l);
      return pkt.send(1);
    }
    const Lock* l = locks.find(ip->saddr);
    if (l == nullptr) return pkt.drop();
    switch (l->mode) {
      case 2:
      case 3:
        return pkt.send(1);
      case 4:
        if (l->tries == 2) return pkt.send(0);
        return pkt.drop();
      default:
        return pkt.drop();
    }
  }
};
TANDEM_NF(DoorLock, locks)
