#pragma once
/// \file
/// nnhal's version (kept equal to the CMake project version).

#define NNHAL_VERSION_MAJOR 0
#define NNHAL_VERSION_MINOR 1
#define NNHAL_VERSION_PATCH 0
#define NNHAL_VERSION_STRING "0.1.0"
