#include "mhaviz/core/high/high.hpp"

#include "high_rows.hpp"

int core_high() { return core_high_rows() + 1; }
