#pragma once
// Loading the PyTorch-made reference cases of tests/fixtures/mha (written by
// tests/fixtures/make_fixtures.py): <case>.json is an mhaviz configuration file, <case>.npz holds
// the forward arguments and state_dict under PyTorch's names plus "expected.<name>" arrays.

#include <filesystem>
#include <string>
#include <vector>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::test {

/// tests/fixtures/mha in the source tree.
std::filesystem::path fixture_dir();
/// tests/fixtures/mha/errors in the source tree.
std::filesystem::path error_fixture_dir();

/// Names of the cases in `dir`: every <name>.json with a <name>.npz beside it, sorted.
/// Not recursive. Returns an empty list when the directory does not exist.
std::vector<std::string> list_cases(const std::filesystem::path& dir);

/// One case as stored on disk, before anything is validated.
struct FixtureCase {
  std::string name;
  Config config;            ///< read with io::read_config_file
  io::TensorMap arguments;  ///< npz members without the "expected." prefix
  io::TensorMap expected;   ///< "expected.<name>" members, keyed by <name>
};

/// Reads <dir>/<name>.json and <dir>/<name>.npz. Throws what the readers throw.
FixtureCase load_case(const std::filesystem::path& dir, const std::string& name);

/// The Problem the product would build from the case's files (make_problem).
Problem make_case_problem(const FixtureCase& fixture);

/// The case's tensors put straight into Params and Inputs under their PyTorch names, without
/// make_problem's checks against the config, so that forward()'s own validation sees exactly
/// what PyTorch saw. Nothing is generated: absent parameters stay absent.
Problem raw_case_problem(const FixtureCase& fixture);

}  // namespace mhaviz::test
