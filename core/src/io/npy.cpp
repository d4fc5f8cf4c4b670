#include "mhaviz/core/io/npy.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npy_header.hpp"

static_assert(std::endian::native == std::endian::little,
              "the file formats copy little-endian data verbatim");

namespace mhaviz::io {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

std::uint32_t read_le(std::span<const std::byte> bytes, std::size_t offset, std::size_t width) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < width; ++i) {
    v |= static_cast<std::uint32_t>(std::to_integer<std::uint8_t>(bytes[offset + i])) << (8 * i);
  }
  return v;
}

[[noreturn]] void fail(std::string_view name, const std::string& problem) {
  throw InvalidInput(std::string(name) + ": " + problem);
}

ElemType dtype_from_descr(std::string_view descr, std::string_view name) {
  if (descr == "<f4") return ElemType::f32;
  if (descr == "<f8") return ElemType::f64;
  if (descr == "|b1") return ElemType::boolean;
  if (descr == "|u1") return ElemType::u8;
  std::string problem = "unsupported dtype '" + std::string(descr) + "'";
  if (!descr.empty() && descr[0] == '>') {
    problem += " (big-endian; convert with arr.astype(arr.dtype.newbyteorder('<')))";
  } else if (descr == "<f2" || descr == "<i8" || descr == "<i4" || descr == "<i2" ||
             descr == "|i1" || descr == "<u2" || descr == "<u4" || descr == "<u8") {
    problem += " (convert with arr.astype(np.float32) or arr.astype(np.float64))";
  }
  fail(name, problem + "; supported dtypes are " + std::string(kNpySupportedDtypes));
}

/// Copies Fortran-order data (first index fastest) into C order (last index fastest).
void fortran_to_c(std::span<const std::byte> src, std::span<std::byte> dst, const Shape& shape,
                  std::size_t elem) {
  const std::size_t nd = shape.size();
  if (nd < 2) {
    std::memcpy(dst.data(), src.data(), src.size());
    return;
  }
  std::vector<std::size_t> fstride(nd, 1);
  for (std::size_t k = 1; k < nd; ++k) {
    fstride[k] = fstride[k - 1] * static_cast<std::size_t>(shape[k - 1]);
  }
  std::vector<std::int64_t> index(nd, 0);
  const std::size_t n = dst.size() / elem;
  std::size_t f_offset = 0;
  for (std::size_t c = 0; c < n; ++c) {
    std::memcpy(dst.data() + c * elem, src.data() + f_offset * elem, elem);
    // Advance the C-order multi-index (last dimension fastest), keeping f_offset in step.
    for (std::size_t k = nd; k-- > 0;) {
      ++index[k];
      f_offset += fstride[k];
      if (index[k] < shape[k]) break;
      f_offset -= fstride[k] * static_cast<std::size_t>(shape[k]);
      index[k] = 0;
    }
  }
}

}  // namespace

std::optional<NpyLayout> npy_layout(std::span<const std::byte> bytes, std::uint64_t total,
                                    std::string_view name) {
  constexpr std::size_t kPrefix = 8;  // magic + major + minor
  const bool more = total > bytes.size();  // bytes of the .npy that are not in `bytes`
  if (bytes.size() < kPrefix && more) return std::nullopt;
  if (bytes.size() < kPrefix || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) {
    if (bytes.size() < kPrefix && bytes.size() > 0 &&
        std::memcmp(bytes.data(), kMagic.data(), std::min(bytes.size(), kMagic.size())) == 0) {
      fail(name, "truncated .npy file: " + std::to_string(bytes.size()) +
                     " bytes, too short for the .npy preamble");
    }
    fail(name, "not a .npy file (it does not start with the \\x93NUMPY magic string)");
  }
  const auto major = std::to_integer<unsigned>(bytes[6]);
  const auto minor = std::to_integer<unsigned>(bytes[7]);
  std::size_t len_width = 0;
  if (major == 1) {
    len_width = 2;
  } else if (major == 2 || major == 3) {
    len_width = 4;
  } else {
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " (versions 1.0, 2.0 and 3.0 are supported)");
  }
  if (bytes.size() < kPrefix + len_width) {
    if (more) return std::nullopt;
    fail(name, "truncated .npy file: it ends inside the header length field");
  }
  const std::size_t header_len = read_le(bytes, kPrefix, len_width);
  const std::size_t header_start = kPrefix + len_width;
  if (header_len > total - header_start) {
    fail(name, "truncated or corrupt .npy file: the header claims " + std::to_string(header_len) +
                   " bytes but only " + std::to_string(total - header_start) +
                   " bytes follow the preamble");
  }
  if (header_len > bytes.size() - header_start) return std::nullopt;
  const std::string_view header_text(reinterpret_cast<const char*>(bytes.data() + header_start),
                                     header_len);
  const NpyHeader header = parse_npy_header(header_text, name);
  const ElemType type = dtype_from_descr(header.descr, name);

  // Element count and byte count with overflow checks, compared with the bytes really present.
  const std::size_t data_start = header_start + header_len;
  const std::uint64_t available = total - data_start;
  const std::size_t elem = elem_size(type);
  std::uint64_t count = 1;
  for (const std::int64_t d : header.shape) {
    const auto ud = static_cast<std::uint64_t>(d);
    if (ud != 0 && count > std::numeric_limits<std::uint64_t>::max() / ud / elem) {
      fail(name, "the header's shape " + shape_str(header.shape) + " is impossibly large");
    }
    count *= ud;
  }
  const std::uint64_t need = count * elem;
  if (need != available) {
    const std::string claim = "the header declares shape " + shape_str(header.shape) + " " +
                              std::string(to_string(type)) + " = " + std::to_string(need) +
                              " bytes of data, but ";
    if (need > available) {
      fail(name, "truncated .npy file: " + claim + "only " + std::to_string(available) +
                     " bytes follow the header");
    }
    fail(name,
         "corrupt .npy file: " + claim + std::to_string(available) + " bytes follow the header");
  }
  return NpyLayout{type, header.shape, header.fortran_order, data_start,
                   static_cast<std::size_t>(need)};
}

