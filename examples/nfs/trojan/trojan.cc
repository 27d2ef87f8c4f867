// Trojan detector — the Trojan detector of the Gallium paper (SIGCOMM'20, §6.1).
//
// Port 0 faces the internal end hosts, port 1 the Internet; packets cross (0 -> 1, 1 -> 0)
// unchanged. For every internal host the detector follows a sequence of three events, in
// this order (an event out of order is ignored):
//   1. SSH: the host has an SSH connection — an SSH server (TCP source port 22) answers the
//      host's SYN with a SYN-ACK.
//   2. Download: the host requests an .html/.htm, .zip or .exe file — an HTTP request
//      (`GET <path>` to TCP port 80 or 8080; the path's query string is ignored) or an FTP
//      `RETR <file>` (to TCP port 21). This needs payload inspection.
//   3. IRC: the host sends IRC traffic — a TCP packet to port 6667, or a payload starting
//      with `NICK ` or `JOIN ` to any TCP port.
// After the third event the host is flagged as infected. Every later packet from or to a
// flagged host (including the one that completed the sequence) is dropped, or — with
// `action = "quarantine"` — sent to `quarantine_port` instead, unchanged.
//
// State: `hosts`, a HashMap from the internal host address to its stage (0-3), capacity
// 65536 hosts; only hosts that reached stage 1 have an entry. Entries never expire.
//
// Offload: the per-packet work on the common path is a host lookup and port comparisons;
// SYN-ACKs from port 22 (stage changes) and, for hosts at stage 1, requests to ports
// 80/8080/21 (payload inspection) need the server.
#include <tandem/nf.hh>

using namespace tandem;

struct HostState {
  uint8_t stage;  // 1 SSH seen, 2 download seen, 3 flagged
  uint8_t pad[3];
};

enum : uint8_t { kSsh = 1, kDownload = 2, kFlagged = 3 };

struct Trojan : Element {
  HashMap<uint32_t, HostState, 65536> hosts;  // internal host (network order) -> stage
  uint32_t quarantine = 0;                    // 1: send flagged hosts' packets to q_port
  uint32_t q_port = 2;

  void configure(Config& cfg) {
    std::string a = cfg.get_string_or("action", "drop");
    if (a == "drop") quarantine = 0;
    else if (a == "quarantine") quarantine = 1;
    else cfg.fail("action", "expected \"drop\" or \"quarantine\", found \"" + a + "\"");
    q_port = cfg.get_u32_or("quarantine_port", 2);
    if (q_port <= 1) cfg.fail("quarantine_port", "must not be 0 or 1 (the data ports)");
  }

  static char lower(uint8_t c) { return (c >= 'A' && c <= 'Z') ? char(c + 32) : char(c); }

  static bool starts_with(const uint8_t* p, uint32_t n, const char* s, uint32_t k) {
    if (n < k) return false;
    for (uint32_t i = 0; i < k; ++i)
      if (p[i] != uint8_t(s[i])) return false;
    return true;
  }

  // Does the name in p[0..n) end with .html, .htm, .zip or .exe (case-insensitive)?
  // (A table of fixed-size strings, not of pointers: the compiler traces every load, and a
  // pointer read from a table would hide what it points to.)
  static bool wanted_file(const uint8_t* p, uint32_t n) {
    static constexpr char exts[4][6] = {".html", ".htm", ".zip", ".exe"};
    static constexpr uint32_t lens[4] = {5, 4, 4, 4};
    for (uint32_t x = 0; x < 4; ++x) {
      uint32_t k = lens[x];
      if (n < k) continue;
      bool eq = true;
      for (uint32_t i = 0; i < k && eq; ++i) eq = lower(p[n - k + i]) == exts[x][i];
      if (eq) return true;
    }
    return false;
  }

  // The length of the token starting at p: up to a space, '?', '#', CR, LF or the end.
  static uint32_t token_len(const uint8_t* p, uint32_t n, bool stop_at_query) {
    uint32_t i = 0;
    while (i < n && p[i] != ' ' && p[i] != '\r' && p[i] != '\n' &&
           !(stop_at_query && (p[i] == '?' || p[i] == '#')))
      ++i;
    return i;
  }

  // Is this packet's payload a request for a wanted file (HTTP GET or FTP RETR)?
  static bool is_download(Packet& pkt, uint16_t dport) {
    const uint8_t* p = pkt.payload();
    uint32_t n = pkt.payload_len();
    if (n > 4096) n = 4096;
    if ((dport == 80 || dport == 8080) && starts_with(p, n, "GET ", 4))
      return wanted_file(p + 4, token_len(p + 4, n - 4, true));
    if (dport == 21 && starts_with(p, n, "RETR ", 5))
      return wanted_file(p + 5, token_len(p + 5, n - 5, false));
    return false;
  }

  static bool is_irc(Packet& pkt, uint16_t dport) {
    if (dport == 6667) return true;
    const uint8_t* p = pkt.payload();
    uint32_t n = pkt.payload_len();
    return starts_with(p, n, "NICK ", 5) || starts_with(p, n, "JOIN ", 5);
  }

  void flagged(Packet& pkt) {
    if (quarantine) return pkt.send(q_port);
    pkt.drop();
  }

  void process(Packet& pkt) {
    uint32_t in = pkt.in_port();
    if (in > 1) return pkt.drop();
    uint32_t out = 1 - in;
    Ipv4Hdr* ip = pkt.ip();
    if (ip == nullptr) return pkt.send(out);
    uint32_t host = in == 0 ? ip->saddr : ip->daddr;
    HostState st{0, {0, 0, 0}};
    hosts.lookup(host, st);
    if (st.stage == kFlagged) return flagged(pkt);
    TcpHdr* tcp = pkt.tcp();
    if (tcp == nullptr) return pkt.send(out);
    uint16_t sport = ntohs(tcp->sport), dport = ntohs(tcp->dport);

    if (in == 1) {
      // Stage 1: an SSH server accepts the host's connection.
      if (st.stage == 0 && sport == 22 && (tcp->flags & (kTcpSyn | kTcpAck)) == (kTcpSyn | kTcpAck))
        hosts.insert(host, HostState{kSsh, {0, 0, 0}});
      return pkt.send(out);
    }
    if (st.stage == kSsh && pkt.payload_len() > 0 && is_download(pkt, dport)) {
      hosts.insert(host, HostState{kDownload, {0, 0, 0}});
    } else if (st.stage == kDownload && is_irc(pkt, dport)) {
      hosts.insert(host, HostState{kFlagged, {0, 0, 0}});
      return flagged(pkt);
    }
    pkt.send(out);
  }
};

TANDEM_NF(Trojan, hosts, quarantine, q_port)
