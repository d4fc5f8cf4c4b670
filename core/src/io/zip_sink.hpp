#pragma once
/// \file
/// The file an .npz archive is written to, as a libzip source: libzip hands over what it writes
/// 8 KiB at a time (after copying each member's bytes and taking their CRC-32); the sink gathers
/// them into chunks that a second thread writes to the file with pwrite(2), so the kernel's copy
/// into the page cache runs beside libzip's work instead of after it.

#include <zip.h>

#include <condition_variable>
#include <deque>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mhaviz::io {

class ZipFileSink {
 public:
  /// A sink writing to `path`, which must exist (it is opened without truncation: the caller
  /// makes it empty). Nothing is opened before libzip begins writing.
  explicit ZipFileSink(std::filesystem::path path);
  ~ZipFileSink();
  ZipFileSink(const ZipFileSink&) = delete;
  ZipFileSink& operator=(const ZipFileSink&) = delete;

  /// A libzip source for zip_open_from_source (ZIP_CREATE | ZIP_TRUNCATE). The sink must
  /// outlive it; freeing the source leaves the sink alone.
  zip_source_t* make_source(zip_error_t* error);

 private:
  struct Chunk {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t used = 0;
    std::uint64_t offset = 0;  // where in the file its first byte goes
  };

  static zip_int64_t callback(void* self, void* data, zip_uint64_t len, zip_source_cmd_t cmd);
  zip_int64_t handle(void* data, zip_uint64_t len, zip_source_cmd_t cmd);
  int begin_write();
  zip_int64_t write(const std::byte* data, std::size_t len);
  int seek(void* data, zip_uint64_t len);
  int commit();
  void stop();           // ends and joins the writer thread, closes the file
  bool hand_over();      // queues the current chunk (if it holds bytes) and takes a free one
  void writer_loop();
  bool failed();         // copies the writer's error into error_ when it has one

  std::filesystem::path path_;
  zip_error_t error_;
  int fd_ = -1;
  std::uint64_t position_ = 0;  // where libzip's next byte goes
  std::uint64_t size_ = 0;      // the end of the furthest byte written

  std::vector<Chunk> pool_;
  std::size_t current_ = 0;  // the chunk being filled (an index into pool_)
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::size_t> free_;    // chunks ready to fill
  std::deque<std::size_t> queued_;   // chunks to write, oldest first
  bool closing_ = false;
  int write_errno_ = 0;  // the writer's first error
  std::thread writer_;
};

}  // namespace mhaviz::io
