#pragma once
/// \file
/// "Did you mean" suggestions for misspelt names in user files.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace mhaviz::io {

/// Levenshtein distance (insertions, deletions, substitutions each cost 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` when it is close enough to be a likely typo (distance at
/// most 2, or a third of the word's length for long words); nullopt otherwise.
std::optional<std::string_view> closest_name(std::string_view word,
                                             std::span<const std::string_view> candidates);

}  // namespace mhaviz::io
