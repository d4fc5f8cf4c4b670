#include "chunked_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mhaviz::io {

namespace {

/// Chunks of 1 MiB, four of them: large enough that a pwrite(2) costs little per byte, small
/// enough that a chunk is still in the cache when the writer thread copies it out.
constexpr std::size_t kChunkBytes = 1 << 20;
constexpr std::size_t kChunks = 4;

}  // namespace

ChunkedFileWriter::~ChunkedFileWriter() { abort(); }

int ChunkedFileWriter::open(const std::filesystem::path& path) {
  abort();
  fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) return errno;
  position_ = size_ = 0;
  pool_.clear();
  free_.clear();
  queued_.clear();
  closing_ = false;
  write_errno_ = 0;
  for (std::size_t i = 0; i < kChunks; ++i) {
    pool_.push_back({std::make_unique_for_overwrite<std::byte[]>(kChunkBytes), 0, 0});
    if (i > 0) free_.push_back(i);
  }
  current_ = 0;
  writer_ = std::thread([this] { writer_loop(); });
  return 0;
}

int ChunkedFileWriter::error() {
  std::lock_guard lock(mutex_);
  return write_errno_;
}

bool ChunkedFileWriter::hand_over() {
  Chunk& chunk = pool_[current_];
  if (chunk.used == 0) {
    chunk.offset = position_;
    return error() == 0;
  }
  std::unique_lock lock(mutex_);
  queued_.push_back(current_);
  changed_.notify_all();
  changed_.wait(lock, [this] { return !free_.empty() || write_errno_ != 0; });
  if (write_errno_ != 0) return false;
  current_ = free_.back();
  free_.pop_back();
  pool_[current_].used = 0;
  pool_[current_].offset = position_;
  return true;
}

bool ChunkedFileWriter::write(const std::byte* data, std::size_t len) {
  std::size_t done = 0;
  while (done < len) {
    Chunk& chunk = pool_[current_];
    const std::size_t n = std::min(len - done, kChunkBytes - chunk.used);
    std::memcpy(chunk.bytes.get() + chunk.used, data + done, n);
    chunk.used += n;
    done += n;
    position_ += n;
    if (chunk.used == kChunkBytes && !hand_over()) return false;
  }
  size_ = std::max(size_, position_);
  return true;
}

bool ChunkedFileWriter::seek(std::uint64_t position) {
  if (!hand_over()) return false;
  position_ = position;
  pool_[current_].offset = position_;
  return true;
}

int ChunkedFileWriter::finish() {
  if (fd_ < 0) return EBADF;
  const bool handed = hand_over();
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    changed_.notify_all();
  }
  if (writer_.joinable()) writer_.join();
  int err = write_errno_;
  if (fd_ >= 0 && ::close(fd_) != 0 && err == 0) err = errno;
  fd_ = -1;
  if (!handed && err == 0) err = EIO;
  return err;
}

void ChunkedFileWriter::abort() {
  if (writer_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      queued_.clear();
      changed_.notify_all();
    }
    writer_.join();
  }
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

void ChunkedFileWriter::writer_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return !queued_.empty() || closing_; });
    if (queued_.empty()) return;  // closing, and everything is written
    const std::size_t index = queued_.front();
    queued_.pop_front();
    const bool write_it = write_errno_ == 0;
    lock.unlock();
    int err = 0;
    if (write_it) {
      const Chunk& chunk = pool_[index];
      std::size_t done = 0;
      while (done < chunk.used) {
        const ssize_t n = ::pwrite(fd_, chunk.bytes.get() + done, chunk.used - done,
                                   static_cast<off_t>(chunk.offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          err = n < 0 ? errno : ENOSPC;
          break;
        }
        done += static_cast<std::size_t>(n);
      }
    }
    lock.lock();
    if (err != 0 && write_errno_ == 0) write_errno_ = err;
    free_.push_back(index);
    changed_.notify_all();
  }
}

}  // namespace mhaviz::io
