#pragma once
/// \file
/// The random-graph generator: valid models drawn from the operation table, with nested IF and
/// WHILE, as conformance-corpus test models (cts::TestModel) whose main inputs carry values.
///
/// How a model grows. A subgraph is built one operation at a time. For each new operation the
/// generator picks an operation of the family being generated and one of its signatures, then
/// fills every input slot: an operand of that type the subgraph already has (a chain), or a new
/// input or constant whose shape leans on the operation's first input (same shape, its last
/// dimension, or random) and whose values suit the slot (the slot's closed set of codes,
/// small axes, dimensions of the first input for shape-like tensors). Scalars are constants.
/// The candidate is kept only if the model so far validates, prepares and runs with the plain
/// reference kernels (a trial run, which also gives the real output shapes); otherwise it is
/// dropped and another is drawn. What a signature allows is thus decided by nnhal's own
/// validation and shape inference, not by a second copy of the rules here.
///
/// Control flow. An IF takes a boolean [1] condition and one to three operands; its branches
/// are subgraphs built the same way (to depth 4), the else branch either the then branch itself
/// (a shared subgraph), another subgraph with outputs of the same types, or the then branch's
/// operations over other constant values. A WHILE carries an
/// INT32 [1] counter, which its condition compares with a constant bound (0 to 3 iterations),
/// and one or two operands, which its body transforms with operations drawn as above; a body
/// may concatenate a carried tensor with itself, so tensors grow every iteration. Subgraph
/// inputs and outputs, and temporaries, are declared with their real shape, with some
/// dimensions unknown, or with unknown rank.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cts/test_model.hpp"
#include "nnhal/core/half.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/registry.hpp"

namespace nnhal::random_graphs {

/// SplitMix64: a small, fast, well-mixed generator; the same seed gives the same models on
/// every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// A value in [0, n) (n > 0).
  std::uint32_t below(std::uint32_t n) { return n <= 1 ? 0 : static_cast<std::uint32_t>(next() % n); }
  /// True with probability `percent` / 100.
  bool chance(std::uint32_t percent) { return below(100) < percent; }
  template <class T>
  const T& pick(std::span<const T> items) {
    return items[below(static_cast<std::uint32_t>(items.size()))];
  }

 private:
  std::uint64_t state_;
};

/// What a trial run reports: success, or why not; the real shapes of main's outputs.
struct TrialResult {
  bool ok = false;
  std::string error;
  std::vector<std::vector<std::uint32_t>> shapes;
  /// Per output: some element is NaN. Such results are not kept: the corpus format cannot
  /// expect a NaN (SCHEMA.md: an expected NaN fails), so a saved model could not be replayed.
  std::vector<bool> nan;
};

/// Runs a candidate model (main inputs carry values; main outputs may have unknown shapes).
using TrialFn = std::function<TrialResult(const cts::TestModel&)>;

/// Counts of what one generated model contains.
struct GraphStats {
  std::size_t operations = 0;  ///< in all subgraphs, IF and WHILE included
  std::size_t if_nodes = 0;
  std::size_t while_nodes = 0;
  std::size_t depth = 0;  ///< deepest nesting of IF/WHILE (0: none)
  std::size_t shared_branches = 0;  ///< IFs whose two branches are one subgraph
  bool growing = false;  ///< some WHILE body concatenates a carried tensor with itself
};

struct GeneratorOptions {
  std::size_t max_depth = 4;       ///< nesting of IF/WHILE
  std::size_t main_operations = 6;  ///< at most, in main
  std::size_t inner_operations = 3;  ///< at most, in a referenced subgraph
  std::size_t attempts = 24;        ///< candidates tried per operation
  std::size_t max_control = 6;      ///< IF and WHILE operations per model, at most
  std::size_t max_operations = 32;  ///< operations per model (all subgraphs), at most
  std::size_t max_elements = 512;   ///< largest tensor a trial may produce
};

class Generator {
 public:
  /// `operations`: the operations the models may use besides IF and WHILE (the generator's
  /// family); `trial` runs candidates.
  Generator(std::uint64_t seed, std::span<const OperationType> operations, TrialFn trial,
            GeneratorOptions options = {})
      : rng_(seed), ops_(operations.begin(), operations.end()), trial_(std::move(trial)), options_(options) {}

  /// One model named `name`. Its main inputs carry their values; its main outputs list their
  /// real shapes but no values (the checker fills those).
  cts::TestModel generate(std::string name, GraphStats& stats) {
    model_ = {};
    model_.name = std::move(name);
    model_.minSupportedVersion = "UNKNOWN";
    stats_ = {};
    Builder main;
    main.is_main = true;
    grow(main, 1 + rng_.below(static_cast<std::uint32_t>(options_.main_operations)), 0);
    finish_main(main);
    stats = stats_;
    return model_;
  }

 private:
  /// A subgraph under construction, with the real shape of each of its operands (known from
  /// the last trial run; for inputs of a referenced subgraph, the shape of the outer operand).
  struct Builder {
    cts::TestSubgraph sg;
    bool is_main = false;
    std::vector<nnhal::Vector<std::uint32_t>> shape;
    /// Operands operations may read: inputs and operation outputs (constants are made per use).
    nnhal::Vector<std::uint32_t> readable;
    /// Outputs of operations, in order (candidates for subgraph outputs).
    nnhal::Vector<std::uint32_t> produced;
  };

  // ---- operands --------------------------------------------------------------------------

  static std::size_t elements(std::span<const std::uint32_t> dims) {
    std::size_t n = 1;
    for (std::uint32_t d : dims) n *= d;
    return n;
  }

