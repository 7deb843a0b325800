#pragma once
// How the command ends (issue 5): 0 success, 1 a run that failed verification or errored, 2 bad usage or config.
#include <string>

#include "hcemu/errors.hpp"

namespace hcemu::cli {

enum ExitCode : int { kExitOk = 0, kExitRunFailed = 1, kExitUsage = 2 };

// Bad usage that is not about a config key (a bad argument, a file that cannot be read or written) is a
// hcemu::UsageError, as the library's own: both are a caller asking for something that cannot be done.

}  // namespace hcemu::cli
