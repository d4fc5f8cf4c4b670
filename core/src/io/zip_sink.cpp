#include "zip_sink.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace mhaviz::io {

namespace {

/// Chunks of 1 MiB, four of them: large enough that a pwrite(2) costs little per byte, small
/// enough that a chunk is still in the cache (L2 here) when the writer thread copies it out.
constexpr std::size_t kChunkBytes = 1 << 20;
constexpr std::size_t kChunks = 4;

}  // namespace

ZipFileSink::ZipFileSink(std::filesystem::path path) : path_(std::move(path)) {
  zip_error_init(&error_);
}

ZipFileSink::~ZipFileSink() {
  stop();
  zip_error_fini(&error_);
}

zip_source_t* ZipFileSink::make_source(zip_error_t* error) {
  return zip_source_function_create(&ZipFileSink::callback, this, error);
}

zip_int64_t ZipFileSink::callback(void* self, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
  return static_cast<ZipFileSink*>(self)->handle(data, len, cmd);
}

zip_int64_t ZipFileSink::handle(void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
  switch (cmd) {
    case ZIP_SOURCE_SUPPORTS:
      // libzip asks for a readable source too, but with ZIP_TRUNCATE on an archive that
      // "does not exist" (see STAT) it never reads.
      return ZIP_SOURCE_SUPPORTS_WRITABLE;
    case ZIP_SOURCE_STAT:
      // The archive is new: libzip takes a missing file (a read error with ENOENT) for that.
      zip_error_set(&error_, ZIP_ER_READ, ENOENT);
      return -1;
    case ZIP_SOURCE_ERROR:
      return zip_error_to_data(&error_, data, len);
    case ZIP_SOURCE_BEGIN_WRITE:
      return begin_write();
    case ZIP_SOURCE_WRITE:
      return write(static_cast<const std::byte*>(data), static_cast<std::size_t>(len));
    case ZIP_SOURCE_SEEK_WRITE:
      return seek(data, len);
    case ZIP_SOURCE_TELL_WRITE:
      return static_cast<zip_int64_t>(position_);
    case ZIP_SOURCE_COMMIT_WRITE:
      return commit();
    case ZIP_SOURCE_ROLLBACK_WRITE:
      stop();
      return 0;
    case ZIP_SOURCE_REMOVE:  // an archive without members: write_npz never gives libzip one
    case ZIP_SOURCE_FREE:    // the sink belongs to the caller
    case ZIP_SOURCE_CLOSE:
      return 0;
    default:  // reading: never asked for (see STAT)
      zip_error_set(&error_, ZIP_ER_OPNOTSUPP, 0);
      return -1;
  }
}

int ZipFileSink::begin_write() {
  // Not O_TRUNC: the file is empty, and truncating makes ext4 (auto_da_alloc) write the whole
  // file back when it is closed, a wait of about 0.2 s per 600 MB.
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) {
    zip_error_set(&error_, ZIP_ER_OPEN, errno);
    return -1;
  }
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

bool ZipFileSink::failed() {
  std::lock_guard lock(mutex_);
  if (write_errno_ == 0) return false;
  zip_error_set(&error_, ZIP_ER_WRITE, write_errno_);
  return true;
}

bool ZipFileSink::hand_over() {
  Chunk& chunk = pool_[current_];
  if (chunk.used == 0) {
    chunk.offset = position_;
    return !failed();
  }
  std::unique_lock lock(mutex_);
  queued_.push_back(current_);
  changed_.notify_all();
  changed_.wait(lock, [this] { return !free_.empty() || write_errno_ != 0; });
  if (write_errno_ != 0) {
    zip_error_set(&error_, ZIP_ER_WRITE, write_errno_);
    return false;
  }
  current_ = free_.back();
  free_.pop_back();
  pool_[current_].used = 0;
  pool_[current_].offset = position_;
  return true;
}

zip_int64_t ZipFileSink::write(const std::byte* data, std::size_t len) {
  std::size_t done = 0;
  while (done < len) {
    Chunk& chunk = pool_[current_];
    const std::size_t n = std::min(len - done, kChunkBytes - chunk.used);
    std::memcpy(chunk.bytes.get() + chunk.used, data + done, n);
    chunk.used += n;
    done += n;
    position_ += n;
    if (chunk.used == kChunkBytes && !hand_over()) return -1;
  }
  size_ = std::max(size_, position_);
  return static_cast<zip_int64_t>(len);
}

int ZipFileSink::seek(void* data, zip_uint64_t len) {
  const auto* args = ZIP_SOURCE_GET_ARGS(zip_source_args_seek_t, data, len, &error_);
  if (args == nullptr) return -1;
  const std::uint64_t base =
      args->whence == SEEK_SET ? 0 : args->whence == SEEK_CUR ? position_ : size_;
  const auto target = static_cast<zip_int64_t>(base) + args->offset;
  if ((args->whence != SEEK_SET && args->whence != SEEK_CUR && args->whence != SEEK_END) ||
      target < 0) {
    zip_error_set(&error_, ZIP_ER_INVAL, 0);
    return -1;
  }
  // The bytes gathered so far go to where they were written; the next ones start a chunk.
  if (!hand_over()) return -1;
  position_ = static_cast<std::uint64_t>(target);
  pool_[current_].offset = position_;
  return 0;
}

int ZipFileSink::commit() {
  const bool handed = hand_over();
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    changed_.notify_all();
  }
  writer_.join();
  int err = write_errno_;
  if (::close(fd_) != 0 && err == 0) err = errno;
  fd_ = -1;
  if (!handed || err != 0) {
    zip_error_set(&error_, ZIP_ER_WRITE, err != 0 ? err : EIO);
    return -1;
  }
  return 0;
}

void ZipFileSink::stop() {
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

void ZipFileSink::writer_loop() {
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