  static bool quantized(OperandType t) {
    return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED ||
           t == OperandType::TENSOR_QUANT8_SYMM || t == OperandType::TENSOR_QUANT16_ASYMM ||
           t == OperandType::TENSOR_QUANT16_SYMM;
  }

  void set_quant(Operand& op) {
    op.scale = 0.0f;
    op.zeroPoint = 0;
    static constexpr float kScales[] = {0.5f, 0.25f, 0.125f, 1.0f, 0.0625f};
    const float scale = kScales[rng_.below(5)];
    switch (op.type) {
      case OperandType::TENSOR_QUANT8_ASYMM:
        op.scale = scale, op.zeroPoint = static_cast<std::int32_t>(rng_.below(256));
        break;
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
        op.scale = scale, op.zeroPoint = static_cast<std::int32_t>(rng_.below(256)) - 128;
        break;
      case OperandType::TENSOR_QUANT16_ASYMM:
        op.scale = 0.125f, op.zeroPoint = static_cast<std::int32_t>(rng_.below(65536));
        break;
      case OperandType::TENSOR_QUANT8_SYMM:
      case OperandType::TENSOR_QUANT16_SYMM:
        op.scale = scale;
        break;
      default:
        break;
    }
  }

  /// `count` values of `type`: small dyadic floats (so sums and products are exact in any
  /// order), small integers, any quantized code, booleans.
  std::vector<std::byte> random_values(OperandType type, std::size_t count) {
    std::vector<std::byte> out;
    for (std::size_t i = 0; i < count; ++i) {
      const double v = [&]() -> double {
        switch (type) {
          case OperandType::FLOAT32:
          case OperandType::TENSOR_FLOAT32:
          case OperandType::FLOAT16:
          case OperandType::TENSOR_FLOAT16:
            return (static_cast<double>(rng_.below(33)) - 16.0) / 4.0;
          case OperandType::TENSOR_QUANT8_ASYMM:
            return rng_.below(256);
          case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
          case OperandType::TENSOR_QUANT8_SYMM:
            return static_cast<double>(rng_.below(256)) - 128.0;
          case OperandType::TENSOR_QUANT16_ASYMM:
            return rng_.below(65536);
          case OperandType::TENSOR_QUANT16_SYMM:
            return static_cast<double>(rng_.below(65536)) - 32768.0;
          case OperandType::BOOL:
          case OperandType::TENSOR_BOOL8:
            return rng_.below(2);
          default:
            return static_cast<double>(rng_.below(9)) - 4.0;
        }
      }();
      cts::append_element(type, v, out);
    }
    return out;
  }

  static std::vector<std::byte> int32_values(std::span<const std::int32_t> values) {
    std::vector<std::byte> out;
    for (std::int32_t v : values) cts::append_element(OperandType::TENSOR_INT32, v, out);
    return out;
  }

  nnhal::Vector<std::uint32_t> random_shape() {
    nnhal::Vector<std::uint32_t> dims(1 + rng_.below(4));
    for (auto& d : dims) d = 1 + rng_.below(4);
    if (rng_.chance(3)) dims[rng_.below(static_cast<std::uint32_t>(dims.size()))] = 0;  // zero-sized
    return dims;
  }

  /// Adds an operand to `b` and returns its index.
  static std::uint32_t add_operand(Builder& b, cts::TestOperand t, nnhal::Vector<std::uint32_t> real_shape) {
    b.sg.operands.push_back(std::move(t));
    b.shape.push_back(std::move(real_shape));
    return static_cast<std::uint32_t>(b.sg.operands.size() - 1);
  }

