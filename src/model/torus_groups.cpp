// The node groups of Suh, Shin & An §3.1 (SG_p) and §3.2 (G_p), and the active sets of the T1.x family.
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/torus_exchange.hpp"

namespace hcemu::model {

namespace {

int mod(int v, int n) { return ((v % n) + n) % n; }

// Node (x, y) lies on the diagonal y ≡ x + shift or on the anti-diagonal x + y ≡ sum (mod 2^p).
bool on_diagonals(int x, int y, int big, int shift, int sum) {
  return mod(y - x - shift, big) == 0 || mod(x + y - sum, big) == 0;
}

}  // namespace

bool torus_in_group(int p, int j, Coordinates c) {
  if (p < 2 || j < 1 || j > (1 << (p - 1))) {
    throw UsageError("torus group G_" + std::to_string(p) + "(" + std::to_string(j) + ") does not exist (p >= 2, " +
                     "1 <= j <= 2^(p-1))");
  }
  const int big = 1 << p;
  // SG_p(1): y ≡ x or x + y ≡ 2^p - 1.
  if (j == 1) return on_diagonals(c.x, c.y, big, 0, big - 1);
  // SG_p(2): y ≡ x - 2^(p-1) or x + y ≡ 2^(p-1) - 1 (the printed "2^p - 1" would repeat G_p(1)).
  if (j == 2) return on_diagonals(c.x, c.y, big, -(big / 2), big / 2 - 1);
  // G_p(2k+1), 1 <= k <= 2^(p-2) - 1: the diagonals shifted by -2k on even rows and by +2k on odd rows
  // ("y ≡ x - 2^p + 2k" is y ≡ x + 2k); G_p(2k+2) the same with the parities of y swapped.
  const int k = (j - 1) / 2;
  const bool odd_group = j % 2 == 1;
  const bool even_row = c.y % 2 == 0;
  const bool shifted_down = on_diagonals(c.x, c.y, big, -2 * k, big - 2 * k - 1);
  const bool shifted_up = on_diagonals(c.x, c.y, big, 2 * k, 2 * k - 1);
  return (even_row == odd_group) ? shifted_down : shifted_up;
}

int torus_group_of(int p, Coordinates c) {
  for (int j = 1; j <= (1 << (p - 1)); ++j)
    if (torus_in_group(p, j, c)) return j;
  throw UsageError("torus_group_of: (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ") is in no G_" +
                   std::to_string(p));
}

bool torus_in_active_set(int q, Coordinates c) { return q == 0 || torus_in_group(q + 1, 1, c); }

int torus_max_x(int d) { return d >= 3 ? d - 3 : 0; }

}  // namespace hcemu::model
