#pragma once
/// \file
/// The header of a .npy file: a Python dict literal such as
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`.

#include <string>
#include <string_view>

#include "mhaviz/core/base/tensor.hpp"

namespace mhaviz::io {

struct NpyHeader {
  std::string descr;  ///< numpy dtype string, e.g. "<f4"
  bool fortran_order = false;
  Shape shape;  ///< () for a 0-d array
};

/// Parses the dict literal (a safe subset of Python: strings, True/False, tuples of
/// non-negative integers). Requires exactly the keys 'descr', 'fortran_order' and 'shape'.
/// Throws InvalidInput starting with `name` and saying what is wrong with the header.
NpyHeader parse_npy_header(std::string_view text, std::string_view name);

}  // namespace mhaviz::io
