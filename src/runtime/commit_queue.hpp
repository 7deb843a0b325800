#pragma once
// The coordinator's queue of what waits to be placed (runtime/coordinator.hpp), smallest OrderKey first.
//
// What the nodes submit between two passes comes in as one batch (a step of a lockstep schedule: one transfer per
// node), each key copied beside its pointer by its submitter: it is sorted once and merged into a sorted run. What
// comes one at a time during a pass (a store-and-forward message's next hop), and a batch far smaller than the run,
// goes into a small heap beside it. A binary heap of pointers alone compared keys inside the messages, a cache miss
// per comparison once a step's messages no longer fit the first-level cache.
#include <algorithm>
#include <vector>

#include "runtime/pending.hpp"
#include "timing/order_key.hpp"

namespace hcemu::detail {

class CommitQueue {
 public:
  bool empty() const { return sorted_.empty() && heap_.empty(); }
  const timing::OrderKey& top_key() const { return from_heap() ? heap_.front().key : sorted_.back().key; }
  Pending* pop() {
    if (!from_heap()) {
      Pending* p = sorted_.back().p;
      sorted_.pop_back();
      return p;
    }
    std::pop_heap(heap_.begin(), heap_.end(), later);
    Pending* p = heap_.back().p;
    heap_.pop_back();
    return p;
  }
  struct Item {
    timing::OrderKey key;
    Pending* p;
    // A message's lead (timing::TimingModel::least_lead), written by its submitter while the message is in its cache,
    // so that the placer takes a batch without reading the messages (runtime/coordinator_batch.cpp); 0 where it is
    // not known, which is always safe; kHorizon for a horizon.
    Time lead;
    // A message's receiver, written by its submitter too: with its source (the key's) it gives a hypercube route
    // (timing::Wiring::ecube_dimension), so that the levels' pass reads no message there; -1 where not known.
    int destination = -1;
    // Spread over MPI ranks under store-and-forward: how many leads after its ready time the message can first wake a
    // node (timing::TimingModel::leads_to_wake); 1 elsewhere, which is always safe.
    std::uint32_t wake_leads = 1;
  };
  static constexpr Time kHorizon = -1;
  const Item& top() const { return from_heap() ? heap_.front() : sorted_.back(); }
  // One that comes back during a pass (a store-and-forward message's next hop, or what a failed pass did not place):
  // with no lead.
  void push(Pending* p) { push({p->key, p, p->kind == Pending::Kind::horizon ? kHorizon : 0}); }
  // One taken out and put back as it was (a round over MPI ranks that did not reach it).
  void push(const Item& i) {
    heap_.push_back(i);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  // Submissions, in any order; `batch` is left empty, its capacity swapped for another's.
  void push_batch(std::vector<Item>& batch) {
    if (batch.empty()) return;
    // A few keys into a long run (a schedule whose events tie in model time places a few transfers per pass while
    // the rest wait): into the heap, each in log time, where a merge would copy the whole run at every pass.
    if (batch.size() * kMergeRatio < sorted_.size()) {
      for (const Item& i : batch) {
        heap_.push_back(i);
        std::push_heap(heap_.begin(), heap_.end(), later);
      }
      batch.clear();
      return;
    }
    batch_.swap(batch);
    batch.clear();
    sort_descending(batch_);  // the next at the back
    if (sorted_.empty()) {
      sorted_.swap(batch_);
      return;
    }
    merged_.resize(sorted_.size() + batch_.size());
    std::merge(sorted_.begin(), sorted_.end(), batch_.begin(), batch_.end(), merged_.begin(), later);
    sorted_.swap(merged_);
  }
  template <class F>
  void for_each(F&& f) const {
    for (const Item& i : sorted_) f(i.p);
    for (const Item& i : heap_) f(i.p);
  }
  void clear() {
    sorted_.clear();
    heap_.clear();
  }

 private:
  // A function object, not a function: std::sort and the heap algorithms inline it then, where through a function
  // pointer every comparison was a call (3% of the d = 9 exchange's instructions).
  struct Later {
    bool operator()(const Item& a, const Item& b) const { return b.key < a.key; }
  };
  static constexpr Later later{};
  static constexpr std::size_t kMergeRatio = 16;

  // A step of a lockstep schedule submits one transfer per node, all ready at the same time: those are sorted by
  // counting their sources (the comparison sort had been 2-3% of a d = 10 exchange's profile, on the placer's path),
  // then each source's few keys put in order among themselves. Anything else, or sources far apart, by comparison.
  void sort_descending(std::vector<Item>& v) {
    const Time ready = v.front().key.ready;
    int top = 0;
    for (const Item& i : v) {
      if (i.key.ready != ready || i.key.source < 0 || static_cast<std::size_t>(i.key.source) >= 4 * v.size()) {
        std::sort(v.begin(), v.end(), later);
        return;
      }
      top = std::max(top, i.key.source);
    }
    // start_[s]: how many keys have a source above s, where the first of source s goes (descending order).
    start_.assign(static_cast<std::size_t>(top) + 1, 0);
    for (const Item& i : v) ++start_[static_cast<std::size_t>(i.key.source)];
    std::size_t above = 0;
    for (std::size_t s = start_.size(); s-- > 0;) {
      const std::size_t here = start_[s];
      start_[s] = above;
      above += here;
    }
    scratch_.resize(v.size());
    for (const Item& i : v) scratch_[start_[static_cast<std::size_t>(i.key.source)]++] = i;
    // Keys of one source side by side, in any order (a node that posts all its sends at once issues hundreds, in
    // ascending order): each run sorted on its own. start_[s] is now the end of source s's run, and the runs go by
    // source from the highest down.
    std::size_t from = 0;
    for (std::size_t s = start_.size(); s-- > 0;) {
      const std::size_t to = start_[s];
      if (to - from > 1) std::sort(scratch_.begin() + static_cast<std::ptrdiff_t>(from),
                                   scratch_.begin() + static_cast<std::ptrdiff_t>(to), later);
      from = to;
    }
    v.swap(scratch_);
  }
  bool from_heap() const { return sorted_.empty() || (!heap_.empty() && heap_.front().key < sorted_.back().key); }

  std::vector<Item> sorted_;  // descending
  std::vector<Item> heap_;    // a heap by `later`: the smallest key at the front
  std::vector<Item> batch_, merged_, scratch_;
  std::vector<std::size_t> start_;
};

}  // namespace hcemu::detail
