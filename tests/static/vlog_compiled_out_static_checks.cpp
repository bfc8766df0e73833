// NNHAL_VLOG_ENABLED=0 (the firmware setting): every log statement compiles to nothing. A
// function using NNHAL_VLOG is still a constant expression, so no call to the logger and no
// evaluation of its arguments can remain, and no tag is ever on.
#define NNHAL_VLOG_ENABLED 0
#include "nnhal/util/log.hpp"

namespace {

constexpr int log_and_count() {
  int evaluated = 0;
  NNHAL_VLOG(prepare, "%d", ++evaluated);
  NNHAL_VLOG(control, "%d %d", ++evaluated, ++evaluated);
  return evaluated;
}

static_assert(log_and_count() == 0);
static_assert(!nnhal::vlog::enabled(nnhal::vlog::Tag::validate));
static_assert(nnhal::vlog::tags() == 0);

}  // namespace
