#pragma once
// A small weights-only model file (format version 4: stored attention weights and tokens, no
// parameters or inputs) and a comparison of tensors, for the model layer's tests and the
// window's (tests/ui/window/test_model_view_files.cpp).

#include <QFile>
#include <QString>
#include <cstdint>
#include <string>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/io/tensor_file.hpp"

namespace mhaviz::ui::testing {

/// Same shape and the same values.
inline bool sameTensor(const mhaviz::Tensor& a, const mhaviz::Tensor& b) {
  if (a.dim() != b.dim() || a.numel() != b.numel()) return false;
  for (std::int64_t d = 0; d < a.dim(); ++d) {
    if (a.size(d) != b.size(d)) return false;
  }
  for (std::int64_t i = 0; i < a.numel(); ++i) {
    if (a.value(i) != b.value(i)) return false;
  }
  return true;
}

/// Writes `folder`/w.npz and its index `folder`/w.json: two layers ("attentions.0", ".1") of 4
/// heads sharing 2 key/value heads over the tokens "the cat sat on mats". Every row weighs one
/// key 0.6 and the others 0.1 (the key moves by one per layer); layer 1's first row sums to
/// 0.7. Returns the stored tensors ("0/weights", "1/weights"); the index is empty when it could
/// not be written.
inline mhaviz::io::TensorMap writeWeightsOnlyModel(const QString& folder) {
  const std::int64_t H = 4, L = 5;
  mhaviz::io::TensorMap tensors;
  for (int layer = 0; layer < 2; ++layer) {
    std::vector<float> w(static_cast<std::size_t>(H * L * L));
    for (std::size_t row = 0; row < w.size() / L; ++row) {
      const auto key = static_cast<std::size_t>((row + std::size_t(layer)) % L);
      for (std::size_t k = 0; k < std::size_t(L); ++k) w[row * L + k] = k == key ? 0.6F : 0.1F;
    }
    if (layer == 1) w[0] = 0.3F;  // one row sums to 0.7: stated, not renormalised
    tensors.emplace(std::to_string(layer) + "/weights",
                    mhaviz::Tensor::from({1, H, L, L}, std::move(w)));
  }
  mhaviz::io::write_tensor_file((folder + QStringLiteral("/w.npz")).toStdString(), tensors);
  QFile index(folder + QStringLiteral("/w.json"));
  if (index.open(QIODevice::WriteOnly)) {
    index.write(R"({"format": "mhaviz-model", "version": 4, "tensors": "w.npz",
    "tokens": ["the", "cat", "sat", "on", "mats"], "num_key_value_heads": 2,
    "layers": [{"name": "attentions.0", "shape": [1, 4, 5, 5]},
               {"name": "attentions.1", "shape": [1, 4, 5, 5]}]})");
  }
  return tensors;
}

}  // namespace mhaviz::ui::testing
