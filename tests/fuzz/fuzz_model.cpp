// libFuzzer target: the model-file reader, mhaviz::model::read_model, on an index and a tensors
// file made from arbitrary bytes: the input is the index's JSON, a NUL byte, then the tensors
// file (.npz). The index's word TENSORS is replaced by the scratch tensors file's name, so that
// seeds (tests/fuzz/make_corpus.py: the model fixtures, the vision transformer's image members
// of format version 3 among them) name it. Bad input must be refused with InvalidInput; a model
// read must have an image tensor of its grid's shape when its index has an image.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

#include "fuzz_common.hpp"
#include "mhaviz/core/model/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mhaviz::fuzz::ScratchFile index(".json");
  static const mhaviz::fuzz::ScratchFile tensors(".npz");
  const std::string_view all = mhaviz::fuzz::as_text(data, size);
  const std::size_t nul = all.find('\0');
  std::string text(all.substr(0, nul));
  for (std::size_t at = text.find("TENSORS"); at != std::string::npos;
       at = text.find("TENSORS", at))
    text.replace(at, 7, tensors.path().filename().string());
  {
    std::ofstream(index.path(), std::ios::binary) << text;
    std::ofstream out(tensors.path(), std::ios::binary);
    if (nul != std::string_view::npos) out << all.substr(nul + 1);
  }
  mhaviz::fuzz::expect_parsed_or_rejected([&] {
    const mhaviz::model::Model m = mhaviz::model::read_model(index.path(), 64ULL << 20);
    if (m.index.image) {
      const mhaviz::model::ImageGrid& g = *m.index.image;
      if (m.image.input.dim() != 4 || m.image.input.size(1) != g.channels ||
          m.image.input.size(2) != g.height || m.image.input.size(3) != g.width)
        __builtin_trap();
      (void)mhaviz::model::display_image(m.image, 0);
    }
  });
  return 0;
}
