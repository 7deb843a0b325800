#pragma once
// Everything a user of hcemu includes.
#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/node.hpp"
#include "hcemu/report.hpp"
#include "hcemu/time.hpp"
