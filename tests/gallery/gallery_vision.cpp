// The gallery's states of a vision transformer's tokens (gallery.hpp): the bundled squares
// model (32x32 images, a 4x4 grid of 8x8 patches and a class token) in the Tokens workspace,
// its first layer's head view and text view with each patch token's patch beside its label and
// the class token pinned: its lines in the head view (head 1, orange, to the small yellow
// square) and its average weights shading the text view. At the gallery's usual size, at
// 1280x720 and 1920x1080, and dark in Chinese.

#include "gallery.hpp"
#include "window/workspace_arrangements.hpp"

namespace mhaviz::gallery {

QList<Shot> visionShots() {
  const auto tokens = [](const char* name) {
    Shot shot{.name = name, .configJson = nullptr, .view = {}};
    shot.model = "squares";
    shot.headView = true;
    shot.headQuery = 0;  // [CLS]
    shot.textView = true;
    shot.textQuery = 0;
    shot.workspace = mhaviz::ui::kTokens;
    return shot;
  };
  Shot small = tokens("tokens_vision_1280x720");
  small.size = QSize(1280, 720);
  Shot large = tokens("tokens_vision_1920x1080");
  large.size = QSize(1920, 1080);
  Shot darkChinese = tokens("tokens_vision_dark_chinese");
  darkChinese.chinese = true;
  darkChinese.dark = true;
  return {tokens("tokens_vision"), small, large, darkChinese};
}

}  // namespace mhaviz::gallery
