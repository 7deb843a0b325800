#pragma once
// A node's kernel that overflows its stack faults on the guard page below it (runtime/stack_pool.hpp for the task
// engine, the thread's own guard for os_threads). Without help the process dies of a bare SIGSEGV; with this
// handler, installed once per process, it first says which node overflowed, how large its stack was and which key
// to raise. Any other fault goes on to the handler that was there before (or the default action). Sanitizer builds
// keep the sanitizer's own report instead.
#include <cstddef>

namespace hcemu::detail::stack_overflow {

// Once per process; later calls do nothing.
void install();

// On the thread about to run node `node`'s code, whose stack is [bottom, bottom + bytes); node -1: none from here
// on. Gives the thread an alternate signal stack the first time (the handler cannot run on the stack that overflowed).
void running(int node, const void* bottom, std::size_t bytes);

// The same for the calling thread's own stack (one OS thread per node).
void running_on_this_thread(int node);

}  // namespace hcemu::detail::stack_overflow
