// Tagged verbose logging (include/nnhal/util/log.hpp): the NNHAL_VLOG list syntax, run-time
// tag selection, the caller's sink, arguments left unevaluated for a tag that is off, and
// truncation of long lines. (Reading NNHAL_VLOG from the environment is checked by ctest
// running nnhal_cts with and without it; the compiled-out build by tests/static.)
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/util/log.hpp"
#include "nnhal/validate/model.hpp"

namespace vlog = nnhal::vlog;
using vlog::Tag;

namespace {

struct Captured {
  std::vector<std::pair<Tag, std::string>> lines;
};

void capture(Tag tag, std::string_view message, void* user) {
  static_cast<Captured*>(user)->lines.emplace_back(tag, std::string(message));
}

/// Sets tags and a capturing sink for one test, and restores "no tags, stderr sink" after.
struct Scope {
  Captured captured;
  explicit Scope(std::uint32_t tags) {
    vlog::set_tags(tags);
    vlog::set_sink(&capture, &captured);
  }
  ~Scope() {
    vlog::set_tags(0);
    vlog::set_sink(nullptr);
  }
};

constexpr std::uint32_t bit(Tag t) { return static_cast<std::uint32_t>(t); }

}  // namespace

TEST_CASE("vlog::parse_tags reads NNHAL_VLOG lists like debug.nn.vlog") {
  static_assert(vlog::parse_tags("all") == vlog::kAllTags);
  CHECK(vlog::parse_tags("") == 0);
  CHECK(vlog::parse_tags("1") == vlog::kAllTags);
  CHECK(vlog::parse_tags("prepare") == bit(Tag::prepare));
  CHECK(vlog::parse_tags("prepare,control") == (bit(Tag::prepare) | bit(Tag::control)));
  CHECK(vlog::parse_tags(" cache , device ") == (bit(Tag::cache) | bit(Tag::device)));
  CHECK(vlog::parse_tags("validate,bogus,execute") == (bit(Tag::validate) | bit(Tag::execute)));
  CHECK(vlog::parse_tags("bogus") == 0);
  CHECK(vlog::parse_tags("all,prepare") == vlog::kAllTags);
  CHECK(vlog::parse_tags(",,") == 0);
  for (std::uint32_t b = 1; b <= vlog::kAllTags; b <<= 1)
    CHECK(vlog::parse_tags(vlog::tag_name(static_cast<Tag>(b))) == b);
}

TEST_CASE("NNHAL_VLOG writes the lines of the enabled tags to the caller's sink") {
  Scope scope(bit(Tag::prepare) | bit(Tag::control));
  CHECK(vlog::tags() == (bit(Tag::prepare) | bit(Tag::control)));
  CHECK(vlog::enabled(Tag::prepare));
  CHECK_FALSE(vlog::enabled(Tag::cache));
  NNHAL_VLOG(prepare, "subgraph %d: %s", 3, "ready");
  NNHAL_VLOG(cache, "not written %d", 1);
  NNHAL_VLOG(control, "WHILE: %llu iteration(s)", 42ull);
  REQUIRE(scope.captured.lines.size() == 2);
  CHECK(scope.captured.lines[0].first == Tag::prepare);
  CHECK(scope.captured.lines[0].second == "subgraph 3: ready");
  CHECK(scope.captured.lines[1].first == Tag::control);
  CHECK(scope.captured.lines[1].second == "WHILE: 42 iteration(s)");
}

TEST_CASE("NNHAL_VLOG does not evaluate its arguments when the tag is off") {
  Scope scope(0);
  int evaluated = 0;
  NNHAL_VLOG(execute, "%d", ++evaluated);
  CHECK(evaluated == 0);
  CHECK(scope.captured.lines.empty());
  vlog::set_tags(bit(Tag::execute));
  NNHAL_VLOG(execute, "%d", ++evaluated);
  CHECK(evaluated == 1);
  CHECK(scope.captured.lines.size() == 1);
}

TEST_CASE("NNHAL_VLOG truncates a long line instead of overflowing") {
  Scope scope(vlog::kAllTags);
  const std::string long_text(3 * NNHAL_VLOG_LINE_CAPACITY, 'x');
  NNHAL_VLOG(validate, "%s!", long_text.c_str());
  REQUIRE(scope.captured.lines.size() == 1);
  CHECK(scope.captured.lines[0].second.size() == NNHAL_VLOG_LINE_CAPACITY - 1);
  CHECK(scope.captured.lines[0].second == std::string(NNHAL_VLOG_LINE_CAPACITY - 1, 'x'));
}

TEST_CASE("library code logs under its tags") {
  constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{4}});
  const auto y = b.input<F32>({{4}});
  const auto none = b.scalar<nnhal::OperandType::INT32>(0);
  b.output(b.operation<nnhal::OperationType::ADD, F32>({{4}}, x, y, none));
  nnhal::Model model = std::move(b).model();
  Scope scope(bit(Tag::validate) | bit(Tag::prepare) | bit(Tag::execute));

  REQUIRE(nnhal::validate_model(model));
  REQUIRE(nnhal::PreparedModel::prepare(model));
  bool validated = false, prepared = false;
  for (const auto& [tag, line] : scope.captured.lines) {
    validated = validated || (tag == Tag::validate && line.find("model valid: HAL 1.0") != std::string::npos);
    prepared = prepared || (tag == Tag::prepare && line.find("prepared: HAL 1.0, 1 subgraph(s)") != std::string::npos);
  }
  CHECK(validated);
  CHECK(prepared);

  // A defect is logged under `validate` with the message validation returns.
  scope.captured.lines.clear();
  model.main.operations[0].inputs[1] = 99;  // no such operand
  const auto rejected = nnhal::validate_model(model);
  REQUIRE_FALSE(rejected);
  REQUIRE_FALSE(scope.captured.lines.empty());
  CHECK(scope.captured.lines.back().first == Tag::validate);
  CHECK(scope.captured.lines.back().second == std::string("model rejected: ") + rejected.error().c_str());
}
