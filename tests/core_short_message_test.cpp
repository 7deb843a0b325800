// docs/model.md §13, the short-message protocol (Nicol & Bokhari 1994 §4): a packet of 1..short_limit bytes starts
// up in λs and moves at τs per byte; zero bytes keep λ0 and longer packets λ and τ. Expected times are worked by hand
// from the model on round parameters.
#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "core_support.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/transfer.hpp"

namespace hcemu {
namespace {

using test::bytes_of;
using test::ping_pong;
using test::round_config;
using test::us;

// round_config (λ = 10, λ0 = 7, τ = 0.5, δ = 1 per hop, δ' = 2) with packets of 1..8 bytes at λs = 4, τs = 1.5.
MachineConfig short_config(int d) {
  MachineConfig c = round_config(d);
  c.short_limit = 8;
  c.lambda_short = 4;
  c.tau_short = 1.5;
  return c;
}

// One circuit transfer over h hops of L bytes, docs/model.md §13 on short_config.
double circuit_us(int hops, std::size_t bytes) {
  const double startup = bytes == 0 ? 7 : bytes <= 8 ? 4 : 10;
  const double per_byte = bytes != 0 && bytes <= 8 ? 1.5 : 0.5;
  return startup + 2 + 1.0 * hops + per_byte * static_cast<double>(bytes);
}

Time ping_pong_time(const MachineConfig& config, int partner, std::size_t m) {
  return ping_pong(config, partner, m).makespan;
}

TEST(ShortMessages, CircuitPingPongPaysTheShortStartUpUpToTheLimit) {
  const MachineConfig config = short_config(3);
  for (std::size_t m : {0, 1, 7, 8, 9, 64}) {
    for (int partner : {1, 3, 7}) {
      const int h = std::popcount(static_cast<unsigned>(partner));
      const Time want = us(2 * circuit_us(h, m));
      EXPECT_EQ(ping_pong_time(config, partner, m), want) << "m = " << m << ", partner " << partner;
      EXPECT_EQ(2 * model::message_time(config, m, h), want) << "m = " << m;
    }
  }
}

// Store-and-forward with 16-byte packets: a 20-byte message is 16 bytes (long) + 4 (short); each hop of the first
// takes 10 + 0.5·16 = 18 µs, of the second 4 + 1.5·4 = 10 µs; they pipeline, so over h hops the last ends at 18h + 10.
TEST(ShortMessages, EachPacketOfAStoreAndForwardMessageHasItsOwnProtocol) {
  MachineConfig config = short_config(3);
  config.switching = Switching::store_and_forward;
  config.packet = 16;
  for (int partner : {1, 3, 7}) {
    const int h = std::popcount(static_cast<unsigned>(partner));
    const Time want = us(2 * (18.0 * h + 10));
    EXPECT_EQ(ping_pong_time(config, partner, 20), want) << "partner " << partner;
    EXPECT_EQ(2 * model::message_time(config, 20, h), want);
  }
  // 8 bytes: one short packet of 4 + 1.5·8 = 16 µs a hop.
  EXPECT_EQ(ping_pong_time(config, 7, 8), us(2 * 3 * 16.0));
}

// Direct exchange, sync none: Σ_{h=1..d} C(d, h)·(λs + δ' + δh + τs·m) while m <= short_limit, and with λ, τ above.
TEST(ShortMessages, DirectExchangeMatchesItsClosedFormOnBothSidesOfTheLimit) {
  constexpr int d = 3;
  const MachineConfig config = short_config(d);
  for (std::size_t m : {1, 8, 9}) {
    double want_us = 0;
    for (int k = 1; k < (1 << d); ++k) want_us += circuit_us(std::popcount(static_cast<unsigned>(k)), m);
    Machine machine(config);
    const std::size_t n = std::size_t{1} << d;
    auto report = machine.run([&](Node& node) {
      const auto send = bytes_of(n * m, static_cast<unsigned>(node.id()) + 1);
      std::vector<std::byte> recv(n * m);
      kernels::direct_exchange(node, send, recv, m);
    });
    EXPECT_EQ(report.makespan, us(want_us)) << "m = " << m;
    EXPECT_EQ(model::direct_exchange_time(config, m), us(want_us)) << "m = " << m;
    EXPECT_EQ(report.contention_events(), 0u);
  }
}

// The defaults leave every time as it was: λs and τs follow λ and τ, and set without a limit they change nothing.
TEST(ShortMessages, WithoutALimitTheShortKeysChangeNothing) {
  MachineConfig with_keys = round_config(2);
  with_keys.lambda_short = 1;
  with_keys.tau_short = 3;
  const MachineConfig plain = round_config(2);
  for (std::size_t m : {0, 1, 100}) {
    EXPECT_EQ(model::message_time(with_keys, m, 2), model::message_time(plain, m, 2)) << "m = " << m;
    EXPECT_EQ(model::message_time(plain, m, 2), us((m == 0 ? 7 : 10) + 2 + 2 + 0.5 * static_cast<double>(m)));
  }
  MachineConfig limit_only = round_config(2);
  limit_only.short_limit = 100;  // λs and τs unset: λ and τ
  for (std::size_t m : {0, 1, 100, 101}) {
    EXPECT_EQ(model::message_time(limit_only, m, 1), model::message_time(plain, m, 1)) << "m = " << m;
  }
}

}  // namespace
}  // namespace hcemu
