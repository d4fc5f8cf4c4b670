#include "zip_sink.hpp"

#include <cerrno>
#include <cstdio>
#include <utility>

namespace mhaviz::io {

ZipFileSink::ZipFileSink(std::filesystem::path path) : path_(std::move(path)) {
  zip_error_init(&error_);
}

ZipFileSink::~ZipFileSink() {
  file_.abort();
  zip_error_fini(&error_);
}

zip_source_t* ZipFileSink::make_source(zip_error_t* error) {
  return zip_source_function_create(&ZipFileSink::callback, this, error);
}

zip_int64_t ZipFileSink::callback(void* self, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
  return static_cast<ZipFileSink*>(self)->handle(data, len, cmd);
}

int ZipFileSink::fail(int system_errno) {
  zip_error_set(&error_, ZIP_ER_WRITE, system_errno != 0 ? system_errno : EIO);
  return -1;
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
      if (const int err = file_.open(path_); err != 0) {
        zip_error_set(&error_, ZIP_ER_OPEN, err);
        return -1;
      }
      return 0;
    case ZIP_SOURCE_WRITE:
      if (!file_.write(static_cast<const std::byte*>(data), static_cast<std::size_t>(len))) {
        return fail(file_.error());
      }
      return static_cast<zip_int64_t>(len);
    case ZIP_SOURCE_SEEK_WRITE:
      return seek(data, len);
    case ZIP_SOURCE_TELL_WRITE:
      return static_cast<zip_int64_t>(file_.position());
    case ZIP_SOURCE_COMMIT_WRITE:
      if (const int err = file_.finish(); err != 0) return fail(err);
      return 0;
    case ZIP_SOURCE_ROLLBACK_WRITE:
      file_.abort();
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

int ZipFileSink::seek(void* data, zip_uint64_t len) {
  const auto* args = ZIP_SOURCE_GET_ARGS(zip_source_args_seek_t, data, len, &error_);
  if (args == nullptr) return -1;
  const std::uint64_t base = args->whence == SEEK_SET   ? 0
                             : args->whence == SEEK_CUR ? file_.position()
                                                        : file_.size();
  const auto target = static_cast<zip_int64_t>(base) + args->offset;
  if ((args->whence != SEEK_SET && args->whence != SEEK_CUR && args->whence != SEEK_END) ||
      target < 0) {
    zip_error_set(&error_, ZIP_ER_INVAL, 0);
    return -1;
  }
  if (!file_.seek(static_cast<std::uint64_t>(target))) return fail(file_.error());
  return 0;
}

}  // namespace mhaviz::io
