// Validation rules of the shape, indexing and reduction rows (ops/common/value_rules.hpp and
// the rows' validate functions): each rule is broken once in an otherwise valid one-operation
// model, which model validation must reject with INVALID_ARGUMENT naming the operation and the
// operand; the unbroken model validates. What validation cannot decide (non-constant values,
// unknown ranks) must still validate.

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::malformed::shape_ops {

namespace {

/// A one-operation model built operand by operand; constants go to operandValues.
class OneOp {
 public:
  explicit OneOp(OperationType type) : type_(type) {}

  /// A model input tensor.
  OneOp& in(OperandType type, nnhal::Vector<std::uint32_t> dims, float scale = 0.0f) {
    Operand op = make_operand(type, std::move(dims), kInput);
    op.scale = scale;
    inputs_.push_back(add(op));
    model_.main.inputIndexes.push_back(inputs_.back());
    return *this;
  }
  /// A constant TENSOR_INT32.
  OneOp& ints(std::vector<std::int32_t> values, nnhal::Vector<std::uint32_t> dims) {
    const auto at = static_cast<std::uint32_t>(model_.operandValues.size());
    const auto bytes = static_cast<std::uint32_t>(values.size() * sizeof(std::int32_t));
    model_.operandValues.resize(at + bytes);
    if (bytes != 0) std::memcpy(model_.operandValues.data() + at, values.data(), bytes);
    inputs_.push_back(add(copy_constant(OperandType::TENSOR_INT32, std::move(dims), at, bytes)));
    return *this;
  }
  /// A constant scalar.
  template <OperandType T>
  OneOp& scalar(element_t<T> v) {
    const std::uint32_t at = append_value(model_, v);
    inputs_.push_back(add(copy_constant(T, {}, at, sizeof v)));
    return *this;
  }
  OneOp& i32(std::int32_t v) { return scalar<OperandType::INT32>(v); }
  OneOp& flag(bool v) { return scalar<OperandType::BOOL>(v ? 1 : 0); }
  /// A model output.
  OneOp& out(OperandType type, nnhal::Vector<std::uint32_t> dims = {}, float scale = 0.0f) {
    Operand op = make_operand(type, std::move(dims), kOutput);
    op.scale = scale;
    outputs_.push_back(add(op));
    model_.main.outputIndexes.push_back(outputs_.back());
    return *this;
  }

  Expected<HalVersion> validate() {
    Model m = model_;
    m.main.operations = {Operation{type_, inputs_, outputs_}};
    fix_consumers(m);
    return validate_model(m);
  }

 private:
  std::uint32_t add(const Operand& op) {
    model_.main.operands.push_back(op);
    return static_cast<std::uint32_t>(model_.main.operands.size() - 1);
  }

  OperationType type_;
  Model model_;
  nnhal::Vector<std::uint32_t> inputs_, outputs_;
};

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;

/// `good` validates; `bad` is rejected with INVALID_ARGUMENT and a message naming the operation
/// and `operand`.
void check_rule(OneOp good, OneOp bad, const char* operation, const char* operand) {
  CAPTURE(operation);
  CAPTURE(operand);
  auto ok = good.validate();
  CHECK_MESSAGE(ok.has_value(), (ok ? "" : std::string(ok.error().message())));
  auto e = bad.validate();
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error().status() == ErrorStatus::INVALID_ARGUMENT);
  const std::string msg(e.error().message());
  CAPTURE(msg);
  CHECK(msg.find(operation) != std::string::npos);
  CHECK(msg.find(operand) != std::string::npos);
}

}  // namespace

TEST_CASE("malformed shape ops: TRANSPOSE perm") {
  auto m = [](std::vector<std::int32_t> perm, nnhal::Vector<std::uint32_t> dims) {
    return OneOp(OperationType::TRANSPOSE).in(F32, {2, 3, 4}).ints(std::move(perm), std::move(dims)).out(F32);
  };
  check_rule(m({2, 0, 1}, {3}), m({2, 0, 0}, {3}), "TRANSPOSE", "perm");  // repeated
  check_rule(m({2, 0, 1}, {3}), m({3, 0, 1}, {3}), "TRANSPOSE", "perm");  // out of range
  check_rule(m({2, 0, 1}, {3}), m({1, 0}, {2}), "TRANSPOSE", "perm");     // wrong length
  check_rule(m({2, 0, 1}, {3}), m({2, 0, 1}, {3, 1}), "TRANSPOSE", "perm");  // not 1-D
}

