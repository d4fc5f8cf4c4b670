#pragma once
/// \file
/// One .npz member of a PiecedTensor as a libzip source: its .npy header, then the tensor's
/// pieces as a PieceProducer makes them, handed to libzip (which reads 8 KiB at a time, takes
/// the CRC-32 and stores or deflates) without the whole tensor ever being in memory. libzip
/// reads it once, when zip_close writes the archive.

#include <zip.h>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "piece_producer.hpp"

namespace mhaviz::io {

class PiecedMember {
 public:
  /// The member of tensor `name`: `header` then `data_bytes` bytes from `producer`. What
  /// making a piece throws is kept in `error` (the first one), for the caller to throw after
  /// zip_close has failed. The producer and `error` must outlive the member.
  PiecedMember(std::string name, std::vector<std::byte> header, std::uint64_t data_bytes,
               PieceProducer& producer, std::exception_ptr& error);
  ~PiecedMember();
  PiecedMember(const PiecedMember&) = delete;
  PiecedMember& operator=(const PiecedMember&) = delete;

  /// A source for zip_file_add (null on failure, see zip_strerror(archive)). The member must
  /// outlive the archive (zip_close or zip_discard).
  zip_source_t* make_source(zip_t* archive);

 private:
  static zip_int64_t callback(void* self, void* data, zip_uint64_t len, zip_source_cmd_t cmd);
  zip_int64_t handle(void* data, zip_uint64_t len, zip_source_cmd_t cmd);
  zip_int64_t read(std::byte* out, std::uint64_t len);
  zip_int64_t stat(void* data, zip_uint64_t len);

  std::string name_;
  std::vector<std::byte> header_;
  std::uint64_t size_;  // header + data
  PieceProducer& producer_;
  std::exception_ptr& error_;
  std::time_t mtime_;
  zip_error_t zip_error_;
  bool opened_ = false;
  std::uint64_t position_ = 0;
  Tensor piece_;                            // the piece being handed over
  std::span<const std::byte> piece_bytes_;  // its bytes
  std::size_t piece_at_ = 0;                // how many of them libzip has had
};

}  // namespace mhaviz::io
