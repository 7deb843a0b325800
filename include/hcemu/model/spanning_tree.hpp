#pragma once
// The spanning balanced n-tree (SBnT) of Johnsson & Ho (1987) §3.5 (after their report on spanning graphs for
// optimum broadcasting and personalized communication): a spanning tree of the n-cube rooted at 0 whose n subtrees
// (one per neighbour of the root) hold about (N - 1)/n nodes each, and in which every node sits at depth
// popcount(address), so that every tree path is a shortest path. For another root, XOR every address with it.
//
// With R the one-bit right rotation of an n-bit address, base(i) is the smallest j for which R^j(i) is least among
// i's rotations (bit j of i is then 1); the parent of i != 0 is i with its first 1-bit cyclically below bit base(i)
// cleared (i with bit j cleared when j is its only 1-bit). docs/kernels/scatter.md gives the details.
#include <cstdint>
#include <vector>

namespace hcemu::model {

// base(i) of Johnsson & Ho §3.5, for an n-bit i != 0.
int sbnt_base(std::uint32_t i, int n);

// The parent of i != 0 in the SBnT of the n-cube rooted at 0.
std::uint32_t sbnt_parent(std::uint32_t i, int n);

// Every node's children, ascending (children[i]); computed once per n.
const std::vector<std::vector<std::uint32_t>>& sbnt_children(int n);

}  // namespace hcemu::model
