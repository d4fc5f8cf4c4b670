#include "mhaviz/core/io/npz.hpp"

#include <zip.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npy.hpp"
#include "piece_producer.hpp"
#include "pieced_member.hpp"
#include "zip_sink.hpp"

namespace mhaviz::io {

namespace {

/// Deflate cannot expand data by more than about 1032:1, so a member claiming more than this
/// many bytes per compressed byte is lying.
constexpr std::uint64_t kMaxDeflateRatio = 1032;
constexpr std::uint64_t kDeflateSlack = 1024;

/// zlib's level for deflated members (libzip's default is 9). Float results barely compress
/// at any level: at (1,2048,2048,512,8) level 1 is about 20% faster than 6 or 9 and its file
/// about 0.5% larger.
constexpr zip_uint32_t kDeflateLevel = 1;

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};
struct ZipErrorGuard {
  zip_error_t error;
  ZipErrorGuard() { zip_error_init(&error); }
  ~ZipErrorGuard() { zip_error_fini(&error); }
  ZipErrorGuard(const ZipErrorGuard&) = delete;
  ZipErrorGuard& operator=(const ZipErrorGuard&) = delete;
};

/// Reads up to `out.size()` bytes of the member into `out`; the count read (short only at its
/// end).
std::size_t read_some(zip_file_t* file, std::span<std::byte> out, const std::string& where) {
  std::size_t done = 0;
  while (done < out.size()) {
    const auto want = static_cast<zip_uint64_t>(std::min<std::size_t>(out.size() - done, 1 << 30));
    const zip_int64_t got = zip_fread(file, out.data() + done, want);
    if (got < 0) throw InvalidInput(where + ": corrupt member: " + zip_file_strerror(file));
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

[[noreturn]] void truncated(const std::string& where, std::uint64_t got, const zip_stat_t& st) {
  throw InvalidInput(where + ": truncated member: " + std::to_string(got) + " of " +
                     std::to_string(st.size) + " bytes");
}

/// Reads one member into its tensor. Its first MiB is read into a buffer for the .npy header;
/// the data then goes straight into the tensor (one copy of a tensor of hundreds of MB, where a
/// buffer of the whole member and a copy of that took two). The buffer is at most a MiB; the
/// tensor's size is the header's, which must match the member's declared size, itself bounded
/// before this (a stored member by the file's size, a deflated one by deflate's ratio), and its
/// memory is touched only as the data arrives.
Tensor read_member(zip_t* archive, zip_uint64_t index, const zip_stat_t& st,
                   const std::string& where) {
  std::unique_ptr<zip_file_t, ZipFileCloser> file(zip_fopen_index(archive, index, 0));
  if (!file) {
    throw InvalidInput(where + ": cannot open the member: " + zip_strerror(archive));
  }
  constexpr std::size_t kChunk = 1 << 20;
  std::vector<std::byte> data(static_cast<std::size_t>(std::min<zip_uint64_t>(st.size, kChunk)));
  data.resize(read_some(file.get(), data, where));
  if (data.size() < std::min<zip_uint64_t>(st.size, kChunk)) truncated(where, data.size(), st);
  const std::optional<NpyLayout> layout = npy_layout(data, st.size, where);
  if (!layout || layout->fortran_order || layout->type == ElemType::boolean) {
    // A header over a MiB, or data that needs more than a copy: the whole member, then parsed.
    for (;;) {
      const std::size_t have = data.size();
      data.resize(have + kChunk);
      const std::size_t got = read_some(file.get(), std::span(data).subspan(have), where);
      data.resize(have + got);
      if (data.size() > st.size) {
        throw InvalidInput(where + ": corrupt member: it holds more than its declared " +
                           std::to_string(st.size) + " bytes");
      }
      if (got < kChunk) break;
    }
    if (data.size() != st.size) truncated(where, data.size(), st);
    return parse_npy(data, where);
  }
  Tensor tensor = Tensor::uninitialized(layout->type, layout->shape);  // every byte written
  const std::span<std::byte> dst = tensor.bytes();
  const std::size_t first = data.size() - layout->data_start;  // data read with the header
  if (first > 0) std::memcpy(dst.data(), data.data() + layout->data_start, first);
  const std::size_t rest = read_some(file.get(), dst.subspan(first), where);
  if (first + rest < dst.size()) truncated(where, data.size() + rest, st);
  std::byte extra{};
  if (read_some(file.get(), std::span(&extra, 1), where) != 0) {
    throw InvalidInput(where + ": corrupt member: it holds more than its declared " +
                       std::to_string(st.size) + " bytes");
  }
  return tensor;
}

}  // namespace

TensorMap read_npz(const std::filesystem::path& path) {
  // Read the bytes ourselves so that "missing" and "directory" get the common messages and
  // libzip works on exactly the bytes we sized; mapped, not copied (a model's tensors file is
  // hundreds of MB, each member is copied once into its tensor).
  const MappedFile file(path);
  return parse_npz(file.bytes(), display_name(path));
}

TensorMap parse_npz(std::span<const std::byte> bytes, std::string_view name) {
  const std::string file_name(name);
  ZipErrorGuard err;
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err.error);
  if (source == nullptr) {
    throw InvalidInput(file_name + ": cannot read: " + zip_error_strerror(&err.error));
  }
  std::unique_ptr<zip_t, ZipCloser> archive(
      zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &err.error));
  if (!archive) {
    zip_source_free(source);
    throw InvalidInput(file_name +
                       ": not a valid .npz (zip) file: " + zip_error_strerror(&err.error) +
                       " (truncated or not an .npz: write it again with numpy.savez)");
  }

