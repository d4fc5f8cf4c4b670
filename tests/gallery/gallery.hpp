#pragma once
// mhaviz-gallery's states (gallery.cpp renders them): what one state is, the configurations
// more than one group of states uses, and the groups, each in a file of its own beside
// gallery.cpp (gallery_grid.cpp, gallery_views.cpp, gallery_workspaces.cpp, gallery_vision.cpp,
// gallery_weights.cpp).

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

/// Value norms with both appended columns: the zero column's norm is 0 whatever its weight.
inline constexpr const char* kValueNormsJson =
    R"({"embed_dim": 16, "num_heads": 4, "tgt_len": 6, "src_len": 6, "seed": 3,
        "add_bias_kv": true, "add_zero_attn": true,
        "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";
// The workspaces' states (and presentation mode's eight heads): eight heads with bias_k, the
// zero key and token labels.
inline constexpr const char* kWorkspaceJson =
    R"({"embed_dim": 32, "num_heads": 8, "tgt_len": 7, "src_len": 7, "seed": 3,
        "add_bias_kv": true, "add_zero_attn": true,
        "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"},
        "query_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "key_labels": ["the", "cat", "sat", "on", "the", "warm", "mat"],
        "inputs": {"kind": "sinusoidal", "content_scale": 0.3, "self_attention": true}})";

/// Waits until the window's computation has no work running and the grid has drawn its picture
/// (then a short settling of the layout).
bool settle(mhaviz::ui::MainWindow& window);

/// The Explore grid's states: masks, stages, long contexts, presentation mode, patterns, and
/// two configurations compared (gallery_grid.cpp).
QList<Shot> gridShots();

/// The head view, the text view and the bundled models' views (gallery_views.cpp).
QList<Shot> viewShots();

/// The workspaces at three sizes, with the Image view's states among them
/// (gallery_workspaces.cpp).
QList<Shot> workspaceShots();

/// The token views of the bundled vision transformer (squares) with its patches beside their
/// labels (gallery_vision.cpp).
QList<Shot> visionShots();

/// Weights-only model files in the window (gallery_weights.cpp): a grouped-query model in the
/// model view with a head selected, and two such files compared.
QList<Shot> weightsOnlyShots();

}  // namespace mhaviz::gallery
