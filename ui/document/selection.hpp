#pragma once
// The map of a model selected (Document::selection): the model view outlines it, the comparison
// of two model files compares it, and the window opens its layer as the session.

namespace mhaviz::ui {

struct Selection {
  int layer = -1;  // -1: none (no model open)
  int head = -1;   // -1: the whole layer
  bool operator==(const Selection&) const = default;
};

}  // namespace mhaviz::ui
