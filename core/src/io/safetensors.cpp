#include "mhaviz/core/io/safetensors.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "chunked_writer.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "piece_producer.hpp"

namespace mhaviz::io {

namespace {

using nlohmann::json;

/// safetensors itself refuses headers over 100 MB.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
constexpr std::string_view kSupported = "F32, F64, BOOL, U8";

struct Entry {
  std::string name;
  ElemType type;
  Shape shape;
  std::uint64_t begin;
  std::uint64_t end;
};

std::string_view dtype_name(ElemType type) {
  switch (type) {
    case ElemType::f32:
      return "F32";
    case ElemType::f64:
      return "F64";
    case ElemType::boolean:
      return "BOOL";
    case ElemType::u8:
      return "U8";
  }
  return "?";
}

/// The value as a message shows it. Arrays and objects are named, never dumped: a hostile
/// header may nest them deeply enough to overflow the stack of the recursive dump().
std::string brief(const json& v) {
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  constexpr std::size_t kMaxShown = 40;
  std::string text = v.dump();
  if (text.size() > kMaxShown) text = text.substr(0, kMaxShown) + "...";
  return text;
}

std::uint64_t to_index(const json& v, const std::string& where, const std::string& what) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
    throw InvalidInput(where + ": " + what + " must be a non-negative integer, got " + brief(v));
  }
  return v.get<std::uint64_t>();
}

Entry parse_entry(const std::string& name, const json& info, const std::string& file_name) {
  const std::string where = file_name + ": \"" + name + "\"";
  if (!info.is_object()) throw InvalidInput(where + ": header entry is not an object");
  for (const char* key : {"dtype", "shape", "data_offsets"}) {
    if (!info.contains(key)) throw InvalidInput(where + ": header entry has no \"" + key + "\"");
  }
  const json& dtype = info["dtype"];
  if (!dtype.is_string()) throw InvalidInput(where + ": \"dtype\" must be a string");
  const std::string d = dtype.get<std::string>();
  Entry e{name, ElemType::f32, {}, 0, 0};
  if (d == "F32") {
    e.type = ElemType::f32;
  } else if (d == "F64") {
    e.type = ElemType::f64;
  } else if (d == "BOOL") {
    e.type = ElemType::boolean;
  } else if (d == "U8") {
    e.type = ElemType::u8;
  } else {
    throw InvalidInput(where + ": unsupported dtype " + d + "; supported dtypes are " +
                       std::string(kSupported) +
                       " (convert first, e.g. tensor.float() or tensor.double())");
  }
  const json& shape = info["shape"];
  if (!shape.is_array()) throw InvalidInput(where + ": \"shape\" must be an array");
  std::uint64_t count = 1;
  const std::uint64_t elem = elem_size(e.type);
  for (const json& dim : shape) {
    const std::uint64_t d64 = to_index(dim, where, "each dimension of \"shape\"");
    if (d64 > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
        (d64 != 0 && count > std::numeric_limits<std::uint64_t>::max() / d64 / elem)) {
      throw InvalidInput(where + ": shape " + shape.dump() + " is impossibly large");
    }
    count *= d64;
    e.shape.push_back(static_cast<std::int64_t>(d64));
  }
  const json& offsets = info["data_offsets"];
  if (!offsets.is_array() || offsets.size() != 2) {
    throw InvalidInput(where + ": \"data_offsets\" must be [begin, end]");
  }
  e.begin = to_index(offsets[0], where, "data_offsets[0]");
  e.end = to_index(offsets[1], where, "data_offsets[1]");
  if (e.end < e.begin) {
    throw InvalidInput(where + ": data_offsets [" + std::to_string(e.begin) + ", " +
                       std::to_string(e.end) + "] end before they begin");
  }
  if (e.end - e.begin != count * elem) {
    throw InvalidInput(where + ": data_offsets [" + std::to_string(e.begin) + ", " +
                       std::to_string(e.end) + "] span " + std::to_string(e.end - e.begin) +
                       " bytes but shape " + shape_str(e.shape) + " " + d + " needs " +
                       std::to_string(count * elem));
  }
  return e;
}

}  // namespace

TensorMap read_safetensors(const std::filesystem::path& path) {
  const MappedFile file(path);  // mapped, not copied: each tensor is copied once from it
  return parse_safetensors(file.bytes(), display_name(path));
}

