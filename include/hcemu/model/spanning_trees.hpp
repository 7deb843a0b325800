#pragma once
// The embeddings and spanning trees of Johnsson & Ho (1987) §3 and §4.1, as pure functions of relative addresses
// (a node's id XOR the source's, so that every tree is the XOR translation of the tree rooted at 0). The kernels of
// include/hcemu/kernels/primitives.hpp and reduction.hpp route along them; the closed forms of
// include/hcemu/model/primitives.hpp count their loads. docs/kernels/broadcast.md spells the definitions out.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace hcemu::model {

// ----- Binary-reflected Gray code (Johnsson & Ho §3) ----------------------------------------------------------------

// G(i) = i ^ (i >> 1): successive codes differ in one bit, and so do G(2^n - 1) and G(0).
inline std::uint32_t gray(std::uint32_t i) { return i ^ (i >> 1); }
// IG, the inverse: the prefix XOR of g's bits from the top.
std::uint32_t inverse_gray(std::uint32_t g);
// The bit in which G(i) and G(i + 1) differ: the position of the rightmost 0-bit of i. For the wrap-around from
// G(2^n - 1) to G(0) (i = 2^n - 1, all ones) it is n - 1.
int gray_transition(std::uint32_t i, int n);

// ----- Spanning Balanced n-Tree (Johnsson & Ho §4.1.5; Ho & Johnsson, Yale RR-508) ----------------------------------
// Relative addresses of n bits. R(i) rotates right by one bit; base(i) is the smallest j for which R^j(i) is the
// least of all rotations (bit j of i is then 1 for i != 0). M(i, j) is the run of 0-bits cyclically below bit j;
// children(i) = { i ^ 2^m : m in M(i, j), base(i ^ 2^m) = base(i) } (all n neighbours for i = 0), and parent(i)
// flips the first 1-bit cyclically below bit j (bit j itself when i = 2^j). Every node sits at depth popcount(i),
// and node i != 0 lies in the subtree of the root's child 2^base(i).
int sbnt_base(std::uint32_t i, int n);
std::uint32_t sbnt_parent(std::uint32_t i, int n);  // i != 0
std::vector<std::uint32_t> sbnt_children(std::uint32_t i, int n);
// Every node's children at once, ascending (children[i]); computed once per n and kept.
const std::vector<std::vector<std::uint32_t>>& sbnt_children(int n);
// The binomial tree of dimension order 0, 1, ..., n - 1 (§3.2): parent(i) clears i's highest 1-bit, children(i) set
// one of the bits above it. Every node sits at depth popcount(i) too. The table: every node's children, ascending.
std::uint32_t sbt_parent(std::uint32_t i, int n);  // i != 0
const std::vector<std::vector<std::uint32_t>>& sbt_children(int n);
// Nodes in the subtree of every relative address, itself included (index = address).
std::vector<std::size_t> sbnt_subtree_sizes(int n);

// ----- n Rotated Spanning Binomial Trees (Johnsson & Ho §4.1.4) ----------------------------------------------------
// Tree k (k = 0..n-1) is the binomial tree of dimension order k, k + 1, ..., k - 1 (mod n): the parent of r != 0
// clears r's 1-bit that comes last in that order, and r's subtree is r with any set of the dimensions after that
// one added. Every node sits at depth popcount(r) in every tree.
// The dimension of r's 1-bit that comes last in tree k's order (-1 for r = 0).
int rotated_sbt_last_dim(int k, std::uint32_t r, int n);
// The dimensions after it in tree k's order, as a mask (all n for r = 0): r's subtree is r | s for every s within.
std::uint32_t rotated_sbt_free_dims(int k, std::uint32_t r, int n);

