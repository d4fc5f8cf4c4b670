// make_problem: generated parameters/inputs overridden by user tensors, and its errors.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/gen/inputs.hpp"
#include "mhaviz/core/gen/weights.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "test_util.hpp"

using mhaviz::Config;
using mhaviz::DType;
using mhaviz::ElemType;
using mhaviz::InvalidInput;
using mhaviz::make_problem;
using mhaviz::Shape;
using mhaviz::Tensor;
using mhaviz::io::TensorMap;

using mhaviz::test::expect_invalid;

namespace {

/// A float64 tensor whose element i is `start + i`.
Tensor ramp(Shape shape, double start) {
  const auto n = static_cast<std::size_t>(mhaviz::numel(shape));
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + static_cast<double>(i);
  return Tensor::from<double>(std::move(shape), std::move(v));
}

Config small() {
  Config c;
  c.embed_dim = 8;
  c.num_heads = 2;
  c.tgt_len = 3;
  c.src_len = 5;
  c.batch_size = 2;
  return c;
}

}  // namespace

TEST(MakeProblem, WithoutTensorsMatchesGenerators) {
  const Config c = small();
  const mhaviz::Problem p = make_problem(c);
  EXPECT_EQ(p.config, c);
  ASSERT_TRUE(p.params.in_proj_weight.has_value());
  EXPECT_EQ(p.params.in_proj_weight->shape(), (Shape{24, 8}));
  const mhaviz::Params generated = mhaviz::init_params(c);
  EXPECT_EQ(p.params.in_proj_weight->value(5), generated.in_proj_weight->value(5));
  EXPECT_EQ(p.inputs.query.shape(), (Shape{3, 2, 8}));
  EXPECT_EQ(p.inputs.query.value(7), mhaviz::random_inputs(c).query.value(7));
  EXPECT_FALSE(p.inputs.attn_mask.has_value());
}

TEST(MakeProblem, TensorsOverrideAndConvertToConfigDtype) {
  const Config c = small();  // float32
  TensorMap t;
  t.emplace("in_proj_weight", ramp({24, 8}, 0.5));
  t.emplace("out_proj.bias", ramp({8}, -3.0));
  t.emplace("query", ramp({3, 2, 8}, 100.0));
  t.emplace("attn_mask", Tensor::from_bools({3, 5}, std::vector<std::uint8_t>(15, 0)));
  t.emplace("key_padding_mask", ramp({2, 5}, 0.0));
  t.emplace("static_k", ramp({4, 6, 4}, 1.0));
  const mhaviz::Problem p = make_problem(c, t);
  EXPECT_EQ(p.params.in_proj_weight->type(), ElemType::f32);
  EXPECT_EQ(p.params.in_proj_weight->value(10), 10.5);
  EXPECT_EQ(p.params.out_proj_bias->value(7), 4.0);
  EXPECT_EQ(p.inputs.query.type(), ElemType::f32);
  EXPECT_EQ(p.inputs.query.value(47), 147.0);
  // key was not given: it stays the generated one.
  EXPECT_EQ(p.inputs.key.value(3), mhaviz::random_inputs(c).key.value(3));
  EXPECT_EQ(p.inputs.attn_mask->type(), ElemType::boolean);
  EXPECT_EQ(p.inputs.key_padding_mask->type(), ElemType::f32);
  EXPECT_EQ(p.inputs.static_k->shape(), (Shape{4, 6, 4}));
  EXPECT_EQ(p.inputs.static_k->type(), ElemType::f32);
}

TEST(MakeProblem, Uint8MaskIsKeptForValidateToReject) {
  TensorMap t;
  t.emplace("attn_mask", Tensor::from<std::uint8_t>({3, 5}, std::vector<std::uint8_t>(15, 1)));
  const mhaviz::Problem p = make_problem(small(), t);
  EXPECT_EQ(p.inputs.attn_mask->type(), ElemType::u8);
}

