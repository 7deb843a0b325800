#pragma once
// Hints to the host's cache, never to the model: the one part of the runtime that knows where a node's hot data lies.
// A node's state is cold by the time it runs again (every other node has run since), so a worker loads what the node
// will touch first shortly before it resumes it (Engine::set_warm): stage 0 the node's own parts, stage 1 what a wait
// set down before parking (the slot or element it waits on, its buffer and matching entry, the slot of its last send)
// and what the node is likely to do next. The next step of a kernel that exchanges with one partner after another is
// learnt from its sends: the order of its partners (a constant stride, additive or in the bits that differ from the
// node's own id, as in the Direct exchange's id ^ j) and where their blocks lie (a constant stride per partner).
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/requests.hpp"

namespace hcemu::detail {

class Inbox;
class Matcher;
struct RecvGroupState;

class HostHints {
 public:
  // Everything given outlives the hints.
  HostHints(int node, int nodes, const RequestTable& requests, const Matcher& matcher, const Inbox& inbox);

  // An object whose first lines (up to kMostBytes) every resume touches (stage 0): a part of the same node object as
  // the hints, at the same place in every node. Parts that lie together share their lines: each line is warmed once.
  void keep_warm(const void* object, std::size_t bytes);
  void start_run();

  // A send of `bytes` from `data` to `peer`: what the partner order and the block stride are learnt from.
  void sent(int peer, const void* data, std::size_t bytes) {
    if (peer != learnt_.partner) learn_partner(peer);
    if (bytes > 0 && data != learnt_.block) learn_block(peer, static_cast<const char*>(data));
  }

  // Before the node parks: in a send to `peer` with `tag` in `context` of `data` (peer -1: no send), on receive slot
  // `index`, or on element `e` of group `g`. `hold_slot`: the send whose slot the placer writes meanwhile.
  void parking_to_send(int peer, int tag, std::uint32_t context, const void* data, std::uint32_t hold_slot);
  void parking_on_receive(std::uint32_t index, std::uint32_t hold_slot);
  void parking_on_element(const RecvGroupState& g, std::uint32_t e, std::uint32_t hold_slot);
  void resumed() { count_.store(0, std::memory_order_relaxed); }

  // Any worker, while the node may run elsewhere: starts loading what the node touches first.
  void warm(int stage) const;

 private:
  static constexpr int kHints = 12;
  static constexpr int kLines = 24;
  static constexpr std::uintptr_t kLine = 64;  // bytes in a cache line
  static constexpr std::size_t kMostBytes = 192;

  // Sets the hints in place, in the order given, skipping nulls; the count when it is done. A parking sets at most
  // kHints.
  class Writer {
   public:
    explicit Writer(HostHints& hints) : hints_(hints) {}
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    ~Writer() { hints_.count_.store(n_, std::memory_order_relaxed); }
    void put(const void* address) {
      if (address != nullptr) hints_.hints_[n_++].store(address, std::memory_order_relaxed);
    }

   private:
    HostHints& hints_;
    int n_ = 0;
  };

  // The partners of a kernel that exchanges with one after another: a constant stride either in the bits that differ
  // from the node's own id (id ^ j, the Direct and multiphase exchanges) or in the id itself ((id + j) mod n, a
  // ring). The partner after `last` and `before` at a constant stride: in the bits that differ from `self`, or mod
  // `nodes`.
  static int after_xor_stride(int self, int before, int last) { return self ^ (2 * (last ^ self) - (before ^ self)); }
  static int after_add_stride(int nodes, int before, int last) {
    const int next = 2 * last - before;  // in (-nodes, 2 * nodes)
    return next < 0 ? next + nodes : next >= nodes ? next - nodes : next;
  }
  // At the end of this header, inline: every send learns.
  void learn_partner(int peer);
  void learn_block(int peer, const char* data);
  int next_partner() const { return learnt_.next_partner; }  // -1: no guess
  const void* block_of(int partner) const;  // null: no guess
  // The receive likeliest to meet the next arrival: a group's element from `peer` with `tag` (the node the caller is
  // about to send to), else the receive posted after the last one met; its lines.
  void next_arrival(int peer, int tag, std::uint32_t context, Writer& h) const;
  void hold_lines(std::uint32_t hold_slot, Writer& h) const {
    if (hold_slot == Slot::kNoSlot) return;
    h.put(&requests_.at(hold_slot));
    h.put(requests_.chunk_entry(hold_slot));
  }
  // The free slot that the node's next requests take once it has freed those it completes on waking: last touched
  // when it was freed, often a step ago.
  void next_free_line(Writer& h) const {
    if (const std::uint32_t free = requests_.next_free(); free != Slot::kNoSlot) h.put(&requests_.at(free));
  }

