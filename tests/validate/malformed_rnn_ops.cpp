// Malformed RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN and SVDF models. The
// faults the reference checks at run time that shapes and constant scalars already show at
// prepare (activation codes, time_major, ranks, input sizes, unit counts, hidden-state shapes,
// the output count against merge_outputs, the auxiliary linking modes and shapes, SVDF's rank,
// memory and state size): each model validates (its operand types match a signature) but
// preparing it fails with an error naming the operation, without crashing; the valid neighbour
// of each case prepares. Faults only a request can make are covered by the kernel tests
// (tests/ops/rnn.cpp).

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"
#include "validate/one_op_fixture.hpp"

namespace nnhal::test::malformed::rnn_suite {

namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
using Shape = nnhal::Vector<std::uint32_t>;

struct Rnn {
  Shape input{2, 3}, weights{4, 3}, recurrent{4, 4}, bias{4}, hidden{2, 4};
  std::int32_t act = 1;
};

OneOp rnn_op(const Rnn& r) {
  OneOp m(OperationType::RNN);
  m.tensor(F32, r.input).tensor(F32, r.weights).tensor(F32, r.recurrent).tensor(F32, r.bias).tensor(F32, r.hidden);
  m.ints({r.act}).output(F32).output(F32);
  return m;
}

struct Uni {
  Shape input{5, 2, 3}, weights{4, 3}, recurrent{4, 4}, bias{4}, hidden{2, 4};
  std::int32_t act = 0, time_major = 1;
  int outputs = 2;
};

OneOp uni_op(const Uni& u) {
  OneOp m(OperationType::UNIDIRECTIONAL_SEQUENCE_RNN);
  m.tensor(F32, u.input).tensor(F32, u.weights).tensor(F32, u.recurrent).tensor(F32, u.bias).tensor(F32, u.hidden);
  m.ints({u.act, u.time_major});
  for (int i = 0; i < u.outputs; ++i) m.output(F32);
  return m;
}

struct Bi {
  Shape input{2, 5, 3};
  Shape fw_w{4, 3}, fw_r{4, 4}, fw_b{4}, fw_h{2, 4};
  Shape bw_w{6, 3}, bw_r{6, 6}, bw_b{6}, bw_h{2, 6};
  bool aux = false, fw_aux_w = false, bw_aux_w = false;
  Shape aux_in{2, 5, 2}, fw_aux{4, 2}, bw_aux{6, 2};
  std::int32_t act = 0;
  bool time_major = false, merge = false;
  int outputs = 2;
};

OneOp bi_op(const Bi& b) {
  OneOp m(OperationType::BIDIRECTIONAL_SEQUENCE_RNN);
  m.tensor(F32, b.input).tensor(F32, b.fw_w).tensor(F32, b.fw_r).tensor(F32, b.fw_b).tensor(F32, b.fw_h);
  m.tensor(F32, b.bw_w).tensor(F32, b.bw_r).tensor(F32, b.bw_b).tensor(F32, b.bw_h);
  if (b.aux) m.tensor(F32, b.aux_in); else m.omitted(F32);
  if (b.fw_aux_w) m.tensor(F32, b.fw_aux); else m.omitted(F32);
  if (b.bw_aux_w) m.tensor(F32, b.bw_aux); else m.omitted(F32);
  m.ints({b.act}).flag(b.time_major).flag(b.merge);
  for (int i = 0; i < b.outputs; ++i) m.output(F32);
  return m;
}

struct Svdf {
  Shape input{2, 3}, feature{6, 3}, time{6, 4}, bias{3}, state{2, 24};
  bool has_bias = true;
  std::int32_t rank = 2, act = 0;
};

OneOp svdf_op(const Svdf& s) {
  OneOp m(OperationType::SVDF);
  m.tensor(F32, s.input).tensor(F32, s.feature).tensor(F32, s.time);
  if (s.has_bias) m.tensor(F32, s.bias); else m.omitted(F32);
  m.tensor(F32, s.state).ints({s.rank, s.act}).output(F32).output(F32);
  return m;
}

}  // namespace

TEST_CASE("malformed RNN: activation, sizes and the hidden state are refused at prepare") {
  check_prepares(rnn_op({}));
  {
    Rnn r;
    r.act = 4;
    check_model_invalid(rnn_op(r).model(), {"RNN", "activation"});  // a constant: refused at validation
  }
  {
    Rnn r;
    r.weights = {4, 2};
    check_refused(rnn_op(r), "RNN", "input 1 dimension 1");
  }
  {
    Rnn r;
    r.recurrent = {4, 3};
    check_refused(rnn_op(r), "RNN", "input 2 dimension 1");
  }
  {
    Rnn r;
    r.bias = {5};
    check_refused(rnn_op(r), "RNN", "input 3 dimension 0");
  }
  {
    Rnn r;
    r.hidden = {1, 4};
    check_refused(rnn_op(r), "RNN", "input 4 dimension 0");
  }
  {
    Rnn r;
    r.input = {2, 3, 1};
    check_refused(rnn_op(r), "RNN", "rank");
  }
}