  /// A new constant (or, in main, sometimes an input) for slot `slot` of type `type`, given the
  /// operation's first tensor input `first` (or nullopt).
  std::uint32_t new_operand(Builder& b, OperandType type, const Slot& slot, std::optional<std::uint32_t> first,
                            bool allow_input) {
    cts::TestOperand t;
    t.operand.type = type;
    set_quant(t.operand);
    nnhal::Vector<std::uint32_t> dims;
    const nnhal::Vector<std::uint32_t>* first_shape = first ? &b.shape[*first] : nullptr;
    if (is_tensor(type)) {
      const std::uint32_t how = rng_.below(10);
      const nnhal::Vector<std::uint32_t>* weights = last_weights_ ? &b.shape[*last_weights_] : nullptr;
      if (slot.role == Role::Weights && first_shape != nullptr && !first_shape->empty() && how < 9) {
        // A filter [out, h, w, in] or weights [units, in] over the first input's channels.
        const std::uint32_t in = first_shape->back();
        if (first_shape->size() == 4 && how < 4) dims = {1 + rng_.below(4), 1 + rng_.below(3), 1 + rng_.below(3), in};
        else if (first_shape->size() == 4) dims = {1, 1 + rng_.below(3), 1 + rng_.below(3), in * (1 + rng_.below(2))};
        else dims = {1 + rng_.below(4), in};
      } else if (slot.role == Role::Bias && weights != nullptr && !weights->empty() && how < 8) {
        dims = {how < 5 ? weights->front() : weights->back()};
      } else if (type == OperandType::TENSOR_INT32 && slot.role == Role::Parameter && first_shape != nullptr) {
        // Axes, begins, sizes, strides, paddings, block sizes: [rank], [rank, 2], [2], [2, 2].
        const auto rank = std::max<std::uint32_t>(static_cast<std::uint32_t>(first_shape->size()), 1);
        dims = how < 4 ? nnhal::Vector<std::uint32_t>{rank}
               : how < 6 ? nnhal::Vector<std::uint32_t>{rank, 2}
               : how < 7 ? nnhal::Vector<std::uint32_t>{2}
               : how < 8 ? nnhal::Vector<std::uint32_t>{2, 2}
                         : random_shape();
      } else if (first_shape != nullptr && !first_shape->empty() && how < 5) dims = *first_shape;
      else if (first_shape != nullptr && !first_shape->empty() && how < 7)
        dims = {rng_.chance(50) ? first_shape->back() : static_cast<std::uint32_t>(first_shape->size())};
      else if (!first && image_op_) dims = {1 + rng_.below(2), 2 + rng_.below(4), 2 + rng_.below(4), 1 + rng_.below(4)};
      else dims = random_shape();
      if (first && quantized(type) && b.sg.operands[*first].operand.type == type && rng_.chance(60)) {
        t.operand.scale = b.sg.operands[*first].operand.scale;
        t.operand.zeroPoint = b.sg.operands[*first].operand.zeroPoint;
      }
    }
    if (slot.role == Role::Bias && type == OperandType::TENSOR_INT32 && first && last_weights_) {
      // A quantized bias: scale = input scale * filter scale, zero point 0.
      t.operand.scale = b.sg.operands[*first].operand.scale * b.sg.operands[*last_weights_].operand.scale;
      t.operand.zeroPoint = 0;
    }
    t.operand.dimensions = dims;
    const std::size_t count = is_tensor(type) ? elements(dims) : 1;
    ValueSet values = slot.values;
    if (values == 0 && slot.role == Role::Activation) values = kFuseCodes;
    if (values == 0 && slot.role == Role::Padding) values = kPaddingCodes;
    if (values == 0 && (type == OperandType::BOOL)) values = kFlagValues;
    if (values != 0 && !is_tensor(type)) {
      std::vector<int> allowed;
      for (int v = 0; v < 32; ++v)
        if ((values >> v) & 1u) allowed.push_back(v);
      int v = allowed[rng_.below(static_cast<std::uint32_t>(allowed.size()))];
      if (slot.role == Role::Layout && rng_.chance(70)) v = 0;  // NHWC mostly
      cts::append_element(type, v, t.data);
    } else if (type == OperandType::INT32) {
      // Axes, counts, strides: small, often within the first input's rank.
      const auto rank = first_shape != nullptr ? static_cast<std::uint32_t>(first_shape->size()) : 4u;
      const std::uint32_t how = rng_.below(10);
      const std::int32_t v = how < 4   ? static_cast<std::int32_t>(rng_.below(std::max(rank, 1u)))
                             : how < 8 ? static_cast<std::int32_t>(1 + rng_.below(3))
                                       : static_cast<std::int32_t>(rng_.below(5)) - 1;
      cts::append_element(type, v, t.data);
    } else if (type == OperandType::FLOAT32 || type == OperandType::FLOAT16) {
      static constexpr double kFloats[] = {0.5, 1.0, 2.0, 0.25, 1.5};
      cts::append_element(type, kFloats[rng_.below(5)], t.data);
    } else if (type == OperandType::TENSOR_INT32 && first_shape != nullptr && rng_.chance(40)) {
      // Shape-like tensors (RESHAPE's shape, TILE's multiples, FILL's dimensions, paddings):
      // values taken from the first input's dimensions.
      std::vector<std::int32_t> v;
      for (std::size_t i = 0; i < count; ++i)
        v.push_back(first_shape->empty() ? 1 : static_cast<std::int32_t>((*first_shape)[i % first_shape->size()]));
      if (!v.empty() && rng_.chance(30)) v[rng_.below(static_cast<std::uint32_t>(v.size()))] = -1;
      t.data = int32_values(v);
    } else if (type == OperandType::TENSOR_INT32) {
      std::vector<std::int32_t> v(count);
      for (auto& x : v) x = static_cast<std::int32_t>(rng_.below(4));
      t.data = int32_values(v);
    } else {
      t.data = random_values(type, count);
    }
    const bool input = allow_input && is_tensor(type) && rng_.chance(45);
    t.operand.lifetime = input ? OperandLifeTime::SUBGRAPH_INPUT
                               : (rng_.chance(20) ? OperandLifeTime::CONSTANT_REFERENCE : OperandLifeTime::CONSTANT_COPY);
    if (t.data.empty() && !input) {
      // A zero-sized constant is not allowed: make it an input.
      if (!allow_input) return UINT32_MAX;
      t.operand.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    }
    const std::uint32_t index = add_operand(b, std::move(t), dims);
    if (b.sg.operands[index].operand.lifetime == OperandLifeTime::SUBGRAPH_INPUT) {
      b.sg.inputIndexes.push_back(index);
      b.readable.push_back(index);
    }
    return index;
  }

  /// An operand of `b` of exactly `type` that operations may read, or nullopt.
  std::optional<std::uint32_t> existing(const Builder& b, OperandType type, std::size_t rank = 0) {
    nnhal::Vector<std::uint32_t> c;
    for (std::uint32_t i : b.readable)
      if (b.sg.operands[i].operand.type == type && (rank == 0 || b.shape[i].size() == rank)) c.push_back(i);
    if (c.empty()) return std::nullopt;
    // Prefer recent operands: longer chains.
    const std::uint32_t n = static_cast<std::uint32_t>(c.size());
    const std::uint32_t k = rng_.chance(60) ? n - 1 - rng_.below(std::min(n, 2u)) : rng_.below(n);
    return c[k];
  }

  // ---- declared shapes -------------------------------------------------------------------

  /// How a temporary or a subgraph boundary operand is declared: its real shape (mostly), with
  /// some dimensions unknown, or with unknown rank.
  nnhal::Vector<std::uint32_t> declared(const nnhal::Vector<std::uint32_t>& real) {
    const std::uint32_t how = rng_.below(100);
    if (how < 60) return real;
    if (how < 85) {
      nnhal::Vector<std::uint32_t> d = real;
      for (auto& x : d)
        if (rng_.chance(50)) x = 0;
      return d;
    }
    return {};
  }

