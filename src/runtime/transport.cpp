#include "runtime/transport.hpp"

#include <atomic>

namespace hcemu::detail {

namespace {
std::atomic<Transport*> registered{nullptr};
thread_local int in_process_holds = 0;
}  // namespace

Transport* process_transport() {
  Transport* t = registered.load(std::memory_order_acquire);
  return in_process_holds > 0 || t == nullptr || t->ranks() < 2 ? nullptr : t;
}

void set_process_transport(Transport* transport) { registered.store(transport, std::memory_order_release); }

std::string first_of_ranks(const std::string& mine) {
  Transport* t = registered.load(std::memory_order_acquire);
  if (t == nullptr) return mine;
  Wire w;
  w.put_string(mine);
  for (const auto& part : t->all_gather(w.bytes())) {
    WireReader r(part);
    std::string text = r.get_string();
    if (!text.empty()) return text;
  }
  return {};
}

void hold_in_process(bool on) { in_process_holds += on ? 1 : -1; }

}  // namespace hcemu::detail