TEST(MakeProblem, Float64ConfigAndSeparateProjections) {
  Config c = small();
  c.dtype = DType::float64;
  c.kdim = 3;
  c.batch_first = true;
  TensorMap t;
  t.emplace("k_proj_weight", Tensor::from<float>({8, 3}, std::vector<float>(24, 0.25F)));
  t.emplace("key", ramp({2, 5, 3}, 0.0));
  const mhaviz::Problem p = make_problem(c, t);
  EXPECT_EQ(p.params.k_proj_weight->type(), ElemType::f64);
  EXPECT_EQ(p.params.k_proj_weight->value(23), 0.25);
  EXPECT_EQ(p.inputs.key.value(29), 29.0);
}

TEST(MakeProblem, ShapeErrorsNameBothShapes) {
  TensorMap t;
  t.emplace("in_proj_weight", ramp({48, 16}, 0.0));
  expect_invalid(
      [&] { make_problem(small(), t, "tensors.npz"); },
      {"tensors.npz: \"in_proj_weight\" has shape (48, 16) but embed_dim=8 needs (24, 8)"});
  TensorMap q;
  q.emplace("query", ramp({2, 3, 8}, 0.0));
  expect_invalid([&] { make_problem(small(), q, "t.npz"); },
                 {"t.npz: \"query\" has shape (2, 3, 8) but tgt_len=3, batch_size=2, embed_dim=8 "
                  "needs (3, 2, 8)"});
  Config unbatched = small();
  unbatched.batch_size = std::nullopt;
  TensorMap v;
  v.emplace("value", ramp({5, 1, 8}, 0.0));
  expect_invalid([&] { make_problem(unbatched, v); },
                 {"\"value\" has shape (5, 1, 8)", "batch_size=null (unbatched)", "needs (5, 8)"});
}

TEST(MakeProblem, EntriesTheConfigDoesNotHave) {
  TensorMap bk;
  bk.emplace("bias_k", ramp({1, 1, 8}, 0.0));
  expect_invalid([&] { make_problem(small(), bk); },
                 {"\"bias_k\" is not a parameter of this configuration", "add_bias_kv=true"});
  Config separate = small();
  separate.kdim = 4;
  TensorMap packed;
  packed.emplace("in_proj_weight", ramp({24, 8}, 0.0));
  expect_invalid([&] { make_problem(separate, packed); },
                 {"\"in_proj_weight\"", "kdim=4", "only when kdim == vdim == embed_dim"});
  TensorMap q;
  q.emplace("q_proj_weight", ramp({8, 8}, 0.0));
  expect_invalid([&] { make_problem(small(), q); }, {"\"q_proj_weight\"", "packed in_proj_weight"});
  Config nobias = small();
  nobias.bias = false;
  TensorMap ob;
  ob.emplace("out_proj.bias", ramp({8}, 0.0));
  expect_invalid([&] { make_problem(nobias, ob); }, {"\"out_proj.bias\"", "bias=true"});
}

TEST(MakeProblem, UnknownNamesAndWrongDtypes) {
  TensorMap t;
  t.emplace("querry", ramp({3, 2, 8}, 0.0));
  expect_invalid([&] { make_problem(small(), t, "x.npz"); },
                 {"x.npz: unknown tensor \"querry\" (did you mean \"query\"?)",
                  "accepted names are query, key, value, attn_mask", "out_proj.weight"});
  TensorMap b;
  b.emplace("out_proj.weight", Tensor::from_bools({8, 8}, std::vector<std::uint8_t>(64, 1)));
  expect_invalid([&] { make_problem(small(), b); },
                 {"\"out_proj.weight\" must be a floating-point tensor", "got bool"});
}

TEST(MakeProblem, InvalidConfigIsRefusedFirst) {
  Config c = small();
  c.num_heads = 3;
  EXPECT_THROW(make_problem(c), InvalidInput);
}
