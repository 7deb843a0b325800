// Waits and tests on requests (Node::wait, wait_all, wait_any, test).
#include <algorithm>
#include <string_view>

#include "hcemu/errors.hpp"
#include "runtime/completion.hpp"
#include "runtime/message.hpp"
#include "runtime/node_core.hpp"
#include "runtime/send_side.hpp"

namespace hcemu::detail {

void Completion::start_run() {
  horizons_.start_run();
  fruitless_tests_ = 0;
}

Status Completion::wait(Request& request, const char* operation) {
  core_.check_running();
  RequestTable& table = core_.requests();
  table.get(request, core_.id(), operation);
  const std::uint32_t index = RequestAccess::slot(request);
  Slot& s = table.at(index);
  const Time before = core_.clock().now();
  Status status;
  if (s.kind == Slot::Kind::send) {
    if (!s.send.released.load(std::memory_order_acquire)) {
      const auto ready = [&] { return s.send.released.load(std::memory_order_acquire); };
      const auto describe = [&] {
        return BlockedOperation{core_.id(), operation, s.peer, s.tag, "its transfer is not placed", true};
      };
      Wait w{ready, describe, {}, true, false};
      core_.block_until(w);
    }
    sends_.complete_send(index);
    status = Status{core_.id(), s.tag, s.bytes, std::max(before, s.send.done)};
  } else {
    if (s.peer == kAnySource && !s.matched) resolve_any_source(index, operation);
    if (!s.matched) {
      const auto ready = [&] { return s.matched; };
      const auto describe = [&] { return BlockedOperation{core_.id(), operation, s.peer, s.tag, {}}; };
      Wait w{ready, describe, {}, false, true};
      core_.hints().parking_on_receive(index, sends_.hold_slot());
      core_.block_until(w);
      core_.hints().resumed();
    }
    status = Status{s.peer, s.tag, s.bytes, std::max(before, complete_receive(s))};
  }
  core_.advance_clock(status.completed);
  if (status.completed > before && core_.tracing()) {
    const bool on_send = s.kind == Slot::Kind::send;
    const char* call = std::string_view(operation) != "wait" ? operation : on_send ? "wait send" : "wait recv";
    core_.record_call(call, before, status.completed, on_send ? s.peer : status.source, status.bytes, status.tag);
  }
  table.release(index);
  request = Request{};
  return status;
}

void Completion::wait_all(std::span<Request> requests) {
  core_.check_running();
  std::vector<std::uint32_t> sends, receives;
  gather(requests, sends, receives);
  for (std::uint32_t i : receives)
    if (core_.requests().at(i).peer == kAnySource && !core_.requests().at(i).matched) resolve_any_source(i, "wait_all");
  await_all(sends, receives);
  const Time before = core_.clock().now();
  const Time done = std::max(before, complete_all(sends, receives));
  core_.advance_clock(done);
  if (done > before) core_.record_call("wait_all", before, done);
  for (Request& r : requests) {
    if (!r.valid()) continue;
    core_.requests().release(RequestAccess::slot(r));
    r = Request{};
  }
}

void Completion::gather(std::span<Request> requests, std::vector<std::uint32_t>& sends,
                        std::vector<std::uint32_t>& receives) {
  RequestTable& table = core_.requests();
  const auto unmark = [&] {
    for (std::uint32_t i : sends) table.at(i).in_wait = false;
    for (std::uint32_t i : receives) table.at(i).in_wait = false;
  };
  for (Request& r : requests) {
    if (!r.valid()) continue;
    Slot* s = nullptr;
    try {
      s = &table.get(r, core_.id(), "wait_all");
    } catch (...) {
      unmark();
      throw;
    }
    if (s->in_wait) {
      unmark();
      throw UsageError(core_.where("wait_all") + "the same request is given twice");
    }
    s->in_wait = true;
    (s->kind == Slot::Kind::send ? sends : receives).push_back(RequestAccess::slot(r));
  }
  unmark();
}

// A wait_all on thousands of requests may be woken once for each of them (on n-port nodes every send's placing wakes
// it), so what it asks after each wake-up must not read every slot again: matching and placing only ever complete
// requests, so each list is passed from the front once, and between two counts the unmatched receives are bounded
// below by the last count less the matches this node has made since (some may have been of receives outside this
// wait, so only a bound: it is counted again when it reaches zero).
void Completion::await_all(const std::vector<std::uint32_t>& sends, const std::vector<std::uint32_t>& receives) {
  RequestTable& table = core_.requests();
  std::size_t first_unmatched = 0, first_unreleased = 0;
  std::uint64_t counted = 0, matches_when_counted = 0;
  const auto count_unmatched = [&] {
    while (first_unmatched < receives.size() && table.at(receives[first_unmatched]).matched) ++first_unmatched;
    counted = 0;
    for (std::size_t k = first_unmatched; k < receives.size(); ++k) counted += !table.at(receives[k]).matched;
    matches_when_counted = core_.matcher().messages_received();
    return counted;
  };
  const auto unmatched = [&] {  // a lower bound, exact when zero
    const std::uint64_t since = core_.matcher().messages_received() - matches_when_counted;
    return counted > since ? counted - since : count_unmatched();
  };
  const auto unreleased = [&] {
    while (first_unreleased < sends.size() &&
           table.at(sends[first_unreleased]).send.released.load(std::memory_order_acquire))
      ++first_unreleased;
    return first_unreleased < sends.size();
  };
  const auto ready = [&] { return unmatched() == 0 && !unreleased(); };
  const auto describe = [&] {  // what is still missing
    for (std::uint32_t i : receives)
      if (!table.at(i).matched) return BlockedOperation{core_.id(), "wait_all", table.at(i).peer, table.at(i).tag, {}};
    for (std::uint32_t i : sends)
      if (!table.at(i).send.released.load(std::memory_order_acquire))
        return BlockedOperation{core_.id(), "wait_all", table.at(i).peer, table.at(i).tag,
                                "a send whose transfer is not placed", true};
    return BlockedOperation{core_.id(), "wait_all", -1, 0, {}};
  };
  count_unmatched();
  for (;;) {
    core_.drain();
    const std::uint64_t missing = unmatched();
    if (missing == 0 && !unreleased()) return;
    // Every receive still unmatched needs a message of its own: wake no earlier than that many deliveries.
    Wait w{ready, describe, unmatched, unreleased(), missing > 0};
    core_.block_until(w);
  }
}

Time Completion::complete_all(const std::vector<std::uint32_t>& sends, std::vector<std::uint32_t>& receives) {
  RequestTable& table = core_.requests();
  Time done = 0;
  for (std::uint32_t i : sends) {
    sends_.complete_send(i);
    done = std::max(done, table.at(i).send.done);
  }
  // docs/model.md §4: inside one wait, arrivals take the input resource in order of arrival, ties by source.
  std::sort(receives.begin(), receives.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Slot &x = table.at(a), &y = table.at(b);
    return timing::TimingModel::takes_input_before(x.arrival_times(), x.peer, y.arrival_times(), y.peer);
  });
  for (std::uint32_t i : receives) done = std::max(done, complete_receive(table.at(i)));
  return done;
}

