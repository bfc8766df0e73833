// compile-cost case include_only: the cost of the umbrella header alone.
#include <nnhal/nnhal.hpp>

int main() { return 0; }
