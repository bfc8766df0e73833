#pragma once
/// \file
/// The kernels of MobileNetKernels (network.hpp), for the one file of a program that prepares
/// the networks: include this, then use mobilenet::MobileNetKernels with a Device or
/// PreparedModel::prepare.

#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/average_pool_2d.hpp"
#include "nnhal/kernels/conv_2d.hpp"
#include "nnhal/kernels/depthwise_conv_2d.hpp"
#include "nnhal/kernels/dequantize.hpp"
#include "nnhal/kernels/fully_connected.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/softmax.hpp"
#include "network.hpp"
