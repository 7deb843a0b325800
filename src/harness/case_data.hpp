#pragma once
// The harness's random data is the public hcemu/case_data.hpp, under the name the family files use.
#include "hcemu/case_data.hpp"

namespace hcemu::harness {
namespace data = ::hcemu::data;
}  // namespace hcemu::harness