Tensor parse_npy(std::span<const std::byte> bytes, std::string_view name) {
  const NpyLayout layout = *npy_layout(bytes, bytes.size(), name);   // all of it is in `bytes`
  Tensor tensor = Tensor::uninitialized(layout.type, layout.shape);  // every byte written below
  const auto src = bytes.subspan(layout.data_start, layout.data_bytes);
  auto dst = tensor.bytes();
  if (layout.fortran_order) {
    fortran_to_c(src, dst, layout.shape, elem_size(layout.type));
  } else if (layout.data_bytes > 0) {
    std::memcpy(dst.data(), src.data(), src.size());
  }
  if (layout.type == ElemType::boolean) {
    for (auto& b : tensor.data<std::uint8_t>()) b = b != 0 ? 1 : 0;
  }
  return tensor;
}

Tensor read_npy(const std::filesystem::path& path) {
  const auto bytes = read_file_bytes(path);
  return parse_npy(bytes, display_name(path));
}

std::vector<std::byte> npy_header_bytes(const Tensor& tensor) {
  return npy_header_bytes(tensor.type(), tensor.shape());
}

std::vector<std::byte> npy_header_bytes(ElemType type, const Shape& shape) {
  std::string descr;
  switch (type) {
    case ElemType::f32:
      descr = "<f4";
      break;
    case ElemType::f64:
      descr = "<f8";
      break;
    case ElemType::boolean:
      descr = "|b1";
      break;
    case ElemType::u8:
      descr = "|u1";
      break;
  }
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_str(shape) + ", }";
  // numpy pads with spaces and a final newline so that the data starts 64-byte aligned.
  constexpr std::size_t kAlign = 64;
  std::size_t len_width = 2;
  unsigned major = 1;
  std::size_t total = 8 + len_width + header.size() + 1;
  if ((total + kAlign - 1) / kAlign * kAlign - 8 - len_width > 0xFFFF) {
    len_width = 4;
    major = 2;
    total = 8 + len_width + header.size() + 1;
  }
  const std::size_t padded = (total + kAlign - 1) / kAlign * kAlign;
  header.append(padded - total, ' ');
  header.push_back('\n');
  const std::size_t header_len = header.size();

  std::vector<std::byte> out;
  out.reserve(padded);
  for (const char c : kMagic) out.push_back(static_cast<std::byte>(c));
  out.push_back(static_cast<std::byte>(major));
  out.push_back(std::byte{0});
  for (std::size_t i = 0; i < len_width; ++i) {
    out.push_back(static_cast<std::byte>((header_len >> (8 * i)) & 0xFF));
  }
  for (const char c : header) out.push_back(static_cast<std::byte>(c));
  return out;
}

std::vector<std::byte> serialize_npy(const Tensor& tensor) {
  std::vector<std::byte> out = npy_header_bytes(tensor);
  const auto data = tensor.bytes();
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

void write_npy(const std::filesystem::path& path, const Tensor& tensor) {
  const std::vector<std::byte> header = npy_header_bytes(tensor);
  const std::span<const std::byte> parts[] = {header, tensor.bytes()};
  write_parts_atomic(path, parts);
}

}  // namespace mhaviz::io
