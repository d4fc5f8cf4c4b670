#include "mhaviz/core/io/npy_header.hpp"

#include <cstdint>
#include <limits>
#include <optional>

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::io {

namespace {

/// Recursive-descent reader over the header text; every error names the file and the offset.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  NpyHeader parse() {
    NpyHeader header;
    bool have_descr = false;
    bool have_order = false;
    bool have_shape = false;
    expect('{');
    skip_space();
    while (peek() != '}') {
      const std::string key = parse_string();
      expect(':');
      if (key == "descr") {
        skip_space();
        if (peek() == '[') {
          fail("structured (record) dtypes are not supported; save a plain numeric array");
        }
        header.descr = parse_string();
        have_descr = true;
      } else if (key == "fortran_order") {
        header.fortran_order = parse_bool();
        have_order = true;
      } else if (key == "shape") {
        header.shape = parse_shape();
        have_shape = true;
      } else {
        fail("unexpected key '" + key + "' (a .npy header has 'descr', 'fortran_order', 'shape')");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
      } else if (peek() != '}') {
        fail("expected ',' or '}'");
      }
    }
    ++pos_;
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the closing '}'");
    if (!have_descr || !have_order || !have_shape) {
      fail(std::string("missing key '") +
           (!have_descr ? "descr" : (!have_order ? "fortran_order" : "shape")) + "'");
    }
    return header;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw InvalidInput(std::string(name_) + ": malformed .npy header at byte " +
                       std::to_string(pos_) + ": " + problem);
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  char peek() {
    if (pos_ >= text_.size()) fail("the header ends early");
    return text_[pos_];
  }

  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  std::string parse_string() {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a quoted string");
    ++pos_;
    const std::size_t start = pos_;
    while (peek() != quote) {
      if (text_[pos_] == '\\') fail("escape sequences are not supported in header strings");
      ++pos_;
    }
    std::string s(text_.substr(start, pos_ - start));
    ++pos_;
    return s;
  }

  bool parse_bool() {
    skip_space();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("expected True or False");
  }

  std::int64_t parse_dim() {
    skip_space();
    if (peek() == '-') fail("negative dimension in shape");
    if (peek() < '0' || peek() > '9') fail("expected a dimension (a non-negative integer)");
    std::int64_t v = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const int digit = text_[pos_] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - digit) / 10) {
        fail("dimension too large");
      }
      v = v * 10 + digit;
      ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 long literal
    return v;
  }

  Shape parse_shape() {
    expect('(');
    Shape shape;
    skip_space();
    while (peek() != ')') {
      shape.push_back(parse_dim());
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
      } else if (peek() != ')') {
        fail("expected ',' or ')' in shape");
      }
      if (shape.size() > 64) fail("more than 64 dimensions");
    }
    ++pos_;
    return shape;
  }

  std::string_view text_;
  std::string_view name_;
  std::size_t pos_ = 0;
};

}  // namespace

NpyHeader parse_npy_header(std::string_view text, std::string_view name) {
  return HeaderParser(text, name).parse();
}

}  // namespace mhaviz::io
