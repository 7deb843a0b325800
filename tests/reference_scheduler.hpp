#pragma once
// A sequential reference for the engine (test code): it replays a kernel's transfers in model-time order with no
// threads at all, implementing docs/model.md's rules on its own plain data structures, so that the emulator's results
// under any engine, worker count or thread interleaving can be compared with it exactly.
//
// A kernel is given as a program: per node, a list of operations on numbered requests. program_kernel() runs it on
// the emulator through the node API; reference_run() replays it here. Each node runs until it must wait; when no
// node can go on, the pending transfer with the smallest key (ready time, source, issue order; docs/model.md §7)
// takes the earliest start at which its links are free of every transfer placed before it.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::test {

struct Op {
  enum class Kind { isend, post_recv, wait, wait_all, elapse, barrier };
  Kind kind = Kind::elapse;
  int peer = -1;
  std::size_t bytes = 0;
  int tag = 0;
  int request = -1;           // isend, post_recv: the request it makes; wait: the one it waits for
  std::vector<int> requests;  // wait_all
  Time time = 0;              // elapse

  static Op isend(int request, int dest, std::size_t bytes, int tag = 0) {
    return {Kind::isend, dest, bytes, tag, request, {}, 0};
  }
  static Op post_recv(int request, int source, std::size_t bytes, int tag = 0) {
    return {Kind::post_recv, source, bytes, tag, request, {}, 0};
  }
  static Op wait(int request) { return {Kind::wait, -1, 0, 0, request, {}, 0}; }
  static Op wait_all(std::vector<int> requests) { return {Kind::wait_all, -1, 0, 0, -1, std::move(requests), 0}; }
  static Op elapse(Time t) { return {Kind::elapse, -1, 0, 0, -1, {}, t}; }
  static Op barrier() { return {Kind::barrier, -1, 0, 0, -1, {}, 0}; }
};
using Program = std::vector<std::vector<Op>>;  // one list per node

inline Kernel program_kernel(const Program& program) {
  return [&program](Node& node) {
    const auto& ops = program[static_cast<std::size_t>(node.id())];
    std::vector<Request> requests;
    std::vector<std::vector<std::byte>> buffers;
    const auto slot = [&](int r) -> Request& {
      if (static_cast<std::size_t>(r) >= requests.size()) {
        requests.resize(static_cast<std::size_t>(r) + 1);
        buffers.resize(static_cast<std::size_t>(r) + 1);
      }
      return requests[static_cast<std::size_t>(r)];
    };
    for (const Op& op : ops) {
      switch (op.kind) {
        case Op::Kind::isend: {
          std::vector<std::byte> data(op.bytes, std::byte{static_cast<unsigned char>(node.id())});
          slot(op.request) = node.isend(op.peer, data, op.tag);
          break;
        }
        case Op::Kind::post_recv: {
          Request& r = slot(op.request);
          buffers[static_cast<std::size_t>(op.request)].assign(op.bytes, std::byte{0});
          r = node.post_recv(op.peer, buffers[static_cast<std::size_t>(op.request)], op.tag);
          break;
        }
        case Op::Kind::wait: node.wait(slot(op.request)); break;
        case Op::Kind::wait_all: {
          std::vector<Request> all;
          for (int r : op.requests) all.push_back(slot(r));
          node.wait_all(all);
          break;
        }
        case Op::Kind::elapse:
          node.elapse(op.time);
          break;
        case Op::Kind::barrier: node.barrier(); break;
      }
    }
  };
}

struct ReferenceResult {
  std::vector<Time> clocks;
  std::map<std::pair<int, int>, std::pair<std::uint64_t, Time>> contention;  // (from, dim) -> (events, delay)
  std::size_t discards = 0;
  bool deadlock = false;
};

// The emulator's contention, keyed as the reference keys it.
inline std::map<std::pair<int, int>, std::pair<std::uint64_t, Time>> contention_of(const RunReport& report) {
  std::map<std::pair<int, int>, std::pair<std::uint64_t, Time>> out;
  for (const auto& l : report.links)
    if (l.contention_events > 0) out[{l.from, l.dim}] = {l.contention_events, l.contention_delay};
  return out;
}

