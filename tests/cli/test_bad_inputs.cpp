// The bad input catalogue through mhaviz-cli: every row of tests/catalogue/bad_inputs.json that
// the command line can receive is run as a user would, checking the exit code and the one
// `error:` (or `warning:`) line. Also checks that the rows' ids are unique.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "catalogue/catalogue.hpp"
#include "cli_process.hpp"

namespace mhaviz::cli::test {
namespace {

using catalogue::Row;

std::vector<Row> cliRows() {
  std::vector<Row> rows = catalogue::loadRows();
  std::erase_if(rows, [](const Row& r) { return !r.cli; });
  return rows;
}

/// Lines of stderr starting with `prefix`.
std::vector<std::string> linesStarting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  }
  return lines;
}

class BadInputCli : public ::testing::TestWithParam<Row> {};

TEST_P(BadInputCli, ExitCodeAndMessage) {
  const Row& row = GetParam();
  const ScratchDir scratch;
  const catalogue::RowFiles files = catalogue::writeRowFiles(row.id, scratch.file(row.id));
  const std::vector<std::string> args = catalogue::cliArguments(row, files);
  const ProcessResult r = runCli(args);
  SCOPED_TRACE(row.id + " (" + row.input + ")\nstderr:\n" + r.err);
  EXPECT_EQ(r.exitCode, row.cli->exitCode);
  const std::vector<std::string> errors = r.errorLines();
  const std::vector<std::string> warnings = linesStarting(r.err, "warning: ");
  if (row.cli->warning) {
    EXPECT_TRUE(errors.empty());
    ASSERT_EQ(warnings.size(), 1U);
  } else {
    EXPECT_TRUE(warnings.empty());
    ASSERT_EQ(errors.size(), 1U);
  }
  const std::string& line = row.cli->warning ? warnings.front() : errors.front();
  for (const std::string& fragment : row.cli->fragments) {
    EXPECT_NE(line.find(fragment), std::string::npos) << "missing \"" << fragment << "\"";
  }
  // Nothing is written on failure; a warning still computes and writes the result.
  if (row.cli->exitCode != 0) {
    EXPECT_FALSE(std::filesystem::exists(files.dir / "r.npz"));
  } else {
    EXPECT_TRUE(std::filesystem::exists(files.dir / "r.npz"));
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, BadInputCli, ::testing::ValuesIn(cliRows()),
                         [](const ::testing::TestParamInfo<Row>& param) {
                           std::string name = param.param.id;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// docs/bad-input.md lists the rows by id; ctest bad-input-doc checks that it is current.
TEST(BadInputCatalogue, RowIdsAreUnique) {
  std::vector<std::string> ids;
  for (const Row& row : catalogue::loadRows()) ids.push_back(row.id);
  const std::set<std::string> unique(ids.begin(), ids.end());
  EXPECT_EQ(unique.size(), ids.size()) << "row ids must be unique";
}

}  // namespace
}  // namespace mhaviz::cli::test
