#include "fixture_case.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/npz.hpp"

namespace mhaviz::test {

namespace {

constexpr std::string_view kExpectedPrefix = "expected.";

}  // namespace

std::filesystem::path fixture_dir() { return std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "mha"; }

std::filesystem::path error_fixture_dir() { return fixture_dir() / "errors"; }

std::vector<std::string> list_cases(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::filesystem::path& p = entry.path();
    if (!entry.is_regular_file() || p.extension() != ".json") continue;
    std::filesystem::path npz = p;
    npz.replace_extension(".npz");
    if (std::filesystem::is_regular_file(npz)) names.push_back(p.stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

FixtureCase load_case(const std::filesystem::path& dir, const std::string& name) {
  FixtureCase fixture;
  fixture.name = name;
  fixture.config = io::read_config_file(dir / (name + ".json"));
  for (auto& [key, tensor] : io::read_npz(dir / (name + ".npz"))) {
    if (key.starts_with(kExpectedPrefix)) {
      fixture.expected.emplace(key.substr(kExpectedPrefix.size()), tensor);
    } else {
      fixture.arguments.emplace(key, tensor);
    }
  }
  return fixture;
}

Problem make_case_problem(const FixtureCase& fixture) {
  return make_problem(fixture.config, fixture.arguments, fixture.name + ".npz");
}

Problem raw_case_problem(const FixtureCase& fixture) {
  Problem problem;
  problem.config = fixture.config;
  Inputs& in = problem.inputs;
  for (const auto& [key, tensor] : fixture.arguments) {
    if (key == "query") {
      in.query = tensor;
    } else if (key == "key") {
      in.key = tensor;
    } else if (key == "value") {
      in.value = tensor;
    } else if (key == "attn_mask") {
      in.attn_mask = tensor;
    } else if (key == "key_padding_mask") {
      in.key_padding_mask = tensor;
    } else if (key == "static_k") {
      in.static_k = tensor;
    } else if (key == "static_v") {
      in.static_v = tensor;
    } else if (std::optional<Tensor>* slot = problem.params.find(key)) {
      *slot = tensor;
    } else {
      throw std::runtime_error("fixture " + fixture.name + ": unknown tensor " + key);
    }
  }
  return problem;
}

}  // namespace mhaviz::test
