#pragma once
// How a panel of controls edits the configuration, shared by the parameter panel and the mask /
// input / weight editors: each edit by the user becomes one undoable Document::changeConfig,
// and the controls follow the document's Change::config (so undo/redo moves them too). Moving a
// control to the configuration fires its change signal as a user's edit would: edits are
// ignored while the controls are being shown. A member of the panel it serves; GUI thread only.

#include <QString>
#include <functional>

#include "mhaviz/core/spec/config.hpp"

class QObject;

namespace mhaviz::ui {

class Document;

class ConfigEdits {
 public:
  explicit ConfigEdits(Document* document) : m_document(document) {}

  /// Applies `change` to a copy of the document's configuration and pushes it as one undoable
  /// command named `text` ("Set num_heads to 4"); consecutive edits with the same `mergeId`
  /// (>= 0) merge into one. Ignored while the controls are being shown.
  void edit(const QString& text, const std::function<void(mhaviz::Config&)>& change,
            int mergeId = -1) const;
  /// Shows the document's configuration with `show` now and on every Change::config, for as long
  /// as `context` (the panel) lives. Call once, when the panel's controls exist.
  void follow(QObject* context, std::function<void(const mhaviz::Config&)> show);
  /// Shows the document's configuration again now (as on Change::config).
  void show();
  /// True while `show` is moving the controls (their signals are not the user's edits).
  [[nodiscard]] bool showing() const { return m_showing; }

 private:
  void showConfig(const mhaviz::Config& config);

  Document* m_document;
  std::function<void(const mhaviz::Config&)> m_show;
  bool m_showing = false;
};

}  // namespace mhaviz::ui
