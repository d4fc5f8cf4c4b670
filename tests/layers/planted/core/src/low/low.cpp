#include "mhaviz/core/low/low.hpp"

#include "high/high_rows.hpp"  // planted: core_low may not include core_high

int core_low() { return core_high_rows() - 1; }