// The links' bookings, each link's searched from the front for every move: docs/model.md §7 as plainly as it
// reads. A transfer takes the earliest start >= ready at which every link of its route is free until its end, found
// by passes over the route; a delay is put on the link whose booking (another owner's) moved the start.
class ReferenceLinks {
 public:
  Time book(const std::vector<int>& links, Time ready, Time duration, Time finish_at_least, int owner) {
    const auto end_of = [&](Time s) { return std::max(s + duration, finish_at_least); };
    if (links.empty() || end_of(ready) == ready) return ready;
    std::vector<Time> delay_by(links.size(), 0);
    Time start = ready;
    for (bool moved = true; moved;) {
      moved = false;
      for (std::size_t r = 0; r < links.size(); ++r) {
        const Interval* hit = nullptr;
        for (const Interval& b : bookings_[links[r]])  // sorted by start, disjoint: the first ending after start
          if (b.end > start) {
            hit = &b;
            break;
          }
        if (hit != nullptr && hit->start < end_of(start)) {
          if (hit->owner != owner) delay_by[r] += hit->end - start;
          start = hit->end;
          moved = true;
        }
      }
    }
    for (std::size_t r = 0; r < links.size(); ++r) {
      auto& list = bookings_[links[r]];
      list.push_back({start, end_of(start), owner});
      std::sort(list.begin(), list.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
      busy[links[r]] += end_of(start) - start;
      if (delay_by[r] > 0) {
        ++contention[links[r]].first;
        contention[links[r]].second += delay_by[r];
      }
    }
    return start;
  }

  std::map<int, std::pair<std::uint64_t, Time>> contention;  // link -> (events, delay)
  std::map<int, Time> busy;                                  // link -> time held

 private:
  struct Interval {
    Time start, end;
    int owner;
  };
  std::map<int, std::vector<Interval>> bookings_;
};

class ReferenceScheduler {
 public:
  ReferenceScheduler(const MachineConfig& config, const Program& program)
      : config_(config), cost_(CostTable::from(config)), program_(program), d_(config.d), n_(1 << config.d) {
    nodes_.resize(static_cast<std::size_t>(n_));
    for (auto& node : nodes_) {
      const std::size_t channels = config.ports.kind == Ports::Kind::k ? static_cast<std::size_t>(config.ports.n) : 1;
      node.out_free.assign(channels, 0);
      node.in_free.assign(config.ports.kind == Ports::Kind::all ? static_cast<std::size_t>(d_) + 1 : channels, 0);
    }
  }

  ReferenceResult run() {
    for (;;) {
      bool progressed = false;
      for (int i = 0; i < n_; ++i)
        while (step(i)) progressed = true;
      if (progressed) continue;
      if (!pending_.empty()) {
        const Transfer next = *pending_.begin();
        pending_.erase(pending_.begin());
        place(next);
        continue;
      }
      ReferenceResult result;
      for (const auto& node : nodes_) result.clocks.push_back(node.clock);
      for (const auto& [link, c] : links_.contention)
        if (c.first > 0) result.contention[{link / std::max(d_, 1), link % std::max(d_, 1)}] = c;
      result.discards = discards_;
      for (const auto& node : nodes_)
        if (node.pc < program_[static_cast<std::size_t>(&node - nodes_.data())].size()) result.deadlock = true;
      return result;
    }
  }

 private:
  struct Message {
    int source, dest, tag;
    std::size_t bytes;
    Time first_byte = 0, arrival = 0, hold = 0;
    int in_port = 0;
  };
  struct Request {
    bool send = false;
    // send
    bool placed = false;
    Time done = 0;
    // receive
    int source = -1, tag = 0;
    Time posted = 0;
    bool matched = false, late = false;
    Message message{};
  };
  struct NodeState {
    std::size_t pc = 0;
    Time clock = 0;
    std::uint64_t seq = 0;
    int unplaced = 0;  // own transfers not placed yet
    std::vector<Time> out_free, in_free;
    std::map<int, Request> requests;
    std::map<std::pair<int, int>, std::vector<int>> posted;         // (source, tag) -> receive requests, in order
    std::map<std::pair<int, int>, std::vector<Message>> arrived;    // (source, tag) -> unmatched messages, in order
    bool in_barrier = false;
  };
  // A pending transfer: a whole message under circuit, one hop under store-and-forward.
  struct Transfer {
    Time ready;
    int source;
    std::uint64_t seq;
    std::uint32_t hop;
    int request, dest, channel;
    std::size_t bytes;
    std::vector<Time> packet_arrival;  // store-and-forward: when each packet has arrived at this hop's start
    int tag;
    Time start0 = 0;  // first hop's start
    Time sender_done = 0;
    bool operator<(const Transfer& o) const {
      return std::tie(ready, source, seq, hop) < std::tie(o.ready, o.source, o.seq, o.hop);
    }
  };
  bool all_port() const { return config_.ports.kind == Ports::Kind::all; }
  bool half() const { return config_.ports.kind == Ports::Kind::half; }

