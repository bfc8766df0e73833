#pragma once
/// \file
/// Validation of an untrusted Request against a (validated) Model (HAL13.md b.8, e.4), reading
/// every operation's row: validate_request. The rules themselves, and the options, are in
/// nnhal/validate/request_rows.hpp.

#include "nnhal/ops/registry.hpp"
#include "nnhal/validate/request_rows.hpp"

namespace nnhal {

/// Validates `request` against `model` (which must already have passed validate_model).
/// `scratch`, when given, is reused, so a caller that keeps it (an execution) validates without
/// allocating once it has grown.
inline Status validate_request(const Request& request, const Model& model,
                               const RequestValidationOptions& options = {},
                               detail::RequestScratch* scratch = nullptr) {
  return detail::validate_request_rows(request, model, options, all_operation_rows(), scratch);
}

}  // namespace nnhal
