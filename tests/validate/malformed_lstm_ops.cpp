// Malformed LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and BIDIRECTIONAL_SEQUENCE_LSTM models whose
// faults are the reference's runtime checks that declared shapes and constant scalars already
// show at prepare (LSTMCell::CheckInputTensorDimensions, BidirectionalSequenceLSTM::Prepare):
// weight, bias, peephole, projection, layer-norm and state shapes, input ranks, an output size
// that differs from the cell count without projection, the auxiliary input's shape, the output
// count against merge_outputs, the activation code and negative or NaN clips. Each model
// validates (its operand types match a signature) but preparing it fails with an error naming
// the operation; the valid neighbour of each case prepares. The optional-group rules the rows
// check at validation are covered by tests/ops/recurrent_table.cpp and sequence_table.cpp.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "validate/one_op_fixture.hpp"

namespace nnhal::test::malformed::lstm_suite {

namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
using Shape = nnhal::Vector<std::uint32_t>;

/// One cell's declared shapes (batch 2, input 3, 4 cells, output 5 through a projection).
struct CellShapes {
  Shape w[4] = {{4, 3}, {4, 3}, {4, 3}, {4, 3}};
  Shape r[4] = {{4, 5}, {4, 5}, {4, 5}, {4, 5}};
  Shape peep[3] = {{4}, {4}, {4}};
  Shape bias[4] = {{4}, {4}, {4}, {4}};
  Shape proj{5, 4}, proj_bias{5};
  bool projection = true;
  Shape ln[4] = {{4}, {4}, {4}, {4}};
  Shape state{2, 5}, cell_state{2, 4};
};

void add_cell(OneOp& op, const CellShapes& c) {
  for (const Shape& s : c.w) op.tensor(F32, s);
  for (const Shape& s : c.r) op.tensor(F32, s);
  for (const Shape& s : c.peep) op.tensor(F32, s);
  for (const Shape& s : c.bias) op.tensor(F32, s);
  if (c.projection) {
    op.tensor(F32, c.proj).tensor(F32, c.proj_bias);
  } else {
    op.omitted(F32).omitted(F32);
  }
}

struct Lstm {
  Shape input{2, 3};
  CellShapes cell;
  std::int32_t activation = 4;
  float cell_clip = 0.0f, proj_clip = 0.0f;
};

OneOp lstm(const Lstm& k) {
  OneOp op(OperationType::LSTM);
  op.tensor(F32, k.input);
  add_cell(op, k.cell);
  op.tensor(F32, k.cell.state).tensor(F32, k.cell.cell_state);
  op.ints({k.activation}).f32(k.cell_clip).f32(k.proj_clip);
  for (const Shape& s : k.cell.ln) op.tensor(F32, s);
  for (int i = 0; i < 4; ++i) op.output(F32);
  return op;
}

struct Sequence {
  Shape input{3, 2, 3};  // [time 3, batch 2, input 3], time-major
  bool time_major = true;
  CellShapes cell;
  std::int32_t activation = 4;
};

OneOp sequence(const Sequence& k) {
  OneOp op(OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM);
  op.tensor(F32, k.input);
  add_cell(op, k.cell);
  op.tensor(F32, k.cell.state).tensor(F32, k.cell.cell_state);
  op.ints({k.activation}).f32(0.0f).f32(0.0f).flag(k.time_major);
  for (const Shape& s : k.cell.ln) op.tensor(F32, s);
  for (int i = 0; i < 3; ++i) op.output(F32);
  return op;
}

struct Bidirectional {
  Shape input{3, 2, 3};
  CellShapes fw, bw;
  bool aux_input = false, aux_weights = false;
  Shape aux{3, 2, 3};
  Shape aux_w[8] = {{4, 3}, {4, 3}, {4, 3}, {4, 3}, {4, 3}, {4, 3}, {4, 3}, {4, 3}};
  bool merge = false;
  int outputs = 2;
};

OneOp bidirectional(const Bidirectional& k) {
  OneOp op(OperationType::BIDIRECTIONAL_SEQUENCE_LSTM);
  op.tensor(F32, k.input);
  add_cell(op, k.fw);
  add_cell(op, k.bw);
  op.tensor(F32, k.fw.state).tensor(F32, k.fw.cell_state).tensor(F32, k.bw.state).tensor(F32, k.bw.cell_state);
  if (k.aux_input) {
    op.tensor(F32, k.aux);
  } else {
    op.omitted(F32);
  }
  for (const Shape& s : k.aux_w) {
    if (k.aux_weights) {
      op.tensor(F32, s);
    } else {
      op.omitted(F32);
    }
  }
  op.ints({4}).f32(0.0f).f32(0.0f).flag(k.merge).flag(true);
  for (const Shape& s : k.fw.ln) op.tensor(F32, s);
  for (const Shape& s : k.bw.ln) op.tensor(F32, s);
  for (int i = 0; i < k.outputs; ++i) op.output(F32);
  return op;
}

}  // namespace

