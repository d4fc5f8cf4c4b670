#pragma once
#include "mhaviz/core/low/low.hpp"

int core_high_rows();