std::size_t Completion::wait_any(std::span<Request> requests, Status* status) {
  core_.check_running();
  bool any = false;
  for (Request& r : requests)
    if (r.valid()) {
      core_.requests().get(r, core_.id(), "wait_any");
      any = true;
    }
  if (!any)
    throw UsageError(core_.where("wait_any") + "no pending request among the " + std::to_string(requests.size()) +
                     " given");
  const auto describe = [&] {
    for (const Request& r : requests)
      if (r.valid()) {
        const Slot& s = core_.requests().at(RequestAccess::slot(r));
        return BlockedOperation{core_.id(), "wait_any", s.peer, s.tag, {}};
      }
    return BlockedOperation{core_.id(), "wait_any", -1, 0, {}};
  };
  // As for a receive from any source (resolve_any_source): the first completion is known once every transfer ready
  // by the best known completion has been placed.
  Time asked = kNever;
  std::uint64_t ticket = 0;
  for (;;) {
    core_.drain();
    const Best best = best_known(requests);
    if (best.found && (!core_.ordered() || (best.completion == asked && horizons_.passed(ticket)))) {
      Request& r = requests[best.index];
      if (best.message != nullptr && !core_.matcher().take_for(RequestAccess::slot(r), best.message))
        continue;  // FORCED discard
      const Status st = complete_one(r);
      if (status != nullptr) *status = st;
      return best.index;
    }
    if (best.found && best.completion != asked) {
      asked = best.completion;
      ticket = horizons_.request(asked);
    }
    const auto ready = [&] {
      const Best b = best_known(requests);
      return b.found && (b.completion != asked || horizons_.passed(ticket));
    };
    Wait w{ready, describe, {}, true, true};
    core_.block_until(w);
  }
}

