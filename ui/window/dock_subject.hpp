#pragma once
// What the docks describe, said at the top of each: while the session is a layer of a model
// ("Layer 1 (encoder.layers.1.self_attn) of reverse.json, head 3") and while the model view is
// on screen (then the docks show a layer of it, or the session opened before it while it is
// read). Follows the document's origin and the centre's page; hidden for a session of the
// user's own in the full view, where the docks describe the maps on screen. GUI thread only.

#include <QList>
#include <QObject>

class QDockWidget;
class QLabel;

namespace mhaviz::ui {

class Document;
class ModelPages;

class DockSubject : public QObject {
  Q_OBJECT

 public:
  /// Puts a line (object name "dockSubject") above the content of each of `docks`.
  DockSubject(Document* document, ModelPages* pages, const QList<QDockWidget*>& docks,
              QObject* parent);

  /// The line's text; empty when the docks describe the maps on screen and say nothing.
  [[nodiscard]] QString text() const;

 private:
  void update();

  Document* m_document;
  ModelPages* m_pages;
  QList<QLabel*> m_labels;
};

}  // namespace mhaviz::ui
