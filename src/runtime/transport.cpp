#include "runtime/transport.hpp"

namespace hcemu::detail {

std::string first_of_ranks(Transport& transport, const std::string& mine) {
  Wire w;
  w.put_string(mine);
  for (const auto& part : transport.all_gather(w.bytes())) {
    WireReader r(part);
    std::string text = r.get_string();
    if (!text.empty()) return text;
  }
  return {};
}

}  // namespace hcemu::detail