TEST_CASE("malformed shape ops: SQUEEZE axes, EXPAND_DIMS axis") {
  auto sq = [](std::int32_t axis) {
    return OneOp(OperationType::SQUEEZE).in(F32, {1, 3, 1}).ints({axis}, {1}).out(F32);
  };
  check_rule(sq(-1), sq(3), "SQUEEZE", "axes");
  auto ex = [](std::int32_t axis) { return OneOp(OperationType::EXPAND_DIMS).in(F32, {2, 3}).i32(axis).out(F32); };
  check_rule(ex(-3), ex(3), "EXPAND_DIMS", "axis");
  check_rule(ex(2), ex(-4), "EXPAND_DIMS", "axis");
}

TEST_CASE("malformed shape ops: PAD / PAD_V2 paddings and pad value") {
  for (OperationType op : {OperationType::PAD, OperationType::PAD_V2}) {
    const bool v2 = op == OperationType::PAD_V2;
    const char* name = v2 ? "PAD_V2" : "PAD";
    auto m = [&](std::vector<std::int32_t> pads, nnhal::Vector<std::uint32_t> dims) {
      OneOp o(op);
      o.in(F32, {2, 3}).ints(std::move(pads), std::move(dims));
      if (v2) o.scalar<OperandType::FLOAT32>(1.5f);
      return o.out(F32);
    };
    check_rule(m({0, 1, 2, 0}, {2, 2}), m({0, -1, 2, 0}, {2, 2}), name, "paddings");  // negative
    check_rule(m({0, 1, 2, 0}, {2, 2}), m({0, 1, 2, 0}, {4}), name, "paddings");      // not [rank, 2]
    check_rule(m({0, 1, 2, 0}, {2, 2}), m({0, 1, 2, 0, 0, 0}, {3, 2}), name, "paddings");
  }
  auto q = [](std::int32_t value) {
    return OneOp(OperationType::PAD_V2).in(QA8, {2, 3}, 0.5f).ints({0, 1, 2, 0}, {2, 2}).i32(value).out(QA8, {}, 0.5f);
  };
  check_rule(q(255), q(256), "PAD_V2", "pad_value");
  check_rule(q(0), q(-1), "PAD_V2", "pad_value");
}

TEST_CASE("malformed shape ops: STRIDED_SLICE begin / end / strides") {
  auto m = [](std::vector<std::int32_t> strides, nnhal::Vector<std::uint32_t> begin_dims = {2}) {
    const std::size_t nb = begin_dims[0];
    return OneOp(OperationType::STRIDED_SLICE)
        .in(F32, {3, 4})
        .ints(std::vector<std::int32_t>(nb, 0), std::move(begin_dims))
        .ints({3, 4}, {2})
        .ints(std::move(strides), {2})
        .i32(0)
        .i32(0)
        .i32(0)
        .out(F32);
  };
  check_rule(m({1, 2}), m({1, 0}), "STRIDED_SLICE", "strides");
  check_rule(m({1, -1}), m({1, 1}, {3}), "STRIDED_SLICE", "begin");
}

TEST_CASE("malformed shape ops: TILE multiples, SPLIT axis and num_splits") {
  auto tile = [](std::vector<std::int32_t> m, nnhal::Vector<std::uint32_t> d) {
    return OneOp(OperationType::TILE).in(F32, {2, 3}).ints(std::move(m), std::move(d)).out(F32);
  };
  check_rule(tile({2, 1}, {2}), tile({2, -1}, {2}), "TILE", "multiples");
  check_rule(tile({2, 1}, {2}), tile({2, 1, 1}, {3}), "TILE", "multiples");
  auto split = [](std::int32_t axis, std::int32_t n, int outputs) {
    OneOp o(OperationType::SPLIT);
    o.in(F32, {4, 6}).i32(axis).i32(n);
    for (int i = 0; i < outputs; ++i) o.out(F32);
    return o;
  };
  check_rule(split(1, 2, 2), split(2, 2, 2), "SPLIT", "axis");
  check_rule(split(-1, 3, 3), split(-1, 2, 3), "SPLIT", "num_splits");
}

