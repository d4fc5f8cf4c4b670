#pragma once
// The bad input catalogue (tests/catalogue/bad_inputs.json) for the tests that replay it: the
// CLI test runs mhaviz-cli on every row, the window test feeds every row to the main window.
// docs/bad-input.md is written from the same file by scripts/bad-input-doc.
// Plain C++ and core only (no Qt), so both test executables compile it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mhaviz::catalogue {

/// How mhaviz-cli is run for a row and what it must print.
struct CliCase {
  /// Arguments after the program name; {config}, {tensors} and {dir} are replaced by the
  /// row's files. Empty: `run --config {config} [--tensors {tensors}] --out {dir}/r.npz`.
  std::vector<std::string> args;
  int exitCode = 1;
  /// Exit 0 with one `warning: ...` line instead of an `error: ...` line.
  bool warning = false;
  std::vector<std::string> fragments;  ///< all must appear in the one error/warning line
};

/// How the window receives a row and where it shows the message.
struct WindowCase {
  /// open_config, load_tensors, open_session, open_missing, load_missing, save_unwritable;
  /// model_flow (the row's model index opened, then the model view's Attention flow view),
  /// model_sink_eps (a bundled model opened, then `value` typed into the model view's Sink ε),
  /// open_weights (the row's tensors file opened with File > Open: plain attention weights).
  std::string via;
  /// inline (the parameter panel's red error line, picture kept; for the model_* vias the model
  /// view's message beside the model it keeps), dialog (the warning box of File > Open / Load
  /// tensors / Save), warning (result computed, status bar message), model_view (a model index
  /// opened: the model view's red message, the session untouched).
  std::string shows;
  std::string value;  ///< what model_sink_eps types
  std::vector<std::string> fragments;
};

struct Row {
  std::string id;
  std::string input;  ///< what the user gave, in a few words
  std::optional<CliCase> cli;
  std::optional<WindowCase> window;
  std::string cliOnly;     ///< why the window cannot receive it (rows without `window`)
  std::string windowOnly;  ///< why the CLI cannot receive it (rows without `cli`)
};

/// Every row of bad_inputs.json, in file order. Throws std::runtime_error when the file is
/// malformed (a row with neither cli nor window_only, an unknown `via`, ...).
std::vector<Row> loadRows();

/// The files one row needs, written into a scratch directory.
struct RowFiles {
  std::filesystem::path dir;
  std::filesystem::path config;   ///< always written (the base config when the row has none)
  std::filesystem::path tensors;  ///< empty when the row has no tensors file
  std::filesystem::path session;  ///< empty when the row has no session file
};

/// Writes the row's configuration, tensors and session files into `dir` (created).
RowFiles writeRowFiles(const std::string& id, const std::filesystem::path& dir);

/// The CLI arguments of `row` with its placeholders replaced.
std::vector<std::string> cliArguments(const Row& row, const RowFiles& files);

}  // namespace mhaviz::catalogue
