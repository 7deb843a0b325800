#pragma once
// The built-in kernel families, each a list of rows of the public type hcemu::Algorithm (hcemu/algorithm.hpp): what
// the `hcemu` command, the tests and the docs know of an algorithm. The registries, `--help`, the error messages,
// `--algo all` and the docs' algorithm tables are read off these rows.
//
// The harness is a layer above the kernels (hcemu_kernels holds only kernels written against the node API): it
// builds machines, makes data, runs cases and verifies them. Rows live in src/harness/*_family.cpp.
#include "hcemu/algorithm.hpp"

namespace hcemu::harness {

using hcemu::Algorithm;
using hcemu::CasesFn;
using hcemu::families;
using hcemu::find_family;
using hcemu::KernelCase;
using hcemu::KernelFamily;
using hcemu::KernelResult;
using hcemu::kMaxCaseBytes;
using hcemu::ParamKind;
using hcemu::Params;
using hcemu::ParamSpec;
using hcemu::RunFn;
using hcemu::TimeFn;

// The built-in families, in the order `hcemu run --help` lists them (registry.cpp).
std::vector<KernelFamily> builtin_families();

// Each family's rows, defined next to its harness (src/harness/*_family.cpp).
KernelFamily exchange_family();
KernelFamily transpose_family();
KernelFamily broadcast_family();
KernelFamily allgather_family();
KernelFamily histogram_family();
KernelFamily reduce_family();
KernelFamily matmul_family();
KernelFamily long_send_family();
KernelFamily scatter_family();
KernelFamily gather_family();
KernelFamily permutation_family();

// While held, rows registered (a library's static initialisers, run by dlopen) wait; released, they are registered,
// or dropped (a library refused after it was loaded: built against another hcemu).
void hold_registrations();
void release_registrations(bool keep);

}  // namespace hcemu::harness
