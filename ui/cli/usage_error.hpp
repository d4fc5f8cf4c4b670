#pragma once
// Exit codes of mhaviz-cli and the exception for command-line usage mistakes.

#include <stdexcept>

namespace mhaviz::cli {

/// Process exit codes.
enum ExitCode : int {
  kExitOk = 0,            // success
  kExitInvalidInput = 1,  // a file, tensor or setting cannot be used (mhaviz::InvalidInput)
  kExitUsage = 2,         // unknown command or option, missing required option, malformed value
};

/// A mistake in the command line itself (as opposed to the files it names). Exits with
/// kExitUsage after printing the message and a hint to use --help.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mhaviz::cli