  TensorMap tensors;
  const zip_int64_t count = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    const auto index = static_cast<zip_uint64_t>(i);
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive.get(), index, 0, &st) != 0) {
      throw InvalidInput(file_name + ": corrupt zip directory entry " + std::to_string(i) + ": " +
                         zip_strerror(archive.get()));
    }
    const std::string member = st.name != nullptr ? st.name : "";
    if (!member.empty() && member.back() == '/') continue;  // a directory entry
    const std::string where = file_name + ": member \"" + member + "\"";
    constexpr std::string_view kSuffix = ".npy";
    if (member.size() <= kSuffix.size() ||
        member.compare(member.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
      throw InvalidInput(where + " is not a .npy array (an .npz holds only NAME.npy members)");
    }
    const std::string tensor_name = member.substr(0, member.size() - kSuffix.size());
    const std::string tensor_where = file_name + ": \"" + tensor_name + "\"";

    const zip_uint64_t needed_flags = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD;
    if ((st.valid & needed_flags) != needed_flags) {
      throw InvalidInput(tensor_where + ": the zip directory does not give the member's sizes");
    }
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) != 0 && st.encryption_method != ZIP_EM_NONE) {
      throw InvalidInput(tensor_where + ": encrypted members are not supported");
    }
    if (st.comp_size > bytes.size()) {
      throw InvalidInput(tensor_where + ": corrupt member: it claims " +
                         std::to_string(st.comp_size) + " bytes in a file of " +
                         std::to_string(bytes.size()) + " bytes");
    }
    if (st.comp_method == ZIP_CM_STORE) {
      if (st.size != st.comp_size) {
        throw InvalidInput(tensor_where + ": corrupt member: stored with size " +
                           std::to_string(st.size) + " but " + std::to_string(st.comp_size) +
                           " bytes in the archive");
      }
    } else if (st.comp_method == ZIP_CM_DEFLATE) {
      if (st.size > st.comp_size * kMaxDeflateRatio + kDeflateSlack) {
        throw InvalidInput(tensor_where + ": corrupt member: it declares " +
                           std::to_string(st.size) + " bytes uncompressed, more than " +
                           std::to_string(st.comp_size) + " deflated bytes can hold");
      }
    } else {
      throw InvalidInput(tensor_where + ": unsupported zip compression method " +
                         std::to_string(st.comp_method) +
                         " (np.savez stores, np.savez_compressed deflates; use one of those)");
    }
    if (st.size > kMaxNpzMemberBytes) {
      throw InvalidInput(tensor_where + ": the member declares " + std::to_string(st.size) +
                         " bytes, more than the 4 GiB limit for one tensor");
    }
    if (tensors.count(tensor_name) != 0) {
      throw InvalidInput(tensor_where + ": the archive holds this name twice");
    }
    tensors.emplace(tensor_name, read_member(archive.get(), index, st, tensor_where));
  }
  return tensors;
}

