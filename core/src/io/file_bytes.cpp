#include "mhaviz/core/io/file_bytes.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <system_error>

#include "chunked_writer.hpp"
#include "mhaviz/core/base/errors.hpp"

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace mhaviz::io {

namespace fs = std::filesystem;

std::string display_name(const fs::path& path) { return path.string(); }

std::vector<std::byte> read_file_bytes(const fs::path& path) {
  const std::string name = display_name(path);
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    throw InvalidInput(name + ": file not found");
  }
  if (fs::is_directory(status)) {
    throw InvalidInput(name + ": is a directory, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InvalidInput(name + ": cannot open for reading: " + std::strerror(errno));
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw InvalidInput(name + ": cannot determine the file size");
  in.seekg(0, std::ios::beg);
  // The buffer is sized by the file's real length, never by anything the file claims.
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size)) {
    throw InvalidInput(name + ": read error after " + std::to_string(in.gcount()) + " of " +
                       std::to_string(size) + " bytes");
  }
  return bytes;
}

MappedFile::MappedFile(const fs::path& path) {
#if defined(__unix__) || defined(__APPLE__)
  const std::string name = display_name(path);
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw InvalidInput(name + ": file not found");
  if (fs::is_directory(status)) throw InvalidInput(name + ": is a directory, not a file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InvalidInput(name + ": cannot open for reading: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    const auto size = static_cast<std::size_t>(st.st_size);
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      ::madvise(p, size, MADV_SEQUENTIAL);  // read ahead: the parser walks it once
      data_ = static_cast<const std::byte*>(p);
      size_ = size;
      mapped_ = true;
    }
  }
  ::close(fd);
  if (mapped_) return;
#endif
  read_ = read_file_bytes(path);  // empty, not a regular file, or not mappable
  data_ = read_.data();
  size_ = read_.size();
}

MappedFile::~MappedFile() {
#if defined(__unix__) || defined(__APPLE__)
  if (mapped_) ::munmap(const_cast<std::byte*>(data_), size_);
#endif
}

namespace {

/// A name for the temporary file that no other writer (thread or process) picks at once.
fs::path temp_path_for(const fs::path& path) {
  static std::atomic<unsigned> counter{0};
  long pid = 0;
#if defined(__unix__) || defined(__APPLE__)
  pid = static_cast<long>(::getpid());
#endif
  const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
  std::string tmp_name = ".";
  tmp_name += path.filename().string();
  tmp_name += ".tmp-";
  tmp_name += std::to_string(pid);
  tmp_name += '-';
  tmp_name += std::to_string(ticks);
  tmp_name += '-';
  tmp_name += std::to_string(counter++);
  return path.parent_path() / tmp_name;
}

}  // namespace

void replace_file_atomic(const fs::path& path, const std::function<void(const fs::path&)>& write) {
  const std::string name = display_name(path);
  if (path.filename().empty()) throw InvalidInput(name + ": not a file name");
  const fs::path tmp = temp_path_for(path);
  {
    const std::ofstream create(tmp, std::ios::binary | std::ios::trunc);
    if (!create) {
      throw InvalidInput(
          name + ": cannot create a file in " +
          (path.parent_path().empty() ? std::string(".") : path.parent_path().string()) + ": " +
          std::strerror(errno));
    }
  }
  const auto remove_tmp = [&tmp] {
    std::error_code ignored;
    fs::remove(tmp, ignored);
  };
  try {
    write(tmp);
  } catch (...) {
    remove_tmp();
    throw;
  }
  std::error_code ec;
  // The file replaced keeps its permissions (a new one has those of the umask).
  const fs::file_status old = fs::status(path, ec);
  if (!ec && fs::is_regular_file(old)) fs::permissions(tmp, old.permissions(), ec);
  fs::rename(tmp, path, ec);
  if (ec) {
    remove_tmp();
    throw InvalidInput(name + ": cannot replace the file: " + ec.message());
  }
}

void write_file_atomic(const fs::path& path, std::span<const std::byte> bytes) {
  write_parts_atomic(path, std::span(&bytes, 1));
}

void write_parts_atomic(const fs::path& path, std::span<const std::span<const std::byte>> parts) {
  replace_file_atomic(path, [&](const fs::path& tmp) {
    // Through 1 MiB chunks that a second thread writes: the kernel's copy into the page cache
    // is then from the cache, several times faster than straight from large tensors.
    ChunkedFileWriter out;
    int err = out.open(tmp);
    for (const auto part : parts) {
      if (err != 0) break;
      if (!out.write(part.data(), part.size())) err = out.error();
    }
    if (err == 0) {
      err = out.finish();
    } else {
      out.abort();
    }
    if (err != 0)
      throw InvalidInput(display_name(path) + ": write failed (" + std::strerror(err) + ")");
  });
}

}  // namespace mhaviz::io