TEST_CASE("malformed UNIDIRECTIONAL_SEQUENCE_RNN: time_major, ranks and sizes are refused at prepare") {
  check_prepares(uni_op({}));
  {
    Uni u;
    u.outputs = 1;
    u.time_major = 0;
    u.input = {2, 5, 3};
    check_prepares(uni_op(u));
  }
  {
    Uni u;
    u.time_major = 2;
    check_model_invalid(uni_op(u).model(), {"UNIDIRECTIONAL_SEQUENCE_RNN", "time_major"});
  }
  {
    Uni u;
    u.act = -1;
    check_model_invalid(uni_op(u).model(), {"UNIDIRECTIONAL_SEQUENCE_RNN", "activation"});
  }
  {
    Uni u;
    u.input = {10, 3};
    check_refused(uni_op(u), "UNIDIRECTIONAL_SEQUENCE_RNN", "rank");
  }
  {
    Uni u;
    u.time_major = 0;  // batch 5 now, the hidden state has 2 rows
    check_refused(uni_op(u), "UNIDIRECTIONAL_SEQUENCE_RNN", "input 4 dimension 0");
  }
  {
    Uni u;
    u.weights = {4, 2};
    check_refused(uni_op(u), "UNIDIRECTIONAL_SEQUENCE_RNN", "input 1 dimension 1");
  }
  {
    Uni u;
    u.hidden = {2, 5};
    check_refused(uni_op(u), "UNIDIRECTIONAL_SEQUENCE_RNN", "input 4 dimension 1");
  }
}

TEST_CASE("malformed BIDIRECTIONAL_SEQUENCE_RNN: outputs, linking modes and shapes") {
  check_prepares(bi_op({}));
  {
    Bi b;
    b.merge = true;
    b.outputs = 1;
    check_prepares(bi_op(b));
    b.outputs = 3;
    check_prepares(bi_op(b));
    b.outputs = 2;
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "merge_outputs");
  }
  {
    Bi b;
    b.outputs = 4;
    check_prepares(bi_op(b));
    b.outputs = 1;
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "merge_outputs");
  }
  {
    Bi b;  // cross linking
    b.aux = b.fw_aux_w = b.bw_aux_w = true;
    check_prepares(bi_op(b));
    b.fw_aux = {4, 3};
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "input 10 dimension 1");
  }
  {
    Bi b;
    b.aux = b.fw_aux_w = b.bw_aux_w = true;
    b.bw_aux = {4, 2};
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "input 11 dimension 0");
  }
  {
    Bi b;
    b.aux = b.fw_aux_w = b.bw_aux_w = true;
    b.aux_in = {2, 4, 2};
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "input 9 dimension 1");
  }
  {
    Bi b;  // parallel linking: the backward cell reads the auxiliary input
    b.aux = true;
    b.bw_w = {6, 2};
    check_prepares(bi_op(b));
    b.bw_w = {6, 3};
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "input 5 dimension 1");
  }
  {
    Bi b;
    b.act = 7;
    check_model_invalid(bi_op(b).model(), {"BIDIRECTIONAL_SEQUENCE_RNN", "activation"});
  }
  {
    Bi b;
    b.bw_h = {3, 6};
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "input 8 dimension 0");
  }
  {
    Bi b;
    b.fw_r = {4, 6};
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "input 2 dimension 1");
  }
  {
    Bi b;
    b.input = {2, 5, 3, 1};
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "rank");
  }
  {
    // Auxiliary weights without the auxiliary input, or one auxiliary weight alone. The row
    // refuses these for constant weights; weights given as model inputs (which a request could
    // still omit) are refused once their presence is known.
    Bi b;
    b.fw_aux_w = b.bw_aux_w = true;
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "auxiliary input and weights");
    b.aux = true;
    b.bw_aux_w = false;
    check_refused(bi_op(b), "BIDIRECTIONAL_SEQUENCE_RNN", "auxiliary input and weights");
  }
}

TEST_CASE("malformed SVDF: rank, memory, bias and state size are refused at prepare") {
  check_prepares(svdf_op({}));
  {
    Svdf s;
    s.has_bias = false;
    check_prepares(svdf_op(s));
  }
  {
    Svdf s;
    s.rank = 0;
    check_refused(svdf_op(s), "SVDF", "rank is 0");
  }
  {
    Svdf s;
    s.rank = 4;  // 6 filters
    check_refused(svdf_op(s), "SVDF", "multiple of rank");
  }
  {
    Svdf s;
    s.state = {2, 18};  // the documented (memory_size - 1) * num_filters
    check_refused(svdf_op(s), "SVDF", "input 4 dimension 1");
  }
  {
    Svdf s;
    s.state = {3, 24};
    check_refused(svdf_op(s), "SVDF", "input 4 dimension 0");
  }
  {
    Svdf s;
    s.bias = {6};
    check_refused(svdf_op(s), "SVDF", "input 3 dimension 0");
  }
  {
    Svdf s;
    s.time = {5, 4};
    check_refused(svdf_op(s), "SVDF", "input 2 dimension 0");
  }
  {
    Svdf s;
    s.act = 9;
    check_model_invalid(svdf_op(s).model(), {"SVDF", "activation"});
  }
}

}  // namespace nnhal::test::malformed::rnn_suite