  // ---- trials ----------------------------------------------------------------------------

  /// The model to try for builder `b`: main (or, for a referenced subgraph under construction,
  /// that subgraph as main with its inputs given values of their real shapes), with `outputs`
  /// as main's outputs, declared of unknown shape (or as declared, with `keep_dims`).
  cts::TestModel trial_model(const Builder& b, const nnhal::Vector<std::uint32_t>& outputs, bool keep_dims = false) {
    cts::TestModel m;
    m.name = "trial";
    m.referenced = model_.referenced;
    m.main = b.sg;
    cts::TestSubgraph& sg = m.main;
    for (std::uint32_t in : sg.inputIndexes) {
      cts::TestOperand& t = sg.operands[in];
      if (!b.is_main) {
        t.operand.dimensions = b.shape[in];
        t.data = random_values(t.operand.type, is_tensor(t.operand.type) ? elements(b.shape[in]) : 1);
      }
    }
    sg.outputIndexes.clear();
    for (auto& t : sg.operands)
      if (t.operand.lifetime == OperandLifeTime::SUBGRAPH_OUTPUT) t.operand.lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
    for (std::uint32_t out : outputs) {
      sg.operands[out].operand.lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
      if (is_tensor(sg.operands[out].operand.type) && !keep_dims) sg.operands[out].operand.dimensions.clear();
      sg.outputIndexes.push_back(out);
    }
    count_consumers(sg);
    return m;
  }

  static void count_consumers(cts::TestSubgraph& sg) {
    for (auto& t : sg.operands) t.operand.numberOfConsumers = 0;
    for (const Operation& op : sg.operations)
      for (std::uint32_t in : op.inputs) ++sg.operands[in].operand.numberOfConsumers;
  }

