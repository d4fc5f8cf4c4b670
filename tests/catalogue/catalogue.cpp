#include "catalogue.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/io/tensor_file.hpp"

namespace mhaviz::catalogue {

namespace {

using nlohmann::json;

[[noreturn]] void malformed(const std::string& id, const std::string& what) {
  throw std::runtime_error("bad_inputs.json, row \"" + id + "\": " + what);
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

const json& document() {
  static const json doc = json::parse(readText(MHAVIZ_CATALOGUE_JSON));
  return doc;
}

const json& rowJson(const std::string& id) {
  for (const json& row : document().at("rows")) {
    if (row.at("id") == id) return row;
  }
  throw std::runtime_error("bad_inputs.json has no row \"" + id + "\"");
}

std::vector<std::string> strings(const json& row, const char* key) {
  return row.contains(key) ? row.at(key).get<std::vector<std::string>>()
                           : std::vector<std::string>{};
}

double number(const json& v) {
  if (v.is_number()) return v.get<double>();
  const auto s = v.get<std::string>();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  throw std::runtime_error("bad_inputs.json: not a number: " + s);
}

/// {"dtype": "f32", "shape": [..], "fill": 0.5, "first": "nan"} as a tensor.
Tensor makeTensor(const json& spec) {
  const std::string dtype = spec.at("dtype");
  const ElemType type = dtype == "f64"    ? ElemType::f64
                        : dtype == "bool" ? ElemType::boolean
                        : dtype == "u8"   ? ElemType::u8
                                          : ElemType::f32;
  const auto shape = spec.at("shape").get<Shape>();
  const double fill = spec.contains("fill") ? number(spec.at("fill")) : 0.0;
  std::vector<double> values(static_cast<std::size_t>(numel(shape)), fill);
  if (spec.contains("first") && !values.empty()) values[0] = number(spec.at("first"));
  std::vector<float> asFloat(values.begin(), values.end());
  std::vector<std::uint8_t> asByte;
  for (const double v : values) asByte.push_back(v != 0.0 ? 1 : 0);
  switch (type) {
    case ElemType::f64:
      return Tensor::from<double>(shape, values);
    case ElemType::boolean:
      return Tensor::from_bools(shape, asByte);
    case ElemType::u8:
      return Tensor::from<std::uint8_t>(shape, asByte);
    case ElemType::f32:
      break;
  }
  return Tensor::from<float>(shape, asFloat);
}

std::string littleEndian(std::uint64_t value, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFFU);
  return out;
}

/// A version 1.0 .npy with `header` (padded as numpy pads it) and `dataBytes` zero bytes.
std::string npyBytes(std::string header, std::size_t dataBytes) {
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + littleEndian(header.size(), 2) + header +
         std::string(dataBytes, '\0');
}

/// safetensors bytes: 8-byte length (or `claimedLength`), the JSON header, `dataBytes` zeros.
std::string safetensorsBytes(std::string header, std::optional<std::uint64_t> claimedLength,
                             std::size_t dataBytes) {
  while (header.size() % 8 != 0) header += ' ';
  return littleEndian(claimedLength.value_or(header.size()), 8) + header +
         std::string(dataBytes, '\0');
}

std::filesystem::path writeTensors(const json& spec, const std::filesystem::path& dir) {
  if (spec.contains("fixture")) {
    const std::filesystem::path from =
        std::filesystem::path(MHAVIZ_FIXTURE_DIR) / spec.at("fixture").get<std::string>();
    const std::filesystem::path to = dir / from.filename();
    std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
    return to;
  }
  const std::filesystem::path path = dir / spec.at("file").get<std::string>();
  const auto dataBytes = spec.value("data_bytes", std::size_t{0});
  if (spec.contains("npy_header")) {
    writeBytes(path, npyBytes(spec.at("npy_header"), dataBytes));
  } else if (spec.contains("safetensors_header")) {
    std::optional<std::uint64_t> claimed;
    if (spec.contains("header_length")) claimed = spec.at("header_length").get<std::uint64_t>();
    writeBytes(path, safetensorsBytes(spec.at("safetensors_header"), claimed, dataBytes));
  } else if (spec.contains("text")) {
    writeBytes(path, spec.at("text").get<std::string>());
  } else {
    io::TensorMap tensors;
    for (const auto& [name, t] : spec.at("tensors").items()) tensors.emplace(name, makeTensor(t));
    io::write_tensor_file(path, tensors);
  }
  const auto size = std::filesystem::file_size(path);
  if (spec.contains("truncate_by")) {
    std::filesystem::resize_file(path, size - spec.at("truncate_by").get<std::uintmax_t>());
  }
  if (spec.value("truncate_half", false)) std::filesystem::resize_file(path, size / 2);
  return path;
}

Row parseRow(const json& j) {
  Row row;
  row.id = j.at("id");
  row.input = j.at("input");
  row.cliOnly = j.value("cli_only", "");
  row.windowOnly = j.value("window_only", "");
  const std::vector<std::string> shared = strings(j, "message");
  if (j.contains("cli")) {
    const json& c = j.at("cli");
    CliCase cli;
    cli.args = strings(c, "args");
    cli.exitCode = c.at("exit");
    cli.warning = c.value("warning", false);
    cli.fragments = c.contains("stderr") ? strings(c, "stderr") : shared;
    if (cli.fragments.empty()) malformed(row.id, "cli has no message fragments");
    row.cli = cli;
  }
  if (j.contains("window")) {
    const json& w = j.at("window");
    WindowCase window;
    window.via = w.at("via");
    window.shows = w.at("shows");
    window.value = w.value("value", "");
    window.fragments = w.contains("message") ? strings(w, "message") : shared;
    if (window.fragments.empty()) malformed(row.id, "window has no message fragments");
    static const std::vector<std::string> vias = {
        "open_config",     "load_tensors", "open_session",   "open_missing", "load_missing",
        "save_unwritable", "model_flow",   "model_sink_eps", "open_weights"};
    static const std::vector<std::string> shows = {"inline", "dialog", "warning", "model_view"};
    if (std::find(vias.begin(), vias.end(), window.via) == vias.end()) {
      malformed(row.id, "unknown window.via \"" + window.via + "\"");
    }
    if (std::find(shows.begin(), shows.end(), window.shows) == shows.end()) {
      malformed(row.id, "unknown window.shows \"" + window.shows + "\"");
    }
    row.window = window;
  }
  if (!row.cli && row.windowOnly.empty()) malformed(row.id, "no cli entry and no window_only");
  if (!row.window && row.cliOnly.empty()) malformed(row.id, "no window entry and no cli_only");
  if (row.cli && !row.windowOnly.empty()) malformed(row.id, "both cli and window_only");
  if (row.window && !row.cliOnly.empty()) malformed(row.id, "both window and cli_only");
  return row;
}

}  // namespace

std::vector<Row> loadRows() {
  std::vector<Row> rows;
  for (const json& j : document().at("rows")) rows.push_back(parseRow(j));
  return rows;
}

RowFiles writeRowFiles(const std::string& id, const std::filesystem::path& dir) {
  const json& row = rowJson(id);
  std::filesystem::create_directories(dir);
  RowFiles files;
  files.dir = dir;
  files.config = dir / "c.json";
  if (row.contains("config_text")) {
    writeBytes(files.config, row.at("config_text").get<std::string>());
  } else {
    json config = document().at("base_config");
    if (row.contains("config")) {
      for (const auto& [key, value] : row.at("config").items()) config[key] = value;
    }
    writeBytes(files.config, config.dump());
  }
  if (row.contains("tensors")) files.tensors = writeTensors(row.at("tensors"), dir);
  if (row.contains("session")) {
    files.session = dir / "s.mhaviz.json";
    const json& s = row.at("session");
    writeBytes(files.session, s.is_string() ? s.get<std::string>() : s.dump());
  }
  return files;
}

std::vector<std::string> cliArguments(const Row& row, const RowFiles& files) {
  std::vector<std::string> args = row.cli ? row.cli->args : std::vector<std::string>{};
  if (args.empty()) {
    args = {"run", "--config", "{config}"};
    if (!files.tensors.empty()) args.insert(args.end(), {"--tensors", "{tensors}"});
    args.insert(args.end(), {"--out", "{dir}/r.npz"});
  }
  const std::pair<std::string, std::string> replacements[] = {{"{config}", files.config.string()},
                                                              {"{tensors}", files.tensors.string()},
                                                              {"{dir}", files.dir.string()}};
  for (std::string& a : args) {
    for (const auto& [from, to] : replacements) {
      for (auto at = a.find(from); at != std::string::npos; at = a.find(from, at + to.size())) {
        a.replace(at, from.size(), to);
      }
    }
  }
  return args;
}

}  // namespace mhaviz::catalogue
