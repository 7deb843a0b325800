#pragma once
// Matrix multiplication A <- C × D + E with real doubles or floats on the cube: Johnsson & Ho (1987) §5, every
// algorithm of hcemu/model/matmul.hpp, built from the primitives of primitives.hpp, reduction.hpp, exchange.hpp and
// transpose.hpp. Every node passes its own blocks, laid out as model/matmul.hpp says (model::matmul_grid gives the
// grid, model::block_shape the sizes); on return `a` holds the node's block of A. Arithmetic is charged with
// Node::compute, counting what the paper counts (a multiply-add is 2 flops, adding E one per element, a reduction's
// additions one per element); local rearrangements are charged ρ with Node::copy. The makespan equals
// model::matmul_time where that gives a time. docs/kernels/matmul.md describes every algorithm.
//
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
#include <span>
#include <vector>

#include "hcemu/model/matmul.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels {

using model::Grid;
using model::MatmulAlgorithm;
using model::MatmulOptions;
using model::MatmulShape;

// Blocks are given as doubles; with options.element_bytes = 4 the nodes round them to floats on entry (free: the
// paper's matrices are floats from the start), hold, multiply and send floats, and widen A back on return.
struct MatmulBlocks {
  std::span<const double> c, d, e;  // this node's blocks of C, D and E
  std::span<double> a;              // its block of A, written
};

// Runs options.algorithm, a collective with a tag space of its own (CollectiveScope). Throws UsageError as
// model::check_matmul does, or if a block has the wrong size.
void matmul(Node& node, const MatmulShape& shape, const MatmulOptions& options, const MatmulBlocks& blocks);

// K = options.products matrix multiplications A_m <- C_m × D_m + E_m, m < K, of one shape, pipelined one after
// another through the outer product's wave fronts (options.algorithm = outer_product; Johnsson & Ho 1987 §5.2.1:
// "a total of K matrix multiplications only require (K+1)√N + 1 steps"): products[m] holds this node's blocks of the
// m-th. A collective like matmul; throws UsageError as model::check_matmul does, if products does not hold K sets,
// or if a block has the wrong size.
void pipelined_outer_products(Node& node, const MatmulShape& shape, const MatmulOptions& options,
                              std::span<const MatmulBlocks> products);

// ----- Laying matrices out and checking them ------------------------------------------------------------------------

// Block (k, l) of a column-major rows × cols matrix for the node `node` of the grid, zero-padded.
std::vector<double> extract_block(std::span<const double> matrix, std::size_t rows, std::size_t cols, Grid grid,
                                  int node);
// Writes node `node`'s block back into the column-major matrix (its padding is dropped).
void place_block(std::span<const double> block, std::span<double> matrix, std::size_t rows, std::size_t cols,
                 Grid grid, int node);
// A = C × D + E, the sequential reference (inner products summed in order of k).
std::vector<double> serial_matmul(const MatmulShape& shape, std::span<const double> c, std::span<const double> d,
                                  std::span<const double> e);

}  // namespace hcemu::kernels
