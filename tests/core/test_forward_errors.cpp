// Every error case of tests/fixtures/mha/errors (see its index.json, written by
// tests/fixtures/make_fixtures.py with the message torch raised) must give mhaviz::InvalidInput,
// with PyTorch's wording: the index's substring, which either the torch that made the fixtures
// raised (measured) or a PyTorch source line the row names ("source") says.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fixture_case.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"

namespace mhaviz::test {
namespace {

struct ErrorCase {
  std::string name;
  std::string substring;      ///< mhaviz's message must contain this
  std::string torch_message;  ///< what torch raised when the fixture was made ("" if nothing)
  std::string source;  ///< where the wording comes from when torch_message lacks the substring
  [[nodiscard]] bool measured() const { return torch_message.find(substring) != std::string::npos; }
};

std::vector<ErrorCase> read_index() {
  std::vector<ErrorCase> cases;
  std::ifstream in(error_fixture_dir() / "index.json");
  if (!in) return cases;
  const nlohmann::json index = nlohmann::json::parse(in);
  for (const auto& entry : index.at("cases")) {
    cases.push_back({entry.at("name").get<std::string>(), entry.at("substring").get<std::string>(),
                     entry.value("torch_message", std::string()),
                     entry.value("source", std::string())});
  }
  return cases;
}

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

/// Runs `make` and forward(); returns the InvalidInput message, or fails the test.
template <typename Make>
std::optional<std::string> invalid_input_message(const std::string& where, Make make) {
  try {
    const Problem p = make();
    (void)forward(p.config, p.params, p.inputs);
  } catch (const InvalidInput& e) {
    return std::string(e.what());
  } catch (const std::exception& e) {
    ADD_FAILURE() << where << ": threw a non-InvalidInput exception: " << e.what();
    return std::nullopt;
  }
  ADD_FAILURE() << where << ": no error was raised";
  return std::nullopt;
}

class ForwardError : public ::testing::TestWithParam<ErrorCase> {};

// The tensors go straight to forward(), as PyTorch received them: validate() must reject them
// with PyTorch's message.
TEST_P(ForwardError, ForwardGivesPyTorchsMessage) {
  const ErrorCase& ec = GetParam();
  const FixtureCase fixture = load_case(error_fixture_dir(), ec.name);
  const auto message =
      invalid_input_message(ec.name + " (forward)", [&] { return raw_case_problem(fixture); });
  ASSERT_TRUE(message.has_value());
  EXPECT_TRUE(message->find(ec.substring) != std::string::npos)
      << ec.name << ": mhaviz says \"" << *message << "\"\n  which lacks \"" << ec.substring
      << "\"\n  torch said \"" << ec.torch_message << "\""
      << "\n  source: " << ec.source;
}

/// make_problem's own check of a file's tensor against the config names the tensor, the shape
/// it has and the one the config needs: '<file>.npz: "value" has shape (6, 2, 8) but src_len=5,
/// batch_size=2, vdim=8 needs (5, 2, 8)'. The name of the tensor of `fixture` it names, or "".
std::string tensor_named_with_its_shape(const std::string& message, const FixtureCase& fixture) {
  for (const auto& [name, tensor] : fixture.arguments) {
    const std::string said = "\"" + name + "\" has shape " + shape_str(tensor.shape()) + " but ";
    if (message.find(said) != std::string::npos &&
        message.find(" needs (", message.find(said)) != std::string::npos) {
      return name;
    }
  }
  return "";
}

// The product's path for files (make_problem, which may reject a tensor against the config
// before forward() sees it) must also refuse the case with InvalidInput, and say what is wrong:
// PyTorch's words as forward() does, or the tensor that does not fit the config and why.
TEST_P(ForwardError, FilePathGivesInvalidInput) {
  const ErrorCase& ec = GetParam();
  const FixtureCase fixture = load_case(error_fixture_dir(), ec.name);
  const auto message = invalid_input_message(ec.name + " (make_problem)",
                                             [&] { return make_case_problem(fixture); });
  ASSERT_TRUE(message.has_value());
  const bool pytorchs = message->find(ec.substring) != std::string::npos;
  const std::string tensor = tensor_named_with_its_shape(*message, fixture);
  EXPECT_TRUE(pytorchs || !tensor.empty())
      << ec.name << ": mhaviz says \"" << *message << "\"\n  which has neither \"" << ec.substring
      << "\" nor a tensor of the case with its shape and the shape the config needs";
  if (!tensor.empty()) {
    EXPECT_EQ(message->rfind(ec.name + ".npz: ", 0), 0U) << *message;  // names the file
  }
  RecordProperty("message", *message);
}

std::string case_name(const ::testing::TestParamInfo<ErrorCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(PyTorch, ForwardError, ::testing::ValuesIn(read_index()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ForwardError);

TEST(ForwardErrors, IndexCoversEveryErrorFixture) {
  const std::vector<ErrorCase> index = read_index();
  ASSERT_FALSE(index.empty()) << "no error cases in " << error_fixture_dir() / "index.json";
  std::set<std::string> indexed;
  for (const ErrorCase& c : index) {
    EXPECT_TRUE(indexed.insert(c.name).second) << "duplicate error case " << c.name;
    EXPECT_FALSE(c.substring.empty()) << c.name;
    // A row's wording was either raised by the torch that made the fixtures, or the row names
    // the PyTorch source it comes from, so that nobody takes it for a measured message.
    EXPECT_NE(c.measured(), !c.source.empty())
        << c.name
        << (c.measured() ? ": measured, yet names a source"
                         : ": torch did not raise it, and no source is named");
  }
  const std::vector<std::string> on_disk = list_cases(error_fixture_dir());
  EXPECT_EQ(std::set<std::string>(on_disk.begin(), on_disk.end()), indexed)
      << "errors/*.json+.npz and errors/index.json disagree";
  // The messages of docs/semantics.md ("Error messages") all appear.
  std::set<std::string> substrings;
  for (const ErrorCase& c : index) substrings.insert(c.substring);
  for (const char* s :
       {"embed_dim must be divisible by num_heads", "The shape of the 2D attn_mask is",
        "The shape of the 3D attn_mask is", "expecting key_padding_mask shape of",
        "does not match value shape", "do not match value's", "bias cannot be added to static key.",
        "query should be unbatched 2D or batched 3D tensor but received",
        "only bool and floating types of attn_mask are supported", "expecting static_k.size(0) of",
        "was expecting embedding dimension of", "embed_dim and num_heads must be greater than 0",
        "dropout probability has to be between 0 and 1"}) {
    EXPECT_TRUE(substrings.contains(s)) << "no error case checks \"" << s << "\"";
  }
}

}  // namespace
}  // namespace mhaviz::test
