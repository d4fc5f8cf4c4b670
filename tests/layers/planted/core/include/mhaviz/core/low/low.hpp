#pragma once
#include "mhaviz/core/high/high.hpp"  // planted: core_low may not include core_high

int core_low();
