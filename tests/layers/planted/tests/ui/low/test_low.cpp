// A test of layer low that includes a header of the layer above it (planted).
#include "low/low.hpp"
#include "high/high.hpp"

int main() { return 0; }
