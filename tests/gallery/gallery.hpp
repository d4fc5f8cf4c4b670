#pragma once
// mhaviz-gallery's states (gallery.cpp renders them): what one state is, and the states kept in
// files of their own beside gallery.cpp (gallery_vision.cpp: a vision transformer's tokens;
// gallery_weights.cpp: weights-only models).

#include <QList>
#include <QSize>
#include <QString>
#include <array>
#include <cstdint>
#include <functional>

#include "stages/view_options.hpp"

namespace mhaviz::ui {
class MainWindow;
}

namespace mhaviz::gallery {

constexpr int kWidth = 1600;
constexpr int kHeight = 1000;
// A guard against a state that never settles, not a speed check: the causal 32768-token state
// takes about 15 s in a release build and over a minute under AddressSanitizer with another
// test beside it (it failed at 60 s there).
constexpr int kTimeoutMs = 300000;

struct Shot {
  const char* name;                        // file name without .png
  const char* configJson;                  // nullptr: the window's start-up configuration
  std::function<void(mhaviz::ui::ViewOptions&)> view;  // changes to the view, or empty
  bool chinese = false;
  bool dark = false;
  bool presentation = false;
  bool masks = false;             // the "Masks and inputs" tab in front (mask editor, block grid)
  std::uint64_t memoryLimit = 0;  // > 0: the window's limit (the reduced view of long contexts)
  /// Compare mode: the state above is pinned as A, then this configuration becomes B.
  const char* compareB = nullptr;
  // rowEnd > 0: the reduced view zoomed into queries [row0, rowEnd) x keys [col0, colEnd),
  // folded to the maps' pixels as the wheel's zoom is.
  std::array<int, 4> zoom = {0, 0, 0, 0};
  /// With a zoom: the whole reduced view before it is saved too, under this name.
  const char* beforeZoom = nullptr;
  const char* model = nullptr;  // a bundled model (File > Examples) shown in the model view
  // layerThenBack: the model view again after a clicked layer (the docks say which they show);
  // selected: layer 1 head 3 selected in the model view (the docks, head and text views show
  // it); flow: the Attention flow view; step: the step view at step 3 (a generation capture)
  enum class ModelShows {
    grid,
    rollout,
    flow,
    step,
    layer,
    layerThenBack,
    selected,
    image  // the Image view of a vision transformer (the Model workspace's tab, in front)
  } modelShows = ModelShows::grid;
  /// The head view shown (View > Head view); headQuery >= 0: that query pinned.
  bool headView = false;
  int headQuery = -1;
  /// The window's size (the gallery's usual 1600x1000 unless said).
  QSize size = QSize(kWidth, kHeight);
  /// The text view shown (View > Text view); textQuery >= 0: that query pinned.
  bool textView = false;
  int textQuery = -1;
  /// The workspace shown (window/workspace_arrangements.hpp); -1: the one the state chose
  /// (Explore, or Tokens, Compare, Model for a token view, A pinned, a model).
  int workspace = -1;
  /// More steps of the state, run after the model, the token views and the workspace above (the
  /// states of gallery_weights.cpp: their files written and opened, a comparison made); returns
  /// what went wrong, or nothing.
  std::function<QString(mhaviz::ui::MainWindow&)> steps = nullptr;
};


/// Waits until the window's computation has no work running and the grid has drawn its picture
/// (then a short settling of the layout).
bool settle(mhaviz::ui::MainWindow& window);

/// The token views of the bundled vision transformer (squares) with its patches beside their
/// labels (gallery_vision.cpp).
QList<Shot> visionShots();

/// Weights-only model files in the window (gallery_weights.cpp): a grouped-query model in the
/// model view with a head selected, and two such files compared.
QList<Shot> weightsOnlyShots();

}  // namespace mhaviz::gallery
