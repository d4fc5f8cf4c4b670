#include "cli/model_steps.hpp"

#include <cstdio>
#include <iostream>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/tensor_file.hpp"

namespace mhaviz::cli {

namespace {

std::string share(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  return text;
}

}  // namespace

void printSteps(const model::Model& m, const model::ComputedModel& computed, std::int64_t batch) {
  const model::ModelIndex& index = m.index;
  if (index.steps == 0) {
    throw InvalidInput("--steps: " + index.path.filename().string() +
                       " has no generation steps (it was captured with capture_model(); "
                       "capture a generation loop with mhaviz_capture.capture_generation())");
  }
  std::cout << "generation: " << index.steps << " step" << (index.steps == 1 ? "" : "s")
            << ", batch element " << batch
            << "; per step the newest position (its output gives the generated token) and, per "
               "layer, the key with the most weight (mean over heads)\n";
  for (std::int64_t t = 0; t < index.steps; ++t) {
    const model::StepRows rows = model::step_rows(m, computed.weights, t, batch, "--steps");
    const model::Layer& first = m.layers[rows.layers.front().layer];
    std::cout << "step " << t << ": " << rows.layers.size() << " call"
              << (rows.layers.size() == 1 ? "" : "s") << ", query length "
              << first.info.config.tgt_len << ", keys " << first.info.config.src_len
              << "; position " << rows.position;
    if (!rows.query.empty()) std::cout << " (" << rows.query << ")";
    if (!rows.generated.empty()) std::cout << " -> " << rows.generated;
    std::cout << ';';
    for (const model::StepRows::Layer& row : rows.layers) {
      const std::int64_t best = row.most_weighted();
      const std::vector<std::string>& keys = m.layers[row.layer].problem.config.key_labels;
      const std::string key = best >= row.keys ? "appended column " + std::to_string(best)
                              : static_cast<std::size_t>(best) < keys.size()
                                  ? keys[static_cast<std::size_t>(best)]
                                  : "key " + std::to_string(best);
      std::cout << " layer " << row.layer << ": " << key << ' ' << share(row.head_mean(best))
                << ';';
    }
    std::cout << '\n';
  }
}

void writeStepRows(const model::StepRows& rows, const std::string& path) {
  io::TensorMap tensors;
  for (const model::StepRows::Layer& row : rows.layers) {
    Tensor t(ElemType::f64, {row.heads, row.columns});
    auto data = t.data<double>();
    std::copy(row.weights.begin(), row.weights.end(), data.begin());
    tensors.emplace(std::to_string(row.layer) + "/weights", std::move(t));
  }
  io::write_tensor_file(path, tensors);
}

}  // namespace mhaviz::cli
