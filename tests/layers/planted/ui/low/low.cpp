#include "low/low.hpp"

#include "high/high.hpp"  // planted: low may not include high

int low() { return high() - 1; }