  /// Runs the trial of `b` with `outputs` as outputs; on success records their real shapes and
  /// keeps the run only if no tensor is larger than the limit.
  bool try_outputs(Builder& b, const nnhal::Vector<std::uint32_t>& outputs) {
    const TrialResult r = trial_(trial_model(b, outputs));
    if (!r.ok || r.shapes.size() != outputs.size()) return false;
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      if (elements(r.shapes[k]) > options_.max_elements || r.nan[k]) return false;
      b.shape[outputs[k]].assign(r.shapes[k].begin(), r.shapes[k].end());
    }
    return true;
  }

  /// Rolls `b` and the referenced list back to a snapshot.
  struct Snapshot {
    Builder b;
    std::size_t referenced;
    GraphStats stats;
  };
  Snapshot snapshot(const Builder& b) const { return {b, model_.referenced.size(), stats_}; }
  void restore(Builder& b, const Snapshot& s) {
    b = s.b;
    model_.referenced.resize(s.referenced);
    stats_ = s.stats;
  }

  /// Declares the new outputs `outs` of `b`: as declared() says if the subgraph still runs so,
  /// else with their real shapes if it runs so, else of unknown rank (as in the trial that
  /// accepted them). Validation decides: e.g. CAST's output may not be known where its input
  /// is not, and an IF's output must be compatible with both branches.
  void declare_outputs(Builder& b, const nnhal::Vector<std::uint32_t>& outs) {
    for (std::uint32_t o : outs) b.sg.operands[o].operand.dimensions = declared(b.shape[o]);
    if (trial_(trial_model(b, outs, true)).ok) return;
    for (std::uint32_t o : outs) b.sg.operands[o].operand.dimensions = b.shape[o];
    if (trial_(trial_model(b, outs, true)).ok) return;
    for (std::uint32_t o : outs) b.sg.operands[o].operand.dimensions.clear();
  }

  // ---- operations ------------------------------------------------------------------------

  /// Tries to append one operation of the family to `b`.
  bool add_operation(Builder& b) {
    const OperationType type = ops_[rng_.below(static_cast<std::uint32_t>(ops_.size()))];
    const OperationInfo* info = find_operation(type);
    if (info == nullptr || info->signatures.empty()) return false;
    const Signature& s = info->signatures[rng_.below(static_cast<std::uint32_t>(info->signatures.size()))];
    // Operand counts: the signature's, a repeated slot once to three times; trailing optional
    // inputs dropped now and then (the slot list of the form with the fewest inputs).
    std::size_t n_in = s.inputs.size + (s.inputs.repeat >= 0 ? rng_.below(3) : 0);
    const std::size_t n_out = s.outputs.size + (s.outputs.repeat >= 0 ? rng_.below(3) : 0);
    if (!s.outputs.accepts_count(n_out)) return false;
    // The slot list of the form the signature describes: the implicit-padding form when its
    // layout positions hold BOOL (the rule of input_slots()), else the explicit one.
    std::span<const Slot> slots = info->inputs;
    if (!info->implicit_inputs.empty() && n_in <= info->implicit_inputs.size()) {
      std::size_t required = 0;
      bool layout_bool = true;
      for (std::size_t i = 0; i < info->implicit_inputs.size(); ++i) {
        const Slot& slot = info->implicit_inputs[i];
        required += (slot.flags & kSlotTrailing) == 0 ? 1 : 0;
        if (slot.role == Role::Layout && i < n_in)
          layout_bool = layout_bool && s.inputs.code_at(i, n_in) == static_cast<std::uint8_t>(OperandType::BOOL);
      }
      if (n_in >= required && layout_bool) slots = info->implicit_inputs;
    }
    Operation op;
    op.type = type;
    std::optional<std::uint32_t> first;
    last_weights_.reset();
    // Image operations (those with an implicit padding scheme) get rank-4 first inputs.
    image_op_ = false;
    for (const Slot& slot : info->inputs) image_op_ = image_op_ || slot.role == Role::Padding;
    for (const Slot& slot : info->implicit_inputs) image_op_ = image_op_ || slot.role == Role::Padding;
    const Slot kPlain{};
    for (std::size_t i = 0; i < n_in; ++i) {
      const std::uint8_t code = s.inputs.code_at(i, n_in);
      if (code == kAnyTypeCode) return false;
      const auto t = static_cast<OperandType>(code);
      const Slot& slot = i < slots.size() ? slots[i] : (slots.empty() ? kPlain : slots.back());
      std::optional<std::uint32_t> chosen;
      const bool data_slot = slot.role != Role::Parameter && slot.role != Role::Weights && slot.role != Role::Bias;
      if (is_tensor(t) && data_slot && rng_.chance(70))
        chosen = existing(b, t, !first && image_op_ ? 4 : 0);
      if (!chosen) {
        if ((slot.flags & kSlotOmittable) != 0 && rng_.chance(15)) {
          cts::TestOperand omitted;
          omitted.operand.type = t;
          omitted.operand.lifetime = OperandLifeTime::NO_VALUE;
          chosen = add_operand(b, std::move(omitted), {});
        } else {
          const std::uint32_t idx = new_operand(b, t, slot, first, b.is_main);
          if (idx == UINT32_MAX) return false;
          chosen = idx;
        }
      }
      if (!first && is_tensor(t) && b.sg.operands[*chosen].operand.lifetime != OperandLifeTime::NO_VALUE) first = chosen;
      if (slot.role == Role::Weights && is_tensor(t)) last_weights_ = chosen;
      op.inputs.push_back(*chosen);
    }
    nnhal::Vector<std::uint32_t> outs;
    for (std::size_t i = 0; i < n_out; ++i) {
      const std::uint8_t code = s.outputs.code_at(i, n_out);
      if (code == kAnyTypeCode) return false;
      cts::TestOperand t;
      t.operand.type = static_cast<OperandType>(code);
      t.operand.lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
      set_quant(t.operand);
      if (first && quantized(t.operand.type) && b.sg.operands[*first].operand.type == t.operand.type &&
          rng_.chance(60)) {
        t.operand.scale = b.sg.operands[*first].operand.scale;
        t.operand.zeroPoint = b.sg.operands[*first].operand.zeroPoint;
      }
      outs.push_back(add_operand(b, std::move(t), {}));
    }
    op.outputs = outs;
    if (type == OperationType::RANDOM_MULTINOMIAL && op.inputs.size() > 2) {
      // Seeds [0, 0] ask for a fresh random seed on every run (the kernel's documented choice):
      // runs could not agree. Any other pair gives the same samples every time.
      std::vector<std::byte>& seeds = b.sg.operands[op.inputs[2]].data;
      if (std::all_of(seeds.begin(), seeds.end(), [](std::byte x) { return x == std::byte{0}; }) && !seeds.empty())
        seeds[0] = std::byte{7};
    }
    return append_checked(b, std::move(op));
  }

  /// Appends `op` (its outputs already added to `b`) if the model still runs: records the
  /// outputs' real shapes, declares them, and makes them readable.
  bool append_checked(Builder& b, Operation op) {
    const nnhal::Vector<std::uint32_t> outs = op.outputs;
    b.sg.operations.push_back(std::move(op));
    if (!try_outputs(b, outs)) return false;
    declare_outputs(b, outs);
    for (std::uint32_t o : outs) {
      b.readable.push_back(o);
      b.produced.push_back(o);
    }
    ++stats_.operations;
    return true;
  }

  /// A copy of operand `from` of `outer` as an input or output of a referenced subgraph.
  cts::TestOperand boundary(const cts::TestOperand& from, OperandLifeTime lifetime, const nnhal::Vector<std::uint32_t>& real) {
    cts::TestOperand t;
    t.operand.type = from.operand.type;
    t.operand.scale = from.operand.scale;
    t.operand.zeroPoint = from.operand.zeroPoint;
    t.operand.lifetime = lifetime;
    t.operand.dimensions = is_tensor(from.operand.type) ? declared(real) : nnhal::Vector<std::uint32_t>{};
    return t;
  }

  /// A new referenced subgraph whose inputs mirror `inputs` of `outer`.
  Builder inner_builder(const Builder& outer, const nnhal::Vector<std::uint32_t>& inputs) {
    Builder in;
    for (std::uint32_t i : inputs) {
      const std::uint32_t idx =
          add_operand(in, boundary(outer.sg.operands[i], OperandLifeTime::SUBGRAPH_INPUT, outer.shape[i]), outer.shape[i]);
      in.sg.inputIndexes.push_back(idx);
      in.readable.push_back(idx);
    }
    return in;
  }

  /// Stores `b` as a referenced subgraph (outputs already chosen) and returns its index.
  std::uint32_t store(Builder& b) {
    count_consumers(b.sg);
    model_.referenced.push_back(b.sg);
    return static_cast<std::uint32_t>(model_.referenced.size() - 1);
  }

  std::uint32_t subgraph_operand(Builder& b, std::uint32_t index) {
    cts::TestOperand t;
    t.operand.type = OperandType::SUBGRAPH;
    t.operand.lifetime = OperandLifeTime::SUBGRAPH;
    cts::append_element(OperandType::SUBGRAPH, index, t.data);
    return add_operand(b, std::move(t), {});
  }

  /// Marks `outs` of inner builder `in` as its outputs, declared as `declared()` says.
  void set_outputs(Builder& in, const nnhal::Vector<std::uint32_t>& outs) {
    for (std::uint32_t o : outs) {
      in.sg.operands[o].operand.lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
      in.sg.operands[o].operand.dimensions = is_tensor(in.sg.operands[o].operand.type) ? declared(in.shape[o])
                                                                                   : nnhal::Vector<std::uint32_t>{};
      in.sg.outputIndexes.push_back(o);
    }
  }

  /// Picks from `b.produced` an operand of the same type and quantization as `like`.
  std::optional<std::uint32_t> matching(const Builder& b, const cts::TestOperand& like,
                                        const nnhal::Vector<std::uint32_t>& taken) {
    nnhal::Vector<std::uint32_t> c;
    for (std::uint32_t p : b.produced) {
      const Operand& o = b.sg.operands[p].operand;
      if (o.type == like.operand.type && o.scale == like.operand.scale && o.zeroPoint == like.operand.zeroPoint &&
          std::find(taken.begin(), taken.end(), p) == taken.end())
        c.push_back(p);
    }
    if (c.empty()) return std::nullopt;
    return c[rng_.below(static_cast<std::uint32_t>(c.size()))];
  }

  /// Operands of `b` an IF or WHILE can take (tensors with at least one element).
  nnhal::Vector<std::uint32_t> pick_data(Builder& b, std::uint32_t count) {
    nnhal::Vector<std::uint32_t> c;
    for (std::uint32_t i : b.readable)
      if (is_tensor(b.sg.operands[i].operand.type) && elements(b.shape[i]) > 0 && !b.shape[i].empty()) c.push_back(i);
    nnhal::Vector<std::uint32_t> out;
    for (std::uint32_t k = 0; k < count && !c.empty(); ++k) {
      const std::uint32_t at = rng_.below(static_cast<std::uint32_t>(c.size()));
      out.push_back(c[at]);
      c.erase(c.begin() + at);
    }
    return out;
  }

  /// Appends the control-flow operation `op` to `b` with outputs like `likes` (operands of
  /// subgraph `from`), and checks the whole model runs.
  bool finish_control(Builder& b, Operation op, const cts::TestSubgraph& from, const nnhal::Vector<std::uint32_t>& likes) {
    nnhal::Vector<std::uint32_t> outs;
    for (std::uint32_t l : likes) {
      cts::TestOperand t;
      t.operand.type = from.operands[l].operand.type;
      t.operand.scale = from.operands[l].operand.scale;
      t.operand.zeroPoint = from.operands[l].operand.zeroPoint;
      t.operand.lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
      outs.push_back(add_operand(b, std::move(t), {}));
    }
    op.outputs = outs;
    return append_checked(b, std::move(op));
  }

  bool add_if(Builder& b, std::size_t depth) {
    // The condition: a boolean [1] operand already there, or a new one.
    std::optional<std::uint32_t> cond;
    for (std::uint32_t i : b.readable)
      if (b.sg.operands[i].operand.type == OperandType::TENSOR_BOOL8 && b.shape[i] == nnhal::Vector<std::uint32_t>{1} &&
          rng_.chance(50))
        cond = i;
    if (!cond) {
      cts::TestOperand t;
      t.operand.type = OperandType::TENSOR_BOOL8;
      t.operand.dimensions = {1};
      t.data = random_values(OperandType::TENSOR_BOOL8, 1);
      t.operand.lifetime = b.is_main && rng_.chance(70) ? OperandLifeTime::SUBGRAPH_INPUT : OperandLifeTime::CONSTANT_COPY;
      cond = add_operand(b, std::move(t), {1});
      if (b.sg.operands[*cond].operand.lifetime == OperandLifeTime::SUBGRAPH_INPUT) {
        b.sg.inputIndexes.push_back(*cond);
        b.readable.push_back(*cond);
      }
    }
    const nnhal::Vector<std::uint32_t> data = pick_data(b, 1 + rng_.below(3));
    if (data.empty()) return false;
    stats_.depth = std::max(stats_.depth, depth + 1);

    Builder then_b = inner_builder(b, data);
    grow(then_b, 1 + rng_.below(static_cast<std::uint32_t>(options_.inner_operations)), depth + 1);
    if (then_b.produced.empty()) return false;
    nnhal::Vector<std::uint32_t> then_outs;
    for (std::uint32_t k = 0, n = 1 + rng_.below(2); k < n; ++k) {
      const std::uint32_t p = then_b.produced[rng_.below(static_cast<std::uint32_t>(then_b.produced.size()))];
      if (std::find(then_outs.begin(), then_outs.end(), p) == then_outs.end()) then_outs.push_back(p);
    }
    set_outputs(then_b, then_outs);
    const std::uint32_t then_index = store(then_b);
    const cts::TestSubgraph then_sg = model_.referenced[then_index];

    std::uint32_t else_index = then_index;
    if (!rng_.chance(30)) {
      const std::size_t referenced_before = model_.referenced.size();
      const GraphStats stats_before = stats_;
      Builder else_b = inner_builder(b, data);
      grow(else_b, 1 + rng_.below(static_cast<std::uint32_t>(options_.inner_operations)), depth + 1);
      nnhal::Vector<std::uint32_t> else_outs;
      for (std::uint32_t o : then_outs) {
        auto m = matching(else_b, then_sg.operands[o], else_outs);
        if (!m) break;
        else_outs.push_back(*m);
      }
      if (else_outs.size() == then_outs.size()) {
        set_outputs(else_b, else_outs);
        else_index = store(else_b);
      } else {
        // Not usable: drop what it added (its nested subgraphs) and its counts.
        model_.referenced.resize(referenced_before);
        stats_ = stats_before;
      }
    }
    if (else_index == then_index && rng_.chance(70)) {
      // No other subgraph with outputs of those types: the then branch's operations over other
      // constant values (when it has float or quantized constants).
      cts::TestSubgraph other = then_sg;
      bool changed = false;
      for (cts::TestOperand& t : other.operands) {
        const OperandType type = t.operand.type;
        const bool constant = t.operand.lifetime == OperandLifeTime::CONSTANT_COPY ||
                              t.operand.lifetime == OperandLifeTime::CONSTANT_REFERENCE;
        if (!constant || !is_tensor(type) || type == OperandType::TENSOR_INT32 || type == OperandType::TENSOR_BOOL8)
          continue;
        t.data = random_values(type, elements(t.operand.dimensions));
        changed = true;
      }
      if (changed) {
        model_.referenced.push_back(std::move(other));
        else_index = static_cast<std::uint32_t>(model_.referenced.size() - 1);
      }
    }
    if (else_index == then_index) ++stats_.shared_branches;

    Operation op;
    op.type = OperationType::IF;
    op.inputs = {*cond, subgraph_operand(b, then_index), subgraph_operand(b, else_index)};
    op.inputs.insert(op.inputs.end(), data.begin(), data.end());
    if (!finish_control(b, op, then_sg, then_sg.outputIndexes)) return false;
    ++stats_.if_nodes;
    return true;
  }

  /// An INT32 [1] constant (or, in main, sometimes an input) holding `value`.
  std::uint32_t int_tensor(Builder& b, std::int32_t value, bool may_be_input) {
    cts::TestOperand t;
    t.operand.type = OperandType::TENSOR_INT32;
    t.operand.dimensions = {1};
    const std::int32_t v[] = {value};
    t.data = int32_values(v);
    t.operand.lifetime = may_be_input && b.is_main && rng_.chance(40) ? OperandLifeTime::SUBGRAPH_INPUT
                                                                       : OperandLifeTime::CONSTANT_COPY;
    const std::uint32_t idx = add_operand(b, std::move(t), {1});
    if (b.sg.operands[idx].operand.lifetime == OperandLifeTime::SUBGRAPH_INPUT) {
      b.sg.inputIndexes.push_back(idx);
      b.readable.push_back(idx);
    }
    return idx;
  }

  std::uint32_t int_scalar(Builder& b, std::int32_t value) {
    cts::TestOperand t;
    t.operand.type = OperandType::INT32;
    cts::append_element(OperandType::INT32, value, t.data);
    t.operand.lifetime = OperandLifeTime::CONSTANT_COPY;
    return add_operand(b, std::move(t), {});
  }

  /// Appends to `b` an operation producing one output of type like operand `like` from input
  /// operands `inputs` (used for the counter, the loop condition and growing tensors).
  std::uint32_t append(Builder& b, OperationType type, nnhal::Vector<std::uint32_t> inputs, OperandType out_type,
                       const Operand* quant_like) {
    cts::TestOperand t;
    t.operand.type = out_type;
    t.operand.lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
    if (quant_like != nullptr) t.operand.scale = quant_like->scale, t.operand.zeroPoint = quant_like->zeroPoint;
    const std::uint32_t out = add_operand(b, std::move(t), {});
    b.sg.operations.push_back(Operation{type, std::move(inputs), {out}});
    ++stats_.operations;
    return out;
  }

  bool add_while(Builder& b, std::size_t depth) {
    const nnhal::Vector<std::uint32_t> carried_data = pick_data(b, 1 + rng_.below(2));
    if (carried_data.empty()) return false;
    nnhal::Vector<std::uint32_t> input_only;
    if (rng_.chance(30)) input_only = pick_data(b, 1);
    stats_.depth = std::max(stats_.depth, depth + 1);

    const std::uint32_t counter = int_tensor(b, 0, true);
    nnhal::Vector<std::uint32_t> all{counter};
    all.insert(all.end(), carried_data.begin(), carried_data.end());
    all.insert(all.end(), input_only.begin(), input_only.end());
    const std::int32_t bound = static_cast<std::int32_t>(rng_.below(4));

    // Condition: counter < bound.
    Builder cond_b = inner_builder(b, all);
    {
      const std::uint32_t limit = int_tensor(cond_b, bound, false);
      const std::uint32_t less =
          append(cond_b, OperationType::LESS, {cond_b.sg.inputIndexes[0], limit}, OperandType::TENSOR_BOOL8, nullptr);
      cond_b.shape[less] = {1};
      cond_b.sg.operands[less].operand.lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
      cond_b.sg.operands[less].operand.dimensions = {1};
      cond_b.sg.outputIndexes.push_back(less);
    }
    const std::uint32_t cond_index = store(cond_b);

    // Body: counter + 1, then operations over the other inputs; each carried operand's next
    // value is an operation output of its type and quantization (its shape may change).
    Builder body = inner_builder(b, all);
    const std::uint32_t one = int_tensor(body, 1, false);
    const std::uint32_t next = append(body, OperationType::ADD, {body.sg.inputIndexes[0], one, int_scalar(body, 0)},
                                      OperandType::TENSOR_INT32, nullptr);
    body.shape[next] = {1};
    nnhal::Vector<std::uint32_t> outs{next};
    // A body may grow a carried tensor: CONCATENATION(x, x, axis 0).
    const bool grow_one = rng_.chance(30);
    nnhal::Vector<std::uint32_t> grown;
    if (grow_one) {
      const std::uint32_t x = body.sg.inputIndexes[1];
      const Operand& xo = body.sg.operands[x].operand;
      const OperandType xt = xo.type;
      const Operand xq = xo;
      const std::uint32_t g = append(body, OperationType::CONCATENATION, {x, x, int_scalar(body, 0)}, xt, &xq);
      nnhal::Vector<std::uint32_t> s = body.shape[x];
      if (!s.empty()) s[0] *= 2;
      body.shape[g] = s;
      grown.push_back(g);
    }
    grow(body, rng_.below(static_cast<std::uint32_t>(options_.inner_operations) + 1), depth + 1);
    for (std::size_t k = 1; k <= carried_data.size(); ++k) {
      const cts::TestOperand& like = body.sg.operands[body.sg.inputIndexes[k]];
      std::optional<std::uint32_t> m;
      if (k == 1 && grow_one) m = grown[0];
      else m = matching(body, like, outs);
      if (!m) return false;
      outs.push_back(*m);
    }
    set_outputs(body, outs);
    // A carried operand whose shape changes needs unknown dimensions on both sides.
    const bool changes = grow_one || [&] {
      for (std::size_t k = 1; k < outs.size(); ++k)
        if (body.shape[outs[k]] != body.shape[body.sg.inputIndexes[k]]) return true;
      return false;
    }();
    if (changes) {
      stats_.growing = stats_.growing || grow_one;
      for (std::size_t k = 0; k < outs.size(); ++k) {
        auto& in_dims = body.sg.operands[body.sg.inputIndexes[k]].operand.dimensions;
        auto& out_dims = body.sg.operands[outs[k]].operand.dimensions;
        if (k == 0) continue;
        std::fill(in_dims.begin(), in_dims.end(), 0u);
        std::fill(out_dims.begin(), out_dims.end(), 0u);
        auto& c_dims = model_.referenced[cond_index].operands[model_.referenced[cond_index].inputIndexes[k]].operand.dimensions;
        std::fill(c_dims.begin(), c_dims.end(), 0u);
      }
    }
    const std::uint32_t body_index = store(body);

    Operation op;
    op.type = OperationType::WHILE;
    op.inputs = {subgraph_operand(b, cond_index), subgraph_operand(b, body_index)};
    op.inputs.insert(op.inputs.end(), all.begin(), all.end());
    const cts::TestSubgraph body_sg = model_.referenced[body_index];
    if (!finish_control(b, op, body_sg, body_sg.outputIndexes)) return false;
    ++stats_.while_nodes;
    return true;
  }

  /// Appends up to `count` operations to `b` (at nesting depth `depth`).
  void grow(Builder& b, std::uint32_t count, std::size_t depth) {
    for (std::uint32_t k = 0; k < count; ++k) {
      for (std::size_t attempt = 0; attempt < options_.attempts; ++attempt) {
        const Snapshot s = snapshot(b);
        if (stats_.operations >= options_.max_operations) return;
        const bool control = depth < options_.max_depth && stats_.if_nodes + stats_.while_nodes < options_.max_control &&
                             rng_.chance(depth == 0 ? 35 : 30) && !b.readable.empty();
        bool ok = false;
        if (control) ok = rng_.chance(50) ? add_if(b, depth) : add_while(b, depth);
        else ok = add_operation(b);
        if (ok) break;
        restore(b, s);
      }
    }
  }

  /// Main's outputs: every operation output no operation reads (at least one output).
  void finish_main(Builder& b) {
    // Each output is declared with its real shape (the corpus lists real shapes); one whose
    // real shape is not compatible with what its producer declares (an IF whose branches
    // declare other shapes, CAST's equal-shape rule) stays a temporary.
    count_consumers(b.sg);
    for (std::size_t k = b.produced.size(); k-- > 0;) {
      const std::uint32_t p = b.produced[k];
      cts::TestOperand& t = b.sg.operands[p];
      if (t.operand.numberOfConsumers != 0 && k + 1 != b.produced.size()) continue;
      const nnhal::Vector<std::uint32_t> before = t.operand.dimensions;
      t.operand.dimensions = b.shape[p];
      nnhal::Vector<std::uint32_t> outs = b.sg.outputIndexes;
      outs.push_back(p);
      const TrialResult r = trial_(trial_model(b, outs, true));
      if (r.ok && r.nan.size() == outs.size() && std::find(r.nan.begin(), r.nan.end(), true) == r.nan.end())
        b.sg.outputIndexes = outs;
      else
        t.operand.dimensions = before;
    }
    if (b.sg.outputIndexes.empty()) {
      // No operation could be added, or none of their outputs can be declared: one ADD of a
      // new input with itself keeps the model valid.
      cts::TestOperand t;
      t.operand.type = OperandType::TENSOR_FLOAT32;
      t.operand.dimensions = {2};
      t.data = random_values(OperandType::TENSOR_FLOAT32, 2);
      t.operand.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
      const std::uint32_t x = add_operand(b, std::move(t), {2});
      b.sg.inputIndexes.push_back(x);
      const std::uint32_t y = append(b, OperationType::ADD, {x, x, int_scalar(b, 0)}, OperandType::TENSOR_FLOAT32, nullptr);
      b.sg.operands[y].operand.dimensions = {2};
      b.shape[y] = {2};
      b.sg.outputIndexes.push_back(y);
      count_consumers(b.sg);
    }
    for (std::uint32_t o : b.sg.outputIndexes) b.sg.operands[o].operand.lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    model_.main = b.sg;
  }

  Rng rng_;
  std::vector<OperationType> ops_;
  TrialFn trial_;
  GeneratorOptions options_;
  cts::TestModel model_;
  GraphStats stats_;
  /// The weights operand of the operation being drawn, once chosen (shapes its bias).
  std::optional<std::uint32_t> last_weights_;
  /// The operation being drawn takes an image (it has an implicit padding form).
  bool image_op_ = false;
};

}  // namespace nnhal::random_graphs
