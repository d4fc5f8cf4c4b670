#pragma once
/// \file
/// The file an .npz archive is written to, as a libzip source: libzip hands over what it writes
/// 8 KiB at a time (after copying each member's bytes and taking their CRC-32); a
/// ChunkedFileWriter gathers them into chunks that its second thread writes to the file, so the
/// kernel's copy into the page cache runs beside libzip's work instead of after it.

#include <zip.h>

#include <filesystem>

#include "chunked_writer.hpp"

namespace mhaviz::io {

class ZipFileSink {
 public:
  /// A sink writing to `path`, which must exist and be empty (see ChunkedFileWriter::open).
  /// Nothing is opened before libzip begins writing.
  explicit ZipFileSink(std::filesystem::path path);
  ~ZipFileSink();
  ZipFileSink(const ZipFileSink&) = delete;
  ZipFileSink& operator=(const ZipFileSink&) = delete;

  /// A libzip source for zip_open_from_source (ZIP_CREATE | ZIP_TRUNCATE). The sink must
  /// outlive it; freeing the source leaves the sink alone.
  zip_source_t* make_source(zip_error_t* error);

 private:
  static zip_int64_t callback(void* self, void* data, zip_uint64_t len, zip_source_cmd_t cmd);
  zip_int64_t handle(void* data, zip_uint64_t len, zip_source_cmd_t cmd);
  int seek(void* data, zip_uint64_t len);
  int fail(int system_errno);  // records a write error for libzip; returns -1

  std::filesystem::path path_;
  zip_error_t error_;
  ChunkedFileWriter file_;
};

}  // namespace mhaviz::io