TensorMap parse_safetensors(std::span<const std::byte> bytes, std::string_view source_name) {
  const std::string file_name(source_name);
  if (bytes.size() < 8) {
    throw InvalidInput(file_name + ": truncated safetensors file: " + std::to_string(bytes.size()) +
                       " bytes, too short for the 8-byte header length");
  }
  std::uint64_t header_len = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    header_len |= static_cast<std::uint64_t>(std::to_integer<std::uint8_t>(bytes[i])) << (8 * i);
  }
  if (header_len > bytes.size() - 8) {
    throw InvalidInput(file_name + ": not a safetensors file or truncated: the header length " +
                       std::to_string(header_len) + " exceeds the " +
                       std::to_string(bytes.size() - 8) + " bytes after it");
  }
  if (header_len > kMaxHeaderBytes) {
    throw InvalidInput(file_name + ": safetensors header of " + std::to_string(header_len) +
                       " bytes is over the 100 MB limit");
  }
  const char* header_begin = reinterpret_cast<const char*>(bytes.data() + 8);
  json header;
  try {
    header = json::parse(header_begin, header_begin + header_len);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e400
    throw InvalidInput(file_name + ": not a safetensors file: its header is not valid JSON (" +
                       std::string(e.what()) + ")");
  }
  if (!header.is_object()) {
    throw InvalidInput(file_name + ": safetensors header must be a JSON object");
  }

  std::vector<Entry> entries;
  for (const auto& [name, info] : header.items()) {
    if (name == "__metadata__") continue;
    entries.push_back(parse_entry(name, info, file_name));
  }

  // Every byte of the buffer belongs to exactly one tensor: in range, no overlaps, no holes.
  const std::uint64_t buffer_size = bytes.size() - 8 - header_len;
  std::vector<const Entry*> by_offset;
  for (const Entry& e : entries) by_offset.push_back(&e);
  std::sort(by_offset.begin(), by_offset.end(), [](const Entry* a, const Entry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  std::uint64_t expected_begin = 0;
  const Entry* previous = nullptr;
  for (const Entry* e : by_offset) {
    const std::string where = file_name + ": \"" + e->name + "\"";
    if (e->end > buffer_size) {
      throw InvalidInput(where + ": data_offsets [" + std::to_string(e->begin) + ", " +
                         std::to_string(e->end) + "] run past the end of the " +
                         std::to_string(buffer_size) + "-byte data buffer (truncated file?)");
    }
    if (e->begin < expected_begin) {
      throw InvalidInput(where + ": data_offsets [" + std::to_string(e->begin) + ", " +
                         std::to_string(e->end) + "] overlap those of \"" + previous->name + "\"");
    }
    if (e->begin > expected_begin) {
      throw InvalidInput(where + ": corrupt safetensors file: bytes " +
                         std::to_string(expected_begin) + " to " + std::to_string(e->begin) +
                         " of the data buffer belong to no tensor");
    }
    expected_begin = e->end;
    previous = e;
  }
  if (expected_begin != buffer_size) {
    throw InvalidInput(file_name + ": corrupt safetensors file: the data buffer has " +
                       std::to_string(buffer_size - expected_begin) +
                       " bytes after the last tensor");
  }

  TensorMap tensors;
  const std::byte* data = bytes.data() + 8 + header_len;
  for (const Entry& e : entries) {
    Tensor t(e.type, e.shape);
    auto dst = t.bytes();
    if (!dst.empty()) std::memcpy(dst.data(), data + e.begin, dst.size());
    if (e.type == ElemType::boolean) {
      for (auto& b : t.data<std::uint8_t>()) b = b != 0 ? 1 : 0;
    }
    tensors.emplace(e.name, std::move(t));
  }
  return tensors;
}

void write_safetensors(const std::filesystem::path& path, const TensorMap& tensors) {
  write_safetensors_streamed(path, streamed(tensors));
}

void write_safetensors_streamed(const std::filesystem::path& path, const StreamedTensors& tensors) {
  json header = json::object();
  std::uint64_t offset = 0;
  for (const auto& [name, tensor] : tensors) {
    if (name == "__metadata__") {
      throw InvalidInput(display_name(path) +
                         ": a tensor cannot be named \"__metadata__\" in a safetensors file");
    }
    const std::uint64_t size = byte_size(tensor);
    header[name] = {{"dtype", dtype_name(type_of(tensor))},
                    {"shape", shape_of(tensor)},
                    {"data_offsets", {offset, offset + size}}};
    offset += size;
  }
  std::string text = header.dump();
  // safetensors pads with spaces so that the data buffer starts 8-byte aligned.
  text.append((8 - text.size() % 8) % 8, ' ');
  const std::uint64_t n = text.size();
  std::array<std::byte, 8> length{};
  for (std::size_t i = 0; i < 8; ++i) length[i] = static_cast<std::byte>((n >> (8 * i)) & 0xFF);
  // Streamed to the temporary file through 1 MiB chunks that a second thread writes: the
  // length, the header, then each tensor's own bytes, a PiecedTensor's pieces made by a third
  // thread a few pieces ahead.
  const std::string file_name = display_name(path);
  replace_file_atomic(path, [&](const std::filesystem::path& tmp) {
    ChunkedFileWriter out;
    int err = out.open(tmp);
    const auto put = [&](std::span<const std::byte> bytes) {
      if (err == 0 && !out.write(bytes.data(), bytes.size())) err = out.error();
      return err == 0;
    };
    put(length);
    put(std::as_bytes(std::span(text)));
    PieceProducer producer(tensors);
    for (const auto& [name, tensor] : tensors) {
      if (err != 0) break;
      if (const auto* held = std::get_if<Tensor>(&tensor)) {
        put(held->bytes());
        continue;
      }
      try {
        // By bytes, not by pieces: pieces that end short make next() throw, naming the tensor.
        for (std::uint64_t left = byte_size(tensor); left > 0 && err == 0;) {
          const Tensor piece = producer.next(name);
          put(piece.bytes());
          left -= std::min<std::uint64_t>(left, piece.bytes().size());
        }
      } catch (...) {
        producer.stop();
        out.abort();
        rethrow_naming(std::current_exception(), file_name);
      }
    }
    producer.stop();
    if (err == 0) {
      err = out.finish();
    } else {
      out.abort();
    }
    if (err != 0) throw InvalidInput(file_name + ": write failed (" + std::strerror(err) + ")");
  });
}

}  // namespace mhaviz::io
