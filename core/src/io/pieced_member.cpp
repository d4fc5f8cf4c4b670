#include "pieced_member.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace mhaviz::io {

PiecedMember::PiecedMember(std::string name, std::vector<std::byte> header,
                           std::uint64_t data_bytes, PieceProducer& producer,
                           std::exception_ptr& error)
    : name_(std::move(name)),
      header_(std::move(header)),
      size_(header_.size() + data_bytes),
      producer_(producer),
      error_(error),
      // As libzip's buffer sources, which the held tensors' members use: the time of creation.
      mtime_(std::time(nullptr)) {
  zip_error_init(&zip_error_);
}

PiecedMember::~PiecedMember() { zip_error_fini(&zip_error_); }

zip_source_t* PiecedMember::make_source(zip_t* archive) {
  return zip_source_function(archive, &PiecedMember::callback, this);
}

zip_int64_t PiecedMember::callback(void* self, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
  return static_cast<PiecedMember*>(self)->handle(data, len, cmd);
}

zip_int64_t PiecedMember::handle(void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
  switch (cmd) {
    case ZIP_SOURCE_SUPPORTS:
      return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE,
                                            ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
    case ZIP_SOURCE_OPEN:
      if (opened_) {  // the pieces are made once: they cannot be read again
        zip_error_set(&zip_error_, ZIP_ER_OPNOTSUPP, 0);
        return -1;
      }
      opened_ = true;
      return 0;
    case ZIP_SOURCE_READ:
      return read(static_cast<std::byte*>(data), len);
    case ZIP_SOURCE_STAT:
      return stat(data, len);
    case ZIP_SOURCE_ERROR:
      return zip_error_to_data(&zip_error_, data, len);
    case ZIP_SOURCE_CLOSE:
    case ZIP_SOURCE_FREE:  // the member belongs to write_npz
      return 0;
    default:
      zip_error_set(&zip_error_, ZIP_ER_OPNOTSUPP, 0);
      return -1;
  }
}

zip_int64_t PiecedMember::stat(void* data, zip_uint64_t len) {
  auto* st = ZIP_SOURCE_GET_ARGS(zip_stat_t, data, len, &zip_error_);
  if (st == nullptr) return -1;
  // What a buffer source reports for the same bytes, so that the member's headers are the same.
  st->valid |= ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD |
               ZIP_STAT_ENCRYPTION_METHOD | ZIP_STAT_MTIME;
  st->size = st->comp_size = size_;
  st->comp_method = ZIP_CM_STORE;
  st->encryption_method = ZIP_EM_NONE;
  st->mtime = mtime_;
  return 0;
}

zip_int64_t PiecedMember::read(std::byte* out, std::uint64_t len) {
  std::uint64_t done = 0;
  try {
    while (done < len && position_ < size_) {
      const std::uint64_t room = std::min(len - done, size_ - position_);
      if (position_ < header_.size()) {
        const auto n =
            static_cast<std::size_t>(std::min<std::uint64_t>(room, header_.size() - position_));
        std::memcpy(out + done, header_.data() + position_, n);
        done += n;
        position_ += n;
        continue;
      }
      if (piece_at_ == piece_bytes_.size()) {
        piece_ = producer_.next(name_);
        piece_bytes_ = std::as_const(piece_).bytes();
        piece_at_ = 0;
        continue;
      }
      const auto n =
          static_cast<std::size_t>(std::min<std::uint64_t>(room, piece_bytes_.size() - piece_at_));
      std::memcpy(out + done, piece_bytes_.data() + piece_at_, n);
      piece_at_ += n;
      done += n;
      position_ += n;
    }
  } catch (...) {
    if (!error_) error_ = std::current_exception();
    zip_error_set(&zip_error_, ZIP_ER_INTERNAL, 0);
    return -1;
  }
  return static_cast<zip_int64_t>(done);
}

}  // namespace mhaviz::io
