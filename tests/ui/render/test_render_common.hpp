#pragma once
// Shared by the rendering tests: small forward results computed by the core (kept with the
// stages layer's tests, the lowest that reads them).

#include "../stages/stage_results.hpp"