void write_npz(const std::filesystem::path& path, const TensorMap& tensors, bool compressed) {
  write_npz_streamed(path, streamed(tensors), compressed);
}

void write_npz_streamed(const std::filesystem::path& path, const StreamedTensors& tensors,
                        bool compressed) {
  const std::string file_name = display_name(path);
  if (tensors.empty()) {
    // libzip drops an archive without entries; numpy writes the bare end-of-directory record.
    std::vector<std::byte> empty(22, std::byte{0});
    const char sig[] = {'P', 'K', 5, 6};
    for (std::size_t i = 0; i < 4; ++i) empty[i] = static_cast<std::byte>(sig[i]);
    write_file_atomic(path, empty);
    return;
  }
  // The archive is written straight into the temporary file of replace_file_atomic, through
  // ZipFileSink (whose second thread does the writing while libzip copies the next bytes and
  // takes their CRC-32). Each member is its .npy header plus the tensor's bytes, read by libzip
  // from where they are (never a copy of a whole tensor); a PiecedTensor's pieces are made by a
  // third thread a few pieces ahead of libzip (PiecedMember).
  replace_file_atomic(path, [&](const std::filesystem::path& tmp) {
    ZipErrorGuard err;
    ZipFileSink sink(tmp);
    // What making a piece threw; the producer, members, headers and fragment lists must stay
    // alive until zip_close (or zip_discard).
    std::exception_ptr piece_error;
    PieceProducer producer(tensors);
    std::vector<std::unique_ptr<PiecedMember>> pieced;
    std::vector<std::vector<std::byte>> headers;
    headers.reserve(tensors.size());
    zip_source_t* target = sink.make_source(&err.error);
    zip_t* archive = target == nullptr
                         ? nullptr
                         : zip_open_from_source(target, ZIP_CREATE | ZIP_TRUNCATE, &err.error);
    if (archive == nullptr) {
      if (target != nullptr) zip_source_free(target);
      throw InvalidInput(file_name + ": cannot create archive: " + zip_error_strerror(&err.error));
    }
    std::unique_ptr<zip_t, ZipCloser> archive_owner(archive);
    for (const auto& [name, entry] : tensors) {
      zip_source_t* member = nullptr;
      if (const auto* tensor = std::get_if<Tensor>(&entry)) {
        headers.push_back(npy_header_bytes(*tensor));
        const auto data = tensor->bytes();
        zip_buffer_fragment_t fragments[2] = {
            {reinterpret_cast<zip_uint8_t*>(headers.back().data()), headers.back().size()},
            {reinterpret_cast<zip_uint8_t*>(const_cast<std::byte*>(data.data())), data.size()}};
        member = zip_source_buffer_fragment(archive, fragments, data.empty() ? 1 : 2, 0);
      } else {
        pieced.push_back(
            std::make_unique<PiecedMember>(name, npy_header_bytes(type_of(entry), shape_of(entry)),
                                           byte_size(entry), producer, piece_error));
        member = pieced.back()->make_source(archive);
      }
      if (member == nullptr) {
        throw InvalidInput(file_name + ": cannot add \"" + name + "\": " + zip_strerror(archive));
      }
      const zip_int64_t index =
          zip_file_add(archive, (name + ".npy").c_str(), member, ZIP_FL_ENC_UTF_8);
      if (index < 0) {
        zip_source_free(member);
        throw InvalidInput(file_name + ": cannot add \"" + name + "\": " + zip_strerror(archive));
      }
      if (zip_set_file_compression(archive, static_cast<zip_uint64_t>(index),
                                   compressed ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                   compressed ? kDeflateLevel : 0) != 0) {
        throw InvalidInput(file_name + ": cannot set compression: " + zip_strerror(archive));
      }
    }
    if (zip_close(archive) != 0) {
      producer.stop();
      if (piece_error) rethrow_naming(piece_error, file_name);
      throw InvalidInput(file_name + ": cannot write the archive: " + zip_strerror(archive));
    }
    archive_owner.release();  // zip_close freed it
  });
}

}  // namespace mhaviz::io
