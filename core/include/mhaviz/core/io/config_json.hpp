#pragma once
/// \file
/// The configuration file: one JSON object whose keys are Config's field names (PyTorch's
/// argument names), e.g. {"embed_dim": 16, "num_heads": 2, "batch_size": null}.

#include <filesystem>
#include <string>
#include <string_view>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::io {

/// Parses a configuration. Missing keys keep Config's defaults (PyTorch's). Throws
/// InvalidInput starting with `source_name` for a JSON syntax error (with line and column), a
/// top level that is not an object, an unknown or repeated key (with a "did you mean"
/// suggestion) or a value of the wrong type (naming the key and the expected type). Value
/// ranges are not checked here: validate_config() does that with PyTorch's messages.
Config parse_config_json(std::string_view text, std::string_view source_name);

/// Reads and parses a configuration file; messages name the file.
Config read_config_file(const std::filesystem::path& path);

/// Every key in Config's field order, 2-space indented, ending in a newline.
/// parse_config_json(config_to_json(c), ...) == c exactly (doubles are written round-trip).
std::string config_to_json(const Config& config);

}  // namespace mhaviz::io
