#pragma once
/// \file
/// Writes a file in 1 MiB chunks through a second thread: the caller's bytes are copied into a
/// chunk (a copy from cache or memory that user code does fast), and a writer thread hands each
/// full chunk to pwrite(2) while the caller goes on. The kernel then copies from a chunk that is
/// still in the cache, which here is several times faster than write(2) straight from a large,
/// cold buffer, and its copy runs beside the caller's work.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mhaviz::io {

class ChunkedFileWriter {
 public:
  ChunkedFileWriter() = default;
  ~ChunkedFileWriter();
  ChunkedFileWriter(const ChunkedFileWriter&) = delete;
  ChunkedFileWriter& operator=(const ChunkedFileWriter&) = delete;

  /// Opens `path`, which must exist, for writing from its start. It is not truncated: the
  /// caller makes it empty (truncating makes ext4, with auto_da_alloc, write the whole file back
  /// when it is closed, a wait of about 0.2 s per 600 MB). Returns 0 or the errno.
  int open(const std::filesystem::path& path);
  /// Appends at the current position. False after a failed write (see error()).
  bool write(const std::byte* data, std::size_t len);
  /// Moves the position (the bytes gathered so far still go where they were written).
  bool seek(std::uint64_t position);
  [[nodiscard]] std::uint64_t position() const { return position_; }
  [[nodiscard]] std::uint64_t size() const { return size_; }
  /// Writes what is left, ends the thread and closes the file. Returns 0 or the first errno.
  int finish();
  /// Ends the thread and closes the file without writing what is left.
  void abort();
  /// The first errno of a failed write (0 if none).
  int error();

 private:
  struct Chunk {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t used = 0;
    std::uint64_t offset = 0;  // where in the file its first byte goes
  };
  bool hand_over();  // queues the current chunk (if it holds bytes) and takes a free one
  void writer_loop();

  int fd_ = -1;
  std::uint64_t position_ = 0;
  std::uint64_t size_ = 0;
  std::vector<Chunk> pool_;
  std::size_t current_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::size_t> free_;
  std::deque<std::size_t> queued_;  // oldest first
  bool closing_ = false;
  int write_errno_ = 0;
  std::thread writer_;
};

}  // namespace mhaviz::io