TEST_CASE("malformed shape ops: BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND blocks and paddings") {
  auto b2s = [](std::vector<std::int32_t> block, nnhal::Vector<std::uint32_t> dims = {2}) {
    return OneOp(OperationType::BATCH_TO_SPACE_ND).in(F32, {4, 2, 2, 1}).ints(std::move(block), std::move(dims)).out(F32);
  };
  check_rule(b2s({2, 2}), b2s({2, 0}), "BATCH_TO_SPACE_ND", "block_shape");
  check_rule(b2s({2, 2}), b2s({2, 2, 2}, {3}), "BATCH_TO_SPACE_ND", "block_shape");
  auto s2b = [](std::vector<std::int32_t> block, std::vector<std::int32_t> pads,
                nnhal::Vector<std::uint32_t> pad_dims = {2, 2}) {
    return OneOp(OperationType::SPACE_TO_BATCH_ND)
        .in(F32, {1, 4, 4, 1})
        .ints(std::move(block), {2})
        .ints(std::move(pads), std::move(pad_dims))
        .flag(false)
        .out(F32);
  };
  check_rule(s2b({2, 2}, {0, 0, 1, 1}), s2b({-2, 2}, {0, 0, 1, 1}), "SPACE_TO_BATCH_ND", "block_shape");
  check_rule(s2b({2, 2}, {0, 0, 1, 1}), s2b({2, 2}, {0, 0, -1, 1}), "SPACE_TO_BATCH_ND", "paddings");
  check_rule(s2b({2, 2}, {0, 0, 1, 1}), s2b({2, 2}, {0, 0, 1, 1}, {4}), "SPACE_TO_BATCH_ND", "paddings");
  // Input rank 4 where known.
  auto rank3 = OneOp(OperationType::BATCH_TO_SPACE_ND).in(F32, {4, 2, 2}).ints({2, 2}, {2}).out(F32);
  auto e = rank3.validate();
  REQUIRE_FALSE(e);
  CHECK(std::string(e.error().message()).find("BATCH_TO_SPACE_ND") != std::string::npos);
}

TEST_CASE("malformed shape ops: DEPTH_TO_SPACE / SPACE_TO_DEPTH block_size, CHANNEL_SHUFFLE") {
  for (OperationType op : {OperationType::DEPTH_TO_SPACE, OperationType::SPACE_TO_DEPTH}) {
    const char* name = op == OperationType::DEPTH_TO_SPACE ? "DEPTH_TO_SPACE" : "SPACE_TO_DEPTH";
    auto m = [op](std::int32_t bs) { return OneOp(op).in(F32, {1, 4, 4, 4}).i32(bs).out(F32); };
    check_rule(m(2), m(0), name, "block_size");
    auto rank3 = OneOp(op).in(F32, {4, 4, 4}).i32(2).out(F32);
    CHECK_FALSE(rank3.validate());
  }
  auto cs = [](std::int32_t groups, std::int32_t axis) {
    return OneOp(OperationType::CHANNEL_SHUFFLE).in(F32, {2, 6}).i32(groups).i32(axis).out(F32);
  };
  check_rule(cs(3, -1), cs(0, -1), "CHANNEL_SHUFFLE", "num_groups");
  check_rule(cs(3, 1), cs(3, 2), "CHANNEL_SHUFFLE", "axis");
}

