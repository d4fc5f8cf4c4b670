#pragma once
// Model files to compare, shared by the compare layer's tests (test_compare_models.cpp,
// test_compare_model_limits.cpp) and the window's (tests/ui/window/test_model_compare.hpp):
// weights-only model files (version 4) of three layers and four heads whose attention weights
// are known, a pair that differs in two places, and checks of ModelCompare's maps against them.

#include <QCoreApplication>
#include <QFile>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "compare/model_compare.hpp"
#include "mhaviz/core/io/tensor_file.hpp"

namespace mhaviz::ui::testing::model_compare {

inline constexpr int kTimeout = 60000;
inline constexpr std::int64_t kLayers = 3, kHeads = 4, kBatch = 2, kLength = 5;

/// A layer's weights (kBatch, kHeads, T, T): each row 0.6 on one key, the rest shared.
inline std::vector<float> layerWeights(std::int64_t layer, std::int64_t T = kLength) {
  std::vector<float> w(static_cast<std::size_t>(kBatch * kHeads * T * T));
  const float rest = 0.4F / static_cast<float>(T - 1);
  for (std::int64_t row = 0; row < kBatch * kHeads * T; ++row) {
    const std::int64_t key = (row + layer) % T;
    for (std::int64_t k = 0; k < T; ++k) w[std::size_t(row * T + k)] = k == key ? 0.6F : rest;
  }
  return w;
}

inline std::size_t at(std::int64_t n, std::int64_t h, std::int64_t q, std::int64_t k,
                      std::int64_t T = kLength) {
  return static_cast<std::size_t>(((n * kHeads + h) * T + q) * T + k);
}

/// Moves `amount` of row (n, h, q)'s weight from key `from` to key `to` (the row still sums to 1).
inline void move(std::vector<float>& w, std::int64_t n, std::int64_t h, std::int64_t q,
                 std::int64_t from, std::int64_t to, float amount) {
  w[at(n, h, q, from)] -= amount;
  w[at(n, h, q, to)] += amount;
}

/// Writes NAME.json (a version-4 weights-only index) and NAME.npz with `layers`; returns the
/// index's path.
inline QString writeModel(const QTemporaryDir& dir, const QString& name,
                          const std::vector<std::vector<float>>& layers, const QStringList& tokens,
                          std::int64_t T = kLength) {
  mhaviz::io::TensorMap tensors;
  QStringList entries;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    tensors.emplace(std::to_string(l) + "/weights",
                    mhaviz::Tensor::from({kBatch, kHeads, T, T}, std::vector<float>(layers[l])));
    entries << QStringLiteral(R"({"name": "attentions.%1", "shape": [%2, %3, %4, %4]})")
                   .arg(l)
                   .arg(kBatch)
                   .arg(kHeads)
                   .arg(T);
  }
  mhaviz::io::write_tensor_file(dir.filePath(name + QStringLiteral(".npz")).toStdString(), tensors);
  QFile index(dir.filePath(name + QStringLiteral(".json")));
  if (!index.open(QIODevice::WriteOnly)) return {};
  index.write(
      QStringLiteral(R"({"format": "mhaviz-model", "version": 4, "tensors": "%1.npz",
      "tokens": ["%2"], "num_key_value_heads": 2, "layers": [%3]})")
          .arg(name, tokens.join(QStringLiteral("\", \"")), entries.join(QStringLiteral(", ")))
          .toUtf8());
  return index.fileName();
}

inline const QStringList kWords = {QStringLiteral("the"), QStringLiteral("cat"),
                                   QStringLiteral("sat"), QStringLiteral("on"),
                                   QStringLiteral("mats")};

/// B's layers and A's: A moves 0.25 in layer 1 head 2 of batch element 0 and 0.35 in layer 2
/// head 0 of batch element 1.
struct Pair {
  std::vector<std::vector<float>> a, b;
};
inline Pair pairOfRuns() {
  Pair p;
  for (std::int64_t l = 0; l < kLayers; ++l) p.b.push_back(layerWeights(l));
  p.a = p.b;
  move(p.a[1], 0, 2, 3, (3 + 1) % kLength, 2, 0.25F);  // the row's 0.6 key gives 0.25 to key 2
  move(p.a[2], 1, 0, 1, (1 + 2) % kLength, 0, 0.35F);
  return p;
}

/// Waits until the comparison shows the maps and the table of its current A, B, batch element
/// and selection.
inline bool settled(ModelCompare* c) {
  return QTest::qWaitFor(
      [c] {
        QCoreApplication::processEvents();
        return c->isUpToDate();
      },
      kTimeout);
}

/// Map 0 of `map` against (n, h) of `w` (kLength x kLength, row-major).
inline bool sameMap(const std::vector<double>& map, const std::vector<float>& w, std::int64_t n,
                    std::int64_t h, double sign = 1.0, const std::vector<float>* minus = nullptr) {
  if (map.size() != std::size_t(kLength * kLength)) return false;
  for (std::int64_t q = 0; q < kLength; ++q) {
    for (std::int64_t k = 0; k < kLength; ++k) {
      double want = w[at(n, h, q, k)];
      if (minus != nullptr) want -= (*minus)[at(n, h, q, k)];
      if (std::abs(map[std::size_t(q * kLength + k)] - sign * want) > 1e-6) return false;
    }
  }
  return true;
}

}  // namespace mhaviz::ui::testing::model_compare
