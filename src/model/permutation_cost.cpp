#include <algorithm>
#include <bit>
#include <charconv>
#include <map>
#include <utility>

#include "hcemu/errors.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/permutation.hpp"
#include "hcemu/model/transfer.hpp"
#include "model/shared.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {
namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a portable stream of 64-bit values.
std::uint64_t split_mix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The directed links of the e-cube route from s to t, in hop order: (node, dimension).
std::vector<std::pair<std::uint32_t, int>> ecube_route(std::uint32_t s, std::uint32_t t, int d) {
  std::vector<std::pair<std::uint32_t, int>> hops;
  std::uint32_t at = s;
  for (int k = 0; k < d; ++k)
    if ((s ^ t) >> k & 1u) {
      hops.emplace_back(at, k);
      at ^= std::uint32_t{1} << k;
    }
  return hops;
}

}  // namespace

Permutation inversion_permutation(int d) {
  Permutation p{"inversion", {}};
  for (std::uint32_t s = 0; s <= low_bits(d); ++s) p.image.push_back(s ^ low_bits(d));
  return p;
}

Permutation bit_reversal_permutation(int d) {
  Permutation p{"bit-reversal", {}};
  for (std::uint32_t s = 0; s <= low_bits(d); ++s) {
    std::uint32_t r = 0;
    for (int k = 0; k < d; ++k)
      if (s >> k & 1u) r |= std::uint32_t{1} << (d - 1 - k);
    p.image.push_back(r);
  }
  return p;
}

Permutation shuffle_permutation(int d) {
  Permutation p{"shuffle", {}};
  for (std::uint32_t s = 0; s <= low_bits(d); ++s) p.image.push_back(d == 0 ? s : (((s << 1) | (s >> (d - 1))) & low_bits(d)));
  return p;
}

Permutation rotation_permutation(int d) {
  Permutation p{"rotation", {}};
  for (std::uint32_t s = 0; s <= low_bits(d); ++s) p.image.push_back((s + 1) & low_bits(d));
  return p;
}

Permutation reflection_permutation(int d) {
  Permutation p{"reflection", {}};
  const std::uint32_t top = d == 0 ? 0 : std::uint32_t{1} << (d - 1);
  for (std::uint32_t s = 0; s <= low_bits(d); ++s) p.image.push_back(s ^ top);
  return p;
}

Permutation random_permutation(int d, std::uint64_t seed) {
  Permutation p{"random:" + std::to_string(seed), {}};
  for (std::uint32_t s = 0; s <= low_bits(d); ++s) p.image.push_back(s);
  std::uint64_t state = seed;
  for (std::size_t i = p.image.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(split_mix(state) % i);  // bias below 2^-50 for 2^13 nodes
    std::swap(p.image[i - 1], p.image[j]);
  }
  return p;
}

const std::vector<std::string>& permutation_names() {
  static const std::vector<std::string> names = {"inversion", "bit-reversal", "shuffle", "rotation",
                                                      "reflection", "random"};
  return names;
}

Permutation permutation_by_name(std::string_view spec, int d) {
  if (spec == "inversion") return inversion_permutation(d);
  if (spec == "bit-reversal") return bit_reversal_permutation(d);
  if (spec == "shuffle") return shuffle_permutation(d);
  if (spec == "rotation") return rotation_permutation(d);
  if (spec == "reflection") return reflection_permutation(d);
  if (spec == "random") return random_permutation(d, 1);
  if (spec.starts_with("random:")) {
    const std::string_view digits = spec.substr(7);
    std::uint64_t seed = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), seed);
    if (error == std::errc() && end == digits.data() + digits.size() && !digits.empty())
      return random_permutation(d, seed);
  }
  std::string known;
  for (const std::string& name : permutation_names()) known += (known.empty() ? "" : ", ") + name;
  throw UsageError("unknown permutation '" + std::string(spec) + "': use " + known + " or random:SEED");
}

std::vector<std::uint32_t> inverse_permutation(std::span<const std::uint32_t> image) {
  std::vector<std::uint32_t> inverse(image.size(), 0);
  std::vector<bool> hit(image.size(), false);
  for (std::size_t s = 0; s < image.size(); ++s) {
    if (image[s] >= image.size() || hit[image[s]]) throw UsageError("not a permutation of the nodes");
    hit[image[s]] = true;
    inverse[image[s]] = static_cast<std::uint32_t>(s);
  }
  return inverse;
}

std::size_t ecube_congestion(int d, std::span<const std::uint32_t> image) {
  std::map<std::pair<std::uint32_t, int>, std::size_t> load;
  std::size_t most = 0;
  for (std::uint32_t s = 0; s < image.size(); ++s)
    for (const auto& link : ecube_route(s, image[s], d)) most = std::max(most, ++load[link]);
  return most;
}

std::optional<Time> ecube_permutation_time(const MachineConfig& config, std::size_t m,
                                           std::span<const std::uint32_t> image) {
  const int d = config.d;
  if (config.ports.kind == Ports::Kind::half) return std::nullopt;
  const bool circuit = config.switching == Switching::circuit;
  if (!circuit && config.packet != 0 && m > config.packet) return std::nullopt;
  std::map<std::pair<std::uint32_t, int>, std::vector<std::size_t>> slots;  // link -> the hop indices using it
  int longest = 0;
  for (std::uint32_t s = 0; s < image.size(); ++s) {
    const auto route = ecube_route(s, image[s], d);
    longest = std::max(longest, static_cast<int>(route.size()));
    for (std::size_t hop = 0; hop < route.size(); ++hop) {
      auto& used = slots[route[hop]];
      if (circuit ? !used.empty() : std::find(used.begin(), used.end(), hop) != used.end()) return std::nullopt;
      used.push_back(hop);
    }
  }
  return longest == 0 ? 0 : message_time(config, m, longest);
}

std::optional<Time> inversion_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::all) return std::nullopt;
  const int d = config.d;
  if (d == 0 || m == 0) return 0;
  const std::size_t longest = (m + static_cast<std::size_t>(d) - 1) / static_cast<std::size_t>(d);
  return d * message_time(config, longest, 1);
}

std::size_t permuted_send_piece_bytes(int d, std::size_t m) {
  const std::size_t nodes = std::size_t{1} << d;
  return (m + nodes - 1) / nodes;
}

std::optional<Time> permuted_send_time(const MachineConfig& config, std::size_t m) {
  const std::size_t p = permuted_send_piece_bytes(config.d, m);
  const auto exchange = all_port_exchange_time(config, p);
  if (!exchange) return std::nullopt;
  if (config.d == 0) return 0;
  return 2 * *exchange + CostTable::from(config).copy((std::size_t{1} << config.d) * p);
}

}  // namespace hcemu::model
