#pragma once
/// \file
/// The size-dependent generation settings as the user made them (custom attn_mask cells, graph
/// edges, key_padding_mask lengths and keys, token labels), kept apart from the fitted config:
/// what a smaller size cuts comes back when the size grows again, and a sample without padding
/// stays without padding at any S.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::gen {

class UserValues {
 public:
  UserValues() = default;
  /// Remembers what `config` holds (a configuration opened, started with or undone to). A
  /// valid length >= src_len is remembered as "no padding".
  explicit UserValues(const Config& config);

  /// Takes the user's edits: what `requested` changed against `shown`, the fitted
  /// configuration the user was looking at. Entries the edit did not touch keep their
  /// remembered values, including those the current sizes cut. A change of sizes together
  /// with other settings (an example, a file) starts afresh from `requested`.
  void take_edits(const Config& shown, const Config& requested);

  /// Puts the remembered values, fitted to `config`'s sizes (gen::fit_to_sizes's rules), into
  /// `config`; returns fit_to_sizes's notes on what the sizes cut or extended.
  std::vector<std::string> fit(Config& config) const;

  bool operator==(const UserValues&) const = default;

 private:
  static constexpr std::int64_t kUnpadded = -1;
  std::int64_t heads_ = 1;  // the num_heads the cells' blocks b = n*H + h are written for
  std::vector<MaskCell> cells_;
  std::vector<std::array<std::int64_t, 2>> edges_;
  std::vector<std::int64_t> lengths_;  // kUnpadded: a sample without padding
  std::vector<std::vector<std::int64_t>> padded_keys_;
  std::vector<std::string> query_labels_;
  std::vector<std::string> key_labels_;
};

}  // namespace mhaviz::gen