// Ties by lower source id (a send counts as this node's), then by position.
Completion::Best Completion::best_known(std::span<Request> requests) {
  Best best;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (!requests[i].valid()) continue;
    const Slot& s = core_.requests().at(RequestAccess::slot(requests[i]));
    Best c;
    c.index = i;
    if (s.kind == Slot::Kind::send) {
      if (!s.send.released.load(std::memory_order_acquire)) continue;
      c.completion = s.send.done;
      c.source = core_.id();
    } else if (s.matched) {
      c.completion = peek_receive(s);
      c.source = s.peer;
    } else if (s.peer == kAnySource) {
      c.message = best_for_any_source(s, &c.completion);
      if (c.message == nullptr) continue;
      c.source = c.message->source;
    } else {
      continue;
    }
    c.found = true;
    if (!best.found || c.completion < best.completion || (c.completion == best.completion && c.source < best.source))
      best = c;
  }
  return best;
}

// wait_any's request known to complete first: completed, the clock moved to its end, traced, freed.
Status Completion::complete_one(Request& r) {
  const std::uint32_t index = RequestAccess::slot(r);
  Slot& s = core_.requests().at(index);
  const Time before = core_.clock().now();
  const bool on_send = s.kind == Slot::Kind::send;
  Status st;
  if (on_send) {
    sends_.complete_send(index);
    st = Status{core_.id(), s.tag, s.bytes, std::max(before, s.send.done)};
  } else {
    st = Status{s.peer, s.tag, s.bytes, std::max(before, complete_receive(s))};
  }
  core_.advance_clock(st.completed);
  if (st.completed > before)
    core_.record_call(on_send ? "wait_any send" : "wait_any recv", before, st.completed, on_send ? s.peer : st.source,
                      st.bytes, st.tag);
  core_.requests().release(index);
  r = Request{};
  return st;
}

bool Completion::test(Request& request) {
  core_.check_running();
  core_.requests().get(request, core_.id(), "test");
  const std::uint32_t index = RequestAccess::slot(request);
  Slot& s = core_.requests().at(index);
  const Time now = core_.clock().now();
  if (s.kind == Slot::Kind::send) {
    if (!s.send.released.load(std::memory_order_acquire)) settle(s, now);
    if (!s.send.released.load(std::memory_order_acquire) || s.send.done > now) return fruitless_test(s, now);
    sends_.complete_send(index);
  } else {
    core_.drain();
    if (!s.matched) {
      settle(s, now);
      if (s.peer == kAnySource) {
        Time t = kNever;
        Message* best = best_for_any_source(s, &t);
        if (best == nullptr || t > now || !core_.matcher().take_for(index, best)) return fruitless_test(s, now);
      }
    }
    if (!s.matched || peek_receive(s) > now) return fruitless_test(s, now);
    complete_receive(s);
  }
  core_.requests().release(index);
  request = Request{};
  fruitless_tests_ = 0;
  return true;
}

// What is not known yet is known once every transfer ready by now has been placed.
void Completion::settle(const Slot& s, Time now) {
  if (!core_.ordered()) return;
  const std::uint64_t ticket = horizons_.request(now);
  const auto ready = [&] { return horizons_.passed(ticket); };
  const auto describe = [&] { return BlockedOperation{core_.id(), "test", s.peer, s.tag, {}}; };
  Wait w{ready, describe, {}, false, false};
  core_.block_until(w);
  core_.drain();
}

// Once test() has found a request incomplete at model time t, every transfer ready by t has been placed (its horizon),
// and whatever is still to come completes after t: until the node's clock moves, every test of any request gives the
// same answer. A kernel that polls without advancing its clock (no wait, no elapse) would spin for ever; after more
// fruitless tests in a row than it has requests, many times over, it is told so, as a deadlock is.
bool Completion::fruitless_test(const Slot& s, Time now) {
  if (!core_.ordered()) return false;  // native timing: real time passes, and a poll may succeed later
  if (fruitless_tests_ == 0 || now != fruitless_clock_) {
    fruitless_clock_ = now;
    fruitless_tests_ = 0;
  }
  if (++fruitless_tests_ > 10000 + 2 * static_cast<std::uint64_t>(core_.requests().size()))
    throw Error(core_.where("test") + "livelock: polled " + std::to_string(fruitless_tests_) + " times at model time " +
                std::to_string(now) + " ps (the " + (s.kind == Slot::Kind::send ? "send to " : "receive from ") +
                std::to_string(s.peer) + ", tag " + std::to_string(s.tag) +
                "), and nothing can change until the node's clock moves: test() does not advance it (use wait(), or "
                "elapse() between tests)");
  return false;
}

}  // namespace hcemu::detail