// How many blocks cross each port in each step when N = 2^n translated SBnTs carry one block per (source,
// destination) pair, identical at every node by translation: loads[s - 1][i] for step s = 1..n and port i.
//  - broadcast (all-to-all broadcast, SBnT-b(n,N)): #{ r : popcount(r) = s, parent(r) = r ^ 2^i };
//  - personalized (all-to-all personalized, SBnT-p(n,N)): the subtree sizes of those r summed.
// The all-to-all reduction along the same trees runs the broadcast loads backwards (step s carries step n + 1 - s).
std::vector<std::vector<std::size_t>> sbnt_broadcast_loads(int n);
std::vector<std::vector<std::size_t>> sbnt_personalized_loads(int n);

// ----- Two-rooted complete binary tree (Johnsson & Ho §4.1.6) -----------------------------------------------------
// "A complete binary tree cannot be embedded in a Boolean cube of the same size preserving adjacency, but it can be
// embedded such that only one tree edge is mapped into a path of length two, and the intermediate node is the
// 'extra' node of the cube." The 2^n nodes form two adjacent roots u and v, each the parent of a complete binary
// tree of 2^(n-1) - 1 nodes; hung from u (relative address 0) it is a spanning tree of the n-cube in which u's
// children are v and u's own child, and v's one child is the complete binary tree's second child of u, reached
// through the extra node v. Every other inner node has two children. The paper cites the embedding and does not
// give it; this one is built by induction on n (docs/kernels/broadcast.md).
std::uint32_t two_rooted_parent(std::uint32_t r, int n);  // r != 0
// r's children, ascending by dimension, but u's (r = 0) with v first: v's side is one link deeper (n levels below u,
// against n - 1 on the other side).
std::vector<std::uint32_t> two_rooted_children(std::uint32_t r, int n);
// v, the other root (n >= 1).
std::uint32_t two_rooted_other_root(int n);

// ----- Tree schedules: N translated spanning trees (or forests of n trees, one part of every block each) and the
// step in which each tree edge is crossed ----------------------------------------------------------------------------
// Tree k carries part k of every block (the d-way split of hcemu/kernels: the first m mod trees parts one byte
// longer); a node r != 0 (relative address) receives its part from parent(k, r) in step step(k, r), 0-based, always
// later than its parent's. By translation every node sends and receives the same loads in every step.
struct TreeSchedule {
  int n = 0;      // the (sub)cube's dimensions
  int trees = 1;  // parts of a block
  int steps = 0;
  std::function<std::uint32_t(int tree, std::uint32_t r)> parent;  // r != 0
  std::function<int(int tree, std::uint32_t r)> step;              // r != 0
};

// SBnT-b(n,N) (§4.2.3): one SBnT, node r receiving in step popcount(r) - 1, all ports at once.
TreeSchedule sbnt_all_port_schedule(int n);
// SBT-b(n,N) (§4.2.3, Table 2): the binomial tree of dimension order 0, 1, ..., n - 1 (parent: r without its highest
// bit), node r receiving in step popcount(r) - 1, all ports at once. Port i carries C(i, s) blocks in step s: the
// N/2 tree edges on one cube edge that keep pipelining from gaining more than a factor 2.
TreeSchedule sbt_all_port_schedule(int n);
// The one-port schedules of Table 2 (SBnT-b(1,N), nRSBT-b(1,N)) and Table 1 (nRSBT-b(1,1)): two sweeps through the
// dimensions, 0, 1, ..., n - 1, 0, 1, ..., n - 2, one port in each of the 2n - 1 steps. A tree whose paths cross the
// dimensions in cyclic order from some dimension j (j, j + 1, ..., n - 1, 0, ..., j - 1) fits: the edge across e
// goes in step e when e >= j and n + e otherwise, and all parts that cross one dimension in one step go as one
// message. The SBnT's path to r starts at base(r) and goes round cyclically (parent flips the first 1-bit below
// base, going down); the rotated binomial tree k's at k.
TreeSchedule sbnt_one_port_schedule(int n);
TreeSchedule nrsbt_one_port_schedule(int n);

// loads[s][i][k]: how many blocks' part k cross port i in step s, at every node.
std::vector<std::vector<std::vector<std::size_t>>> tree_schedule_loads(const TreeSchedule& schedule);

}  // namespace hcemu::model
