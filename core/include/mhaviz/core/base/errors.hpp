#pragma once
/// \file
/// Exceptions thrown by the core. Messages are written for the user: they name the problem
/// and, where one exists, the fix. Where PyTorch raises for the same input, the text is PyTorch's.

#include <stdexcept>
#include <string>

namespace mhaviz {

/// An argument, tensor or file that cannot be used as given.
class InvalidInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The computation was abandoned because its cancel flag was set.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("computation cancelled") {}
};

}  // namespace mhaviz