  std::vector<int> route(int from, int to) const {
    std::vector<int> links;
    int at = from;
    for (int k = 0; k < d_; ++k)
      if (((from ^ to) >> k) & 1) {
        links.push_back(at * d_ + k);
        at ^= 1 << k;
      }
    return links;
  }

  void place(const Transfer& t) {
    const std::vector<int> links = route(t.source, t.dest);
    Message m{t.source, t.dest, t.tag, t.bytes};
    m.in_port = t.source == t.dest ? d_ : std::bit_width(static_cast<unsigned>(t.source ^ t.dest)) - 1;
    const int hops = static_cast<int>(links.size());
    Time sender_done = 0;
    if (config_.switching == Switching::circuit || hops == 0) {
      const Time duration = model::message_time(cost_, config_.switching, t.bytes, hops);
      const Time start = links_.book(links, t.ready, duration, 0, t.source);
      const std::size_t first = cost_.packet_bytes(t.bytes, 0);
      m.first_byte = start + (config_.switching == Switching::circuit ? cost_.circuit_first_byte(first, hops)
                                                                      : cost_.startup(first));
      m.arrival = sender_done = start + duration;
      m.hold = duration;
    } else {
      // One hop: the packets arrive at a_p; the message holds the link from its first packet's start to its last's end.
      const std::size_t packets = t.packet_arrival.size();
      Time total = 0, tail = 0;
      for (std::size_t p = packets; p-- > 0;) {
        total += cost_.hop_packet(cost_.packet_bytes(t.bytes, p), cost_.is_split(t.bytes));
        if (p > 0) tail = std::max(tail, t.packet_arrival[p] + total);
      }
      const Time start = links_.book({links[t.hop]}, t.packet_arrival[0], total, tail, t.source);
      std::vector<Time> ends(packets);
      Time end = start;
      for (std::size_t p = 0; p < packets; ++p) {
        const Time s = p == 0 ? start : std::max(t.packet_arrival[p], end);
        end = s + cost_.hop_packet(cost_.packet_bytes(t.bytes, p), cost_.is_split(t.bytes));
        ends[p] = end;
      }
      Transfer next = t;
      next.sender_done = t.hop == 0 ? end : t.sender_done;
      if (t.hop == 0) release(t.source, t.request, t.channel, start, end);
      if (static_cast<int>(t.hop) + 1 < hops) {
        next.hop = t.hop + 1;
        next.ready = ends[0];
        next.packet_arrival = ends;
        pending_.insert(next);
        return;
      }
      const std::size_t first = cost_.packet_bytes(t.bytes, 0);
      m.first_byte = (packets == 1 ? start : start) + cost_.startup(first);
      m.arrival = end;
      m.hold = total;
      deliver(m);
      return;
    }
    release(t.source, t.request, t.channel, sender_done - m.hold, sender_done);
    deliver(m);
  }

  // The output resource is held from the transfer's start to its sender's end, less the port overlap's share
  // (docs/model.md §14; the cost table's overlap is 0 on all-port nodes). A blocking send still returns at the end.
  void release(int source, int request, int channel, Time start, Time done) {
    NodeState& s = nodes_[static_cast<std::size_t>(source)];
    Request& r = s.requests[request];
    r.placed = true;
    r.done = done;
    --s.unplaced;
    if (!all_port()) s.out_free[static_cast<std::size_t>(channel)] = done - cost_.overlap(done - start);
  }

  void deliver(const Message& m) {
    NodeState& r = nodes_[static_cast<std::size_t>(m.dest)];
    r.arrived[{m.source, m.tag}].push_back(m);
    match(r, {m.source, m.tag});
  }

  void match(NodeState& node, std::pair<int, int> key) {
    auto& receives = node.posted[key];
    auto& messages = node.arrived[key];
    while (!receives.empty() && !messages.empty()) {
      Request& r = node.requests[receives.front()];
      const Message m = messages.front();
      messages.erase(messages.begin());
      if (m.first_byte < r.posted && config_.protocol == Protocol::forced) {
        ++discards_;
        continue;
      }
      r.matched = true;
      r.late = m.first_byte < r.posted;
      r.message = m;
      receives.erase(receives.begin());
    }
  }