TEST_CASE("LSTM: malformed shapes and scalars are refused at prepare") {
  const char* name = "LSTM";
  check_prepares(lstm({}));
  {
    Lstm k;
    k.input = {2, 3, 1};
    check_refused(lstm(k), name, "input 0");
  }
  {
    Lstm k;
    k.cell.w[1] = {4, 2};
    check_refused(lstm(k), name, "input 2");
  }
  {
    Lstm k;
    k.cell.r[1] = {4, 4};
    check_refused(lstm(k), name, "input 6");
  }
  {
    Lstm k;
    k.cell.peep[1] = {3};
    check_refused(lstm(k), name, "input 10");
  }
  {
    Lstm k;
    k.cell.bias[1] = {5};
    check_refused(lstm(k), name, "input 13");
  }
  {
    Lstm k;
    k.cell.proj = {5, 3};
    check_refused(lstm(k), name, "input 16");
  }
  {
    Lstm k;
    k.cell.proj_bias = {4};
    check_refused(lstm(k), name, "input 17");
  }
  {
    Lstm k;
    k.cell.state = {2, 4};
    check_refused(lstm(k), name, "input 18");
  }
  {
    Lstm k;
    k.cell.cell_state = {1, 4};
    check_refused(lstm(k), name, "input 19");
  }
  {
    Lstm k;
    k.cell.ln[2] = {5};
    check_refused(lstm(k), name, "input 25");
  }
  {
    Lstm k;  // without projection the output (recurrent weights' columns) must be the cell count
    k.cell.projection = false;
    check_refused(lstm(k), name, "output size");
    for (Shape& s : k.cell.r) s = {4, 4};
    k.cell.state = {2, 4};
    check_prepares(lstm(k));
  }
  for (std::int32_t act : {2, 5, 7}) {
    Lstm k;
    k.activation = act;
    check_model_invalid(lstm(k).model(), {name, "activation"});  // a constant: refused at validation
  }
  for (float clip : {-0.5f, std::numeric_limits<float>::quiet_NaN()}) {
    Lstm k;
    k.cell_clip = clip;
    check_refused(lstm(k), name, "clip");
    k.cell_clip = 0.0f;
    k.proj_clip = clip;
    check_refused(lstm(k), name, "clip");
  }
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM: malformed shapes are refused at prepare") {
  const char* name = "UNIDIRECTIONAL_SEQUENCE_LSTM";
  check_prepares(sequence({}));
  {
    Sequence k;
    k.input = {2, 3};
    check_refused(sequence(k), name, "input 0");
  }
  {
    Sequence k;  // batch-major: the batch is the first dimension (3), the states say 2
    k.time_major = false;
    check_refused(sequence(k), name, "input 18");
    k.cell.state = {3, 5};
    k.cell.cell_state = {3, 4};
    check_prepares(sequence(k));
  }
  {
    Sequence k;
    k.cell.w[3] = {4, 4};
    check_refused(sequence(k), name, "input 4");
  }
  {
    Sequence k;
    k.activation = 5;
    check_model_invalid(sequence(k).model(), {name, "activation"});
  }
}

TEST_CASE("BIDIRECTIONAL_SEQUENCE_LSTM: malformed shapes and output counts are refused at prepare") {
  const char* name = "BIDIRECTIONAL_SEQUENCE_LSTM";
  check_prepares(bidirectional({}));
  {
    Bidirectional k;
    k.bw.w[1] = {4, 2};
    check_refused(bidirectional(k), name, "input 19");
  }
  {
    Bidirectional k;
    k.bw.cell_state = {2, 5};
    check_refused(bidirectional(k), name, "input 38");
  }
  {
    Bidirectional k;  // merged outputs: 1 or 5 outputs
    k.merge = true;
    check_refused(bidirectional(k), name, "outputs");
    k.outputs = 1;
    check_prepares(bidirectional(k));
  }
  {
    Bidirectional k;
    k.outputs = 5;
    check_refused(bidirectional(k), name, "outputs");
    k.outputs = 6;
    check_prepares(bidirectional(k));
  }
  {
    Bidirectional k;  // parallel linking: the backward cell reads the auxiliary input
    k.aux_input = true;
    k.aux = {3, 2, 2};
    check_refused(bidirectional(k), name, "input 18");
    for (Shape& s : k.bw.w) s = {4, 2};
    check_prepares(bidirectional(k));
    k.aux = {3, 1, 2};
    check_refused(bidirectional(k), name, "auxiliary input");
  }
  {
    Bidirectional k;  // cross linking: auxiliary weights [cell, input size]
    k.aux_input = k.aux_weights = true;
    check_prepares(bidirectional(k));
    k.aux_w[1] = {4, 2};
    check_refused(bidirectional(k), name, "input 41");
    k.aux_w[1] = {4, 3};
    k.aux = {3, 2, 2};
    for (Shape& s : k.aux_w) s = {4, 2};
    check_refused(bidirectional(k), name, "auxiliary input");
  }
}

}  // namespace nnhal::test::malformed::lstm_suite
