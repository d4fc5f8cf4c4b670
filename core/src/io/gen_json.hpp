#pragma once
// Configuration-file keys of the generation settings (internal to the core): "attn_mask",
// "key_padding_mask", "inputs", "weights", "query_labels", "key_labels". Messages start with
// the source name and name the full key path ("attn_mask.kind").

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::io::detail {

void read_attn_mask(const nlohmann::json& value, Config& config, std::string_view source);
nlohmann::ordered_json write_attn_mask(const Config& config);

void read_key_padding(const nlohmann::json& value, Config& config, std::string_view source);
nlohmann::ordered_json write_key_padding(const Config& config);

void read_inputs(const nlohmann::json& value, Config& config, std::string_view source);
nlohmann::ordered_json write_inputs(const Config& config);

void read_weights(const nlohmann::json& value, Config& config, std::string_view source);
nlohmann::ordered_json write_weights(const Config& config);

/// "query_labels" / "key_labels": an array of strings.
void read_labels(const nlohmann::json& value, std::vector<std::string>& labels,
                 std::string_view source, std::string_view key);

}  // namespace mhaviz::io::detail