  Time take_input(NodeState& node, const Request& r) {
    const Message& m = r.message;
    Time* free = nullptr;
    switch (config_.ports.kind) {
      case Ports::Kind::one: free = &node.in_free[0]; break;
      case Ports::Kind::half: free = &node.out_free[0]; break;
      case Ports::Kind::all: free = &node.in_free[static_cast<std::size_t>(m.in_port)]; break;
      case Ports::Kind::k: {
        std::size_t best = 0;
        for (std::size_t i = 1; i < node.in_free.size(); ++i)
          if (std::max(m.arrival, node.in_free[i] + m.hold) < std::max(m.arrival, node.in_free[best] + m.hold))
            best = i;
        free = &node.in_free[best];
        break;
      }
    }
    // docs/model.md §14: the next message may use the input resource the overlap's share of this one's hold early.
    const Time completion = std::max(m.arrival, *free + m.hold);
    *free = completion - cost_.overlap(m.hold);
    return std::max(r.posted, completion) + (r.late ? cost_.sys_copy * static_cast<Time>(m.bytes) : 0);
  }

  // Runs node i's next operation if it can; returns whether it did.
  bool step(int i) {
    NodeState& node = nodes_[static_cast<std::size_t>(i)];
    const auto& ops = program_[static_cast<std::size_t>(i)];
    if (node.pc >= ops.size()) return false;
    const Op& op = ops[node.pc];
    switch (op.kind) {
      case Op::Kind::isend: {
        if (!all_port() && node.unplaced > 0) return false;  // the output resource's next free time is not known
        std::size_t channel = 0;
        for (std::size_t c = 1; c < node.out_free.size(); ++c)
          if (node.out_free[c] < node.out_free[channel]) channel = c;
        const Time ready = all_port() ? node.clock : std::max(node.clock, node.out_free[channel]);
        Request& r = node.requests[op.request];
        r = Request{};
        r.send = true;
        Transfer t{ready, i, node.seq++, 0, op.request, op.peer, static_cast<int>(channel), op.bytes, {}, op.tag};
        t.packet_arrival.assign(cost_.packet_count(op.bytes), ready);
        ++node.unplaced;
        pending_.insert(t);
        break;
      }
      case Op::Kind::post_recv: {
        Request& r = node.requests[op.request];
        r = Request{};
        r.source = op.peer;
        r.tag = op.tag;
        r.posted = node.clock;
        node.posted[{op.peer, op.tag}].push_back(op.request);
        match(node, {op.peer, op.tag});
        break;
      }
      case Op::Kind::wait: {
        Request& r = node.requests[op.request];
        if (r.send) {
          if (!r.placed) return false;
          node.clock = std::max(node.clock, r.done);
        } else {
          if (!r.matched || (half() && node.unplaced > 0)) return false;
          node.clock = std::max(node.clock, take_input(node, r));
        }
        break;
      }
      case Op::Kind::wait_all: {
        std::vector<int> receives;
        Time done = node.clock;
        for (int q : op.requests) {
          const Request& r = node.requests[q];
          if (r.send ? !r.placed : !r.matched) return false;
          if (r.send) done = std::max(done, r.done);
          else receives.push_back(q);
        }
        if (half() && !receives.empty() && node.unplaced > 0) return false;
        std::sort(receives.begin(), receives.end(), [&](int a, int b) {
          const Message &x = node.requests[a].message, &y = node.requests[b].message;
          return x.arrival != y.arrival ? x.arrival < y.arrival : x.source < y.source;
        });
        for (int q : receives) done = std::max(done, take_input(node, node.requests[q]));
        node.clock = done;
        break;
      }
      case Op::Kind::elapse: node.clock += op.time; break;
      case Op::Kind::barrier: {
        if (!node.in_barrier) {
          node.in_barrier = true;
          ++in_barrier_;
        }
        if (in_barrier_ < n_) return false;
        Time latest = 0;
        for (const auto& other : nodes_) latest = std::max(latest, other.clock);
        for (auto& other : nodes_) {
          other.clock = latest + cost_.barrier(d_);
          other.in_barrier = false;
          ++other.pc;  // every node leaves the barrier together
        }
        in_barrier_ = 0;
        return true;
      }
    }
    ++node.pc;
    return true;
  }

  MachineConfig config_;
  CostTable cost_;
  const Program& program_;
  int d_, n_;
  std::vector<NodeState> nodes_;
  std::set<Transfer> pending_;
  ReferenceLinks links_;
  std::size_t discards_ = 0;
  int in_barrier_ = 0;
};

inline ReferenceResult reference_run(const MachineConfig& config, const Program& program) {
  return ReferenceScheduler(config, program).run();
}

}  // namespace hcemu::test
