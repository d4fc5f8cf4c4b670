#pragma once
// The map of a model selected and its batch element (Document::selection): the model view
// outlines the map and draws the batch element, the comparison of two model files compares
// them, and the window opens the map's layer as the session.

namespace mhaviz::ui {

struct Selection {
  int layer = -1;  // -1: none (no model open)
  int head = -1;   // -1: the whole layer
  int batch = 0;   // the batch element shown
  bool operator==(const Selection&) const = default;
};

}  // namespace mhaviz::ui