  // The lines of the registered objects, each once, as offsets from the hints to the line's start: one table for
  // every node of the process, as every node registers the same parts of the same type in the same order (and a node
  // object is aligned to a line). Stage 0 then reads nothing of the cold node it warms (a per-node table would be one
  // more cold line to wait for before the first prefetch). Atomic, as every node writes the same values at the same
  // places, machines being made on several threads at once.
  static std::atomic<std::ptrdiff_t> line_offset_[kLines];
  static std::atomic<std::ptrdiff_t> first_line_;  // the lowest of line_offset_
  static std::atomic<int> run_lines_;              // lines from it to the highest, both in

  int node_;
  int nodes_;
  const RequestTable& requests_;
  const Matcher& matcher_;
  const Inbox& inbox_;
  int lines_ = 0;  // registered by this node
  // What sends teach, read on every send (warmed with the registered objects): the latest partner, the partners
  // after it at either stride (from the one before it), the guess of the stride that was right for the latest, and
  // the latest block and its stride.
  struct Learnt {
    int partner = -1;
    int after_xor = -1, after_add = -1;  // -1: no guess
    int next_partner = -1;
    int block_partner = -1;
    const char* block = nullptr;
    std::ptrdiff_t block_stride = 0;  // bytes per partner id; 0: none known
  } learnt_;
  // What stage 1 loads: the first count_ of hints_ (a Writer keeps only the addresses it is given).
  std::atomic<int> count_{0};
  std::atomic<const void*> hints_[kHints] = {};
};

inline void HostHints::learn_partner(int peer) {
  // The guesses made at the latest send, checked against this one; then the guesses for the next.
  const bool xor_right = peer == learnt_.after_xor, add_right = peer == learnt_.after_add;
  const bool known = learnt_.partner >= 0;
  learnt_.after_xor = known ? after_xor_stride(node_, learnt_.partner, peer) : -1;
  learnt_.after_add = known ? after_add_stride(nodes_, learnt_.partner, peer) : -1;
  const int next = xor_right ? learnt_.after_xor : add_right ? learnt_.after_add : -1;
  learnt_.next_partner = next < nodes_ ? next : -1;
  learnt_.partner = peer;
}

// The block sent to a partner, as a constant number of bytes per partner id from the last one (each partner's block
// at its place in one buffer). Divides only when the stride changes.
inline void HostHints::learn_block(int peer, const char* data) {
  const std::ptrdiff_t partners = peer - learnt_.block_partner;
  if (learnt_.block != nullptr && partners != 0 && data - learnt_.block != partners * learnt_.block_stride)
    learnt_.block_stride = (data - learnt_.block) % partners == 0 ? (data - learnt_.block) / partners : 0;
  learnt_.block_partner = peer;
  learnt_.block = data;
}

inline const void* HostHints::block_of(int partner) const {
  if (partner < 0 || learnt_.block_stride == 0) return nullptr;
  // Only ever prefetched: a wrong guess costs a useless load, never a fault.
  const std::ptrdiff_t offset = (partner - learnt_.block_partner) * learnt_.block_stride;
  return reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(learnt_.block) +
                                       static_cast<std::uintptr_t>(offset));
}

}  // namespace hcemu::detail