TEST_CASE("malformed shape ops: GATHER, EMBEDDING_LOOKUP, HASHTABLE_LOOKUP indices and shapes") {
  auto gather = [](std::int32_t axis, std::vector<std::int32_t> idx) {
    const auto n = static_cast<std::uint32_t>(idx.size());
    return OneOp(OperationType::GATHER).in(F32, {3, 5}).i32(axis).ints(std::move(idx), {n}).out(F32);
  };
  check_rule(gather(1, {0, 4}), gather(2, {0, 1}), "GATHER", "axis");
  check_rule(gather(-1, {0, 4}), gather(-1, {0, 5}), "GATHER", "indices");
  check_rule(gather(0, {2}), gather(0, {-1}), "GATHER", "indices");

  auto emb = [](std::vector<std::int32_t> lookups, nnhal::Vector<std::uint32_t> ldims) {
    return OneOp(OperationType::EMBEDDING_LOOKUP).ints(std::move(lookups), std::move(ldims)).in(F32, {3, 2}).out(F32);
  };
  check_rule(emb({0, 2}, {2}), emb({0, 3}, {2}), "EMBEDDING_LOOKUP", "lookups");
  check_rule(emb({0, 2}, {2}), emb({0, 2}, {1, 2}), "EMBEDDING_LOOKUP", "lookups");
  auto emb_rank1 = OneOp(OperationType::EMBEDDING_LOOKUP).ints({0}, {1}).in(F32, {3}).out(F32);
  auto e = emb_rank1.validate();
  REQUIRE_FALSE(e);
  CHECK(std::string(e.error().message()).find("values") != std::string::npos);

  auto ht = [](std::uint32_t keys) {
    return OneOp(OperationType::HASHTABLE_LOOKUP)
        .in(I32, {2})
        .in(I32, {keys})
        .in(F32, {3, 2})
        .out(F32)
        .out(QA8, {}, 1.0f);
  };
  check_rule(ht(3), ht(4), "HASHTABLE_LOOKUP", "keys");
}

TEST_CASE("malformed shape ops: ARGMAX / ARGMIN axis, TOPK_V2 k") {
  for (OperationType op : {OperationType::ARGMAX, OperationType::ARGMIN}) {
    auto m = [op](std::int32_t axis) { return OneOp(op).in(F32, {2, 3}).i32(axis).out(I32); };
    check_rule(m(-2), m(2), op == OperationType::ARGMAX ? "ARGMAX" : "ARGMIN", "axis");
  }
  auto topk = [](std::int32_t k) { return OneOp(OperationType::TOPK_V2).in(F32, {2, 3}).i32(k).out(F32).out(I32); };
  check_rule(topk(3), topk(4), "TOPK_V2", "k");
  check_rule(topk(1), topk(0), "TOPK_V2", "k");
}

TEST_CASE("malformed shape ops: reduction axes") {
  for (OperationType op : {OperationType::REDUCE_SUM, OperationType::REDUCE_MAX, OperationType::MEAN}) {
    const bool mean = op == OperationType::MEAN;
    auto m = [&](std::vector<std::int32_t> axes, nnhal::Vector<std::uint32_t> dims) {
      OneOp o(op);
      o.in(F32, {2, 3, 4}).ints(std::move(axes), std::move(dims));
      if (mean)
        o.i32(1);
      else
        o.flag(true);
      return o.out(F32);
    };
    const char* name = mean ? "MEAN" : op == OperationType::REDUCE_SUM ? "REDUCE_SUM" : "REDUCE_MAX";
    check_rule(m({0, -1, -1}, {3}), m({0, 3}, {2}), name, "axes");
    check_rule(m({0, -3}, {2}), m({0, -4}, {2}), name, "axes");
    check_rule(m({0, 1}, {2}), m({0, 1}, {1, 2}), name, "axes");
  }
}

TEST_CASE("malformed shape ops: values known only at execution still validate") {
  // Non-constant perm, paddings, block sizes, indices and k; unknown input rank.
  CHECK(OneOp(OperationType::TRANSPOSE).in(F32, {2, 3}).in(I32, {2}).out(F32).validate());
  CHECK(OneOp(OperationType::PAD).in(F32, {}).in(I32, {0, 2}).out(F32).validate());
  CHECK(OneOp(OperationType::GATHER).in(F32, {3, 5}).i32(0).in(I32, {4}).out(F32).validate());
  CHECK(OneOp(OperationType::SPACE_TO_BATCH_ND).in(F32, {1, 4, 4, 1}).in(I32, {2}).in(I32, {2, 2}).out(F32).validate());
  auto topk = OneOp(OperationType::TOPK_V2);
  topk.in(F32, {2, 0}).i32(7).out(F32).out(I32);  // last dimension unknown: k only checked > 0
  CHECK(topk.validate());
}

}  // namespace nnhal::test::malformed::shape_ops
