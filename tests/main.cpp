// The one translation unit that holds doctest's implementation and main(); every other file in
// the suite only declares test cases.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
